"""From text to a legal action and back (R2, R51): resolving parsed notation against what a
piece can do, the defaults of R17, R19 and R51, ambiguity, and canonical notation."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from ..errors import AmbiguousAction, IllegalAction
from ..words import Text, msg
from .actions import CROWN, FIRE, GAME_LEVEL, MOVE, SEARCH, STANCE, Action, format_action
from .explain import explain
from .geometry import distance, name
from .movegen import crown_actions, piece_actions, search_actions
from .notation import Spec, parse
from .paths import PathEffect, path_effect, shortest_paths
from .pieces import ASSASSIN, CAVALRY, COMMAND_KINDS, RULER, Piece
from .position import Effect, Position

Pairs = list[tuple[Action, Effect]]  # each way a piece can act now, with its effect


class Resolver:
    """Reads and writes the actions of the side to act on ``pos`` (a game's current position,
    its Rulers written ``rulers``); ``legal`` lists the legal actions there, which a refusal
    offers instead. It judges only what the notation names: whether the game is going on
    at all is the game's to check."""

    def __init__(
        self, pos: Position, rulers: tuple[str, str], legal: Callable[[], list[Action]]
    ) -> None:
        self.pos = pos
        self.rulers = rulers
        self._legal = legal
        self._indexes: dict[int, PairIndex] = {}  # by the id of the pairs they index

    def legal_actions(self) -> list[Action]:
        return self._legal()

    def notation(self, action: Action) -> str:
        """Canonical text (R51): the shortest form that names exactly this action here."""
        if action.kind in GAME_LEVEL:
            return action.kind
        pairs = self.pairs(action)
        return self.written(action, self.effect(action, pairs), pairs)

    def notations(self, actions: Sequence[Action]) -> list[str]:
        """``notation`` of many actions at once: each piece's ways to act are worked out
        once, where ``notation`` works them out for every action (a long-board position
        has hundreds of actions, a few dozen per piece)."""
        known: dict[tuple[str, str, int], tuple[Pairs, dict[Action, Effect], Piece | None]] = {}
        texts = []
        for action in actions:
            if action.kind in GAME_LEVEL:
                texts.append(action.kind)
                continue
            # what ``pairs`` and ``_acting`` read of the action
            key = (action.kind if action.kind == CROWN else "", action.letter, action.origin)
            found = known.get(key)
            if found is None:
                pairs = self.pairs(action)
                found = known[key] = (pairs, _effects(pairs), self._acting(action))
            pairs, effects, piece = found
            effect = effects.get(action)
            if effect is None:  # not among its piece's ways: ``effect`` says why
                effect = self.effect(action, pairs)
            texts.append(self._written(action, effect, pairs, piece))
        return texts

    def written(self, action: Action, effect: Effect, pairs: Pairs) -> str:
        """The canonical text of ``action`` (with ``effect``), given its piece's ``pairs``."""
        return self._written(action, effect, pairs, self._acting(action))

    def _written(self, action: Action, effect: Effect, pairs: Pairs, piece: Piece | None) -> str:
        """``written``, ``piece`` the action's ``_acting``."""
        path = action.path
        dest = path[-1] if path else 0
        for path_via, attack_via, supporters in _NOTATION_FORMS:
            text = format_action(
                action, path_via=path_via, attack_via=attack_via, supporters=supporters
            )
            if text.startswith("R "):
                text = self.rulers[self.pos.side] + text[1:]
            spec = Spec(
                text,
                action.kind,
                action.letter,
                action.origin,
                dest,
                path[:-1] if path_via else (),
                action.target,
                action.via if attack_via else 0,
                action.stance,
                action.direction,
                action.supporters if supporters and action.supporters else None,
            )
            try:
                found = (
                    self.resolve(spec, pairs)
                    if piece is None
                    else self._resolve_by(spec, piece, pairs)
                )
                if found[1] == effect:
                    return text
            except (IllegalAction, AmbiguousAction):
                continue
        return self._display(action.full_text())

    def _acting(self, action: Action) -> Piece | None:
        """The piece ``resolve`` resolves a text of ``action`` for, once its checks pass
        (they read only the action's kind, letter and square, the same in all its texts);
        None where they refuse it or for a crowning: ``resolve`` then says so."""
        pos = self.pos
        if action.kind == CROWN or pos.crown_pending[pos.side]:
            return None
        piece = self._piece_on(action.origin, action.letter)
        return piece if piece is not None and self._letter_fits(action.letter, piece) else None

    def pairs(self, action: Action) -> Pairs:
        """Every way the piece the action names can act now, all supporter choices included."""
        pos = self.pos
        if action.kind == CROWN:
            return crown_actions(pos)
        piece = self._piece_on(action.origin, action.letter)
        if piece is None:
            return []
        return self._piece_pairs(piece)

    def _piece_on(self, sq: int, letter: str) -> Piece | None:
        """The piece of the side to act on ``sq``: its own hidden Assassin when the text
        names an X there, else the visible piece. Nothing here looks at the opponent's
        hidden pieces, so no answer depends on them."""
        pos = self.pos
        if letter == ASSASSIN:
            own = pos.hidden_assassin(pos.side)
            if own is not None and own.sq == sq:
                return own
        piece = pos.at(sq)
        return piece if piece is not None and piece.side == pos.side else None

    def _piece_pairs(self, piece: Piece) -> Pairs:
        pos = self.pos
        return piece_actions(pos, piece, every_support=True, distinct=False) + search_actions(
            pos, piece
        )

    def _display(self, text: str) -> str:
        """Show the Ruler as the side's K or Q."""
        if text.startswith("R "):
            return self.rulers[self.pos.side] + text[1:]
        return text

    def resolve(self, spec: Spec, pairs: Pairs | None = None) -> tuple[Action, Effect]:
        """The legal action ``spec`` names and its effect; IllegalAction says why there is
        none, AmbiguousAction lists the texts that tell the candidates apart."""
        pos = self.pos
        if spec.kind == CROWN:
            for action, effect in crown_actions(pos):
                if action.origin == spec.origin:
                    return action, effect
            raise explain(self, spec, None)
        if pos.crown_pending[pos.side]:
            raise explain(self, spec, None)
        piece = self._own_piece(spec)
        if pairs is None:
            pairs = self._piece_pairs(piece)
        return self._resolve_by(spec, piece, pairs)

    def _resolve_by(self, spec: Spec, piece: Piece, pairs: Pairs) -> tuple[Action, Effect]:
        """``resolve`` of a text of ``piece``'s, past the checks of the piece it names."""
        named = self._index(pairs).candidates(spec, piece.sq, self._may_strike(spec, piece))
        matches = [pair for pair in named if self._matches(spec, pair, piece)]
        if not matches and piece.kind == CAVALRY and spec.kind == MOVE and spec.dest:
            matches = self._attempted_jumps(spec, piece, pairs)
        if not matches:
            raise explain(self, spec, piece)
        return self._choose(spec, matches)

    def _index(self, pairs: Pairs) -> PairIndex:
        """``pairs`` indexed, once for all the notations written against them."""
        index = self._indexes.get(id(pairs))
        if index is None or index.pairs is not pairs:
            index = self._indexes[id(pairs)] = PairIndex(pairs)
        return index

    def _own_piece(self, spec: Spec) -> Piece:
        pos = self.pos
        piece = self._piece_on(spec.origin, spec.letter)
        if piece is None:
            raise explain(self, spec, None)
        if not self._letter_fits(spec.letter, piece):
            raise IllegalAction(
                "R51",
                _wrong_letter(
                    name(spec.origin),
                    self.kind_name(piece),
                    self._written_name(spec.letter, piece),
                ),
                [self.notation(a) for a, _e in piece_actions(pos, piece)],
            )
        return piece

    def _letter_fits(self, letter: str, piece: Piece) -> bool:
        """Whether ``letter`` names ``piece``'s kind (its Ruler as R or as its side's K or Q)."""
        written = "R" if letter in ("K", "Q") else letter
        wrong_ruler = piece.kind == RULER and letter not in ("R", self.rulers[piece.side])
        return written == piece.kind and not wrong_ruler

    def _may_strike(self, spec: Spec, piece: Piece) -> bool:
        """Whether a text without a target may name a strike: where it lands holds an enemy
        command piece (``_landing_on_command`` refuses every strike otherwise)."""
        victim = self.pos.at(spec.dest) if spec.dest else None
        return victim is not None and victim.kind in COMMAND_KINDS and victim.side != piece.side

    def _written_name(self, letter: str, piece: Piece) -> str:
        if letter in ("K", "Q"):
            return "King" if letter == "K" else "Queen"
        return _KIND_WORDS.get(letter, letter)

    def kind_name(self, piece: Piece) -> str:
        if piece.kind == RULER:
            return "King" if self.rulers[piece.side] == "K" else "Queen"
        return _KIND_WORDS[piece.kind]

    def _matches(self, spec: Spec, pair: tuple[Action, Effect], piece: Piece) -> bool:
        action, effect = pair
        if action.kind != spec.kind:
            return False
        if spec.supporters is not None and action.supporters != spec.supporters:
            return False
        if spec.kind == FIRE:
            return action.direction == spec.direction
        if spec.kind == STANCE:
            return action.stance == spec.stance
        if spec.kind not in (MOVE, SEARCH):
            return True
        if spec.target:
            if action.target != spec.target or (spec.attack_via and action.via != spec.attack_via):
                return False
            return self._path_matches(spec, action, effect, piece, moving_only=True)
        if action.target:  # a move and attack matches only a landing on a command piece
            return self._landing_on_command(spec, effect, piece)
        return self._path_matches(spec, action, effect, piece, moving_only=False)

    def _path_matches(
        self, spec: Spec, action: Action, effect: Effect, piece: Piece, moving_only: bool
    ) -> bool:
        if action.dest != (spec.dest or piece.sq):
            return False
        if not spec.path_via or action.path[:-1] == spec.path_via:
            return True
        named = self._named_path(spec, piece)
        if named is None:
            return False
        rest, hits, losses = named
        return rest == effect.rest and (
            moving_only or (hits, losses) == (effect.hits, effect.losses)
        )

    def _landing_on_command(self, spec: Spec, effect: Effect, piece: Piece) -> bool:
        """``G v5h9-v5h7`` onto an enemy command piece means: strike it from the square before."""
        victim = self.pos.at(spec.dest) if spec.dest else None
        if victim is None or victim.kind not in COMMAND_KINDS or victim.side == piece.side:
            return False
        if effect.hits != (victim.id,) or distance(effect.rest, spec.dest) != 1:
            return False
        if spec.path_via:
            named = self._named_path(spec, piece)
            return named is not None and named[0] == effect.rest
        return True

    def _attempted_jumps(self, spec: Spec, piece: Piece, pairs: Pairs) -> Pairs:
        """R18: a Cavalry move that can only pass over an enemy defending Soldier trades
        with it (R51 prefers a path without a trade; here there is none)."""
        paths = (
            [(*spec.path_via, spec.dest)]
            if spec.path_via
            else shortest_paths(self.pos.size, piece.sq, spec.dest)
        )
        trades = set()
        for path in paths:
            try:
                rest, hits, losses = path_effect(self.pos, piece, path)
            except IllegalAction:
                continue
            if losses:
                trades.add((rest, hits, losses))
        return [pair for pair in pairs if (pair[1].rest, pair[1].hits, pair[1].losses) in trades]

    def _named_path(self, spec: Spec, piece: Piece) -> PathEffect | None:
        try:
            return path_effect(self.pos, piece, (*spec.path_via, spec.dest))
        except IllegalAction:
            return None

    def _choose(self, spec: Spec, matches: Pairs) -> tuple[Action, Effect]:
        """Several matches: apply the defaults of R17, R19 and R51, else it is ambiguous."""
        if len(matches) == 1:  # what the defaults below leave of a single match
            return matches[0]
        effects = {effect for _a, effect in matches}
        if len(effects) > 1 and not spec.path_via:
            clean = [m for m in matches if not m[1].losses]
            matches = clean or matches
            # then a single shortest path: a direct step has no ``via`` to name it by (R51)
            shortest = min(len(action.path) for action, _e in matches)
            direct = [m for m in matches if len(m[0].path) == shortest]
            if len({e for _a, e in direct}) == 1:
                matches = direct
        if len({e for _a, e in matches}) > 1 and spec.target and not spec.attack_via:
            victim = self.pos.board.get(spec.target)
            straight = [m for m in matches if m[1].hits == (victim,)]
            matches = straight or matches
        if len({e for _a, e in matches}) > 1 and spec.supporters is None:
            default = matches[0][1].spent
            matches = [m for m in matches if m[1].spent == default]
        if len({e for _a, e in matches}) > 1:
            raise AmbiguousAction(spec.text, self._candidates(matches))
        return matches[0]

    def _candidates(self, matches: Pairs) -> list[str]:
        """Texts that tell the matching actions apart (written out in full where needed)."""
        texts: dict[Effect, str] = {}
        for action, effect in matches:
            texts.setdefault(
                effect,
                self._display(
                    format_action(
                        action,
                        path_via=len(action.path) > 1,
                        attack_via=bool(action.via),
                        supporters=bool(action.supporters),
                    )
                ),
            )
        return sorted(set(texts.values()))

    def effect(self, action: Action, pairs: Pairs | None = None) -> Effect:
        """The effect of a legal action; IllegalAction (with the reason) if it is not legal."""
        for candidate, effect in self.pairs(action) if pairs is None else pairs:
            if candidate == action:
                return effect
        return self.resolve(parse(self._display(action.full_text()), self.pos.size))[1]


