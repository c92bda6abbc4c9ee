"""Turns: actions submitted one at a time (validated at once and staged), undo, the
player's own board and preview, and the end of a turn (``deadlines``: a turn's end by the
clock)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeAlias

from rules import ActionError, GameState, Side, game_type
from rules.protocol import Choice
from rules.words import Text, msg
from storage import Hosted
from storage.matches.log import GAME_LEVEL_WORDS

from . import announce, finding, plans, pointing, showing
from .context import Context, Mail
from .endings import ended, outcome_headline
from .errors import ActionRefused, NotAllowed, Refused
from .models import Menu, Reply, User, is_robot
from .phases import CHALLENGE, FINISHED, PLAYING
from .ports import Attachment
from .reminders import looked
from .table import DRAW, RESET, REWIND, Table, player_side
from .texts import moment, plural, quote


def acting_side(ctx: Context, table: Table, user: User) -> Side:
    """The user's side, if they may act now: a player, on their turn, not paused."""
    if table.hosted.phase != PLAYING:
        raise Refused("The game has not started yet: both players must finish their setup.")
    side = player_side(table, user)
    if table.paused:
        raise Refused(f"The match is paused. Resume it first with {ctx.cmd('resume')}.")
    game = table.game
    if game.side != side:
        due = table.hosted.due_at
        when = "" if due is None else f" or at its deadline, {moment(due, ctx.now())}"
        raise NotAllowed(
            f"It is {table.side_name(game.side)}'s turn. Yours begins when they end it{when}."
        )
    return side


async def play(ctx: Context, table: Table, user: User, text: str, *, preview: bool = True) -> Reply:
    """Stage the actions of ``text``: one, or several separated by ``;`` as in a record's
    turn line, all or none (they are checked on a copy of the game first). Without
    ``preview``, the reply has no picture (a front end that draws its own board)."""
    side = acting_side(ctx, table, user)
    parts = [part.strip() for part in text.split(";")]
    if len(parts) > 1 and not all(parts):
        raise Refused("An empty action between `;` separators: write `A v5h7-v4h6; G v5h9-v4h9`.")
    for part in parts:
        word = part.lower()
        if word in GAME_LEVEL_WORDS:
            raise Refused(f"`{word}` is not a move: use {ctx.cmd(word)} for that.")
    match = table.played
    if len(parts) == 1 and replaces(match.game):
        return await _replace(ctx, table, side, parts[0], preview)
    if len(parts) > 1:
        await asyncio.to_thread(_try_all, match.game.copy(), parts)
    try:
        events = [await asyncio.to_thread(match.act, part) for part in parts]
    except ActionError as exc:
        raise ActionRefused(exc) from None
    texts = match.game.staged()[-len(events) :]  # as people read them (ToriShogi: TS1)
    said = [t + (f" ({e.note})" if e.note else "") for t, e in zip(texts, events, strict=True)]
    return await staged_reply(ctx, table, side, f"Staged: {'; '.join(said)}.", preview)


def replaces(game: GameState) -> bool:
    """Whether a new action replaces the last one staged: a one-move game's move (or its
    last decision) is staged, and the player means another instead."""
    return game_type(game.game_type).one_move and not game.actions_left and bool(game.staged())


def before_last(game: GameState) -> GameState:
    """A copy of ``game`` without its last staged action: what a replacement is chosen on."""
    base = game.copy()
    base.undo()
    return base


async def _replace(ctx: Context, table: Table, side: Side, text: str, preview: bool) -> Reply:
    """Stage ``text`` in place of the last staged action; tried on a copy first, so a
    refusal leaves the staged one as it was."""
    match = table.played
    try:
        await asyncio.to_thread(before_last(match.game).apply, text)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    old = await asyncio.to_thread(match.undo)
    await asyncio.to_thread(match.act, text)
    new = match.game.staged()[-1]
    return await staged_reply(ctx, table, side, f"Staged {new} in place of {old}.", preview)


def _try_all(game: GameState, parts: list[str]) -> None:
    """Play ``parts`` on a copy: the refusal of the first that fails names it."""
    for number, part in enumerate(parts, 1):
        try:
            game.apply(part)
        except ActionError as exc:
            raise Refused(
                f"Action {number} of {len(parts)} ({quote(part)}) is refused, so none was "
                f"staged: {exc.message}"
            ) from None


