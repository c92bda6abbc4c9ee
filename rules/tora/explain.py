"""Why an action is refused: the rule that forbids it, in words, and what is allowed."""

from __future__ import annotations

from typing import Protocol

from ..errors import IllegalAction
from .actions import CROWN, FIRE, MOVE, READY, SEARCH, STANCE, Action
from .geometry import DELTAS, DIRECTIONS, distance, middles, name, neighbours, on_board
from .movegen import crown_actions, piece_actions, supporter_choices
from .notation import Spec
from .paths import PIECE_RULE, path_effect, shortest_paths
from .pieces import ARCHER, CANNON, CAVALRY, GENERAL, RULER, SOLDIER, Piece
from .position import Position

ATTACK_REACH = {GENERAL: 1, RULER: 2, ARCHER: 2, "X": 1}


class Reader(Protocol):
    """What an explanation reads (``rules.tora.resolve.Resolver``): the position, and how
    the rules name pieces, write actions and list the legal ones."""

    @property
    def pos(self) -> Position: ...

    def notation(self, action: Action) -> str: ...

    def legal_actions(self) -> list[Action]: ...

    def kind_name(self, piece: Piece) -> str: ...


def explain(reader: Reader, spec: Spec, piece: Piece | None) -> IllegalAction:
    pos = reader.pos
    if spec.kind == CROWN or pos.crown_pending[pos.side]:
        return _crown(reader, spec)
    if piece is None:
        return _not_yours(reader, spec)
    allowed = [reader.notation(a) for a, _e in piece_actions(pos, piece)]
    what = f"your {reader.kind_name(piece)} on {name(piece.sq)}"
    if pos.actions_left <= 0:
        return IllegalAction(
            "R8",
            f"no actions left this turn (all {pos.actions_total} used); end the turn or undo one",
        )
    if not pos.can_act(piece):
        return IllegalAction(
            "R42",
            f"{what} made a kill and rests a full round: it may act again in round "
            f"{pos.stunned[piece.id] + 1}",
        )
    if piece.id in pos.searched:
        return IllegalAction(
            "R43", f"{what} searched this turn and found nothing: it may do nothing else this turn"
        )
    if piece.id in pos.spent:
        return IllegalAction(
            "R19", f"{what} supported a Cannon this turn and cannot act again until your next turn"
        )
    reason = _reason(reader, spec, piece, what)
    return IllegalAction(*reason, allowed)


def _crown(reader: Reader, spec: Spec) -> IllegalAction:
    pos = reader.pos
    choices = [reader.notation(a) for a, _e in crown_actions(pos)]
    if not pos.crown_pending[pos.side]:
        return IllegalAction(
            "R24", "no crown is due: you crown a General only after your Ruler is removed"
        )
    if spec.kind == CROWN:
        return IllegalAction("R24", f"{name(spec.origin)} is not one of your Generals", choices)
    return IllegalAction(
        "R24", "your Ruler was removed: crown one of your Generals before any other action", choices
    )


def _not_yours(reader: Reader, spec: Spec) -> IllegalAction:
    pos = reader.pos
    piece = pos.at(spec.origin)
    allowed = reader.legal_actions()
    texts = [reader.notation(a) for a in allowed[:12]]
    if piece is None:
        return IllegalAction("R8", f"there is no piece of yours on {name(spec.origin)}", texts)
    return IllegalAction(
        "R8",
        f"{name(spec.origin)} holds a piece of the {pos.side.other.title}; it is the "
        f"{pos.side.title}'s turn",
        texts,
    )


def _reason(reader: Reader, spec: Spec, piece: Piece, what: str) -> tuple[str, str]:
    pos = reader.pos
    kind = piece.kind
    rule = PIECE_RULE.get(kind, "R8")
    if spec.kind == STANCE:
        if kind != SOLDIER:
            return "R16", f"only Soldiers change stance; {what} has none"
        return "R16", f"{what} is already in {spec.stance} stance"
    if spec.kind in (FIRE, READY) or (kind == CANNON and spec.kind == MOVE):
        return _cannon(reader, spec, piece, what)
    if spec.kind == SEARCH and not pos.assassins:
        return "R43", "searching belongs to the Assassin rules, which this game does not use"
    if kind == SOLDIER and piece.defending:
        return (
            "R16",
            f"{what} is defending and cannot move; switch it first ({_sq('S', piece)} attack)",
        )
    if spec.target and kind in (SOLDIER, CAVALRY):
        return (
            rule,
            f"a {reader.kind_name(piece)} attacks only by landing on the enemy "
            f"(write {_sq(kind, piece)}-<square>)",
        )
    attacking = bool(spec.target) or (spec.dest and _enemy(reader, spec.dest, piece) is not None)
    if attacking and kind in (ARCHER, RULER) and piece.id in pos.attacked:
        return rule, f"{what} has already attacked this turn; it attacks at most once a turn"
    if spec.dest:
        refusal = _path_reason(reader, spec, piece)
        if refusal:
            return refusal
    if spec.target:
        return _attack_reason(reader, spec, piece, what)
    return rule, f"that is not something {what} can do now"


def _sq(letter: str, piece: Piece) -> str:
    return f"{letter} {name(piece.sq)}"


def _enemy(reader: Reader, sq: int, piece: Piece) -> Piece | None:
    other = reader.pos.at(sq)
    return other if other is not None and other.side != piece.side else None


