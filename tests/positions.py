"""Building small test positions: clear a fresh Game, place only the pieces a case needs.

Squares are written as in the rulings (``v5h7``); pieces placed here get ids from 100 up.
"""

from __future__ import annotations

import pytest

from rules.tora import Game, IllegalAction, Piece, Side
from rules.tora.geometry import parse_square

C, O = Side.CHALLENGER, Side.OPPOSITION


def bare(board: str = "short", **options) -> Game:
    """A game with an empty board (call ``begin`` once the pieces are placed)."""
    game = Game(board=board, **options)
    for pid in list(game.pos.pieces):
        game.pos.remove(pid)
    return game


def put(game: Game, side: Side, kind: str, where: str, **fields) -> Piece:
    pid = max([99, *game.pos.pieces]) + 1
    piece = Piece(pid, side, kind, sq(game, where), **fields)
    game.pos.place(piece)
    return piece


def begin(game: Game, side: Side = C) -> Game:
    """Start ``side``'s turn afresh (actions counted from the pieces now on the board)."""
    game.pos.start_turn(side)
    return game


def sq(game: Game, where: str) -> int:
    return parse_square(where, game.pos.size)


def at(game: Game, where: str) -> Piece | None:
    return game.pos.at(sq(game, where))


HOME = {"short": ("v1h9", "v9h1"), "long": ("v1h17", "v17h1")}


def position(
    *pieces, board="short", terrain_map="", side=C, generals=True, assassins=False
) -> Game:
    """A game holding only ``pieces``: (side, kind, square[, {field: value}]), ``side`` to act.

    With ``generals`` each side also gets a General in a far corner of its home edge, so the
    game does not end by loss of command when a round ends.
    """
    g = bare(board, terrain_map=terrain_map, assassins=assassins)
    if generals:
        pieces = ((C, "G", HOME[board][0]), (O, "G", HOME[board][1]), *pieces)
    for owner, kind, where, *options in pieces:
        put(g, owner, kind, where, **(options[0] if options else {}))
    return begin(g, side)


def hidden(owner: Side, where: str) -> tuple:
    """A hidden Assassin for ``position`` (its start is recorded as the square it is on)."""
    return (owner, "X", where, {"hidden": True})


def with_assassins(*pieces, side=C, terrain_map="") -> Game:
    """A long-board Assassin game holding only ``pieces`` (and the two corner Generals)."""
    g = position(*pieces, board="long", side=side, terrain_map=terrain_map, assassins=True)
    starts = [0, 0]
    for piece in g.pos.pieces.values():
        if piece.hidden:
            starts[piece.side] = piece.sq
    g.assassin_starts = (starts[0], starts[1])
    return g


def occupant(g: Game, where: str) -> tuple[str, str] | None:
    """What stands on a square, as (side letter, kind), or None."""
    piece = at(g, where)
    return None if piece is None else (piece.side.letter, piece.kind)


def refused(g: Game, text: str, rule: str) -> str:
    """Apply ``text``, expect a refusal citing ``rule``, and return its message."""
    with pytest.raises(IllegalAction) as info:
        g.apply(text)
    assert info.value.rule == rule, str(info.value)
    return str(info.value)
