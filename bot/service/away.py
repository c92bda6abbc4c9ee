"""Away days taken by the players (``absence`` keeps the allowance): ``away`` from a time for
some days, ``back`` early (the days not begun are given back). While a player is away the
clocks of their matches in that server stand still: the deadline of a running turn of theirs
moves by the time away, and a turn of theirs that begins meanwhile runs from their return.
Each of their matches there is told, with a timestamp of their return."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

from bot.i18n import _, ngettext, speaking
from rules import Side
from storage import Away, Hosted, Post, Store

from . import absence
from .context import Context, Mail
from .errors import Refused
from .host import Host
from .models import Reply, User, is_robot
from .people import load_player
from .phases import PLAYING, SETUP
from .stops import run_until, running_between, stops_by_side
from .table import Table
from .texts import moment

log = logging.getLogger(__name__)
LONGEST_WAIT = 365 * absence.DAY  # an away may be planned up to a year ahead
CLOCKED = (SETUP, PLAYING)  # the phases whose clocks a player's time away moves
# What a match is told of a player's change of away days: the match, their side, the
# match as it will be saved, the time now.
Words: TypeAlias = Callable[[Table, Side, Hosted, float], str]


@dataclass(frozen=True)
class Change:
    """A change of a player's away days: ``away`` added, or ended early at ``ends_at``."""

    away: Away
    ends_at: float | None = None  # None: added
    stored: bool = False  # added already (an automatic day, written at its deadline)

    def before(self, aways: Sequence[Away]) -> list[Away]:
        """The player's times away as read (``aways``) as they were before the change."""
        return [a for a in aways if a != self.away] if self.stored else list(aways)

    def applied(self, aways: Sequence[Away]) -> list[Away]:
        """The player's times away as read (``aways``) as they are after the change."""
        if self.stored:
            return list(aways)
        kept = [a for a in aways if a != self.away]
        if self.ends_at is None:
            return [*kept, self.away]
        if self.ends_at > self.away.starts_at:  # (else it is gone: it had not begun)
            kept.append(replace(self.away, ends_at=self.ends_at))
        return kept

    def since(self, now: float) -> float:
        """From when the change moves the player's clocks: now, but for an automatic day
        moved late (the bot down over the deadline that gave it, a crash or a failed move
        before its other matches were moved) its start: their clocks stood still from then."""
        return min(now, self.away.starts_at) if self.stored else now

    async def save(
        self, store: Store, moved: Sequence[tuple[Hosted, Sequence[Post]]]
    ) -> list[Hosted] | None:
        """The change, with the matches it moves, in one transaction; those as saved (None:
        an automatic day's, moved already by another process)."""
        if self.stored:
            return await store.move_clocks(self.away, moved)
        if self.ends_at is None:
            return await store.add_away(self.away, moved)
        return await store.end_away(self.away, self.ends_at, moved)


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
                raise Refused(_overlap_words(ctx, other, now))
        await ctx.store.save_player(user.id, user.name)
        told, runs_on = await self._reclock(guild_id, user.id, Change(away), _away_words(away))
        return Reply(
            _taken_words(
                ctx,
                away,
                now,
                ngettext("{n} day", "{n} days", days),
                left - days,
                allowed,
                told,
                runs_on,
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
        planned = away.starts_at > now
        words = _planned_off_words if planned else _back_words
        await self._reclock(guild_id, user.id, Change(away, now), words)
        zone = (await load_player(ctx.store, user.id)).zone
        given = absence.days_of(away, zone) - absence.days_of(
            replace(away, ends_at=max(now, away.starts_at)), zone
        )
        left, allowed = await absence.days_left(ctx, guild_id, user.id, away.starts_at)
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

    async def _days_given(self) -> None:
        """Each automatic away day given (``absence.auto_away``, ``Context.unmoved``) stops
        the player's clocks in their other matches in the server too, as any time away
        does: their deadlines move, and each is told. The days are read from the store,
        where each is noted until its moves are saved, so that one given before a crash,
        or by another process that died, is moved too. A failure is logged and tried
        again at the next look: the day itself is stored, and the turn it saved moved."""
        if not self._ctx.unmoved:
            return
        self._ctx.unmoved = False
        for day, saved in await self._ctx.store.unmoved():
            change = Change(day, stored=True)
            try:
                await self._reclock(day.guild_id, day.user_id, change, _away_words(day), saved)
            except Exception:
                self._ctx.unmoved = True
                log.exception("moving the clocks of user %d's automatic day failed", day.user_id)

    async def _reclock(
        self,
        guild_id: int,
        user_id: int,
        change: Change,
        words: Words,
        besides: int | None = None,
    ) -> tuple[int, int]:
        """Save ``change`` of ``user_id``'s away days with what it does to their matches in
        the server, in one transaction (a crash never leaves away days stored whose clocks
        still run): each running turn of theirs gets its deadline anew (``_moved``), and
        each of their matches there is told, in the server's language. The matches are
        held (their locks) from the read to the save; the hosted match ``besides`` is left
        as it is (an automatic day's own, told already). Returns how many were told, and how
        many of their matches there keep their clocks running (they have no away days)."""
        ctx = self._ctx
        language = await ctx.server_language(guild_id)
        async with contextlib.AsyncExitStack() as held:
            tables = await self._held(guild_id, user_id, held)
            since = change.since(ctx.now())
            read = await ctx.store.aways(guild_id, [user_id], since)
            before, after = change.before(read), change.applied(read)
            moved: list[tuple[Table, Hosted, Mail]] = []
            runs_on = 0
            for table in tables:
                side = table.hosted.side_of(user_id)
                if side is not None and not table.terms.away_days:
                    runs_on += 1  # (a match without away days: its clock runs on, untold)
                if side is None or not table.terms.away_days or table.hosted.id == besides:
                    continue
                changed = await self._moved(table, user_id, before, after, since)
                mail = Mail(table.channel_id)
                other = changed.player(side.other)
                with speaking(language):
                    said = words(table, side, changed, ctx.now())
                mentions = () if is_robot(other) else (other,)
                mail.public(said, mentions=mentions, language=language)
                moved.append((table, changed, mail))
            saved = await change.save(ctx.store, [(h, mail.posts) for _, h, mail in moved])
            if saved is None:  # another process moved them (its own look at the day)
                return 0, runs_on
            for (table, _, mail), hosted in zip(moved, saved, strict=True):
                ctx.committed(table, hosted, mail.posts)
                self._settle(table)
        return len(moved), runs_on

    async def _held(
        self, guild_id: int, user_id: int, held: contextlib.AsyncExitStack
    ) -> list[Table]:
        """``user_id``'s matches in setup or playing in the server, each under its channel's
        lock, kept by ``held`` (taken in the channels' order: two such calls never wait on
        each other)."""
        tables: list[Table] = []
        playing = sorted(await self._playing(guild_id, user_id), key=lambda h: h.channel_id)
        for hosted in playing:
            await held.enter_async_context(self._lock(hosted.channel_id))
            table = await self._table(hosted.channel_id)
            if table is not None and table.hosted.phase in CLOCKED:
                tables.append(table)
        return tables

    async def _moved(
        self,
        table: Table,
        user_id: int,
        before: Sequence[Away],
        after: Sequence[Away],
        since: float,
    ) -> Hosted:
        """The match with the running turn of ``user_id`` (if it is theirs) given its new
        deadline: what was left of it at ``since`` (``Change.since``), run outside their
        stops with ``before``, their times away before the change, now runs outside their
        stops with ``after``. A setup is moved likewise (``_moved_setup``)."""
        hosted = table.hosted
        if hosted.phase == SETUP:
            return await self._moved_setup(table, user_id, before, after, since)
        if not _their_turn(table, user_id):
            return hosted
        ctx, side = self._ctx, table.game.side
        was = await stops_by_side(ctx.store, table.terms, hosted, (side,), since, before)
        left = running_between(since, hosted.due_at or since, was[side])
        stops = await stops_by_side(ctx.store, table.terms, hosted, (side,), since, after)
        moved = replace(hosted, due_at=run_until(since, left, stops[side]))
        remind = await ctx.next_reminder(table.terms, moved, side, ctx.now())
        return replace(moved, remind_at=remind)

    async def _moved_setup(
        self,
        table: Table,
        user_id: int,
        before: Sequence[Away],
        after: Sequence[Away],
        since: float,
    ) -> Hosted:
        """The setup's deadline and reminder anew, by the rule that set them
        (``Context.setup_clock``: its time runs while neither player's clock stands still):
        what was left of each at ``since``, with ``user_id``'s times away ``before``, now
        runs with ``after``; so a setup under way when they take days away agrees with one begun
        during them."""
        hosted, ctx = table.hosted, self._ctx
        side = hosted.side_of(user_id)
        if side is None or hosted.due_at is None:
            return hosted
        was = await ctx.setup_stops(table.terms, hosted, since, (side, before))
        stops = await ctx.setup_stops(table.terms, hosted, since, (side, after))

        def moved(at: float | None) -> float | None:
            return None if at is None else run_until(since, running_between(since, at, was), stops)

        return replace(hosted, due_at=moved(hosted.due_at), remind_at=moved(hosted.remind_at))

    async def _playing(self, guild_id: int, user_id: int) -> list[Hosted]:
        return [
            hosted
            for hosted in await self._ctx.store.hosting.live()
            if hosted.guild_id == guild_id
            and hosted.phase in CLOCKED
            and user_id in (hosted.challenger_id, hosted.opposition_id)
        ]


def _taken_words(
    ctx: Context,
    away: Away,
    now: float,
    days: str,
    left: int,
    allowed: int,
    told: int,
    runs_on: int,
) -> str:
    """The answer to days away taken: when, what is left, how many matches were told, and
    the matches whose clocks run on meanwhile (``runs_on``: a tournament's without away
    days), so that the player does not leave trusting every clock to stand still."""
    said = dict(
        start=moment(away.starts_at, now, localized=True),
        end=moment(away.ends_at, now, localized=True),
        days=days,
        left=left,
        allowed=allowed,
        told=ngettext("{n} match was told", "{n} matches were told", told),
        command=ctx.cmd("away back:True", localized=True),
    )
    if runs_on:
        return ngettext(
            "You are away from {start} until {end} ({days}; {left} of {allowed} left this "
            "year). {n} match of yours here keeps its clock running then (a tournament's "
            "choice: play it meanwhile); your other clocks stand still, and {told}. Come back "
            "early with the button or {command}: the days not begun are given back.",
            "You are away from {start} until {end} ({days}; {left} of {allowed} left this "
            "year). {n} matches of yours here keep their clocks running then (a tournament's "
            "choice: play them meanwhile); your other clocks stand still, and {told}. Come "
            "back early with the button or {command}: the days not begun are given back.",
            runs_on,
            **said,
        )
    return _(
        "You are away from {start} until {end} ({days}; {left} of {allowed} left this "
        "year). Your clocks stand still then; {told}. Come back early with the button "
        "or {command}: the days not begun are given back.",
        **said,
    )


def _overlap_words(ctx: Context, other: Away, now: float) -> str:
    """Why days away that overlap ``other`` are refused, and what to do: come back first,
    or, ``other`` being an automatic day (not ended early), take days after it."""
    if other.automatic:
        return _(
            "You are already away until {end}: that away day was given automatically, to "
            "save a turn that reached its deadline, and it is not ended early. Take days that "
            "begin after it ({command}).",
            end=moment(other.ends_at, now, localized=True),
            command=ctx.cmd("away start:", localized=True),
        )
    return _(
        "You are already away from {start} until {end}. Come back first with {command}, or "
        "choose other days.",
        start=moment(other.starts_at, now, localized=True),
        end=moment(other.ends_at, now, localized=True),
        command=ctx.cmd("away back:True", localized=True),
    )


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
