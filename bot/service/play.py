"""Turns: actions submitted one at a time (validated at once and staged), undo, the
player's own board and preview, and the player's end of their turn (``typed``: a line of
typed actions and its completion; ``turns``: what follows any turn's end; ``deadlines``: a
turn's end by the clock)."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from functools import partial

from bot.i18n import _, ngettext, word
from rules import ActionError, GameState, Side, game_type
from rules.protocol import GameEvent

from . import announce, showing
from . import typed as typed_actions
from .context import Context
from .endings import outcome_headline
from .errors import ActionRefused, NotAllowed, Refused
from .lobby import not_accepted
from .models import Reply, User, is_robot
from .phases import CHALLENGE, PLAYING
from .ports import Attachment
from .reminders import looked
from .table import Table, player_side
from .texts import listing, moment
from .turns import after_turn as after_turn  # also agreements': a reset ends a turn too
from .turns import turn_headline, with_missed
from .typed import Revealed, before_last, replaces


def acting_side(ctx: Context, table: Table, user: User) -> Side:
    """The user's side, if they may act now: a player, on their turn, not paused."""
    if table.hosted.phase == CHALLENGE:
        raise Refused(not_accepted(ctx, table, user))
    if table.hosted.phase != PLAYING:
        raise Refused(_("The game has not started yet: both players must finish their setup."))
    side = player_side(table, user)
    if table.paused:
        raise Refused(
            _(
                "The match is paused. Resume it first with {command}.",
                command=ctx.cmd("resume", localized=True),
            )
        )
    game = table.game
    if game.side != side:
        due, player = table.hosted.due_at, table.side_name(game.side)
        view = game.view_for(None)
        if view.deciding:  # a decision in this user's turn (TI15): the opponent's turn follows
            raise NotAllowed(_deciding(ctx, player, word(view.decision), due))
        if due is None:
            raise NotAllowed(
                _("It is {player}'s turn. Yours begins when they end it.", player=player)
            )
        raise NotAllowed(
            _(
                "It is {player}'s turn. Yours begins when they end it or at its deadline, {time}.",
                player=player,
                time=moment(due, ctx.now(), localized=True),
            )
        )
    return side


def _deciding(ctx: Context, player: str, decision: str, due: float | None) -> str:
    """Why the player whose turn waits on the opponent's decision in it may not act."""
    if due is None:
        return _(
            "{player} has a decision to make in your turn, {decision}. Then they play their own "
            "turn; yours begins when they end it.",
            player=player,
            decision=decision,
        )
    return _(
        "{player} has a decision to make in your turn, {decision}, by {time}. Then they play "
        "their own turn; yours begins when they end it.",
        player=player,
        decision=decision,
        time=moment(due, ctx.now(), localized=True),
    )


async def play(ctx: Context, table: Table, user: User, text: str, *, preview: bool = True) -> Reply:
    """Stage the actions of ``text``: one, or several separated by ``;`` as in a record's
    turn line, all or none (they are checked on a copy of the game first), but for those
    before a refused one that a search holds (R10, ``typed.Revealed``). Without
    ``preview``, the reply has no picture (a front end that draws its own board)."""
    side = acting_side(ctx, table, user)
    parts = typed_actions.parts(ctx, text)
    match = table.played
    if len(parts) == 1 and replaces(match.game):
        return await _replace(ctx, table, side, parts[0], preview)
    refused = ""  # the refusal of an action after a search, which stays staged (R10)
    if len(parts) > 1:
        try:
            await ctx.offload.step(
                match.game, lambda: typed_actions.try_all(match.game.copy(), parts)
            )
        except Revealed as revealed:
            parts, refused = parts[: revealed.staged], f"\n{revealed.said}"
    try:
        events = [await ctx.offload.step(match.game, partial(match.act, part)) for part in parts]
    except ActionError as exc:
        raise ActionRefused(exc) from None
    texts = match.game.staged()[-len(events) :]  # as people read them (ToriShogi: TS1)
    said = [_noted(t, e) for t, e in zip(texts, events, strict=True)]
    head = _("Staged: {actions}.", actions="; ".join(said)) + refused
    return await staged_reply(ctx, table, side, head, preview)


def _noted(text: str, event: GameEvent) -> str:
    """A staged action as people read it, with what the rules note of it ("check")."""
    return f"{text} ({word(event.note)})" if event.note else text


async def _replace(ctx: Context, table: Table, side: Side, text: str, preview: bool) -> Reply:
    """Stage ``text`` in place of the last staged action; tried on a copy first, so a
    refusal leaves the staged one as it was."""
    match = table.played
    try:
        await ctx.offload.step(match.game, lambda: before_last(match.game).apply(text))
    except ActionError as exc:
        raise ActionRefused(exc) from None
    old = await ctx.offload.step(match.game, match.undo)
    event = await ctx.offload.step(match.game, partial(match.act, text))
    new = _noted(match.game.staged()[-1], event)
    head = _("Staged {new} in place of {old}.", new=new, old=old)
    return await staged_reply(ctx, table, side, head, preview)


