"""Where each square is on a game's pictures (``Drawing.cells``), which a web page overlays to
click: every legal action's spot and every acting piece's origin has a cell, cells lie inside
the picture and never overlap, the public and the player's pictures agree, and a drawing that
turns its board has cells that follow the turn."""

from __future__ import annotations

import itertools
import random
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from games.breakthrough import BREAKTHROUGH

from render.drawings import drawing_of
from render.pointing import Cell
from render.status import StatusInfo
from rules import ActionError, GameState, Side
from rules.registry import GAMES, game_type, register, unregister

TURNS = 4  # positions per game: the start and after each of a few random turns


@pytest.fixture(scope="module", autouse=True)
def breakthrough() -> Iterator[None]:
    register(BREAKTHROUGH)  # the generic drawing is tested on the tests' own game
    yield
    unregister(BREAKTHROUGH.id)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def positions(game_id: str, options: dict[str, Any]) -> Iterator[GameState]:
    """The game's sample start, then after each of a few seeded random turns."""
    kind = game_type(game_id)
    checked = kind.check_options(options)
    _, answers = kind.sample_setup({})
    if checked.get("assassins"):
        answers = (answers[0] | {"assassin": "v1h17"}, answers[1] | {"assassin": "v1h1"})
    game = kind.new_game(checked, answers)
    rng = random.Random(game_id)
    for _ in range(TURNS):
        yield game
        game = next_turn(game, rng)


def next_turn(game: GameState, rng: random.Random) -> GameState:
    """The game after one random action and the turn's end (actions the rules refuse on
    the way, such as a search into jeopardy, are passed over)."""
    choices = list(game.choices())
    rng.shuffle(choices)
    for choice in choices:
        trial = game.copy()
        try:
            trial.apply(choice.notation)
            trial.end_turn()
        except ActionError:
            continue
        return trial
    raise AssertionError("no action ends the turn")


CASES = [
    ("tora", {}),
    ("tora", {"board": "long", "assassins": True}),
    ("torishogi", {}),
    ("torii", {}),
    ("breakthrough", {}),
]


def ids(case: tuple[str, dict[str, Any]]) -> str:
    return case[0] + ("-long" if case[1] else "")


def no_overlap(cells: dict[str, Cell]) -> None:
    for (a, (ax, ay, asz)), (b, (bx, by, bsz)) in itertools.combinations(cells.items(), 2):
        apart = ax + asz <= bx or bx + bsz <= ax or ay + asz <= by or by + bsz <= ay
        assert apart, f"{a} and {b} overlap"


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_action_can_be_pointed_at_on_the_players_picture(
    case: tuple[str, dict[str, Any]],
) -> None:
    game_id, options = case
    drawing = drawing_of(game_id)
    for game in positions(game_id, options):
        view = game.view_for(game.side)
        cells = drawing.cells(view)
        for group in game.menu():
            assert not group.origin or group.origin in cells, group.origin
        for choice in game.choices():
            assert choice.spot in cells, (choice.label, choice.spot)
            for touch in choice.touches:
                assert touch.square in cells, (choice.label, touch)
        if drawing.turned is not None:
            turned = drawing.turned.cells(view)
            assert set(turned) == set(cells)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_cells_lie_inside_the_pictures_and_never_overlap(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    drawing = drawing_of(game_id)
    info = StatusInfo("Ann", "Bob", "")
    for game in itertools.islice(positions(game_id, options), 2):
        own, public = game.view_for(game.side), game.view_for(None)
        pictures = [(drawing.cells(own), drawing.own(own, info, None))]
        pictures.append((drawing.cells(public), drawing.board(public, info)))
        if drawing.turned is not None:
            pictures.append((drawing.turned.cells(own), drawing.turned.own(own, info, None)))
            pictures.append((drawing.turned.cells(public), drawing.turned.board(public, info)))
        for cells, png in pictures:
            width, height = png_size(png)
            for name, (x, y, size) in cells.items():
                assert x >= 0 and y >= 0 and x + size <= width and y + size <= height, name
            no_overlap(cells)


@pytest.mark.parametrize("game_id", ["torishogi", "breakthrough"])
def test_a_turned_picture_puts_the_other_side_at_the_bottom(game_id: str) -> None:
    drawing = drawing_of(game_id)
    assert drawing.turned is not None
    game = next(positions(game_id, {}))
    view = game.view_for(Side.CHALLENGER)
    cells, turned = drawing.cells(view), drawing.turned.cells(view)
    squares = [name for name in cells if "@" not in name]
    lowest = max(squares, key=lambda name: (cells[name][1], -cells[name][0]))
    highest = min(squares, key=lambda name: (turned[name][1], -turned[name][0]))
    assert lowest == highest  # the bottom-right square goes to the top left
    info = StatusInfo("Ann", "Bob", "")
    assert drawing.turned.board(view, info) != drawing.board(view, info)


def test_the_games_that_cannot_turn_their_board_say_so() -> None:
    turning = {game for game in GAMES if drawing_of(game).turned is not None}
    assert turning == {"torishogi", "breakthrough"}
