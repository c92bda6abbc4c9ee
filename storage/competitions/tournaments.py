"""``Store.tournaments``: the tournaments' tables (migration 5) - tournaments, entries, the
matches of each tier, their games (each a hosted match), and tournament ranks per guild and
board size with their append-only history.

Storage knows no scoring: a tournament write is a function of a ``TournamentTx`` that the
tournament service passes to ``transact``; it runs as one job of the writer, as if alone,
so reading a tournament, deciding what a finished game changes and writing it (with the
outbox posts announcing it) is one transaction. Captures are kept as the JSON the service
gives; ranks as plain numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..backends.sql import Reader, Row, Writes
from ..hosting.hosted import ENDED
from .areas import Area, Tx
from .names import has_control_characters, name_key

REGISTERING, RUNNING, FINISHED = "registering", "running", "finished"
CANCELLED = "cancelled"  # by an admin: no champion; what was decided stands
OPEN, SCORED, VOID = "open", "scored", "void"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    board: str
    target: int
    turn_seconds: float
    organiser_id: int
    status: str
    tier: int
    champion_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    away_days: bool  # the players' away days stop its games' clocks


def _tournament(row: Sequence[Any]) -> TournamentRow:
    values = list(row)
    values[-1] = bool(values[-1])  # away_days, stored as 0/1
    return TournamentRow(*values)


@dataclass(frozen=True)
class EntryRow:
    player_id: int
    rank: int
    substitute: bool
    registered_at: float


@dataclass(frozen=True)
class MatchRow:
    """A pairing; ``winner_id`` and the points are None until the match is decided."""

    id: int
    tier: int
    position: int
    first_id: int
    second_id: int
    first_rank: int
    second_rank: int
    substitute: bool
    thread_id: int | None
    winner_id: int | None
    first_points: int | None
    second_points: int | None
    decided_by: str | None
    finished_at: float | None


@dataclass(frozen=True)
class GameRow:
    id: int
    match_id: int
    number: int
    hosted_id: int
    state: str
    ending: str | None
    winner_seat: int | None
    first_captures: str | None
    second_captures: str | None


@dataclass(frozen=True)
class RankRow:
    rank: int
    transition_rank: int | None
    played_like: tuple[int, ...]


@dataclass(frozen=True)
class RankChange:
    """One player's rank before and after one tournament match (the history row)."""

    player_id: int
    before: int
    after: RankRow


@dataclass(frozen=True)
class Snapshot:
    """A tournament and everything under it, read in one transaction."""

    tournament: TournamentRow
    entries: tuple[EntryRow, ...]
    matches: tuple[MatchRow, ...]
    games: tuple[GameRow, ...]


TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, name, board, target, turn_seconds, organiser_id, status, tier,"
    " champion_id, created_at, started_at, finished_at, away_days"
)
ENTRY_COLUMNS = "player_id, rank, substitute, registered_at"
MATCH_COLUMNS = (
    "id, tier, position, first_id, second_id, first_rank, second_rank, substitute, thread_id,"
    " winner_id, first_points, second_points, decided_by, finished_at"
)
GAME_COLUMNS = (
    "g.id, g.match_id, g.number, g.hosted_id, g.state, g.ending, g.winner_seat,"
    " g.first_captures, g.second_captures"
)
TOURNAMENT_SQL = f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?"
NAMED_SQL = f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? AND name_key = ?"
SNAPSHOT_SQL = (
    f"SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = ?"
    " ORDER BY registered_at, player_id",
    f"SELECT {MATCH_COLUMNS} FROM tournament_matches WHERE tournament_id = ?"
    " ORDER BY tier, position",
    f"SELECT {GAME_COLUMNS} FROM tournament_games g JOIN tournament_matches m"
    " ON m.id = g.match_id WHERE m.tournament_id = ? ORDER BY g.match_id, g.number, g.id",
)
GAME_OF_HOSTED_SQL = (
    f"SELECT m.tournament_id, {GAME_COLUMNS} FROM tournament_games g"
    " JOIN tournament_matches m ON m.id = g.match_id WHERE g.hosted_id = ?"
)
CANCELLED_LIVE_SQL = (
    "SELECT g.hosted_id FROM tournament_games g"
    " JOIN tournament_matches m ON m.id = g.match_id"
    " JOIN tournaments t ON t.id = m.tournament_id"
    " JOIN hosted_matches h ON h.id = g.hosted_id"
    " WHERE t.status = ? AND h.phase != ? ORDER BY g.hosted_id"
)
RANK_SQL = (
    "SELECT rank, transition_rank, played_like FROM tournament_ranks"
    " WHERE guild_id = ? AND board = ? AND player_id = ?"
)


def _entry(row: Sequence[Any]) -> EntryRow:
    return EntryRow(row[0], row[1], bool(row[2]), row[3])


def _match(row: Sequence[Any]) -> MatchRow:
    return MatchRow(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        substitute=bool(row[7]),
        thread_id=row[8],
        winner_id=row[9],
        first_points=row[10],
        second_points=row[11],
        decided_by=row[12],
        finished_at=row[13],
    )


