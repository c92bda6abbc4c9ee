"""The searches' shortcuts never drop what they stand in for, over random long-board
positions built around a Cannon's line (blockers, supporters, pieces around), with water,
forest, hills and Assassins at random (hypothesis):

* R25's ``_LastShot``: every helper's action after which the Cannon's shot really hits the
  target is one the shortcut lets through;
* R29's ``Near``: every piece with an action ``defences.defences`` would keep (it writes a square
  of the reach, hits a command piece, or progresses towards the goal) is one it asks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import C, O, position

from rules.tora.bounds import writes_any
from rules.tora.defences import Near, widen
from rules.tora.geometry import on_board
from rules.tora.jeopardy import ThreatSearch, _LastShot, progresses
from rules.tora.movegen import piece_actions
from rules.tora.pieces import CANNON
from rules.tora.position import Position
from rules.tora.strike import hits

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS8 = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


class _Layout:
    """Pieces placed on free squares of the long board, each square once."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[tuple[int, int]] = set()
        self.pieces: list[tuple] = []

    def put(self, side: object, kind: str, h: int, v: int, **options: bool) -> bool:
        if not (1 <= h <= 17 and 1 <= v <= 17) or (h, v) in self.used:
            return False
        self.used.add((h, v))
        self.pieces.append((side, kind, f"v{v}h{h}", options))
        return True

    def anywhere(self, side: object, kind: str) -> None:
        for _ in range(50):
            if self.put(side, kind, self.rng.randint(1, 17), self.rng.randint(1, 17)):
                return


def _cannon_line(rng: random.Random) -> Position | None:
    """A Cannon of the side to act with a line to an enemy command piece, pieces on and
    around the line, terrain and Assassins at random; None where the layout is refused."""
    attacker, defender = rng.choice(((C, O), (O, C)))
    while True:
        ch, cv = rng.randint(1, 17), rng.randint(1, 17)
        dh, dv = rng.choice(STEPS8)
        far = rng.randint(2, 9)
        th, tv = ch + dh * far, cv + dv * far
        if 1 <= th <= 17 and 1 <= tv <= 17:
            break
    lay = _Layout(rng)
    lay.put(attacker, "C", ch, cv, ready=rng.random() < 0.85)
    lay.put(defender, rng.choice("GGR"), th, tv)
    for _ in range(rng.choice((0, 1, 1, 1, 2))):  # blockers on the line
        k, kind = rng.randint(1, far - 1), rng.choice("ASSHXCG")
        defending = kind == "S" and rng.random() < 0.4
        lay.put(
            rng.choice((attacker, defender)), kind, ch + dh * k, cv + dv * k, defending=defending
        )
    around = [(ch + a, cv + b) for a, b in STEPS8]
    rng.shuffle(around)
    for h, v in around[: rng.choice((0, 1, 1, 2, 2, 3))]:  # supporters
        kind = rng.choice("ASSHGC")
        lay.put(attacker, kind, h, v, defending=kind == "S" and rng.random() < 0.3)
    for _ in range(rng.randint(1, 9)):  # pieces about
        kind = rng.choice("AASSHHCGX")
        h = rng.randint(max(1, min(ch, th) - 4), min(17, max(ch, th) + 4))
        v = rng.randint(max(1, min(cv, tv) - 4), min(17, max(cv, tv) + 4))
        ready = kind != "C" or rng.random() < 0.8
        defending = kind == "S" and rng.random() < 0.4
        lay.put(rng.choice((attacker, defender)), kind, h, v, defending=defending, ready=ready)
    for side in (attacker, defender):
        if not any(p[0] == side and p[1] in "GR" for p in lay.pieces):
            lay.anywhere(side, "G")
    for _ in range(rng.choice((0, 0, 1, 2))):  # more commanders, more actions
        lay.anywhere(attacker, "G")
    try:
        game = position(
            *lay.pieces,
            board="long",
            terrain_map=_terrain(rng, lay.used),
            side=attacker,
            generals=False,
            assassins=rng.random() < 0.3,
        )
    except Exception:  # a layout the rules refuse (a piece on water, say)
        return None
    return game.pos


def _terrain(rng: random.Random, used: set[tuple[int, int]]) -> str:
    if rng.random() < 0.5:
        return ""
    free = [f"v{v}h{h}" for h in range(1, 18) for v in range(1, 18) if (h, v) not in used]
    clauses = []
    for kind in ("water", "forest"):
        if rng.random() < 0.5:
            clauses.append(f"{kind} " + " ".join(rng.sample(free, rng.randint(3, 30))))
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 25)):
            square = f"v{rng.randint(1, 17)}h{rng.randint(1, 17)}"
            clauses.append(f"hill {square} {rng.choice(COMPASS)}")
    return "; ".join(clauses)


def _positions(seed: int) -> list[Position]:
    rng = random.Random(seed)
    found = [_cannon_line(rng) for _ in range(4)]
    return [pos.public() for pos in found if pos is not None]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_r25_a_cannons_last_shot_is_never_pruned(seed: int) -> None:
    for pos in _positions(seed):
        pos.actions_total = max(pos.actions_total, pos.actions_used + 2)
        cannons = [p for p in pos.side_pieces(pos.side) if p.kind == CANNON]
        for cannon in (c for c in cannons if c.id not in pos.spent):
            for target in pos.side_pieces(pos.side.other):
                _every_shot_let_through(pos, cannon.id, target.id)


def _every_shot_let_through(pos: Position, cannon_id: int, target_id: int) -> None:
    cannon, target = pos.pieces[cannon_id], pos.pieces[target_id]
    shot = _LastShot(pos, cannon, target.sq)
    for helper in ThreatSearch._helpers(pos, cannon):
        for every_support in (False, True):
            for _action, effect in piece_actions(pos, helper, every_support=every_support):
                if target.id in effect.hits:
                    continue
                after = pos.copy()
                after.commit(effect)
                if target.id not in after.pieces or cannon.id not in after.pieces:
                    continue
                if hits(after, after.pieces[cannon.id], target.sq):
                    assert shot.possible, (cannon, target, effect)
                    assert shot.may_help(pos, helper), (cannon, target, helper, effect)
                    assert shot.after(pos, effect), (cannon, target, effect)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_r29_a_piece_with_a_kept_defence_is_always_asked(seed: int) -> None:
    rng = random.Random(seed)
    for pos in _positions(seed):
        squares = sorted(on_board(pos.size))
        deps = set(rng.sample(squares, rng.choice((1, 2, 4, 12))))
        for depth in range(1, pos.actions_total + 1):
            zones = widen(pos, deps, depth)
            reach, goal = zones[depth - 1], tuple(zones[0])
            goals = [(goal, depth - 1)] if depth > 1 and goal else None
            near = Near(pos, reach, goal if goals else ())
            for piece in pos.side_pieces(pos.side):
                if near.may_qualify(pos, piece, depth):
                    continue
                for _action, effect in piece_actions(pos, piece):
                    assert not writes_any(pos, effect, reach), (piece, effect)
                    assert not any(pos.pieces[p].is_command for p in effect.hits), (piece, effect)
                    assert not progresses(pos, effect, goals), (piece, effect)
