"""``Store.ladders``: the ladders' tables (migration 4) - seasons, rated results and their
removals, ratings, the append-only rating history and the matchmaking queue - per guild,
ladder (``board``: one of a game's ladders, ``rules.registry``, or the AI ladder of one) and
season. Which ladders there are is the games' to say and the ladder service's to check:
the tables hold any ladder's id (migration 13), so a new game needs no migration.

Storage knows no rating maths: a ladder write is a function of a ``LadderTx`` that the
ladder service passes to ``transact``; it runs as one job of the writer, as if alone
(``Writes``: SERIALIZABLE on PostgreSQL), so reading the ratings, computing the new ones and
writing them is one transaction."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..backends.sql import Connection, Reader, Writes
from ..hosting.sharing import claim, release
from .areas import Area, Tx


@dataclass(frozen=True)
class LadderKey:
    """One ladder season: a guild, a ladder (``board``) and the season's number."""

    guild_id: int
    board: str
    season: int


@dataclass(frozen=True)
class Season:
    key: LadderKey
    started_at: float
    closed_at: float | None
    closed_by: int | None
    standings: str | None  # JSON written when the season closed
    revision: int


@dataclass(frozen=True)
class MatchFacts:
    """What rating a finished match needs: its ``game`` and that game's ``options`` (what
    decides its ladder), whether an AI player played it (``against_ai``: an AI player's id
    is negative); ``winner`` is 'C', 'O' or None (a tie), ``closed`` is set for an aborted
    or cancelled match."""

    match_id: int
    guild_id: int
    game: str
    options: Mapping[str, Any]
    against_ai: bool
    challenger_id: int
    opposition_id: int
    challenger_bot: bool
    opposition_bot: bool
    finished: bool
    closed: str | None
    winner: str | None
    finished_at: float | None


@dataclass(frozen=True)
class PairingRow:
    """Two players paired from the queue, kept until their match is open (``thread_id`` once
    a thread was opened for it; ``id`` 0 until it is saved)."""

    id: int
    guild_id: int
    board: str
    channel_id: int
    first_id: int
    second_id: int
    gap: float
    first_rating: float
    second_rating: float
    thread_id: int | None = None
    created_at: float = 0.0
    claimed_by: str | None = None  # who opens its match now (``LadderTx.claim_pairing``)


PAIRING_COLUMNS = (
    "id, guild_id, board, channel_id, first_id, second_id, gap, first_rating, second_rating,"
    " thread_id, created_at"
)


@dataclass(frozen=True)
class Standing:
    """A player's rating in one season. streak: wins in a row (> 0), losses (< 0)."""

    player_id: int
    rating: float
    deviation: float
    volatility: float
    games: int
    wins: int
    losses: int
    draws: int
    last_played: float
    streak: int


@dataclass(frozen=True)
class ResultRow:
    id: int
    match_id: int
    first_id: int
    second_id: int
    score: float  # the first player's
    played_at: float
    removed: bool


@dataclass(frozen=True)
class HistoryPoint:
    result_id: int
    match_id: int
    rating: float
    deviation: float
    change: float
    played_at: float


@dataclass(frozen=True)
class QueueEntry:
    player_id: int
    channel_id: int
    joined_at: float


SEASON_COLUMNS = "guild_id, board, number, started_at, closed_at, closed_by, standings, revision"
STANDING_COLUMNS = (
    "player_id, rating, deviation, volatility, games, wins, losses, draws, last_played, streak"
)
_EXCLUDED_STANDING = ", ".join(
    f"{column} = excluded.{column}" for column in STANDING_COLUMNS.split(", ")[1:]
)
RESULT_COLUMNS = (
    "r.id, r.match_id, r.first_id, r.second_id, r.score, r.played_at,"
    " EXISTS (SELECT 1 FROM ladder_removals x WHERE x.result_id = r.id)"
)
KEY_WHERE = "guild_id = ? AND board = ? AND season = ?"


def game_options(text: str) -> Mapping[str, Any]:
    """A match row's game options (what its ladder is decided by): the stored ``options``
    of a ``Spec``, or the stored object itself (TORA's rows hold its options' fields); empty
    when the text is not a JSON object."""
    try:
        stored = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(stored, dict):
        return {}
    inner = stored.get("options")
    return inner if isinstance(inner, dict) else stored


def _season(row: Sequence[Any]) -> Season:
    key = LadderKey(row[0], row[1], row[2])
    return Season(key, row[3], row[4], row[5], row[6], row[7])


