"""Run the benchmarks and print each figure beside its target: every one, or those named
(``python -m benchmarks discord service``)."""

from __future__ import annotations

import sys

from rules import compiled

from . import (
    ai_bench,
    assassin_bench,
    autocomplete_bench,
    cluster_bench,
    discord_bench,
    fairy_rate,
    ladder_bench,
    render_bench,
    rules_bench,
    service_bench,
    storage_bench,
    torii_bench,
    torishogi_bench,
    tournament_bench,
    web_bench,
)

BENCHMARKS = {  # in the order they run
    "rules": rules_bench,
    "assassin": assassin_bench,
    "torishogi": torishogi_bench,
    "torii": torii_bench,
    "storage": storage_bench,
    "render": render_bench,
    "ladder": ladder_bench,
    "tournament": tournament_bench,
    "service": service_bench,
    "autocomplete": autocomplete_bench,
    "cluster": cluster_bench,
    "discord": discord_bench,
    "web": web_bench,
    "ai": ai_bench,
    "fairy": fairy_rate,
}


def main(argv: list[str] | None = None) -> int:
    names = sys.argv[1:] if argv is None else argv
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        print(f"no benchmark {', '.join(unknown)}; they are: {', '.join(BENCHMARKS)}")
        return 2
    print("tora-bot benchmarks (median of repeated runs unless marked p95)")
    print(f"rules: {compiled.STATUS}")  # make compiled / make pure (docs/RULES.md)
    for name, module in BENCHMARKS.items():
        if names and name not in names:
            continue
        for figure in module.run():
            print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
