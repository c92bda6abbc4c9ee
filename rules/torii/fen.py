"""The position string: a compact, complete position, like chess's FEN.

Seven fields separated by single spaces, e.g. the start of a Deer against a Kitsune::

    6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 C on

1. The board, rank 6 first, ranks separated by ``/``, files a to f: a digit counts empty
   squares, ``c``/``o`` is a Follower of the Challenger/Opposition, ``C``/``O`` such a
   Follower under its owner's Torii.
2. The Spirits, the Challenger's first: the kind's initial (Deer, Kitsune, Crane, Monkey,
   Tatsu, Boar) and its square.
3. The supplies (Followers not on the board), Challenger's first.
4. The Torii left, Challenger's first.
5. The unused tiles of each player, Challenger's first; ``-`` when all three are used.
6. Who must decide now, ``C`` or ``O``; a digit after it counts the Monkey decisions they owe
   for the Torii the other player just built (``O2``, TI15). In a won position (a supply or
   the Torii left at 0), the winner, who moved last; or the loser with the decisions they
   still owe for the Torii built before the winner's 4th (the game ends once they are made).
7. Powers: ``on`` or ``off``.

Fields 3 and 4 follow from the board: they are checked, not trusted.
"""

from __future__ import annotations

from rules.sides import Side

from .board import SIZE, name, parse_square, square
from .state import (
    ALL_TILES,
    EMPTY,
    FOLLOWERS,
    MONKEY,
    SPIRITS,
    TORII,
    Position,
    Setup,
    check_spirits_apart,
    follower,
    gate,
)

MAX_FEN = 120
_CELL_LETTERS = {follower(Side.CHALLENGER): "c", follower(Side.OPPOSITION): "o"} | {
    gate(Side.CHALLENGER): "C",
    gate(Side.OPPOSITION): "O",
}
_LETTER_CELLS = {letter: cell for cell, letter in _CELL_LETTERS.items()}
_INITIALS = {spirit[0]: spirit for spirit in SPIRITS}
_TILE_SETS = {"-": "", **{t: t for t in ("1", "2", "3", "12", "13", "23", "123")}}


def write(pos: Position, setup: Setup) -> str:
    ranks = []
    for rank in reversed(range(SIZE)):
        text, empty = "", 0
        for file in range(SIZE):
            cell = pos.cells[square(file, rank)]
            if cell == EMPTY:
                empty += 1
                continue
            text += (str(empty) if empty else "") + _CELL_LETTERS[cell]
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    spirits = ",".join(setup.spirits[s][0] + name(pos.spirits[s]) for s in Side)
    supplies = ",".join(str(pos.supply(s)) for s in Side)
    torii = ",".join(str(pos.torii_left(s)) for s in Side)
    tiles = ",".join("".join(map(str, pos.unused(s))) or "-" for s in Side)
    side = pos.side.letter + (str(pos.owed) if pos.owed else "")
    powers = "on" if setup.powers else "off"
    return " ".join(("/".join(ranks), spirits, supplies, torii, tiles, side, powers))


def read(text: str) -> tuple[Position, Setup]:
    """The position and setup ``text`` describes; ValueError names what is wrong."""
    if len(text) > MAX_FEN:
        raise ValueError(f"a position string is at most {MAX_FEN} characters, not {len(text)}")
    fields = text.split()
    if len(fields) != 7:
        raise ValueError(f"a position string has 7 fields separated by spaces, not {len(fields)}")
    board, spirit_field, supplies, torii, tiles, side_field, powers = fields
    cells = _board(board)
    kinds, squares = _spirits(spirit_field)
    if powers not in ("on", "off"):
        raise ValueError(f"powers are 'on' or 'off', not {powers!r}")
    setup = Setup(kinds, powers == "on")
    side, owed = _side(side_field)
    used = _tiles(tiles)
    pos = Position(bytes(cells), squares, used, side, owed)
    _check_counts(pos, supplies, torii)
    _check_owed(pos, setup)
    return pos, setup


