"""The legal actions grouped for menus (``ChoiceGroup``), at most 25 options per menu step.

Groups: one per tile with a path (turns without a power used), one per square the Crane may
fly to, one for the Kitsune's push and one for the Boar's Torii move, ``pass`` when TI8 leaves
nothing else, and ``monkey`` for a Monkey decision. A group of more than 25 turns is a tree:
each turn's path is its choices in playing order (the first step, each next step, each
build, each flip), and the tail of the path is written out in one step as soon as what is
left under a node fits one menu.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.grouped import Grouped
from rules.protocol import BUILD, FROM, TO, VIA, Choice, Touch
from rules.sides import Side

from .actions import DECISIONS, PASS_TEXT, Move, flip_text
from .board import line_name, name
from .state import MONKEY, Position
from .turn import Work

MENU_LIMIT = 25
TEXT_LIMIT = 100
Segment = tuple[str, str]  # (kind, words): kind "head", "step", "build" or "flip"


def build_menu(table: Mapping[Move, tuple[str, Work]], me: Side) -> tuple[Grouped, ...]:
    """The groups of a normal turn: ``table`` holds each legal move's notation and turn."""
    if not table:
        only = Choice(PASS_TEXT, "Pass: no unused tile has a path", ("Pass",), "pass")
        return (Grouped("pass", "Pass", "no unused tile has a path (TI8)", "pass", (only,)),)
    grouped: dict[str, list[tuple[str, Work]]] = {}
    for text, work in table.values():
        grouped.setdefault(_group_key(work), []).append((text, work))
    return tuple(_group(key, items, me) for key, items in grouped.items())


def _group_key(work: Work) -> str:
    if work.fly_from is not None:
        return f"fly-{name(work.start)}"
    if work.push_from is not None:
        return "push"
    if work.torii_move is not None:
        return "torii-move"
    return f"tile-{work.tile}"


def _group(key: str, items: list[tuple[str, Work]], me: Side) -> Grouped:
    works = [work for _text, work in items]
    first = works[0]
    if key.startswith("tile-"):
        plural = "s" * (first.tile != 1)
        label, category = f"Tile {first.tile} ({first.tile} step{plural})", "tiles"
    elif key.startswith("fly-"):
        label, category = f"Fly to {name(first.start)} first (Crane)", "powers"
    elif key == "push":
        label, category = "Move the other Spirit first (Kitsune, tile 1)", "powers"
    else:
        label, category = "Move one of your Torii first (Boar, tile 1)", "powers"
    in_tile_group = key.startswith("tile-")
    segments = [_segments(work, me) for work in works]
    labels = [_clip(_label(work, me, in_tile_group)) for work in works]
    paths = _paths(segments, labels)
    choices = tuple(
        Choice(text, label, path, key, touches(work))
        for (text, work), label, path in zip(items, labels, paths, strict=True)
    )
    building = sum(1 for work in works if work.builds)
    description = f"{len(works)} turn{'s' * (len(works) != 1)}"
    if building:
        description += f", {building} building a Torii"
    return Grouped(key, label, description, category, choices, name(_origin(first)))


def _origin(work: Work) -> int:
    """Where the player's Spirit stood before the turn (before a Crane's flight)."""
    return work.start if work.fly_from is None else work.fly_from


def touches(work: Work) -> tuple[Touch, ...]:
    """The Spirit's square, the end of its flight and each landing but the last as passed,
    the last landing, and each square built on."""
    passed = (*((work.start,) if work.fly_from is not None else ()), *work.landings[:-1])
    return (
        Touch(name(_origin(work)), FROM),
        *(Touch(name(sq), VIA) for sq in passed),
        *(Touch(name(sq), TO) for sq in work.landings[-1:]),
        *(Touch(name(build.square), BUILD) for build in work.builds),
    )


def _label(work: Work, me: Side, in_tile_group: bool) -> str:
    """Plain words: "c3, c4, c6, then build on c6"."""
    head = []
    if work.fly_from is not None:
        head.append(f"fly to {name(work.start)}")
    if work.push_from is not None:
        head.append(f"push to {name(work.spirits[work.them])}")
    if work.torii_move is not None:
        head.append(f"Torii {name(work.torii_move[0])}-{name(work.torii_move[1])}")
    if not in_tile_group:
        head.append(f"tile {work.tile}")
    text = (", ".join(head) + ": " if head else "") + ", ".join(map(name, work.landings))
    for index, build in enumerate(work.builds):
        text += ", then " + _build_words(build.square, build.line, build.show_line)
        if _flip_offered(work, index):
            text += ", " + _flip_words(build.flip, me)
    return text


