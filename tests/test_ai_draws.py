"""Games that go nowhere: every game says through the seam how many rounds have passed since
a piece was last removed (``GameState.quiet_rounds``), and the AI offers and takes a draw
when that stretch is long and its judgement level."""

from __future__ import annotations

import random

import pytest

import ai
from ai.evaluation import balance
from rules import GameState, Side, game_type
from rules.torishogi import SWALLOW

STARTS = {
    "tora": ({"board": "short"}, ({"strategy": "aggressive"}, {"strategy": "defensive"})),
    "torishogi": ({}, ({}, {})),
    "torii": ({"powers": True}, ({"spirit": "Monkey"}, {"spirit": "Tatsu"})),
}


def new(game_id: str) -> GameState:
    options, answers = STARTS[game_id]
    return game_type(game_id).new_game(options, answers)


def removed(game_id: str, turn: object) -> bool:
    """What each game counts as a removal, read straight from a finished turn's events."""
    events = turn.events  # type: ignore[attr-defined]
    if game_id == "tora":
        return bool(turn.round_end) or any(e.removed for e in events)  # type: ignore[attr-defined]
    if game_id == "torishogi":
        return any(e.captured for e in events)
    return any(e.builds for e in events)


def decision(turn: object) -> bool:
    return any(getattr(e, "kind", "") == "decision" for e in turn.events)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", list(STARTS))
def test_quiet_rounds_count_the_rounds_since_the_last_removal(game_id: str) -> None:
    rng = random.Random(5)
    game = new(game_id)
    assert game.quiet_rounds() == 0
    quiet = 0  # turns since the last removal (decisions inside a turn left out)
    for _ in range(120):
        if game.is_over():
            break
        while game.actions_left and game.legal_actions():
            game.apply(rng.choice(game.legal_actions()))
        turn = game.end_turn(deadline=True)
        if removed(game_id, turn):
            quiet = 0
        elif not decision(turn):
            quiet += 1
        assert game.quiet_rounds() == quiet // 2
        staged_copy = game.copy()
        if not staged_copy.is_over() and staged_copy.legal_actions():
            staged_copy.apply(staged_copy.legal_actions()[0])  # staged: not counted
            assert staged_copy.quiet_rounds() == quiet // 2


def empty_turns(game: GameState, count: int) -> None:
    for _ in range(count):
        game.end_turn()


def test_the_ai_takes_and_offers_a_draw_once_a_level_game_has_gone_20_rounds_nowhere() -> None:
    game = new("tora")  # the short board: two empty turns a round, nothing removed, level
    empty_turns(game, 2 * 19)
    assert game.quiet_rounds() == 19
    assert not ai.takes_draw(game, Side.CHALLENGER) and not ai.offers_draw(game, Side.CHALLENGER)
    empty_turns(game, 2)
    assert ai.takes_draw(game, Side.CHALLENGER) and ai.takes_draw(game, Side.OPPOSITION)
    assert ai.offers_draw(game, Side.CHALLENGER)  # once...
    empty_turns(game, 2)
    assert ai.takes_draw(game, Side.CHALLENGER) and not ai.offers_draw(game, Side.CHALLENGER)
    empty_turns(game, 2 * 9)
    assert game.quiet_rounds() == 30 and ai.offers_draw(game, Side.CHALLENGER)  # ...a round in 10


def test_the_side_ahead_neither_takes_nor_offers_a_draw_however_long_it_goes_nowhere() -> None:
    rng = random.Random(3)
    game = new("tora")
    while game.turns == [] or game.quiet_rounds() or abs(balance(game, Side.CHALLENGER)) <= 1:
        while game.actions_left and game.legal_actions():
            game.apply(rng.choice(game.legal_actions()))
        game.end_turn(deadline=True)
        assert not game.is_over()
    ahead = Side.CHALLENGER if balance(game, Side.CHALLENGER) > 0 else Side.OPPOSITION
    empty_turns(game, 2 * 25)
    assert game.quiet_rounds() >= 20
    assert not ai.takes_draw(game, ahead) and not ai.offers_draw(game, ahead)
    assert ai.takes_draw(game, ahead.other)  # worse off: it takes one


