"""Ladder challenges: a matchmaking queue per guild and ladder.

Pairing rule: players are taken in the order they joined; the one waiting longest is paired
with the waiting player whose rating is closest to theirs, if the gap is at most
``BASE_GAP`` points plus ``WIDEN_PER_HOUR`` for every hour the longer waiter has waited, up
to ``MOST_GAP`` (ties: who joined first). So close ratings pair at once and anyone finds an
opponent within about six hours, if one is waiting. Ratings are the open season's (1500 for
a player new to it). Entries older than ``EXPIRE_AFTER`` expire (past it and the tick that
expires them, as after the bot was down, they are not paired). A pair leaves the queue in
the same transaction that finds it; the caller opens the match (``Pairing.channel_id``: the
channel the longer waiter joined from); the pairing stays in storage until it has, claimed
by its opener, and the ladder's tick opens one whose opener died once that claim runs out.

Where a server's admins let it (``GuildSettings.ai_fill_after``), a player still waiting
after that long is paired with an AI player instead: the one whose rating on the board's AI
ladder is closest to the player's there (``normal`` for a tie), unless they already have as
many matches against the AI as one may have (they wait for a person). That match is rated on
the AI ladder, never on the people's.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from bot.i18n import _, option
from bot.service import Terms
from bot.service.models import AI_IDS
from bot.service.phases import PLAYING, SETUP
from bot.service.robots import robot
from storage import Post, Store
from storage.competitions.ladders import LadderTx, PairingRow, QueueEntry

from .errors import LadderError, NotFound
from .glicko2 import DEFAULT_RATING
from .results import AI_PREFIX, boards, check_board, ladder_name

HOUR = 3600.0
BASE_GAP = 100.0
WIDEN_PER_HOUR = 50.0
MOST_GAP = 400.0
EXPIRE_AFTER = 24 * HOUR
AI_FILL_SHORTEST = 5 * 60.0  # the shortest wait an admin may set before the AI plays
AI_PREFERENCE = ("normal", "easy", "hard", "master")  # among AI players rated alike


# A pairing is kept in storage, from the transaction that takes its players off the queue
# until its match is open (a crash in between leaves it for the start-up to open), claimed
# in that transaction by whoever made it, to open its match.
Pairing = PairingRow
# How long an opener's claim on a pairing lasts: opening a thread and a match takes
# seconds; a pairing whose opener died is opened by another once its claim has run out.
OPENING = 600.0
# The phases of a match that holds its players back from another on its ladder's board.
PLAYED = (SETUP, PLAYING)


@dataclass(frozen=True)
class Expired:
    guild_id: int
    board: str
    player_id: int
    channel_id: int


def allowed_gap(waited: float) -> float:
    return min(MOST_GAP, BASE_GAP + WIDEN_PER_HOUR * max(0.0, waited) / HOUR)


def _ratings(tx: LadderTx, guild_id: int, board: str, players: list[int]) -> list[float]:
    """The open season's ratings of ``players`` (newcomers at the default)."""
    season = tx.current_season(guild_id, board)
    ratings = []
    for player_id in players:
        standing = None if season is None else tx.standing(season.key, player_id)
        ratings.append(DEFAULT_RATING if standing is None else standing.rating)
    return ratings


def rated_on(terms: str, against_ai: bool, board: str) -> bool:
    """Whether a match of these terms (JSON), ``against_ai`` or between people, is rated on
    the ladder ``board``: one such match per player at a time. A match against an AI player
    counts on that AI ladder (``results.board_of``), never on the people's one."""
    found = Terms.from_json(terms)
    return found.rated and (AI_PREFIX if against_ai else "") + found.ladder_board == board


def _unpaired(
    tx: LadderTx, guild_id: int, board: str, away: frozenset[int], grace: float
) -> list[QueueEntry]:
    """The queue's entries who may be paired now: not past their wait (``EXPIRE_AFTER``,
    plus ``grace`` for the tick that expires them: those left after the bot was down
    expire, never paired), not ``away``, nor playing a rated match on ``board`` (begun
    since they joined). The others wait on, queued, until they are back or it has
    ended."""
    fresh = tx.now - EXPIRE_AFTER - grace
    entries = [
        entry
        for entry in tx.queue(guild_id, board)
        if entry.joined_at >= fresh and entry.player_id not in away
    ]
    playing = tx.playing_terms(guild_id, [entry.player_id for entry in entries], PLAYED)
    return [e for e in entries if not any(rated_on(t, ai, board) for t, ai in playing[e.player_id])]