async def choices(
    ctx: Context, table: Table, user: User, typed: str, limit: int
) -> list[tuple[str, str]]:
    """Up to ``limit`` of the acting player's legal actions that best match ``typed``
    anywhere (a destination, ``x``, ``fire``, a piece's name or letter), best first, each as
    (what a list shows: the action in words, its canonical notation); their hidden
    Assassin's included: this goes to them alone. After a ``;`` the last action is
    completed, the ones before kept as typed."""
    acting_side(ctx, table, user)
    head, _sep, last = typed.rpartition(";")
    entries = await _legal_texts(table)
    found = finding.best(last, entries, limit)
    prefix = f"{head.strip()}; " if head.strip() else ""
    return [
        (f"{prefix}{entry.shown}"[:100], f"{prefix}{entry.notation}")
        for entry in found
        if len(prefix) + len(entry.notation) <= 100
    ]


async def _legal_texts(table: Table) -> list[finding.Entry]:
    """Every legal action of the running state and the words to find it by, worked out
    once per state of the match (autocomplete asks at every keystroke)."""
    memo = table.memo()
    if "entries" not in memo:
        memo["entries"] = await asyncio.to_thread(finding.entries, table.game)
    entries: list[finding.Entry] = memo["entries"]
    return entries


# Which of a group's choices a front end shows (the warnings are worked out for those alone).
ShownChoices: TypeAlias = Callable[[tuple[Choice, ...]], Sequence[Choice]]


async def menu(
    ctx: Context, table: Table, user: User, group: str | None, shown: ShownChoices | None = None
) -> Menu:
    """The Play panel's content for the acting player: their staged turn, their legal
    actions grouped by piece and, for ``group``, that piece's actions, the ones ``shown``
    picks (all by default) with the rules' warnings, and their board with the piece framed
    and the squares its actions go to lettered. Private. In a one-move game whose move is
    staged, the actions are those that would replace it."""
    side = acting_side(ctx, table, user)
    await looked(ctx, table, side)
    memo = table.memo()
    game = table.game
    if "base" not in memo:
        memo["base"] = before_last(game) if replaces(game) else game
    base: GameState = memo["base"]
    if "menu" not in memo:
        memo["menu"] = await asyncio.to_thread(base.menu)
    view = base.view_for(side)
    head = Menu(
        table.stamp,
        f"Match {table.hosted.id} against {table.side_name(side.other)}",
        tuple(game.staged()),
        memo["menu"],
        (),
        game.actions_left,
        to_act=showing.to_act(view),
        prompt=base.prompt(),
        one_move=game_type(game.game_type).one_move,
    )
    header = next((g for g in memo["menu"] if g.key == group), None)
    if header is None:
        return head
    key = f"choices:{group}"
    if key not in memo:
        memo[key] = await asyncio.to_thread(base.choices, group)
    choices = await warned(table, base, memo[key], shown)
    marks = pointing.pointing(header, choices)
    picture = await ctx.private_file(view, table, "your-board.png", marks)
    return replace(head, choices=choices, letters=marks.letters, picture=picture)


async def warned(
    table: Table, game: GameState, choices: tuple[Choice, ...], shown: ShownChoices | None
) -> tuple[Choice, ...]:
    """``choices`` with the warnings of those ``shown`` (each worked out once per state)."""
    memo = table.memo()
    wanted = [c.notation for c in (choices if shown is None else shown(choices))]
    missing = [text for text in wanted if f"warn:{text}" not in memo]
    if missing:
        found = await asyncio.to_thread(game.warnings, missing)
        memo.update({f"warn:{text}": warning for text, warning in zip(missing, found, strict=True)})
    return tuple(replace(c, warning=memo.get(f"warn:{c.notation}", "")) for c in choices)


async def undo(
    ctx: Context, table: Table, user: User, number: int | None, *, preview: bool = True
) -> Reply:
    """Take back the last staged action, or action ``number`` (from 1) of this turn."""
    side = acting_side(ctx, table, user)
    match = table.played
    staged = len(table.game.staged())
    if not staged:
        raise Refused("There is nothing to take back: you have not staged any action this turn.")
    if number is not None and not 1 <= number <= staged:
        raise Refused(
            f"This turn has {plural(staged, 'staged action')}: take back one of 1 to {staged}, "
            "or leave the number out to take back the last one."
        )
    try:
        if number is None:
            text = await asyncio.to_thread(match.undo)
        else:
            text = await asyncio.to_thread(match.take_back, number - 1)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    return await staged_reply(ctx, table, side, f"Taken back: {text}.", preview)


