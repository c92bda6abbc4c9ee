"""A running turn's reminders: sent when the player to act wants one (``notify``), unless
they acted (staged an action) or looked at their board in that turn. The first look of a
turn is kept in the store (``board_looks``), so a restart does not remind them either."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import _, speaking, word
from rules import Side

from . import absence
from .context import Context, Mail
from .notify import REMINDER
from .table import Table
from .texts import duration, moment


async def looked(ctx: Context, table: Table, side: Side) -> None:
    """``side``'s player has seen their running turn: no reminder of it. Kept in the store
    (once a turn), so that a restart does not remind them either."""
    user = table.hosted.player(side)
    if side != table.game.side or table.looked.get(user) == table.turn:
        return
    table.looked[user] = table.turn
    await ctx.store.hosting.put_look(table.hosted.id, side, table.turn)


async def has_looked(ctx: Context, table: Table, side: Side) -> bool:
    """Whether ``side``'s player has looked at their board in the running turn."""
    if table.looked.get(table.hosted.player(side)) == table.turn:
        return True
    return await ctx.store.hosting.last_look(table.hosted.id, side) == table.turn


async def reminder(ctx: Context, table: Table) -> None:
    """A reminder the player to act wants now (``notify``, read again: they may have
    changed their choice since it was scheduled), unless they acted (staged an action) or
    looked at their board since their turn began; then the next one's time."""
    hosted, game = table.hosted, table.game
    side = game.side
    now = ctx.now()
    nxt = await ctx.next_reminder(table.terms, hosted, side, now)
    wanted = await ctx.wants_reminder(table.terms, hosted, side, now)
    if not wanted or game.staged() or await has_looked(ctx, table, side):
        await ctx.update(table, replace(hosted, remind_at=nxt))
        return
    user = hosted.player(side)
    mail = Mail(table.channel_id)
    away = await absence.offers_away(ctx, table, user)
    with speaking(await ctx.player_language(user)) as language:
        said = _reminder_text(ctx, table, side, away)
        mail.private(
            user,
            said,
            buttons=("away",) if away else (),
            turn=table.turn,
            back=table.rewinds,
            notice=REMINDER,
            language=language,
        )
    await ctx.update(table, replace(hosted, remind_at=nxt), mail)


def _reminder_text(ctx: Context, table: Table, side: Side, away: bool) -> str:
    """The reminder of ``side``'s running turn, in the current language; ``away``: it
    offers away days (``absence.offers_away``)."""
    hosted, now = table.hosted, ctx.now()
    due = hosted.due_at or now
    view = table.game.view_for(side)
    if view.deciding:  # a decision in the opponent's turn (TI15): no turn of theirs yet
        first = _(
            "Reminder: your decision in {player}'s turn, {decision}, is due in {time} ({moment}).",
            player=table.side_name(side.other),
            decision=word(view.decision),
            time=duration(due - now, localized=True),
            moment=moment(due, now, localized=True),
        )
    else:
        first = _(  # (sent only while nothing is staged: no count of staged actions)
            "Reminder: your turn against {player} ends in {time} ({moment}).",
            player=table.who(side.other),
            time=duration(due - now, localized=True),
            moment=moment(due, now, localized=True),
        )
    lines = [first]
    limit = table.terms.forfeit_after
    if limit and not view.deciding:  # a decision never forfeits by itself (``deadlines``)
        lines.append(
            _(
                "If it ends at its deadline with no action played, that is {count} of {limit} "
                "missed turns in a row; at {limit} the match is forfeited.",
                count=hosted.missed[side] + 1,
                limit=limit,
            )
        )
    if away:
        lines.append(
            _(
                "Away from your games? Press Away for a day, or take away days with {command}.",
                command=ctx.cmd("away", localized=True),
            )
        )
    return " ".join(lines)
