"""Pairing a Swiss round by the FIDE Dutch system, through the ``py4swiss`` library.

We do not pair Swiss rounds ourselves: ``py4swiss`` (MIT; the Dutch system as FIDE's C.04.3
had it until January 2026, tested identical to bbpPairings, the FIDE-endorsed engine; the
library pychess-variants pairs with) does. This module only translates: our history becomes
the library's in-memory tournament report (TRF), its pairing comes back as player ids.
Why this library and not ``pairing-core``: docs/TOURNAMENTS.md. The first round, which the
Dutch rules fix without a search, is built directly (``first_round``), identical to the library's.

Pairing numbers are given afresh on every call, by rating then entry order, over everybody
who ever entered, so a late entrant slots in by rating (FIDE C.04.2 B) and the history the
library reads is the same whichever round is paired. Withdrawn players stay in the report
(their opponents' past still counts) but are not paired; rounds a player was not in (entered
late, withdrawn for a round) are zero-point absences.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.engines.dutch import engine as dutch_engine
from py4swiss.engines.dutch.player import Player
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import (
    ColorToken,
    ResultToken,
    RoundResult,
    ScoringPointSystem,
    ScoringPointSystemCode,
)
from py4swiss.trf.sections import PlayerSection, XSection

from . import dutch_weights
from .first_round import first_round
from .records import (
    STANDARD_POINTS,
    Board,
    Colour,
    History,
    Outcome,
    PairedRound,
    PointsTable,
    RoundRecord,
    score,
)

# On the py4swiss version our speedups were checked against, they are installed and the first
# round is built directly; on any other the library pairs every round as it ships.
CHECKED_LIBRARY = dutch_weights.install()

# The pairing numbers of the players who have played the AI in the odd slot (E11), for the
# pairing being worked out in this thread (``library_round`` sets it).
_HAD_AI_SLOT: ContextVar[frozenset[int]] = ContextVar("had_ai_slot", default=frozenset())
_library_players = dutch_engine.get_player_infos_from_trf


def _players(trf: ParsedTrf) -> list[Player]:
    """The library's players, those who played the AI in the odd slot counted as having had
    the bye (E2: never twice to one player). Their game is a full-, half- or zero-point bye
    in the report, so that it counts what it gave, and the library counts only a
    pairing-allocated bye or a forfeit win as a bye had."""
    players: list[Player] = _library_players(trf)
    had = _HAD_AI_SLOT.get()
    for player in players:
        if player.id in had:
            player.bye_received = True
    return players


dutch_engine.get_player_infos_from_trf = _players


@dataclass(frozen=True)
class SwissPlayer:
    """An entrant: ``rating`` seeds them, equal ratings by ``joined_at`` (entry order, E9);
    ``active`` is False once they have withdrawn."""

    player_id: int
    rating: int
    active: bool = True
    joined_at: float = 0.0


class CannotPair(ValueError):
    """No pairing satisfies the absolute criteria (every remaining pair has already met)."""


_TOKENS = {
    Outcome.WIN: ResultToken.WIN,
    Outcome.DRAW: ResultToken.DRAW,
    Outcome.LOSS: ResultToken.LOSS,
    Outcome.FORFEIT_WIN: ResultToken.FORFEIT_WIN,
    Outcome.FORFEIT_LOSS: ResultToken.FORFEIT_LOSS,
    Outcome.BYE: ResultToken.PAIRING_ALLOCATED_BYE,
    Outcome.ABSENT: ResultToken.ZERO_POINT_BYE,
}
_OUTSIDE = {
    Outcome.WIN: ResultToken.FULL_POINT_BYE,
    Outcome.FORFEIT_WIN: ResultToken.FULL_POINT_BYE,
    Outcome.DRAW: ResultToken.HALF_POINT_BYE,
    Outcome.LOSS: ResultToken.ZERO_POINT_BYE,
    Outcome.FORFEIT_LOSS: ResultToken.ZERO_POINT_BYE,
}
_COLOURS = {Colour.FIRST: ColorToken.WHITE, Colour.SECOND: ColorToken.BLACK}


def pair_round(
    players: Sequence[SwissPlayer],
    history: History,
    rounds_total: int,
    table: PointsTable = STANDARD_POINTS,
) -> PairedRound:
    """Pair the next round (the one after the longest history) of ``rounds_total``.

    Every player's history may be shorter than the round's (entered late): the missing
    rounds count as absences. Raises ``CannotPair`` when no legal pairing exists. The first
    round is built directly (``first_round``: the library's pairing, without its seconds of
    search on a large event), every other by the library (``library_round``); the first too
    on a library version other than the one checked.
    """
    played = _played(players, history, rounds_total)
    if played == 0 and players and CHECKED_LIBRARY:
        ordered = _ordered(players)
        return first_round([(p.player_id, n) for n, p in enumerate(ordered, 1) if p.active])
    return library_round(players, history, rounds_total, table)


def library_round(
    players: Sequence[SwissPlayer],
    history: History,
    rounds_total: int,
    table: PointsTable = STANDARD_POINTS,
) -> PairedRound:
    """``pair_round`` through ``py4swiss``'s Dutch engine, whichever the round."""
    played = _played(players, history, rounds_total)
    ordered = _ordered(players)
    numbers = {p.player_id: n for n, p in enumerate(ordered, start=1)}
    sections = [
        _section(p, numbers, _padded(history.get(p.player_id, ()), played), table) for p in ordered
    ]
    x_section = XSection(
        number_of_rounds=rounds_total,
        zeroed_ids={numbers[p.player_id] for p in ordered if not p.active},
        scoring_point_system=_scoring(table),
    )
    trf = ParsedTrf(player_sections=sections, x_section=x_section)
    had = frozenset(
        numbers[p.player_id]
        for p in ordered
        if _met_outsider(history.get(p.player_id, ()), numbers)
    )
    token = _HAD_AI_SLOT.set(had)
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError as error:
        raise CannotPair(str(error)) from error
    finally:
        _HAD_AI_SLOT.reset(token)
    ids = {n: p for p, n in numbers.items()}
    boards = tuple(Board(ids[x.white], ids[x.black]) for x in pairings if x.black)
    bye = next((ids[x.white] for x in pairings if not x.black), None)
    return PairedRound(boards, bye)


