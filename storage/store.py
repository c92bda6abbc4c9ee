"""The store: the one object the bot talks to for anything kept across restarts."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import TypeVar, cast

from rules import GameState, Side

from . import players
from .backends.opening import Reads, open_backend
from .backends.sql import Connection, ReadConnection, Together, Writes
from .competitions import names, ratings
from .competitions.events import Events
from .competitions.ladders import Ladders
from .competitions.ratings import Rating, RatingChange, RatingEvent
from .competitions.tournaments import Tournaments
from .config import Config
from .errors import CorruptMatch, UnknownPlayer
from .hosting import hosted as hosting
from .hosting import outbox, saving
from .hosting.area import Hosting, update_with_posts
from .hosting.hosted import Hosted
from .hosting.links import Links
from .hosting.outbox import Post
from .hosting.saving import Save
from .hosting.sharing import Sharing
from .matches import reads, writes
from .matches.codec import dump_game
from .matches.games import heavy, new_game, spec_of, state_version
from .matches.loader import SnapshotUnusable, rebuild
from .matches.log import CLOSING, END
from .matches.match import Match
from .matches.models import ACTIVE, FinishedMatch, LogLine, MatchInfo, State
from .matches.records import finish_of, prepare_import, record_headers, write_record
from .matches.writes import Append, NewMatch, snapshot_due
from .players import Away, Player

log = logging.getLogger(__name__)
T = TypeVar("T")
Moved = tuple[Hosted, Sequence[Post]]  # a hosted match as changed, and its posts


class Store:
    """Matches, players, guild settings, results and ladders, in one SQLite file or one
    PostgreSQL database (``Config.url``).

    Open one Store per database per process (``async with await Store.open() as store``);
    several processes may share a PostgreSQL database (docs/DEPLOY.md). Every write is one
    job of its writer, one transaction; reads borrow their own connection and never block on
    writes. Reads named ``private_*`` return one player's hidden data and must only answer
    that player; every other read is public.
    """

    def __init__(self, config: Config, writer: Writes, reads: Reads) -> None:
        self.config = config
        self._writer = writer
        self._reads = reads
        self._closed = False
        self.sharing = Sharing(writer)
        self.links = Links(writer, self._read)
        self.hosting = Hosting(writer, self._read, self.sharing.owner)
        self.ladders = Ladders(writer, self._read)
        self.tournaments = Tournaments(writer, self._read)
        self.events = Events(writer, self._read)  # Swiss and round robin

    @classmethod
    async def open(cls, config: Config | None = None) -> Store:
        """Open (creating and migrating if needed) the database of ``config``, by default the
        one the environment names (``TORA_DB``); ``CannotOpen`` saying why if it cannot be."""
        config = config or Config.from_env()
        return cls(config, *await open_backend(config))

    async def close(self) -> None:
        """Give back what this process holds (see ``Sharing``), then close."""
        if self._closed:
            return
        self._closed = True
        try:
            await self.sharing.release_all()
        except Exception:  # closing anyway: the leases run out by themselves
            log.exception("could not give back this process's leases")
        await self._writer.close()
        await self._reads.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def _read(self, read: Callable[[ReadConnection], Awaitable[T]]) -> Awaitable[T]:
        """``read``'s result on a read connection (run again on a fresh one if it is lost)."""
        return self._reads.run(read)

    # ---- players and guilds --------------------------------------------------------------
    async def save_player(self, user_id: int, name: str) -> Player:
        await self._writer.run(lambda conn: players.save_player(conn, user_id, name, time.time()))
        return Player(user_id, name)

    async def player(self, user_id: int) -> Player | None:
        return await self._read(lambda db: players.player(db, user_id))

    async def names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The names of those of ``user_ids`` the store knows, by id: one read."""
        return await self._read(lambda db: players.names(db, user_ids))

    async def settings_in(
        self, user_id: int, guild_id: int | None
    ) -> tuple[dict[str, str], dict[str, str]]:
        """A player's own settings and their server's (``guild_settings``), in one read."""
        return await self._read(lambda db: players.settings_in(db, user_id, guild_id))

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        return await self._read(lambda db: players.guild_settings(db, guild_id))

    async def competition_names(
        self, guild_id: int, typed: str, live: tuple[str, str], limit: int
    ) -> list[str]:
        """The first ``limit`` names of a server's tournaments and events starting with
        ``typed`` (``names.starting``): one read of those alone, for autocomplete."""
        return await self._read(lambda db: names.starting(db, guild_id, typed, live, limit))

    async def live_ai_matches(self, guild_id: int) -> int:
        """How many matches against the AI are live in a server (for its cap)."""
        return await self._read(lambda db: hosting.live_ai_matches(db, guild_id))

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set (or, with None, remove) one setting of a guild."""
        await self._writer.run(lambda conn: players.set_guild_setting(conn, guild_id, key, value))

    async def set_guild_settings(
        self,
        guild_id: int,
        values: Mapping[str, str | None],
        remade: Mapping[str, Callable[[str | None], str | None]] | None = None,
    ) -> dict[str, str | None]:
        """Set (or, with None, remove) several settings of a guild, in one transaction; each
        setting of ``remade`` is made over its value stored then (None: not set), the job
        running as if alone (SERIALIZABLE on PostgreSQL) so that no other change of it comes
        in between. Answers the values ``remade`` made."""

        def job(conn: Connection) -> dict[str, str | None]:
            for key, value in values.items():
                players.set_guild_setting(conn, guild_id, key, value)
            made = {}
            for key, remake in (remade or {}).items():
                made[key] = remake(players.guild_setting(conn, guild_id, key))
                players.set_guild_setting(conn, guild_id, key, made[key])
            return made

        return await self._writer.run(job, serializable=bool(remade))

    async def player_settings(self, user_id: int) -> dict[str, str]:
        """A player's own settings (their time zone, notifications...)."""
        return await self._read(lambda db: players.player_settings(db, user_id))

    async def set_player_setting(self, user_id: int, key: str, value: str | None) -> None:
        """Set (or, with None, remove) one of a player's own settings."""
        await self._writer.run(lambda conn: players.set_player_setting(conn, user_id, key, value))

    async def set_player_settings(self, user_id: int, values: Mapping[str, str | None]) -> None:
        """Set (or, with None, remove) several of a player's own settings, in one
        transaction."""

        def job(conn: Connection) -> None:
            for key, value in values.items():
                players.set_player_setting(conn, user_id, key, value)

        await self._writer.run(job)

    async def players_with(self, key: str) -> list[tuple[int, str]]:
        """Every player who set ``key``, with its value."""
        return await self._read(lambda db: players.players_with(db, key))

    async def swap_player_setting(
        self, user_id: int, key: str, old: str | None, new: str, posts: Sequence[Post] = ()
    ) -> bool:
        """Set a player's ``key`` to ``new`` if it is still ``old``, and then queue ``posts``
        (about no one match: a player's daily digest), in one transaction: whether this
        did."""

        def job(conn: Connection) -> bool:
            swapped = players.swap_player_setting(conn, user_id, key, old, new)
            if swapped:
                outbox.insert_posts(conn, None, posts, time.time())
            return swapped

        return await self._writer.run(job)

    async def queue_posts(self, posts: Sequence[Post]) -> None:
        """Messages about no one match, for the outbox, alone (the daily digest queues its
        own with its claim, ``swap_player_setting``; the delivery's tests queue rows so)."""
        now = time.time()
        await self._writer.run(lambda conn: outbox.insert_posts(conn, None, posts, now))

    # ---- away days ---------------------------------------------------------------------------
    async def add_away(
        self, away: Away, moved: Sequence[Moved] = (), saved: int | None = None
    ) -> list[Hosted]:
        """A player's time away in a server (UnknownPlayer if they were never met), with
        ``moved``: the hosted matches whose clocks it moves, and their posts (``_moving``).
        An automatic day comes with the hosted match whose turn it ``saved``: the player's
        other matches are moved later (``move_clocks``), and it is noted until then."""
        if await self.player(away.user_id) is None:
            raise UnknownPlayer(away.user_id)
        return await self._moving(lambda conn: players.add_away(conn, away, saved), moved)

    async def end_away(self, away: Away, at: float, moved: Sequence[Moved] = ()) -> list[Hosted]:
        """``away`` ends early, at ``at`` (gone if it had not begun), with ``moved`` as for
        ``add_away``."""
        return await self._moving(lambda conn: players.end_away(conn, away, at), moved)

    async def move_clocks(self, day: Away, moved: Sequence[Moved]) -> list[Hosted] | None:
        """The hosted matches an automatic ``day``, stored already (at its deadline),
        moves, with their posts, as for ``add_away``, in the transaction that takes its
        note (``unmoved``); None, nothing written, if the note is gone: another process
        moved them."""

        def job(conn: Connection) -> list[Hosted] | None:
            return _moves(conn, moved) if players.take_unmoved(conn, day) else None

        return await self._writer.run(job)

    async def unmoved(self) -> list[tuple[Away, int]]:
        """The automatic days whose players' other matches have yet to be moved
        (``move_clocks``), each with the hosted match whose turn it saved."""
        return await self._read(players.unmoved)

    async def _moving(
        self, change: Callable[[Connection], None], moved: Sequence[Moved]
    ) -> list[Hosted]:
        """A change of a player's away days and the hosted matches it moves, each read at
        its version (StaleHosted otherwise), in one transaction: a crash never leaves away
        days stored whose clocks still run. The matches as saved."""

        def job(conn: Connection) -> list[Hosted]:
            change(conn)
            return _moves(conn, moved)

        return await self._writer.run(job)

    async def aways(self, guild_id: int, user_ids: Sequence[int], since: float) -> list[Away]:
        """The players' times away in a server that end after ``since``."""
        return await self._read(lambda db: players.aways(db, guild_id, user_ids, since))

    async def aways_between(
        self, guild_id: int, user_id: int, start: float, end: float
    ) -> list[Away]:
        """A player's times away in a server that began in [start, end)."""
        return await self._read(lambda db: players.aways_between(db, guild_id, user_id, start, end))

    # ---- matches -------------------------------------------------------------------------
    async def create_match(
        self,
        guild_id: int,
        challenger_id: int,
        opposition_id: int,
        game: GameState,
        *,
        channel_id: int | None = None,
        deadline: float | None = None,
    ) -> Match:
        """A new match between two saved players, of ``game``'s game and made as ``game`` was
        (its game type's ``setup_of``; the game itself is made afresh): its secret answers
        (TORA's Assassin squares, R41) are kept privately."""
        game_id = game.game_type
        fresh = new_game(game_id, spec_of(game))
        spec = spec_of(fresh)  # as the game type reads it back
        new = NewMatch(
            guild_id,
            channel_id,
            challenger_id,
            opposition_id,
            spec,
            deadline=deadline,
            game=game_id,
        )
        state = State.of(fresh)
        match_id = await self._writer.run(
            lambda conn: writes.insert_match(conn, new, state, time.time())
        )
        return Match(
            match_id, guild_id, channel_id, challenger_id, opposition_id, fresh, 1, deadline
        )

    async def load(self, match_id: int) -> Match:
        """The match rebuilt from its latest snapshot and the log after it, every entry
        checked by the rules core. MatchNotFound, or CorruptMatch naming the match."""
        stored = await self._read(lambda db: reads.stored_match(db, match_id))
        stored, game = await self._rebuild(stored)
        info = stored.info
        snapshot_seq = stored.snapshot.seq if stored.snapshot else 0
        kinds = [str(row[3]) for _seq, row in stored.entries]
        if snapshot_due(len(kinds), kinds, heavy(game), self.config.snapshot_every):
            data = await asyncio.to_thread(dump_game, game)
            await self._writer.run(
                lambda conn: writes.put_snapshot(conn, match_id, info.actions, data, time.time())
            )
            snapshot_seq = info.actions
        return Match(
            match_id,
            info.guild_id,
            info.channel_id,
            info.challenger_id,
            info.opposition_id,
            game,
            info.version,
            info.turn_deadline,
            seq=info.actions,
            snapshot_seq=snapshot_seq,
            rewinds=stored.rewinds,
        )

    async def last_turn_ended_by_player(self, match_id: int) -> bool:
        """Whether the last finished turn of match ``match_id`` was ended by its player (End
        turn), as ``before_last_turn`` needs to find the game before it: one row of the log
        read, nothing replayed."""
        return await self._read(lambda db: reads.last_closing(db, match_id)) == END

    async def before_last_turn(self, match: Match, turns: int = 1) -> tuple[GameState, int] | None:
        """PRIVATE (the game holds hidden state): ``match``'s game as it was before its last
        ``turns`` finished turns, replayed from its log, and the log entry it stood at; None
        unless each of them was ended by End turn (not a deadline, an agreement or the
        start). ``match`` must have nothing unsaved."""
        if match.pending:
            raise ValueError(f"match {match.id} has unsaved entries")
        stored = await self._read(lambda db: reads.stored_match(db, match.id, whole_log=True))
        closing = [(seq, row[3]) for seq, row in stored.entries if row[3] in CLOSING]
        if len(closing) < turns or any(kind != END for _, kind in closing[-turns:]):
            return None
        back = closing[-turns - 1][0] if len(closing) > turns else 0
        whole = replace(stored, snapshot=None)
        return await asyncio.to_thread(rebuild, whole, back), back

    async def _rebuild(self, stored: reads.Stored) -> tuple[reads.Stored, GameState]:
        """Rebuild off the event loop. The log is the truth and a snapshot only a shortcut:
        if the snapshot is unusable or its tail fails, rebuild from the whole log."""
        try:
            return stored, await asyncio.to_thread(rebuild, stored)
        except (SnapshotUnusable, CorruptMatch) as exc:
            if stored.snapshot is None:
                raise
            log.warning("match %d: ignoring its snapshot (%s)", stored.info.id, exc)
            snapshot_seq = stored.snapshot.seq
        head = await self._read(lambda db: reads.entry_rows(db, stored.info.id, 0, snapshot_seq))
        whole = replace(stored, snapshot=None, entries=head + stored.entries)
        return whole, await asyncio.to_thread(rebuild, whole)

    async def save(self, match: Match, *, close: str | None = None) -> list[int]:
        """Write what was played on ``match`` (and its deadline), if nobody wrote the match
        since it was read: StaleMatch otherwise, and nothing is written. Returns the new log
        entries' numbers in the match's log; once it returns, they are durable. ``close``
        ("aborted" or "cancelled") ends a match that is not over without a result: it is no
        longer active and nothing more can be saved to it (MatchClosed)."""
        request = await self._append(match, close)
        saved, _ = await self._write(Save(request, state_version(match.game)))
        self._saved(match, request, saved)
        return saved.seqs

    async def save_hosted(
        self,
        match: Match,
        hosted: Hosted,
        posts: Sequence[Post] = (),
        *,
        close: str | None = None,
        plans: Mapping[Side, Sequence[str]] | None = None,
        forget: bool = False,
    ) -> Hosted:
        """``save`` and, in the same transaction, the hosted match's new state (StaleHosted
        if it changed since it was read), the outbox rows announcing the change, the
        ``plans`` (each side's planned replies now, ``put_plans``) and, with ``forget``,
        both sides' plan drafts and looks gone (``Save.forget``): either all of it is
        durable when this returns, or none of it was written."""
        request = await self._append(match, close)
        save = Save(request, state_version(match.game), hosted, posts, plans, forget)
        saved, updated = await self._write(save)
        self._saved(match, request, saved)
        return cast(Hosted, updated)  # a save with a hosted match answers it

    def _write(self, save: Save) -> Awaitable[saving.Written]:
        """``save`` written; on PostgreSQL grouped with others saved at once if it can be
        (``saving.together``)."""
        together = Together(saving.together, save) if save.groupable else None
        return self._writer.run(functools.partial(saving.alone, save), together=together)

    async def _append(self, match: Match, close: str | None) -> Append:
        game = match.game
        entries = list(match.pending)
        seq = match.seq + len(entries)
        kinds = [entry.kind for entry in entries]
        due = bool(entries) and snapshot_due(
            seq - match.snapshot_seq, kinds, heavy(game), self.config.snapshot_every
        )
        return Append(
            match.id,
            match.version,
            entries,
            State.of(game),
            match.deadline,
            snapshot=dump_game(game) if due else None,
            finish=await self._finish(match) if game.is_over() else None,
            close=close,
        )

    @staticmethod
    def _saved(match: Match, request: Append, saved: writes.Saved) -> None:
        match.version = saved.version
        match.seq += len(request.entries)
        match.pending.clear()
        if request.snapshot is not None:
            match.snapshot_seq = match.seq

    async def _finish(self, match: Match) -> writes.Finish:
        headers = await self._read(lambda db: reads.match_headers(db, match.id))
        names = await self._names(match.challenger_id, match.opposition_id)
        return finish_of(match.game, record_headers(headers, *names))

    async def _names(self, challenger_id: int, opposition_id: int) -> tuple[str, str]:
        challenger = await self.player(challenger_id)
        opposition = await self.player(opposition_id)
        if challenger is None:
            raise UnknownPlayer(challenger_id)
        if opposition is None:
            raise UnknownPlayer(opposition_id)
        return challenger.name, opposition.name

    async def match_info(self, match_id: int) -> MatchInfo:
        return await self._read(lambda db: reads.match_info(db, match_id))

    async def active_matches(self, guild_id: int | None = None) -> list[MatchInfo]:
        """Matches not over, neither aborted nor cancelled."""
        if guild_id is None:
            return await self._read(
                lambda db: reads.matches(db, "status = ? AND closed IS NULL", (ACTIVE,))
            )
        return await self._read(
            lambda db: reads.matches(
                db, "status = ? AND closed IS NULL AND guild_id = ?", (ACTIVE, guild_id)
            )
        )

    async def due_matches(self, now: float) -> list[MatchInfo]:
        """Running matches whose turn deadline has passed."""
        return await self._read(
            lambda db: reads.matches(
                db,
                "status = ? AND closed IS NULL AND turn_deadline IS NOT NULL"
                " AND turn_deadline <= ?",
                (ACTIVE, now),
            )
        )

    async def public_log(self, match_id: int) -> list[LogLine]:
        """The log of the finished turns, every action in its public form."""
        return await self._read(lambda db: reads.log_lines(db, match_id, None))

    async def private_log(self, match_id: int, side: Side) -> list[LogLine]:
        """PRIVATE to ``side``: the public log plus that side's running turn and its own
        hidden actions in full."""
        return await self._read(lambda db: reads.log_lines(db, match_id, side))

    async def private_secrets(self, match_id: int, side: Side) -> dict[str, str]:
        """PRIVATE to ``side``: its secret setup answers by question (TORA's Assassin start
        square or ``none``, R41)."""
        return await self._read(lambda db: reads.private_secrets(db, match_id, side))

    # ---- records -------------------------------------------------------------------------
    async def export_record(self, match_id: int) -> str:
        """The match's public game record (R50), its finished turns: hidden Assassin actions
        show as ``X ?`` until published (R44); once the game is over, the full record."""
        return await self._record(match_id, None)

    async def private_export_record(self, match_id: int, side: Side) -> str:
        """PRIVATE to ``side``: the record as that player may see it (their own Assassin in
        full)."""
        return await self._record(match_id, side)

    async def _record(self, match_id: int, audience: Side | None) -> str:
        match = await self.load(match_id)
        headers = await self._read(lambda db: reads.match_headers(db, match_id))
        names = await self._names(match.challenger_id, match.opposition_id)
        return write_record(match.game, record_headers(headers, *names), audience)

    async def import_record(
        self,
        text: str,
        guild_id: int,
        challenger_id: int,
        opposition_id: int,
        *,
        channel_id: int | None = None,
    ) -> Match:
        """Store a full game record (R50) as a new match between two saved players, in one
        transaction (RecordError or ReplayError if the record is malformed or illegal). Its
        Assassin start squares are kept privately, like those of any match."""
        names = await self._names(challenger_id, opposition_id)
        imported = await asyncio.to_thread(prepare_import, text)
        game, entries = imported.game, imported.entries
        new = NewMatch(
            guild_id,
            channel_id,
            challenger_id,
            opposition_id,
            imported.spec,
            imported.headers,
            game=imported.game_id,
        )
        kinds = [entry.kind for entry in entries]
        due = snapshot_due(len(entries), kinds, heavy(game), self.config.snapshot_every)
        request = Append(
            0,
            1,
            entries,
            State.of(game),
            None,
            snapshot=dump_game(game) if due else None,
            finish=(
                finish_of(game, record_headers(imported.headers, *names))
                if game.is_over()
                else None
            ),
        )

        def job(conn: Connection) -> tuple[int, writes.Saved]:
            now = time.time()
            match_id = writes.insert_match(conn, new, request.state, now)
            return match_id, writes.append(conn, replace(request, match_id=match_id), now)

        match_id, saved = await self._writer.run(job)
        return Match(
            match_id,
            guild_id,
            channel_id,
            challenger_id,
            opposition_id,
            game,
            saved.version,
            seq=len(entries),
            snapshot_seq=len(entries) if due else 0,
        )

    # ---- results and ladders -------------------------------------------------------------
    async def finished_matches(
        self, guild_id: int, player_id: int | None = None
    ) -> list[FinishedMatch]:
        """Finished matches of a guild (of one player), oldest first, with their full records:
        hidden moves are published when a game ends (R44)."""
        return await self._read(lambda db: reads.finished_matches(db, guild_id, player_id))

    async def rate(self, match_id: int, changes: Sequence[RatingChange]) -> None:
        """Record new ladder ratings after a finished match, all or none: AlreadyRated if it
        was rated before, StaleRating if a ``before`` is not the stored rating."""
        await self._writer.run(
            lambda conn: ratings.rate(conn, match_id, changes, time.time()), serializable=True
        )

    async def ladder(self, guild_id: int) -> list[Rating]:
        """A guild's ratings, best first."""
        return await self._read(lambda db: ratings.ladder(db, guild_id))

    async def rating_history(self, guild_id: int, player_id: int) -> list[RatingEvent]:
        return await self._read(lambda db: ratings.rating_history(db, guild_id, player_id))


def _moves(conn: Connection, moved: Sequence[Moved]) -> list[Hosted]:
    """The hosted matches a change of away days moves, saved with their posts."""
    return [update_with_posts(conn, hosted, posts) for hosted, posts in moved]
