"""The loader of the optional compiled build of the rules (``make compiled``, docs/RULES.md
"mypyc"): imported first by ``rules/__init__.py``, before any other module of the rules.

``make compiled`` (``rules.compiled_build``) copies the package ``rules`` into a build
directory (``.build/compiled``), compiles the hot modules there with mypyc and writes a
manifest of every copied source's hash. The source tree never holds a compiled module.

A process uses the build when it is one of those that gain from it (started as ``python -m
bot``, ``benchmarks`` or ``ai``; or any, with ``TORA_RULES=compiled``; none, with
``TORA_RULES=pure``) and every source is as it was when it was built (else pure Python,
and one log line says why). It then puts the build directory first on ``sys.path`` and on
the package's own path, so that every module of the rules after this one comes from the
build; a worker process spawned from it receives that ``sys.path`` (``multiprocessing``
passes it on) and imports the build's copy of the package from the start. ``STATUS`` says
which, for the benchmarks' header."""

from __future__ import annotations

import os
import sys
from collections.abc import MutableSequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

# Every process that imports the rules imports this: the standard library's heavier modules
# (pathlib, hashlib, json, logging) are imported only when a process asks for the build.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # holds the package
BUILD_DIR = os.path.join(ROOT, ".build", "compiled")
MANIFEST = "tora-compiled-rules.json"  # a name only a build writes: it marks the build's copy
ENTRY_POINTS = ("bot", "benchmarks", "ai")  # ``python -m <one of these>`` asks for the build


def build_dir() -> Path:
    """Where the build is looked for (``TORA_COMPILED_DIR``: the tests' own builds)."""
    from pathlib import Path

    return Path(os.environ.get("TORA_COMPILED_DIR") or BUILD_DIR)


def source_hash(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def sources(root: Path) -> list[Path]:
    """Every file of the package that a build copies (relative to ``root``)."""
    package = root / "rules"
    return sorted(
        path.relative_to(root)
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


def refusal(build: Path, root: Path) -> str | None:
    """Why the build in ``build`` may not be used for the sources in ``root``; None if it
    may: built for this Python, every compiled module present, every source unchanged."""
    import json
    import sysconfig

    try:
        manifest = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"no compiled build in {build} (make compiled)"
    if manifest.get("ext_suffix") != sysconfig.get_config_var("EXT_SUFFIX"):
        return f"the build in {build} is for another Python (make compiled)"
    hashes: dict[str, str] = manifest.get("sources", {})
    for path in sources(root):
        if str(path) not in hashes:
            return f"{path} is new since make compiled"
        if source_hash(root / path) != hashes.pop(str(path)):
            return f"{path} changed since make compiled"
    if hashes:
        return f"{min(hashes)} is gone since make compiled"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for module in manifest.get("compiled", []):
        if not (build / (module.replace(".", "/") + suffix)).exists():
            return f"{module} is missing from the build (make compiled)"
    return None


def asked() -> bool:
    """Whether this process asks for the compiled build (see the module's docstring)."""
    choice = os.environ.get("TORA_RULES", "")
    if choice in ("pure", "compiled"):
        return choice == "compiled"
    return _module_run(sys.orig_argv) in ENTRY_POINTS


def _module_run(argv: list[str]) -> str | None:
    """The module the interpreter was told to run (``python [options] -m <module> ...``),
    read from its own options only: what follows a script, ``-c`` or the module belongs to
    them (``python -c ... -m ai`` runs no module)."""
    rest = iter(argv[1:])
    for arg in rest:
        if arg.startswith("-m"):
            return arg[2:] or next(rest, None)
        if arg in ("-X", "-W"):  # options with a value of their own
            next(rest, None)
        elif arg.startswith("-c") or arg == "-" or not arg.startswith("-"):
            return None
    return None


def activate(package_path: MutableSequence[str]) -> str:
    """Put the build first on the paths when this process asks for it and it may be used;
    the status either way (the reason is logged once when a build is refused)."""
    if os.path.exists(os.path.join(ROOT, MANIFEST)):  # the build's copy, handed to a worker
        return f"compiled, the build in {ROOT}"
    if not asked():
        return "pure Python"
    from pathlib import Path

    build = build_dir()
    reason = refusal(build, Path(ROOT))
    if reason is not None:
        if (build / MANIFEST).exists():  # no build at all is the default: nothing to say
            import logging

            logging.getLogger(__name__).warning("compiled rules not used, pure Python: %s", reason)
        return f"pure Python ({reason})"
    sys.path.insert(0, str(build))
    package_path.insert(0, str(build / "rules"))
    return f"compiled, the build in {build}"


STATUS = activate(sys.modules[__package__].__path__)
