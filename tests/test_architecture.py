"""The layout the folder list promises: dependencies point inwards (bot -> storage, render ->
rules), every game is a package under ``rules/`` whose modules only it imports, the games do
not lean on one another, the engines (``ai``) stand on the rules alone, and the Discord
emulator is a test double the bot does not import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("tora", "torishogi", "torii")
LAYERS = ("rules", "ai", "storage", "render", "bot", "emulator", "benchmarks")


def imports(package: str) -> list[tuple[Path, str]]:
    """Every absolute module a package's files import (``from x import y`` gives ``x``)."""
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((path.relative_to(ROOT), node.module))
            elif isinstance(node, ast.Import):
                found.extend((path.relative_to(ROOT), alias.name) for alias in node.names)
    return found


def top(module: str) -> str:
    return module.split(".")[0]


@pytest.mark.parametrize("package", [layer for layer in LAYERS if layer != "rules"])
def test_no_layer_above_the_rules_imports_a_games_modules(package):
    """Storage, render, the bot, the emulator and the benchmarks use the seam (``rules``,
    ``rules.protocol``, ``rules.registry``...) and a game's package, never its modules."""
    offenders = [
        f"{path}: {module}"
        for path, module in imports(package)
        if module.startswith("rules.")
        and module.split(".")[1] in GAMES
        and len(module.split(".")) > 2
    ]
    assert offenders == []


def test_the_rules_core_depends_on_nothing_of_ours():
    ours = set(LAYERS) - {"rules"}
    assert [f"{p}: {m}" for p, m in imports("rules") if top(m) in ours] == []


@pytest.mark.parametrize("game", GAMES)
def test_a_game_does_not_lean_on_another(game):
    others = {f"rules.{other}" for other in GAMES if other != game}
    offenders = [
        f"{path}: {module}"
        for path, module in imports(f"rules/{game}")
        if any(module == o or module.startswith(o + ".") for o in others)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("package", "allowed"),
    [
        ("ai", {"rules"}),
        ("storage", {"rules"}),
        ("render", {"rules"}),
        ("bot", {"rules", "ai", "storage", "render", "bot"}),
    ],
)
def test_dependencies_point_inwards(package, allowed):
    ours = set(LAYERS)
    offenders = [
        f"{path}: {module}"
        for path, module in imports(package)
        if top(module) in ours and top(module) not in allowed | {package}
    ]
    assert offenders == []


def test_every_game_has_a_rules_package_and_a_drawing_package():
    for game in GAMES:
        assert (ROOT / "rules" / game / "__init__.py").is_file()
        assert (ROOT / "render" / game / "__init__.py").is_file()
