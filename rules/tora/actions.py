"""Actions (R8, R51): one operation of one piece, or a game-level act.

An ``Action`` is fully specified (its whole path, its supporters), so applying it is exact.
Its canonical text depends on the position (``via`` and ``with`` are written only when they
are needed to tell it apart), so that text comes from ``Game.notation``; ``Action.full_text``
always writes everything.
"""

from __future__ import annotations

from typing import NamedTuple

from .geometry import DIRECTIONS, name

MOVE = "move"  # move and/or attack, landing attacks included
STANCE = "stance"
FIRE = "fire"
READY = "ready"
SEARCH = "search"
CROWN = "crown"
RESIGN = "resign"
DRAW = "draw"
RESET = "reset"
FORFEIT = "forfeit"  # the host's verdict on missed turns, never typed by a player
GAME_LEVEL = frozenset({RESIGN, DRAW, RESET})


class Action(NamedTuple):
    """One action, immutable. A named tuple, not a frozen dataclass: the generators make one
    per legal action of every position a search visits, and a tuple is made several times
    faster (its equality, hash and text are the dataclass's, field for field)."""

    kind: str
    letter: str = ""
    origin: int = 0
    path: tuple[int, ...] = ()  # squares entered, in order; the last is where it lands
    target: int = 0  # square attacked after the move ('x'); 0 for none
    via: int = 0  # middle square of a reach-2 attack (R17); 0 for none
    stance: str = ""  # 'defend' or 'attack'
    direction: int = -1  # cannon fire direction index
    supporters: tuple[int, ...] = ()  # squares of the cannon's supporters, sorted

    @property
    def dest(self) -> int:
        return self.path[-1] if self.path else self.origin

    def full_text(self) -> str:
        """Everything spelled out: every path square, the attack's middle square, supporters."""
        return format_action(self, path_via=True, attack_via=True, supporters=True)


def format_action(
    action: Action, *, path_via: bool = False, attack_via: bool = False, supporters: bool = False
) -> str:
    """Text of an action; the flags say which optional parts to write (R51)."""
    if action.kind in GAME_LEVEL:
        return action.kind
    if action.kind == CROWN:
        return f"crown {name(action.origin)}"
    text = f"{action.letter} {name(action.origin)}"
    if action.path:
        text += f"-{name(action.path[-1])}"
        if path_via and len(action.path) > 1:
            text += " via " + " ".join(name(s) for s in action.path[:-1])
    if action.kind == MOVE and action.target:
        text += f" x {name(action.target)}"
        if attack_via and action.via:
            text += f" via {name(action.via)}"
    elif action.kind == STANCE:
        text += f" {action.stance}"
    elif action.kind == FIRE:
        text += f" fire {DIRECTIONS[action.direction]}"
    elif action.kind == READY:
        text += " ready"
    elif action.kind == SEARCH:
        text += " search"
    if supporters and action.supporters:
        text += " with " + " ".join(name(s) for s in action.supporters)
    return text
