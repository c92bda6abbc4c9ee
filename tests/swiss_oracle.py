"""py4swiss's Dutch engine as shipped: the oracle our faster pairing is held to."""

from __future__ import annotations

import pytest
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

from bot.tournament import dutch_validity, dutch_weights

dutch_weights.install()  # as bot.tournament.swiss does on import: what the tests hold to the oracle


def library_as_shipped(patch: pytest.MonkeyPatch) -> None:
    """Undo ``dutch_weights.install`` for the life of ``patch``."""
    patch.setattr(BracketMatcher, "__init__", dutch_weights.LIBRARY_INIT)
    patch.setattr(BracketMatcher, "_set_up_computer", dutch_weights.LIBRARY_SET_UP)
    patch.setattr(BracketMatcher, "add_to_weights", dutch_weights.LIBRARY_ADD_TO_WEIGHTS)
    patch.setattr(BracketMatcher, "finalize_match", dutch_weights.LIBRARY_FINALIZE_MATCH)
    patch.setattr(BracketMatcher, "_remove_weight", dutch_weights.LIBRARY_REMOVE_WEIGHT)
    patch.setattr(BracketMatcher, "remove_weights", dutch_weights.LIBRARY_REMOVE_WEIGHTS)
    patch.setattr(BracketMatcher, "update_matching", dutch_weights.LIBRARY_UPDATE_MATCHING)
    patch.setattr(ValidityMatcher, "__init__", dutch_validity.LIBRARY_INIT)
    patch.setattr(ValidityMatcher, "is_allowed_pair", dutch_validity.LIBRARY_IS_ALLOWED_PAIR)
    patch.setattr(ValidityMatcher, "finalize_match", dutch_validity.LIBRARY_FINALIZE_MATCH)
    patch.setattr(ValidityMatcher, "is_valid_matching", dutch_validity.LIBRARY_IS_VALID_MATCHING)
