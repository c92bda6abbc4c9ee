"""Autocomplete finds a piece by every name the rule book teaches for it (``/tora rules``
shows "Phoenix (K)", also asked by "king"), not only by the letters its tile shows."""

from __future__ import annotations

from bot.service import finding
from rules import game_type


def _found(game_id: str, typed: str) -> list[str]:
    kind = game_type(game_id)
    game = kind.new_game(kind.check_options({}), {})
    return [entry.shown for entry in finding.best(typed, finding.entries(game), 25)]


def test_the_phoenix_is_found_by_its_letter_and_as_the_king() -> None:
    for typed in ("K", "k", "king", "Ph", "phoenix"):
        found = _found("torishogi", typed)
        assert found and all(shown.startswith("Phoenix (Ph) 4g:") for shown in found), typed