def _result(row: Sequence[Any]) -> ResultRow:
    return ResultRow(row[0], row[1], row[2], row[3], row[4], row[5], removed=bool(row[6]))


class LadderTx(Tx):
    """The ladder's statements inside one writer transaction."""

    def match_facts(self, match_id: int) -> MatchFacts | None:
        row = self.conn.execute(
            "SELECT m.id, m.guild_id, m.game, m.options,"
            " m.challenger_id < 0 OR m.opposition_id < 0,"
            " m.challenger_id,"
            " m.opposition_id,"
            " EXISTS (SELECT 1 FROM bot_accounts b WHERE b.user_id = m.challenger_id),"
            " EXISTS (SELECT 1 FROM bot_accounts b WHERE b.user_id = m.opposition_id),"
            " m.status = 'finished', m.closed, f.winner, f.finished_at FROM matches m"
            " LEFT JOIN finished_matches f ON f.match_id = m.id WHERE m.id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        return MatchFacts(
            row[0],
            row[1],
            row[2],
            game_options(row[3]),
            bool(row[4]),
            row[5],
            row[6],
            challenger_bot=bool(row[7]),
            opposition_bot=bool(row[8]),
            finished=bool(row[9]),
            closed=row[10],
            winner=row[11],
            finished_at=row[12],
        )

    def current_season(self, guild_id: int, board: str) -> Season | None:
        """The season being played, if the ladder has one."""
        row = self.conn.execute(
            f"SELECT {SEASON_COLUMNS} FROM ladder_seasons"
            " WHERE guild_id = ? AND board = ? AND closed_at IS NULL",
            (guild_id, board),
        ).fetchone()
        return None if row is None else _season(row)

    def open_season(self, guild_id: int, board: str) -> Season:
        """The season being played, season 1 being opened by the first result."""
        return self.current_season(guild_id, board) or self.start_season(guild_id, board)

    def start_season(self, guild_id: int, board: str) -> Season:
        (last,) = self.conn.execute(
            "SELECT coalesce(max(number), 0) FROM ladder_seasons WHERE guild_id = ? AND board = ?",
            (guild_id, board),
        ).fetchone()
        self.conn.execute(
            "INSERT INTO ladder_seasons (guild_id, board, number, started_at) VALUES (?, ?, ?, ?)",
            (guild_id, board, last + 1, self.now),
        )
        return Season(LadderKey(guild_id, board, last + 1), self.now, None, None, None, 0)

    def season(self, key: LadderKey) -> Season | None:
        row = self.conn.execute(
            f"SELECT {SEASON_COLUMNS} FROM ladder_seasons"
            " WHERE guild_id = ? AND board = ? AND number = ?",
            (key.guild_id, key.board, key.season),
        ).fetchone()
        return None if row is None else _season(row)

    def close_season(self, key: LadderKey, by: int, standings: str) -> None:
        self.conn.execute(
            "UPDATE ladder_seasons SET closed_at = ?, closed_by = ?, standings = ?"
            " WHERE guild_id = ? AND board = ? AND number = ? AND closed_at IS NULL",
            (self.now, by, standings, key.guild_id, key.board, key.season),
        )

    def next_revision(self, key: LadderKey) -> int:
        self.conn.execute(
            "UPDATE ladder_seasons SET revision = revision + 1"
            " WHERE guild_id = ? AND board = ? AND number = ?",
            (key.guild_id, key.board, key.season),
        )
        season = self.season(key)
        assert season is not None
        return season.revision

    def standing(self, key: LadderKey, player_id: int) -> Standing | None:
        row = self.conn.execute(
            f"SELECT {STANDING_COLUMNS} FROM ladder_ratings WHERE {KEY_WHERE} AND player_id = ?",
            (key.guild_id, key.board, key.season, player_id),
        ).fetchone()
        return None if row is None else Standing(*row)

    def standings(self, key: LadderKey) -> list[Standing]:
        rows = self.conn.execute(
            f"SELECT {STANDING_COLUMNS} FROM ladder_ratings WHERE {KEY_WHERE}"
            " ORDER BY rating DESC, player_id",
            (key.guild_id, key.board, key.season),
        ).fetchall()
        return [Standing(*row) for row in rows]

    def put_standing(self, key: LadderKey, standing: Standing) -> None:
        self.conn.execute(
            f"INSERT INTO ladder_ratings (guild_id, board, season, {STANDING_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, board, season, player_id) DO UPDATE SET"
            f" {_EXCLUDED_STANDING}",
            (key.guild_id, key.board, key.season, *vars(standing).values()),
        )

    def clear_standings(self, key: LadderKey) -> None:
        self.conn.execute(
            f"DELETE FROM ladder_ratings WHERE {KEY_WHERE}", (key.guild_id, key.board, key.season)
        )

    def insert_result(
        self, key: LadderKey, match_id: int, first: int, second: int, score: float, at: float
    ) -> int:
        cursor = self.conn.execute(
            "INSERT INTO ladder_results"
            " (guild_id, board, season, match_id, first_id, second_id, score, played_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (key.guild_id, key.board, key.season, match_id, first, second, score, at),
        )
        return int(cursor.fetchone()[0])

    def result_of(self, match_id: int) -> tuple[LadderKey, ResultRow] | None:
        """The rated result of a match, and its season."""
        row = self.conn.execute(
            f"SELECT {RESULT_COLUMNS}, r.guild_id, r.board, r.season FROM ladder_results r"
            " WHERE r.match_id = ?",
            (match_id,),
        ).fetchone()
        return None if row is None else (LadderKey(*row[7:]), _result(row))

    def counted_results(self, key: LadderKey) -> list[ResultRow]:
        """The season's results that still count, in the order they were rated."""
        rows = self.conn.execute(
            f"SELECT {RESULT_COLUMNS} FROM ladder_results r WHERE {KEY_WHERE}"
            " AND NOT EXISTS (SELECT 1 FROM ladder_removals x WHERE x.result_id = r.id)"
            " ORDER BY r.id",
            (key.guild_id, key.board, key.season),
        ).fetchall()
        return [_result(row) for row in rows]

    def remove_result(self, result_id: int, by: int, reason: str) -> None:
        self.conn.execute(
            "INSERT INTO ladder_removals (result_id, removed_by, reason, removed_at)"
            " VALUES (?, ?, ?, ?)",
            (result_id, by, reason, self.now),
        )

    def append_history(
        self, result_id: int, revision: int, player_id: int, standing: Standing, change: float
    ) -> None:
        self.conn.execute(
            "INSERT INTO ladder_history (result_id, revision, player_id, rating, deviation,"
            " change) VALUES (?, ?, ?, ?, ?, ?)",
            (result_id, revision, player_id, standing.rating, standing.deviation, change),
        )

    def is_bot(self, user_id: int) -> bool:
        row = self.conn.execute("SELECT 1 FROM bot_accounts WHERE user_id = ?", (user_id,))
        return row.fetchone() is not None

    def playing_terms(
        self, guild_id: int, player_ids: Sequence[int], phases: Sequence[str]
    ) -> dict[int, list[tuple[str, bool]]]:
        """The terms (JSON) of the matches each of ``player_ids`` plays in the server now,
        in one of ``phases`` (the service's words), each with whether an AI player (a
        negative id) plays it: read in the pairing's transaction, so that a match begun
        meanwhile is seen."""
        found: dict[int, list[tuple[str, bool]]] = {player: [] for player in player_ids}
        if not found:
            return found
        marks, in_phase = ", ".join("?" for _ in found), ", ".join("?" for _ in phases)
        rows = self.conn.execute(
            "SELECT challenger_id, opposition_id, terms FROM hosted_matches"
            f" WHERE guild_id = ? AND phase IN ({in_phase})"
            f" AND (challenger_id IN ({marks}) OR opposition_id IN ({marks}))",
            (guild_id, *phases, *found, *found),
        ).fetchall()
        for first, second, terms in rows:
            for player in {first, second} & found.keys():
                found[player].append((str(terms), min(first, second) < 0))
        return found

    # ---- the matchmaking queue -------------------------------------------------------------
    def queue(self, guild_id: int, board: str) -> list[QueueEntry]:
        rows = self.conn.execute(
            "SELECT player_id, channel_id, joined_at FROM ladder_queue"
            " WHERE guild_id = ? AND board = ? ORDER BY joined_at, player_id",
            (guild_id, board),
        ).fetchall()
        return [QueueEntry(*row) for row in rows]

    def queued_boards(self, player_id: int, guild_id: int) -> list[str]:
        rows = self.conn.execute(
            "SELECT board FROM ladder_queue WHERE guild_id = ? AND player_id = ?",
            (guild_id, player_id),
        ).fetchall()
        return [row[0] for row in rows]

    def enqueue(self, guild_id: int, board: str, player_id: int, channel_id: int) -> None:
        self.conn.execute(
            "INSERT INTO ladder_queue (guild_id, board, player_id, channel_id, joined_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (guild_id, board, player_id, channel_id, self.now),
        )

    def dequeue(self, guild_id: int, board: str, player_ids: Iterable[int]) -> int:
        removed = 0
        for player_id in player_ids:
            removed += self.conn.execute(
                "DELETE FROM ladder_queue WHERE guild_id = ? AND board = ? AND player_id = ?",
                (guild_id, board, player_id),
            ).rowcount
        return removed

    def expire_queue(self, before: float) -> list[tuple[int, str, QueueEntry]]:
        """Remove the entries that joined before ``before``; returns them."""
        rows = self.conn.execute(
            "DELETE FROM ladder_queue WHERE joined_at < ?"
            " RETURNING guild_id, board, player_id, channel_id, joined_at",
            (before,),
        ).fetchall()
        gone = [(row[0], row[1], QueueEntry(*row[2:])) for row in rows]
        return sorted(gone, key=lambda g: (g[0], g[1], g[2].joined_at, g[2].player_id))

    # ---- pairings taken off the queue, until their match is open -------------------------
    def add_pairing(self, pairing: PairingRow) -> PairingRow:
        """Keep a pairing (in the transaction that dequeued its players); returns it with
        its id and time."""
        cursor = self.conn.execute(
            "INSERT INTO ladder_pairings (guild_id, board, channel_id, first_id, second_id,"
            " gap, first_rating, second_rating, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
            (
                pairing.guild_id,
                pairing.board,
                pairing.channel_id,
                pairing.first_id,
                pairing.second_id,
                pairing.gap,
                pairing.first_rating,
                pairing.second_rating,
                self.now,
            ),
        )
        return replace(pairing, id=int(cursor.fetchone()[0]), created_at=self.now)

    def pairing_thread(self, pairing_id: int, thread_id: int) -> None:
        self.conn.execute(
            "UPDATE ladder_pairings SET thread_id = ? WHERE id = ?", (thread_id, pairing_id)
        )

    def claim_pairing(self, pairing_id: int, owner: str, seconds: float) -> PairingRow | None:
        """The stored pairing, claimed for ``owner`` to open its match for ``seconds`` (a
        lease: an opener that dies lets it run out); None if it is gone (opened, or let go)
        or another holds the claim. Claiming it again is renewing it."""
        row = self.conn.execute(
            f"SELECT {PAIRING_COLUMNS} FROM ladder_pairings WHERE id = ?", (pairing_id,)
        ).fetchone()
        if row is None:
            return None
        taken = self.conn.execute(*claim(pairing_lease(pairing_id), owner, self.now, seconds))
        return replace(PairingRow(*row), claimed_by=owner) if taken.fetchone() else None

    def let_go_pairing(self, pairing_id: int, owner: str) -> None:
        """Give ``owner``'s claim of the pairing back, the pairing kept: its opening failed
        for a while, and whoever claims it next (the next tick) opens it."""
        self.conn.execute(*release(pairing_lease(pairing_id), owner))

    def drop_pairing(self, pairing_id: int) -> None:
        """Let the pairing go (its match is open, or its players were told why not), and its
        claim with it."""
        self.conn.execute("DELETE FROM ladder_pairings WHERE id = ?", (pairing_id,))
        self.conn.execute("DELETE FROM leases WHERE name = ?", (pairing_lease(pairing_id),))


