"""The compiled build (``make compiled``, docs/RULES.md "mypyc"), built into a temporary
folder (minutes: slow, make soak and CI; skipped without mypyc, a C compiler or the Python
headers): a process that asks for it loads the compiled modules, and so do the workers it
spawns; a build whose source changed is refused; and the rules' exactness tests (the exact
searches against their oracles, the copies and pickles) pass on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rules import compiled, compiled_build

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

# The exact searches beside their oracles (tests/jeopardy_oracle.py, trapped_oracle.py), the
# copies and pickles, and a sample of the rulings' tests.
EXACTNESS = [
    "tests/test_jeopardy_exact.py",
    "tests/test_trapped_search.py",
    "tests/test_rules_search_oracle.py",
    "tests/test_rules_search_exact.py",
    "tests/test_rules_jeopardy.py",
    "tests/test_rules_kept_answers.py",
    "tests/test_rules_board_and_pieces.py",
    "tests/test_game_seam.py",
    "tests/test_compiled.py",
]

PROBE = """
import multiprocessing, pickle
import rules
from rules.tora import Game
from rules.tora import position

def where(data):
    from rules.tora import position
    game = pickle.loads(data)
    game.end_turn()
    return position.__file__, game.fen()

if __name__ == "__main__":
    game = Game(board="long")
    for action in game.legal_actions()[:1]:
        game.apply(action)
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        there, fen = pool.apply(where, (pickle.dumps(game),))
    game.end_turn()
    print(rules.compiled.STATUS)
    print(position.__file__)
    print(there)
    print(fen == game.fen())
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    lack = compiled_build.missing()
    if lack is not None:
        pytest.skip(lack)
    into = tmp_path_factory.mktemp("compiled") / "build"
    failure = compiled_build.build(into)
    assert failure is None, failure
    return into


def run(build: Path, *args: str, choice: str = "compiled") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TORA_RULES": choice, "TORA_COMPILED_DIR": str(build)}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def probe(build: Path, tmp_path: Path) -> list[str]:
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    done = run(build, str(script))
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_process_that_asks_and_the_workers_it_spawns_load_the_compiled_rules(build, tmp_path):
    status, here, there, same = probe(build, tmp_path)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert status == f"compiled, the build in {build}"
    assert here == str(build / "rules" / "tora" / f"position{suffix}")
    assert there == here  # the spawned worker took the same path, the game pickled to it
    assert same == "True"


def test_a_build_whose_source_changed_is_refused(build, tmp_path):
    stale = tmp_path / "stale"
    subprocess.run(["cp", "-r", str(build), str(stale)], check=True)
    manifest = json.loads((stale / compiled.MANIFEST).read_text())
    manifest["sources"]["rules/tora/walk.py"] = "0" * 64
    (stale / compiled.MANIFEST).write_text(json.dumps(manifest))
    status, here, there, _same = probe(stale, tmp_path)
    assert status == "pure Python (rules/tora/walk.py changed since make compiled)"
    assert here == there == str(ROOT / "rules" / "tora" / "position.py")


def test_the_rules_exactness_tests_pass_on_the_compiled_build(build):
    # pytest in a process whose rules are the compiled ones (imported, so checked, first)
    first = "import rules.tora.position as p; assert p.__file__.endswith('.so'), p.__file__"
    suite = "import pytest, sys; sys.exit(pytest.main(sys.argv[1:]))"
    options = ["-p", "no:cacheprovider", "-q", "-n", "0"]
    done = run(build, "-c", f"{first}\n{suite}", *EXACTNESS, *options)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
