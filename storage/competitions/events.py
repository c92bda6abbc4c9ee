"""``Store.events``: Swiss and round robin tournaments of every game (migration 15) - the
events, their entries, each round's pairings with a seat per player, and the log of what
organisers and admins did.

Storage knows no pairing: a write is a function of an ``EventTx`` that the event service
passes to ``transact``, one writer transaction, as if alone. A round is written whole in one
transaction (its pairings and seats, the event's round, the posts announcing it), and a
seat's key (event, round, player) keeps anyone from being paired twice in a round, whoever
pairs it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..backends.sql import Reader, Row, Writes
from ..hosting.hosted import ENDED
from .areas import Area, Tx
from .names import has_control_characters, name_key

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"


@dataclass(frozen=True)
class NewEvent:
    """What an organiser sets when creating an event."""

    guild_id: int
    channel_id: int
    name: str
    game: str
    options: str  # JSON
    format: str
    rounds: int
    turn_seconds: float
    round_seconds: float
    rated: bool
    bye_points: int
    tiebreaks: str
    max_players: int
    ai_fill: str | None
    organiser_id: int
    entry_closes: float | None
    starts_at: float | None
    away_days: bool  # the players' away days stop its games' clocks


@dataclass(frozen=True)
class EventRow(NewEvent):
    """An event as stored: what its organiser set, with its id and how far it has come."""

    id: int
    status: str
    round: int
    round_deadline: float | None
    created_at: float
    started_at: float | None
    finished_at: float | None


@dataclass(frozen=True)
class EventButtons:
    """A message a front end showed an event's buttons in, and the verbs of those still
    enabled on it."""

    channel_id: int
    message_id: int
    event_id: int
    verbs: tuple[str, ...]


@dataclass(frozen=True)
class EntryRow:
    player_id: int
    rating: int
    joined_round: int
    left_round: int | None
    joined_at: float

    def plays(self, round_: int) -> bool:
        """Whether the player is paired in ``round_``."""
        return self.joined_round <= round_ and (self.left_round is None or round_ < self.left_round)


@dataclass(frozen=True)
class PairingRow:
    """A board of a round; ``second_id`` None is a bye. ``outcome`` is the first player's."""

    id: int
    round: int
    board: int
    first_id: int
    second_id: int | None
    thread_id: int | None
    hosted_id: int | None
    outcome: str | None
    decided_by: str | None
    decided_at: float | None


@dataclass(frozen=True)
class LogRow:
    actor_id: int
    action: str
    detail: str
    at: float


@dataclass(frozen=True)
class EventSnapshot:
    """An event with its entries and pairings, read in one transaction."""

    event: EventRow
    entries: tuple[EntryRow, ...]
    pairings: tuple[PairingRow, ...]


SET_COLUMNS = (  # NewEvent's fields, in order; then EventRow's own
    "guild_id, channel_id, name, game, options, format, rounds, turn_seconds, round_seconds,"
    " rated, bye_points, tiebreaks, max_players, ai_fill, organiser_id, entry_closes, starts_at,"
    " away_days"
)
RATED, AWAY_DAYS = 9, 17  # their places in SET_COLUMNS (stored as 0/1)
EVENT_COLUMNS = (
    f"{SET_COLUMNS}, id, status, round, round_deadline, created_at, started_at, finished_at"
)
ENTRY_COLUMNS = "player_id, rating, joined_round, left_round, joined_at"
PAIRING_COLUMNS = (
    "id, round, board, first_id, second_id, thread_id, hosted_id, outcome, decided_by, decided_at"
)
EVENT_SQL = f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?"
PARTS_SQL = (
    f"SELECT {ENTRY_COLUMNS} FROM event_entries WHERE event_id = ? ORDER BY joined_at, player_id",
    f"SELECT {PAIRING_COLUMNS} FROM event_pairings WHERE event_id = ? ORDER BY round, board",
)
NAMED_SQL = f"SELECT {EVENT_COLUMNS} FROM events WHERE guild_id = ? AND name_key = ?"
OF_HOSTED_SQL = f"SELECT event_id, {PAIRING_COLUMNS} FROM event_pairings WHERE hosted_id = ?"
LIVE_BOARDS_SQL = (
    "SELECT p.event_id, "
    + ", ".join(f"p.{column.strip()}" for column in PAIRING_COLUMNS.split(","))
    + " FROM event_pairings p JOIN hosted_matches h ON h.id = p.hosted_id"
    " WHERE h.phase != ? ORDER BY p.event_id, p.round, p.board"
)


