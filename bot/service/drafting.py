"""A planned reply made with the pickers the Play panel uses, for any front end: while the
opponent's turn runs, the player picks the opponent's expected turn, action by action from
their legal actions as the player knows the game (``for_player``: a draft can never depend
on what the player may not know), then their answer from their own legal actions after it,
and saves it as a plan (``plans.manage`` checks and keeps it as if it were typed).

The draft is kept in the store (``plan_drafts``, PRIVATE to its player) with the public turn
it belongs to, so a front end's components only carry where they are (the match's stamp
and the menus above them) and work after a restart; a draft of an earlier turn, or one that
no longer plays, is stale and starts again empty, and an accepted takeback or reset drops
both players' drafts, in its own save (``Context.save``'s ``forget``). Nothing about a draft
reaches the opponent."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import partial

from bot.i18n import _
from rules import ActionError, GameState, GameView, Side, game_type

from . import plans, pointing, showing
from .context import Context
from .errors import ActionRefused, Refused
from .host import Host
from .models import Menu, Place, User
from .offload import Offload
from .phases import PLAYING
from .picking import title as picking_title
from .ports import Stamp
from .table import Table, player_side

# What a step of the draft does besides a pick
NEW, THEIRS_DONE, UNDO, SAVE = "new", "done", "undo", "save"
STEPS = (NEW, THEIRS_DONE, UNDO, SAVE)
MOST_ACTIONS = 12  # actions of one side's turn in a draft
MOST_PICK = 200  # characters of a picked action's notation


@dataclass(frozen=True)
class Draft:
    """A planned reply being made: the opponent's expected turn so far (``theirs``), the
    player's answer so far (``mine``, while ``replying``), and ``menu``, the pickers of the
    side that acts next in the draft with the picture of the draft's position as the player
    sees it. ``news``: what the last step did. ``complete``: it may be saved now."""

    menu: Menu
    theirs: tuple[str, ...] = ()
    mine: tuple[str, ...] = ()
    replying: bool = False
    news: str = ""
    opponent: str = ""
    complete: bool = False
    plans: tuple[str, ...] = field(default_factory=tuple)  # the player's plans, as listed


@dataclass
class _Parts:
    theirs: list[str] = field(default_factory=list)
    mine: list[str] = field(default_factory=list)
    replying: bool = False

    def encode(self) -> str:
        return json.dumps({"theirs": self.theirs, "mine": self.mine, "replying": self.replying})

    @classmethod
    def decode(cls, text: str) -> _Parts:
        found = json.loads(text)
        return cls(list(found["theirs"]), list(found["mine"]), bool(found["replying"]))


class Drafting(Host):
    async def draft_plan(
        self,
        place: Place,
        user: User,
        *,
        pick: str | None = None,
        step: str | None = None,
        group: str | None = None,
        cancel: str | None = None,
        expect: Stamp | None = None,
    ) -> Draft:
        """The player's planned reply being made (private): ``pick`` adds an action (its
        notation) to the side being picked for, ``step`` starts again (``new``), ends the
        opponent's expected turn (``done``), takes back the last pick (``undo``) or saves
        the plan (``save``); ``group`` opens a piece's actions in the pickers; ``cancel``
        cancels a saved plan (its number in the list, as ``/tora plans cancel:``)."""
        if step is not None and step not in STEPS:
            raise Refused(_("A draft's step is one of {steps}.", steps=", ".join(STEPS)))
        if pick is not None and not 0 < len(pick) <= MOST_PICK:
            raise Refused(_("An action's notation is 1 to {most} characters.", most=MOST_PICK))

        async def flow(table: Table) -> Draft:
            if cancel is not None:
                return await _cancelled(self._ctx, table, user, cancel)
            return await drafted(self._ctx, table, user, pick, step, group)

        return await self._command(place, user, expect, (PLAYING,), flow)


async def drafted(
    ctx: Context, table: Table, user: User, pick: str | None, step: str | None, group: str | None
) -> Draft:
    """``draft_plan``'s work on the match: the step, then the pick, then what to show."""
    side = _planner(ctx, table, user)
    parts = await _load(ctx, table, side)
    news = ""
    if step == NEW:
        parts = _Parts()
    elif step == UNDO:
        _undo(parts)
    elif step == THEIRS_DONE:
        await _positioned(table, side, replace(parts, replying=True))
        parts.replying = True
    elif step == SAVE:
        news = await _save(ctx, table, user, parts)
        parts = _Parts()
    if pick is not None:
        parts = await _picked(table, side, parts, pick)
    if pick is not None or step is not None:  # (a look through the menus changes nothing)
        kept = parts.encode() if parts.theirs or parts.mine else None
        await ctx.store.hosting.put_draft(table.hosted.id, side, table.turn, kept)
    return await _shown(ctx, table, side, parts, group, news)


async def _cancelled(ctx: Context, table: Table, user: User, cancel: str) -> Draft:
    """A saved plan cancelled (``plans.manage``), the draft shown as it was."""
    side = _planner(ctx, table, user)
    reply = await plans.manage(ctx, table, user, None, cancel)
    parts = await _load(ctx, table, side)
    return await _shown(ctx, table, side, parts, None, reply.text.split("\n", 1)[0])


def _planner(ctx: Context, table: Table, user: User) -> Side:
    """The user's side, if they may plan now: a player while the opponent's own turn runs
    (``plans.refuse_acting``, ``plans.unplannable`` say why not otherwise)."""
    side = player_side(table, user)
    plans.refuse_acting(ctx, table, side)
    plans.refuse_unplannable(table, side)
    return side


