"""What the engines know of each game besides the seam, by the game's id (``Engine``). A
game's engine package (``ai/tora``, ``ai/torishogi``, ``ai/torii``) registers its engine when
it is imported; the first look-up imports every engine package under ``ai/`` once. A game of
the registry (``rules.registry``) that registered none is played with the generic engine:
its evaluation counts the pieces its view's square map shows (``rules.protocol.Mapped``;
none: every position is even, and only a won game counts), and the players search it as
any game of its kind of turn."""

from __future__ import annotations

import importlib
import pkgutil
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules import GameState, GameType, Side, game_type
from rules.protocol import Mapped

SHORT_TURN = 2.0  # seconds a hosted AI turn may take, unless its game says otherwise
TURN_LIMIT = 200  # turns of a measuring match (``python -m ai match``) that end in a draw
HINT_WORK = 2  # a hint's fixed work (``make_player``'s ``work``), unless its game says

Answers = tuple[dict[str, str], dict[str, str]]
G = TypeVar("G", bound=GameState)  # the games an engine plays


def count_pieces(game: GameState, side: Side) -> float:
    """The generic evaluation: ``side``'s pieces on its view's square map less the
    opponent's (0 for a view that says no square map)."""
    view = game.view_for(side)
    if not isinstance(view, Mapped):
        return 0.0
    return float(sum(1 if p.side == side else -1 for p in view.square_map().pieces.values()))


def drawn_answers(kind: GameType, options: Mapping[str, Any], rng: random.Random) -> Answers:
    """Each side's setup answers drawn at random among each question's options (the
    Challenger's first), for a measuring match."""
    questions = kind.setup_questions(options)
    first, second = (
        {q.name: rng.choice(q.options) for q in questions if q.options} for _side in Side
    )
    return first, second


@dataclass(frozen=True)
class Engine(Generic[G]):
    """One game's engine knowledge, of its games ``G`` (``engine_of`` hands a game only to
    the engine of its own game type). ``evaluate``: how good an ongoing position is for a side,
    from that side's view (``ai.evaluation.evaluate`` handles a finished game); ``balance``:
    the part of it only a removal changes (None: all of it), what draws in a game going
    nowhere are judged on; ``search``: a one-move game's own search, ``(game, seconds, rng,
    depth)`` to the turn's notations (None: the seam's alpha-beta, ``ai.search``);
    ``forced``: an action the sampling players play alone at a turn's start, or None (TORA's
    search for the enemy's Assassin: the host plays it, then asks again for the rest of the
    turn, ``ai.host.plays_alone``); ``turn_seconds`` a hosted AI turn's time;
    ``hint_work`` a hint's fixed work; ``turn_limit`` the turns of a measuring match;
    ``answers`` the setup answers of a measuring match; ``tactics``: whole turns the sampling
    players judge before their own (TORA's that hit the enemy's last command piece, or move
    the side's own out of jeopardy);
    ``exposed``: whether, once a side's turn has ended, the opponent's next turn can take the
    side's command (a loss the sampling players' greedy reply may not find)."""

    game: str
    evaluate: Callable[[G, Side], float] = count_pieces
    balance: Callable[[G, Side], float] | None = None
    search: Callable[[G, float, random.Random, int], list[str]] | None = None
    forced: Callable[[G], str | None] | None = None
    turn_seconds: Callable[[G], float] = lambda _game: SHORT_TURN
    hint_work: Callable[[G], int] = lambda _game: HINT_WORK
    turn_limit: Callable[[G], int] = lambda _game: TURN_LIMIT
    answers: Callable[[GameType, Mapping[str, Any], random.Random], Answers] = drawn_answers
    tactics: Callable[[G], list[list[str]]] | None = None
    exposed: Callable[[G, Side], bool] | None = None


# Any: each engine takes its own game's states, and a look-up by game id matches them.
_ENGINES: dict[str, Engine[Any]] = {}
_found = threading.Event()
_finding = threading.Lock()


def register(engine: Engine[Any]) -> None:
    """A game's engine, by its game's id (a later one replaces an earlier)."""
    _ENGINES[engine.game] = engine


def engine_of(game: str) -> Engine[Any]:
    """The engine of ``game``: its own, else the generic one (ValueError for a game the
    registry does not know)."""
    _find_packages()
    found = _ENGINES.get(game)
    if found is not None:
        return found
    return Engine(game_type(game).id)


def _find_packages() -> None:
    """Import every engine package under ``ai/`` once (each registers its engine)."""
    if _found.is_set():
        return
    with _finding:
        if not _found.is_set():
            package = importlib.import_module(__name__.rpartition(".")[0])
            for module in pkgutil.iter_modules(package.__path__):
                if module.ispkg:
                    importlib.import_module(f"{package.__name__}.{module.name}")
            _found.set()