def _event(row: Sequence[Any]) -> EventRow:
    values = list(row)
    values[RATED] = bool(values[RATED])
    values[AWAY_DAYS] = bool(values[AWAY_DAYS])
    return EventRow(*values)


def _snapshot(event: Row, parts: list[list[Row]]) -> EventSnapshot:
    entries, pairings = parts
    return EventSnapshot(
        _event(event),
        tuple(EntryRow(*row) for row in entries),
        tuple(PairingRow(*row) for row in pairings),
    )


class EventTx(Tx):
    """The events' statements inside one writer transaction."""

    def named(self, guild_id: int, name: str) -> EventRow | None:
        if has_control_characters(name):
            return None  # no stored name has one
        row = self.conn.execute(NAMED_SQL, (guild_id, name_key(name))).fetchone()
        return None if row is None else _event(row)

    def snapshot(self, event_id: int) -> EventSnapshot:
        return _snapshot(*self.whole(EVENT_SQL, PARTS_SQL, event_id, "event"))

    def create(self, new: NewEvent) -> int:
        values: list[object] = [getattr(new, f.name) for f in fields(NewEvent)]
        values[RATED] = int(new.rated)
        values[AWAY_DAYS] = int(new.away_days)
        cursor = self.conn.execute(
            f"INSERT INTO events ({SET_COLUMNS}, name_key, status, created_at)"
            f" VALUES ({', '.join('?' * (len(values) + 3))}) RETURNING id",
            (*values, name_key(new.name), REGISTERING, self.now),
        )
        return int(cursor.fetchone()[0])

    def set_status(self, event_id: int, status: str) -> None:
        """Running (stamped as started), finished or cancelled (stamped as finished)."""
        column = "started_at" if status == RUNNING else "finished_at"
        self.conn.execute(
            f"UPDATE events SET status = ?, {column} = ? WHERE id = ?",
            (status, self.now, event_id),
        )

    def set_round(self, event_id: int, round_: int, deadline: float | None) -> None:
        self.conn.execute(
            "UPDATE events SET round = ?, round_deadline = ? WHERE id = ?",
            (round_, deadline, event_id),
        )

    def clear_start(self, event_id: int) -> None:
        """Its set start passed without enough players: the organiser starts it."""
        self.conn.execute("UPDATE events SET starts_at = NULL WHERE id = ?", (event_id,))

    def set_rounds(self, event_id: int, rounds: int) -> None:
        """A round robin's rounds, known once its players are."""
        self.conn.execute("UPDATE events SET rounds = ? WHERE id = ?", (rounds, event_id))

    # ---- entries -------------------------------------------------------------------------
    def add_entry(self, event_id: int, player_id: int, rating: int, joined_round: int) -> None:
        self.conn.execute(
            "INSERT INTO event_entries (event_id, player_id, rating, joined_round, joined_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (event_id, player_id, rating, joined_round, self.now),
        )

    def remove_entry(self, event_id: int, player_id: int) -> bool:
        cursor = self.conn.execute(
            "DELETE FROM event_entries WHERE event_id = ? AND player_id = ?",
            (event_id, player_id),
        )
        return cursor.rowcount == 1

    def leave(self, event_id: int, player_id: int, from_round: int) -> bool:
        """Withdraw a player: not paired from ``from_round`` on."""
        cursor = self.conn.execute(
            "UPDATE event_entries SET left_round = ? WHERE event_id = ? AND player_id = ?"
            " AND left_round IS NULL",
            (from_round, event_id, player_id),
        )
        return cursor.rowcount == 1

    # ---- pairings ------------------------------------------------------------------------
    def add_pairing(
        self, event_id: int, round_: int, board: int, first: int, second: int | None
    ) -> int:
        """A board of a round with its players' seats (a seat taken twice is refused by the
        seats' key, and with it the whole transaction)."""
        cursor = self.conn.execute(
            "INSERT INTO event_pairings (event_id, round, board, first_id, second_id)"
            " VALUES (?, ?, ?, ?, ?) RETURNING id",
            (event_id, round_, board, first, second),
        )
        pairing_id = int(cursor.fetchone()[0])
        for player in (first, second):
            if player is not None:
                self.conn.execute(
                    "INSERT INTO event_seats (event_id, round, player_id, pairing_id)"
                    " VALUES (?, ?, ?, ?)",
                    (event_id, round_, player, pairing_id),
                )
        return pairing_id

    def swap_player(self, event_id: int, pairing_id: int, old: int, new: int) -> None:
        """``new`` takes ``old``'s place on an undecided board (a replacement)."""
        for column in ("first_id", "second_id"):
            self.conn.execute(
                f"UPDATE event_pairings SET {column} = ?, hosted_id = NULL, thread_id = NULL"
                f" WHERE id = ? AND {column} = ? AND outcome IS NULL",
                (new, pairing_id, old),
            )
        self.conn.execute(
            "UPDATE event_seats SET player_id = ? WHERE event_id = ? AND pairing_id = ?"
            " AND player_id = ?",
            (new, event_id, pairing_id, old),
        )

    def drop_bye(self, event_id: int, pairing_id: int) -> None:
        """Annul a bye (a round robin's, of a round after a withdrawal): its seat and board."""
        self.conn.execute(
            "DELETE FROM event_seats WHERE event_id = ? AND pairing_id = ?", (event_id, pairing_id)
        )
        self.conn.execute(
            "DELETE FROM event_pairings WHERE id = ? AND event_id = ? AND second_id IS NULL",
            (pairing_id, event_id),
        )

    def move_bye(self, event_id: int, pairing_id: int, old: int, new: int) -> None:
        """``new`` takes ``old``'s bye (a round robin's, of a round after a replacement)."""
        self.conn.execute(
            "UPDATE event_pairings SET first_id = ? WHERE id = ? AND first_id = ?"
            " AND second_id IS NULL",
            (new, pairing_id, old),
        )
        self.conn.execute(
            "UPDATE event_seats SET player_id = ? WHERE event_id = ? AND pairing_id = ?"
            " AND player_id = ?",
            (new, event_id, pairing_id, old),
        )

    def set_thread(self, pairing_id: int, thread_id: int) -> None:
        self.conn.execute(
            "UPDATE event_pairings SET thread_id = ? WHERE id = ? AND thread_id IS NULL",
            (thread_id, pairing_id),
        )

    def set_hosted(self, pairing_id: int, hosted_id: int) -> None:
        self.conn.execute(
            "UPDATE event_pairings SET hosted_id = ? WHERE id = ? AND hosted_id IS NULL",
            (hosted_id, pairing_id),
        )

    def reopen(self, pairing_id: int) -> None:
        """An undecided board's game ended without a result: it gets a new one."""
        self.conn.execute(
            "UPDATE event_pairings SET hosted_id = NULL WHERE id = ? AND outcome IS NULL",
            (pairing_id,),
        )

    def decide(self, pairing_id: int, outcome: str, decided_by: str) -> bool:
        """Record an undecided board's outcome (the first player's); False if decided."""
        cursor = self.conn.execute(
            "UPDATE event_pairings SET outcome = ?, decided_by = ?, decided_at = ?"
            " WHERE id = ? AND outcome IS NULL",
            (outcome, decided_by, self.now, pairing_id),
        )
        return cursor.rowcount == 1

    def adjust(self, pairing_id: int, outcome: str, decided_by: str = "admin") -> None:
        """A correction of a decided board: an admin's (logged by the caller), or the game's
        result overtaking an adjudication."""
        self.conn.execute(
            "UPDATE event_pairings SET outcome = ?, decided_by = ?, decided_at = ? WHERE id = ?",
            (outcome, decided_by, self.now, pairing_id),
        )

    def pairing_of_hosted(self, hosted_id: int) -> tuple[int, PairingRow] | None:
        row = self.conn.execute(OF_HOSTED_SQL, (hosted_id,)).fetchone()
        return None if row is None else (int(row[0]), PairingRow(*row[1:]))

    def winner_of(self, match_id: int) -> tuple[bool, str | None]:
        """(finished with a result, 'C'/'O'/None for a tie) of a stored match."""
        row = self.conn.execute(
            "SELECT winner FROM finished_matches WHERE match_id = ?", (match_id,)
        ).fetchone()
        return (False, None) if row is None else (True, row[0])

    def log(self, event_id: int, actor_id: int, action: str, detail: str) -> None:
        self.conn.execute(
            "INSERT INTO event_log (event_id, actor_id, action, detail, at) VALUES (?, ?, ?, ?, ?)",
            (event_id, actor_id, action, detail, self.now),
        )


