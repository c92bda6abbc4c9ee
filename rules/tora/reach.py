"""Board geometry the jeopardy search asks again and again, worked out once per board size.

Each answer depends only on squares and distances, never on the pieces, so it is cached: the
same corridors and lines come back at every node of a search and across the searches of a turn.
"""

from __future__ import annotations

from functools import cache, lru_cache

from .bits import ball as ball_bits
from .bits import grow, inside, mask, squares_of
from .geometry import DELTAS, distances, on_board

_CACHED = 1 << 16  # entries per cache: the corridors of many turns, a few MB at most


def line_distance(a: int, b: int) -> int:
    """King steps from ``a`` to the nearest square on one of the 8 lines through ``b``."""
    dh, dv = (a >> 5) - (b >> 5), (a & 31) - (b & 31)
    return min(abs(dh), abs(dv), (abs(dh - dv) + 1) // 2, (abs(dh + dv) + 1) // 2)


@lru_cache(maxsize=_CACHED)
def ball(size: int, centre: int, radius: int) -> frozenset[int]:
    """The squares within ``radius`` king steps of ``centre``."""
    inside = on_board(size)
    return frozenset(
        sq
        for dh in range(-radius, radius + 1)
        for dv in range(-radius, radius + 1)
        if (sq := centre + (dh << 5) + dv) in inside
    )


@lru_cache(maxsize=_CACHED)
def detour(size: int, frm: int, goals: tuple[int, ...], reach: int) -> frozenset[int]:
    """The squares a path of at most ``reach`` king steps from ``frm`` to one of ``goals``
    can pass through: those within j steps of ``frm`` and ``reach - j`` of a goal, for
    some j (on bitboards: a zone's goals are many, and a square's nearest goal comes from
    growing them all at once)."""
    board = inside(size)
    towards = [mask(goals) & board]  # towards[k]: the squares within k steps of a goal
    for _ in range(reach):
        towards.append(grow(towards[-1], board))
    out = 0
    for j in range(reach + 1):
        out |= ball_bits(size, frm, j) & towards[reach - j]
    return frozenset(squares_of(out))


@lru_cache(maxsize=_CACHED)
def line_spots(size: int, frm: int, goals: tuple[int, ...], moves: int) -> frozenset[int]:
    """Squares within ``moves`` of ``frm`` on a line through one of ``goals``."""
    return frozenset(
        sq for sq in ball(size, frm, moves) if min(line_distance(sq, g) for g in goals) == 0
    )


@lru_cache(maxsize=_CACHED)
def cannon_corridor(size: int, frm: int, goals: tuple[int, ...], moves: int) -> frozenset[int]:
    """Where a Cannon with ``moves`` king steps of movement could pass or fire along to hit
    one of ``goals``: its ways to a square on a line through a goal, and those lines up to
    the goal."""
    spots = line_spots(size, frm, goals, moves)
    if not spots:
        return frozenset()
    away = distances(frm)
    tables = [distances(spot) for spot in spots]
    area = {sq for sq in ball(size, frm, moves) if away[sq] + min(t[sq] for t in tables) <= moves}
    inside = on_board(size)
    targets = set(goals)
    for start in spots:
        for delta in DELTAS:
            line, sq = [], start + delta
            while sq in inside:
                line.append(sq)
                if sq in targets:
                    area.update(line)
                sq += delta
    return frozenset(area)


@cache
def rays(size: int, target: int) -> tuple[tuple[int, ...], ...]:
    """The 8 lines leaving ``target``, nearest square first, up to the edge."""
    inside = on_board(size)
    out = []
    for delta in DELTAS:
        line, sq = [], target + delta
        while sq in inside:
            line.append(sq)
            sq += delta
        out.append(tuple(line))
    return tuple(out)


@lru_cache(maxsize=_CACHED)
def between(size: int, a: int, b: int) -> tuple[int, ...] | None:
    """The squares strictly between ``a`` and ``b`` on the line joining them, None when
    they share no line."""
    for ray in rays(size, a):
        if b in ray:
            return ray[: ray.index(b)]
    return None


@lru_cache(maxsize=_CACHED)
def ray_region(size: int, target: int, length: int) -> int:
    """The first ``length`` squares of each line leaving ``target`` and the squares next to
    them, as a bitboard: what a Cannon's way to a shot at ``target`` depends on."""
    return grow(mask(sq for ray in rays(size, target) for sq in ray[:length]), inside(size))