def pairing_lease(pairing_id: int) -> str:
    """The name of the lease that claims a pairing for its opener."""
    return f"ladder-pairing:{pairing_id}"


class Ladders(Area[LadderTx]):
    """The ladders' writes (``transact``) and reads."""

    def __init__(self, writer: Writes, read: Reader) -> None:
        super().__init__(writer, read, LadderTx)

    async def set_bot(self, user_id: int, bot: bool = True) -> None:
        """Mark a saved player as a bot account (the front end knows): never rated."""

        def job(conn: Connection) -> None:
            if (
                conn.execute("SELECT 1 FROM players WHERE user_id = ?", (user_id,)).fetchone()
                is None
            ):
                raise LookupError(f"player {user_id} is not saved: save the player first")
            if bot:
                conn.execute(
                    "INSERT INTO bot_accounts VALUES (?) ON CONFLICT DO NOTHING", (user_id,)
                )
            else:
                conn.execute("DELETE FROM bot_accounts WHERE user_id = ?", (user_id,))

        await self._writer.run(job, serializable=True)

    async def seasons(self, guild_id: int, board: str) -> list[Season]:
        rows = await self._rows(
            f"SELECT {SEASON_COLUMNS} FROM ladder_seasons WHERE guild_id = ? AND board = ?"
            " ORDER BY number",
            (guild_id, board),
        )
        return [_season(row) for row in rows]

    async def standings(self, key: LadderKey) -> list[Standing]:
        """A season's ratings, best first (ties by player id)."""
        rows = await self._rows(
            f"SELECT {STANDING_COLUMNS} FROM ladder_ratings WHERE {KEY_WHERE}"
            " ORDER BY rating DESC, player_id",
            (key.guild_id, key.board, key.season),
        )
        return [Standing(*row) for row in rows]

    async def results(
        self, key: LadderKey, *players: int, limit: int | None = None
    ) -> list[ResultRow]:
        """A season's results (removed ones too, marked), newest first; with one player id,
        that player's; with two, the games between them."""
        where = f"{KEY_WHERE}"
        args: tuple[object, ...] = (key.guild_id, key.board, key.season)
        for player in players:
            where += " AND ? IN (r.first_id, r.second_id)"
            args += (player,)
        return [
            _result(row)
            for row in await self._rows(
                f"SELECT {RESULT_COLUMNS} FROM ladder_results r WHERE {where}"
                " ORDER BY r.id DESC" + ("" if limit is None else f" LIMIT {int(limit)}"),
                args,
            )
        ]

    async def history(self, key: LadderKey, revision: int, player_id: int) -> list[HistoryPoint]:
        """A player's rating after each counted result of the season, oldest first."""
        rows = await self._rows(
            "SELECT h.result_id, r.match_id, h.rating, h.deviation, h.change, r.played_at"
            " FROM ladder_history h JOIN ladder_results r ON r.id = h.result_id"
            f" WHERE h.player_id = ? AND h.revision = ? AND {KEY_WHERE} ORDER BY h.result_id",
            (player_id, revision, key.guild_id, key.board, key.season),
        )
        return [HistoryPoint(*row) for row in rows]

    async def recent_changes(self, key: LadderKey, revision: int, games: int) -> dict[int, float]:
        """Each player's rating change over their last ``games`` counted results."""
        rows = await self._rows(
            "SELECT player_id, sum(change) FROM (SELECT h.player_id, h.change, row_number()"
            " OVER (PARTITION BY h.player_id ORDER BY h.result_id DESC) AS n"
            " FROM ladder_history h JOIN ladder_results r ON r.id = h.result_id"
            f" WHERE h.revision = ? AND {KEY_WHERE}) AS recent WHERE n <= ? GROUP BY player_id",
            (revision, key.guild_id, key.board, key.season, games),
        )
        return {int(player): float(change) for player, change in rows}

    async def waiting_ladders(self) -> list[tuple[int, str]]:
        """Every (guild, board) whose matchmaking queue has someone waiting."""
        rows = await self._rows(
            "SELECT DISTINCT guild_id, board FROM ladder_queue ORDER BY guild_id, board", ()
        )
        return [(int(guild), str(board)) for guild, board in rows]

    async def unrated_matches(self) -> list[int]:
        """Hosted matches played as rated that finished with a result (not aborted or
        cancelled) between two different accounts, neither a bot, but have no ladder result:
        what a crash between saving a match and rating it leaves. Oldest finish first."""
        rows = await self._rows(
            "SELECT m.id FROM hosted_matches h JOIN matches m ON m.id = h.match_id"
            " JOIN finished_matches f ON f.match_id = m.id"
            " WHERE CAST(json_extract(h.terms, '$.rated') AS TEXT) IN ('1', 'true')"
            " AND m.status = 'finished'"
            " AND m.closed IS NULL AND m.challenger_id != m.opposition_id"
            " AND NOT EXISTS (SELECT 1 FROM ladder_results r WHERE r.match_id = m.id)"
            " AND NOT EXISTS (SELECT 1 FROM bot_accounts b"
            " WHERE b.user_id IN (m.challenger_id, m.opposition_id))"
            " ORDER BY f.finished_at, m.id",
            (),
        )
        return [int(match_id) for (match_id,) in rows]

    async def pairings(self) -> list[PairingRow]:
        """Pairings whose match was not open yet (a crash came in between), oldest first."""
        rows = await self._rows(f"SELECT {PAIRING_COLUMNS} FROM ladder_pairings ORDER BY id", ())
        return [PairingRow(*row) for row in rows]

    async def queue(self, guild_id: int, board: str) -> list[QueueEntry]:
        rows = await self._rows(
            "SELECT player_id, channel_id, joined_at FROM ladder_queue"
            " WHERE guild_id = ? AND board = ? ORDER BY joined_at, player_id",
            (guild_id, board),
        )
        return [QueueEntry(*row) for row in rows]