def _rank(row: Sequence[Any]) -> RankRow:
    return RankRow(row[0], row[1], tuple(int(n) for n in str(row[2]).split()))


def _snapshot(tournament: Row, parts: list[list[Row]]) -> Snapshot:
    entries, matches, games = parts
    return Snapshot(
        _tournament(tournament),
        tuple(_entry(row) for row in entries),
        tuple(_match(row) for row in matches),
        tuple(GameRow(*row) for row in games),
    )


class TournamentTx(Tx):
    """The tournaments' statements inside one writer transaction."""

    # ---- tournaments and entries ---------------------------------------------------------
    def named(self, guild_id: int, name: str) -> TournamentRow | None:
        if has_control_characters(name):
            return None  # no stored name has one
        row = self.conn.execute(NAMED_SQL, (guild_id, name_key(name))).fetchone()
        return None if row is None else _tournament(row)

    def snapshot(self, tournament_id: int) -> Snapshot:
        return _snapshot(*self.whole(TOURNAMENT_SQL, SNAPSHOT_SQL, tournament_id, "tournament"))

    def create(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        board: str,
        target: int,
        turn_seconds: float,
        organiser_id: int,
        away_days: bool = True,
    ) -> int:
        cursor = self.conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, name, board, target, turn_seconds,"
            " organiser_id, status, created_at, away_days, name_key)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (guild_id, channel_id, name, board, target, turn_seconds, organiser_id,
             REGISTERING, self.now, int(away_days), name_key(name)),
        )  # fmt: skip
        return int(cursor.fetchone()[0])

    def start(self, tournament_id: int) -> None:
        self.conn.execute(
            "UPDATE tournaments SET status = ?, started_at = ? WHERE id = ?",
            (RUNNING, self.now, tournament_id),
        )

    def set_tier(self, tournament_id: int, tier: int) -> None:
        self.conn.execute("UPDATE tournaments SET tier = ? WHERE id = ?", (tier, tournament_id))

    def finish(self, tournament_id: int, champion_id: int) -> None:
        self.conn.execute(
            "UPDATE tournaments SET status = ?, champion_id = ?, finished_at = ? WHERE id = ?",
            (FINISHED, champion_id, self.now, tournament_id),
        )

    def cancel(self, tournament_id: int) -> None:
        self.conn.execute(
            "UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ?",
            (CANCELLED, self.now, tournament_id),
        )

    def add_entry(self, tournament_id: int, player_id: int, rank: int, substitute: bool) -> None:
        self.conn.execute(
            "INSERT INTO tournament_entries (tournament_id, player_id, rank, substitute,"
            " registered_at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, player_id, rank, int(substitute), self.now),
        )

    def remove_entry(self, tournament_id: int, player_id: int) -> bool:
        cursor = self.conn.execute(
            "DELETE FROM tournament_entries WHERE tournament_id = ? AND player_id = ?",
            (tournament_id, player_id),
        )
        return cursor.rowcount == 1

    def playing_elsewhere(self, guild_id: int, board: str, player_id: int) -> str | None:
        """The name of an unfinished tournament on this board the player competes in (not
        as a substitute), if any."""
        row = self.conn.execute(
            "SELECT t.name FROM tournaments t JOIN tournament_entries e"
            " ON e.tournament_id = t.id WHERE t.guild_id = ? AND t.board = ?"
            " AND t.status IN (?, ?) AND e.player_id = ? AND e.substitute = 0",
            (guild_id, board, REGISTERING, RUNNING, player_id),
        ).fetchone()
        return None if row is None else str(row[0])

    # ---- matches and games ---------------------------------------------------------------
    def add_match(
        self,
        tournament_id: int,
        tier: int,
        position: int,
        players: tuple[int, int],
        ranks: tuple[int, int],
        substitute: bool,
    ) -> int:
        cursor = self.conn.execute(
            "INSERT INTO tournament_matches (tournament_id, tier, position, first_id,"
            " second_id, first_rank, second_rank, substitute) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
            (tournament_id, tier, position, *players, *ranks, int(substitute)),
        )
        return int(cursor.fetchone()[0])

    def set_thread(self, match_id: int, thread_id: int) -> None:
        self.conn.execute(
            "UPDATE tournament_matches SET thread_id = ? WHERE id = ? AND thread_id IS NULL",
            (thread_id, match_id),
        )

    def decide(
        self, match_id: int, winner_id: int, points: tuple[int, int], decided_by: str
    ) -> None:
        self.conn.execute(
            "UPDATE tournament_matches SET winner_id = ?, first_points = ?, second_points = ?,"
            " decided_by = ?, finished_at = ? WHERE id = ? AND winner_id IS NULL",
            (winner_id, *points, decided_by, self.now, match_id),
        )

    def add_game(self, match_id: int, number: int, hosted_id: int) -> int:
        cursor = self.conn.execute(
            "INSERT INTO tournament_games (match_id, number, hosted_id, state)"
            " VALUES (?, ?, ?, ?) RETURNING id",
            (match_id, number, hosted_id, OPEN),
        )
        return int(cursor.fetchone()[0])

    def game_of_hosted(self, hosted_id: int) -> tuple[int, GameRow] | None:
        """The tournament game a hosted match is, with its tournament's id."""
        row = self.conn.execute(GAME_OF_HOSTED_SQL, (hosted_id,)).fetchone()
        return None if row is None else (int(row[0]), GameRow(*row[1:]))

    def score_game(
        self,
        game_id: int,
        ending: str,
        winner_seat: int | None,
        captures: tuple[str, str],
    ) -> None:
        self._close_game(game_id, SCORED, ending, winner_seat, captures)

    def void_game(self, game_id: int, ending: str) -> None:
        self._close_game(game_id, VOID, ending, None, (None, None))

    def _close_game(
        self,
        game_id: int,
        state: str,
        ending: str,
        winner_seat: int | None,
        captures: tuple[str | None, str | None],
    ) -> None:
        cursor = self.conn.execute(
            "UPDATE tournament_games SET state = ?, ending = ?, winner_seat = ?,"
            " first_captures = ?, second_captures = ?, scored_at = ?"
            " WHERE id = ? AND state = ?",
            (state, ending, winner_seat, *captures, self.now, game_id, OPEN),
        )
        if cursor.rowcount != 1:
            raise LookupError(f"tournament game {game_id} is not open")

    # ---- ranks ---------------------------------------------------------------------------
    def rank(self, guild_id: int, board: str, player_id: int) -> RankRow | None:
        row = self.conn.execute(RANK_SQL, (guild_id, board, player_id)).fetchone()
        return None if row is None else _rank(row)

    def put_rank(self, guild_id: int, board: str, match_id: int, change: RankChange) -> None:
        """A player's rank after a match, and its history row."""
        after = change.after
        played = " ".join(str(n) for n in after.played_like)
        values = (guild_id, board, change.player_id)
        self.conn.execute(
            "INSERT INTO tournament_ranks (guild_id, board, player_id, rank,"
            " transition_rank, played_like, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, board, player_id) DO UPDATE SET rank = excluded.rank,"
            " transition_rank = excluded.transition_rank, played_like = excluded.played_like,"
            " updated_at = excluded.updated_at",
            (*values, after.rank, after.transition_rank, played, self.now),
        )
        self.conn.execute(
            "INSERT INTO tournament_rank_history (guild_id, board, player_id, match_id,"
            " rank_before, rank_after, transition_rank, played_like, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, match_id, change.before, after.rank, after.transition_rank, played,
             self.now),
        )  # fmt: skip