async def choices(
    ctx: Context, table: Table, user: User, typed: str, limit: int
) -> list[tuple[str, str]]:
    """The acting player's legal actions that complete ``typed`` (``typed.completions``):
    theirs alone, their hidden Assassin's included."""
    return await typed_actions.completions(ctx, table, acting_side(ctx, table, user), typed, limit)


async def undo(
    ctx: Context, table: Table, user: User, number: int | None, *, preview: bool = True
) -> Reply:
    """Take back the last staged action, or action ``number`` (from 1) of this turn."""
    side = acting_side(ctx, table, user)
    match = table.played
    staged = len(table.game.staged())
    if not staged:
        raise Refused(_("There is nothing to take back: you have not staged any action this turn."))
    if number is not None and not 1 <= number <= staged:
        raise Refused(
            ngettext(
                "This turn has {n} staged action: take back one of 1 to {n}, or leave the "
                "number out to take back the last one.",
                "This turn has {n} staged actions: take back one of 1 to {n}, or leave the "
                "number out to take back the last one.",
                staged,
            )
        )
    try:
        if number is None:
            text = await ctx.offload.step(match.game, match.undo)
        else:
            text = await ctx.offload.step(match.game, partial(match.take_back, number - 1))
    except ActionError as exc:
        raise ActionRefused(exc) from None
    return await staged_reply(ctx, table, side, _("Taken back: {action}.", action=text), preview)


async def staged_reply(
    ctx: Context, table: Table, side: Side, head: str, preview: bool = True
) -> Reply:
    """Save the staged turn (private: nothing is posted) and show the player the preview
    (when asked for). The image is drawn while the save is being made durable."""
    hosted = table.hosted
    buttons = staged_buttons(table.game)
    if not preview:
        await ctx.save(table, hosted)
        return Reply(f"{head}\n{staged_text(ctx, table)}", stamp=table.stamp, buttons=buttons)
    view = table.game.view_for(side)
    image = asyncio.ensure_future(ctx.private_file(view, table, "preview.png"))
    try:
        await ctx.save(table, hosted)
    except BaseException:
        image.cancel()
        with contextlib.suppress(BaseException):
            await image
        raise
    text = f"{head}\n{staged_text(ctx, table)}"
    return Reply(text, (await image,), stamp=table.stamp, buttons=buttons)


def staged_text(ctx: Context, table: Table) -> str:
    game = table.game
    staged = game.staged()
    if game_type(game.game_type).one_move:
        return _one_move_text(ctx, game, staged)
    lines = [_("Staged this turn:")] + [f"{n}. {text}" for n, text in enumerate(staged, 1)]
    if not staged:
        lines = [_("Nothing staged this turn yet.")]
    hints = game_type(game.game_type).turn_hints(game)
    lines += [word(hint) for hint in hints]
    lines.append(_next_steps(ctx, game, bool(hints)))
    return "\n".join(lines)


def _next_steps(ctx: Context, game: GameState, hinted: bool) -> str:
    """What the player may do with their turn now: stage another action while some are
    left (or, with none left, the free one ``hinted``: TORA's take of the Assassin a search
    has just revealed, R43), take one back only while ``undo`` would (something staged, no
    search holding it: R10), and end it."""
    left = game.actions_left
    act, undo, end = (ctx.cmd(name, localized=True) for name in ("act", "undo", "end"))
    if not left and hinted:
        return _(
            "No actions left but the free one: play it with {act}, or end your turn with {end}.",
            act=act,
            end=end,
        )
    if not game.can_undo():
        if left:
            return ngettext(
                "{n} action left: play another with {act}, or end your turn with {end}.",
                "{n} actions left: play another with {act}, or end your turn with {end}.",
                left,
                act=act,
                end=end,
            )
        return _("No actions left: end your turn with {end}.", end=end)
    if left:
        return ngettext(
            "{n} action left: play another with {act}, take one back with {undo}, or end "
            "your turn with {end}.",
            "{n} actions left: play another with {act}, take one back with {undo}, or end "
            "your turn with {end}.",
            left,
            act=act,
            undo=undo,
            end=end,
        )
    return _(
        "No actions left: end your turn with {end}, or take one back with {undo}.",
        end=end,
        undo=undo,
    )


STAGED_BUTTONS = ("play", "end", "undo", "preview")  # on a staged turn's reply


def staged_buttons(game: GameState) -> tuple[str, ...]:
    """A staged turn's reply's buttons: Undo only while ``undo`` would take an action back
    (a dead button otherwise: nothing staged, or a search holds it, R10)."""
    return tuple(verb for verb in STAGED_BUTTONS if verb != "undo" or game.can_undo())