async def staged_reply(
    ctx: Context, table: Table, side: Side, head: str, preview: bool = True
) -> Reply:
    """Save the staged turn (private: nothing is posted) and show the player the preview
    (when asked for). The image is drawn while the save is being made durable."""
    hosted = table.hosted
    if not preview:
        await ctx.save(table, hosted)
        return Reply(f"{head}\n{staged_text(ctx, table)}", stamp=table.stamp)
    view = table.game.view_for(side)
    image = asyncio.ensure_future(ctx.private_file(view, table, "preview.png"))
    try:
        await ctx.save(table, hosted)
    except BaseException:
        image.cancel()
        with contextlib.suppress(BaseException):
            await image
        raise
    return Reply(f"{head}\n{staged_text(ctx, table)}", (await image,), stamp=table.stamp)


def staged_text(ctx: Context, table: Table) -> str:
    game = table.game
    staged = game.staged()
    if game_type(game.game_type).one_move:
        return _one_move_text(ctx, game, staged)
    lines = ["Staged this turn:"] + [f"{n}. {text}" for n, text in enumerate(staged, 1)]
    if not staged:
        lines = ["Nothing staged this turn yet."]
    left = game.actions_left
    if left:
        lines.append(
            f"{plural(left, 'action')} left: play another with {ctx.cmd('act')}, take one "
            f"back with {ctx.cmd('undo')}, or end your turn with {ctx.cmd('end')}."
        )
    else:
        lines.append(
            f"No actions left: end your turn with {ctx.cmd('end')}, or take one back with "
            f"{ctx.cmd('undo')}."
        )
    return "\n".join(lines)


