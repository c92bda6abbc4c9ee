"""Run every benchmark and print each figure beside its target."""

from __future__ import annotations

import sys

from . import (
    ai_bench,
    assassin_bench,
    cluster_bench,
    discord_bench,
    ladder_bench,
    render_bench,
    rules_bench,
    service_bench,
    storage_bench,
    torii_bench,
    torishogi_bench,
)


def main() -> int:
    print("tora-bot benchmarks (median of repeated runs unless marked p95)")
    for module in (
        rules_bench,
        assassin_bench,
        torishogi_bench,
        torii_bench,
        storage_bench,
        render_bench,
        ladder_bench,
        service_bench,
        cluster_bench,
        discord_bench,
        ai_bench,
    ):
        for figure in module.run():
            print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
