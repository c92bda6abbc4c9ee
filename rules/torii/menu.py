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
from functools import cache

from rules.grouped import Grouped
from rules.protocol import BUILD, FROM, TO, VIA, Choice, Touch
from rules.sides import Side
from rules.words import Text, frame, msg, msg_n

from .actions import DECISIONS, PASS_TEXT, Move, flip_text
from .board import line_name, name
from .building import WON_WORDS
from .state import ALL_TILES, MONKEY, Position
from .turn import Work

MENU_LIMIT = 25
TEXT_LIMIT = 100
Segment = tuple[str, str]  # (kind, words): kind "head", "step", "build", "flip" or "won"


def build_menu(table: Mapping[Move, tuple[str, Work]], me: Side) -> tuple[Grouped, ...]:
    """The groups of a normal turn: ``table`` holds each legal move's notation and turn.

    The last answer is kept: autocomplete asks the game's ``menu()`` and ``choices()`` of
    one state in turn, both built from the same table, which the game keeps until its
    position changes (a new table then)."""
    global _last  # one answer, swapped whole: threads may share it
    last = _last
    if last is not None and last[0] is table and last[1] == me:
        return last[2]
    groups = _build_menu(table, me)
    _last = (table, me, groups)
    return groups


_last: tuple[Mapping[Move, tuple[str, Work]], Side, tuple[Grouped, ...]] | None = None


def _build_menu(table: Mapping[Move, tuple[str, Work]], me: Side) -> tuple[Grouped, ...]:
    if not table:
        passing = msg("Pass")
        only = Choice(PASS_TEXT, msg("Pass: no unused tile has a path"), (passing,), "pass")
        about = msg("no unused tile has a path (TI8)")
        return (Grouped("pass", passing, about, "pass", (only,)),)
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
    label: Text
    category: Text = msg("powers")
    if key.startswith("tile-"):
        label = msg_n(
            "Tile {tile} ({n} step)", "Tile {tile} ({n} steps)", first.tile, tile=first.tile
        )
        category = msg("tiles")
    elif key.startswith("fly-"):
        label = msg("Fly to {square} first (Crane)", square=name(first.start))
    elif key == "push":
        label = msg("Move the other Spirit first (Kitsune, tile 1)")
    else:
        label = msg("Move one of your Torii first (Boar, tile 1)")
    in_tile_group = key.startswith("tile-")
    segments = [_segments(work, me) for work in works]
    labels = [_clip(_label(work, me, in_tile_group)) for work in works]
    paths = _paths(segments, labels)
    choices = tuple(
        Choice(text, label, path, key, touches(work))
        for (text, work), label, path in zip(items, labels, paths, strict=True)
    )
    building = sum(1 for work in works if work.builds)
    description = msg_n("{n} turn", "{n} turns", len(works))
    if building:
        description = msg_n(
            "{turns}, {n} building a Torii",
            "{turns}, {n} building a Torii",
            building,
            turns=description,
        )
    return Grouped(key, label, description, category, choices, name(_origin(first)))


def _origin(work: Work) -> int:
    """Where the player's Spirit stood before the turn (before a Crane's flight)."""
    return work.start if work.fly_from is None else work.fly_from


def touches(work: Work) -> tuple[Touch, ...]:
    """The Spirit's square, the end of its flight and each landing but the last as passed,
    the last landing, and each square built on."""
    landings = work.landings
    passed = (*((work.start,) if work.fly_from is not None else ()), *landings[:-1])
    return (
        _touch(_origin(work), FROM),
        *(_touch(sq, VIA) for sq in passed),
        *(_touch(sq, TO) for sq in landings[-1:]),
        *(_touch(build.square, BUILD) for build in work.builds),
    )


@cache
def _touch(sq: int, role: str) -> Touch:
    """One square's ``Touch``, made once: a menu is made for every pick in a panel, and
    its turns touch the same few dozen squares (a ``Touch`` is immutable, shared safely)."""
    return Touch(name(sq), role)


def _label(work: Work, me: Side, in_tile_group: bool) -> str:
    """Plain words: "c3, c4, c6, then build on c6"."""
    head: list[str] = []
    if work.fly_from is not None:
        head.append(msg("fly to {square}", square=name(work.start)))
    if work.push_from is not None:
        head.append(msg("push to {square}", square=name(work.spirits[work.them])))
    if work.torii_move is not None:
        head.append(
            frame(
                "Torii {origin}-{target}",
                origin=name(work.torii_move[0]),
                target=name(work.torii_move[1]),
            )
        )
    if not in_tile_group:
        head.append(msg("tile {tile}", tile=work.tile))
    squares = ", ".join(map(name, work.landings))
    text = frame("{head}: {squares}", head=_joined(head), squares=squares) if head else squares
    for index, build in enumerate(work.builds):
        then = _build_words(build.square, build.line, build.show_line)
        text = msg("{words}, then {more}", words=text, more=then)
        if _flip_offered(work, index):
            text = frame("{words}, {more}", words=text, more=_flip_words(build.flip, me))
    if work.won is not None:
        won = frame("{words}, {more}", words=text, more=_wins(work.won))
        # past a menu's limit ``_clip`` would cut the win's words off, into plain English
        short = frame("{words}, {more}", words=text, more=_WINS)
        text = won if len(won) <= TEXT_LIMIT else short
    return text


def _joined(parts: Sequence[str]) -> str:
    """Parts said one after another, each worded: "fly to d4, tile 2"."""
    if not parts:
        return ""
    text = parts[0]
    for part in parts[1:]:
        text = frame("{words}, {more}", words=text, more=part)
    return text


