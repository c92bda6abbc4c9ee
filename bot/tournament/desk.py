"""The tournament desk: what a front end calls for ``/tora-tournament ...``.

Every command takes the place it was given in and who gave it, and returns a ``Reply`` (text
and, for the standings, the bracket image); a refusal is ``Refused`` with a message for that
user alone. Server admins (the front end judges ``admin``) create and start tournaments;
anyone registers. Once started, a tournament runs by itself (``flow``): its games are hosted
by the match service in a thread per match, and each ending moves it on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping

from bot.i18n import N_, _, ngettext, option, pgettext, speaking
from bot.service import (
    Attachment,
    Clock,
    MatchService,
    Place,
    Refused,
    Reply,
    Threads,
    User,
    load_guild,
)
from bot.service.errors import NotAllowed
from bot.service.terms import DAY, Settings
from bot.service.texts import LONGEST_POST, clipped, escape, quote
from storage import Post, Store
from storage.competitions.events import EventRow
from storage.competitions.names import has_control_characters
from storage.competitions.tournaments import (
    OPEN,
    REGISTERING,
    RUNNING,
    Snapshot,
    TournamentRow,
    TournamentTx,
)

from . import texts
from .champions import order_champions
from .common import Desk
from .event_desk import EventDesk
from .event_texts import away_words
from .flow import Flow, bracket_drawing, open_tier
from .match import STARTING_RANK, TARGET_BOUNDS, check_target
from .pairing import NoSubstitute
from .points import Board
from .progress import competitors, standings, tier_reached
from .scoring import game_terms

LONGEST_NAME = 60
MOST_ENTRIES = 500  # players and substitutes of a tournament, as an event's (event_spec)
LISTED = 25  # tournament names a refusal lists, as autocomplete offers at most
LIVE = (REGISTERING, RUNNING)  # open or being played (an event's status says it in the same words)
TICK = 60.0  # seconds between two catch-ups, and looks at set starts and round deadlines
log = logging.getLogger(__name__)
BOARD_RANK = {"short": N_("short-board rank {rank}"), "long": N_("long-board rank {rank}")}
TAKEN = N_("This server already has a tournament called **{name}**.")


class TournamentDesk(Desk[Flow]):
    flow_type = Flow

    def __init__(
        self,
        store: Store,
        service: MatchService,
        threads: Threads,
        *,
        clock: Clock | None = None,
        settings: Settings | None = None,
    ) -> None:
        super().__init__(store, service, threads, clock=clock, settings=settings)
        # the other formats, Swiss and round robin, of every game
        self.events = EventDesk(
            store, service, threads, clock=self.flow.clock, settings=self._settings
        )
        self._ticking: asyncio.Task[None] | None = None

    async def start(self, background: bool = True) -> None:
        """Listen to the match service's endings, and catch up on the games that ended while
        the bot was down (call after ``service.start()``); with ``background``, every
        minute catch chapter 10 up again (an ending whose recording failed is not heard
        again) and tick the Swiss and round robin events (set starts, round deadlines)."""
        self.flow.service.on_ended(self.flow.ended)
        await self.flow.call_off_strays()
        await self.catch_up()
        await self.events.start_listening()
        if background:
            self._ticking = asyncio.create_task(self._tick(), name="tora-tournaments")

    async def stop(self) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticking
        self._ticking = None

    async def _tick(self) -> None:
        while True:
            await self.flow.clock.sleep(TICK)
            try:
                await self.flow.catch_up()
                await self.events.flow.tick()
            except Exception:
                log.exception("the tournaments' tick failed; trying again in %.0f s", TICK)

    async def catch_up(self) -> None:
        """Score every tournament game that ended unheard (the match service does not retry
        its listeners) and open every game and thread that is missing. ``start`` does it;
        a front end may call it again, e.g. once a channel lets the bot open threads."""
        await self.flow.catch_up()

    # ---- organising ----------------------------------------------------------------------
    async def create(
        self,
        place: Place,
        user: User,
        name: str,
        board: str,
        target: int,
        *,
        admin: bool,
        turn_seconds: float | None = None,
        away_days: bool = True,
    ) -> Reply:
        """A server admin opens a tournament for registration in this channel. ``target``:
        the Game Points that win a match (181-240 long, 49-64 short); ``turn_seconds``: the
        games' turn deadline (default: the server's, else 24 h); ``away_days``: whether the
        players' away days stop its games' clocks."""
        self.flow.service.pace(user)
        if not admin:
            raise NotAllowed(_("Only a server admin can organise a tournament."))
        name = _check_name(name)
        if board not in (Board.SHORT, Board.LONG):
            raise Refused(_("The board is `short` or `long`, not {board}.", board=quote(board)))
        try:
            check_target(Board(board), target)
        except ValueError:
            low, high = TARGET_BOUNDS[Board(board)]
            raise Refused(
                _(
                    "A match's target on the {board} is from {low} to {high} Game Points (rule "
                    "book chapter 10), not {target}.",
                    board=texts.board_words(board),
                    low=low,
                    high=high,
                    target=target,
                )
            ) from None
        if turn_seconds is None:
            turn_seconds = (await load_guild(self._store, place.guild_id)).turn_seconds or DAY
        game_terms(board, turn_seconds).check()
        await self._store.save_player(user.id, user.name)

        if await self._store.events.named(place.guild_id, name) is not None:
            raise Refused(_(TAKEN, name=escape(name)))

        def work(tx: TournamentTx) -> None:
            if tx.named(place.guild_id, name) is not None:
                raise Refused(_(TAKEN, name=escape(name)))
            values = (name, board, target, turn_seconds, user.id, away_days)
            tx.create(place.guild_id, place.channel_id, *values)

        await self._store.tournaments.transact(work, self._now())
        return Reply(
            _(
                "Tournament **{name}** is open for registration: {board}, matches of four games "
                "to {target} Game Points; {away}. Players join with {register} (or as a "
                "substitute); an admin starts it with {start}.",
                name=escape(name),
                board=texts.board_words(board),
                target=target,
                away=away_words(away_days),
                register=self._cmd("register"),
                start=self._cmd("start"),
            ),
            private=False,
        )

    async def begin(self, place: Place, user: User, name: str, *, admin: bool) -> Reply:
        """A server admin closes registration and starts tier 1: its matches get a thread
        each in the tournament's channel, and their first games open there."""
        if not admin:
            raise NotAllowed(_("Only a server admin can start a tournament."))
        t = await self._tournament(place, name)

        def work(tx: TournamentTx) -> int:
            snapshot = tx.snapshot(t.id)
            if snapshot.tournament.status != REGISTERING:
                raise Refused(_("**{name}** has already started.", name=escape(t.name)))
            players = competitors(snapshot)
            if len(players) < 2:
                raise Refused(
                    ngettext(
                        "**{name}** needs at least two players to start; it has {n}.",
                        "**{name}** needs at least two players to start; it has {n}.",
                        len(players),
                        name=escape(t.name),
                    )
                )
            tx.start(t.id)
            try:
                with speaking(public):  # the tier's post: in the server's language
                    open_tier(tx, snapshot, players, 1)
            except NoSubstitute:
                raise Refused(
                    _(
                        "**{name}** has an odd number of players ({players}) and no substitute "
                        "for the one left over. Someone may register as a substitute "
                        "({register} with `{substitute}`), or one more player join.",
                        name=escape(t.name),
                        players=len(players),
                        register=self._cmd("register"),
                        substitute=option("substitute"),
                    )
                ) from None
            return len(players)

        public = await self.flow.language(t.guild_id)
        async with self.flow.guarded(t.id, t.name):  # no other process moves it on meanwhile
            count = await self._store.tournaments.transact(work, self._now())
            await self.flow.advance(t.id)  # the games first: the picture may fail
            await self.flow.post_bracket(t.id)
            await self.flow.service.deliver_written()
        return Reply(
            _(
                "**{name}** has started with {players} players: the pairings of tier 1 are "
                "posted, and each match's first game is open in its thread.",
                name=escape(t.name),
                players=count,
            ),
            private=False,
        )

    async def cancel(self, place: Place, user: User, name: str, *, admin: bool) -> Reply:
        """A server admin calls a tournament off: no champion, no more games. Its live games
        are cancelled (unrated, nothing recorded); matches already decided, and the ranks
        they moved, stand."""
        if not admin:
            raise NotAllowed(_("Only a server admin can cancel a tournament."))
        t = await self._tournament(place, name)

        def work(tx: TournamentTx) -> list[int]:
            snapshot = tx.snapshot(t.id)
            if snapshot.tournament.status not in (REGISTERING, RUNNING):
                raise Refused(
                    _(
                        "**{name}** is over already; there is nothing to cancel.",
                        name=escape(t.name),
                    )
                )
            tx.cancel(t.id)
            with speaking(public):
                tx.post([Post(t.channel_id, texts.cancelled(t, escape(user.name)))])
            return [g.hosted_id for g in snapshot.games if g.state == OPEN]

        public = await self.flow.language(t.guild_id)
        async with self.flow.lock:
            hosted_ids = await self._store.tournaments.transact(work, self._now())
        for hosted_id in hosted_ids:  # outside the lock: each ending reaches the flow
            hosted = await self._store.hosting.get(hosted_id)
            if hosted.live:
                where = Place(hosted.guild_id, hosted.channel_id)
                await self.flow.service.cancel(where, user, admin=True, one_of_many=True)
        await self.flow.service.deliver_written()
        if not hosted_ids:
            return Reply(_("**{name}** called off.", name=escape(t.name)), private=False)
        return Reply(
            ngettext(
                "**{name}** and its {n} open game called off.",
                "**{name}** and its {n} open games called off.",
                len(hosted_ids),
                name=escape(t.name),
            ),
            private=False,
        )

    # ---- players -------------------------------------------------------------------------
    async def register(
        self, place: Place, user: User, name: str, *, substitute: bool = False
    ) -> Reply:
        """Join a tournament that has not started, as a player or as a substitute (who plays
        only a player left without an opponent, and never goes on in the tournament)."""
        self.flow.service.pace(user)
        t = await self._tournament(place, name)
        await self._store.save_player(user.id, user.name)

        def work(tx: TournamentTx) -> int:
            snapshot = tx.snapshot(t.id)
            if snapshot.tournament.status != REGISTERING:
                raise Refused(
                    _("**{name}** has started; registration is closed.", name=escape(t.name))
                )
            if any(entry.player_id == user.id for entry in snapshot.entries):
                raise Refused(_("You are already registered for **{name}**.", name=escape(t.name)))
            if len(snapshot.entries) >= MOST_ENTRIES:
                raise Refused(
                    _(
                        "**{name}** is full: a tournament takes at most {most} players and "
                        "substitutes.",
                        name=escape(t.name),
                        most=MOST_ENTRIES,
                    )
                )
            elsewhere = None if substitute else tx.playing_elsewhere(t.guild_id, t.board, user.id)
            if elsewhere is not None:
                raise Refused(
                    _(
                        "You already play in **{other}**, on the {board} too: one tournament per "
                        "board at a time, so that each match is played at your current rank. "
                        "You may still register as a substitute.",
                        other=escape(elsewhere),
                        board=texts.board_words(t.board),
                    )
                )
            row = tx.rank(t.guild_id, t.board, user.id)
            rank = STARTING_RANK if row is None else row.rank
            tx.add_entry(t.id, user.id, rank, substitute)
            return rank

        rank = await self._store.tournaments.transact(work, self._now())
        at = _(BOARD_RANK[t.board], rank=rank) if t.board in BOARD_RANK else str(rank)
        if substitute:
            text = _(
                "You are registered for **{name}** as a substitute, at {rank}.",
                name=escape(t.name),
                rank=at,
            )
        else:
            text = _(
                "You are registered for **{name}** as a player, at {rank}.",
                name=escape(t.name),
                rank=at,
            )
        if rank == STARTING_RANK:
            text += " " + _("(Everyone starts at rank 1.)")
        return Reply(text)

    async def withdraw(self, place: Place, user: User, name: str) -> Reply:
        """Leave a tournament before it starts."""
        self.flow.service.pace(user)
        t = await self._tournament(place, name)

        def work(tx: TournamentTx) -> None:
            if tx.snapshot(t.id).tournament.status != REGISTERING:
                raise Refused(
                    _(
                        "**{name}** has started, so you can no longer withdraw. To leave, resign "
                        "your games: each counts as a lost game.",
                        name=escape(t.name),
                    )
                )
            if not tx.remove_entry(t.id, user.id):
                raise Refused(_("You are not registered for **{name}**.", name=escape(t.name)))

        await self._store.tournaments.transact(work, self._now())
        return Reply(_("You have withdrawn from **{name}**.", name=escape(t.name)))

    # ---- looking -------------------------------------------------------------------------
    async def standings(self, place: Place, name: str) -> Reply:
        """The standings as text, and the bracket as an image: as many whole rows as fit in
        one message, then how many more (a large bracket's would need several)."""
        t = await self._tournament(place, name)
        snapshot = await self._store.tournaments.snapshot(t.id)
        names = await self.flow.names(snapshot)
        png = await self.flow.service.paint(bracket_drawing(snapshot, names))
        subs = sum(entry.substitute for entry in snapshot.entries)
        head = texts.describe(t, len(competitors(snapshot)), subs)
        rows = [(row, True) for row in _standing_rows(t, snapshot, names)]
        return Reply(clipped(head, rows), (Attachment("bracket.png", png),), private=False)

    async def pairings(self, place: Place, name: str, tier: int | None = None) -> Reply:
        """A tier's matches (the current one by default), with links to their threads."""
        t = await self._tournament(place, name)
        snapshot = await self._store.tournaments.snapshot(t.id)
        names = await self.flow.names(snapshot)
        return Reply(texts.tier_pairings(snapshot, names, tier or t.tier), private=False)

    async def tournaments(self, place: Place) -> Reply:
        """The server's tournaments of every format, in one public message: those open or
        running, then the newest over (``_every``), as many as fit, then how many more and
        how to see one. Only the lines shown are read. A note to the caller alone when
        there are none."""
        rows = await self._every(place.guild_id)
        if not rows:
            return Reply(
                _(
                    "No tournaments here yet; an admin creates one with {command}.",
                    command=self._cmd("create"),
                )
            )
        text = ""
        for i, row in enumerate(rows):
            line = await self._described(row)
            more = self._more(len(rows) - i - 1)
            if len(text) + 1 + len(line) + len(more) > LONGEST_POST:
                return Reply(text + self._more(len(rows) - i), private=False)
            text += ("\n" if text else "") + line
        return Reply(text, private=False)

    async def _described(self, row: EventRow | TournamentRow) -> str:
        """The line of the server's list for ``row``."""
        if isinstance(row, EventRow):
            return await self.events.described(row)
        snapshot = await self._store.tournaments.snapshot(row.id)
        subs = sum(entry.substitute for entry in snapshot.entries)
        return texts.describe(row, len(competitors(snapshot)), subs)

    def _more(self, left: int) -> str:
        """The list's last line, for ``left`` tournaments not shown ("" for none)."""
        if not left:
            return ""
        return "\n" + ngettext(
            "...and {n} more; {command} shows it by its name.",
            "...and {n} more; {command} shows any of them by its name.",
            left,
            command=self._cmd("standings"),
        )

    async def rank(self, place: Place, user: User) -> Reply:
        """The user's tournament ranks on this server, per board size."""
        lines = []
        for board in Board:
            row = await self._store.tournaments.rank(place.guild_id, board, user.id)
            words = texts.board_words(board)
            if row is None:
                lines.append(_("{board}: unranked (everyone starts at rank 1).", board=words))
            elif row.transition_rank is None:
                lines.append(_("{board}: rank {rank}.", board=words, rank=row.rank))
            else:
                lines.append(
                    _(
                        "{board}: rank {rank} (in transition to {next}, {played} of 4 matches "
                        "played).",
                        board=words,
                        rank=row.rank,
                        next=row.transition_rank,
                        played=len(row.played_like),
                    )
                )
        return Reply(
            _("Your tournament ranks here (higher is stronger): {ranks}", ranks=" ".join(lines))
        )

    async def names(self, guild_id: int, typed: str = "", limit: int = 25) -> list[str]:
        """The server's tournament names (every format) starting with ``typed``, for
        autocomplete: in the order of ``_every``, the first ``limit``, read alone (a
        keystroke reads no more than it offers)."""
        return await self._store.competition_names(guild_id, typed, LIVE, limit)

    async def _every(self, guild_id: int) -> list[EventRow | TournamentRow]:
        """The server's tournaments of every format: those open or running first, then the
        ones over; newest first within each. A server that ran many events still offers
        (and lists) the one people are joining now before its years of finished ones."""
        rows: list[EventRow | TournamentRow] = [
            *await self._store.events.of_guild(guild_id),
            *await self._store.tournaments.of_guild(guild_id),
        ]
        return sorted(rows, key=lambda r: (r.status not in LIVE, -r.created_at))

    async def _tournament(self, place: Place, name: str) -> TournamentRow:
        t = await self._store.tournaments.named(place.guild_id, name.strip())
        if t is None:
            known = [r.name for r in await self._every(place.guild_id)]
            listed = ", ".join(f"**{escape(n)}**" for n in known[:LISTED]) or _("none yet")
            if len(known) > LISTED:
                listed += " " + pgettext(
                    "tournaments", "...and {more} more", more=len(known) - LISTED
                )
            raise Refused(
                _(
                    "There is no tournament called {name} here (this server has: {listed}).",
                    name=quote(name),
                    listed=listed,
                )
            )
        return t


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= LONGEST_NAME:
        raise Refused(_("A tournament's name has 1 to {most} characters.", most=LONGEST_NAME))
    if has_control_characters(name):
        raise Refused(_("A tournament's name cannot hold control characters."))
    return name


def _standing_rows(t: TournamentRow, snapshot: Snapshot, names: Mapping[int, str]) -> list[str]:
    """Each player's row, the furthest tier first (a tier's players by ``order_champions``,
    sharing a place where it ties them)."""
    rows = []
    reached = tier_reached(snapshot)
    ordered = sorted(standings(snapshot), key=lambda s: -reached[s.player])
    place_number = 1
    for tier in sorted({reached[s.player] for s in ordered}, reverse=True):
        at_tier = [s for s in ordered if reached[s.player] == tier]
        for group in order_champions(at_tier):
            for s in group:
                row = _(
                    "{place}. {player}: {points} Game Points, {wins} won, {losses} lost",
                    place=place_number,
                    player=escape(names[s.player]),
                    points=s.game_points,
                    wins=s.wins,
                    losses=s.losses,
                )
                if s.player == t.champion_id:
                    row = _("{line} - champion", line=row)
                rows.append(row)
            place_number += len(group)
    return rows
