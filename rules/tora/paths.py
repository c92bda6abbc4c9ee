"""One named path checked step by step (R3, R18, R20, R23, R31, R33), with the reason a
path is refused. ``Walk`` explores every path at once; this judges the one a player wrote."""

from __future__ import annotations

from ..errors import IllegalAction
from ..words import msg
from .geometry import distance, name, neighbours
from .movegen import BASE_REACH
from .pieces import ARCHER, CANNON, CAVALRY, COMMAND_KINDS, SOLDIER, Piece
from .position import Position

PIECE_RULE = {"G": "R13", "R": "R14", "A": "R15", "S": "R16", "H": "R18", "C": "R20", "X": "R42"}


def reach_of(pos: Position, path: tuple[int, ...], base: int, start: int) -> int:
    """The reach a path allows with its terrain (R31, R33)."""
    pen = down = False
    here = start
    for there in path:
        step_pen, step_down = pos.terrain.step(here, there)
        pen, down = pen or step_pen, down or step_down
        here = there
    return max(1, base + down - pen)


PathEffect = tuple[int, tuple[int, ...], tuple[int, ...]]  # rest square, hits, losses


def path_effect(pos: Position, piece: Piece, path: tuple[int, ...]) -> PathEffect:
    """(rest square, hits, losses) of moving ``piece`` along ``path``; IllegalAction if not."""
    rule = PIECE_RULE[piece.kind]
    here = piece.sq
    for number, there in enumerate(path, start=1):
        if distance(here, there) != 1:
            raise IllegalAction(
                "R3",
                msg(
                    "step {number} of the path, {origin} to {target}, "
                    "is not a step to a neighbouring square",
                    number=number,
                    origin=name(here),
                    target=name(there),
                ),
            )
        here = there
    end = path[-1]
    if piece.hidden:  # R40: it passes through and shares squares
        _check_reach(rule, piece, len(path), reach_of(pos, path, 3, piece.sq), path)
        return end, (), ()
    landing = pos.at(end)
    base = BASE_REACH[piece.kind]
    if piece.kind == ARCHER and landing is not None and landing.side != piece.side:
        if len(path) > 1:
            raise IllegalAction(
                "R15",
                msg(
                    "an Archer that moves 2 cannot land on an enemy; it "
                    "attacks by landing only after moving 1"
                ),
            )
        base = 1
    limit = reach_of(pos, path, base, piece.sq)
    for index, sq in enumerate(path[:-1]):
        occupant = pos.at(sq)
        if occupant is None or sq == piece.sq:
            continue
        if piece.kind != CAVALRY:
            raise IllegalAction(
                "R23", msg("the path is blocked at {square}; only Cavalry jump", square=name(sq))
            )
        if occupant.kind == SOLDIER and occupant.defending:
            if occupant.side == piece.side:
                raise IllegalAction(
                    "R18",
                    msg(
                        "Cavalry cannot jump over your defending Soldier on {square}",
                        square=name(sq),
                    ),
                )
            _check_reach(rule, piece, index + 1, limit, path)
            return 0, (occupant.id,), (piece.id,)
    _check_reach(rule, piece, len(path), limit, path)
    if landing is None:
        return end, (), ()
    if landing.side == piece.side:
        raise IllegalAction(
            "R23",
            msg("{square} holds your own piece; no piece lands on a friend", square=name(end)),
        )
    if piece.kind == CANNON:
        raise IllegalAction(
            "R20",
            msg("a Cannon moves only into an empty square; {square} is not", square=name(end)),
        )
    if piece.kind == CAVALRY and landing.kind == SOLDIER and landing.defending:
        return 0, (landing.id,), (piece.id,)
    if landing.kind in COMMAND_KINDS:
        before = path[-2] if len(path) > 1 else piece.sq
        if before != piece.sq and pos.at(before) is not None:
            raise IllegalAction(
                "R23",
                msg(
                    "the {piece} on {square} stays until the round ends, so the attacker "
                    "stops on {before}, which is occupied",
                    piece=_word(landing),
                    square=name(end),
                    before=name(before),
                ),
            )
        return before, (landing.id,), ()
    return end, (landing.id,), ()


def reach_refusal(pos: Position, piece: Piece, path: tuple[int, ...]) -> IllegalAction | None:
    """The refusal of ``path`` if it is longer than ``piece`` may go along it, its terrain
    counted (R31, R33), whatever stands on it; None if it is not."""
    base = 3 if piece.hidden else BASE_REACH[piece.kind]
    limit = reach_of(pos, path, base, piece.sq)
    try:
        _check_reach(PIECE_RULE[piece.kind], piece, len(path), limit, path)
    except IllegalAction as exc:
        return exc
    return None


def _check_reach(rule: str, piece: Piece, steps: int, limit: int, path: tuple[int, ...]) -> None:
    if steps > limit:
        raise IllegalAction(
            rule,
            msg(
                "that path is {steps} steps but this move may go only {limit} "
                "here (water and uphill take 1 away, downhill adds 1: R31, R33)",
                steps=steps,
                limit=limit,
            )
            if limit != BASE_REACH.get(piece.kind)
            else msg(
                "that path is {steps} steps; this piece moves at most {limit}",
                steps=steps,
                limit=limit,
            ),
        )


def _word(piece: Piece) -> str:
    return "Ruler" if piece.kind == "R" else "General"


def shortest_paths(size: int, start: int, end: int, limit: int = 64) -> list[tuple[int, ...]]:
    """Up to ``limit`` shortest king paths from start to end (at most 4 steps)."""
    d = distance(start, end)
    if d == 0 or d > 4:
        return []
    adj = neighbours(size)
    paths: list[tuple[int, ...]] = [()]
    for _ in range(d):
        paths = [
            (*p, nxt)
            for p in paths
            for nxt in adj[p[-1] if p else start]
            if distance(nxt, end) == d - len(p) - 1
        ][:limit]
    return paths
