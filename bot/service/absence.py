"""Away days: each player's yearly allowance per server (``GuildSettings.away_days``,
counted by the calendar year, UTC, in which each time away begins; a time away counts its
days begun, each a day of the player's time zone from the time of day it began: 23 or 25
hours across a change of summer time), and the automatic away day: a player who would miss
a deadline with nothing played, and has a day left, is given one (once per turn) before
the missed turn is counted, unless their server or they themselves turned that off."""

from __future__ import annotations

import datetime as dt
import math
import zoneinfo
from dataclasses import replace

from bot.i18n import _, ngettext, speaking
from storage import Away

from .context import Context, Mail
from .guild import load_guild
from .models import is_robot
from .people import load_player
from .stops import run_until, running_between, stops_of
from .table import Table
from .texts import moment

DAY = 86400.0
# How far back an automatic day of the running turn may have begun: a day, then a weekend
# and times away the clock stood still through.
LOOK_BACK = 400 * DAY


def year_of(when: float) -> tuple[float, float]:
    """The calendar year (UTC) ``when`` falls in, as [start, end)."""
    year = dt.datetime.fromtimestamp(when, dt.UTC).year
    start = dt.datetime(year, 1, 1, tzinfo=dt.UTC).timestamp()
    return start, dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC).timestamp()


def after_days(start: float, days: int, zone: zoneinfo.ZoneInfo) -> float:
    """``days`` days after ``start`` in ``zone``: at the same time of day there, so that a
    day across a change of summer time lasts 23 or 25 hours."""
    return (dt.datetime.fromtimestamp(start, zone) + dt.timedelta(days=days)).timestamp()


def days_between(start: float, end: float, zone: zoneinfo.ZoneInfo) -> int:
    """The days from ``start`` to ``end`` counts: each day begun, a day of ``zone`` from the
    time of day of ``start`` (``after_days``): Saturday's midnight to Monday's is two days,
    however long the clocks' change made that Sunday."""
    days = max(0, math.ceil((end - start) / DAY - 1e-9))  # within a day of the count
    while days > 0 and after_days(start, days - 1, zone) >= end - 1e-6:
        days -= 1
    while after_days(start, days, zone) < end - 1e-6:
        days += 1
    return days


def days_of(away: Away, zone: zoneinfo.ZoneInfo) -> int:
    """The days a time away counts in the player's time ``zone`` (``days_between``; an
    early return gives the rest back)."""
    return days_between(away.starts_at, away.ends_at, zone)


async def days_left(ctx: Context, guild_id: int, user_id: int, when: float) -> tuple[int, int]:
    """The away days ``user_id`` has left in the year of ``when``, and their allowance."""
    allowed = (await load_guild(ctx.store, guild_id)).away_days
    zone = (await load_player(ctx.store, user_id)).zone
    start, end = year_of(when)
    taken = await ctx.store.aways_between(guild_id, user_id, start, end)
    return max(0, allowed - sum(days_of(a, zone) for a in taken)), allowed


async def offers_away(ctx: Context, table: Table, user_id: int) -> bool:
    """Whether a reminder offers ``user_id`` away days (its sentence and its Away for a
    day button alike): only where time away stops the match's clock and they have a day
    left to take now (none where the server gives none), so that the offer is never one
    whose press is refused."""
    if not table.terms.away_days:
        return False
    left, _allowed = await days_left(ctx, table.hosted.guild_id, user_id, ctx.now())
    return left > 0


async def auto_away(ctx: Context, table: Table) -> bool:
    """At a deadline with nothing played: give the player to act an away day if they may
    have one; whether one was given. Their clock stands still through the day, and with
    nothing left of the turn it ends when their clock next runs (a day later, or after
    their weekend or time away that follows), with a reminder as any deadline has (a look
    at the board before the day does not silence it)."""
    hosted = table.hosted
    side = table.game.side
    user, due = hosted.player(side), hosted.due_at
    if is_robot(user) or due is None or not table.terms.away_days:
        return False
    guild = await load_guild(ctx.store, hosted.guild_id)
    server = ctx.settings.auto_away if guild.auto_away is None else guild.auto_away
    player = await load_player(ctx.store, user)
    if not server or not player.auto_away:
        return False
    recent = await ctx.store.aways(hosted.guild_id, [user], due - LOOK_BACK)
    if await _had_its_day(ctx, table, recent, due):
        return False
    given = [a for a in recent if a.automatic and abs(a.starts_at - due) < 1]
    if given:  # written before a crash, the deadline not yet moved
        day = given[0]
    else:
        left, allowed = await days_left(ctx, hosted.guild_id, user, due)
        if left < 1:
            return False
        until = after_days(due, 1, player.zone)  # a day of theirs
        day = Away(hosted.guild_id, user, due, until, automatic=True)
        await ctx.store.add_away(day, saved=hosted.id)
    left, allowed = await days_left(ctx, hosted.guild_id, user, due)
    ends = run_until(due, 0.0, await stops_of(ctx.store, table.terms, hosted, side, due))
    moved = replace(hosted, due_at=ends)
    moved = replace(moved, remind_at=await ctx.next_reminder(table.terms, moved, side, ctx.now()))
    name = table.side_name(side)
    mail = Mail(table.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        ending = moment(ends, ctx.now(), localized=True)
        said = ngettext(
            "{player} did not play by the deadline, so I gave them one of their away days "
            "({n} day of {allowed} left this year): their turn now ends {moment}.",
            "{player} did not play by the deadline, so I gave them one of their away days "
            "({n} days of {allowed} left this year): their turn now ends {moment}.",
            left,
            player=name,
            allowed=allowed,
            moment=ending,
        )
        mail.public(said, mentions=(user,), language=language)
    with speaking(await ctx.player_language(user)) as language:
        said = _(
            "Your turn against {player} reached its deadline with nothing played, so I gave "
            "you an away day: it now ends {moment}. If it ends again with nothing played, the "
            "turn is missed. (Turn automatic away days off with {command}.)",
            player=table.who(side.other),
            moment=ending,
            command=ctx.cmd("settings", localized=True),
        )
        mail.private(user, said, language=language)
    await ctx.update(table, moved, mail, unlook=side)  # a look before says nothing of it
    ctx.unmoved = True  # the player's other matches stand still too
    return True


async def _had_its_day(ctx: Context, table: Table, recent: list[Away], due: float) -> bool:
    """Whether this turn had its automatic day already: one began before ``due`` and the
    player's clock has not run since (a later turn, or a gift of time, ran some). The
    latest such day alone needs a look: the clock ran no more since it than since any
    earlier one."""
    began = [a.starts_at for a in recent if a.automatic and a.starts_at < due - 1]
    if not began:
        return False
    since = max(began)
    stops = await stops_of(ctx.store, table.terms, table.hosted, table.game.side, since)
    return running_between(since, due, stops) < 1
