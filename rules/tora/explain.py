"""Why an action is refused: the rule that forbids it, in words, and what is allowed."""

from __future__ import annotations

from typing import Protocol

from ..errors import IllegalAction
from ..words import Text, msg
from .actions import CROWN, FIRE, MOVE, READY, SEARCH, STANCE, Action
from .geometry import DELTAS, DIRECTIONS, distance, middles, name, neighbours, on_board
from .movegen import crown_actions, piece_actions, supporter_choices
from .notation import Spec
from .paths import PIECE_RULE, path_effect, reach_refusal, shortest_paths
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
    what = msg("your {piece} on {square}", piece=reader.kind_name(piece), square=name(piece.sq))
    if pos.actions_left <= 0:
        return IllegalAction(
            "R8",
            msg(
                "no actions left this turn (all {total} used); end the turn or undo one",
                total=pos.actions_total,
            ),
        )
    if not pos.can_act(piece):
        return IllegalAction(
            "R42",
            msg(
                "{what} made a kill and rests a full round: it may act again in round {round}",
                what=what,
                round=pos.stunned[piece.id] + 1,
            ),
        )
    if piece.id in pos.searched:
        return IllegalAction(
            "R43",
            msg(
                "{what} searched this turn and found nothing: it may do nothing else this turn",
                what=what,
            ),
        )
    if piece.id in pos.spent:
        return IllegalAction(
            "R19",
            msg(
                "{what} supported a Cannon this turn and cannot act again until your next turn",
                what=what,
            ),
        )
    reason = _reason(reader, spec, piece, what)
    return IllegalAction(*reason, allowed)


def _crown(reader: Reader, spec: Spec) -> IllegalAction:
    pos = reader.pos
    choices = [reader.notation(a) for a, _e in crown_actions(pos)]
    if not pos.crown_pending[pos.side] and not pos.long:
        return IllegalAction(
            "R24",
            msg(
                "no crown is due: the short board has no Ruler; "
                "a player whose General is removed loses"
            ),
        )
    if not pos.crown_pending[pos.side]:
        return IllegalAction(
            "R24", msg("no crown is due: you crown a General only after your Ruler is removed")
        )
    if spec.kind == CROWN:
        return IllegalAction(
            "R24",
            msg("{square} is not one of your Generals", square=name(spec.origin)),
            choices,
        )
    return IllegalAction(
        "R24",
        msg("your Ruler was removed: crown one of your Generals before any other action"),
        choices,
    )


def _not_yours(reader: Reader, spec: Spec) -> IllegalAction:
    pos = reader.pos
    piece = pos.at(spec.origin)
    allowed = reader.legal_actions()
    texts = [reader.notation(a) for a in allowed[:12]]
    if piece is None:
        return IllegalAction(
            "R8", msg("there is no piece of yours on {square}", square=name(spec.origin)), texts
        )
    return IllegalAction(
        "R8",
        msg(
            "{square} holds a piece of the {side}; it is the {to_act}'s turn",
            square=name(spec.origin),
            side=pos.side.other.term,
            to_act=pos.side.term,
        ),
        texts,
    )


def _reason(reader: Reader, spec: Spec, piece: Piece, what: Text) -> tuple[str, Text]:
    pos = reader.pos
    kind = piece.kind
    rule = PIECE_RULE.get(kind, "R8")
    if spec.kind == STANCE:
        if kind != SOLDIER:
            return "R16", msg("only Soldiers change stance; {what} has none", what=what)
        if spec.stance == "defend":
            return "R16", msg("{what} is already in defend stance", what=what)
        return "R16", msg("{what} is already in attack stance", what=what)
    if spec.kind in (FIRE, READY) or (kind == CANNON and spec.kind == MOVE):
        return _cannon(reader, spec, piece, what)
    if spec.kind == SEARCH and not pos.assassins:
        return "R43", msg("searching belongs to the Assassin rules, which this game does not use")
    if kind == SOLDIER and piece.defending:
        return (
            "R16",
            msg(
                "{what} is defending and cannot move; switch it first ({action})",
                what=what,
                action=_sq("S", piece, " attack"),
            ),
        )
    if spec.target and kind in (SOLDIER, CAVALRY):
        return (
            rule,
            msg(
                "a {piece} attacks only by landing on the enemy (write {action})",
                piece=reader.kind_name(piece),
                action=_sq(kind, piece, "-<square>"),
            ),
        )
    attacking = bool(spec.target) or (spec.dest and _enemy(reader, spec.dest, piece) is not None)
    if attacking and kind in (ARCHER, RULER) and piece.id in pos.attacked:
        return rule, msg(
            "{what} has already attacked this turn; it attacks at most once a turn", what=what
        )
    if spec.dest:
        refusal = _path_reason(reader, spec, piece)
        if refusal:
            return refusal
    if spec.target:
        return _attack_reason(reader, spec, piece, what)
    return rule, msg("that is not something {what} can do now", what=what)


