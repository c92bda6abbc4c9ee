"""A game of TORA for the host: the rules' ``Play`` and what the seam shows of it, its menus
(``rules.tora.menu``), views (``rules.tora.view``) and record (``rules.tora.transcript``).

The API follows python-chess: ``legal_actions()``, ``parse_action(text)``, ``notation(action)``,
``apply``, ``undo``, ``end_turn``, ``outcome()``. A Game copies cheaply (``copy``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..protocol import Choice, ChoiceGroup
from ..sides import Side
from ..words import Text, msg
from . import menu as menus
from .events import Event, Turn
from .options import STRATEGIES, Options
from .play import Play
from .transcript import write_record
from .view import View, build_view


class Game(Play):
    def view_for(self, viewer: Side | None) -> View:
        """What ``viewer`` may know (None: a spectator). The opponent of the player to act
        sees the board as the last turn left it; staged actions stay private until the turn
        ends (R40-R44: hidden Assassins only in their owner's view)."""
        return build_view(self, viewer)

    def menu(self) -> tuple[ChoiceGroup, ...]:
        """The legal actions grouped by the piece that acts, for menus (``rules.tora.menu``)."""
        return menus.menu(self)

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        """The actions of one group of ``menu()`` (None: of all), in words and notation."""
        return menus.choices(self, key)

    def menu_and_choices(self) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
        """``menu()`` and ``choices()`` from one list of the legal actions."""
        return menus.menu_and_choices(self)

    def prompt(self) -> Text:
        if self.pos.crown_pending[self.side]:
            return msg("Choose a General to crown")
        return msg("Choose a piece")

    def warnings(self, notations: Sequence[str]) -> tuple[str, ...]:
        """R30 before a command piece's action is staged (``rules.tora.menu.warnings``)."""
        return menus.warnings(self, notations)

    def fen(self) -> str:
        """TORA has no FEN: its position string is the judge's full record (R50), exact down
        to hidden Assassins and a series' score; ``TORA.from_fen`` replays it."""
        return write_record(self)


__all__ = ["STRATEGIES", "Event", "Game", "Options", "Turn"]
