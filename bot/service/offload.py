"""Where the expensive steps run: the rules core's end of a turn, whose R30 and R25 searches
cost about 0.35 s at the median on the long board (up to 2 s), the AI players' searches
(seconds each), and the board images (a few milliseconds each, two or three per request,
most of a request's work on the short board).

In a worker thread that work still holds the interpreter lock, and every other channel
waits on it; so long-board turn ends go to a separate process: the game is pickled there
and back (a few milliseconds), the searches run on another core, and the match adopts the
returned game with its log entry. The other games' actions (a millisecond at most) run at
once on the event loop (``step``): in a thread they would hold it up all the same, the
interpreter lock being theirs for up to 5 ms; their turn ends run in a thread, since their
searches cost up to a tenth of a second at times (``end_turn``).
A picked piece's warnings (TORA's R30, a search per action) are worked out in the same
workers, for the same reason (``warnings``), and so is other work that ends such turns
(``rules_work``: a planned line played out) or takes seconds of Python (``rules_job``: a
Swiss round's pairing).
Images are drawn in processes of their own (``draw``): a view is small to send (about 1 kB),
and drawing it no longer holds the interpreter lock that every channel's requests share. Each
drawing worker has a pool of its own (a lane), and a match's pictures go to the same one
(``lanes``): its last pictures' bands and sprites are kept there, and the images
it drew, by their jobs' bytes (``Kept``). A picture asked for while the same one is being
drawn is not drawn twice (``Offload.draw``: a Torii turn's end, whose public board is the
next player's own).
An AI's turn, or a hint, is searched in a process of its own pool (by default one per core
but one, at least two), on the game as that AI may know it: the hidden information of its
opponent never leaves the bot's process. The searches wait for a worker in a fair order
(``fairness``): one at a time per player, the servers and players served least recently
first.

Nothing a worker does can break its pool: every job answers plain data (its result, a
refusal, or any exception it raised as text, ``WorkerFailed`` here), never an object that
might not unpickle. A pool broken all the same (a worker killed, out of memory) is replaced
at once, and the jobs it held run again on the new one.

A worker never outlives the bot (``bot.lifeline``): it asks for it before anything else of
ours is imported there.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import pickle
import traceback
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import ai
from bot.lifeline import start_worker
from rules import GameState, IllegalAction, game_type
from rules.protocol import GameTurn
from storage import Match
from storage.matches.log import DEADLINE, END, Step, play

from .fairness import FairQueue, Owner
from .fairy import FairyStockfish, fairy_turn
from .lanes import Lanes, shown
from .ports import Renderer

log = logging.getLogger(__name__)
Stepped = TypeVar("Stepped")  # what a step of the rules core gives back
Painted = TypeVar("Painted")  # what a drawing gives back: PNG bytes, a replay
Worked = TypeVar("Worked")  # what a rules worker's call gives back (``rules_work``)
RETRIES = 1  # runs again of a job whose pool broke under it (a job that kills it fails)
OVERRUN = 30.0  # seconds past twice its time after which an AI's search is given up
ANYONE = Owner(0, "anyone")  # a search that serves nobody in particular (tests, tools)


class WorkerFailed(Exception):
    """A job raised in its worker; the message is the worker's traceback (the exception
    itself may not survive the way back)."""


def _answered(work: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """``work()``'s answer, or ``("failed", traceback)`` for any exception it raised (a
    StopIteration included, which an asyncio future would not take)."""
    try:
        return work()
    except Exception:
        return ("failed", traceback.format_exc())


def _pickled(work: Callable[[], tuple[Any, ...]]) -> bytes:
    """In a worker: the answer of ``work``, pickled (a failure to pickle it is a failure)."""
    answer = _answered(work)
    try:
        return pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
    except Exception:
        return pickle.dumps(("failed", traceback.format_exc()))


def _end_turn(data: bytes) -> bytes:
    """In the worker: end the turn of a pickled game; the game, entry and turn, or the
    refusal's parts (an IllegalAction does not unpickle by itself)."""

    def work() -> tuple[Any, ...]:
        game, kind = pickle.loads(data)
        try:
            entry, turn = play(game, Step(kind))
        except IllegalAction as exc:
            return ("refused", exc.rule, exc.reason, list(exc.allowed))
        return ("ended", game, entry, turn)

    return _pickled(work)


def _warnings(data: bytes) -> bytes:
    """In the worker: the rules' warnings of a pickled game's actions (``GameState.warnings``)."""

    def work() -> tuple[Any, ...]:
        game, notations = pickle.loads(data)
        return ("warned", game.warnings(notations))

    return _pickled(work)


