"""``make compiled``: ``python -m rules.compiled_build [DIR]`` builds the compiled rules
that ``rules.compiled`` loads (docs/RULES.md "mypyc"), into ``.build/compiled`` by default.

It copies the package ``rules`` into a fresh folder beside ``DIR``, compiles the hot modules
of the copy with mypyc (shipped with mypy, the ``test`` extra), writes the manifest of the
copied sources' hashes, and only then puts the folder in ``DIR``'s place: a failed build
leaves no half build behind. Without mypyc, a C compiler or the Python headers it says so in
one line and leaves the rules pure (exit 0); a failed compilation exits 1."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from .compiled import BUILD_DIR, MANIFEST, ROOT, source_hash, sources

# The modules whose loops the searches and the turn end spend their time in (measured in
# docs/RULES.md). Never one with a class whose instances are copied through ``__dict__``
# (``rules.turn``'s machines: the games' ``play`` modules stay interpreted).
HOT = tuple(
    f"rules.tora.{name}"
    for name in (
        "geometry",
        "bits",
        "pieces",
        "position",
        "actions",
        "walk",
        "neighbourhood",
        "reach",
        "strike",
        "movegen",
        "jeopardy",
        "restriction",
        "defences",
        "trapped",
        "kept",
    )
)


def missing() -> str | None:
    """What the build needs and this machine lacks, if anything."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (the test extra: pip install -e '.[test]')"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def build(into: Path, modules: tuple[str, ...] = HOT, root: Path = Path(ROOT)) -> str | None:
    """Build the compiled rules into ``into``; None when done, else why not (and nothing
    changed in ``into``)."""
    staging = into.with_name(into.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    copied = sources(root)
    for path in copied:
        (staging / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / path, staging / path)
    files = [module.replace(".", "/") + ".py" for module in modules]
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *files],
        cwd=staging,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        return "mypyc failed:\n" + (done.stdout + done.stderr)[-4000:]
    for leftover in ("build", ".mypy_cache"):  # the C sources and mypy's cache
        shutil.rmtree(staging / leftover, ignore_errors=True)
    manifest = {
        "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
        "compiled": list(modules),
        "sources": {str(path): source_hash(staging / path) for path in copied},
    }
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    shutil.rmtree(into, ignore_errors=True)
    staging.rename(into)
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    into = Path(args[0] if args else BUILD_DIR)
    lack = missing()
    if lack is not None:
        print(f"make compiled: {lack}; the rules stay pure Python")
        return 0
    start = time.monotonic()
    failure = build(into)
    if failure is not None:
        print(f"make compiled: {failure}\nthe rules stay pure Python", file=sys.stderr)
        return 1
    seconds = time.monotonic() - start
    print(f"make compiled: {len(HOT)} modules in {into} ({seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
