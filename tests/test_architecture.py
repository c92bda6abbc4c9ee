"""The layout the folder list promises: dependencies point inwards (bot -> storage, render ->
rules), every game is a package under ``rules/`` whose modules only it imports, the games do
not lean on one another, the engines (``ai``) stand on the rules alone, and the Discord
emulator is a test double the bot does not import, holding Discord alone (the bot on it is
``harness``). Inside ``bot``, the parts stand on one another in one order (the match service,
the ladder and the tournaments beside each other, the application layer, the Discord adapter,
the wiring); discord.py, Pillow and the database drivers each have their one place. No
module imports, by any path, one that imports it back. Relative imports count as the
absolute ones they stand for."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules.registry import GAMES as REGISTERED

ROOT = Path(__file__).resolve().parent.parent
GAMES = tuple(REGISTERED)  # the games of the product (the tests' own register later)
LAYERS = ("rules", "ai", "storage", "render", "bot", "emulator", "harness", "benchmarks")


def imports(package: str, root: Path = ROOT) -> list[tuple[Path, str]]:
    """Every module a package's files import, as an absolute name (``from x import y`` gives
    ``x``; ``from . import y`` gives the package's ``y``; ``from .x import y`` its ``x``)."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        here = path.relative_to(root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((here, node.module))
            elif isinstance(node, ast.ImportFrom):
                base = _relative_base(here, node.level)
                if node.module:
                    found.append((here, f"{base}.{node.module}"))
                else:
                    found.extend((here, f"{base}.{alias.name}") for alias in node.names)
            elif isinstance(node, ast.Import):
                found.extend((here, alias.name) for alias in node.names)
    return found


def _relative_base(path: Path, level: int) -> str:
    """The package a relative import of ``level`` dots in ``path`` starts from."""
    package = path.parent.parts
    return ".".join(package[: len(package) - (level - 1)])


