"""The engines' belief over the enemy's hidden Assassin (R40-R44): it starts on the
enemy's free home-edge squares, grows with each hidden Assassin action the public record
shows, loses what a search found empty; and twin worlds that differ only in where the enemy's
Assassin hides give every player, the time-bounded ones too, the same decisions and the same
belief."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from positions import hidden, position

import ai
import ai.players
import ai.pvs
import ai.search
import ai.turns
from ai import make_player
from ai.tora.belief import belief_of
from ai.tora.search import worth_searching
from rules import Side, game_type
from rules.tora import ASSASSIN, distance, start_squares

C, O = Side.CHALLENGER, Side.OPPOSITION


class StepClock(ModuleType):
    """Stands in for ``time`` in the engines: every look at the clock moves it by 10 ms, so
    a time-bounded engine decides alike in two worlds exactly when it looks alike."""

    def __init__(self) -> None:
        super().__init__("time")
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 0.01
        return self.now


@pytest.fixture
def step_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (ai.players, ai.turns, ai.search, ai.pvs):
        monkeypatch.setattr(module, "time", StepClock())


def world(opposition_assassin: str):
    setup = {"strategy": "aggressive", "ruler": "K"}
    return game_type("tora").new_game(
        {"board": "long", "assassins": True},
        ({**setup, "assassin": "v3h17"}, {**setup, "assassin": opposition_assassin}),
    )


def hidden_move(game) -> str:
    """The Opposition's Assassin steps without attacking: the public sees "X ?" alone."""
    moves = [
        a
        for a in game.legal_actions()
        if a.letter == ASSASSIN and a.kind != "search" and not a.target and a.path
    ]
    return game.notation(min(moves, key=lambda a: (len(a.path), a.dest)))


def test_the_belief_starts_on_the_enemy_home_edge_and_grows_with_each_hidden_action():
    game = world("v8h1")
    start = set(start_squares(game.options, O))
    assert belief_of(game, C).squares == start
    game.end_turn()  # the Challenger passes
    game.apply(hidden_move(game))
    game.end_turn()
    grown = belief_of(game, C).squares
    assert start < grown
    assert all(min(distance(sq, s) for s in start) <= 3 for sq in grown)
    assert belief_of(game, O).squares == set(start_squares(game.options, C))


def test_a_search_that_finds_nothing_takes_its_squares_off_the_belief():
    game = world("v15h1")
    game.end_turn()
    game.apply(hidden_move(game))
    game.end_turn()
    before = belief_of(game, C).squares
    searches = [a for a in game.legal_actions() if a.kind == "search"]
    game.apply(searches[0])
    game.end_turn()
    assert game.pos.hidden_assassin(O) is not None  # found nothing
    # as if that search had looked at nine squares the Assassin may be on
    looked = tuple(sorted(before))[:9]
    turn = game.turns[-1]
    turn.events[-1] = replace(turn.events[-1], searched=looked)
    assert belief_of(game, C).squares == before - set(looked)


@pytest.mark.parametrize("who", ["easy", "normal", "hard"])
def test_twin_worlds_time_bounded_players_decide_alike(who: str, step_clock: None) -> None:
    """Two worlds that differ only in where the Opposition's Assassin hides (its hidden
    moves alike in public): the Challenger's engine plays the same turns in each, with the
    same belief, for two turns."""
    worlds = [world(square) for square in ("v3h1", "v15h1")]
    for _turn in range(2):
        turns = [make_player(who, w).turn(w.copy(), random.Random(5), 1.0) for w in worlds]
        assert turns[0] == turns[1]
        beliefs = {belief_of(w, C).squares for w in worlds}
        assert len(beliefs) == 1
        for w, texts in zip(worlds, turns, strict=True):
            for text in texts:
                w.apply(text)
            w.end_turn()
            if not w.is_over():
                w.apply(hidden_move(w))
                w.end_turn()
        if any(w.is_over() for w in worlds):
            break


def test_the_engine_never_chooses_a_search_the_rules_refuse():
    """Regression (found by a fuzz of long-board games with Assassins): the legal actions list
    a command piece's search before R43 checks that it is not in jeopardy after its move; the
    engine chose such a search, and the host would have refused the AI's turn."""
    record = (Path(__file__).parent / "records" / "search-in-jeopardy.tora").read_text()
    game = game_type("tora").from_fen(record, {})
    search = worth_searching(game.for_player(game.side))
    if search is not None:
        game.copy().apply(search)  # raised IllegalAction (R43)
    texts = make_player("hard", game).turn(game.copy(), random.Random(1), 0.5)
    for text in texts:
        game.apply(text)
    game.end_turn()


def test_an_ai_whose_last_action_finds_the_assassin_takes_it_for_free():
    """R43: a searcher that finds the Assassin and can still attack may take it as a free
    action. Regression: on the long board, the AI with one action left in its turn (its
    last command piece) searched, found the enemy Assassin beside the searcher and ended its
    turn without the free take, leaving it to strike: the host asked the engine again only
    with two actions or more left, and the turn builder stopped with none left."""
    game = position(
        (C, "G", "v9h12"), (O, "G", "v17h1"), hidden(O, "v9h11"),
        board="long", assassins=True, generals=False,
    )  # fmt: skip
    [assassin] = [p for p in game.pos.pieces.values() if p.hidden]
    game.assassin_starts = (0, assassin.sq)
    assert game.actions_left == 1
    texts = ["G v9h12 search"]  # the turn a sampling player chose: its search alone
    assert ai.plays_alone(game, texts)  # the host stages it and asks again
    game.apply(texts[0])
    rest = ai.decide(game.for_player(game.side), "hard", 0.5, 0)
    [took] = [game.apply(text) for text in rest]
    assert took.removed == ((O, ASSASSIN, assassin.sq),)
    game.end_turn()
    assert not any(piece.kind == ASSASSIN for piece in game.pos.pieces.values())
