"""Away days taken by the players (``absence`` keeps the allowance): ``away`` from a time for
some days, ``back`` early (the days not begun are given back). While a player is away the
clocks of their matches in that server stand still: the deadline of a running turn of theirs
moves by the time away, and a turn of theirs that begins meanwhile runs from their return.
Each of their matches there is told, with a timestamp of their return."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeAlias

from bot.i18n import _, ngettext, speaking
from rules import Side
from storage import Away, Hosted

from . import absence
from .context import Mail
from .errors import Refused
from .host import Host
from .models import Reply, User, is_robot
from .people import load_player
from .phases import PLAYING
from .stops import run_until, running_between
from .table import Table
from .texts import moment

LONGEST_WAIT = 365 * absence.DAY  # an away may be planned up to a year ahead
# What a match is told of a player's change of away days: the match, their side, the
# match as it will be saved, the time now.
Words: TypeAlias = Callable[[Table, Side, Hosted, float], str]


@dataclass(frozen=True)
class Before:
    """A running turn of the player as it stood before their away days changed: the match's
    version then and the running time that was left."""

    version: int
    left: float


class Absences(Host):
    """The away-day commands (``MatchService`` inherits them)."""

    async def away(
        self, guild_id: int, user: User, start: float, days: int, until: float | None = None
    ) -> Reply:
        """``user`` is away in the server ``guild_id`` from ``start`` for ``days`` days,
        within their allowance, or ``until`` a time within them (a date asked for ends at
        its midnight, not ``days`` whole days from the time of asking); days of their time
        zone (``absence.after_days``); each of their matches there is told."""
        ctx, now = self._ctx, self._ctx.now()
        self._limit.take(user.id, now)
        start = max(start, now)
        if start - now > LONGEST_WAIT:
            raise Refused(_("An away may be planned up to a year ahead, not further."))
        left, allowed = await absence.days_left(ctx, guild_id, user.id, start)
        if not allowed:
            raise Refused(_("This server gives no away days (its admins set none)."))
        if not 1 <= days <= left:
            raise Refused(
                ngettext(
                    "You have {n} away day left this year (of {allowed}); {days} is not within it.",
                    "You have {n} away days left this year (of {allowed}); {days} is not "
                    "within them.",
                    left,
                    allowed=allowed,
                    days=ngettext("{n} day", "{n} days", days),
                )
            )
        ends = absence.after_days(start, days, (await load_player(ctx.store, user.id)).zone)
        away = Away(guild_id, user.id, start, ends if until is None else min(until, ends))
        taken = await ctx.store.aways(guild_id, [user.id], now)
        for other in taken:
            if other.starts_at < away.ends_at and away.starts_at < other.ends_at:
                raise Refused(
                    _(
                        "You are already away from {start} until {end}. Come back first with "
                        "{command}, or choose other days.",
                        start=moment(other.starts_at, now, localized=True),
                        end=moment(other.ends_at, now, localized=True),
                        command=ctx.cmd("away back:True", localized=True),
                    )
                )
        await ctx.store.save_player(user.id, user.name)
        before = await self._running(guild_id, user.id)
        await ctx.store.add_away(away)
        told = await self._reclock(guild_id, user.id, before, _away_words(away))
        return Reply(
            _(
                "You are away from {start} until {end} ({days}; {left} of {allowed} left this "
                "year). Your clocks stand still then; {told}. Come back early with the button "
                "or {command}: the days not begun are given back.",
                start=moment(away.starts_at, now, localized=True),
                end=moment(away.ends_at, now, localized=True),
                days=ngettext("{n} day", "{n} days", days),
                left=left - days,
                allowed=allowed,
                told=ngettext("{n} match was told", "{n} matches were told", told),
                command=ctx.cmd("away back:True", localized=True),
            ),
            buttons=("back",),
        )

    async def back(self, guild_id: int, user: User) -> Reply:
        """``user`` comes back now from their time away in ``guild_id`` (or calls off the
        next one planned): the days not begun are given back. An automatic away day is not
        ended early: it began at a deadline with nothing left of the turn, so ending it
        would end that turn at once; the turn keeps the whole day."""
        ctx, now = self._ctx, self._ctx.now()
        self._limit.take(user.id, now)
        found = await ctx.store.aways(guild_id, [user.id], now)
        taken = [a for a in found if not a.automatic]
        if not taken:
            raise Refused(_not_away_words(ctx.cmd("away", localized=True), found, now))
        away = taken[0]
        before = await self._running(guild_id, user.id)
        await ctx.store.end_away(away, now)
        zone = (await load_player(ctx.store, user.id)).zone
        given = absence.days_of(away, zone) - absence.days_of(
            replace(away, ends_at=max(now, away.starts_at)), zone
        )
        left, allowed = await absence.days_left(ctx, guild_id, user.id, away.starts_at)
        planned = away.starts_at > now
        words = _planned_off_words if planned else _back_words
        await self._reclock(guild_id, user.id, before, words)
        days = ngettext("{n} day", "{n} days", given)
        if planned:
            return Reply(
                _(
                    "Your planned away is called off: {days} given back ({left} of {allowed} "
                    "left this year).",
                    days=days,
                    left=left,
                    allowed=allowed,
                )
            )
        return Reply(
            _(
                "Welcome back: {days} given back ({left} of {allowed} left this year).",
                days=days,
                left=left,
                allowed=allowed,
            )
        )

    async def away_days(self, guild_id: int, user: User) -> Reply:
        """The user's away days in a server: what is left this year, and their times away
        now and planned."""
        ctx, now = self._ctx, self._ctx.now()
        left, allowed = await absence.days_left(ctx, guild_id, user.id, now)
        taken = await ctx.store.aways(guild_id, [user.id], now)
        lines = [
            ngettext(
                "You have {n} away day left this year, of {allowed}.",
                "You have {n} away days left this year, of {allowed}.",
                left,
                allowed=allowed,
            )
        ]
        for a in taken:
            start, end = (
                moment(a.starts_at, now, localized=True),
                moment(a.ends_at, now, localized=True),
            )
            if a.automatic:
                lines.append(
                    _("- away from {start} until {end} (given automatically)", start=start, end=end)
                )
            else:
                lines.append(_("- away from {start} until {end}", start=start, end=end))
        if not allowed:
            lines = [_("This server gives no away days (its admins set none).")]
        return Reply("\n".join(lines), buttons=("back",) if taken else ())

    async def _running(self, guild_id: int, user_id: int) -> dict[int, Before]:
        """The running turns of ``user_id`` in the server's matches, before a change of
        their away days: what each had left."""
        found: dict[int, Before] = {}
        for hosted in await self._playing(guild_id, user_id):
            async with self._lock(hosted.channel_id):
                table = await self._table(hosted.channel_id)
                if table is None or not _their_turn(table, user_id):
                    continue
                due = table.hosted.due_at or self._ctx.now()
                stops = await self._ctx.stops(table.terms, table.hosted, table.game.side)
                left = running_between(self._ctx.now(), due, stops)
                found[table.hosted.id] = Before(table.hosted.version, left)
        return found

    async def _reclock(
        self, guild_id: int, user_id: int, before: dict[int, Before], words: Words
    ) -> int:
        """After a change of ``user_id``'s away days: each running turn of theirs gets its
        deadline anew (what it had left, run outside their new stops), and each of their
        matches in the server is told, in the server's language. Returns how many were
        told."""
        told = 0
        language = await self._ctx.server_language(guild_id)
        for hosted in await self._playing(guild_id, user_id):
            async with self._lock(hosted.channel_id):
                table = await self._table(hosted.channel_id)
                if table is None or table.hosted.phase != PLAYING or not table.terms.away_days:
                    continue  # (a match without away days: its clock runs on, untold)
                side = table.hosted.side_of(user_id)
                if side is None:
                    continue
                changed = await self._moved(table, before.get(table.hosted.id), user_id)
                mail = Mail(table.channel_id)
                other = changed.player(side.other)
                with speaking(language):
                    said = words(table, side, changed, self._ctx.now())
                mentions = () if is_robot(other) else (other,)
                mail.public(said, mentions=mentions, language=language)
                await self._ctx.update(table, changed, mail)
                self._settle(table)
                told += 1
        return told

    async def _moved(self, table: Table, before: Before | None, user_id: int) -> Hosted:
        """The match with the running turn of ``user_id`` (if it is theirs, unchanged since
        ``before``) given its new deadline."""
        hosted = table.hosted
        if before is None or hosted.version != before.version or not _their_turn(table, user_id):
            return hosted
        now, side = self._ctx.now(), table.game.side
        stops = await self._ctx.stops(table.terms, hosted, side)
        moved = replace(hosted, due_at=run_until(now, before.left, stops))
        remind = await self._ctx.next_reminder(table.terms, moved, side, now)
        return replace(moved, remind_at=remind)

    async def _playing(self, guild_id: int, user_id: int) -> list[Hosted]:
        return [
            hosted
            for hosted in await self._ctx.store.hosting.live()
            if hosted.guild_id == guild_id
            and hosted.phase == PLAYING
            and user_id in (hosted.challenger_id, hosted.opposition_id)
        ]


def _not_away_words(command: str, automatic: list[Away], now: float) -> str:
    """Why ``back`` has nothing to end: no time away, or only an automatic day."""
    if automatic:
        return _(
            "Your away day until {end} was given automatically, to save a turn that reached "
            "its deadline, so it is not ended early: that turn keeps the whole day. Play it "
            "before then; your clocks stand still until it ends.",
            end=moment(automatic[0].ends_at, now, localized=True),
        )
    return _("You are not away, and no away is planned. {command} takes one.", command=command)


def _their_turn(table: Table, user_id: int) -> bool:
    hosted = table.hosted
    return (
        hosted.phase == PLAYING
        and table.match is not None
        and not table.paused
        and hosted.player(table.game.side) == user_id
    )


def _turn_now(table: Table, side: Side, hosted: Hosted, now: float) -> str:
    if table.match is None or table.game.side != side or hosted.due_at is None:
        return ""
    return " " + _("Their turn now ends {time}.", time=moment(hosted.due_at, now, localized=True))


def _away_words(away: Away) -> Words:
    def words(table: Table, side: Side, hosted: Hosted, now: float) -> str:
        said = _(
            "{player} is away from {start} until {end}: their clock stands still then, and "
            "they are back {end}.",
            player=table.who(side),
            start=moment(away.starts_at, now, localized=True),
            end=moment(away.ends_at, now, localized=True),
        )
        return said + _turn_now(table, side, hosted, now)

    return words


def _back_words(table: Table, side: Side, hosted: Hosted, now: float) -> str:
    said = _("{player} is back early: their clock runs again.", player=table.who(side))
    return said + _turn_now(table, side, hosted, now)


def _planned_off_words(table: Table, side: Side, hosted: Hosted, now: float) -> str:
    said = _("{player} called off their planned time away.", player=table.who(side))
    return said + _turn_now(table, side, hosted, now)