def _one_move_text(ctx: Context, game: GameState, staged: list[str]) -> str:
    """A one-move game's turn: the move (or the Monkey's decisions) staged, and that another
    staged replaces it."""
    deciding = game.view_for(game.side).deciding
    act, undo, end = (ctx.cmd(name, localized=True) for name in ("act", "undo", "end"))
    if not staged:
        if deciding:
            return _("Nothing staged yet: stage your decision with {act}.", act=act)
        return _("Nothing staged yet: stage your move with {act}.", act=act)
    lines = [_("Staged: {actions}.", actions="; ".join(staged))]
    left = game.actions_left
    if left and deciding:
        lines.append(
            ngettext(
                "{n} decision still to stage with {act}.",
                "{n} decisions still to stage with {act}.",
                left,
                act=act,
            )
        )
    elif left:
        lines.append(
            ngettext(
                "{n} move still to stage with {act}.",
                "{n} moves still to stage with {act}.",
                left,
                act=act,
            )
        )
    elif deciding:
        lines.append(
            _(
                "End your turn with {end} to play it, stage another decision with {act} to play "
                "that instead, or take it back with {undo}.",
                end=end,
                act=act,
                undo=undo,
            )
        )
    else:
        lines.append(
            _(
                "End your turn with {end} to play it, stage another move with {act} to play "
                "that instead, or take it back with {undo}.",
                end=end,
                act=act,
                undo=undo,
            )
        )
    return "\n".join(lines)


async def board(ctx: Context, table: Table, user: User) -> Reply:
    """The user's own board: a player's private one (with the preview of their staged
    actions when it is their turn), a spectator's the public one."""
    hosted = table.hosted
    if hosted.phase != PLAYING:
        return Reply(phase_text(ctx, table), private=False, stamp=table.stamp)
    side = hosted.side_of(user.id)
    game = table.game
    if side is None:
        view = game.view_for(None)
        names = announce.names_of(table)
        lines = [
            showing.standing(view, names),
            announce.to_act_line(ctx, table, view, localized=True),
        ]
        text = "\n".join(lines + await _away_lines(ctx, table))
        image = await ctx.board_file(view, table, guild=hosted.guild_id)
        return Reply(text, (image,), private=False, stamp=table.stamp)
    view = game.view_for(side)
    await looked(ctx, table, side)
    lines = [
        showing.standing(view, announce.names_of(table)),
        announce.to_act_line(ctx, table, view, localized=True),
        *await _away_lines(ctx, table),
    ]
    if game.side == side:
        lines.append(staged_text(ctx, table))
    lines += [word(note) for note in showing.private_notes(view)]  # TORA: the Assassin's
    image = await ctx.private_file(view, table)
    return Reply("\n".join(lines), (image,), stamp=table.stamp)


async def _away_lines(ctx: Context, table: Table) -> list[str]:
    """A line for each player of the match away now, with their return (none where away
    days do not stop the clock)."""
    hosted, now = table.hosted, ctx.now()
    if not table.terms.away_days:
        return []
    players = [hosted.player(side) for side in Side]
    times = await ctx.store.aways(hosted.guild_id, players, now)
    return [
        _(
            "{player} is away until {time}.",
            player=table.name(a.user_id),
            time=moment(a.ends_at, now, localized=True),
        )
        for a in times
        if a.starts_at <= now
    ]


async def own_board(ctx: Context, table: Table, user: User) -> Attachment:
    """A player's own board, as ``board`` shows it them (on their turn, the preview of what
    they staged)."""
    side = player_side(table, user)
    return await ctx.private_file(table.game.view_for(side), table)


def phase_text(ctx: Context, table: Table) -> str:
    hosted = table.hosted
    if hosted.phase == CHALLENGE:
        return _(
            "A challenge by {player} is waiting to be accepted.",
            player=table.name(hosted.issuer_id),
        )
    waiting = [table.side_name(side) for side in Side if side.letter not in hosted.ready]
    return _(
        "The players are choosing their setup; waiting for {players}.",
        players=listing(waiting, localized=True),
    )


async def end_turn(ctx: Context, table: Table, user: User) -> Reply:
    side = acting_side(ctx, table, user)
    game = table.game
    before = showing.series_number(game)
    # worked out before the end: after it, the side to act and the last turn may be the
    # same for a decision as for a turn answered at once
    deciding = game.view_for(side).deciding
    ended = len(game.turns)  # the index of the turn being ended
    try:
        await ctx.offload.end_turn(table.played)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    hosted = replace(table.hosted, missed=with_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, turn_headline(table, side), before, side)
    if table.game.is_over():
        said = _("Your turn ended the match: {result}", result=word(outcome_headline(table)))
        return Reply(said, stamp=table.stamp)
    after = table.game.turns[ended + 1 :]  # the turns played at once after it
    # a decision that left the decider's own turn only a pass (TI8), the host's: taken back
    # with it (``takebacks.before_asked``), so still theirs to take back
    passed = deciding and [turn.side for turn in after] == [side]
    return _turn_over(ctx, table, side, deciding, answered=bool(after) and not passed)