async def _load(ctx: Context, table: Table, side: Side) -> _Parts:
    """The player's draft of this turn: empty when there is none, it is of a turn that has
    ended, or it no longer plays (a turn number comes back after a takeback; a draft of
    another position must not keep the panel from opening with its Start again)."""
    found = await ctx.store.hosting.private_draft(table.hosted.id, side)
    if found is None or found[0] != table.turn:
        return _Parts()
    parts = _Parts.decode(found[1])
    try:
        await _positioned(table, side, parts)
    except Refused:
        return _Parts()
    return parts


def _undo(parts: _Parts) -> None:
    if parts.mine:
        parts.mine.pop()
    elif parts.replying:
        parts.replying = False
    elif parts.theirs:
        parts.theirs.pop()
    else:
        raise Refused(_("There is nothing to take back: the plan is empty."))


async def _positioned(table: Table, side: Side, parts: _Parts) -> GameState:
    """``_position``, run where the game's rules steps run (``Offload.step``)."""
    return await Offload.step(table.game, partial(_position, table, side, parts))


def _position(table: Table, side: Side, parts: _Parts) -> GameState:
    """The draft's position on the player's own copy of the game; Refused when it cannot be
    played (the opponent's expected turn cannot end so, say, or the reply goes on after a
    search: ``plans.stage_reply``)."""
    game = table.game.for_player(side)
    try:
        for text in parts.theirs:
            game.apply(text)
        if parts.replying:
            if not parts.theirs:
                raise Refused(_("Pick at least one action of your opponent's turn first."))
            game.end_turn()
            series = showing.series_number(table.game)
            stuck = plans.no_reply(game, side, series, plans.Stuck(1, "", "; ".join(parts.theirs)))
            if stuck is not None:
                raise plans.refusal(stuck)
            plans.stage_reply(game, "; ".join(parts.mine))
    except ActionError as exc:
        raise ActionRefused(exc) from None
    return game


def _seen(game: GameState, side: Side) -> GameView:
    """What the planner's picture shows of the draft's position: ``side``'s own view, with
    the opponent's expected actions picked so far played as their turn (drawn as its last
    turn, the pieces where they leave them), since a view of a running turn shows only its
    own player's staged actions; as it stands where that turn could not end so."""
    if game.side == side or not game.staged():
        return game.view_for(side)
    played = game.copy()
    try:
        with game_type(game.game_type).replaying(played):  # no judging of what follows
            played.end_turn()
    except ActionError:
        return game.view_for(side)
    return played.view_for(side)


async def _picked(table: Table, side: Side, parts: _Parts, pick: str) -> _Parts:
    """``parts`` with ``pick`` added to the side being picked for (in a one-move game, in
    place of the move picked before, when that one was complete: not one of a turn of
    several decisions, TI15; their move picked, the reply is next)."""
    one_move = game_type(table.game.game_type).one_move
    picked = parts.mine if parts.replying else parts.theirs
    if len(picked) >= MOST_ACTIONS:
        raise Refused(_("A turn of a plan has at most {most} actions.", most=MOST_ACTIONS))
    if one_move and picked and not (await _positioned(table, side, parts)).actions_left:
        picked.pop()
    picked.append(pick)
    game = await _positioned(table, side, parts)  # refused if illegal
    if one_move and not parts.replying and not game.actions_left:
        parts.replying = True
        await _positioned(table, side, parts)
    return parts


async def _save(ctx: Context, table: Table, user: User, parts: _Parts) -> str:
    if not parts.theirs or not parts.mine:
        raise Refused(_("Pick your opponent's turn and then your reply before saving the plan."))
    text = f"{'; '.join(parts.theirs)} {plans.STEP} {'; '.join(parts.mine)}"
    reply = await plans.manage(ctx, table, user, text, None)
    return reply.text.split("\n", 1)[0]


async def _shown(
    ctx: Context, table: Table, side: Side, parts: _Parts, group: str | None, news: str
) -> Draft:
    """The draft with its pickers: the legal actions of the side to act in its position,
    those of ``group`` with the picture pointing them out."""
    game = await _positioned(table, side, parts)
    one_move = game_type(game.game_type).one_move
    base = game
    if one_move and game.staged() and not game.actions_left:  # a new move replaces it
        base = game.copy()
        base.undo()
    groups = await Offload.step(base, base.menu)
    them = table.side_name(side.other)
    if parts.replying:
        picking = _("picking your reply")
    else:
        picking = _("picking {player}'s turn you expect", player=them)
    menu = Menu(
        table.stamp,
        _("Plan a reply · {match}", match=picking_title(table, side)),
        tuple(parts.mine if parts.replying else parts.theirs),
        tuple(groups),
        (),
        game.actions_left,
        to_act=picking,
        prompt=base.prompt(),
        one_move=one_move,
    )
    header = next((g for g in menu.groups if g.key == group), None)
    if header is None:
        seen = await Offload.step(game, partial(_seen, game, side))
        picture = await ctx.private_file(seen, table, "plan.png")
    else:
        choices = await Offload.step(base, partial(base.choices, header.key))
        marks = pointing.pointing(header, choices)
        seen = await Offload.step(base, partial(_seen, base, side))
        picture = await ctx.private_file(seen, table, "plan.png", marks)
        menu = replace(menu, choices=tuple(choices), letters=marks.letters)
    menu = replace(menu, picture=picture)
    listed = await plans.plans_of(ctx, table, side)
    return Draft(
        menu,
        tuple(parts.theirs),
        tuple(parts.mine),
        parts.replying,
        news,
        them,
        # (a one-move game's reply is complete with its move: every decision of it, TI15)
        complete=parts.replying and bool(parts.mine) and not (one_move and game.actions_left),
        plans=tuple(plans.words(line, them) for line in listed),
    )
