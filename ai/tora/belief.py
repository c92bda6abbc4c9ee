"""Where the enemy's hidden Assassin may be (TORA's long board with Assassins, R40-R44),
worked out from what the side has seen, never from the hidden truth.

The belief starts on the free squares of the enemy's home edge (R41; whether it was fielded
at all is not known, so it is assumed to be), grows by three steps with every hidden
Assassin action the public record shows (R42: it moves 0 to 3), shrinks to the squares next
to the victims of each hidden attack, and loses the squares a search of ours found empty
(R43). A revealed or published Assassin is no longer hidden: nothing to believe then.

Read through the public form of every enemy event (``Event.public``), as the opponent's
view shows it (the engines' copy, ``for_player``, holds no other form of them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules import Side
from rules.tora import ASSASSIN, Game, distance, neighbours, start_squares

REACH = 3  # an Assassin's move per action (R42)
STRIKE = 1  # then its attack's reach (its own square included)


@dataclass(frozen=True)
class Belief:
    """``squares``: where the enemy's hidden Assassin may stand (empty: none to fear)."""

    squares: frozenset[int]
    _danger: dict[int, float] = field(default_factory=dict, compare=False, repr=False)

    def danger(self, sq: int) -> float:
        """The share of the believed squares from which the Assassin could strike ``sq``
        in its owner's next action (move, then attack)."""
        if not self.squares:
            return 0.0
        if sq not in self._danger:
            near = sum(1 for at in self.squares if distance(at, sq) <= REACH + STRIKE)
            self._danger[sq] = near / len(self.squares)
        return self._danger[sq]

    def share(self, squares: Iterable[int]) -> float:
        """The share of the believed squares among ``squares`` (what a search would look at)."""
        if not self.squares:
            return 0.0
        return len(self.squares.intersection(squares)) / len(self.squares)


NOTHING = Belief(frozenset())


_CACHE: dict[tuple[Side, int, int, int], tuple[object, Belief]] = {}
CACHE_SIZE = 16


def cached_belief(game: Game, side: Side) -> Belief:
    """``belief_of``, worked out once per finished turn: an engine judges thousands of
    positions (game copies) that share their history. Keyed by the newest event played,
    an object every copy shares (kept alive here, so its identity is never reused)."""
    last = next((turn.events[-1] for turn in reversed(game.turns) if turn.events), None)
    key = (side, game.game_number, len(game.turns), id(last))
    found = _CACHE.get(key)
    if found is not None and found[0] is last:
        return found[1]
    belief = belief_of(game, side)
    if len(_CACHE) >= CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = (last, belief)
    return belief


def belief_of(game: Game, side: Side) -> Belief:
    """What ``side`` may believe of the enemy's hidden Assassin in the game being played."""
    enemy = side.other
    if not game.options.assassins or game.is_published(enemy) or _visible(game, enemy):
        return NOTHING
    around = neighbours(game.terrain.size)
    possible = set(start_squares(game.options, enemy))
    for turn in game.turns:
        if turn.game != game.game_number:
            continue
        for event in turn.events:
            if event.side == enemy:
                seen = event.public()
                if seen.letter == ASSASSIN:
                    possible = _grown(possible, around, REACH)
                    victims = [sq for *_rest, sq in seen.removed] + list(seen.doomed)
                    if victims:
                        possible = {
                            sq for sq in possible if any(distance(sq, v) <= STRIKE for v in victims)
                        }
            elif event.searched and not event.revealed:
                possible.difference_update(event.searched)
    return Belief(frozenset(possible))


def _visible(game: Game, enemy: Side) -> bool:
    """The enemy's Assassin stands on the public board (revealed, R44)."""
    return any(p.kind == ASSASSIN and p.side == enemy for p in game.view_for(enemy.other).pieces)


def _grown(squares: set[int], around: dict[int, tuple[int, ...]], steps: int) -> set[int]:
    grown, edge = set(squares), set(squares)
    for _ in range(steps):
        edge = {n for sq in edge for n in around[sq]} - grown
        grown |= edge
    return grown