def module_of(path: Path) -> str:
    """``bot/app/actions.py`` -> ``bot.app.actions`` (a package's ``__init__`` is the package)."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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


HOSTING = ("storage", "bot/service", "bot/app", "bot/discord", "bot/ladder", "bot/tournament")


def games_named(path: Path) -> list[str]:
    """The game packages a file imports, also as ``from rules import tora``."""
    named = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "rules":
            named += [f"rules.{alias.name}" for alias in node.names if alias.name in GAMES]
    return named


@pytest.mark.parametrize("package", HOSTING)
def test_the_host_reaches_every_game_through_the_seam_alone(package):
    """Storage, the match service, the application layer, the adapter, the ladder and the
    tournaments import no game's package: a game's options, setup, policies and tournament
    scoring reach them through its ``GameType`` (the registry)."""
    offenders = [
        f"{path}: {module}"
        for path, module in imports(package)
        if module.startswith("rules.") and module.split(".")[1] in GAMES
    ]
    offenders += [
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for module in games_named(path)
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


@pytest.mark.parametrize("layer", ["render", "ai"])
@pytest.mark.parametrize("game", GAMES)
def test_a_games_drawing_and_engine_do_not_lean_on_anothers(layer, game):
    """Each game's drawing (``render/<game>``) and engine (``ai/<game>``) stand on the
    shared parts of their layer, never on another game's."""
    others = {f"{layer}.{other}" for other in GAMES if other != game}
    offenders = [
        f"{path}: {module}"
        for path, module in imports(f"{layer}/{game}")
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


def module_graph(*packages: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Which modules of ``packages`` each of their modules imports: at module level, inside
    functions and under ``if TYPE_CHECKING:`` alike, absolute or relative; ``from p import m``
    of a submodule ``m`` counts as importing ``p.m``."""
    files = {}
    for path in sorted(p for package in packages for p in (root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        files[name] = (path, name if is_package else name.rpartition(".")[0])
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, (path, home) in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = home.split(".")[: len(home.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names
                ]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            graph[name].update(t for t in targets if t in files and t != name)
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` as the modules along it (the first one again at its
    end), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return [*path[path.index(imported) :], imported]
            if imported not in state and (found := visit(imported)):
                return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return []


def test_the_import_graph_finds_a_cycle_through_any_kind_of_import(tmp_path):
    """The check below sees an import inside a function, one only for the type checker,
    relative ones and ``from package import module``."""
    files = {
        "__init__.py": "",
        "a.py": "from . import b\n",
        "b.py": "def f():\n    from .c import g\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.a import x\n",
        "d.py": "import p.a\n",
    }
    (tmp_path / "p").mkdir()
    for name, text in files.items():
        (tmp_path / "p" / name).write_text(text, encoding="utf-8")
    graph = module_graph("p", root=tmp_path)
    assert graph == {"p": set(), "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert a_cycle(graph) == ["p.a", "p.b", "p.c", "p.a"]
    assert a_cycle({"p.a": {"p.b"}, "p.b": set()}) == []


@pytest.mark.parametrize("package", LAYERS)
def test_no_import_cycle_in_any_package(package):
    """No module imports, even from inside a function or only for the type checker, a
    module that imports it back: the modules of each package (each game's in ``rules``, the
    bot's parts, the application layer and the adapter) stack in layers."""
    assert a_cycle(module_graph(package)) == []


def test_no_import_cycle_across_the_packages():
    assert a_cycle(module_graph(*LAYERS)) == []


def test_relative_imports_are_read_as_the_absolute_ones_they_stand_for(tmp_path):
    """The layer checks above see ``from ..service import x`` in ``bot/app`` as an import of
    ``bot.service``, inside a function too."""
    files = {
        "bot/__init__.py": "from . import app\n",
        "bot/app/__init__.py": "from .actions import act\n",
        "bot/app/actions.py": "def f():\n    from ..service import x\n    from .. import ladder\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert sorted((str(path), module) for path, module in imports("bot", tmp_path)) == [
        ("bot/__init__.py", "bot.app"),
        ("bot/app/__init__.py", "bot.app.actions"),
        ("bot/app/actions.py", "bot.ladder"),
        ("bot/app/actions.py", "bot.service"),
    ]


# The parts of ``bot``, each standing only on those of lower rank (and on itself): the
# match service; the ladder and the tournaments beside each other, neither knowing the
# other; the application layer every front end uses; the Discord adapter; the wiring.
BOT_PARTS = {
    "bot.lifeline": "lifeline",  # a worker's tie to the bot's process (the standard library)
    "bot.collector": "lifeline",  # the garbage collector's settings (the standard library)
    "bot.i18n": "i18n",  # the catalogs and the language of a text (Babel alone)
    "bot.service": "service",
    "bot.ladder": "ladder",
    "bot.tournament": "tournament",
    "bot.app": "app",
    "bot.discord": "discord",
    "bot.web": "web",  # the web board: a front end beside the Discord adapter
    "bot": "wiring",  # the package's docstring alone
    "bot.build": "wiring",
    "bot.config": "wiring",
    "bot.logs": "wiring",
    "bot.__main__": "wiring",
    "bot.catalogs": "wiring",  # the catalogs' tools: extract (the command tree too), check
    "bot.goldens": "wiring",  # the golden images in every language (render with the catalogs)
}
BOT_RANKS = {
    "lifeline": 0,
    "i18n": 0,
    "service": 1,
    "ladder": 2,
    "tournament": 2,
    "app": 3,
    "discord": 4,
    "web": 4,
    "wiring": 5,
}


def bot_part(module: str) -> str | None:
    """The part of ``bot`` a module belongs to (the longest prefix that names one)."""
    names = module.split(".")
    for length in range(len(names), 0, -1):
        part = BOT_PARTS.get(".".join(names[:length]))
        if part is not None:
            return part
    return None


def test_every_module_of_the_bot_has_its_place_in_the_order():
    """A new module or package of ``bot`` is placed in ``BOT_PARTS`` (and so in the order)."""
    unplaced = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if bot_part(module_of(path.relative_to(ROOT))) is None
    ]
    assert unplaced == []


def test_the_bots_parts_stand_only_on_those_below_them():
    offenders = []
    for path, module in imports("bot"):
        if top(module) != "bot":
            continue
        mine, theirs = bot_part(module_of(path)), bot_part(module)
        assert mine is not None
        if theirs is None:
            offenders.append(f"{path}: {module} (no such part of bot)")
        elif theirs != mine and BOT_RANKS[theirs] >= BOT_RANKS[mine]:
            offenders.append(f"{path}: {module} ({mine} may not use {theirs})")
    assert offenders == []


@pytest.mark.parametrize("part", ["bot/app", "bot/discord", "bot/web"])
def test_the_application_layer_and_the_adapter_reach_storage_through_the_service(part):
    """Everything stored is read and changed through the match service (and the ladder's
    and tournaments' desks): only the wiring opens the store."""
    assert [f"{p}: {m}" for p, m in imports(part) if top(m) == "storage"] == []


def _importers(library: str) -> set[str]:
    """The top-level packages (and ``bot``'s parts) whose files import ``library``."""
    found = set()
    for layer in LAYERS:
        for path, module in imports(layer):
            if top(module) == library:
                found.add(f"{layer}.{bot_part(module_of(path))}" if layer == "bot" else layer)
    return found


def test_discord_py_is_imported_only_by_the_adapter_the_emulator_and_the_harness():
    assert _importers("discord") <= {"bot.discord", "emulator", "harness"}


def test_the_web_board_stands_on_the_application_layer_and_the_service_alone():
    """``bot.web`` serves pages from the application layer and the match service's reads:
    nothing of storage, discord.py, the Discord adapter, render or a game."""
    banned = {"storage", "discord", "render", "PIL"} | {f"rules.{game}" for game in GAMES}
    offenders = [
        f"{path}: {module}"
        for path, module in imports("bot/web")
        if top(module) in banned
        or module.startswith(("bot.discord", *(f"{b}." for b in banned)))
        or module in banned
    ]
    assert offenders == []


def test_pillow_is_imported_only_by_render():
    assert _importers("PIL") <= {"render"}


# The benchmarks of storage itself measure its files with the drivers, as its tests do.
MEASURING_STORAGE = {"benchmarks/common.py", "benchmarks/storage_bench.py"}


def test_the_database_drivers_are_imported_only_by_storage():
    drivers = {"aiosqlite", "asyncpg", "sqlite3"}
    offenders = [
        f"{path}: {module}"
        for layer in LAYERS
        if layer != "storage"
        for path, module in imports(layer)
        if top(module) in drivers and str(path) not in MEASURING_STORAGE
    ]
    assert offenders == []


def test_the_emulator_is_discord_alone():
    """The test double imports nothing of ours; the bot on it is ``harness``'s."""
    ours = set(LAYERS) - {"emulator"}
    assert [f"{p}: {m}" for p, m in imports("emulator") if top(m) in ours] == []
