"""Review rK: ToriShogi's rules and notation (rules/torishogi), failing tests for what a player
would notice. The move generator, check, promotion, drops, FEN and repetition were compared
with Fairy-Stockfish (pyffish 0.0.90) on 20000 random positions and several hundred random
games and agree everywhere but the ruled Swallow-drop mate (TS7); what is left is in how a
typed move is read (TS12)."""

from __future__ import annotations

import pytest

from rules.errors import ActionError
from rules.torishogi import ToriShogiGame


def test_ts12_a_drop_written_drop_first_is_read_not_refused_for_naming_no_piece() -> None:
    """ "drop Swallow 4d" names its piece; today it is refused with "a drop names its piece,
    like 'Swallow drop 4d'", which is untrue of the text typed."""
    game = ToriShogiGame("k6/7/7/7/7/7/6K[S] w 0 1")
    try:
        move = game.parse_action("drop Swallow 4d")
    except ActionError as exc:
        pytest.fail(f"refused: {exc}")
    assert move.readable == "Swallow drop 4d"
