"""py4swiss's Dutch engine made faster (bot/tournament/dutch_weights.py, dutch_validity.py)
and our first round built directly: every pairing stays the library's own as shipped, on its
published examples and on random events paired round after round."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.engines.dutch.bracket.bracket import Bracket
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.trf import TrfParser
from swiss_oracle import library_as_shipped

from bot.tournament import dutch_validity, dutch_weights
from bot.tournament.records import Colour, Outcome, PairedRound, PointsTable, RoundRecord
from bot.tournament.swiss import CannotPair, SwissPlayer, library_round, pair_round

# py4swiss's own Dutch examples (tests/data in Moritz72/py4swiss, MIT)
GOLDEN = Path(__file__).parent / "golden" / "py4swiss"
EXAMPLES = sorted(GOLDEN.glob("*.trf"))
Records = dict[int, list[RoundRecord]]
RESULTS = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS) * 6 + (Outcome.FORFEIT_WIN,)


def library_pairing(path: Path) -> list[tuple[int, int]] | str:
    try:
        return [(p.white, p.black) for p in DutchEngine.generate_pairings(TrfParser.parse(path))]
    except PairingError as error:
        return str(error)


def test_the_faster_methods_are_installed_on_the_checked_version() -> None:
    assert BracketMatcher.__init__ is dutch_weights._init
    assert BracketMatcher._set_up_computer is dutch_weights._set_up_computer
    assert BracketMatcher.add_to_weights is dutch_weights._add_to_weights
    assert BracketMatcher.finalize_match is dutch_weights._finalize_match
    assert BracketMatcher._remove_weight is dutch_weights._remove_weight
    assert BracketMatcher.remove_weights is dutch_weights._remove_weights
    assert BracketMatcher.update_matching is dutch_weights._update_matching
    assert ValidityMatcher.__init__ is dutch_validity._init
    assert ValidityMatcher.is_allowed_pair is dutch_validity.is_allowed_pair
    assert ValidityMatcher.finalize_match is dutch_validity._finalize_match
    assert ValidityMatcher.is_valid_matching is dutch_validity._is_valid_matching


def test_every_player_attribute_is_either_weighed_or_asked_pair_by_pair() -> None:
    """A py4swiss that gave its players a new attribute must be checked again."""
    fields = set(Player.model_fields)
    assert fields == {*dutch_weights.WEIGHED, "color_preference", *dutch_weights.PER_PAIR}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_the_librarys_examples_pair_the_same_faster(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoised = library_pairing(path)
    library_as_shipped(monkeypatch)
    assert memoised == library_pairing(path)


def paired(
    players: list[SwissPlayer],
    history: Records,
    rounds: int,
    table: PointsTable,
) -> PairedRound | str:
    """Our pairing of the next round (the first built directly, the rest by the library with
    our faster methods), or the refusal."""
    try:
        return pair_round(players, history, rounds, table)
    except CannotPair as refusal:
        return str(refusal)


def shipped(
    players: list[SwissPlayer],
    history: Records,
    rounds: int,
    table: PointsTable,
) -> PairedRound | str:
    """py4swiss's pairing as shipped, every round through its engine."""
    with pytest.MonkeyPatch.context() as patch:
        library_as_shipped(patch)
        try:
            return library_round(players, history, rounds, table)
        except CannotPair as refusal:
            return str(refusal)


def play(paired: PairedRound, history: Records, rng: random.Random) -> None:
    """Random results, a forfeit now and then (the two may meet again: not a played game)."""
    for board in paired.boards:
        outcome = rng.choice(RESULTS)
        history.setdefault(board.first, []).append(RoundRecord(outcome, board.second, Colour.FIRST))
        history.setdefault(board.second, []).append(
            RoundRecord(outcome.opposite, board.first, Colour.SECOND)
        )
    if paired.bye is not None:
        history.setdefault(paired.bye, []).append(RoundRecord(Outcome.BYE))


@dataclass
class Event:
    """A Swiss run round after round, entrants withdrawing and entering late on the way."""

    players: list[SwissPlayer]
    rounds: int
    table: PointsTable
    rng: random.Random
    history: Records = field(default_factory=dict)

    def between_rounds(self) -> None:
        roll = self.rng.random()
        active = [i for i, p in enumerate(self.players) if p.active]
        if roll < 0.25 and len(active) > 2:
            i = self.rng.choice(active)
            self.players[i] = replace(self.players[i], active=False)
        elif roll < 0.4:
            entrant = len(self.players) + 1
            self.players.append(SwissPlayer(entrant, self.rng.randrange(1000, 2500)))
        played = max(map(len, self.history.values()), default=0)
        for player in self.players:  # a withdrawn player is absent from the rounds they miss
            records = self.history.setdefault(player.player_id, [])
            if not player.active and len(records) < played:
                records.append(RoundRecord(Outcome.ABSENT))


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=48),
    rounds=st.integers(min_value=2, max_value=11),
    bye=st.sampled_from((0, 1, 2)),
    seed=st.integers(0, 10**6),
)
def test_random_events_pair_as_the_library_ships_every_round(
    count: int, rounds: int, bye: int, seed: int
) -> None:
    """Floats, colour preferences, byes worth 0 to a point, withdrawals, late entries, forfeits,
    odd and even counts, to the last round (topscorers) or until no pairing is left."""
    rng = random.Random(seed)
    players = [SwissPlayer(p, rng.randrange(1000, 2500)) for p in range(1, count + 1)]
    event = Event(players, rounds, PointsTable(bye=bye), rng)
    for _ in range(rounds):
        ours = paired(event.players, event.history, rounds, event.table)
        assert ours == shipped(event.players, event.history, rounds, event.table)
        if isinstance(ours, str):
            return
        play(ours, event.history, rng)
        event.between_rounds()


def test_brackets_are_matched_without_the_next_group_or_with_stand_ins_and_pair_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Events of 60-90 players, 8 rounds: brackets that pair among themselves leave the next
    score group out, odd ones take a few stand-ins from it, the rest all of it; every round
    pairs as the library ships it."""
    kinds = {"without": 0, "stand-ins": 0, "all": 0}
    graph_players = dutch_weights._graph_players

    def counted(bracket: Bracket, validity: ValidityMatcher) -> list[Player]:
        chosen = graph_players(bracket, validity)
        lower = len(chosen) - len(bracket.mdp_list) - len(bracket.resident_list)
        if bracket.lower_list:
            full = lower == len(bracket.lower_list)
            kinds["all" if full else "stand-ins" if lower else "without"] += 1
        return chosen

    monkeypatch.setattr(dutch_weights, "_graph_players", counted)
    for seed, count in enumerate((60, 75, 90)):
        rng = random.Random(seed)
        players = [SwissPlayer(p, rng.randrange(1000, 2500)) for p in range(1, count + 1)]
        event = Event(players, 8, PointsTable(), rng)
        for _ in range(8):
            ours = paired(event.players, event.history, 8, event.table)
            assert ours == shipped(event.players, event.history, 8, event.table)
            assert not isinstance(ours, str)
            play(ours, event.history, rng)
            event.between_rounds()
    assert min(kinds.values()) > 0, kinds