def _one_move_text(ctx: Context, game: GameState, staged: list[str]) -> str:
    """A one-move game's turn: the move (or the Monkey's decisions) staged, and that another
    staged replaces it."""
    unit = "decision" if game.view_for(game.side).deciding else "move"
    if not staged:
        return f"Nothing staged yet: stage your {unit} with {ctx.cmd('act')}."
    lines = ["Staged: " + "; ".join(staged) + "."]
    if game.actions_left:
        lines.append(f"{plural(game.actions_left, unit)} still to stage with {ctx.cmd('act')}.")
    else:
        lines.append(
            f"End your turn with {ctx.cmd('end')} to play it, stage another {unit} with "
            f"{ctx.cmd('act')} to play that instead, or take it back with {ctx.cmd('undo')}."
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
        lines = [showing.standing(view, names), announce.to_act_line(ctx, table, view)]
        text = "\n".join(lines + await _away_lines(ctx, table))
        image = await ctx.board_file(view, table, guild=hosted.guild_id)
        return Reply(text, (image,), private=False, stamp=table.stamp)
    view = game.view_for(side)
    await looked(ctx, table, side)
    lines = [
        showing.standing(view, announce.names_of(table)),
        announce.to_act_line(ctx, table, view),
        *await _away_lines(ctx, table),
    ]
    if game.side == side:
        lines.append(staged_text(ctx, table))
    lines += showing.private_notes(view)  # TORA: the viewer's own Assassin's record
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
        f"{table.name(a.user_id)} is away until {moment(a.ends_at, now)}."
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
        return f"A challenge by {table.name(hosted.issuer_id)} is waiting to be accepted."
    waiting = [table.side_name(side) for side in Side if side.letter not in hosted.ready]
    return "The players are choosing their setup; waiting for " + " and ".join(waiting) + "."


async def end_turn(ctx: Context, table: Table, user: User) -> Reply:
    side = acting_side(ctx, table, user)
    game = table.game
    before = showing.series_number(game)
    try:
        await ctx.offload.end_turn(table.played)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    hosted = replace(table.hosted, missed=with_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, turn_headline(table, side), before, side)
    if table.game.is_over():
        return Reply(f"Your turn ended the match: {outcome_headline(table)}", stamp=table.stamp)
    if is_robot(table.hosted.player(side.other)):
        return Reply("Your turn is over.", stamp=table.stamp)  # an AI answers at once
    if table.terms.rated:
        return Reply("Your turn is over.", stamp=table.stamp, buttons=(PLAN,))
    return Reply(
        f"Your turn is over. Changed your mind? Ask {table.side_name(side.other)} to let you "
        f"take it back with the button or {ctx.cmd('rewind')}, until they end their turn.",
        stamp=table.stamp,
        buttons=(ASK_BACK, PLAN),
    )


ASK_BACK = "askback"  # an unrated match's end-of-turn reply: ask to take the turn back
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
            await asyncio.to_thread(match.act, text)
        await ctx.offload.end_turn(match)
    except ActionError as exc:
        raise EngineRefused(f"{user.name} chose {'; '.join(texts)!r}: {exc.message}") from exc
    hosted = replace(table.hosted, missed=with_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, turn_headline(table, side), before, side)
    return Reply("Played.", stamp=table.stamp)


def turn_headline(table: Table, side: Side) -> Text:
    """A turn post's first line (worded in each reader's language, ``bot.i18n.word``)."""
    return msg("{player} ended their turn:", player=table.who(side))


def with_missed(hosted: Hosted, side: Side, count: int) -> tuple[int, int]:
    missed = list(hosted.missed)
    missed[side] = count
    return missed[0], missed[1]


async def after_turn(
    ctx: Context,
    table: Table,
    hosted: Hosted,
    headline: str,
    game_before: int,
    ran: Side,
    mail: Mail | None = None,
    *,
    answer_plans: bool = True,
    kept: dict[Side, list[str]] | None = None,
) -> None:
    """A turn has ended (by the player, the deadline or an agreed reset): announce the
    outcome if the game is over, else the turn and whose it is now, with a new clock.
    ``ran`` is the side whose clock was running (its time is settled). The player whose
    turn begins may have planned their reply to it (``plans``): it is played at once and
    saved in the same transaction as the turn it answers (a crash cannot come between),
    and that player gets no "your turn" DM for it, only the one saying what was played.
    ``kept``: the planned replies changed by the turns of this save so far."""
    game = table.game
    mail = mail or Mail(table.channel_id)
    kept = {} if kept is None else kept
    if game.is_over():
        await announce.match_end(ctx, table, outcome_headline(table), mail, counted=True)
        await ctx.save(table, ended(hosted, FINISHED), mail, plans=kept)
        return
    planned = await plans.answer(ctx, table) if answer_plans else None
    replying = planned is not None and planned.reply is not None
    hosted = await _next_turn(ctx, table, hosted, headline, game_before, ran, mail, replying)
    if planned is not None:
        kept[planned.planner] = planned.kept
        mail.private(hosted.player(planned.planner), planned.told, language=planned.language)
    if planned is None or planned.reply is None:
        await ctx.save(table, hosted, mail, plans=kept)
        return
    table.hosted = hosted  # not saved yet: the reply is saved with it
    await _planned_turn(ctx, table, planned.reply, mail, kept)


async def _next_turn(
    ctx: Context,
    table: Table,
    hosted: Hosted,
    headline: str,
    game_before: int,
    ran: Side,
    mail: Mail,
    answered: bool,
) -> Hosted:
    """The hosted match as the next turn begins (clocks, lapsed offers), its turn post in
    ``mail``; the "your turn" DM too unless a planned reply ``answered`` the turn."""
    game = table.game
    ender = game.turns[-1].side
    offers = table.offers()
    lapsed = [kind for kind in (DRAW, RESET, REWIND) if offers.get(kind) == ender.other]
    for kind in lapsed:
        del offers[kind]
    hosted = await ctx.settled(table.terms, hosted, ran)
    hosted = replace(
        await ctx.turn_clock(table.terms, hosted, game.side), offers=table.encode_offers(offers)
    )
    notes = [_lapsed(kind, table.side_name(ender.other), table.side_name(ender)) for kind in lapsed]
    staged = replace(table, hosted=hosted)
    await announce.turn_end(ctx, staged, headline, mail, game_before, notes, tell=not answered)
    return hosted


def _lapsed(kind: str, offerer: str, ender: str) -> Text:
    """A note of a turn post: an offer the player who ended their turn let lapse."""
    if kind == DRAW:
        return msg(
            "{player}'s draw offer lapsed: {ender}'s turn ended without accepting it.",
            player=offerer,
            ender=ender,
        )
    if kind == RESET:
        return msg(
            "{player}'s reset proposal lapsed: {ender}'s turn ended without accepting it.",
            player=offerer,
            ender=ender,
        )
    return msg(
        "{player}'s takeback request lapsed: {ender}'s turn ended without accepting it.",
        player=offerer,
        ender=ender,
    )


async def _planned_turn(
    ctx: Context, table: Table, texts: list[str], mail: Mail, kept: dict[Side, list[str]]
) -> None:
    """The player to act's planned reply (``plans``), played and ended as their own turn
    would be, posted as any turn is (the opponent cannot tell it was planned)."""
    side = table.game.side
    match = table.played
    before = showing.series_number(table.game)
    for text in texts:
        await asyncio.to_thread(match.act, text)
    await ctx.offload.end_turn(match)
    hosted = replace(table.hosted, missed=with_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, turn_headline(table, side), before, side, mail, kept=kept)
