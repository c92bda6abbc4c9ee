"""FEN of Fairy-Stockfish and pychess-variants (TS2), read and written in linear time.

Canonical form: ``rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1``. Read as well: an
empty hand as ``[]``, no hand at all, and two ``-`` fields (castling, en passant) before the
counters; the counters themselves may be left out. Anything else is refused with a ValueError
that names the problem.
"""

from __future__ import annotations

from .board import FILES, LAST_RANK, NAMES, SIZE, file_of, square
from .movegen import attacked
from .pieces import (
    BASE,
    FEN_HAND_ORDER,
    HAND_KINDS,
    KIND_OF_LETTER,
    LETTER,
    NAME,
    PHOENIX,
    PLURAL,
    PROMOTES_TO,
    SET_COUNT,
    SWALLOW,
    code,
    kind_of,
    side_of,
)
from .position import Position

START_FEN = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1"
MAX_FEN = 200
MAX_COUNTER = 100_000


def write_fen(pos: Position) -> str:
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        out, empty = [], 0
        for file in range(SIZE):
            piece = pos.board[square(file, rank)]
            if not piece:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(_letter(piece))
        if empty:
            out.append(str(empty))
        ranks.append("".join(out))
    hand = "".join(
        LETTER[kind].lower() if side else LETTER[kind]
        for side in (0, 1)
        for kind in FEN_HAND_ORDER
        for _ in range(pos.hands[side][kind])
    )
    side = "wb"[pos.side]
    return f"{'/'.join(ranks)}[{hand or '-'}] {side} {pos.halfmove} {pos.fullmove}"


def _letter(piece: int) -> str:
    letter = LETTER[kind_of(piece)]
    return letter.lower() if side_of(piece) else letter


def parse_fen(text: str) -> Position:
    """The position of a FEN; ValueError naming what is wrong."""
    if len(text) > MAX_FEN:
        raise ValueError(f"a FEN is at most {MAX_FEN} characters, this one has {len(text)}")
    fields = text.split()
    if not fields:
        raise ValueError("the FEN is empty")
    placement, hand_text = _split_hand(fields[0])
    board = _board(placement)
    hands = _hands(hand_text)
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        raise ValueError("the side to move (w or b) must follow the board")
    halfmove, fullmove = _counters(fields[2:])
    pos = Position(board, hands, "wb".index(fields[1]), halfmove, fullmove)
    _validate(pos)
    return pos


def _split_hand(first: str) -> tuple[str, str]:
    if "[" not in first:
        if "]" in first:
            raise ValueError("the hand has a ']' but no '['")
        return first, ""
    placement, _, rest = first.partition("[")
    if not rest.endswith("]") or "]" in rest[:-1] or "[" in rest:
        raise ValueError("the hand must be one bracket pair at the end of the board, like [Ss]")
    hand = rest[:-1]
    return placement, "" if hand == "-" else hand


def _board(placement: str) -> list[int]:
    rows = placement.split("/")
    if len(rows) != SIZE:
        raise ValueError(f"the board needs {SIZE} ranks separated by '/', not {len(rows)}")
    board = [0] * (SIZE * SIZE)
    for index, row in enumerate(rows):
        rank = SIZE - 1 - index
        cells = _row(row, rank + 1)
        for file, piece in enumerate(cells):
            board[square(file, rank)] = piece
    return board


def _row(row: str, rank: int) -> list[int]:
    cells: list[int] = []
    promoted = False
    number = ""
    for char in row + " ":
        if char.isascii() and char.isdigit():
            if promoted:
                raise ValueError(f"rank {rank}: '+' must be followed by F or S")
            number += char
            continue
        if number:
            count = int(number)
            if not 1 <= count <= SIZE - len(cells):
                raise ValueError(f"rank {rank}: {number} empty squares do not fit")
            cells += [0] * count
            number = ""
        if char == " ":
            break
        if char == "+":
            if promoted:
                raise ValueError(f"rank {rank}: '++' is not a piece")
            promoted = True
            continue
        kind = KIND_OF_LETTER.get(char.upper())
        if kind is None:
            raise ValueError(f"rank {rank}: {char!r} is not a ToriShogi piece letter")
        if promoted:
            if kind not in PROMOTES_TO:
                raise ValueError(f"rank {rank}: only F and S promote, not '+{char}'")
            kind = PROMOTES_TO[kind]
            promoted = False
        cells.append(code(kind, 0 if char.isupper() else 1))
        if len(cells) > SIZE:
            raise ValueError(f"rank {rank} has more than {SIZE} squares")
    if promoted:
        raise ValueError(f"rank {rank}: '+' must be followed by F or S")
    if len(cells) != SIZE:
        raise ValueError(f"rank {rank} has {len(cells)} squares, not {SIZE}")
    return cells


def _hands(text: str) -> list[list[int]]:
    hands = [[0] * 7, [0] * 7]
    for char in text:
        kind = KIND_OF_LETTER.get(char.upper())
        if kind not in HAND_KINDS:
            raise ValueError(f"the hand holds {char!r}, which is not a piece that can be in hand")
        hands[0 if char.isupper() else 1][kind] += 1
    return hands


def _counters(rest: list[str]) -> tuple[int, int]:
    if len(rest) >= 2 and rest[0] == "-" and rest[1] == "-":
        rest = rest[2:]
    if not rest:
        return 0, 1
    if len(rest) != 2:
        raise ValueError("after the side to move come two counters (like '0 1'), or nothing")
    for field in rest:
        if not (field.isascii() and field.isdigit()) or len(field) > 6:
            raise ValueError(f"the move counter {field!r} is not a whole number")
    halfmove, fullmove = int(rest[0]), int(rest[1])
    if fullmove < 1 or fullmove > MAX_COUNTER or halfmove > MAX_COUNTER:
        raise ValueError("the move number must be between 1 and 100000")
    return halfmove, fullmove


def _validate(pos: Position) -> None:
    """Refuse positions no game can reach in ways the engine relies on."""
    board = pos.board
    phoenixes = [0, 0]
    counts = dict.fromkeys(HAND_KINDS, 0)
    swallows = [[0] * SIZE, [0] * SIZE]
    for sq, piece in enumerate(board):
        if not piece:
            continue
        kind, side = kind_of(piece), side_of(piece)
        if kind == PHOENIX:
            phoenixes[side] += 1
            continue
        counts[BASE[kind]] += 1
        if kind == SWALLOW:
            if sq in LAST_RANK[side]:
                raise ValueError(f"an unpromoted Swallow on {NAMES[sq]} could never move (TS6)")
            swallows[side][file_of(sq)] += 1
    for side, who in ((0, "Challenger"), (1, "Opposition")):
        if phoenixes[side] != 1:
            raise ValueError(f"the {who} must have exactly one Phoenix, not {phoenixes[side]}")
        for file, count in enumerate(swallows[side]):
            if count > 2:
                raise ValueError(
                    f"the {who} has {count} unpromoted Swallows on file {FILES[file]} (TS7)"
                )
        for kind in HAND_KINDS:
            counts[kind] += pos.hands[side][kind]
    for kind, count in counts.items():
        if count > SET_COUNT[kind]:
            raise ValueError(f"{count} {PLURAL[kind]}, but the set has {SET_COUNT[kind]}")
    them = pos.side ^ 1
    if attacked(board, pos.kings[them], pos.side):
        raise ValueError(
            f"the side not to move has its Phoenix attacked, a position no game reaches (TS8); "
            f"the {NAME[PHOENIX]} on {NAMES[pos.kings[them]]} could be taken"
        )