def _long_with_assassins(theirs: str) -> GameState:
    """A long-board game with the Challenger's Assassin on v3h17 and the Opposition's on
    ``theirs`` ("none": not fielded), after 41 empty turns: 20 rounds gone nowhere, level
    on the board."""
    setup = {"strategy": "aggressive", "ruler": "K"}
    game = game_type("tora").new_game(
        {"board": "long", "assassins": True},
        ({**setup, "assassin": "v3h17"}, {**setup, "assassin": theirs}),
    )
    empty_turns(game, 41)
    return game


def test_a_level_quiet_game_with_hidden_assassins_is_a_draw_to_the_ai_too() -> None:
    """Regression: each AI counted its own hidden Assassin (5) and none of the enemy's, so
    it stood "+5" in every level Assassin game and never offered nor took the draw it
    takes without Assassins. Its own hidden pieces are left out of what it weighs, as the
    enemy's are unknown to it."""
    game = _long_with_assassins("v8h1")
    assert game.quiet_rounds() == 20 and not game.is_over()
    assert ai.takes_draw(game, Side.CHALLENGER) and ai.takes_draw(game, Side.OPPOSITION)
    assert ai.offers_draw(game, game.side)


def test_twin_worlds_the_ai_s_answers_to_a_draw_tell_nothing_of_its_assassin() -> None:
    """Worlds the Challenger cannot tell apart (the Opposition fielded its Assassin or not,
    R41: secret until the game ends) get the same public answer of the Opposition's AI to
    a draw offer, and the same offer of its own: no probe for the secret."""
    worlds = [_long_with_assassins(theirs) for theirs in ("v8h1", "none")]
    assert worlds[0].view_for(Side.CHALLENGER) == worlds[1].view_for(Side.CHALLENGER)
    answers = [
        (ai.takes_draw(world, Side.OPPOSITION), ai.offers_draw(world, Side.OPPOSITION))
        for world in worlds
    ]
    assert answers[0] == answers[1]


def first_removal(game_id: str, seed: int) -> tuple[GameState, object]:
    """A game of random turns up to its first finished turn that removed a piece, and that
    turn."""
    rng = random.Random(seed)
    game = new(game_id)
    while True:
        while game.actions_left and game.legal_actions():
            game.apply(rng.choice(game.legal_actions()))
        turn = game.end_turn(deadline=True)
        if removed(game_id, turn):
            return game, turn


def test_the_tora_ai_one_soldier_down_is_level_and_takes_no_draw() -> None:
    """Regression: on TORA's short board the AI lost a single Archer (1 point, the smallest
    piece) and took the draw offered at once, as if it stood clearly worse: its balance
    counted the point ten times and the piece once more, so one Soldier down was -11, where
    "level" is within 1 of even (a Soldier) and it takes a draw only behind by more."""
    game, turn = first_removal("tora", 0)
    [(loser, kind, _square)] = [r for e in turn.events for r in e.removed]  # type: ignore[attr-defined]
    assert kind in ("S", "A") and not game.is_over()  # one piece worth 1 point, nothing else
    assert balance(game, loser) == -1.0 and balance(game, loser.other) == 1.0
    assert not ai.takes_draw(game, loser)


def test_the_torishogi_ai_one_swallow_down_is_level_and_takes_no_draw() -> None:
    """The same in ToriShogi: one Swallow captured left the board (1) and went to the
    capturer's hand (1.1), so the balance of the side that lost it was -2.1, and it took a
    draw one Swallow down."""
    game, turn = first_removal("torishogi", 0)
    [event] = [e for e in turn.events if e.captured]  # type: ignore[attr-defined]
    assert event.captured == SWALLOW and not any(t.events[0].promoted for t in game.turns)
    loser = event.side.other
    assert balance(game, loser) == -1.0 and balance(game, loser.other) == 1.0
    assert not ai.takes_draw(game, loser)
