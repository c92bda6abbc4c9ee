"""Every structured log field the bot writes (``extra={...}``) avoids the names logging
reserves for itself: ``extra={"thread": ...}`` raised KeyError inside a refusal's cleanup,
turning it into "Something went wrong"."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "storage", "rules", "render", "benchmarks")
RESERVED = set(vars(logging.LogRecord("n", logging.INFO, "p", 1, "m", None, None))) | {
    "message",
    "asctime",
}


def extra_keys() -> list[tuple[str, int, str]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                for keyword in node.keywords:
                    if keyword.arg == "extra" and isinstance(keyword.value, ast.Dict):
                        for key in keyword.value.keys:
                            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                                found.append((str(path.relative_to(ROOT)), node.lineno, key.value))
    return found


def test_no_log_call_uses_a_reserved_field_name() -> None:
    keys = extra_keys()
    assert len(keys) >= 8  # the scan sees the bot's log calls
    clashes = [(path, line, key) for path, line, key in keys if key in RESERVED]
    assert clashes == []


def test_the_scan_would_catch_the_old_clash() -> None:
    assert "thread" in RESERVED and "thread_id" not in RESERVED