def _call(data: bytes) -> bytes:
    """In the worker: the answer of a pickled call of the rules' work (``Offload.rules_work``)."""

    def work() -> tuple[Any, ...]:
        function, args = pickle.loads(data)
        return ("done", function(*args))

    return _pickled(work)


_DRAWERS: dict[bytes, Renderer] = {}  # in a drawing worker: the renderers, by their pickle
KEPT_BYTES = 16 * 1024 * 1024  # in a drawing worker: the images last drawn, by their job


class Kept:
    """The most recently used answers, up to ``most`` bytes with their keys, by the very
    bytes of the job that asked for them: equal bytes unpickle to equal arguments, so a kept
    answer is the image they draw (the same arguments pickled otherwise only miss). Such a
    key costs nothing to make; one of the view's contents (its ``repr``) cost about 5 % of
    an image, and most drawings are of a new state, never kept."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._items: OrderedDict[bytes, bytes] = OrderedDict()
        self._size = 0

    def get(self, job: bytes) -> bytes | None:
        answer = self._items.get(job)
        if answer is not None:
            self._items.move_to_end(job)
        return answer

    def put(self, job: bytes, answer: bytes) -> None:
        if job in self._items or len(job) + len(answer) > self.most:
            return
        self._items[job] = answer
        self._size += len(job) + len(answer)
        while self._size > self.most:
            dropped, kept = self._items.popitem(last=False)
            self._size -= len(dropped) + len(kept)


_KEPT = Kept(KEPT_BYTES)


class _Hashed:
    """A picture with its hash worked out once: a view hashes field by field, and the key
    of an image being drawn is looked up when it is asked for, kept and let go."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hashed) and self._hash == other._hash and self.key == other.key


def _draw(data: bytes) -> bytes:
    """In the worker: an image drawn by the renderer the job names (unpickled once per
    worker), or kept from the same job before (``Kept``)."""
    kept = _KEPT.get(data)
    if kept is not None:
        return kept

    def work() -> tuple[Any, ...]:
        portable, method, args = pickle.loads(data)
        renderer = _DRAWERS.get(portable)
        if renderer is None:
            renderer = _DRAWERS[portable] = pickle.loads(portable)
        return ("drawn", getattr(renderer, method)(*args))

    answer = _answered(work)
    pickled = _pickled(lambda: answer)
    if answer[0] == "drawn":
        _KEPT.put(data, pickled)
    return pickled


def _paint(data: bytes) -> bytes:
    """In the worker: the image a pickled drawing (a call answering PNG bytes, or plain
    data holding an image) draws."""
    return _pickled(lambda: ("drawn", pickle.loads(data)()))


def _warm(portable: bytes | None) -> None:
    """In a new worker: unpickle the renderer, if it draws (importing what draws), so that
    the first image does not wait for it; a rules worker has imported the rules already,
    with this module."""
    if portable is not None and portable not in _DRAWERS:
        _DRAWERS[portable] = pickle.loads(portable)


