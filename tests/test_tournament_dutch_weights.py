"""py4swiss's edge weights and pair verdicts memoised (bot/tournament/dutch_weights.py):
every pairing stays the library's own, on its published examples and on random events
paired round after round."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.trf import TrfParser
from swiss_oracle import library_as_shipped

from bot.tournament import dutch_weights
from bot.tournament.records import Colour, Outcome, PairedRound, RoundRecord
from bot.tournament.swiss import CannotPair, SwissPlayer, pair_round

# py4swiss's own Dutch examples (tests/data in Moritz72/py4swiss, MIT)
GOLDEN = Path(__file__).parent / "golden" / "py4swiss"
EXAMPLES = sorted(GOLDEN.glob("*.trf"))
RESULTS = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)


def library_pairing(path: Path) -> list[tuple[int, int]] | str:
    try:
        return [(p.white, p.black) for p in DutchEngine.generate_pairings(TrfParser.parse(path))]
    except PairingError as error:
        return str(error)


def test_the_faster_set_up_is_installed_on_the_checked_version() -> None:
    assert BracketMatcher._set_up_computer is dutch_weights._set_up_computer
    assert ValidityMatcher._set_up_computer is dutch_weights._validity_set_up
    assert BracketMatcher.add_to_weights is dutch_weights._add_to_weights
    assert BracketMatcher.finalize_match is dutch_weights._finalize_match


def test_every_player_attribute_is_either_weighed_or_asked_pair_by_pair() -> None:
    """A py4swiss that gave its players a new attribute must be checked again."""
    fields = set(Player.model_fields)
    assert fields == {*dutch_weights.WEIGHED, "color_preference", *dutch_weights.PER_PAIR}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_the_librarys_examples_pair_the_same_memoised(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoised = library_pairing(path)
    library_as_shipped(monkeypatch)
    assert memoised == library_pairing(path)


def paired(
    players: list[SwissPlayer], history: dict[int, list[RoundRecord]], rounds: int
) -> PairedRound | None:
    try:
        return pair_round(players, history, rounds)
    except CannotPair:
        return None


def play(paired: PairedRound, history: dict[int, list[RoundRecord]], rng: random.Random) -> None:
    for board in paired.boards:
        outcome = rng.choice(RESULTS)
        history[board.first].append(RoundRecord(outcome, board.second, Colour.FIRST))
        history[board.second].append(RoundRecord(outcome.opposite, board.first, Colour.SECOND))
    if paired.bye is not None:
        history[paired.bye].append(RoundRecord(Outcome.BYE))


@settings(max_examples=12, deadline=None)
@given(count=st.integers(min_value=5, max_value=40), seed=st.integers(0, 10**6))
def test_random_events_pair_the_same_memoised_every_round(count: int, seed: int) -> None:
    """Rounds with floats, colour preferences, byes and a withdrawal, both ways alike."""
    rng = random.Random(seed)
    players = [SwissPlayer(p, rng.randrange(1000, 2500)) for p in range(1, count + 1)]
    history: dict[int, list[RoundRecord]] = {p.player_id: [] for p in players}
    rounds = 7
    for round_ in range(rounds):
        if round_ == 3:
            players[0] = SwissPlayer(players[0].player_id, players[0].rating, active=False)
        memoised = paired(players, history, rounds)
        with pytest.MonkeyPatch.context() as patch:
            library_as_shipped(patch)
            assert paired(players, history, rounds) == memoised
        if memoised is None:
            return
        play(memoised, history, rng)
        if not players[0].active:
            history[players[0].player_id].append(RoundRecord(Outcome.ABSENT))
