"""Fairy-Stockfish, where a server admin has installed it (``TORA_FAIRY_STOCKFISH``: the path
of a UCI binary), plays ``master`` through this small UCI adapter in the games it knows (a
game type's ``uci_variant``: ToriShogi's ``torishogi``); without it, or whenever it fails,
our own engine serves.

The engine is a child process spoken to over pipes by asyncio (``uci``/``uciok``, ``setoption
name UCI_Variant value <variant>``, ``isready``/``readyok``, ``position fen ... moves ...``,
``go movetime N`` or ``go depth N``, ``bestmove``): nothing waits on it but the coroutine that
asked, so the event loop never blocks. Every answer has a deadline; an engine that died,
hung or answered nonsense is killed and started again once for the same question, and if that
fails too the question gets no answer (None) and the caller plays our engine's move. An
engine that failed twice in a row rests for ``REST_SECONDS`` before it is tried again, so a
broken installation costs one slow turn, not every turn.

The engine is an outsider: a move it names is played only if the rules core accepts it as a
legal move of the position asked about (``fairy_turn``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rules import GameState, game_type

from .terms import Settings

log = logging.getLogger(__name__)
START_SECONDS = 10.0  # for ``uciok`` and ``readyok`` of a starting engine
GRACE_SECONDS = 2.0  # beyond a ``go movetime``'s own time, for its ``bestmove``
STOP_SECONDS = 1.0  # for the ``bestmove`` a ``stop`` asks for, before the engine is killed
REST_SECONDS = 300.0  # an engine that failed twice in a row is left alone this long
LONGEST_LINE = 1 << 16  # bytes of one line the engine writes (a long ``info ... pv``)
MOVE = re.compile(r"[a-z]\d{1,2}[a-z]\d{1,2}\+?|[A-Z]@[a-z]\d{1,2}")  # c3c4, d5d6+, S@d4
LONGEST_MOVE = 16  # characters of a move it names (``S@d4``, ``d5d6+``)


class EngineFailed(Exception):
    """The engine died, did not answer in time, or answered something that is not UCI."""


@dataclass(frozen=True)
class Limit:
    """How long the engine thinks: ``seconds`` (``go movetime``), or ``depth`` plies (``go
    depth``, for measuring) or ``nodes`` (``go nodes``: the same answer for the same position
    on any machine, for an analysis) within ``seconds`` all the same."""

    seconds: float
    depth: int | None = None
    nodes: int | None = None

    def go(self) -> str:
        if self.depth is not None:
            return f"go depth {self.depth}"
        if self.nodes is not None:
            return f"go nodes {self.nodes}"
        return f"go movetime {max(1, round(self.seconds * 1000))}"


class FairyStockfish:
    """One Fairy-Stockfish process run by ``command`` (the binary's path, and for tests any
    arguments), started when first asked, one question at a time."""

    def __init__(self, command: Sequence[str], *, start_seconds: float = START_SECONDS) -> None:
        self.command = tuple(command)
        self.start_seconds = start_seconds
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._resting_until = 0.0
        self._variants: set[str] = set()  # what the running engine's UCI_Variant offers
        self._variant: str | None = None  # the variant it was last set to
        self.starts = 0  # processes started (for tests and logs)

    @property
    def resting(self) -> bool:
        return time.monotonic() < self._resting_until

    async def best_move(
        self, variant: str, fen: str, moves: Sequence[str], limit: Limit
    ) -> str | None:
        """The engine's move in ``variant`` for the position ``fen`` then ``moves`` (None: no
        answer, the engine resting or not knowing the variant, or it says there is no move);
        an engine that fails is started again once for the same question."""
        if self.resting:
            return None
        async with self._lock:
            try:
                return await self._ask_twice(variant, fen, moves, limit)
            except asyncio.CancelledError:
                self._abandon()  # its late ``bestmove`` must not answer the next question
                raise

    async def _ask_twice(
        self, variant: str, fen: str, moves: Sequence[str], limit: Limit
    ) -> str | None:
        for attempt in (1, 2):
            try:
                return await self._ask(variant, fen, moves, limit)
            except (EngineFailed, TimeoutError) as exc:
                why = str(exc) or "no answer in time"
                log.warning("Fairy-Stockfish failed (try %d of 2): %s", attempt, why)
                await self._kill()
        self._resting_until = time.monotonic() + REST_SECONDS
        log.error("Fairy-Stockfish failed twice; our engine serves for %.0f s", REST_SECONDS)
        return None

    async def _ask(self, variant: str, fen: str, moves: Sequence[str], limit: Limit) -> str | None:
        if self._process is None or self._process.returncode is not None:
            await self._start()
        if variant not in self._variants:
            log.warning("Fairy-Stockfish does not know the variant %r", variant)
            return None
        if variant != self._variant:
            self._send(f"setoption name UCI_Variant value {variant}")
            self._send("isready")
            await self._until("readyok", self.start_seconds)
            self._variant = variant
        self._send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self._send(limit.go())
        try:
            line = await self._until("bestmove", limit.seconds + GRACE_SECONDS)
        except TimeoutError:
            self._send("stop")
            line = await self._until("bestmove", STOP_SECONDS)
        words = line.split()
        if len(words) < 2 or len(words[1]) > LONGEST_MOVE:
            raise EngineFailed(f"a bestmove without a move: {line[:80]!r}")
        return None if words[1] in ("(none)", "0000") else words[1]

    async def _start(self) -> None:
        await self._kill()
        self.starts += 1
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                limit=LONGEST_LINE,
            )
        except OSError as exc:
            raise EngineFailed(f"cannot run {self.command[0]!r}: {exc}") from None
        self._send("uci")
        self._variants = await self._read_options()
        self._variant = None

    async def _read_options(self) -> set[str]:
        """The variants the engine's ``UCI_Variant`` option offers, read up to ``uciok``."""
        variants: set[str] = set()
        deadline = time.monotonic() + self.start_seconds
        while True:
            line = await self._line(deadline - time.monotonic())
            if line.startswith("option name UCI_Variant "):
                words = line.split()
                variants |= {words[i + 1] for i, w in enumerate(words[:-1]) if w == "var"}
            elif line == "uciok":
                return variants

    async def _until(self, word: str, seconds: float) -> str:
        """The next line that starts with ``word`` (the ``info`` lines before it skipped);
        TimeoutError if none comes within ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            line = await self._line(deadline - time.monotonic())
            if line.split(maxsplit=1)[:1] == [word]:
                return line

    async def _line(self, seconds: float) -> str:
        process = self._process
        if process is None or process.stdout is None:
            raise EngineFailed("the engine is not running")
        try:
            raw = await asyncio.wait_for(process.stdout.readline(), max(0.0, seconds))
        except ValueError:  # a line longer than LONGEST_LINE
            raise EngineFailed("the engine wrote a line too long") from None
        if not raw:
            raise EngineFailed("the engine died")
        return raw.decode("utf-8", "replace").strip()

    def _send(self, command: str) -> None:
        process = self._process
        if process is None or process.stdin is None or process.stdin.is_closing():
            raise EngineFailed("the engine is not running")
        process.stdin.write(command.encode() + b"\n")

    def _abandon(self) -> None:
        """Kill the engine without waiting (asyncio reaps it); the next question starts
        another."""
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()

    async def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

    async def close(self) -> None:
        """End the engine (``quit``, then killed if it does not go at once)."""
        process = self._process
        if process is not None and process.returncode is None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.write(b"quit\n")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), STOP_SECONDS)
        await self._kill()


async def fairy_turn(engine: FairyStockfish, game: GameState, seconds: float) -> list[str] | None:
    """The move Fairy-Stockfish plays for ``game``'s side to move within ``seconds``, as our
    notation, if the rules core finds it legal there (None: a game it does not know, no
    answer or an illegal one; the caller's own engine serves)."""
    return await engine_turn(engine, game, Limit(seconds))


async def engine_turn(engine: FairyStockfish, game: GameState, limit: Limit) -> list[str] | None:
    """``fairy_turn`` with any ``limit`` (``go depth`` for measuring)."""
    variant = game_type(game.game_type).uci_variant
    if variant is None:
        return None
    fen, moves = position_of(game)
    text = await engine.best_move(variant, fen, moves, limit)
    if text is None:
        return None
    try:
        move = game.parse_action(text)
    except Exception:  # the rules' refusal of a malformed or illegal move
        log.warning("Fairy-Stockfish named %r, not a legal move of %s", text[:20], game.fen())
        return None
    return [game.notation(move)]


def position_of(game: GameState) -> tuple[str, list[str]]:
    """The game's start FEN and its moves since (so that the engine sees the repetitions
    too), or the current FEN alone if its turns are not one move each (a word such as
    ``resign`` would make the engine stop reading the moves there, silently)."""
    start = getattr(game, "start_fen", None)
    moves = [turn.texts[0] for turn in game.turns if len(turn.texts) == 1]
    plain = all(MOVE.fullmatch(move) for move in moves)
    if start is None or not plain or len(moves) != len(game.turns):
        return game.fen(), []
    return start, moves


def fairy_of(settings: Settings) -> FairyStockfish | None:
    """The engine ``settings.fairy_stockfish`` names (None: none is installed)."""
    path = settings.fairy_stockfish
    return FairyStockfish([path]) if path else None
