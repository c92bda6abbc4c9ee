"""The players: two fixed baselines (``random``, ``greedy``) and three strengths (``easy``,
``normal``, ``hard``) for every game, each deciding a whole turn within a time budget.

A player sees the game through the seam only and plays on its own copy, made by
``for_player(side)``: it never reads hidden information (TORA: the enemy's hidden Assassin is
not on that copy; the engines believe it is nowhere it could matter, docs/AI.md).

- One-move games (ToriShogi, Torii): ``hard`` and ``normal`` are an iterative-deepening
  alpha-beta search over whole turns (normal stops at depth 2), ``easy`` plays the best
  immediate turn but a random one a tenth of the time.
- TORA (several actions a turn): ``greedy`` builds the turn action by action; ``normal`` and
  ``hard`` sample turns (the greedy one, then randomised greedy ones) and keep the one whose
  position is best after the opponent's greedy reply, until the budget is spent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules import GameState

from .evaluation import evaluate
from .search import OutOfTime, best_turn
from .torishogi_search import best_move
from .turns import after_turn, build_turn

BASELINES = ("random", "greedy")
LEVELS = ("easy", "normal", "hard")


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
    of actions picked at random instead."""

    name: str = "greedy"
    noise: float = 0.0

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        return build_turn(own_view(game), lambda g, actions: self.pick(g, actions, rng))

    def pick(self, game: GameState, actions: Sequence[Any], rng: random.Random) -> Any:
        if self.noise and rng.random() < self.noise:
            return rng.choice(actions)
        side = game.side
        best, best_value = [], float("-inf")
        for action in actions:
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
    """TORA: candidate turns (the greedy one first, then randomised ones) judged after the
    opponent's greedy reply, until ``share`` of the budget is spent."""

    name: str
    share: float
    noise: float = 0.35

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        game = own_view(game)
        deadline = time.monotonic() + seconds * self.share
        side, reply = game.side, GreedyPlayer()
        best, best_value = None, float("-inf")
        tried: set[tuple[str, ...]] = set()
        candidates = 0
        while best is None or time.monotonic() < deadline:
            chooser = GreedyPlayer(noise=0.0 if candidates == 0 else self.noise)
            texts = chooser.turn(game.copy(), rng, seconds)
            candidates += 1
            if tuple(texts) in tried:
                if candidates > 50:
                    break
                continue
            tried.add(tuple(texts))
            after = after_turn(game, texts)
            if not after.is_over():
                answer = reply.turn(after.copy(), rng, seconds)
                after = after_turn(after, answer)
            value = evaluate(after, side)
            if value > best_value:
                best, best_value = texts, value
        return list(best or [])


@dataclass
class SearchPlayer:
    """One-move games: alpha-beta over whole turns, deepening while the budget lasts."""

    name: str
    share: float
    max_depth: int = 8

    def turn(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        game = own_view(game)
        if game.game_type == "torishogi":
            return self._torishogi(game, rng, seconds)
        deadline = time.monotonic() + seconds * self.share
        found: list[str] | None = None
        for depth in range(1, self.max_depth + 1):
            try:
                found = best_turn(game, depth, deadline, rng)
            except OutOfTime:
                break
        if found is None:  # not even depth 1 in time: the greedy turn
            return GreedyPlayer().turn(game, rng, seconds)
        return found

    def _torishogi(self, game: GameState, rng: random.Random, seconds: float) -> list[str]:
        """ToriShogi's own fast search on the position (``torishogi_search``)."""
        depth = self.max_depth if self.max_depth > 2 else 2
        code = best_move(game.fen(), seconds * self.share, rng, max_depth=depth)
        move = next(m for m in game.legal_actions() if m.code == code)
        return [game.notation(move)]


def one_move(game: GameState) -> bool:
    return game.game_type != "tora"


def make_player(name: str, game: GameState) -> Player:
    """A baseline or a strength, for ``game``'s kind of turn."""
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    if name == "easy":
        return GreedyPlayer(name="easy", noise=0.1)
    if name not in LEVELS:
        raise ValueError(f"a player is one of {', '.join(BASELINES + LEVELS)}, not {name!r}")
    share = 0.25 if name == "normal" else 0.9
    if one_move(game):
        return SearchPlayer(name, share, max_depth=2 if name == "normal" else 8)
    return SamplingPlayer(name, share)
