"""Review rH4: ToriShogi's refusals and words against its rulings (TS1-TS12)."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.torishogi import ToriShogiGame


def refusal(game: ToriShogiGame, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.parse_action(text)
    return caught.value


# The Crane on d2 (4f) is pinned to its Phoenix on d1 (4g) by the Left Quail on d7 (4a).
PINNED = "3l2k/7/7/7/4s2/3C3/3K3[-] w 0 1"
# The Phoenix on d1 (4g) in check from the Left Quail on d7 (4a), a Crane in hand.
CHECKED = "3l2k/7/7/7/7/7/3K3[C] w 0 1"


def play(game: ToriShogiGame, *moves: str) -> ToriShogiGame:
    for move in moves:
        game.apply(move)
        game.end_turn()
    return game


def test_ts10_a_move_that_loses_by_fourfold_repetition_is_warned_of_before_it_is_played() -> None:
    """With the start position on the board for the third time coming, the Opposition's
    Falcon move 'c6d6' recreates it a fourth time, which loses at once (TS10). The menu offers
    it as a plain "to 4b" with no ⚠ (``warnings`` answers "" for it: ToriShogi declares that
    its rules hold nothing against a legal move) and the staged move says nothing either; the
    player presses End turn and has lost. The rules do hold it against the move: it should be
    marked (``warnings``, as TORA marks R30), so the player knows before playing it."""
    game = ToriShogiGame()
    shuffle = ("d2c2", "d6c6", "c2d2", "c6d6")
    play(game, *shuffle, *shuffle, *shuffle[:3])
    losing = shuffle[3]
    assert losing in {m.uci for m in game.legal_actions()}
    assert play(game.copy(), losing).outcome().reason == "fourfold repetition"  # it loses
    assert "a7a6" in {m.uci for m in game.legal_actions()}
    warning = game.warnings([losing, "a7a6"])
    assert warning[0], "a move that loses by fourfold repetition is offered without a warning"
    assert not warning[1]