def _effects(pairs: Pairs) -> dict[Action, Effect]:
    """Each action of ``pairs`` with its first effect there, as ``Resolver.effect`` finds it
    (a piece has dozens of ways to act: one look-up each instead of a scan)."""
    effects: dict[Action, Effect] = {}
    for action, effect in pairs:
        effects.setdefault(action, effect)
    return effects


class PairIndex:
    """A piece's ``pairs`` by what a notation names of them, so that a notation is matched
    against the few pairs it could name rather than all of them, in their order: moves and
    searches without a target by kind and landing square, those with one by kind and target
    (and, as a move onto an enemy command piece names the strike from the square before,
    every one with a target may match a notation that names none); the rest by kind."""

    def __init__(self, pairs: Pairs) -> None:
        self.pairs = pairs
        self._kind: dict[str, list[int]] = defaultdict(list)
        self._landing: dict[tuple[str, int], list[int]] = defaultdict(list)
        self._target: dict[tuple[str, int], list[int]] = defaultdict(list)
        self._striking: dict[str, list[int]] = defaultdict(list)
        kinds, targets, striking, landing = self._kind, self._target, self._striking, self._landing
        for n, (action, _effect) in enumerate(pairs):
            kind, target, path = action.kind, action.target, action.path
            kinds[kind].append(n)
            if target:
                targets[(kind, target)].append(n)
                striking[kind].append(n)
            else:
                landing[(kind, path[-1] if path else action.origin)].append(n)

    def candidates(self, spec: Spec, home: int, strike: bool) -> Pairs:
        """The pairs ``spec`` may name (``home``: the piece's square, where a notation
        without a destination lands; ``strike``: whether one without a target may name a
        strike from the square before); ``Resolver._matches`` decides among them."""
        if spec.kind not in (MOVE, SEARCH):
            found = self._kind.get(spec.kind, [])
        elif spec.target:
            found = self._target.get((spec.kind, spec.target), [])
        else:
            found = self._landing.get((spec.kind, spec.dest or home), [])
            if strike:
                found = sorted(found + self._striking.get(spec.kind, []))
        return [self.pairs[n] for n in found]


# R51's forms, shortest first: (path_via, attack_via, supporters) as ``format_action`` takes them
_NOTATION_FORMS = (
    (False, False, False),
    (False, True, False),
    (False, False, True),
    (False, True, True),
    (True, False, False),
    (True, True, True),
)


def _wrong_letter(square: str, piece: str, written: str) -> Text:
    """R51: the letter written names another kind than the piece on its square (English
    takes "an" before a vowel: two messages, one text in other languages)."""
    if written[0] in "AEIOU":
        return msg(
            "{square} holds your {piece}, not an {written}; the letter must match the piece",
            square=square,
            piece=piece,
            written=written,
        )
    return msg(
        "{square} holds your {piece}, not a {written}; the letter must match the piece",
        square=square,
        piece=piece,
        written=written,
    )


_KIND_WORDS = {
    "G": "General",
    "R": "Ruler",
    "A": "Archer",
    "S": "Soldier",
    "H": "Cavalry",
    "C": "Cannon",
    "X": "Assassin",
}