def pairs(
    tx: LadderTx,
    guild_id: int,
    board: str,
    away: frozenset[int] = frozenset(),
    grace: float = 0.0,
) -> list[Pairing]:
    """Pair whom the rule allows, oldest first, and take them off the queue; players
    ``away`` (taking away days) wait on until they are back, those playing a rated match
    on ``board`` until it has ended; those who waited longer than ``EXPIRE_AFTER`` (and
    ``grace``) are left to expire."""
    entries = _unpaired(tx, guild_id, board, away, grace)
    ratings = _ratings(tx, guild_id, board, [entry.player_id for entry in entries])
    free = list(range(len(entries)))
    found = []
    while free:
        oldest, rest = free[0], free[1:]
        limit = allowed_gap(tx.now - entries[oldest].joined_at)
        gaps = [(abs(ratings[i] - ratings[oldest]), i) for i in rest]
        close = [(gap, i) for gap, i in gaps if gap <= limit]
        free = rest
        if not close:
            continue
        gap, other = min(close)
        free.remove(other)
        first, second = entries[oldest], entries[other]
        found.append(
            Pairing(
                0,
                guild_id,
                board,
                first.channel_id,
                first.player_id,
                second.player_id,
                gap,
                ratings[oldest],
                ratings[other],
            )
        )
    for pairing in found:
        tx.dequeue(guild_id, board, (pairing.first_id, pairing.second_id))
    return [tx.add_pairing(pairing) for pairing in found]


def ai_pairs(
    tx: LadderTx,
    guild_id: int,
    board: str,
    wait: float,
    among: Collection[int],
    most: int,
    away: frozenset[int] = frozenset(),
    grace: float = 0.0,
) -> list[Pairing]:
    """Pair everyone of ``among`` who has waited ``wait`` seconds or more with an AI player
    (the longest waiting ``most`` of them, but those ``away``, playing a rated match on
    ``board`` or past ``EXPIRE_AFTER`` and ``grace``), and take them off the queue."""
    ready = _unpaired(tx, guild_id, board, away, grace)
    waited = [e for e in ready if e.player_id in among and tx.now - e.joined_at >= wait]
    entries = sorted(waited, key=lambda entry: entry.joined_at)[:most]
    if not entries:
        return []
    ai_board = AI_PREFIX + board
    players = _ratings(tx, guild_id, ai_board, [entry.player_id for entry in entries])
    ids = [AI_IDS[level] for level in AI_PREFERENCE]
    robots = _ratings(tx, guild_id, ai_board, ids)
    found = []
    for entry, rating in zip(entries, players, strict=True):
        gap, rank = min((abs(r - rating), rank) for rank, r in enumerate(robots))
        ai_id, ai_rating = ids[rank], robots[rank]
        found.append(
            Pairing(
                0, guild_id, board, entry.channel_id, entry.player_id, ai_id, gap, rating, ai_rating
            )
        )
        tx.dequeue(guild_id, board, (entry.player_id,))
    return [tx.add_pairing(pairing) for pairing in found]


def claimant(store: Store) -> str:
    """A fresh claimant of pairings: this process, told apart from its other openers (the
    desk's, a tick's, the start-up's), so that one of them alone opens a pairing."""
    return f"{store.sharing.owner}:{secrets.token_hex(4)}"


def claimed(tx: LadderTx, made: list[Pairing], owner: str) -> list[Pairing]:
    """The pairings ``made`` in this transaction, claimed for ``owner`` to open."""
    return [found for p in made if (found := tx.claim_pairing(p.id, owner, OPENING))]


