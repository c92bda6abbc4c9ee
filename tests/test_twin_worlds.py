"""Twin worlds (OpenSpiel's resampling of hidden state): two games with the same public
history whose Challenger Assassins start and walk differently. Everything the Opposition or a
spectator can observe must be identical in both: views, events, records, the Opposition's
legal actions and the wording of every answer to what it types.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import C, O

from bot.service.offload import search_payload
from rules import game_type
from rules.tora import ActionError, Game, Options
from rules.tora.assassin import start_squares
from rules.tora.geometry import distance, name, neighbours
from rules.tora.record import write_record

OPTIONS = Options(board="long", assassins=True)
C_STARTS = start_squares(OPTIONS, C)
O_STARTS = start_squares(OPTIONS, O)


class Twins:
    def __init__(self, rng: random.Random) -> None:
        first, second = rng.sample(C_STARTS, 2)
        theirs = name(rng.choice(O_STARTS))
        self.rng = rng
        self.worlds = (
            Game(OPTIONS, assassin_starts=(name(first), theirs)),
            Game(OPTIONS, assassin_starts=(name(second), theirs)),
        )

    def assassins(self) -> list:
        return [w.pos.hidden_assassin(C) for w in self.worlds]

    def play_turn(self) -> None:
        a, _b = self.worlds
        for _ in range(self.rng.randint(0, a.actions_left)):
            if a.side == C and all(self.assassins()) and self.rng.random() < 0.5:
                self.hidden_action()
            else:
                self.public_action()
            if a.is_over():
                return
        self.end_turn()

    def hidden_action(self) -> None:
        """Each world's Assassin acts its own way; attacks only on a victim both can reach."""
        options = [
            {a: w.notation(a) for a in w.legal_actions() if a.letter == "X"} for w in self.worlds
        ]
        victims = [{a.target for a in opts if a.target} for opts in options]
        common = sorted(victims[0] & victims[1] - {self.command_squares()})
        target = self.rng.choice(common) if common and self.rng.random() < 0.5 else 0
        for world, opts in zip(self.worlds, options, strict=True):
            choices = sorted(text for action, text in opts.items() if action.target == target)
            world.apply(self.rng.choice(choices))
        events = [w.current[-1].event.public() for w in self.worlds]
        assert events[0] == events[1]

    def command_squares(self) -> frozenset:
        return frozenset(p.sq for p in self.worlds[0].pos.pieces.values() if p.is_command)

    def public_action(self) -> None:
        a = self.worlds[0]
        near = {sq for x in self.assassins() if x for sq in (x.sq, *neighbours(17)[x.sq])}
        choices = [
            action
            for action in a.legal_actions()
            if action.letter != "X" or a.side == O
            if not (action.kind == "search" and a.side == O and action.dest in near)
        ]
        if not choices:
            return
        text = a.notation(self.rng.choice(choices))
        outcomes = []
        for world in self.worlds:
            try:
                outcomes.append(world.apply(text).public())
            except ActionError as exc:  # R43 refuses some searches: the same in both
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1]

    def end_turn(self) -> None:
        for world in self.worlds:
            while True:
                try:
                    world.end_turn()
                    break
                except ActionError:
                    world.undo()

    def assert_same_to_the_opposition(self) -> None:
        a, b = self.worlds
        for viewer in (O, None):
            assert a.view_for(viewer) == b.view_for(viewer)
            assert write_record(a, audience=viewer) == write_record(b, audience=viewer)
        assert a.outcome() == b.outcome() and a.scores() == b.scores()
        if a.side == O and not a.is_over():
            assert [a.notation(x) for x in a.legal_actions()] == [
                b.notation(x) for x in b.legal_actions()
            ]
            for text in self.probes():
                assert answer(a, text) == answer(b, text), text

    def probes(self) -> list[str]:
        """What the Opposition might type: its pieces onto and through both hidden squares,
        and moves of an Assassin it cannot see."""
        a = self.worlds[0]
        secret = [x.sq for x in self.assassins() if x]
        texts = [f"X {name(sq)}-{name(neighbours(17)[sq][0])}" for sq in secret]
        for piece in a.pos.side_pieces(O):
            if piece.hidden:
                continue
            letter = a.letter(piece)
            for sq in secret:
                if 0 < distance(piece.sq, sq) <= 3:
                    texts.append(f"{letter} {name(piece.sq)}-{name(sq)}")
                    texts.append(f"{letter} {name(piece.sq)} x {name(sq)}")
                    texts.append(f"{letter} {name(piece.sq)}-{name(sq)} search")
        return texts


