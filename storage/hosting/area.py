"""``Store.hosting``: the match service's reads and writes (hosted matches, private setup
choices, the outbox), each write one job of the store's writer: one transaction.

A state change and the posts that announce it are always written together: ``create``,
``update`` and ``start`` take the outbox rows, and so does ``Store.save_hosted`` for changes
that also play on the match. The outbox is read back only by the deliverer."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from rules import Side

from ..backends.sql import Connection, Reader, Statement, Writes, is_postgres
from ..matches import writes
from ..matches.games import new_game, spec_of
from ..matches.match import Match
from ..matches.models import State
from . import claims, drafts, outbox, sharing
from . import hosted as hosting
from .checks import VersionChecks
from .hosted import Hosted, SetupChoice
from .outbox import ButtonMessage, Post, Queued
from .turn_start import TurnStart, private_turn_start

MOST_POLLED = 500  # hosted matches whose versions one query reads


class Hosting:
    def __init__(self, writer: Writes, read: Reader, owner: str) -> None:
        self._writer = writer
        self._read = read
        self._owner = owner  # who claims clocks and outbox rows (``Sharing.owner``)
        self._checks = VersionChecks(self._read_versions)

    # ---- writes ----------------------------------------------------------------------------
    async def create(self, new: Hosted, posts: Sequence[Post] = ()) -> Hosted:
        """Insert a hosted match (ChannelBusy if its channel has a live one) and its posts."""

        def job(conn: Connection) -> Hosted:
            now = time.time()
            inserted = hosting.insert_hosted(conn, new, now)
            outbox.insert_posts(conn, inserted.id, posts, now)
            return inserted

        return await self._writer.run(job)

    async def update(
        self,
        changed: Hosted,
        posts: Sequence[Post] = (),
        *,
        choice: tuple[Side, SetupChoice] | None = None,
        drop_choices: bool = False,
        unlook: Side | None = None,
    ) -> Hosted:
        """Write a hosted match read at ``changed.version`` (StaleHosted otherwise), with a
        player's private setup choice or the removal of all of them, the look of ``unlook``
        gone (``drafts.drop_look``), and its posts."""

        def job(conn: Connection) -> Hosted:
            if choice is not None:
                hosting.put_setup_choice(conn, changed.id, *choice)
            if drop_choices:
                hosting.drop_setup_choices(conn, changed.id)
            if unlook is not None:
                drafts.drop_look(conn, changed.id, unlook)
            return update_with_posts(conn, changed, posts)

        return await self._writer.run(job)

    async def close_unloaded(self, changed: Hosted, close: str, posts: Sequence[Post]) -> Hosted:
        """End a hosted match whose game cannot be loaded (CorruptMatch) without a result:
        its match closed as ``close`` (``writes.close_unread``: its log left as it is) and
        ``changed`` written as ``update`` writes it, with its posts, in one transaction."""

        def job(conn: Connection) -> Hosted:
            if changed.match_id is not None:
                writes.close_unread(conn, changed.match_id, close, time.time())
            return update_with_posts(conn, changed, posts)

        return await self._writer.run(job)

    async def start(
        self, changed: Hosted, new: writes.NewMatch, posts: Sequence[Post] = ()
    ) -> tuple[Hosted, Match]:
        """The game begins: the match is created (its secret answers kept privately), the
        hosted match points to it, the setup choices go, and the posts are queued."""
        game = new_game(new.game, new.spec)
        new = replace(new, spec=spec_of(game))  # as the game type reads it back
        state = State.of(game)

        def job(conn: Connection) -> tuple[Hosted, int]:
            now = time.time()
            hosting.lock_hosted(conn, changed)  # before the match it points to is written
            match_id = writes.insert_match(conn, new, state, now, number=changed.id)
            updated = hosting.update_hosted(conn, replace(changed, match_id=match_id), now)
            hosting.drop_setup_choices(conn, changed.id)
            outbox.insert_posts(conn, changed.id, posts, now)
            return updated, match_id

        updated, match_id = await self._writer.run(job)
        match = Match(
            match_id,
            new.guild_id,
            new.channel_id,
            new.challenger_id,
            new.opposition_id,
            game,
            1,
            new.deadline,
        )
        return updated, match

    async def delivered(
        self, outbox_id: int, lease: str | None = None, renew: tuple[float, float] | None = None
    ) -> bool:
        """An outbox row went: it is deleted. With the ``lease`` this process holds on its
        destination (``Store.sharing``), that lease is renewed (``renew``: now and seconds)
        or else given back, in the same statement: one round trip on PostgreSQL. Whether
        the process may go on delivering the rows it read under the lease: False where it
        was to be renewed and another process holds it now, or the row was gone already
        (delivered by a process that took the destination over meanwhile)."""
        gone = outbox.delivered(outbox_id)
        if lease is None:
            await self._writer.execute(*gone)
            return True
        if renew is None:
            await self._both(gone, sharing.release(lease, self._owner))
            return True
        return await self._deleted_and_claimed(gone, sharing.claim(lease, self._owner, *renew))

    async def _both(self, first: Statement, then: Statement) -> None:
        """Two statements that may each run twice, committed together: on PostgreSQL one
        statement (``first``, a DELETE, in a WITH before ``then``), on SQLite one job."""
        if is_postgres(self._writer):
            sql = f"WITH first AS ({first[0]}) {then[0]}"
            await self._writer.execute(sql, (*first[1], *then[1]))
            return

        def job(conn: Connection) -> None:
            conn.execute(*first)
            conn.execute(*then)

        await self._writer.run(job)

    async def _deleted_and_claimed(self, gone: Statement, claim: Statement) -> bool:
        """``gone`` (a DELETE of one row) and ``claim`` (a lease's, returning its owner if
        taken) committed together, as ``_both``: whether the row was there and the lease is
        taken. Run twice (a lost answer), it finds the row gone: False, which only stops a
        batch that is then read again."""
        if is_postgres(self._writer):
            sql = (
                f"WITH gone AS ({gone[0]} RETURNING 1), claimed AS ({claim[0]})"
                " SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM claimed)"
            )
            [(found, taken)] = await self._writer.execute(sql, (*gone[1], *claim[1]))
            return bool(found == 1 and taken == 1)

        def job(conn: Connection) -> bool:
            found = conn.execute(*gone).rowcount == 1
            return bool(conn.execute(*claim).fetchall()) and found

        return await self._writer.run(job)

    async def remember_buttons(self, sent: ButtonMessage) -> None:
        """A message went out with buttons for a hosted match (a front end's record)."""
        await self._writer.execute(*outbox.remember_buttons(sent))

    async def forget_buttons(self, channel_id: int, message_id: int) -> None:
        await self._writer.execute(*outbox.forget_buttons(channel_id, message_id))

    async def button_messages(self, hosted_id: int) -> list[ButtonMessage]:
        return await self._read(lambda db: outbox.button_messages(db, hosted_id))

    async def channel_button_messages(self, channel_id: int) -> list[ButtonMessage]:
        return await self._read(lambda db: outbox.channel_button_messages(db, channel_id))

    async def shown(self, outbox_id: int, pieces: int) -> None:
        await self._writer.execute(*outbox.shown(outbox_id, pieces))

    # ---- claims of several processes (``claims``) ------------------------------------------
    async def claim_due(self, now: float, seconds: float) -> list[Hosted]:
        """Claim, for ``seconds``, the live hosted matches whose deadline or reminder has come
        by ``now`` (on the caller's clock) and that no other process holds."""
        if not await self._read(lambda db: claims.any_due(db, now)):  # the common case: no write
            return []
        owner = self._owner
        return await self._writer.run(
            lambda conn: claims.claim_due(conn, owner, now, now + seconds)
        )

    async def renew_claims(self, ids: list[int], now: float, seconds: float) -> set[int]:
        """Of the clocks ``ids`` claimed by ``claim_due``, those this process still holds,
        claimed on for ``seconds`` from ``now``."""
        owner = self._owner
        return await self._writer.run(lambda conn: claims.renew(conn, ids, owner, now + seconds))

    async def let_go(self, hosted_id: int, until: float | None = None) -> None:
        """Give a claimed clock back, or hold it off everyone until ``until``."""
        owner = self._owner
        await self._writer.run(lambda conn: claims.let_go(conn, hosted_id, owner, until))

    async def next_due(self, now: float) -> float | None:
        """When the next deadline or reminder comes that no other process holds, or the
        next claim runs out, if any."""
        return await self._read(lambda db: claims.next_due(db, now))

    async def forget_claims(self) -> None:
        """Drop every claim and lease: only for a process alone on its database."""
        await self._writer.run(claims.forget_all)

    async def retry_later(
        self, outbox_id: int, attempts: int, next_try: float, fallback: bool
    ) -> None:
        await self._writer.execute(*outbox.retry_later(outbox_id, attempts, next_try, fallback))

    # ---- reads -----------------------------------------------------------------------------
    async def get(self, hosted_id: int) -> Hosted:
        return await self._read(lambda db: hosting.hosted(db, hosted_id))

    async def with_names(self, hosted_id: int) -> tuple[Hosted, dict[int, str]]:
        """``get``, with the names of its issuer and invitee that the store knows, by id:
        one read."""
        return await self._read(lambda db: hosting.hosted_and_names(db, hosted_id))

    async def live_in_channel(self, channel_id: int) -> Hosted | None:
        """The channel's live (not ended) hosted match, if any."""
        return await self._read(lambda db: hosting.live_in_channel(db, channel_id))

    async def of_user(self, user_id: int, limit: int = 50) -> list[Hosted]:
        """The user's hosted matches: every live one and the newest ``limit`` ended ones, the
        newest first."""
        return await self._read(lambda db: hosting.of_user(db, user_id, limit))

    async def latest_in_channel(self, channel_id: int, with_game: bool = False) -> Hosted | None:
        """The channel's most recent hosted match, live or ended (``with_game``: whose game
        started)."""
        return await self._read(lambda db: hosting.latest_in_channel(db, channel_id, with_game))

    async def any_in_guild(self, guild_id: int) -> bool:
        """Whether the guild ever hosted a match (a challenge at least), live or ended."""
        return await self._read(lambda db: hosting.any_in_guild(db, guild_id))

    async def in_phase(self, guild_id: int, phase: str, issuer_id: int) -> tuple[int, int]:
        """How many of the guild's hosted matches are in ``phase`` (the service's word):
        ``issuer_id``'s, and everyone's."""
        return await self._read(lambda db: hosting.in_phase(db, guild_id, phase, issuer_id))

    async def live(self) -> list[Hosted]:
        """Every live hosted match (to reload on start)."""
        return await self._read(hosting.live)

    async def versions(self, hosted_id: int) -> tuple[int, int | None] | None:
        """The stored versions of a hosted match and of its game (None before it starts),
        or None if it is gone: whether a copy in memory is still current. Read with the
        checks of other matches asked at the same time (``checks``)."""
        return await self._checks.check(hosted_id)

    async def _read_versions(self, hosted_ids: Sequence[int]) -> dict[int, tuple[int, int | None]]:
        """``versions_of`` for the checks read together (one alone: ``versions``' query)."""
        if len(hosted_ids) == 1:
            found = await self._read(lambda db: hosting.versions(db, hosted_ids[0]))
            return {} if found is None else {hosted_ids[0]: found}
        versions: dict[int, tuple[int, int | None]] = {}
        for start in range(0, len(hosted_ids), MOST_POLLED):
            versions |= await self.versions_of(hosted_ids[start : start + MOST_POLLED])
        return versions

    async def versions_of(self, hosted_ids: Sequence[int]) -> dict[int, tuple[int, int | None]]:
        """``versions`` of many hosted matches in one query (a watcher's poll), by id; the
        ids that name no hosted match are left out. At most ``MOST_POLLED`` ids."""
        if len(hosted_ids) > MOST_POLLED:
            raise ValueError(f"at most {MOST_POLLED} hosted matches are polled at once")
        return await self._read(lambda db: hosting.versions_of(db, hosted_ids))

    async def private_setup_choice(self, hosted_id: int, side: Side) -> SetupChoice | None:
        """PRIVATE to ``side``: what that player chose so far in the setup phase."""
        return await self._read(lambda db: hosting.private_setup_choice(db, hosted_id, side))

    async def private_queue(self, destination: tuple[str, int] | None = None) -> list[Queued]:
        """PRIVATE (for the deliverer only): the undelivered outbox (of one destination:
        ``("channel", id)`` or ``("user", id)``), oldest first."""
        return await self._read(lambda db: outbox.private_queue(db, destination))

    async def put_plans(self, hosted_id: int, side: Side, lines: Sequence[str]) -> None:
        """PRIVATE: ``side``'s planned replies in the match are now ``lines``."""
        await self._writer.run(lambda conn: hosting.put_plans(conn, hosted_id, side, lines))

    async def private_plans(self, hosted_id: int, side: Side) -> list[str]:
        """PRIVATE to ``side``: its planned replies in the match."""
        return await self._read(lambda db: hosting.private_plans(db, hosted_id, side))

    async def private_turn_start(
        self,
        hosted_id: int,
        guild_id: int | None,
        *,
        planner: Side | None,
        away: Sequence[int],
        since: float,
        notified: int | None,
    ) -> TurnStart:
        """PRIVATE to ``planner``: what a turn's beginning reads, in one statement
        (``turn_start``)."""
        return await self._read(
            lambda db: private_turn_start(
                db,
                hosted_id,
                guild_id,
                planner=planner,
                away=away,
                since=since,
                notified=notified,
            )
        )

    async def put_draft(self, hosted_id: int, side: Side, turn: int, draft: str | None) -> None:
        """PRIVATE: ``side``'s planned reply being made in the match (None: none now)."""
        await self._writer.run(lambda conn: drafts.put_draft(conn, hosted_id, side, turn, draft))

    async def private_draft(self, hosted_id: int, side: Side) -> tuple[int, str] | None:
        """PRIVATE to ``side``: its planned reply being made, and the turn it is of."""
        return await self._read(lambda db: drafts.private_draft(db, hosted_id, side))

    async def put_look(self, hosted_id: int, side: Side, turn: int) -> None:
        """``side``'s player looked at their board in public turn ``turn``."""
        await self._writer.run(lambda conn: drafts.put_look(conn, hosted_id, side, turn))

    async def last_look(self, hosted_id: int, side: Side) -> int | None:
        """The last public turn in which ``side``'s player looked at their board."""
        return await self._read(lambda db: drafts.last_look(db, hosted_id, side))

    async def private_firsts(self) -> list[Queued]:
        """PRIVATE (for the deliverer only): each destination's oldest undelivered row."""
        return await self._read(outbox.private_firsts)

    async def private_outgoing(self, destination: tuple[str, int], limit: int) -> list[Queued]:
        """PRIVATE (for the deliverer only): the next ``limit`` undelivered rows of one
        destination (``("channel", id)`` or ``("user", id)``), oldest first, with their
        files."""
        return await self._read(lambda db: outbox.private_outgoing(db, destination, limit))

    async def private_files(self, outbox_id: int) -> tuple[tuple[str, bytes], ...]:
        """PRIVATE (for the deliverer only): the files of one outbox row."""
        return await self._read(lambda db: outbox.private_files(db, outbox_id))


def update_with_posts(conn: Connection, changed: Hosted, posts: Sequence[Post]) -> Hosted:
    """Write a hosted match read at ``changed.version`` (StaleHosted otherwise) and queue its
    posts, in the caller's transaction."""
    now = time.time()
    updated = hosting.update_hosted(conn, changed, now)
    outbox.insert_posts(conn, changed.id, posts, now)
    return updated
