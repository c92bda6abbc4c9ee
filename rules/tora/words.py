"""TORA's events in plain words, for turn posts that spectators can follow without reading
notation (R51's notation stays beside them). Built from an event's own fields, so a hidden
Assassin's public form says only what the public form shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import DRAW, FORFEIT, RESET, RESIGN
from .geometry import DIRECTIONS, name
from .pieces import ASSASSIN, KIND_NAMES

if TYPE_CHECKING:
    from .view import Event

LETTERS = {**KIND_NAMES, "K": "King", "Q": "Queen"}
COMPASS_WORDS = dict(
    zip(
        DIRECTIONS,
        ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"),
        strict=True,
    )
)
GAME_WORDS = {
    RESIGN: "resigns",
    FORFEIT: "forfeits",
    DRAW: "agrees to a draw",
    RESET: "agrees to reset the board",
}


def event_words(event: Event, names: Sequence[str]) -> str:
    who = names[event.side]
    if event.text in GAME_WORDS:
        return f"{who} {GAME_WORDS[event.text]}"
    if event.text.startswith("crown "):
        return f"{who} crowns the General on {name(event.origin)}: it is their Ruler now"
    if event.text.startswith("X ?"):
        return _hidden(event, names)
    where = name(event.origin)
    moved = bool(event.path) and bool(event.rest) and event.rest != event.origin
    piece = f"{who}'s {LETTERS.get(event.letter, 'piece')}" + ("" if moved else f" on {where}")
    verbs = [f"moves {where}-{name(event.rest)}"] if moved else []
    verbs += _operation(event)
    if event.removed or event.doomed:
        verbs.append(_taking(event, names))
    elif event.shots and " fire " not in event.text:
        verbs.append(f"shoots {name(event.shots[-1][1])}, hitting nothing")
    words = f"{piece} {' and '.join(verbs) or 'stays put'}"
    return words + (f" ({event.note})" if event.note else "")


def _operation(event: Event) -> list[str]:
    """What the piece did besides moving and taking, read from its notation."""
    text = event.text
    if " fire " in text:
        direction = text.split(" fire ", 1)[1].split()[0].upper()
        return [f"fires {COMPASS_WORDS.get(direction, direction)}"]
    if text.endswith(" ready") or " ready " in text:
        return ["makes ready to fire"]
    if " defend" in text:
        return ["takes the defensive stance"]
    if text.endswith(" attack"):
        return ["stands to attack"]
    if " search" in text:
        return [f"searches around {name(event.rest or event.origin)}"]
    return []


def _taking(event: Event, names: Sequence[str]) -> str:
    verb = "shoots" if event.shots else "takes"
    taken = [_piece(names, side, letter, sq) for side, letter, sq in event.removed]
    doomed = [f"dooms the command piece on {name(sq)}" for sq in event.doomed]
    return " and ".join(([f"{verb} {_listing(taken)}"] if taken else []) + doomed)


def _hidden(event: Event, names: Sequence[str]) -> str:
    """The public form of a hidden Assassin's action: only its victims are known."""
    owner = names[event.side]
    if not event.removed and not event.doomed:
        return f"{owner}'s hidden Assassin acts, unseen"
    return f"{owner}'s hidden Assassin strikes unseen and {_taking(event, names)}"


def _piece(names: Sequence[str], side: int, letter: str, sq: int) -> str:
    kind = "Assassin" if letter == ASSASSIN else LETTERS.get(letter, "piece")
    return f"{names[side]}'s {kind} on {name(sq)}"


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