class Events(Area[EventTx]):
    """The events' writes (``transact``) and reads."""

    def __init__(self, writer: Writes, read: Reader) -> None:
        super().__init__(writer, read, EventTx)

    async def snapshot(self, event_id: int) -> EventSnapshot:
        """The event with its entries and pairings, read in one transaction."""

        return _snapshot(*await self._whole(EVENT_SQL, PARTS_SQL, event_id, "event"))

    async def event(self, event_id: int) -> EventRow | None:
        """The event alone, without its entries and pairings (None: no such event)."""
        rows = await self._rows(EVENT_SQL, (event_id,))
        return _event(rows[0]) if rows else None

    async def named(self, guild_id: int, name: str) -> EventRow | None:
        """The guild's event of that name (in any case and spacing); None for a name with a
        control character, which none has (PostgreSQL could not even be asked)."""
        if has_control_characters(name):
            return None
        rows = await self._rows(NAMED_SQL, (guild_id, name_key(name)))
        return _event(rows[0]) if rows else None

    async def of_guild(self, guild_id: int) -> list[EventRow]:
        """A guild's events, newest first."""
        rows = await self._rows(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE guild_id = ? ORDER BY id DESC",
            (guild_id,),
        )
        return [_event(row) for row in rows]

    async def pairing_of_hosted(self, hosted_id: int) -> tuple[int, PairingRow] | None:
        """The board a hosted match is, with its event's id."""
        rows = await self._rows(OF_HOSTED_SQL, (hosted_id,))
        return (int(rows[0][0]), PairingRow(*rows[0][1:])) if rows else None

    async def live_boards(self) -> list[tuple[int, PairingRow]]:
        """The boards whose game is live, with their events' ids: one read, however many
        other matches are live."""
        rows = await self._rows(LIVE_BOARDS_SQL, (ENDED,))
        return [(int(row[0]), PairingRow(*row[1:])) for row in rows]

    async def active(self) -> list[int]:
        """Every event registering or running, oldest first."""
        rows = await self._rows(
            "SELECT id FROM events WHERE status IN (?, ?) ORDER BY id", (REGISTERING, RUNNING)
        )
        return [int(row[0]) for row in rows]

    async def keep_buttons(self, kept: EventButtons) -> None:
        """A message went out with an event's buttons (a front end's record)."""
        await self._writer.execute(
            "INSERT INTO event_buttons (channel_id, message_id, event_id, verbs)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (channel_id, message_id) DO UPDATE SET"
            " event_id = excluded.event_id, verbs = excluded.verbs",
            (kept.channel_id, kept.message_id, kept.event_id, " ".join(kept.verbs)),
        )

    async def buttons_of(self, event_id: int) -> list[EventButtons]:
        """The messages kept with the event's buttons still enabled."""
        rows = await self._rows(
            "SELECT channel_id, message_id, event_id, verbs FROM event_buttons"
            " WHERE event_id = ? ORDER BY channel_id, message_id",
            (event_id,),
        )
        return [EventButtons(int(c), int(m), int(e), tuple(v.split())) for c, m, e, v in rows]

    async def narrow_buttons(self, kept: EventButtons) -> None:
        """The message's buttons still enabled are ``kept.verbs`` now (none: forgotten)."""
        where = (kept.channel_id, kept.message_id)
        if kept.verbs:
            await self._writer.execute(
                "UPDATE event_buttons SET verbs = ? WHERE channel_id = ? AND message_id = ?",
                (" ".join(kept.verbs), *where),
            )
        else:
            await self._writer.execute(
                "DELETE FROM event_buttons WHERE channel_id = ? AND message_id = ?", where
            )

    async def log(self, event_id: int) -> list[LogRow]:
        rows = await self._rows(
            "SELECT actor_id, action, detail, at FROM event_log WHERE event_id = ? ORDER BY id",
            (event_id,),
        )
        return [LogRow(*row) for row in rows]