def _path_reason(reader: Reader, spec: Spec, piece: Piece) -> tuple[str, str] | None:
    """The most telling refusal among the paths the text could mean."""
    if spec.path_via:
        candidates = [(*spec.path_via, spec.dest)]
    else:
        candidates = shortest_paths(reader.pos.size, piece.sq, spec.dest)
    if spec.dest == piece.sq:
        return PIECE_RULE[piece.kind], f"a move must leave {name(piece.sq)}; that one goes nowhere"
    if not candidates:
        reach = 4 if reader.pos.terrain.hills else 3
        return (
            PIECE_RULE[piece.kind],
            f"{name(spec.dest)} is {distance(piece.sq, spec.dest)} steps away; "
            f"no piece moves more than {reach}",
        )
    first: IllegalAction | None = None
    for path in candidates:
        try:
            _rest, hits, _losses = path_effect(reader.pos, piece, path)
        except IllegalAction as exc:
            first = first or exc
            continue
        if piece.kind == ARCHER and hits and len(path) > 1:
            return (
                "R15",
                "an Archer that moves 2 cannot land on an enemy; it moves 1 to attack by landing",
            )
        if spec.target and piece.kind == ARCHER and len(path) > 1:
            return (
                "R15",
                "an Archer that moves 2 cannot attack; move 1 and attack up to 1, "
                "or stay and attack up to 2",
            )
        if spec.target and hits:
            return (
                "R23",
                "a piece that lands on an enemy has made its attack; "
                "it cannot attack again in that action",
            )
        return None
    return (first.rule, first.reason) if first else None


def _attack_reason(reader: Reader, spec: Spec, piece: Piece, what: str) -> tuple[str, str]:
    pos = reader.pos
    victim = _enemy(reader, spec.target, piece)
    if victim is None:
        return "R23", f"there is no enemy piece to attack on {name(spec.target)}"
    frm = spec.dest or piece.sq
    reach = ATTACK_REACH.get(piece.kind, 1)
    if piece.kind == ARCHER and spec.dest:
        reach = 1
    gap = distance(frm, spec.target)
    rule = PIECE_RULE.get(piece.kind, "R23")
    if gap > reach:
        return (
            rule,
            f"{name(spec.target)} is {gap} away from {name(frm)}; "
            f"{what} attacks up to {reach} there",
        )
    if spec.attack_via and (gap != 2 or spec.attack_via not in middles(pos.size)[frm, spec.target]):
        passes = " or ".join(name(m) for m in middles(pos.size).get((frm, spec.target), ()))
        return "R17", (
            f"{name(spec.attack_via)} is not a square this attack passes over"
            + (f"; it passes {passes}" if passes else "")
        )
    if piece.kind == ARCHER and gap == 2:
        forest = pos.terrain.forest
        if spec.target in forest or (spec.attack_via and spec.attack_via in forest):
            return "R32", "an Archer cannot shoot 2 squares into or through a forest"
        return "R32", "every square this arrow could pass is forest"
    if spec.attack_via:
        return "R17", f"{name(spec.attack_via)} is not a square this attack passes over"
    return rule, f"{what} cannot make that attack"


def _cannon(reader: Reader, spec: Spec, piece: Piece, what: str) -> tuple[str, str]:
    pos = reader.pos
    if piece.kind != CANNON:
        return "R21", f"only Cannons fire or get readied; {what} cannot"
    if spec.kind == READY:
        if piece.ready:
            return "R22", f"{what} is already ready"
    elif not piece.ready:
        return "R22", f"{what} is unready since it fired; ready it first ({_sq('C', piece)} ready)"
    needed = 2
    if spec.kind == MOVE and spec.dest:
        water = pos.terrain.water
        if piece.sq in water or spec.dest in water:
            needed = 3
        if pos.at(spec.dest) is not None:
            return "R20", f"a Cannon moves only into an empty square; {name(spec.dest)} is occupied"
        if distance(piece.sq, spec.dest) > 1:
            return "R20", "a Cannon moves 1 square at a time"
    if spec.kind == FIRE:
        blocker = _first_in_line(reader, piece, spec.direction)
        if blocker is not None and blocker.side == piece.side:
            return (
                "R21",
                f"your own piece on {name(blocker.sq)} is in the line of fire "
                f"{DIRECTIONS[spec.direction]}",
            )
    if spec.supporters is not None:
        return _named_supporters(reader, spec.supporters, piece, needed)
    if not supporter_choices(pos, piece, needed):
        near = [
            p for sq in neighbours(pos.size)[piece.sq] if (p := pos.at(sq)) and p.side == piece.side
        ]
        free = [p for p in near if p.id not in pos.spent]
        wet = " (3 to move into or out of water, R31)" if needed == 3 else ""
        return "R19", (
            f"{what} needs {needed} unspent friendly pieces next to it{wet}; it has {len(free)}"
        )
    return "R20", f"{what} cannot do that"


def _named_supporters(
    reader: Reader, supporters: tuple[int, ...], piece: Piece, needed: int
) -> tuple[str, str]:
    pos = reader.pos
    if len(supporters) != needed:
        return "R19", f"this needs exactly {needed} supporters; {len(supporters)} were named"
    for sq in supporters:
        helper = pos.at(sq)
        if helper is None or helper.side != piece.side:
            return "R19", f"{name(sq)} holds no piece of yours to support the Cannon"
        if distance(sq, piece.sq) != 1:
            return "R19", f"{name(sq)} is not next to the Cannon"
        if helper.id in pos.spent:
            return "R19", f"the piece on {name(sq)} already supported a Cannon this turn"
    return "R19", "those supporters cannot be used for this"


def _first_in_line(reader: Reader, piece: Piece, direction: int) -> Piece | None:
    pos = reader.pos
    inside = on_board(pos.size)
    sq = piece.sq + DELTAS[direction]
    while sq in inside:
        if (other := pos.at(sq)) is not None:
            return other
        sq += DELTAS[direction]
    return None