def _sq(letter: str, piece: Piece, then: str) -> str:
    """An action of ``piece`` written out: ``S v4h8`` and what follows (``then``)."""
    return f"{letter} {name(piece.sq)}{then}"


def _enemy(reader: Reader, sq: int, piece: Piece) -> Piece | None:
    other = reader.pos.at(sq)
    return other if other is not None and other.side != piece.side else None


def _path_reason(reader: Reader, spec: Spec, piece: Piece) -> tuple[str, Text] | None:
    """The most telling refusal among the paths the text could mean."""
    if spec.path_via:
        candidates = [(*spec.path_via, spec.dest)]
    else:
        candidates = shortest_paths(reader.pos.size, piece.sq, spec.dest)
    if spec.dest == piece.sq:
        return PIECE_RULE[piece.kind], msg(
            "a move must leave {square}; that one goes nowhere", square=name(piece.sq)
        )
    if not candidates:
        reach = 4 if reader.pos.terrain.hills else 3
        return (
            PIECE_RULE[piece.kind],
            msg(
                "{square} is {steps} steps away; no piece moves more than {reach}",
                square=name(spec.dest),
                steps=distance(piece.sq, spec.dest),
                reach=reach,
            ),
        )
    # A path too long is refused for its length, even if pieces stand on it too: clearing
    # them would not make it legal (R13-R20, R31, R33).
    first: IllegalAction | None = None
    too_long: IllegalAction | None = None
    for path in candidates:
        try:
            _rest, hits, _losses = path_effect(reader.pos, piece, path)
        except IllegalAction as exc:
            first = first or exc
            too_long = too_long or reach_refusal(reader.pos, piece, path)
            continue
        if piece.kind == ARCHER and hits and len(path) > 1:
            return (
                "R15",
                msg(
                    "an Archer that moves 2 cannot land on an enemy; "
                    "it moves 1 to attack by landing"
                ),
            )
        if spec.target and piece.kind == ARCHER and len(path) > 1:
            return (
                "R15",
                msg(
                    "an Archer that moves 2 cannot attack; move 1 and attack up to 1, "
                    "or stay and attack up to 2"
                ),
            )
        if spec.target and hits:
            return (
                "R23",
                msg(
                    "a piece that lands on an enemy has made its attack; "
                    "it cannot attack again in that action"
                ),
            )
        return None
    refusal = too_long or first
    return (refusal.rule, refusal.reason) if refusal else None


def _attack_reason(reader: Reader, spec: Spec, piece: Piece, what: Text) -> tuple[str, Text]:
    pos = reader.pos
    victim = _enemy(reader, spec.target, piece)
    if victim is None:
        return "R23", msg("there is no enemy piece to attack on {square}", square=name(spec.target))
    frm = spec.dest or piece.sq
    reach = ATTACK_REACH.get(piece.kind, 1)
    if piece.kind == ARCHER and spec.dest:
        reach = 1
    gap = distance(frm, spec.target)
    rule = PIECE_RULE.get(piece.kind, "R23")
    if gap > reach:
        return (
            rule,
            msg(
                "{target} is {gap} away from {origin}; {what} attacks up to {reach} there",
                target=name(spec.target),
                gap=gap,
                origin=name(frm),
                what=what,
                reach=reach,
            ),
        )
    if spec.attack_via and (gap != 2 or spec.attack_via not in middles(pos.size)[frm, spec.target]):
        passes = [name(m) for m in middles(pos.size).get((frm, spec.target), ())]
        if not passes:
            return "R17", _not_passed(spec.attack_via)
        return "R17", msg(
            "{square} is not a square this attack passes over; it passes {passes}",
            square=name(spec.attack_via),
            passes=_either(passes),
        )
    if piece.kind == ARCHER and gap == 2:
        forest = pos.terrain.forest
        if spec.target in forest or (spec.attack_via and spec.attack_via in forest):
            return "R32", msg("an Archer cannot shoot 2 squares into or through a forest")
        return "R32", msg("every square this arrow could pass is forest")
    if spec.attack_via:
        return "R17", _not_passed(spec.attack_via)
    return rule, msg("{what} cannot make that attack", what=what)