def answer(game: Game, text: str) -> str:
    trial = game.copy()
    try:
        return trial.apply(text).public().text
    except ActionError as exc:
        return f"{type(exc).__name__}: {exc}"


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(2, 8))
def test_r40_twin_worlds_look_the_same_to_the_opposition_and_spectators(seed, turns):
    twins = Twins(random.Random(seed))
    for _ in range(turns):
        twins.play_turn()
        twins.assert_same_to_the_opposition()
        if twins.worlds[0].is_over():
            break


def test_r40_twin_worlds_with_a_declined_assassin_look_the_same():
    """Fielding an Assassin or not is itself a secret until the game ends."""
    worlds = [Game(OPTIONS, assassin_starts=start) for start in (("v1h17", None), (None, None))]
    for world in worlds:
        world.apply("H v2h13-v2h12")
        world.end_turn()
    for viewer in (O, None):
        assert worlds[0].view_for(viewer) == worlds[1].view_for(viewer)
        assert write_record(worlds[0], audience=viewer) == write_record(worlds[1], audience=viewer)


def worker_bytes(game: Game) -> bytes:
    """What the AI's worker process receives to search the Opposition's turn."""
    return search_payload(game.for_player(O), "hard", 2.0, 7)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(2, 8))
def test_r40_twin_worlds_send_the_same_bytes_to_the_ai_worker(seed, turns):
    """The pickle an engine searches on holds nothing of the Challenger's hidden Assassin:
    not its start square, its hidden moves (the turn texts, the Assassin's record), nor
    anything that tells them apart."""
    twins = Twins(random.Random(seed))
    for _ in range(turns):
        twins.play_turn()
        a, b = twins.worlds
        if a.is_over():
            break
        if a.side == O:
            assert worker_bytes(a) == worker_bytes(b)
            for text in twins.probes():
                assert answer(a.for_player(O), text) == answer(b.for_player(O), text), text


def test_r40_twin_worlds_with_a_declined_assassin_send_the_same_bytes_to_the_ai_worker():
    """Fielding an Assassin or not is a secret too, down to the ids of the pieces."""
    worlds = [Game(OPTIONS, assassin_starts=(start, "v5h1")) for start in ("v1h17", None)]
    for world in worlds:
        world.apply("H v2h13-v2h12")
        world.end_turn()
    assert worker_bytes(worlds[0]) == worker_bytes(worlds[1])


@pytest.mark.parametrize("game_id", ["tora", "torishogi", "torii"])
def test_what_the_player_to_act_has_staged_stays_out_of_the_opponents_copy(game_id):
    """Staged actions are private until the turn ends: two worlds differing only in them
    give the other side's engine the same game (an AI answering a draw offer, say)."""
    worlds = [seam_game(game_id), seam_game(game_id)]
    first, second = worlds[0].legal_actions()[:2]
    worlds[0].apply(worlds[0].notation(first))
    worlds[1].apply(worlds[1].notation(second))
    copies = [pickle.dumps(w.for_player(w.side.other), pickle.HIGHEST_PROTOCOL) for w in worlds]
    assert copies[0] == copies[1]
    assert worlds[0].staged() and worlds[0].for_player(worlds[0].side).staged()


def seam_game(game_id: str):
    options = {"tora": {"board": "long", "assassins": True}, "torii": {"powers": True}}
    answers = {
        "tora": (
            {"strategy": "aggressive", "ruler": "K", "assassin": "v1h17"},
            {"strategy": "defensive", "ruler": "Q", "assassin": "none"},
        ),
        "torishogi": ({}, {}),
        "torii": ({"spirit": "Monkey"}, {"spirit": "Boar"}),
    }[game_id]
    return game_type(game_id).new_game(options.get(game_id, {}), answers)