def _board(text: str) -> bytearray:
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise ValueError(f"the board has {SIZE} ranks separated by '/', not {len(ranks)}")
    cells = bytearray(SIZE * SIZE)
    for number, rank_text in zip(range(SIZE, 0, -1), ranks, strict=True):
        file = 0
        for char in rank_text:
            if char in "123456":
                file += int(char)
            elif char in _LETTER_CELLS:
                if file < SIZE:
                    cells[square(file, number - 1)] = _LETTER_CELLS[char]
                file += 1
            else:
                raise ValueError(f"rank {number}: {char!r} is not a digit or one of c, o, C, O")
            if file > SIZE:
                break
        if file != SIZE:
            raise ValueError(f"rank {number} must describe {SIZE} squares")
    return cells


def _spirits(text: str) -> tuple[tuple[str, str], tuple[int, int]]:
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("the Spirits field is two Spirits separated by ',', like Dc2,Kd5")
    kinds, squares = [], []
    for side, part in zip(Side, parts, strict=True):
        kind, sq = _INITIALS.get(part[:1]), parse_square(part[1:])
        if kind is None or sq is None:
            raise ValueError(
                f"the {side.title}'s Spirit {part!r} is not an initial (D, K, C, M, T, B) "
                "and a square"
            )
        kinds.append(kind)
        squares.append(sq)
    check_spirits_apart((squares[0], squares[1]))
    return (kinds[0], kinds[1]), (squares[0], squares[1])


def _side(text: str) -> tuple[Side, int]:
    if text[:1] not in ("C", "O") or text[1:] not in ("", "1", "2", "3"):
        raise ValueError(
            f"the side to act is C or O, with 1 to 3 Monkey decisions owed, not {text!r}"
        )
    return Side.from_letter(text[0]), int(text[1:] or 0)


def _tiles(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("the tiles field lists each side's unused tiles, like 13,123")
    used = []
    for side, part in zip(Side, parts, strict=True):
        unused = _TILE_SETS.get(part)
        if unused is None:
            raise ValueError(
                f"the {side.title}'s unused tiles {part!r} must be 1, 2 and 3 in order, or -"
            )
        used.append(ALL_TILES ^ sum(1 << (int(t) - 1) for t in unused))
    return used[0], used[1]


def _check_counts(pos: Position, supplies: str, torii: str) -> None:
    for side in Side:
        if pos.followers_on_board(side) > FOLLOWERS:
            raise ValueError(f"the {side.title} has more than {FOLLOWERS} Followers on the board")
        if pos.torii_left(side) < 0:
            raise ValueError(f"the {side.title} has more than {TORII} Torii on the board")
    expected = {
        "supplies": ",".join(str(pos.supply(s)) for s in Side),
        "Torii left": ",".join(str(pos.torii_left(s)) for s in Side),
    }
    for label, given in (("supplies", supplies), ("Torii left", torii)):
        if given != expected[label]:
            raise ValueError(f"the board leaves {label} {expected[label]}, not {given}")
    if all(pos.supply(side) == 0 or pos.torii_left(side) == 0 for side in Side):
        raise ValueError("both players cannot have won")


def _check_owed(pos: Position, setup: Setup) -> None:
    if not pos.owed:
        return
    if not setup.has(pos.side, MONKEY):
        raise ValueError("only a Monkey's owner owes decisions, with powers on (TI15)")
    winner = pos.winner()
    if winner is not None and (winner == pos.side or pos.torii_left(winner)):
        raise ValueError(
            "in a won position, Monkey decisions are owed only by the loser, for the Torii "
            "built before the winner's 4th (TI15)"
        )
    built = TORII - pos.torii_left(pos.side.other)
    if pos.owed > built:
        raise ValueError(f"{pos.owed} Monkey decisions owed, but only {built} Torii built")
