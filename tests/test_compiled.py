"""The compiled build's seams on the pure path (make test): a game pickled (as the turn-end
workers receive it) or copied plays on as the game does, a position pickles every field, and
the loader refuses a build whose sources changed (docs/RULES.md "mypyc"). The compiled
build itself is tested by tests/test_compiled_build.py (slow)."""

from __future__ import annotations

import contextlib
import json
import pickle
import random
import sys
import sysconfig

import pytest
from rules_helpers import end_the_turn

from rules import compiled
from rules.tora import Game, IllegalAction, Options
from rules.tora.position import _FIELDS, Position


def play_turns(game: Game, rng: random.Random, turns: int) -> None:
    """Random turns (a refused search or end of turn is taken back, as the benchmarks do)."""
    for _ in range(turns):
        if game.is_over():
            return
        for _ in range(game.actions_left):
            if not game.legal_actions():
                break
            with contextlib.suppress(IllegalAction):
                game.apply(rng.choice(game.legal_actions()))
        end_the_turn(game)


def state(game: Game) -> tuple[object, ...]:
    return (game.fen(), game.key(), game.view_for(game.side), game.view_for(None), game.turns)


def new_game(board: str) -> Game:
    """Assassins on the long board (one each, in a corner of their home edge)."""
    if board == "long":
        return Game(Options(board="long", assassins=True), ("v1h17", "v17h1"))
    return Game(board=board)


# on: the turns played after the copy (three on the long board, whose turn ends search)
@pytest.mark.parametrize(("board", "seed", "on"), [("long", 1, 3), ("short", 2, 8)])
def test_a_pickled_and_a_copied_game_play_on_as_the_game_does(board, seed, on):
    game = new_game(board)
    play_turns(game, random.Random(seed), 6)
    rng = random.Random(seed + 100)
    if game.legal_actions():  # a staged action travels too
        with contextlib.suppress(IllegalAction):
            game.apply(rng.choice(game.legal_actions()))
    copies = [pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)), game.copy()]
    for other in copies:
        assert state(other) == state(game)
        assert type(other.pos) is Position and other.pos.pieces == game.pos.pieces
    for each in (game, *copies):
        play_turns(each, random.Random(seed + 200), on)
    assert state(copies[0]) == state(game)
    assert state(copies[1]) == state(game)


def test_a_position_pickles_every_field_and_shares_no_container():
    pos = Game(board="long").pos
    names = ("assassins", "terrain", *_FIELDS)
    if hasattr(Position, "__slots__"):  # pure Python (a compiled class has none)
        assert set(names) == set(Position.__slots__)
    again = pickle.loads(pickle.dumps(pos))
    copied = pos.copy()
    for name in names:
        assert getattr(again, name) == getattr(pos, name), name
        assert getattr(copied, name) == getattr(pos, name), name
        if name != "values" and isinstance(getattr(pos, name), list | set | dict):
            assert getattr(copied, name) is not getattr(pos, name), name


def fake_build(tmp_path, sources: dict[str, str]):
    """A source tree ``tmp_path/src`` and a build of it in ``tmp_path/build``, as
    ``make compiled`` leaves it (the compiled module an empty stand-in)."""
    root, build = tmp_path / "src", tmp_path / "build"
    for path, text in sources.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    (build / "rules").mkdir(parents=True)
    (build / ("rules/hot" + suffix)).write_bytes(b"")
    manifest = {
        "ext_suffix": suffix,
        "compiled": ["rules.hot"],
        "sources": {str(p.relative_to(root)): compiled.source_hash(p) for p in root.rglob("*.py")},
    }
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))
    return root, build


def test_a_build_is_used_only_while_every_source_is_as_it_was_built(tmp_path):
    root, build = fake_build(tmp_path, {"rules/__init__.py": "", "rules/hot.py": "x = 1\n"})
    assert compiled.refusal(build, root) is None
    (root / "rules/hot.py").write_text("x = 2\n")
    assert compiled.refusal(build, root) == "rules/hot.py changed since make compiled"
    (root / "rules/hot.py").write_text("x = 1\n")
    (root / "rules/new.py").write_text("")
    assert compiled.refusal(build, root) == "rules/new.py is new since make compiled"
    (root / "rules/new.py").unlink()
    (root / "rules/hot.py").unlink()
    assert compiled.refusal(build, root) == "rules/hot.py is gone since make compiled"


def test_a_build_without_its_compiled_modules_or_for_another_python_is_refused(tmp_path):
    root, build = fake_build(tmp_path, {"rules/__init__.py": "", "rules/hot.py": ""})
    (build / ("rules/hot" + sysconfig.get_config_var("EXT_SUFFIX"))).unlink()
    assert compiled.refusal(build, root) == "rules.hot is missing from the build (make compiled)"
    manifest = json.loads((build / compiled.MANIFEST).read_text())
    (build / compiled.MANIFEST).write_text(json.dumps({**manifest, "ext_suffix": ".other.so"}))
    assert "for another Python" in (compiled.refusal(build, root) or "")
    assert "no compiled build" in (compiled.refusal(tmp_path / "none", root) or "")


@pytest.mark.parametrize(
    ("argv", "choice", "asks"),
    [
        (["python", "-m", "bot"], "", True),
        (["python", "-m", "benchmarks", "rules"], "", True),
        (["python", "-m", "ai", "match"], "", True),
        (["python", "-m", "pytest", "-n", "auto"], "", False),
        (["python", "-m", "harness.demo"], "", False),
        (["python", "-m", "bot"], "pure", False),
        (["python", "-m", "pytest"], "compiled", True),
        (["python", "-X", "dev", "-mbot"], "", True),
        # what follows -c, a script or another module is theirs, not the interpreter's
        (["python", "-c", "import rules", "-m", "ai"], "", False),
        (["python", "-cimport rules", "-m", "ai"], "", False),
        (["python", "script.py", "-m", "bot"], "", False),
        (["python", "-m", "pytest", "-m", "bot"], "", False),
    ],
)
def test_only_the_processes_that_gain_ask_for_the_build(monkeypatch, argv, choice, asks):
    monkeypatch.setattr(sys, "orig_argv", argv)
    monkeypatch.setenv("TORA_RULES", choice)
    assert compiled.asked() is asks


def test_no_compiled_module_holds_a_turn_machine():
    """``TurnMachine.copy`` copies an instance's ``__dict__``, which a compiled class keeps its
    attributes outside of: the machines (``rules.turn``, the games' ``play``) stay interpreted."""
    from importlib import import_module

    from rules import compiled_build
    from rules.turn import TurnMachine

    for module in compiled_build.HOT:
        found = vars(import_module(module)).values()
        assert not [c for c in found if isinstance(c, type) and issubclass(c, TurnMachine)]
    assert "rules.turn" not in compiled_build.HOT