def portable(renderer: Renderer) -> bytes | None:
    """``renderer`` as a drawing worker gets it (pickled), or None for one that does not
    pickle (it holds something of this process): that one draws in threads here."""
    try:
        return pickle.dumps(renderer, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        log.info("the renderer %r does not pickle: images are drawn in threads", renderer)
        return None


HINT = "hint"  # a search's level that asks for a hint (``ai.hint``: fixed work, no clock)


def _search(game: GameState, level: str, seconds: float, seed: int) -> tuple[Any, ...]:
    if level == HINT:
        return ("turn", ai.hint(game))
    return ("turn", ai.decide(game, level, seconds, seed))


def _ai_turn(data: bytes) -> bytes:
    """In the worker: the whole turn an AI of ``level`` plays on a pickled game."""
    return _pickled(lambda: _search(*pickle.loads(data)))


def search_payload(game: GameState, level: str, seconds: float, seed: int) -> bytes:
    """The bytes an AI's search job sends to its worker: the game (as the AI may know it)
    and what to search for."""
    return pickle.dumps((game, level, seconds, seed), pickle.HIGHEST_PROTOCOL)


def _checked(answer: tuple[Any, ...]) -> tuple[Any, ...]:
    if answer[0] == "failed":
        raise WorkerFailed(answer[1])
    return answer


def _cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_rules_workers() -> int:
    """The rules' worker processes unless configured: one per core, so that a turn end whose
    searches run long (a few hundred milliseconds at times on TORA's short board, seconds on
    the long one) holds up only the turn ends that find every worker busy."""
    return _cores()


def default_ai_workers() -> int:
    """The AI's worker processes unless configured: one per core this process may use but
    one (left to the bot itself), and at least two, so that one player's long searches never
    hold up everyone else's. The rules' and drawing workers work in short bursts beside
    them."""
    return max(2, _cores() - 1)


def default_draw_workers() -> int:
    """The drawing workers unless configured: one per core. Images are most of a request's
    work (a turn end draws two at once, the post's and the next player's), and a single
    worker is a queue every channel waits in: at a hundred requests a second it is busy
    half the time, and its p99 wait alone passes 100 ms on a loaded machine."""
    return _cores()


class Offload:
    """``processes`` workers for the turn ends that search (None: ``default_rules_workers``;
    0: threads, ``GameType.searching_turn_end``), ``ai_processes`` for the AI
    players' searches (None: ``default_ai_workers``; 0: threads only, one search at a
    time) and ``draw_processes`` drawing images (None: ``default_draw_workers``),
    ``renderer``'s (a renderer that does not pickle draws in threads) and any front end's
    (``paint``; 0: threads), each pool started
    when it is first needed (which then waits a moment longer for it) or by ``warm``.
    ``fairy``: Fairy-Stockfish, which plays ``master`` where it can (``fairy``'s
    module)."""

    def __init__(
        self,
        processes: int | None,
        ai_processes: int | None = None,
        draw_processes: int | None = 0,
        renderer: Renderer | None = None,
        fairy: FairyStockfish | None = None,
    ) -> None:
        searchers = default_ai_workers() if ai_processes is None else ai_processes
        if processes is None:
            processes = default_rules_workers()
        if draw_processes is None:
            draw_processes = default_draw_workers()
        self._renderer = renderer
        self._portable = portable(renderer) if renderer is not None and draw_processes else None
        self.lanes = Lanes(draw_processes)
        self._sizes = {"rules": processes, "ai": searchers, **dict.fromkeys(self.lanes.names, 1)}
        self._pools: dict[str, ProcessPoolExecutor] = {}
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}  # by picture (``draw``)
        self.searches = FairQueue(searchers)
        self.fairy = fairy
        self.overrun = OVERRUN

    @property
    def draw_workers(self) -> int:
        """The drawing workers' processes (0: images are drawn in threads)."""
        return len(self.lanes.names)

    def _workers(self, kind: str) -> ProcessPoolExecutor | None:
        size = self._sizes[kind]
        if size and kind not in self._pools:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pools[kind] = ProcessPoolExecutor(
                size, mp_context=context, initializer=start_worker, initargs=(os.getpid(),)
            )
        return self._pools.get(kind)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools = {}

    async def aclose(self) -> None:
        """``close``, and Fairy-Stockfish ended."""
        self.close()
        if self.fairy is not None:
            await self.fairy.close()

    async def _run(self, kind: str, job: Callable[[bytes], bytes], data: bytes) -> Any:
        """``job(data)`` in a worker of ``kind``, its answer unpickled. A pool that broke
        under it is replaced at once and the job runs again (``RETRIES``); one whose pool
        broke under it each time (the job killing its worker, say) fails as a job that
        raised (WorkerFailed), which its callers answer (the AI's random legal turn, a hint
        not worked out), where running it again would only break the pool again."""
        loop = asyncio.get_running_loop()
        attempt = 0
        while True:
            pool = self._workers(kind)
            try:
                return _checked(pickle.loads(await loop.run_in_executor(pool, job, data)))
            except BrokenProcessPool as broken:
                self._replace(kind, pool)
                attempt += 1
                if attempt > RETRIES:
                    raise WorkerFailed(
                        f"a {kind} job's worker died each of the {attempt} times it ran"
                    ) from broken
                log.warning("a %s job runs again in the new worker pool", kind)

    def _replace(self, kind: str, broken: ProcessPoolExecutor | None) -> None:
        """Put a new pool in place of ``broken`` (once, however many of its jobs notice)."""
        if broken is None or self._pools.get(kind) is not broken:
            return
        log.error("a %s worker died and broke its pool; a new pool takes over its jobs", kind)
        del self._pools[kind]
        broken.shutdown(wait=False, cancel_futures=True)
        self._workers(kind)

    @staticmethod
    async def step(game: GameState, work: Callable[[], Stepped]) -> Stepped:
        """``work()``, a step of the rules core on ``game`` (an action staged or taken back,
        the legal actions in words, a menu): at once where the game's steps cost little (not
        ``heavy``: a few milliseconds at most), since a worker thread would hold up the
        event loop all the same (it keeps the interpreter lock for up to the switch
        interval, 5 ms) and only add its hand-overs; in a thread where they may cost more."""
        if game_type(game.game_type).heavy(game):
            return await asyncio.to_thread(work)
        return work()

    async def end_turn(self, match: Match, deadline: bool = False) -> GameTurn:
        """``match.end_turn()`` (or its end by the deadline), off the event loop: in a
        worker process for a game whose turn ends search (``searching_turn_end``) if there
        are any, else in a thread. A TORA short-board turn end costs the rules core half a
        millisecond at the median, but its R30 and R25 searches a few hundred at times (in
        the Discord bench, 1 turn end in 50 over 80 ms of CPU, the longest 330 ms). In a
        thread that still held up every channel: the interpreter lock comes back to the
        loop every switch interval (5 ms), but the loop gives it up again at each of its
        system calls and waits for it each time, and the other channels' posts were seen
        300-450 ms late. In a process, the game goes there and back pickled (about 0.3 ms)
        and the worker's searches start without the kept answers of this process's: about
        1.5 ms more CPU a turn end, on another core."""
        if not (
            self._sizes["rules"] and game_type(match.game.game_type).searching_turn_end(match.game)
        ):
            ender = match.end_turn_by_deadline if deadline else match.end_turn
            return await asyncio.to_thread(ender)
        data = pickle.dumps((match.game, DEADLINE if deadline else END), pickle.HIGHEST_PROTOCOL)
        answer = await self._run("rules", _end_turn, data)
        if answer[0] == "refused":
            _kind, rule, reason, allowed = answer
            raise IllegalAction(rule, reason, allowed)
        turn: GameTurn
        _kind, game, entry, turn = answer
        match.adopt(game, entry)
        return turn

    def warnings(self, game: GameState, notations: Sequence[str]) -> Awaitable[tuple[str, ...]]:
        """``game.warnings(notations)``, off the event loop, on ``game`` as it is now: it is
        pickled or copied before this returns, so the caller may let go of the match's lock
        while they are worked out. TORA's (R30, a search for each action: on the long board
        with Assassins, up to a few hundred milliseconds for one piece) in a rules worker as
        its turn ends are, for the same reason; the other games' in a thread."""
        notations = tuple(notations)
        if self._sizes["rules"] and game_type(game.game_type).searching_turn_end(game):
            data = pickle.dumps((game, notations), pickle.HIGHEST_PROTOCOL)
            return self._warnings_of(data)
        return asyncio.to_thread(game.copy().warnings, notations)

    async def _warnings_of(self, data: bytes) -> tuple[str, ...]:
        found: tuple[str, ...] = (await self._run("rules", _warnings, data))[1]
        return found

    async def rules_work(self, game: GameState, work: Callable[..., Worked], *args: Any) -> Worked:
        """``work(*args)``, steps of the rules core that end turns of ``game`` (a line of
        planned turns played out on a copy, say), off the event loop: in a rules worker
        where its turn ends search, as ``end_turn`` does and for the same reason, else in a
        thread. ``work`` is a module's function and ``args`` its own copies: both go to the
        worker pickled. It answers plain data, its refusals included: whatever it raises
        there comes back as WorkerFailed."""
        if not game_type(game.game_type).searching_turn_end(game):
            return await asyncio.to_thread(work, *args)
        return await self.rules_job(work, *args)

    async def rules_job(self, work: Callable[..., Worked], *args: Any) -> Worked:
        """``work(*args)``, pure work of up to seconds of Python (a Swiss round's pairing),
        in a rules worker if there are any, else in a thread: in a thread it would hold the
        interpreter lock every channel waits on. As in ``rules_work``, ``work`` and ``args``
        go there pickled, and a raise there comes back as WorkerFailed."""
        if not self._sizes["rules"]:
            return await asyncio.to_thread(work, *args)
        data = pickle.dumps((work, args), pickle.HIGHEST_PROTOCOL)
        done: Worked = (await self._run("rules", _call, data))[1]
        return done

    def warm(self) -> None:
        """Start the drawing and rules workers now, the renderer loaded in the drawing ones,
        so that the first image or turn end waits for neither (a pool starts a worker for
        each job none is free for: one job per worker starts them all)."""
        for lane in self.lanes.names:
            pool = self._workers(lane)
            if pool is not None:
                pool.submit(_warm, self._portable)
        rules = self._workers("rules")
        if rules is not None:
            for _worker in range(self._sizes["rules"]):
                rules.submit(_warm, None)

    async def draw(self, method: str, *args: Any) -> bytes:
        """The image of the renderer's ``method`` (``board`` or ``private``) of ``args``,
        off the event loop: in a drawing worker, or in a thread. An image being drawn
        already, for the same picture (``_picture``), is not drawn again: its drawing serves
        both (a Torii turn's end, whose public board is the next player's own)."""
        key = self._picture(method, args)
        if key is None:
            return await self._draw(method, args)
        shared = self._drawing.get(key)
        if shared is None:
            shared = self._drawing[key] = asyncio.ensure_future(self._draw(method, args))
            shared.add_done_callback(functools.partial(self._drawn_once, key))
        return await asyncio.shield(shared)  # one caller cancelled: not the others' drawing

    def _picture(self, method: str, args: tuple[Any, ...]) -> Hashable:
        """Exactly what ``method`` of ``args`` draws, where the renderer says it (its
        ``picture``: equal for equal images only, a player's own picture never equal to
        another's or the public one where they may differ), else None."""
        picture = getattr(self._renderer, "picture", None)
        if picture is None:
            return None
        key: Hashable = picture(method, *args)
        try:
            return _Hashed(key)
        except TypeError:  # a view that does not hash: drawn each time
            return None

    def _drawn_once(self, key: Hashable, drawing: asyncio.Future[bytes]) -> None:
        if self._drawing.get(key) is drawing:
            del self._drawing[key]
        if not drawing.cancelled():
            drawing.exception()  # each caller raises it; none need be left to read it

    async def _draw(self, method: str, args: tuple[Any, ...]) -> bytes:
        renderer = self._renderer
        if renderer is None:
            raise RuntimeError("this offload has no renderer")
        here = functools.partial(getattr(renderer, method), *args)
        if self._portable is None:
            return await asyncio.to_thread(here)
        job = pickle.dumps((self._portable, method, args), pickle.HIGHEST_PROTOCOL)
        return await self._drawn(_draw, job, here, shown(args))

    async def paint(self, draw: Callable[[], Painted]) -> Painted:
        """``draw()`` (a front end's picture: a call answering PNG bytes, or a replay's GIF
        with what it shows, plain data), off the event loop: in a drawing worker, or in a
        thread for a call that does not pickle."""
        if not self.lanes.names:
            return await asyncio.to_thread(draw)
        try:
            job = pickle.dumps(draw, pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            log.info("a picture that does not pickle is drawn in a thread")
            return await asyncio.to_thread(draw)
        return await self._drawn(_paint, job, draw)

    async def _drawn(
        self,
        job: Callable[[bytes], bytes],
        data: bytes,
        here: Callable[[], Painted],
        players: Hashable = None,
    ) -> Painted:
        """An image drawn by ``job(data)`` in a drawing worker (the lane for ``players``,
        ``Lanes.lane_for``); one its worker could not draw is drawn here by ``here`` (a
        drawing that fails anyway raises its own error)."""
        try:
            with self.lanes.waiting(players) as lane:
                answer = await self._run(lane, job, data)
        except (WorkerFailed, BrokenProcessPool) as exc:
            log.warning("an image could not be drawn in its worker; drawing it here: %s", exc)
            return await asyncio.to_thread(here)
        image: Painted = answer[1]
        return image

    async def ai_turn(
        self, game: GameState, level: str, seconds: float, seed: int, owner: Owner = ANYONE
    ) -> list[str]:
        """The turn an AI of ``level`` plays on ``game`` (already as that AI may know it,
        ``for_player``), searched off the event loop within ``seconds`` once ``owner``'s
        turn for a worker has come (``fairness``). WorkerFailed if the search raised.
        ``master`` asks Fairy-Stockfish first where there is one and it knows the game
        (``GameType.uci_variant``: ToriShogi; its process takes a core as a worker would).
        A search running past twice its time and ``overrun`` more, once it has its worker,
        is given up (WorkerFailed): every engine is bounded, so it is a bug, and it would
        hold its match and its turn for a worker."""
        async with self.searches.turn(owner):
            if self.fairy is not None and level == "master":
                played = await fairy_turn(self.fairy, game, seconds)
                if played is not None:
                    return played
            searching = self._searched(game, level, seconds, seed)
            try:
                return await asyncio.wait_for(searching, 2 * seconds + self.overrun)
            except TimeoutError:  # every engine is bounded: a bug; its worker may go on
                raise WorkerFailed(f"a {level} search overran its {seconds:.1f} s") from None

    async def _searched(self, game: GameState, level: str, seconds: float, seed: int) -> list[str]:
        if self._workers("ai") is None:
            work = functools.partial(_search, game, level, seconds, seed)
            answer = _checked(await asyncio.to_thread(_answered, work))
        else:
            answer = await self._run("ai", _ai_turn, search_payload(game, level, seconds, seed))
        return list(answer[1])
