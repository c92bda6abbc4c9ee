"""A scripted stand-in for Fairy-Stockfish that speaks UCI for ToriShogi, for the adapter's
tests (``bot.service.fairy``): ``python fake_uci.py MODE LOG`` writes every command it reads
to the file ``LOG`` and, asked to ``go``, answers as ``MODE`` says:

- ``good``: the first legal move of the position (found by the rules core);
- ``hang``: nothing, ``stop`` included;
- ``die``: it exits;
- ``illegal``: a move that is not legal there (``a7a1``);
- ``die-once``: it exits the first time any such engine is asked (a ``LOG.died`` file marks
  it), and answers as ``good`` after;
- ``slow``: as ``good``, a second later;
- ``no-variant``: its ``UCI_Variant`` option does not offer ``torishogi``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rules.torishogi import ToriShogiGame


def position(words: list[str]) -> ToriShogiGame:
    """``position fen F... [moves M...]``: the game there."""
    rest = words[2:]
    cut = rest.index("moves") if "moves" in rest else len(rest)
    game = ToriShogiGame(" ".join(rest[:cut]))
    for move in rest[cut + 1 :]:
        game.apply(move)
        game.end_turn()
    return game


def answer(mode: str, log: Path, game: ToriShogiGame) -> str | None:
    """What the engine says to ``go`` (None: it says nothing)."""
    died = log.with_suffix(".died")
    if mode == "die" or (mode == "die-once" and not died.exists()):
        died.touch()
        sys.exit(1)
    if mode == "hang":
        return None
    if mode == "slow":
        time.sleep(1)
    if mode == "illegal":
        return "bestmove a7a1"
    moves = game.legal_moves()
    return f"bestmove {game.notation(moves[0])}" if moves else "bestmove (none)"


def main(mode: str, log: Path) -> None:
    game = ToriShogiGame()
    variants = "chess shogi" if mode == "no-variant" else "chess shogi torishogi"
    for line in sys.stdin:
        with log.open("a") as out:
            out.write(line)
        words = line.split()
        reply: str | None = None
        if words == ["uci"]:
            combo = " ".join(f"var {name}" for name in variants.split())
            reply = f"id name Fake\noption name UCI_Variant type combo default chess {combo}\nuciok"
        elif words == ["isready"]:
            reply = "readyok"
        elif words[:2] == ["position", "fen"]:
            game = position(words)
        elif words[:1] == ["go"]:
            reply = answer(mode, log, game)
            if reply is not None:
                reply = "info depth 1 score cp 0\n" + reply
        elif words == ["quit"]:
            return
        if reply is not None:
            print(reply, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
