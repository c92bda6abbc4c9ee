"""Autocomplete finds a piece by every name the rule book teaches for it (``/tora rules``
shows "Phoenix (K)", also asked by "king"), not only by the letters its tile shows."""

from __future__ import annotations

from bot.i18n import speaking
from bot.service import finding
from rules import game_type


def _found(game_id: str, typed: str) -> list[str]:
    kind = game_type(game_id)
    game = kind.new_game(kind.check_options({}), {})
    return [finding.shown(e) for e in finding.best(typed, finding.entries(game), 25)]


def test_the_phoenix_is_found_by_its_letter_and_as_the_king() -> None:
    for typed in ("K", "k", "king", "Ph", "phoenix"):
        found = _found("torishogi", typed)
        assert found and all(shown.startswith("Phoenix (Ph) 4g:") for shown in found), typed


def test_the_quails_are_found_by_the_rule_texts_labels() -> None:
    """The rule text's diagrams label the Quails ``Ql`` and ``Qr`` (their tiles show LQ and
    RQ): a player typing those finds that Quail's moves."""
    for typed, piece in (("Ql", "Left Quail (LQ) 7g:"), ("qr", "Right Quail (RQ) 1g:")):
        found = _found("torishogi", typed)
        assert found and all(shown.startswith(piece) for shown in found), typed


def test_a_suggestion_is_shown_in_the_readers_language_and_found_by_its_notation() -> None:
    """Regression: ``/tora act``'s suggestions showed the actions in English words to every
    player (the menu's label and the action's were glued into one English string)."""
    kind = game_type("torishogi")
    game = kind.new_game(kind.check_options({}), {})
    found = finding.best("5e", finding.entries(game), 25)
    with speaking("de"):
        assert [finding.shown(entry) for entry in found] == [
            "Swallow (Sw) 5e: nach 5d, schlägt den Swallow"
        ]
    assert [finding.shown(entry) for entry in found] == [
        "Swallow (Sw) 5e: to 5d, capturing the Swallow"
    ]