class Matchmaking:
    """``grace``: how long past ``EXPIRE_AFTER`` an entry may still be paired, the time
    until the tick that expires it (the ladder's runner gives its period, so that
    `ai_fill:24h` plays); an entry older than that (left while the bot was down) expires
    unpaired."""

    def __init__(
        self, store: Store, clock: Callable[[], float] = time.time, grace: float = 0.0
    ) -> None:
        self._store = store
        self._clock = clock
        self._grace = grace

    async def join(
        self, guild_id: int, board: str, player_id: int, channel_id: int
    ) -> list[Pairing]:
        """Queue a saved player for a rated match on ``board``; returns the pairs this makes
        (maybe with this player), for the caller to open as matches."""
        check_board(board)
        if board.startswith(AI_PREFIX):
            raise LadderError(
                _(
                    "Nobody waits in the queue of an AI ladder: challenge the AI with the `{ai}` "
                    "option and `{rated}:True` to play for it.",
                    ai=option("ai"),
                    rated=option("rated"),
                )
            )

        def work(tx: LadderTx) -> list[Pairing]:
            if tx.is_bot(player_id):
                raise LadderError(_("Bot accounts cannot play on the ladder."))
            if board in tx.queued_boards(player_id, guild_id):
                raise LadderError(
                    _(
                        "You are already waiting for a {ladder} ladder match.",
                        ladder=ladder_name(board),
                    )
                )
            tx.enqueue(guild_id, board, player_id, channel_id)
            return claimed(tx, pairs(tx, guild_id, board, away, self._grace), owner)

        away, owner = await self._away(guild_id, board, player_id), claimant(self._store)
        return await self._store.ladders.transact(work, self._clock())

    async def leave(self, guild_id: int, board: str | None, player_id: int) -> list[str]:
        """Take the player off the queue of ``board``, or of every board (None); returns
        the boards they were waiting on."""
        if board is not None:
            check_board(board)

        def work(tx: LadderTx) -> list[str]:
            waiting = tx.queued_boards(player_id, guild_id)
            left_boards = [b for b in waiting if board in (None, b)]
            if not left_boards:
                if board is None:
                    raise NotFound(_("You are not waiting for a ladder match."))
                raise NotFound(
                    _(
                        "You are not waiting for a {ladder} ladder match.",
                        ladder=ladder_name(board),
                    )
                )
            for left in left_boards:
                tx.dequeue(guild_id, left, (player_id,))
            order = boards()
            return sorted(left_boards, key=lambda b: order.index(b) if b in order else len(order))

        return await self._store.ladders.transact(work, self._clock())

    async def pair(self, guild_id: int, board: str) -> list[Pairing]:
        """Pairs the widening gaps allow now (call it now and then, e.g. every few minutes),
        claimed for the caller to open."""
        check_board(board)
        away, owner = await self._away(guild_id, board), claimant(self._store)
        return await self._store.ladders.transact(
            lambda tx: claimed(tx, pairs(tx, guild_id, board, away, self._grace), owner),
            self._clock(),
        )

    async def _away(self, guild_id: int, board: str, *more: int) -> frozenset[int]:
        """Who of the queue (and ``more``) is away now: they are not paired meanwhile."""
        now = self._clock()
        waiting = [entry.player_id for entry in await self.waiting(guild_id, board)]
        times = await self._store.aways(guild_id, [*waiting, *more], now)
        return frozenset(a.user_id for a in times if a.starts_at <= now)

    async def pair_with_ai(
        self,
        guild_id: int,
        board: str,
        wait: float,
        among: Collection[int],
        most: int = 1_000_000,
        full: Callable[[], Awaitable[frozenset[int]]] | None = None,
    ) -> list[Pairing]:
        """Pairs of everyone of ``among`` who waited ``wait`` seconds or more with an AI
        player, at most ``most`` (the server's room for matches against the AI; the AI
        players are saved, a write each, only when someone may be paired), but those
        ``full()`` names: who already have as many matches against the AI as one may have
        (they wait for a person; asked only when someone may be paired, as it reads every
        live match). ``among``: the players whose caps the caller holds the locks of
        (``MatchService.ai_caps``); another whose wait ends meanwhile waits for a tick that
        takes theirs."""
        check_board(board)
        if most <= 0 or not among:
            return []
        for level in AI_PREFERENCE:
            player = robot(level)
            await self._store.save_player(player.id, player.name)
        away = await self._away(guild_id, board)
        if full is not None:
            away |= await full()
        owner = claimant(self._store)
        return await self._store.ladders.transact(
            lambda tx: claimed(
                tx, ai_pairs(tx, guild_id, board, wait, among, most, away, self._grace), owner
            ),
            self._clock(),
        )

    async def expire(self, notice: Callable[[Expired], Post] | None = None) -> list[Expired]:
        """Take entries that waited longer than ``EXPIRE_AFTER`` off every queue; with
        ``notice``, each of those players gets the DM it makes (through the match
        service's outbox, in the same transaction)."""

        def work(tx: LadderTx) -> list[Expired]:
            gone = tx.expire_queue(tx.now - EXPIRE_AFTER)
            expired = [Expired(g, b, e.player_id, e.channel_id) for g, b, e in gone]
            if notice is not None:
                tx.post([notice(e) for e in expired])
            return expired

        return await self._store.ladders.transact(work, self._clock())

    async def waiting(self, guild_id: int, board: str) -> list[QueueEntry]:
        check_board(board)
        return await self._store.ladders.queue(guild_id, board)
