"""Where a tournament stands, computed from its stored rows: each match's score and what is
next for it, who is still in, the standings, and the next tier's pairings.

Pure functions of ``storage.competitions.tournaments`` rows (no I/O): the desk runs them
inside one transaction, so reading, deciding and writing cannot interleave with another
writer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from storage.competitions.tournaments import OPEN, SCORED, GameRow, MatchRow, Snapshot

from .champions import Standing, order_champions
from .match import GameResult, Match, MatchSetup, Seat, decide_tie_breaker
from .pairing import Entrant, Pairing, pair_tier
from .points import Board, Captures

GAME_POINTS, RECORD, TIE_BREAKER = "game points", "record", "tie-breaker"


def encode(captures: Captures) -> str:
    return json.dumps(captures.counts(), sort_keys=True)


def decode(text: str | None) -> Captures:
    return Captures(**json.loads(text)) if text else Captures()


def challenger_of(number: int) -> Seat:
    """Games alternate: the first seat is the Challenger of games 1, 3 (and tie-breakers 5,
    7...), the second of 2, 4, 6... (T5)."""
    return Seat((number - 1) % 2)


@dataclass(frozen=True)
class Decision:
    winner: Seat
    how: str  # GAME_POINTS, RECORD or TIE_BREAKER


@dataclass(frozen=True)
class MatchState:
    """One match as played so far: the regular games in ``match``, then tie-breakers."""

    row: MatchRow
    match: Match
    tie_breakers: tuple[GameResult, ...]
    open_game: GameRow | None
    played: int  # games scored, tie-breakers included

    @property
    def next_number(self) -> int:
        return self.played + 1

    def seat_of(self, player_id: int) -> Seat:
        return Seat.FIRST if player_id == self.row.first_id else Seat.SECOND

    def players(self) -> tuple[int, int]:
        return self.row.first_id, self.row.second_id


def match_state(row: MatchRow, games: list[GameRow], board: str, target: int) -> MatchState:
    setup = MatchSetup(Board(board), (row.first_rank, row.second_rank), target)
    match, tie_breakers = Match(setup), []
    scored = [game for game in games if game.state == SCORED]
    for game in sorted(scored, key=lambda g: g.number):
        result = GameResult(
            (decode(game.first_captures), decode(game.second_captures)),
            None if game.winner_seat is None else Seat(game.winner_seat),
        )
        if match.finished:
            tie_breakers.append(result)
        else:
            match = match.record(result)
    open_game = next((game for game in games if game.state == OPEN), None)
    return MatchState(row, match, tuple(tie_breakers), open_game, len(scored))


def decide(
    state: MatchState, record: tuple[Standing[int], Standing[int]] | None
) -> Decision | None:
    """Who has won the match, or None while it goes on (more games, or another tie-breaker).

    Equal Game Points after the last game go to tie-breaker games (T3). In the final,
    ``record`` holds both players' tournament standings: two would-be champions tied on Game
    Points are first compared by the tournament's Game Points and win/loss record (T12).
    """
    match = state.match
    if not match.finished:
        return None
    if match.winner is not None:
        return Decision(match.winner, GAME_POINTS)
    if record is not None:
        groups = order_champions(record)
        if len(groups) == 2:
            best = groups[0][0].player
            return Decision(state.seat_of(best), RECORD)
    for game in state.tie_breakers:
        seat = decide_tie_breaker(game, assassins=False)
        if seat is not None:
            return Decision(seat, TIE_BREAKER)
    return None


def states(snapshot: Snapshot) -> list[MatchState]:
    board, target = snapshot.tournament.board, snapshot.tournament.target
    return [
        match_state(row, [g for g in snapshot.games if g.match_id == row.id], board, target)
        for row in snapshot.matches
    ]


def competitors(snapshot: Snapshot) -> list[int]:
    """Registered players (not substitutes), in registration order."""
    return [entry.player_id for entry in snapshot.entries if not entry.substitute]


def advancing(rows: list[MatchRow]) -> list[int]:
    """The winners of a decided tier who go on: a substitute never does (T15)."""
    out = []
    for row in rows:
        if row.winner_id is None:
            raise ValueError(f"tournament match {row.id} is not decided")
        if not (row.substitute and row.winner_id == row.second_id):
            out.append(row.winner_id)
    return out


def tier_rows(snapshot: Snapshot, tier: int) -> list[MatchRow]:
    return [row for row in snapshot.matches if row.tier == tier]


def is_final(snapshot: Snapshot, row: MatchRow) -> bool:
    """The match whose winner is the champion: alone in its tier, between two players."""
    return not row.substitute and len(tier_rows(snapshot, row.tier)) == 1


def standings(snapshot: Snapshot) -> list[Standing[int]]:
    """Each competitor's Game Points, wins and losses over their decided matches (a
    substitute's matches count for their opponent only)."""
    totals = {player: [0, 0, 0] for player in competitors(snapshot)}
    for row in snapshot.matches:
        if row.winner_id is None:
            continue
        points = (row.first_points or 0, row.second_points or 0)
        players = (row.first_id,) if row.substitute else (row.first_id, row.second_id)
        for seat, player in enumerate(players):
            if player not in totals:
                continue
            totals[player][0] += points[seat]
            totals[player][1 if row.winner_id == player else 2] += 1
    return [Standing(player, *numbers) for player, numbers in totals.items()]


def standing_of(snapshot: Snapshot, player_id: int) -> Standing[int]:
    return next(s for s in standings(snapshot) if s.player == player_id)


def pair_next(snapshot: Snapshot, players: list[int], rank: Callable[[int], int]) -> list[Pairing]:
    """The next tier's pairings for ``players`` (in seeding order). Substitutes are the
    registered substitutes and the players already out, closest rank first (T15)."""
    still_in = set(players)
    registered = [e.player_id for e in snapshot.entries if e.substitute]
    out = [p for p in competitors(snapshot) if p not in still_in]
    spares = [Entrant(p, rank(p)) for p in registered + out]
    return pair_tier([Entrant(p, rank(p)) for p in players], spares)


def tier_reached(snapshot: Snapshot) -> dict[int, int]:
    """The last tier each competitor played in as a player (0: none yet)."""
    reached = dict.fromkeys(competitors(snapshot), 0)
    for row in snapshot.matches:
        players = (row.first_id,) if row.substitute else (row.first_id, row.second_id)
        for player in players:
            if player in reached:
                reached[player] = max(reached[player], row.tier)
    return reached
