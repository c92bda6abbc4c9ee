"""Finding legal actions from what a player typed, for autocomplete: any part of an action
matches (a destination square, ``x``, ``fire``, a piece's name or letter, a word of its
plain description), ranked by how well it matches. Built from the seam's menus, so it
serves every game."""

from __future__ import annotations

from dataclasses import dataclass

from rules.protocol import ChoiceGroup, GameState


@dataclass(frozen=True)
class Entry:
    """One legal action: its notation, and the words it can be found by (lower case)."""

    notation: str
    words: tuple[str, ...]


def entries(game: GameState) -> list[Entry]:
    groups: dict[str, ChoiceGroup] = {group.key: group for group in game.menu()}
    found = []
    for choice in game.choices():
        group = groups.get(choice.group)
        where = " ".join(choice.path[:-1])  # e.g. the direction of a long menu
        described = f"{choice.notation} {choice.label} {where} {group.label if group else ''}"
        found.append(Entry(choice.notation, tuple(_words(described))))
    return found


def best(typed: str, candidates: list[Entry], limit: int) -> list[str]:
    """Up to ``limit`` notations matching every typed word, best first: the notation
    starting with what was typed, then every word at a word's start, then anywhere; ties in
    the engine's order."""
    query = typed.lower().strip()
    wanted = _words(query)
    ranked = []
    for order, entry in enumerate(candidates):
        score = _score(query, wanted, entry)
        if score is not None:
            ranked.append((score, order, entry.notation))
    ranked.sort()
    return [notation for _score, _order, notation in ranked[:limit]]


def _score(query: str, wanted: list[str], entry: Entry) -> int | None:
    if not query:
        return 0
    if entry.notation.lower().startswith(query):
        return 0
    if all(any(word.startswith(w) for word in entry.words) for w in wanted):
        return 1
    if all(any(w in word for word in entry.words) for w in wanted):
        return 2
    return None


def _words(text: str) -> list[str]:
    """Lower-case words, squares split from their dashes: ``v5h7-v4h6`` is two words."""
    return text.lower().replace("-", " ").replace(",", " ").replace("(", " ").split()