def _turn_over(ctx: Context, table: Table, side: Side, deciding: bool, answered: bool) -> Reply:
    """The answer to ``side``'s end of turn, the game going on: a ``deciding`` turn (a
    decision in the opponent's turn, TI15) is followed by the decider's own turn (or, when
    it was only a pass, TI8, played by the host, by the opponent's), any other by the
    opponent's. A turn ``answered`` at once (the opponent's planned reply, or a pass of
    theirs that was the only legal action, played by the host) is no longer the last: there
    is neither a takeback nor a reply to plan to offer."""
    robot = is_robot(table.hosted.player(side.other))
    if answered:
        return Reply(_("Your turn is over."), stamp=table.stamp)
    # a takeback is offered in a casual match between people, of a turn the rules let go back
    offer_back = table.terms.casual and not robot and _may_take_back(table.game)
    if deciding and table.game.side != side:  # their own turn was the host's pass
        return _passed_after_deciding(ctx, table, side, offer_back)
    if deciding and not offer_back:
        return Reply(_("Your decision is made, and your own turn begins."), stamp=table.stamp)
    if deciding:
        return Reply(
            _(
                "Your decision is made, and your own turn begins. Changed your mind? Ask "
                "{player} to let you take it back with the button or {command}, until you end "
                "your own turn.",
                player=table.side_name(side.other),
                command=ctx.cmd("rewind", localized=True),
            ),
            stamp=table.stamp,
            buttons=(ASK_BACK,),
        )
    # a plan answers the opponent's own turn: none of an AI's (it answers at once), nor
    # yet when their decision in this turn (TI15) comes first
    plan = () if robot or table.game.view_for(side).deciding else (PLAN,)
    if not offer_back:
        return Reply(_("Your turn is over."), stamp=table.stamp, buttons=plan)
    return Reply(
        _(
            "Your turn is over. Changed your mind? Ask {player} to let you take it back with "
            "the button or {command}, until they end their turn.",
            player=table.side_name(side.other),
            command=ctx.cmd("rewind", localized=True),
        ),
        stamp=table.stamp,
        buttons=(ASK_BACK, *plan),
    )


def _passed_after_deciding(ctx: Context, table: Table, side: Side, offer_back: bool) -> Reply:
    """The answer to ``side``'s decision (TI15) that left their own turn only a pass (TI8),
    which the host played: the opponent's turn runs, and the decision may be asked back."""
    if not offer_back:
        return Reply(
            _(
                "Your decision is made, and it left your own turn only a pass, which the host "
                "played at once."
            ),
            stamp=table.stamp,
        )
    return Reply(
        _(
            "Your decision is made, and it left your own turn only a pass, which the host "
            "played at once. Changed your mind? Ask {player} to let you take it back with the "
            "button or {command}, until they end their turn.",
            player=table.side_name(side.other),
            command=ctx.cmd("rewind", localized=True),
        ),
        stamp=table.stamp,
        buttons=(ASK_BACK,),
    )


def _may_take_back(game: GameState) -> bool:
    """Whether the rules let the turn just ended be taken back (``check_takeback``; R10
    keeps a TORA turn with a search): only then is a takeback offered."""
    try:
        game.check_takeback()
    except ActionError:
        return False
    return True


ASK_BACK = "askback"  # a casual match's end-of-turn reply: ask to take the turn back
PLAN = "plan"  # an end-of-turn reply between people: plan the reply to the opponent's turn


class EngineRefused(RuntimeError):
    """The rules refused a turn an AI engine chose: a bug of the engine, never the player's.
    Not a refusal for a person, so the service drops its copy of the match (which had
    actions staged) and reloads it as stored."""


async def whole_turn(ctx: Context, table: Table, user: User, texts: list[str]) -> Reply:
    """An AI player's whole turn: its actions and its end, saved and announced together as
    a player's end of turn is."""
    side = acting_side(ctx, table, user)
    match = table.played
    before = showing.series_number(table.game)
    try:
        for text in texts:
            await ctx.offload.step(match.game, partial(match.act, text))
        await ctx.offload.end_turn(match)
    except ActionError as exc:
        raise EngineRefused(f"{user.name} chose {'; '.join(texts)!r}: {exc.message}") from exc
    hosted = replace(table.hosted, missed=with_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, turn_headline(table, side), before, side)
    return Reply("Played.", stamp=table.stamp)