def _not_passed(sq: int) -> Text:
    return msg("{square} is not a square this attack passes over", square=name(sq))


def _either(squares: list[str]) -> str:
    """``v4h5``, ``v4h5 or v5h5``: the squares an attack may pass."""
    said = squares[0]
    for square in squares[1:]:
        said = msg("{first} or {second}", first=said, second=square)
    return said


def _cannon(reader: Reader, spec: Spec, piece: Piece, what: Text) -> tuple[str, Text]:
    pos = reader.pos
    if piece.kind != CANNON:
        return "R21", msg("only Cannons fire or get readied; {what} cannot", what=what)
    if spec.target:  # `x <square>`: never a Cannon's form, whatever its state
        return "R21", msg(
            "a Cannon attacks only by firing in a direction (write {action})",
            action=_sq("C", piece, " fire <direction>"),
        )
    if spec.kind == READY:
        if piece.ready:
            return "R22", msg("{what} is already ready", what=what)
    elif not piece.ready:
        return "R22", msg(
            "{what} is unready since it fired; ready it first ({action})",
            what=what,
            action=_sq("C", piece, " ready"),
        )
    needed = 2
    if spec.kind == MOVE and spec.dest:
        water = pos.terrain.water
        if piece.sq in water or spec.dest in water:
            needed = 3
        if pos.at(spec.dest) is not None:
            return "R20", msg(
                "a Cannon moves only into an empty square; {square} is occupied",
                square=name(spec.dest),
            )
        if distance(piece.sq, spec.dest) > 1:
            return "R20", msg("a Cannon moves 1 square at a time")
    if spec.kind == FIRE:
        blocker = _first_in_line(reader, piece, spec.direction)
        if blocker is not None and blocker.side == piece.side:
            return (
                "R21",
                msg(
                    "your own piece on {square} is in the line of fire {direction}",
                    square=name(blocker.sq),
                    direction=DIRECTIONS[spec.direction],
                ),
            )
    if spec.supporters is not None:
        return _named_supporters(reader, spec.supporters, piece, needed)
    if not supporter_choices(pos, piece, needed):
        near = [
            p for sq in neighbours(pos.size)[piece.sq] if (p := pos.at(sq)) and p.side == piece.side
        ]
        free = [p for p in near if p.id not in pos.spent]
        if needed == 3:
            return "R19", msg(
                "{what} needs {needed} unspent friendly pieces next to it "
                "(3 to move into or out of water, R31); it has {count}",
                what=what,
                needed=needed,
                count=len(free),
            )
        return "R19", msg(
            "{what} needs {needed} unspent friendly pieces next to it; it has {count}",
            what=what,
            needed=needed,
            count=len(free),
        )
    return "R20", msg("{what} cannot do that", what=what)


def _named_supporters(
    reader: Reader, supporters: tuple[int, ...], piece: Piece, needed: int
) -> tuple[str, Text]:
    pos = reader.pos
    if len(supporters) != needed:
        return "R19", msg(
            "this needs exactly {needed} supporters; {count} were named",
            needed=needed,
            count=len(supporters),
        )
    for sq in supporters:
        helper = pos.at(sq)
        if helper is None or helper.side != piece.side:
            return "R19", msg(
                "{square} holds no piece of yours to support the Cannon", square=name(sq)
            )
        if distance(sq, piece.sq) != 1:
            return "R19", msg("{square} is not next to the Cannon", square=name(sq))
        if helper.id in pos.spent:
            return "R19", msg(
                "the piece on {square} already supported a Cannon this turn", square=name(sq)
            )
    return "R19", msg("those supporters cannot be used for this")


def _first_in_line(reader: Reader, piece: Piece, direction: int) -> Piece | None:
    pos = reader.pos
    inside = on_board(pos.size)
    sq = piece.sq + DELTAS[direction]
    while sq in inside:
        if (other := pos.at(sq)) is not None:
            return other
        sq += DELTAS[direction]
    return None