def _met_outsider(records: Iterable[RoundRecord], numbers: dict[int, int]) -> bool:
    """Whether a player met someone outside the event: the AI in the odd slot."""
    return any(r.opponent is not None and r.opponent not in numbers for r in records)


def _played(players: Sequence[SwissPlayer], history: History, rounds_total: int) -> int:
    """Rounds paired so far: the longest history; refuses a round past the last."""
    played = max((len(history.get(p.player_id, ())) for p in players), default=0)
    if played >= rounds_total:
        raise ValueError(f"all {rounds_total} rounds have been paired")
    return played


def _ordered(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Pairing order, which gives the pairing numbers: by rating, then entry (the id last,
    for entries made at the same moment)."""
    return sorted(players, key=lambda p: (-p.rating, p.joined_at, p.player_id))


def _padded(records: Sequence[RoundRecord], played: int) -> list[RoundRecord]:
    """Absences for the rounds a late entrant missed, before the rounds they played."""
    return [RoundRecord(Outcome.ABSENT)] * (played - len(records)) + list(records)


def _section(
    player: SwissPlayer,
    numbers: dict[int, int],
    records: Iterable[RoundRecord],
    table: PointsTable,
) -> PlayerSection:
    records = list(records)
    results = [_result(record, numbers) for record in records]
    number = numbers[player.player_id]
    return PlayerSection(
        code=PlayerCode.PLAYER,
        starting_number=number,
        fide_rating=max(0, min(player.rating, 9999)),
        points_times_ten=score(records, table) * 5,
        rank=number,
        results=results,
    )


def _result(record: RoundRecord, numbers: dict[int, int]) -> RoundResult:
    if record.opponent is not None and record.opponent not in numbers:
        # a game against someone outside the event (the AI filling an odd slot) is a bye
        # to the pairing, worth what the game gave
        token = _OUTSIDE[record.outcome]
        return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)
    if record.opponent is None or record.colour is None:
        return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=_TOKENS[record.outcome])
    return RoundResult(
        id=numbers[record.opponent],
        color=_COLOURS[record.colour],
        result=_TOKENS[record.outcome],
    )


def _scoring(table: PointsTable) -> ScoringPointSystem:
    """The library's scoring system with our points (its unit is a tenth of a point)."""
    system = ScoringPointSystem()
    for code, value in (
        (ScoringPointSystemCode.WIN_WITH_WHITE, table.win),
        (ScoringPointSystemCode.WIN_WITH_BLACK, table.win),
        (ScoringPointSystemCode.DRAW_WITH_WHITE, table.draw),
        (ScoringPointSystemCode.DRAW_WITH_BLACK, table.draw),
        (ScoringPointSystemCode.LOSS_WITH_WHITE, table.loss),
        (ScoringPointSystemCode.LOSS_WITH_BLACK, table.loss),
        (ScoringPointSystemCode.FORFEIT_WIN, table.win),
        (ScoringPointSystemCode.FORFEIT_LOSS, table.loss),
        (ScoringPointSystemCode.PAIRING_ALLOCATED_BYE, table.bye),
        (ScoringPointSystemCode.ZERO_POINT_BYE, 0),
        (ScoringPointSystemCode.HALF_POINT_BYE, table.draw),
        (ScoringPointSystemCode.FULL_POINT_BYE, table.win),
    ):
        system.apply_code(code, value * 5)
    return system