def _segments(work: Work, me: Side) -> list[Segment]:
    """The turn's choices in playing order, for the menu tree."""
    out: list[Segment] = []
    if work.fly_from is not None:
        out.append(("head", f"tile {work.tile}"))
    if work.push_from is not None:
        out.append(("head", f"push to {name(work.spirits[work.them])}"))
    if work.torii_move is not None:
        origin, to = work.torii_move
        out.append(("head", f"Torii {name(origin)}-{name(to)}"))
    first, *rest = work.landings
    out.append(("head", f"{'first step' if rest else 'step'} to {name(first)}"))
    out += [("step", name(sq)) for sq in rest]
    for index, build in enumerate(work.builds):
        out.append(("build", _build_words(build.square, build.line, build.show_line)))
        if _flip_offered(work, index):
            out.append(("flip", _flip_words(build.flip, me)))
    return out


def _flip_offered(work: Work, index: int) -> bool:
    """TI15: a Monkey builder chose a flip after each Torii but a winning one."""
    winning = work.won is not None and index == len(work.builds) - 1
    return work.setup.has(work.me, MONKEY) and not winning


def _build_words(sq: int, line: int, show_line: bool) -> str:
    return f"build on {name(sq)}" + (f" ({line_name(line)})" if show_line else "")


def _flip_words(target: Side | None, me: Side) -> str:
    if target is None:
        return "no flip"
    return "flip your tile 1" if target == me else "flip the opponent's tile 1"


def _phrase(segments: Sequence[Segment]) -> str:
    """Segments in words: steps after the first run together ("then c4, c6")."""
    out: list[str] = []
    steps: list[str] = []
    for kind, words in segments:
        if kind == "step":
            steps.append(words)
            continue
        if steps:
            out.append("then " + ", ".join(steps))
            steps = []
        out.append(words)
    if steps:
        out.append("then " + ", ".join(steps))
    return ", ".join(out)


def _paths(segments: list[list[Segment]], labels: list[str]) -> list[tuple[str, ...]]:
    if len(segments) <= MENU_LIMIT:
        return [(label,) for label in labels]
    out: list[tuple[str, ...]] = [() for _ in segments]

    def walk(indices: list[int], depth: int, prefix: tuple[str, ...], carry: str) -> None:
        """``carry``: the words of levels with a single option, said with the next one."""

        def said(words: str) -> str:
            return _clip(f"{carry}, {words}" if carry and words else carry or words)

        if len(indices) <= MENU_LIMIT:
            for i in indices:
                last = said(_phrase(segments[i][depth:]))
                out[i] = (*prefix, last) if last else prefix
            return
        branches: dict[str, list[int]] = {}
        for i in indices:
            branches.setdefault(_phrase(segments[i][depth : depth + 1]), []).append(i)
        keys = list(branches)
        if len(keys) == 1:
            walk(indices, depth + 1, prefix, said(keys[0]))
        elif len(keys) <= MENU_LIMIT:
            for key in keys:
                walk(branches[key], depth + 1, (*prefix, said(key)), "")
        else:
            for start in range(0, len(keys), MENU_LIMIT):  # wider than a menu: in parts
                chunk = keys[start : start + MENU_LIMIT]
                part = said(f"{chunk[0]} … {chunk[-1]}")
                for key in chunk:
                    walk(branches[key], depth + 1, (*prefix, part, _clip(key)), "")

    walk(list(range(len(segments))), 0, (), "")
    return out


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1].rstrip() + "…"


def monkey_group(after: Position, me: Side, owed: int) -> Grouped:
    """The Monkey's decisions (TI15) of ``me``, who owes ``owed`` more, on the position the
    decisions staged so far leave."""
    choices = []
    for decision in DECISIONS:
        text = flip_text(decision.flip)
        if decision.flip is None:
            label = "Flip no tile"
        else:
            whose = "your" if decision.flip == me else "the opponent's"
            state = "used" if after.used[decision.flip] & 1 else "unused"
            other = "unused" if state == "used" else "used"
            label = f"Flip {whose} tile 1 ({state} -> {other})"
        choices.append(Choice(text, label, (label,), "monkey"))
    description = f"{owed} decision{'s' * (owed != 1)} to make: one per Torii just built"
    return Grouped("monkey", "Monkey: flip a tile 1", description, "monkey", tuple(choices))
