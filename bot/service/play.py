"""Turns: actions submitted one at a time (validated at once and staged), undo, the
player's own board and preview, the end of a turn, and the clock (reminder, deadline,
forfeit after turns missed without any action)."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace

from rules import ActionError, Side
from rules.actions import GAME_LEVEL
from storage import Hosted
from storage.hosting import CHALLENGE, PLAYING

from . import announce
from .context import Context, Mail
from .endings import FINISHED, FORFEIT, ended, finish, outcome_headline
from .errors import ActionRefused, NotAllowed, Refused
from .models import Reply, User
from .table import DRAW, OFFERS, RESET, Table, player_side
from .texts import duration, moment, plural


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


async def play(ctx: Context, table: Table, user: User, text: str) -> Reply:
    side = acting_side(ctx, table, user)
    word = text.strip().lower()
    if word in GAME_LEVEL:
        raise Refused(f"`{word}` is not a move: use {ctx.cmd(word)} for that.")
    match = table.played
    try:
        event = await asyncio.to_thread(match.act, text)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    note = f" ({event.note})" if event.note else ""
    return await _staged_reply(ctx, table, side, f"Staged: {event.text}{note}.")


async def choices(ctx: Context, table: Table, user: User, typed: str, limit: int) -> list[str]:
    """Up to ``limit`` of the acting player's legal actions that start with ``typed``, in
    canonical notation (their hidden Assassin's included: this goes to them alone)."""
    acting_side(ctx, table, user)
    game = table.game
    prefix = " ".join(typed.lower().split())

    def notations() -> list[str]:
        found = []
        for action in game.legal_actions():
            if action.full_text().lower().startswith(prefix):
                found.append(game.notation(action))
                if len(found) == limit:
                    break
        return found

    return await asyncio.to_thread(notations)


async def undo(ctx: Context, table: Table, user: User, number: int | None) -> Reply:
    """Take back the last staged action, or action ``number`` (from 1) of this turn."""
    side = acting_side(ctx, table, user)
    match = table.played
    try:
        if number is None:
            text = await asyncio.to_thread(match.undo)
        else:
            text = await asyncio.to_thread(match.take_back, number - 1)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    return await _staged_reply(ctx, table, side, f"Taken back: {text}.")


async def _staged_reply(ctx: Context, table: Table, side: Side, head: str) -> Reply:
    """Save the staged turn (private: nothing is posted) and show the player the preview.
    The image is drawn while the save is being made durable."""
    hosted = replace(table.hosted, acted=True)
    view = table.game.view_for(side)
    image = asyncio.ensure_future(ctx.private_file(view, table.status(ctx.now()), "preview.png"))
    try:
        await ctx.save(table, hosted)
    except BaseException:
        image.cancel()
        with contextlib.suppress(BaseException):
            await image
        raise
    return Reply(f"{head}\n{staged_text(ctx, table)}", (await image,), stamp=table.hosted.version)


def staged_text(ctx: Context, table: Table) -> str:
    game = table.game
    staged = game.staged()
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


async def board(ctx: Context, table: Table, user: User) -> Reply:
    """The user's own board: a player's private one (with the preview of their staged
    actions when it is their turn), a spectator's the public one."""
    hosted = table.hosted
    if hosted.phase != PLAYING:
        return Reply(phase_text(ctx, table), private=False, stamp=hosted.version)
    side = hosted.side_of(user.id)
    game = table.game
    status = table.status(ctx.now())
    if side is None:
        view = game.view_for(None)
        text = f"{announce.score_line(table, view)}\n{announce.to_act_line(ctx, table, view)}"
        image = await ctx.board_file(view, status)
        return Reply(text, (image,), private=False, stamp=hosted.version)
    view = game.view_for(side)
    lines = [announce.score_line(table, view), announce.to_act_line(ctx, table, view)]
    if game.side == side:
        lines.append(staged_text(ctx, table))
    if view.private_record:
        lines.append("Your Assassin's record: " + "; ".join(view.private_record) + ".")
    image = await ctx.private_file(view, status)
    return Reply("\n".join(lines), (image,), stamp=hosted.version)


def phase_text(ctx: Context, table: Table) -> str:
    hosted = table.hosted
    if hosted.phase == CHALLENGE:
        return f"A challenge by {table.name(hosted.issuer_id)} is waiting to be accepted."
    waiting = [table.side_name(side) for side in Side if side.letter not in hosted.ready]
    return "The players are choosing their setup; waiting for " + " and ".join(waiting) + "."


async def end_turn(ctx: Context, table: Table, user: User) -> Reply:
    side = acting_side(ctx, table, user)
    game = table.game
    before = game.game_number
    try:
        await ctx.offload.end_turn(table.played)
    except ActionError as exc:
        raise ActionRefused(exc) from None
    hosted = replace(table.hosted, missed=_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, f"{table.who(side)} ended their turn:", before)
    return Reply("Your turn is over.", stamp=table.hosted.version)


def _missed(hosted: Hosted, side: Side, count: int) -> tuple[int, int]:
    missed = list(hosted.missed)
    missed[side] = count
    return missed[0], missed[1]


async def after_turn(
    ctx: Context,
    table: Table,
    hosted: Hosted,
    headline: str,
    game_before: int,
    mail: Mail | None = None,
) -> None:
    """A turn has ended (by the player, the deadline or an agreed reset): announce the
    outcome if the game is over, else the turn and whose it is now, with a new clock."""
    game = table.game
    mail = mail or Mail(table.channel_id)
    if game.is_over():
        await announce.match_end(ctx, table, outcome_headline(table), mail, counted=True)
        await ctx.save(table, ended(hosted, FINISHED), mail)
        return
    ender = game.turns[-1].side
    offers = table.offers()
    lapsed = [kind for kind in (DRAW, RESET) if offers.get(kind) == ender.other]
    for kind in lapsed:
        del offers[kind]
    hosted = replace(
        ctx.new_clock(hosted, table.terms.turn_seconds),
        acted=False,
        offers=table.encode_offers(offers),
    )
    notes = [
        f"{table.side_name(ender.other)}'s {OFFERS[kind]} lapsed: {table.side_name(ender)}'s "
        "turn ended without accepting it."
        for kind in lapsed
    ]
    staged = replace(table, hosted=hosted)
    await announce.turn_end(ctx, staged, headline, mail, game_before, notes)
    await ctx.save(table, hosted, mail)


# ---- the clock -----------------------------------------------------------------------------
async def reminder(ctx: Context, table: Table) -> None:
    hosted, game = table.hosted, table.game
    side = game.side
    due = hosted.due_at or ctx.now()
    lines = [
        f"Reminder: your turn against {table.who(side.other)} ends in "
        f"{duration(due - ctx.now())} ({moment(due, ctx.now())}); "
        f"{plural(len(game.staged()), 'action')} staged so far."
    ]
    limit = table.terms.forfeit_after
    if limit and not hosted.acted:
        count = hosted.missed[side] + 1
        lines.append(
            f"If it ends without any action, that is {count} of {limit} missed turns in a row; "
            f"at {limit} the match is forfeited."
        )
    mail = Mail(table.channel_id)
    mail.private(hosted.player(side), " ".join(lines))
    await ctx.update(table, replace(hosted, remind_at=None), mail)


async def deadline(ctx: Context, table: Table) -> None:
    """The turn's time is up: it ends with what was staged, or, after too many turns missed
    without any action in a row, the absent player forfeits."""
    hosted, game, match = table.hosted, table.game, table.played
    side = game.side
    count = 0 if hosted.acted else hosted.missed[side] + 1
    hosted = replace(hosted, missed=_missed(hosted, side, count))
    limit = table.terms.forfeit_after
    if count and limit and count >= limit:
        match.resign(side)
        headline = (
            f"{table.who(side)} forfeits: {plural(count, 'turn')} in a row ended at the "
            f"deadline without any action. {outcome_headline(table)}"
        )
        await finish(ctx, table, hosted, headline, FORFEIT)
        return
    before, staged = game.game_number, len(game.staged())
    await ctx.offload.end_turn(match, deadline=True)
    headline = f"{table.side_name(side)}'s turn ended at its deadline"
    if count:
        limit_text = f" of {limit} before a forfeit" if limit else ""
        headline += f" without any action (missed turns in a row: {count}{limit_text})"
    mail = Mail(table.channel_id)
    played = len(game.turns[-1].texts)
    if played < staged:
        dropped = staged - played
        which = "staged action was" if dropped == 1 else f"{dropped} staged actions were"
        mail.private(
            hosted.player(side),
            f"Your turn ended at its deadline. Your last {which} taken back first, so that no "
            "command piece you moved ends in jeopardy (R30).",
        )
    await after_turn(ctx, table, hosted, headline + ":", before, mail)
