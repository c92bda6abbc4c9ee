"""Perft against play (TI15, TI20): at every position of random games with every pair of
Spirits, the positions ``perft`` counts as one whole turn away are exactly those the game
reaches when each legal turn is applied and ended, and then each answer of the opponent's
Monkey is staged and ended one by one, as the host plays them (hypothesis).

Games start from the start, or from a drawn middle game where the side to act has lines of
its Followers half made, so that turns building several Torii (one of them the 4th) come
often. ``TORA_TORII_GAMES`` sets the games per pair and kind of start (default 4), e.g.
``TORA_TORII_GAMES=100 pytest tests/test_torii_perft.py`` for a long run.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.sides import Side
from rules.torii import SPIRITS, TORII, ToriiGame
from rules.torii import fen as position_string
from rules.torii.actions import DECISIONS, Action, Move
from rules.torii.board import LINES, SQUARES, same_lane
from rules.torii.building import WIN_TORII
from rules.torii.events import MOVE
from rules.torii.perft import successors
from rules.torii.state import MONKEY, Position, Setup, follower, gate

GAMES = int(os.environ.get("TORA_TORII_GAMES", "4"))
TURNS = 40
PAIRS = list(itertools.product(SPIRITS, repeat=2))


def drawn_middle(rng: random.Random, spirits: tuple[str, str]) -> ToriiGame:
    """A middle game: the side to act has 1 to 3 Torii built and two lines mostly of its
    Followers; the other side has up to 2 Torii and a few Followers anywhere; tiles at
    random."""
    cells = bytearray(len(SQUARES))
    me = rng.choice(list(Side))
    for side, torii in ((me, rng.randint(1, 3)), (me.other, rng.randint(0, 2))):
        lines = rng.sample(LINES, 2) if side == me else []
        wanted = [sq for line in lines for sq in line if rng.random() < 0.75]
        free = [sq for sq in wanted + rng.sample(SQUARES, 6) if cells[sq] == 0]
        mine = list(dict.fromkeys(free))[:7]
        for index, sq in enumerate(rng.sample(mine, len(mine))):
            cells[sq] = gate(side) if index < torii else follower(side)
    spirits_at = rng.sample(SQUARES, 2)
    while same_lane(*spirits_at):
        spirits_at = rng.sample(SQUARES, 2)
    pos = Position(
        bytes(cells),
        (spirits_at[0], spirits_at[1]),
        (rng.randrange(8), rng.randrange(8)),
        me,
    )
    text = position_string.write(pos, Setup(spirits))
    return TORII.from_fen(text, {})  # checked as any position string is


def keen_playout(game: ToriiGame, rng: random.Random) -> Iterator[ToriiGame]:
    """Yields the game at every position of a random playout that mostly builds as many
    Torii in a turn as it can; Monkey answers are random."""
    for _ in range(TURNS):
        yield game
        if game.is_over():
            return
        while game.actions_left:
            actions = game.legal_actions()
            if not game.deciding and rng.random() < 0.8:
                most = max(map(_builds, actions))
                actions = [a for a in actions if _builds(a) == most]
            game.apply(rng.choice(actions))
        game.end_turn()


def _builds(action: Action) -> int:
    return len(action.builds) if isinstance(action, Move) else 0


def owed_after(game: ToriiGame) -> int:
    """The Monkey decisions the turn just ended owes, counted from its event: one per Torii
    that did not win, when the opponent's Spirit is a Monkey (TI15)."""
    event = game.turns[-1].events[0]
    if event.kind != MOVE or not game.setup.has(event.side.other, MONKEY):
        return 0
    return len(event.builds) - (event.won == WIN_TORII)


def applied(game: ToriiGame) -> set[Position]:
    """The positions reached by playing each legal whole turn with ``apply`` and
    ``end_turn``, then each way to answer the opponent's Monkey."""
    if game.deciding:
        return answered(game)
    out: set[Position] = set()
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply(action)
        trial.end_turn()
        owed = owed_after(trial)
        if owed:  # the game asks for the answers, also after a winning turn
            assert (trial.deciding, trial.actions_left, trial.outcome()) == (True, owed, None)
            out |= answered(trial)
        else:
            assert not trial.deciding
            out.add(trial.pos)
    return out


def answered(game: ToriiGame) -> set[Position]:
    """The positions after each sequence of answers to the Monkey decisions owed, staged
    one by one and ended as one turn."""
    out: set[Position] = set()
    for answers in itertools.product(DECISIONS, repeat=game.actions_left):
        trial = game.copy()
        for answer in answers:
            trial.apply(answer)
        trial.end_turn()
        assert not trial.deciding
        out.add(trial.pos)
    return out


def check(game: ToriiGame) -> None:
    expected = successors(game.pos, game.setup)
    assert applied(game) == expected, game.fen()
    if game.deciding:  # no answer by the deadline is one of the answers
        lapsed = game.copy()
        lapsed.end_turn(deadline=True)
        assert lapsed.pos in expected


@settings(
    max_examples=GAMES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(0, 10**6), middle=st.booleans())
@pytest.mark.parametrize("spirits", PAIRS, ids="-".join)
def test_ti20_perft_counts_what_play_reaches(
    spirits: tuple[str, str], seed: int, middle: bool
) -> None:
    rng = random.Random(seed)
    start = (
        drawn_middle(rng, spirits)
        if middle
        else TORII.new_game({}, ({"spirit": spirits[0]}, {"spirit": spirits[1]}))
    )
    for game in keen_playout(start, rng):
        check(game)


def test_ti15_drawn_middles_reach_answers_owed_before_a_win() -> None:
    """The drawn middle games do reach the case TI15 is careful about: a turn that builds a
    Torii, then the 4th, against a Monkey (so the property above covers it)."""
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        for game in keen_playout(drawn_middle(rng, ("Boar", "Monkey")), rng):
            found += game.deciding and game.pos.winner() is not None
    assert found
