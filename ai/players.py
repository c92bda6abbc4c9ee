"""The players: two fixed baselines (``random``, ``greedy``) and four strengths (``easy``,
``normal``, ``hard``, ``master``) for every game, each deciding a whole turn within a time
budget (``master``'s is the longest: ``ai.host.turn_seconds``).

A player sees the game through the seam only and plays on its own copy, made by
``for_player(side)``: it never reads hidden information (TORA: the enemy's hidden Assassin is
not on that copy; where it may be is a belief from the public record, ``belief``).

- One-move games (ToriShogi, Torii): ``master``, ``hard`` and ``normal`` are an
  iterative-deepening search over whole turns (the game's own, ToriShogi's, else the seam's
  alpha-beta; normal stops at depth 2), ``easy`` plays the best immediate turn but a random
  one a tenth of the time.
- Games of several actions a turn (TORA): ``greedy`` builds the turn action by action;
  ``normal``, ``hard`` and ``master`` sample turns (the greedy one, then randomised greedy
  ones) and keep the one whose position is best after the opponent's greedy reply, until the
  budget is spent; an action the game's engine says is worth a turn of its own comes first (TORA's
  search for the enemy's Assassin when one search covers half of the belief), and the turns
  its tactics name are judged before the sampled ones (TORA's: a strike at the enemy's last
  command piece, an escape of the side's own), a turn after which the opponent can take the
  side's command counting as nearly lost (``LOST``).

Which kind a game is, its evaluation and any search of its own are its engine's
(``ai.engines``).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules import GameState, game_type

from .engines import engine_of
from .evaluation import WIN, evaluate
from .search import OutOfTime, best_turn
from .turns import after_turn, build_turn

BASELINES = ("random", "greedy")
OwnSearch = Callable[[GameState, float, random.Random, int], list[str]]
EASY_SHARE = 0.7  # of the budget: the rest is room for the end of the turn (R30, R25)
LEVELS = ("easy", "normal", "hard", "master")
LOST = WIN / 2  # a turn after which the opponent can take the side's command: nearly a loss
DEEPEST = {"normal": 2, "hard": 8, "master": 64}  # plies a one-move game's search may reach


class Player(Protocol):
    name: str

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        """The notations of a whole legal turn for ``game.side`` (``game`` is the player's
        own copy, spent by the call), decided within ``seconds``."""
        ...


def own_view(game: GameState) -> GameState:
    """What the side to act may know of ``game``: the copy every player plays on."""
    return game.for_player(game.side)


@dataclass
class RandomPlayer:
    name: str = "random"

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        return build_turn(own_view(game), lambda _g, actions: rng.choice(actions))


@dataclass
class GreedyPlayer:
    """Each action the one that leaves the best position at once (a one-move game's move is
    judged after its turn ends, captures made); ties broken at random. ``noise``: the share
    of actions picked at random instead. ``share``: the share of the budget it may spend
    (None: unbounded, the fixed baseline); once that is spent, each action is the best of
    those judged so far, the rest in random order, at least one."""

    name: str = "greedy"
    noise: float = 0.0
    share: float | None = None

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        deadline = None if self.share is None else time.monotonic() + seconds * self.share
        return self.build(own_view(game), rng, deadline)

    def build(self, game: GameState, rng: random.Random, deadline: float | None) -> list[str]:
        """The turn on ``game`` (the player's own copy, spent), decided by ``deadline``."""
        return build_turn(game, lambda g, actions: self.pick(g, actions, rng, deadline), deadline)

    def pick(
        self,
        game: GameState,
        actions: Sequence[Any],
        rng: random.Random,
        deadline: float | None = None,
    ) -> Any:
        if self.noise and rng.random() < self.noise:
            return rng.choice(actions)
        side = game.side
        best: list[Any] = []
        best_value = float("-inf")
        if deadline is not None:
            actions = rng.sample(list(actions), len(actions))
        for action in actions:
            if best and deadline is not None and time.monotonic() > deadline:
                break
            child = game.copy()
            child.apply(action)
            if child.actions_left == 0 and one_move(child):
                child.end_turn()
            value = evaluate(child, side)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return rng.choice(best)


@dataclass
class SamplingPlayer:
    """TORA: candidate turns (the engine's tactical turns, then the greedy one, then
    randomised ones) judged after the opponent's greedy reply, until ``share`` of the budget
    is spent. Ending a turn may cost
    the rules a second or two on the long board (R30, R25), so no step starts that the
    slowest of its kind so far would not finish in time: the first candidate is then played
    unjudged, a later one dropped. With ``candidates`` the work is fixed instead of timed:
    that many candidates, each judged in full (the same game and seed give the same turn on
    any machine, however loaded: a hint)."""

    name: str
    share: float
    noise: float = 0.35
    candidates: int | None = None

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        game = own_view(game)
        engine = engine_of(game.game_type)
        opening = None if engine.forced is None else engine.forced(game)
        if opening is not None:  # alone: what it finds decides the rest of the turn
            return [opening]
        start = time.monotonic()
        deadline = start + seconds * self.share
        clock: _Budget = (
            _Stopwatch(deadline) if self.candidates is None else _Tally(self.candidates)
        )
        queued = [] if engine.tactics is None else engine.tactics(game)
        best, best_value = None, float("-inf")
        tried: set[tuple[str, ...]] = set()
        greedy = False  # whether the greedy turn (no noise) was built
        while best is None or clock.allows("candidate"):
            with clock.timing("candidate"):
                if queued:
                    texts = queued.pop(0)
                else:
                    # the greedy turn must end in time: its turn and the reply share the budget
                    mine = clock.part(start, 0.4) if not greedy else clock.deadline
                    chooser = GreedyPlayer(noise=self.noise if greedy else 0.0)
                    texts = chooser.build(game.copy(), rng, mine)
                    greedy = True
                if best is None:
                    best = texts
                if tuple(texts) in tried:
                    if len(tried) > 50:
                        break
                    continue
                tried.add(tuple(texts))
                value = _judged(game, texts, clock, rng)
                if value is None:
                    break
                if value > best_value:
                    best, best_value = texts, value
        return list(best or [])


def _judged(game: GameState, texts: list[str], clock: _Budget, rng: random.Random) -> float | None:
    """How good ``texts`` leave the side after the opponent's greedy reply (left out if no
    time is left for it); None if no time is left to end the turn at all."""
    if not clock.allows("end"):
        return None
    exposed = engine_of(game.game_type).exposed
    with clock.timing("end"):
        after = after_turn(game, texts)
        if exposed is not None and exposed(after, game.side):
            return evaluate(after, game.side) - LOST
    if not after.is_over() and clock.allows("reply"):
        with clock.timing("reply"):
            answer = GreedyPlayer().build(after.copy(), rng, clock.deadline)
            after = after_turn(after, answer)
    return evaluate(after, game.side)


class _Budget(Protocol):
    """How much more work a sampling player may do: whether one more ``step`` (a
    ``candidate``, the ``end`` of its turn, the ``reply``) fits."""

    @property
    def deadline(self) -> float | None: ...

    def allows(self, step: str) -> bool: ...

    def timing(self, step: str) -> contextlib.AbstractContextManager[None]: ...

    def part(self, start: float, share: float) -> float | None:
        """The deadline of the first ``share`` of the budget begun at ``start``."""
        ...


class _Stopwatch:
    """How long each kind of step took at most, and whether one more fits before the
    deadline."""

    def __init__(self, deadline: float) -> None:
        self.deadline: float | None = deadline
        self.slowest: dict[str, float] = {}

    def allows(self, step: str) -> bool:
        assert self.deadline is not None
        return time.monotonic() + self.slowest.get(step, 0.0) < self.deadline

    def part(self, start: float, share: float) -> float | None:
        assert self.deadline is not None
        return start + (self.deadline - start) * share

    @contextlib.contextmanager
    def timing(self, step: str) -> Iterator[None]:
        began = time.monotonic()
        try:
            yield
        finally:
            spent = time.monotonic() - began
            self.slowest[step] = max(self.slowest.get(step, 0.0), spent)


class _Tally:
    """A fixed amount of work: ``candidates`` candidates, each judged in full, no clock."""

    deadline: float | None = None

    def __init__(self, candidates: int) -> None:
        self.left = candidates

    def allows(self, step: str) -> bool:
        return step != "candidate" or self.left > 0

    @contextlib.contextmanager
    def timing(self, step: str) -> Iterator[None]:
        if step == "candidate":
            self.left -= 1
        yield

    def part(self, start: float, share: float) -> float | None:
        return None


@dataclass
class SearchPlayer:
    """One-move games: alpha-beta over whole turns, deepening while the budget lasts. With
    ``fixed`` the work is fixed instead of timed: the search goes to ``fixed_depth``
    whatever the clock says, so the same game and seed give the same turn on any machine
    (a hint)."""

    name: str
    share: float
    max_depth: int = 8
    fixed: bool = False
    fixed_depth: int = 2

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        game = own_view(game)
        own = engine_of(game.game_type).search
        if own is not None:
            return self._own_search(game, own, rng, seconds)
        if self.fixed:
            return best_turn(game, self.fixed_depth, float("inf"), rng) or []
        deadline = time.monotonic() + seconds * self.share
        found: list[str] | None = None
        for depth in range(1, self.max_depth + 1):
            try:
                found = best_turn(game, depth, deadline, rng)
            except OutOfTime:
                break
        if found is None:  # not even depth 1 in time: the greedy turn, in what is left
            return GreedyPlayer().build(game, rng, deadline)
        return found

    def _own_search(
        self, game: GameState, search: OwnSearch, rng: random.Random, seconds: float
    ) -> list[str]:
        """The game's own search (ToriShogi's, on the engine's position), at least 2 moves
        deep."""
        depth = self.max_depth if self.max_depth > 2 else 2
        if self.fixed:
            seconds, depth = float("inf"), self.fixed_depth
        return search(game, seconds * self.share, rng, depth)


def one_move(game: GameState) -> bool:
    """Whether a turn of ``game`` is one decision (``GameType.one_move``)."""
    return game_type(game.game_type).one_move


def make_player(name: str, game: GameState, work: int | None = None) -> Player:
    """A baseline or a strength, for ``game``'s kind of turn. ``work`` fixes the ``hard``
    player's work rather than timing it (a hint: the same for the same game and seed): the
    candidate turns a TORA player judges, the turns a one-move game's search looks ahead."""
    if work is not None:
        if name != "hard":
            raise ValueError("only the hard player's work can be fixed")
        if one_move(game):
            return SearchPlayer(name, 1.0, fixed=True, fixed_depth=work)
        return SamplingPlayer(name, 1.0, candidates=work)
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    if name == "easy":
        return GreedyPlayer(name="easy", noise=0.1, share=EASY_SHARE)
    if name not in LEVELS:
        raise ValueError(f"a player is one of {', '.join(BASELINES + LEVELS)}, not {name!r}")
    share = 0.25 if name == "normal" else 0.9
    if one_move(game):
        return SearchPlayer(name, share, max_depth=DEEPEST[name])
    return SamplingPlayer(name, share)
