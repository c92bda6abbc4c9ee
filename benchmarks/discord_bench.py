"""Discord figures: concurrent short-board matches through the local Discord emulator, the
bot in its own process (``python -m bot``, as in production: real clock, real rate limits,
render's images, WAL + synchronous=FULL), the emulator and its users in this one. Requests
arrive as a Poisson stream over random channels, each the acting player's next step, a
channel's requests one after another as its players would. Three runs: 50 matches at 25
requests a second with typed commands (an action of a planned random turn, or the end of the
turn), the same with the Play panel alone (opening it, each pick in its menus, End turn), and
200 matches at 50 a second with typed commands.

Two latencies, from the emulator sending INTERACTION_CREATE: to the bot's first callback
(Discord allows 3 s before "This interaction failed"; the bot answers at once when the answer
is ready within a quarter second, else defers then), and, for turn ends, to the public post
with the new board image in the channel (the service's outbox), taken when the emulator
stores it (``Msg.stored_at``: Discord has it), not when the waiting user's coroutine next
runs: that coroutine shares this process's event loop with the emulator and every other
user, and its delay is this process's, not the bot's.

The latencies are the machine's: the emulator (Discord's side, on other machines in
production) and the users run in this process, on the same cores as the bot. The typed runs'
users plan their random turns (on a copy of the game) before each run, as people think on
their own machines; the emulator's CPU per turn is still about half the bot's (its workers
included). So the CPU time of each side is printed too, for reference: the bot's (its
process and its workers, from ``/proc``), which is what a change to the bot moves, and this
process's. This process collects its garbage as the bot's do (``bot.collector``), from
before the warm-up: with Python's defaults its full collections of the users' games and the
emulator's messages paused it for 100-300 ms in a run, every post waiting in it meanwhile.
The disk's fsync is measured in the same run, beside them (a turn end waits for a commit)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot import collector
from bot.app import menus
from emulator import Interaction
from harness.stage import Stage, planned_turn
from rules.tora import Game, IllegalAction, Side

from .common import Figure, median, poisson_arrivals
from .disk import fsync_figure

CHANNELS = 50
RATE = 25.0
BUSY = (200, 50.0)  # the busier run: matches, requests a second
SECONDS = 20.0
END = "end"
DEFERRALS = (5, 6)  # Discord's callback types of a deferral (a message's, an update's)
STEPS_PER_TURN = 3  # about: a turn's actions and its end (3.2 on average in these runs)


@dataclass
class Table:
    channel: int
    players: tuple[str, str]
    game: Game = field(
        default_factory=lambda: Game(
            board="short", challenger_setup="aggressive", opposition_setup="defensive"
        )
    )
    steps: list[str] = field(default_factory=list)  # the planned turn's, then END
    actor: str = ""  # who sends them
    ahead: list[tuple[str, list[str]]] = field(default_factory=list)  # turns planned before
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_post: int = 0
    panel_open: bool = False  # with the Play panel: opened for the running turn


@dataclass
class Samples:
    callback: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    failed: int = 0
    deferred: int = 0  # answered in two requests: deferred first, the answer later

    def answered(self, sent: Interaction) -> bool:
        """Count ``sent``, answered (``done``): whether without error."""
        if sent.error is not None or sent.latency is None:
            self.failed += 1
            return False
        self.callback.append(sent.latency * 1000)
        self.deferred += sent.callback_type in DEFERRALS
        return True

    def deferral_figure(self) -> Figure:
        share = self.deferred / max(len(self.callback), 1) * 100
        return Figure("  interactions deferred (not answered at once)", share, "%")


async def _open(stage: Stage, table: Table) -> None:
    first, second = table.players
    where = table.channel
    await stage.slash(first, "challenge", opponent=second, channel=where)
    await stage.click(second, "Accept", channel=where)
    await stage.slash(first, "setup", strategy="aggressive", channel=where)
    await stage.slash(second, "setup", strategy="defensive", channel=where)
    await stage.posted("The game begins", channel=where)
    table.last_post = stage.emu.public_messages(where)[-1].id


async def _opening_delivered(stage: Stage, names: tuple[str, ...]) -> None:
    """Wait until every player has the opening's two private messages (their setup prompt,
    then their turn or the game's start): the first message to each user opens a DM channel,
    which the bot paces, so opening hundreds of matches at once leaves a backlog of them
    that the figures, of a bot in its stride, are not about."""
    emu = stage.emu
    users = [stage.user[name] for name in names]
    await emu.wait_until(lambda: all(len(emu.dms(u)) >= 2 for u in users) or None, 600, "DMs")


def _plan(table: Table, rng: random.Random) -> bool:
    """The shadow game's next random turn, planned into ``ahead`` (who plays it, its steps);
    False once the game is over."""
    game = table.game
    if game.is_over():
        return False
    actor = table.players[0 if game.side == Side.CHALLENGER else 1]
    table.ahead.append((actor, [*planned_turn(game, rng, attack=False), END]))
    return True


def _plan_ahead(tables: list[Table], arrivals: float, rng: random.Random) -> None:
    """Plan, before a run, the turns its ``arrivals`` (spread over the tables) should reach,
    with a margin: the users think on their own machines, not on the bot's, so their CPU
    stays out of the run; a table that gets further plans on the spot."""
    turns = math.ceil(arrivals / len(tables) / STEPS_PER_TURN) + 2
    for table in tables:
        while len(table.ahead) < turns and _plan(table, rng):
            pass


async def _step(stage: Stage, table: Table, rng: random.Random, out: Samples) -> None:
    if not table.steps:
        if not table.ahead and not _plan(table, rng):
            return
        table.actor, table.steps = table.ahead.pop(0)
    step = table.steps.pop(0)
    emu = stage.emu
    if step == END:
        sent = await emu.slash(stage.user[table.actor], table.channel, "tora", "end")
    else:
        sent = await emu.slash(stage.user[table.actor], table.channel, "tora", "act", action=step)
    await sent.done(30)
    if not out.answered(sent):
        return
    if step == END:
        seen = table.last_post
        post = await emu.wait_for_message(
            table.channel, lambda m: m.id > seen and bool(m.files) and m.ephemeral_to is None, 30
        )
        out.board.append((post.stored_at - sent.sent_at) * 1000)
        table.last_post = post.id


async def _panel_step(stage: Stage, table: Table, rng: random.Random, out: Samples) -> None:
    """One interaction with the Play panel: opening it, one pick, or End turn."""
    game = table.game
    if not table.panel_open:
        if game.is_over():
            return
        table.actor = table.players[0 if game.side == Side.CHALLENGER else 1]
        sent = await stage.emu.slash(stage.user[table.actor], table.channel, "tora", "play")
        table.panel_open = True
        await _sample(sent, out)
        return
    legal = game.legal_actions() if game.actions_left else []
    if not legal:
        await _panel_end(stage, table, out)
        return
    texts = game.notations(legal)
    if not table.steps or table.steps[0] not in texts:  # the action being picked
        table.steps = [rng.choice(texts)]
    text = table.steps[0]
    group = game.choices()[texts.index(text)].group
    path = menus.route(game.menu(), game.choices(group), text)
    sent, staged = await stage.pick_once(table.actor, text, path, table.channel)
    await _sample(sent, out)
    if staged:
        game.apply(text)
        table.steps = []


async def _panel_end(stage: Stage, table: Table, out: Samples) -> None:
    game = table.game
    while True:
        try:
            game.end_turn()
            break
        except IllegalAction:  # R30: the panel's Undo first, as a player would
            game.undo()
            await _sample(await stage.click(table.actor, "Undo", table.channel), out)
    sent = await stage.click(table.actor, "End turn", table.channel)
    await _sample(sent, out)
    table.panel_open = False


async def _sample(sent: Interaction, out: Samples) -> None:
    await sent.done(30)
    out.answered(sent)


async def _arrival(
    stage: Stage, table: Table, rng: random.Random, out: Samples, panel: bool
) -> None:
    async with table.lock:
        await (_panel_step if panel else _step)(stage, table, rng, out)


async def _load(
    stage: Stage,
    tables: list[Table],
    seconds: float,
    seed: int,
    panel: bool = False,
    rate: float = RATE,
) -> Samples:
    """The run of ``seed``: its turns planned first (``_plan_run``), outside what it measures."""
    rng = random.Random(seed)
    out = Samples()
    tasks = []
    async for _planned in poisson_arrivals(rate, seconds, rng):
        table = rng.choice(tables)
        step = _arrival(stage, table, random.Random(rng.random()), out, panel)
        tasks.append(asyncio.create_task(step))
    await asyncio.gather(*tasks)
    return out


def _plan_run(tables: list[Table], seconds: float, seed: int, panel: bool, rate: float) -> None:
    """Plan the turns of ``_load``'s run of ``seed``: the panel's users pick from the game
    as it stands at each step instead."""
    if not panel:
        _plan_ahead(tables, rate * seconds, random.Random(f"plan-{seed}"))


def _p(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0.0


async def _bench(
    workdir: Path, panel: bool, channels: int = CHANNELS, rate: float = RATE
) -> list[Figure]:
    names = tuple(f"p{n}" for n in range(1, 2 * channels + 1))
    async with Stage(workdir, names, process=True, channels=channels) as stage:
        tables = [
            Table(channel, (names[2 * n], names[2 * n + 1]))
            for n, channel in enumerate(stage.channels)
        ]
        for start in range(0, channels, 10):  # ten at a time: people do not all start at once
            await asyncio.gather(*(_open(stage, t) for t in tables[start : start + 10]))
        await _opening_delivered(stage, names)
        _plan_run(tables, 3.0, 0, panel, rate)
        collector.tune()
        await _load(stage, tables, 3.0, seed=0, panel=panel, rate=rate)  # warm up
        _plan_run(tables, SECONDS, 1, panel, rate)
        bot, here = _cpu_seconds(stage.bot_pid), time.process_time()
        sent = len(stage.emu.requests)
        samples = await _load(stage, tables, SECONDS, seed=1, panel=panel, rate=rate)
        cpu = Cpu(
            _cpu_seconds(stage.bot_pid) - bot,
            time.process_time() - here,
            len(stage.emu.requests) - sent,
        )
    where = f"{channels} matches, {rate:g}/s, bot in its own process"
    callback, board = samples.callback, samples.board
    if panel:
        return [
            Figure(f"discord: Play panel, to first response p50 ({where})", median(callback), "ms"),
            Figure("discord: Play panel, to first response p99", _p(callback, 0.99), "ms", 300),
            Figure("discord: Play panel, interactions that failed", samples.failed, "", 0),
            samples.deferral_figure(),
            *cpu.figures(len(callback) + samples.failed, "panel interaction"),
        ]
    if channels != CHANNELS:
        return [
            Figure(f"discord: turn end to the board posted, p50 ({where})", median(board), "ms"),
            Figure("discord: turn end to the board posted, p99", _p(board, 0.99), "ms", 300),
            Figure("discord: interactions that failed", samples.failed, "", 0),
            samples.deferral_figure(),
            *cpu.figures(len(board), "turn"),
        ]
    return [
        Figure(f"discord: to first callback p50 ({where})", median(callback), "ms"),
        Figure("discord: to first callback p99", _p(callback, 0.99), "ms", 300),
        Figure("discord: turn end to the board image posted, p50", median(board), "ms"),
        Figure("discord: turn end to the board image posted, p99", _p(board, 0.99), "ms", 150),
        Figure("discord: interactions that failed", samples.failed, "", 0),
        samples.deferral_figure(),
        *cpu.figures(len(board), "turn"),
    ]


@dataclass
class Cpu:
    """CPU seconds over the measured run: the bot's (process and workers) and this process's
    (the emulator and the users); and the bot's requests to Discord's REST API (each costs
    the bot about 1 ms of CPU in discord.py)."""

    bot: float
    here: float
    requests: int

    def figures(self, count: int, per: str) -> list[Figure]:
        each = max(count, 1)
        return [
            Figure(f"  the bot's CPU per {per} (with its workers)", self.bot / each * 1000, "ms"),
            Figure(f"  the emulator's and users' CPU per {per}", self.here / each * 1000, "ms"),
            Figure(f"  the bot's requests to Discord per {per}", self.requests / each, ""),
        ]


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` and of its live descendants (the bot's
    rules, AI and drawing workers), read from ``/proc`` (Linux)."""
    root = Path(f"/proc/{pid}")
    fields = (root / "stat").read_text().rsplit(")", 1)[1].split()
    seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for task in (root / "task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                seconds += _cpu_seconds(int(child))
    return seconds


def run() -> Iterator[Figure]:
    for panel, channels, rate in ((False, CHANNELS, RATE), (True, CHANNELS, RATE), (False, *BUSY)):
        with tempfile.TemporaryDirectory(prefix="tora-discord-bench-") as tmp:
            yield fsync_figure(Path(tmp))
            yield from asyncio.run(_bench(Path(tmp), panel, channels, rate))


if __name__ == "__main__":
    for figure in run():
        print(figure.line(), flush=True)