class Tournaments(Area[TournamentTx]):
    """The tournaments' writes (``transact``) and reads."""

    def __init__(self, writer: Writes, read: Reader) -> None:
        super().__init__(writer, read, TournamentTx)

    async def snapshot(self, tournament_id: int) -> Snapshot:
        """The tournament with its entries, matches and games, read in one transaction."""

        whole = await self._whole(TOURNAMENT_SQL, SNAPSHOT_SQL, tournament_id, "tournament")
        return _snapshot(*whole)

    async def named(self, guild_id: int, name: str) -> TournamentRow | None:
        """The guild's tournament of that name (in any case and spacing); None for a name
        with a control character, which none has (PostgreSQL could not even be asked)."""
        if has_control_characters(name):
            return None
        rows = await self._rows(NAMED_SQL, (guild_id, name_key(name)))
        return _tournament(rows[0]) if rows else None

    async def game_of_hosted(self, hosted_id: int) -> tuple[int, GameRow] | None:
        """The tournament game a hosted match is, with its tournament's id."""
        rows = await self._rows(GAME_OF_HOSTED_SQL, (hosted_id,))
        return (int(rows[0][0]), GameRow(*rows[0][1:])) if rows else None

    async def live_games_cancelled(self) -> list[int]:
        """The hosted matches still live of cancelled tournaments' games: one read, however
        many other matches are live."""
        rows = await self._rows(CANCELLED_LIVE_SQL, (CANCELLED, ENDED))
        return [int(row[0]) for row in rows]

    async def of_guild(self, guild_id: int) -> list[TournamentRow]:
        """A guild's tournaments, newest first."""
        rows = await self._rows(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC",
            (guild_id,),
        )
        return [_tournament(row) for row in rows]

    async def running(self) -> list[int]:
        """The ids of every tournament being played, oldest first."""
        rows = await self._rows(
            "SELECT id FROM tournaments WHERE status = ? ORDER BY id", (RUNNING,)
        )
        return [int(row[0]) for row in rows]

    async def rank(self, guild_id: int, board: str, player_id: int) -> RankRow | None:
        rows = await self._rows(RANK_SQL, (guild_id, board, player_id))
        return _rank(rows[0]) if rows else None

    async def rank_history(
        self, guild_id: int, board: str, player_id: int
    ) -> list[tuple[int, int, int]]:
        """(tournament match, rank before, rank after) for each of the player's matches."""
        rows = await self._rows(
            "SELECT match_id, rank_before, rank_after FROM tournament_rank_history"
            " WHERE guild_id = ? AND board = ? AND player_id = ? ORDER BY id",
            (guild_id, board, player_id),
        )
        return [(int(a), int(b), int(c)) for a, b, c in rows]
