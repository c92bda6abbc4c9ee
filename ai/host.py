"""What a game host asks of the engines: a whole turn for the side to act at a strength
within its time, a hint (the same for the same position), the time a turn may take, and
whether to take or offer a draw.

Every entry takes the game as the acting side may know it (``game.for_player(side)``, which
the host makes before anything leaves its process) and plays on its own copy."""

from __future__ import annotations

import random
import zlib

from rules import ActionError, GameState, Side

from .engines import engine_of
from .evaluation import balance, evaluate
from .players import LEVELS, make_player
from .turns import is_search

MASTER_STRETCH = 3.0  # ``master``'s turn against the others'
DRAW_MARGIN = -1.0  # the AI takes a draw when its balance is worse than this
QUIET_ROUNDS = 20  # rounds without a removal after which a level game is a draw to the AI
LEVEL = 1.0  # how near even its balance must be then (a Soldier, a Swallow, a Follower)
OFFER_EVERY = 10  # rounds between its offers while the game stays so


def turn_seconds(game: GameState, level: str = "hard") -> float:
    """The engines' time for one turn of ``game`` (on one core) at ``level``: 2 s unless its
    engine says otherwise (TORA's long board: 8 s), ``MASTER_STRETCH`` times that for
    ``master``, the strength for practice and analysis that may take its time."""
    seconds = engine_of(game.game_type).turn_seconds(game)
    return seconds * MASTER_STRETCH if level == "master" else seconds


def decide(game: GameState, level: str, seconds: float, seed: int) -> list[str]:
    """The notations of the whole turn ``level`` plays for ``game.side``, within ``seconds``
    (the same seed and game give the same turn, unless the clock cut a search short).
    ``random`` is the host's fallback after a turn of the engine's was refused."""
    if level not in (*LEVELS, "random"):
        raise ValueError(f"an AI strength is one of {', '.join(LEVELS)}, not {level!r}")
    player = make_player(level, game)
    return player.turn(game.for_player(game.side), random.Random(seed), seconds)


def plays_alone(game: GameState, texts: list[str]) -> bool:
    """Whether ``texts``, the turn an engine chose for ``game``, is one action whose outcome
    no engine could know (TORA's search for the enemy's Assassin, R43): the host plays it
    alone and asks again for the rest, as what it finds decides that (a found Assassin may
    be taken as a free action, even after the turn's last action; other pieces may still
    act)."""
    if len(texts) != 1:
        return False
    try:
        return is_search(game.parse_action(texts[0]))
    except ActionError:
        return False


def hint(game: GameState) -> list[str]:
    """The turn the ``hard`` player suggests for ``game.side``, by a fixed amount of work
    and a seed taken from the position: the same position gives the same hint on any
    machine, however loaded. The work (``make_player``'s ``work``) is about a hosted turn's
    time on one core, as the game's engine says: the candidate turns TORA judges (10 on the
    short board, 2 on the long one, whose turn ends cost the rules seconds), the turns a
    one-move game's search looks ahead (ToriShogi's own search 5, the seam's 2)."""
    own = game.for_player(game.side)
    seed = zlib.crc32(f"{own.fen()}|{';'.join(own.staged())}".encode())
    player = make_player("hard", game, work=engine_of(game.game_type).hint_work(game))
    return player.turn(own, random.Random(seed), float("inf"))


def judge(game: GameState, side: Side) -> float:
    """How good ``game`` is for ``side`` by what that side may know (``evaluate`` of its own
    view): the analysis of a finished match compares the turn played with the hint's by it."""
    return evaluate(game.for_player(side), side)


def takes_draw(game: GameState, side: Side) -> bool:
    """Whether ``side``'s AI accepts a draw offered now: when it stands worse by what it
    may know (its ``balance``: TORA's points and material, ToriShogi's material, Torii's
    progress; not the evaluation's pulls and risks, which alone put both sides of a fresh
    TORA board below even), or when the game is going nowhere (``going_nowhere``)."""
    mine = game.for_player(side)
    return balance(mine, side) < DRAW_MARGIN or going_nowhere(mine, side)


def offers_draw(game: GameState, side: Side) -> bool:
    """Whether ``side``'s AI offers a draw before its turn now: when the game has just gone
    ``QUIET_ROUNDS`` rounds nowhere, and every ``OFFER_EVERY`` rounds after while it still
    does (once a round: the count moves on by one between two of its turns)."""
    quiet = game.quiet_rounds()
    if quiet < QUIET_ROUNDS or (quiet - QUIET_ROUNDS) % OFFER_EVERY:
        return False
    return going_nowhere(game.for_player(side), side)


def going_nowhere(game: GameState, side: Side) -> bool:
    """No piece removed for ``QUIET_ROUNDS`` rounds (as the game counts removals), so the
    balance the evaluation weighs (``balance``) has not moved in all that time, and it is
    level: within ``LEVEL`` of even."""
    return game.quiet_rounds() >= QUIET_ROUNDS and abs(balance(game, side)) <= LEVEL
