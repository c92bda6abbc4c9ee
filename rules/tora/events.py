"""What one TORA action did (``Event``) and the finished turns (``Turn``), and the events in
plain words, for turn posts that spectators can follow without reading notation (R51's notation
stays beside them). Words are built from an event's own fields, so a hidden Assassin's public
form says only what the public form shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..sides import Side
from ..words import Text, frame, listing, msg
from .actions import DRAW, FIRE, FORFEIT, RESET, RESIGN, Action
from .geometry import DIRECTIONS, distance, name
from .pieces import ASSASSIN, COMMAND_KINDS, KIND_NAMES, RULER, Piece
from .position import Effect, Position

HIDDEN_TEXT = "X ?"


@dataclass(frozen=True)
class Event:
    """What one action did, in a form fit for messages and board images.

    ``hidden`` marks the action of a hidden Assassin: only its owner may see this form; every
    one else gets ``public()``, which keeps what the rules announce (the attack and its victim)
    and drops where the Assassin came from and went.
    """

    side: Side
    text: str
    letter: str
    origin: int
    rest: int  # 0 when the piece itself was removed
    path: tuple[int, ...]
    shots: tuple[tuple[int, int], ...]  # (from, to) of attacks at a distance and cannon shots
    removed: tuple[tuple[Side, str, int], ...]  # pieces removed by this action
    doomed: tuple[int, ...]  # squares of command pieces doomed by this action
    hidden: bool = False
    searched: tuple[int, ...] = ()  # the nine squares a search looked at (R43)
    revealed: int = 0  # square where an Assassin became visible (R42, R43), 0 for none
    note: str = ""  # the public result in words (a ``Text``), e.g. "no Assassin found"

    def words(self, names: Sequence[str]) -> Text:
        """The action in plain words for people who do not read notation, players called
        by ``names`` (the Challenger's first): "ann's Archer moves v5h7-v4h6 and shoots
        bob's Soldier on v3h6". Only what this form of the event shows is told."""
        return event_words(self, names)

    def public(self) -> Event:
        if not self.hidden:
            return self
        victims = [sq for _side, _letter, sq in self.removed] + list(self.doomed)
        text = HIDDEN_TEXT + "".join(f" x {name(sq)}" for sq in victims)
        return replace(self, text=text, origin=0, rest=0, path=(), shots=(), hidden=False)


@dataclass
class Turn:
    """A finished turn: its actions in canonical notation and what they did."""

    side: Side
    round: int
    game: int
    texts: list[str]
    events: list[Event] = field(default_factory=list)
    round_end: tuple[tuple[Side, str, int], ...] = ()  # doomed pieces removed after this turn


def letter_of(piece: Piece, rulers: tuple[str, str]) -> str:
    """The letter a piece is written with: the Ruler as its side's K or Q."""
    return rulers[piece.side] if piece.kind == RULER else piece.kind


def action_event(
    pos: Position, rulers: tuple[str, str], action: Action, effect: Effect, text: str
) -> Event:
    """The event of ``action`` (with ``effect``, written ``text``) about to be played on
    ``pos``: what it removes, dooms and shoots at. What it reveals is added once it is played
    (``rules.tora.assassin.settle_event``)."""
    side = pos.side
    removed: list[tuple[Side, str, int]] = []
    doomed: list[int] = []
    for pid in effect.hits:
        victim = pos.pieces[pid]
        if victim.kind in COMMAND_KINDS:
            doomed.append(victim.sq)
        else:
            removed.append((victim.side, letter_of(victim, rulers), victim.sq))
    for pid in effect.losses:
        lost = pos.pieces[pid]
        removed.append((lost.side, letter_of(lost, rulers), lost.sq))
    shots: list[tuple[int, int]] = []
    if action.kind == FIRE and effect.hits:
        shots.append((action.origin, pos.pieces[effect.hits[0]].sq))
    elif action.target and distance(effect.rest, action.target) > 1:
        shots.append((effect.rest, action.target))
    piece = pos.pieces.get(effect.piece)
    return Event(
        side,
        text,
        letter_of(piece, rulers) if piece else "",
        action.origin,
        effect.rest,
        action.path,
        tuple(shots),
        tuple(removed),
        tuple(doomed),
    )


def act_event(side: Side, word: str) -> Event:
    """The event of a game-level act (``resign``, ``draw``, ``reset``, ``forfeit``)."""
    return Event(side, word, "", 0, 0, (), (), (), ())


LETTERS = {**KIND_NAMES, "K": "King", "Q": "Queen"}
COMPASS_WORDS = dict(
    zip(
        DIRECTIONS,
        (
            msg("north"),
            msg("north-east"),
            msg("east"),
            msg("south-east"),
            msg("south"),
            msg("south-west"),
            msg("west"),
            msg("north-west"),
        ),
        strict=True,
    )
)


def event_words(event: Event, names: Sequence[str]) -> Text:
    who = names[event.side]
    if event.text in GAME_LEVEL_WORDS:
        return _game_level(event.text, who)
    if event.text.startswith("crown "):
        return msg(
            "{player} crowns the General on {square}: it is their Ruler now",
            player=who,
            square=name(event.origin),
        )
    if event.text.startswith("X ?"):
        return _hidden(event, names)
    where = name(event.origin)
    moved = bool(event.path) and bool(event.rest) and event.rest != event.origin
    piece = LETTERS.get(event.letter) or msg("piece")
    verbs: list[Text] = []
    if moved:
        verbs.append(msg("moves {origin}-{target}", origin=where, target=name(event.rest)))
    verbs += _operation(event)
    if event.removed or event.doomed:
        verbs.append(_taking(event, names))
    elif event.shots and " fire " not in event.text:
        verbs.append(msg("shoots {square}, hitting nothing", square=name(event.shots[-1][1])))
    if moved:
        words = msg("{player}'s {piece} {actions}", player=who, piece=piece, actions=_and(verbs))
    elif verbs:
        words = msg(
            "{player}'s {piece} on {square} {actions}",
            player=who,
            piece=piece,
            square=where,
            actions=_and(verbs),
        )
    else:
        words = msg(
            "{player}'s {piece} on {square} stays put", player=who, piece=piece, square=where
        )
    return frame("{said} ({note})", said=words, note=event.note) if event.note else words


GAME_LEVEL_WORDS = (RESIGN, FORFEIT, DRAW, RESET)


def _game_level(text: str, who: str) -> Text:
    if text == RESIGN:
        return msg("{player} resigns", player=who)
    if text == FORFEIT:
        return msg("{player} forfeits", player=who)
    if text == DRAW:
        return msg("{player} agrees to a draw", player=who)
    return msg("{player} agrees to reset the board", player=who)


def _operation(event: Event) -> list[Text]:
    """What the piece did besides moving and taking, read from its notation."""
    text = event.text
    if " fire " in text:
        direction = text.split(" fire ", 1)[1].split()[0].upper()
        return [msg("fires {direction}", direction=COMPASS_WORDS.get(direction, direction))]
    if text.endswith(" ready") or " ready " in text:
        return [msg("makes ready to fire")]
    if " defend" in text:
        return [msg("takes the defensive stance")]
    if text.endswith(" attack"):
        return [msg("stands to attack")]
    if " search" in text:
        return [msg("searches around {square}", square=name(event.rest or event.origin))]
    return []


def _taking(event: Event, names: Sequence[str]) -> Text:
    """What the action removed and doomed: the enemy pieces it took, then its own losses."""
    taken = [
        piece_words(names, side, letter, sq)
        for side, letter, sq in event.removed
        if side != event.side
    ]
    # Only enemy pieces are hit (``Effect.hits``), so a doomed command piece is the other side's.
    enemy = names[event.side.other]
    parts = [
        msg("dooms {player}'s command piece on {square}", player=enemy, square=name(sq))
        for sq in event.doomed
    ]
    if taken and event.shots:
        parts.insert(0, msg("shoots {pieces}", pieces=listing(taken)))
    elif taken:
        parts.insert(0, msg("takes {pieces}", pieces=listing(taken)))
    lost = _lost(event, names)
    return _and([*parts, lost] if lost else parts)


def _lost(event: Event, names: Sequence[str]) -> Text | None:
    """The acting side's own losses, None for none. Only the acting piece loses them: a
    Cavalry in a trade (R18), an Assassin revealed on an enemy's square or with a piece of
    its own, which goes with it (R42, R43)."""
    own = [(letter, sq) for side, letter, sq in event.removed if side == event.side]
    if not own:
        return None
    actor = (event.letter, event.rest or event.origin)
    others = [piece_words(names, event.side, *piece) for piece in own if piece != actor]
    if others:
        return msg("is lost with {pieces}", pieces=listing(others))
    return msg("is lost")


def _and(parts: Sequence[Text]) -> Text:
    """``a and b and c``: what one piece did, each part a clause of its own."""
    said = parts[0]
    for part in parts[1:]:
        said = msg("{list} and {item}", list=said, item=part)
    return said


def _hidden(event: Event, names: Sequence[str]) -> Text:
    """The public form of a hidden Assassin's action: only its victims are known."""
    owner = names[event.side]
    if not event.removed and not event.doomed:
        return msg("{player}'s hidden Assassin acts, unseen", player=owner)
    return msg(
        "{player}'s hidden Assassin strikes unseen and {actions}",
        player=owner,
        actions=_taking(event, names),
    )


def piece_words(names: Sequence[str], side: int, letter: str, sq: int) -> Text:
    """A piece by its owner and square, in words: "bob's General on v4h5"."""
    kind = "Assassin" if letter == ASSASSIN else LETTERS.get(letter) or msg("piece")
    return msg("{player}'s {piece} on {square}", player=names[side], piece=kind, square=name(sq))
