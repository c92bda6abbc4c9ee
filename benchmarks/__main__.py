"""Run every benchmark and print each figure beside its target."""

from __future__ import annotations

import sys

from . import rules_bench


def main() -> int:
    print("tora-bot benchmarks (median of repeated runs unless marked p95)")
    for figure in rules_bench.run():
        print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