def _segments(work: Work, me: Side) -> list[Segment]:
    """The turn's choices in playing order, for the menu tree."""
    out: list[Segment] = []
    if work.fly_from is not None:
        out.append(("head", msg("tile {tile}", tile=work.tile)))
    if work.push_from is not None:
        out.append(("head", msg("push to {square}", square=name(work.spirits[work.them]))))
    if work.torii_move is not None:
        origin, to = work.torii_move
        out.append(("head", frame("Torii {origin}-{target}", origin=name(origin), target=name(to))))
    first, *rest = work.landings
    if rest:
        out.append(("head", msg("first step to {square}", square=name(first))))
    else:
        out.append(("head", msg("step to {square}", square=name(first))))
    out += [("step", name(sq)) for sq in rest]
    for index, build in enumerate(work.builds):
        out.append(("build", _build_words(build.square, build.line, build.show_line)))
        if _flip_offered(work, index):
            out.append(("flip", _flip_words(build.flip, me)))
    if work.won is not None:
        out.append(("won", _wins(work.won)))
    return out


_WINS = msg("wins")  # a winning turn's last word, where its reason makes it too long


@cache
def _wins(won: str) -> Text:
    """A winning turn's last words, as its post says them ("wins: all 4 Torii built")."""
    return msg("wins: {reason}", reason=WON_WORDS[won])


def _flip_offered(work: Work, index: int) -> bool:
    """TI15: a Monkey builder chose a flip after each Torii but a winning one."""
    winning = work.won is not None and index == len(work.builds) - 1
    return work.setup.has(work.me, MONKEY) and not winning


def _build_words(sq: int, line: int, show_line: bool) -> Text:
    if show_line:
        return msg("build on {square} ({line})", square=name(sq), line=line_name(line))
    return msg("build on {square}", square=name(sq))


def _flip_words(target: Side | None, me: Side) -> Text:
    if target is None:
        return msg("no flip")
    return msg("flip your tile 1") if target == me else msg("flip the opponent's tile 1")


def _phrase(segments: Sequence[Segment]) -> str:
    """Segments in words: steps after the first run together ("then c4, c6")."""
    out: list[str] = []
    steps: list[str] = []
    for kind, words in segments:
        if kind == "step":
            steps.append(words)
            continue
        if steps:
            out.append(msg("then {squares}", squares=", ".join(steps)))
            steps = []
        out.append(words)
    if steps:
        out.append(msg("then {squares}", squares=", ".join(steps)))
    return _joined(out)


def _paths(segments: list[list[Segment]], labels: list[str]) -> list[tuple[str, ...]]:
    if len(segments) <= MENU_LIMIT:
        return [(label,) for label in labels]
    out: list[tuple[str, ...]] = [() for _ in segments]

    def walk(indices: list[int], depth: int, prefix: tuple[str, ...], carry: str) -> None:
        """``carry``: the words of levels with a single option, said with the next one."""

        def said(words: str) -> str:
            if carry and words:
                return _clip(frame("{words}, {more}", words=carry, more=words))
            return _clip(carry or words)

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
                part = said(frame("{first} … {last}", first=chunk[0], last=chunk[-1]))
                for key in chunk:
                    walk(branches[key], depth + 1, (*prefix, part, _clip(key)), "")

    walk(list(range(len(segments))), 0, (), "")
    return out


def _clip(text: str) -> str:
    """At most ``TEXT_LIMIT`` characters (a menu's): a longer text is cut, in its English
    (a cut message is no message any more; the front end cuts a long wording again)."""
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1].rstrip() + "…"


def monkey_group(after: Position, me: Side, owed: int) -> Grouped:
    """The Monkey's decisions (TI15) of ``me``, who owes ``owed`` more, on the position the
    decisions staged so far leave."""
    choices = []
    for decision in DECISIONS:
        text = flip_text(decision.flip)
        if decision.flip is None:
            label = msg("Flip no tile")
        else:
            label = _flip_label(after, decision.flip, me)
        choices.append(Choice(text, label, (label,), "monkey"))
    if after.winner() is None:
        description = msg_n(
            "{n} decision to make: one per Torii just built",
            "{n} decisions to make: one per Torii just built",
            owed,
        )
    else:  # the winning Torii owes none (TI15)
        description = msg_n(
            "{n} decision to make: one per Torii built before the winning one",
            "{n} decisions to make: one per Torii built before the winning one",
            owed,
        )
    title = msg("Monkey: flip a tile 1")
    return Grouped("monkey", title, description, msg("monkey"), tuple(choices))


def _flip_label(after: Position, flip: Side, me: Side) -> Text:
    """A Monkey's flip as a menu offers it, with what it does to the tile and, when it
    decides the builder's coming reset (TI11: their tiles 2 and 3 are used, the game not
    won), that too: a tile 1 given back then costs them the reset of all three."""
    used = bool(after.used[flip] & 1)
    if flip == me:
        if used:
            return msg("Flip your tile 1 (used -> unused)")
        return msg("Flip your tile 1 (unused -> used)")
    if after.used[flip] | 1 != ALL_TILES or after.winner() is not None:
        if used:
            return msg("Flip the opponent's tile 1 (used -> unused)")
        return msg("Flip the opponent's tile 1 (unused -> used)")
    if used:
        return msg("Flip the opponent's tile 1 (used -> unused): no reset, tiles 2 and 3 stay used")
    return msg("Flip the opponent's tile 1 (unused -> used): then all three reset to unused")
