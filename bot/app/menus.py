"""The Play panel's menus, worked out from the seam's groups and choices within Discord's
limits (25 options a select menu, 100 characters a label, 5 rows a message), with no
discord.py in sight: what each select offers, given where the player is in the menus.

The levels, each a select menu shown only when needed: a category of pieces (when there are
more acting pieces than a menu holds), the piece, a first step of its actions (when it has
more than a menu holds), the action. Whatever the game, every legal action is at most four
picks away; a list still too long is cut into numbered parts rather than cut short.

The actions' options start with the letters the panel's picture puts on the squares they go
to ("B · move to v6h3"), and an action the rules warn of is marked (⚠) with the warning as
its description. The rules' words (labels, descriptions, the prompt, warnings) are worded in
the reader's language here, where they are shown; the values keep the game's keys."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import _, ngettext, word
from rules.protocol import Choice, ChoiceGroup
from rules.words import frame

MOST = 25  # options in one select menu
LABEL = 100  # characters of an option's label, description or value
ACT = "="  # an option's value that stages an action starts with it
WARN = "\u26a0"  # marks an action the rules warn of


@dataclass(frozen=True)
class Nav:
    """Where the player is in the menus: the category, piece and first step picked."""

    category: str | None = None
    group: str | None = None
    step: int | None = None


@dataclass(frozen=True)
class Option:
    label: str
    value: str
    description: str = ""
    default: bool = False


@dataclass(frozen=True)
class Select:
    """One select menu: ``level`` (``c`` category, ``g`` piece, ``s`` step, ``a`` action;
    ``x`` a plan panel's saved plans, to cancel one) and the navigation above it, which its
    custom id carries."""

    level: str
    nav: Nav
    placeholder: str
    options: tuple[Option, ...]


def selects(
    groups: Sequence[ChoiceGroup],
    choices: Sequence[Choice],
    nav: Nav,
    letters: Mapping[str, str] | None = None,
    prompt: str | None = None,
) -> list[Select]:
    """The select menus for ``nav``: ``choices`` are those of ``nav.group``, ``letters``
    the picture's letter of each square (``Choice.spot``), ``prompt`` what the menu of
    groups asks for, in the game's words (default: choose a piece)."""
    letters = letters or {}
    prompt = word(prompt) if prompt else _("Choose a piece")
    out: list[Select] = []
    parts = categories(groups)
    shown = groups
    if len(parts) > 1:
        options = [
            Option(cut(f"{word(name)} ({len(members)})"), name, default=name == nav.category)
            for name, members in parts.items()
        ]
        out.append(Select("c", Nav(), _("Narrow it down first"), tuple(options)))
        if nav.category not in parts:
            return out
        shown = parts[nav.category]
    options = [
        Option(cut(word(g.label)), g.key, cut(word(g.description)), g.key == nav.group)
        for g in shown
    ]
    out.append(Select("g", Nav(nav.category), cut(prompt), tuple(options)))
    if nav.group is None or not choices:
        return out
    above = Nav(nav.category, nav.group)
    steps = first_steps(choices)
    if steps is None:
        out.append(Select("a", above, _("Choose an action"), tuple(_actions(choices, letters))))
        return out
    options = [
        Option(cut(word(step)), str(index), _step_words(members, letters), index == nav.step)
        for index, (step, members) in enumerate(steps)
    ]
    out.append(Select("s", above, _("Choose where"), tuple(options)))
    if nav.step is None or not 0 <= nav.step < len(steps):
        return out
    members = steps[nav.step][1]
    out.append(
        Select(
            "a",
            Nav(nav.category, nav.group, nav.step),
            _("Choose an action"),
            tuple(_actions(members, letters)),
        )
    )
    return out


def shown(choices: Sequence[Choice], nav: Nav) -> list[Choice]:
    """The choices the action menu at ``nav`` lists (none while a first step is to pick)."""
    steps = first_steps(choices)
    if steps is None:
        return list(choices)
    if nav.step is None or not 0 <= nav.step < len(steps):
        return []
    return steps[nav.step][1]


def categories(groups: Sequence[ChoiceGroup]) -> dict[str, list[ChoiceGroup]]:
    """The groups by category when there are more than a menu holds (else one part); a
    category still too long is cut into numbered parts."""
    if len(groups) <= MOST:
        return {"": list(groups)}
    by: dict[str, list[ChoiceGroup]] = {}
    for group in groups:
        by.setdefault(group.category, []).append(group)
    parts: dict[str, list[ChoiceGroup]] = {}
    for name, members in by.items():
        chunks = [members[i : i + MOST] for i in range(0, len(members), MOST)]
        for number, chunk in enumerate(chunks, 1):
            parts[
                name if len(chunks) == 1 else frame("{name} {number}", name=name, number=number)
            ] = chunk
    return parts


def first_steps(choices: Sequence[Choice]) -> list[tuple[str, list[Choice]]] | None:
    """The choices by the first step of their paths, or None when they fit one menu."""
    if len(choices) <= MOST and all(len(c.path) == 1 for c in choices):
        return None
    steps: dict[str, list[Choice]] = {}
    for choice in choices:
        steps.setdefault(choice.path[0] if len(choice.path) > 1 else "", []).append(choice)
    out: list[tuple[str, list[Choice]]] = []
    for step, members in steps.items():
        chunks = [members[i : i + MOST] for i in range(0, len(members), MOST)]
        for number, chunk in enumerate(chunks, 1):
            name = step or _("other")
            out.append(
                (
                    name
                    if len(chunks) == 1
                    else frame("{name} ({number})", name=name, number=number),
                    chunk,
                )
            )
    return out


def route(
    groups: Sequence[ChoiceGroup], choices: Sequence[Choice], notation: str
) -> tuple[str, str, str | None]:
    """Where the menus hold ``notation``, as ``selects`` offers it: the category (``""``
    when there is none), the group's key, and the first step's label (None when the group
    lists its actions at once). ``choices`` are those of that action's group."""
    choice = next(c for c in choices if c.notation == notation)
    category = next(
        name
        for name, members in categories(groups).items()
        if any(g.key == choice.group for g in members)
    )
    steps = first_steps(choices)
    if steps is None:
        return category, choice.group, None
    step = next(name for name, members in steps if choice in members)
    return category, choice.group, cut(step)


def _actions(choices: Sequence[Choice], letters: Mapping[str, str]) -> list[Option]:
    """An option per action: its square's letter and words (marked when the rules warn of
    it), the notation to stage, and the warning or else the notation as its description,
    which says so of an action never taken back (``Choice.final``)."""
    out = []
    for choice in choices:
        letter = letters.get(choice.spot or "")
        label = f"{letter} \u00b7 {word(choice.label)}" if letter else word(choice.label)
        if choice.warning:
            label = f"{WARN} {label}"
        about = f"{WARN} {word(choice.warning)}" if choice.warning else choice.notation
        if choice.final:
            about = _("{action} · cannot be taken back", action=about)
        out.append(Option(cut(label), cut(ACT + choice.notation), cut(about)))
    return out


def _step_words(members: Sequence[Choice], letters: Mapping[str, str]) -> str:
    """``5 actions: A, B, C``: how many actions a first step leads to, and their letters."""
    found = dict.fromkeys(
        letters[c.spot] for c in members if c.spot is not None and c.spot in letters
    )
    count = ngettext("{n} action", "{n} actions", len(members))
    return cut(f"{count}: {', '.join(found)}" if found else count)


def cut(text: str) -> str:
    """``text`` short enough for a menu's label, placeholder or value."""
    return text if len(text) <= LABEL else text[: LABEL - 1] + "\u2026"
