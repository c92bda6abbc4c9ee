"""py4swiss's Dutch engine as shipped: the oracle our faster pairing is held to."""

from __future__ import annotations

import pytest
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

from bot.tournament import dutch_weights


def library_as_shipped(patch: pytest.MonkeyPatch) -> None:
    """Undo ``dutch_weights.install`` for the life of ``patch``."""
    patch.setattr(BracketMatcher, "_set_up_computer", dutch_weights.LIBRARY_SET_UP)
    patch.setattr(ValidityMatcher, "_set_up_computer", dutch_weights.LIBRARY_VALIDITY_SET_UP)
    patch.setattr(BracketMatcher, "add_to_weights", dutch_weights.LIBRARY_ADD_TO_WEIGHTS)
    patch.setattr(BracketMatcher, "finalize_match", dutch_weights.LIBRARY_FINALIZE_MATCH)
