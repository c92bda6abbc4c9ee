"""ToriShogi's search beside Fairy-Stockfish's on the same machine: nodes a second of each
from the same four positions (the start, then 20, 40 and 60 random moves in), 2 s each, one
after the other. Fairy-Stockfish is the binary ``TORA_FAIRY_STOCKFISH`` names (one thread, its
own count of nodes from its last ``info`` line); without it the comparison is skipped with a
line saying so.

    TORA_FAIRY_STOCKFISH=/path/to/fairy-stockfish python -m benchmarks fairy
"""

from __future__ import annotations

import os
import random
import subprocess
import threading

from ai.torishogi.search import think
from bot.service.fairy import position_of
from rules.torishogi import ToriShogiGame

from .ai_bench import rate_positions
from .common import Figure

SECONDS = 2.0  # of search from each position
VARIANT = "torishogi"


def ours(games: list[ToriShogiGame]) -> tuple[float, str]:
    """Our search's nodes a second over ``games`` and the depths it reached."""
    nodes, spent, depths = 0, 0.0, []
    for game in games:
        found = think(game.pos.copy(), game.history, SECONDS, random.Random(1))
        nodes, spent = nodes + found.nodes, spent + found.seconds
        depths.append(str(found.depth))
    return nodes / spent, "/".join(depths)


def fairy(binary: str, games: list[ToriShogiGame]) -> tuple[float, str]:
    """Fairy-Stockfish's nodes a second over ``games`` (``go movetime``, one thread) and the
    depths it reached. The engine is killed if it has not answered 10 s after its time."""
    engine = subprocess.Popen(
        [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    watchdog = threading.Timer(len(games) * (SECONDS + 10) + 10, engine.kill)
    watchdog.start()
    try:
        assert engine.stdin is not None and engine.stdout is not None
        send = engine.stdin.write
        send(f"uci\nsetoption name UCI_Variant value {VARIANT}\nsetoption name Threads value 1\n")
        nodes, spent, depths = 0, 0.0, []
        for game in games:
            fen, moves = position_of(game)
            tail = " moves " + " ".join(moves) if moves else ""
            send(f"ucinewgame\nisready\nposition fen {fen}{tail}\n")
            send(f"go movetime {int(SECONDS * 1000)}\n")
            last: dict[str, int] = {}
            for line in engine.stdout:
                words = line.split()
                if words[:1] == ["bestmove"]:
                    break
                if words[:1] == ["info"] and "nodes" in words and "time" in words:
                    last = {key: int(words[words.index(key) + 1]) for key in ("nodes", "time")}
                    if "depth" in words:
                        last["depth"] = int(words[words.index("depth") + 1])
            else:
                raise RuntimeError("Fairy-Stockfish stopped before its best move")
            nodes, spent = nodes + last["nodes"], spent + last["time"] / 1000
            depths.append(str(last.get("depth", "?")))
        send("quit\n")
        engine.wait(10)
        return nodes / spent, "/".join(depths)
    finally:
        watchdog.cancel()
        if engine.poll() is None:
            engine.kill()


def run() -> list[Figure]:
    binary = os.environ.get("TORA_FAIRY_STOCKFISH")
    if not binary:
        print("(Fairy-Stockfish's nodes a second skipped: set TORA_FAIRY_STOCKFISH to its binary)")
        return []
    games = rate_positions()
    rate, depths = ours(games)
    theirs, their_depths = fairy(binary, games)
    where = f"{SECONDS:g} s from {len(games)} positions"
    return [
        Figure(f"ToriShogi: our search, nodes/s ({where}, depth {depths})", rate, "nodes/s"),
        Figure(
            f"ToriShogi: Fairy-Stockfish, nodes/s (same, depth {their_depths})", theirs, "nodes/s"
        ),
        Figure("ToriShogi: Fairy-Stockfish's rate / ours", theirs / rate, "x"),
    ]


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
