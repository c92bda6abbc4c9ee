"""The bot on a stage: a local Discord emulator (``emulator``) with a server, a channel
and users, and the bot connected to it, either in this process (made by ``bot.build``, as
``python -m bot`` makes it) or as ``python -m bot`` in a child process (which can be killed
and started again). The end-to-end tests, ``make demo`` and the Discord benchmark act as
users through it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.app import menus
from bot.build import Bot, build
from bot.config import ActivityConfig, Config, WebConfig
from bot.discord.client import point_at, sync_commands
from bot.i18n import own_command
from bot.service import Clock, Settings
from emulator import Emulator, Interaction, Msg
from emulator.models import walk_components
from rules.tora import Action, Game, IllegalAction
from storage import Config as StoreConfig

# images drawn in this process's threads (``draw_processes``): a test may look at what the
# renderer was given; turn ends in threads too: no worker process starts with each stage
FAST = Settings(burst=1000, every=0.001, ai_seconds=0.2, draw_processes=0, rules_processes=0)
Seen = Callable[
    [Interaction], Awaitable[None]
]  # called with each pick once answered  # the users on stage type faster than people


class Stage:
    """``async with Stage(dir, ("ann", "bob")) as stage:``; ``stage.user["ann"]`` is her id,
    ``stage.channel`` the server's one channel. With ``process``, the bot runs as a child
    process (real rate limits and clock); else in this process with ``settings``/``clock``.
    With ``shards`` (each child's shard ids, of ``shard_count``), several child processes
    share the bot's shards and ``database`` (docs/DEPLOY.md); ``kill(n)`` kills one. With
    ``web`` (the default), the bot serves its web board (``web_url``) on a free port, or on
    ``web_port`` when given (a bot in this process); its links name ``web_public`` when given
    (as ``TORA_WEB_URL`` does) and are signed with ``web_secret`` when given (as
    ``TORA_WEB_SECRET``): two stages given the same two are two deployments of one host, whose
    links differ in nothing but what their matches make them. With ``activity``, it is an
    Activity's application too (``TORA_ACTIVITY=on``, the emulator's OAuth2 credentials)."""

    def __init__(
        self,
        workdir: Path,
        names: tuple[str, ...] = ("ann", "bob"),
        *,
        process: bool = False,
        settings: Settings = FAST,
        clock: Clock | None = None,
        channels: int = 1,
        emulator: dict[str, Any] | None = None,
        database: StoreConfig | None = None,
        shards: list[tuple[int, ...]] | None = None,
        shard_count: int = 1,
        web: bool = True,
        web_port: int = 0,
        web_public: str | None = None,
        web_secret: str = "",
        activity: bool = False,
    ) -> None:
        self.workdir = workdir
        self.activity = activity
        self.web = web
        self.web_port = web_port
        self.web_public = web_public
        self.web_secret = web_secret
        self.names = names
        self.process = process
        self.settings = settings
        self.clock = clock
        self.emu = Emulator(bot_name="TORA", **(emulator or {}))
        self.channels: list[int] = []
        self.channel_count = channels
        self.user: dict[str, int] = {}
        self.bot: Bot | None = None
        self._task: asyncio.Task[None] | None = None
        self.database = database or StoreConfig(path=workdir / "tora.sqlite3")
        self.shards = shards
        self.shard_count = shard_count
        self.children: dict[int, asyncio.subprocess.Process] = {}  # by process number
        self.web_ports: dict[int, int] = {}  # each child's web board port, by process number

    async def __aenter__(self) -> Stage:
        await self.start()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        await self.stop()
        if kind is None:  # a test that failed already says why
            self.check_well_formed()

    def check_well_formed(self) -> None:
        """Fails if the bot sent Discord anything it refuses as written: the delivery drops
        a post Discord refuses for good, which a test that never looks at it would miss."""
        refused = self.emu.malformed
        assert not refused, "Discord refuses what the bot sent:\n" + "\n".join(refused)

    @property
    def channel(self) -> int:
        return self.channels[0]

    @property
    def config(self) -> Config:
        emu = self.emu
        return Config(
            emu.token,
            self.database,
            "WARNING",
            None,
            emu.api_base,
            emu.gateway_url,
            web=WebConfig(
                enabled=self.web, port=self.web_port, url=self.web_public, secret=self.web_secret
            ),
            activity=ActivityConfig(self.activity, emu.world.bot.id, emu.activities.client_secret),
        )

    @property
    def web_url(self) -> str:
        """Where the bot (the first process of it) serves its web board."""
        if self.bot is not None and self.bot.web is not None:
            return self.bot.web.url
        return f"http://127.0.0.1:{self.web_ports[0]}"

    async def start(self) -> None:
        emu = self.emu
        await emu.start()
        self.guild = emu.add_guild("tora club")
        count = self.channel_count
        self.channels = [emu.add_channel(self.guild, f"tora-{n}") for n in range(count)]
        self.user = {name: emu.add_user(name, admin=name == "admin") for name in self.names}
        point_at(emu.api_base, emu.gateway_url)
        await sync_commands(emu.token, None, entry_point=self.activity)
        await self.launch()

    async def launch(self, number: int | None = None) -> None:
        """Start the bot (every process of it, or process ``number``) and wait until it is
        connected: one gateway session per shard."""
        before = self.emu.identifies
        if self.process:
            numbers = range(len(self.shards or [()])) if number is None else [number]
            for n in numbers:
                self.children[n] = await self._spawn(n)
        else:
            self.bot = await build(
                self.config, settings=self.settings, clock=self.clock, dm_rate=500
            )
            self._task = asyncio.create_task(self.bot.run())
        # a bot process imports everything and starts its worker pools before it connects:
        # alone 1.5 s, but while other tests' bots spawn theirs on a loaded CI machine, once
        # more than 30 s
        await self.emu.wait_until(lambda: self.emu.identifies > before, 90, "the bot to connect")
        await self.emu.wait_ready(60, sessions=self.shard_count)
        if self.bot is not None:
            # "ready" is dispatched a moment after the guilds arrive; closing the bot before
            # then makes that dispatch fail on a closed loop.
            await asyncio.wait_for(self.bot.client.wait_until_ready(), 30)

    async def _spawn(self, number: int) -> asyncio.subprocess.Process:
        database = self.database
        env = os.environ | {
            "DISCORD_TOKEN": self.emu.token,
            "TORA_DB": database.url or str(database.path),
            "TORA_DISCORD_API": self.emu.api_base,
            "TORA_LOG_LEVEL": "WARNING",
            "TORA_WEB_PORT": str(self.web_ports.setdefault(number, free_port())),
            "TORA_WEB": "on" if self.web else "off",
            "TORA_WEB_URL": self.web_public or "",
            "TORA_WEB_SECRET": self.web_secret,
            "TORA_ACTIVITY": "on" if self.activity else "off",
            "TORA_CLIENT_ID": str(self.emu.world.bot.id),
            "TORA_CLIENT_SECRET": self.emu.activities.client_secret,
        }
        if database.schema:
            env["TORA_DB_SCHEMA"] = database.schema
        args = ["-m", "bot"]
        if self.shards is not None:
            shards = ",".join(str(shard) for shard in self.shards[number])
            args += ["--shards", shards, "--shard-count", str(self.shard_count)]
        log = (self.workdir / f"bot-{number}.log").open("ab")
        return await asyncio.create_subprocess_exec(
            sys.executable, *args, env=env, stdout=log, stderr=log
        )

    @property
    def bot_pid(self) -> int:
        """The bot's process id (a bot in a child process only)."""
        assert self.children, "only a bot in a child process has its own pid"
        return self.children[0].pid

    async def kill(self, number: int = 0) -> None:
        """SIGKILL a child process (the first by default): no clean shutdown at all."""
        child = self.children.pop(number)
        child.send_signal(signal.SIGKILL)
        await child.wait()

    async def stop_bot(self) -> int | None:
        """A clean stop (SIGTERM for each child); the exit status (the worst of them)."""
        if self.children:
            statuses = []
            for child in self.children.values():
                child.send_signal(signal.SIGTERM)
            for child in self.children.values():
                statuses.append(await asyncio.wait_for(child.wait(), 30))
            self.children.clear()
            return max(statuses, key=abs)
        if self.bot is not None and self._task is not None:
            await self.bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self.bot = self._task = None
        return None

    async def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            await self.stop_bot()
        await self.emu.stop()

    # ---- acting as users ---------------------------------------------------------------
    async def slash(
        self, who: str, /, *path: str, channel: int | None = None, **values: Any
    ) -> Interaction:
        """``/tora <path> <values>`` by user ``who`` (``ladder show`` is ``/tora-ladder show``:
        ``own_command``); returns once it is answered."""
        where = self.channel if channel is None else channel
        given: dict[str, Any] = {k: self.user[v] if k in ("opponent", "player", "versus") else v
                                 for k, v in values.items()}  # fmt: skip
        words = own_command(["tora", *" ".join(path).split()])
        done = await self.emu.slash(self.user[who], where, *words, **given)
        return await done.done(30)

    async def click(self, name: str, label: str, channel: int | None = None) -> Interaction:
        """Press the newest button so labelled that ``name`` can see in the channel (once
        there is one: posts arrive a moment after the command that causes them)."""
        where = self.channel if channel is None else channel
        user = self.user[name]

        def button() -> tuple[int, str] | None:
            try:
                return self.emu.find_button(where, label, user=user)
            except LookupError:
                return None

        message_id, custom_id = await self.emu.wait_until(button, 30, f"a {label} button")
        done = await self.emu.click(user, message_id, custom_id)
        return await done.done(30)

    async def open_panel(self, name: str, channel: int | None = None) -> Interaction:
        """``/tora play`` by ``name``: their Play panel (ephemeral here, or in a DM)."""
        panel = await self.slash(name, "play", channel=channel)
        assert panel.error is None and panel.text, panel.text
        return panel

    async def pick(
        self,
        name: str,
        notation: str,
        path: tuple[str, str, str | None],
        channel: int | None = None,
        after: Seen | None = None,
    ) -> list[Interaction]:
        """Stage ``notation`` with the Play panel alone: ``path`` is where the menus hold
        it (``menus.route``: the category of its piece, the piece's group key, the first
        step when the piece's actions are grouped). Returns the picks made; ``after`` is
        called with each, once it is answered."""
        picks: list[Interaction] = []
        while True:
            pick, staged = await self.pick_once(name, notation, path, channel)
            picks.append(pick)
            if after is not None:
                await after(pick)
            if staged:
                return picks

    async def pick_once(
        self,
        name: str,
        notation: str,
        path: tuple[str, str, str | None],
        channel: int | None = None,
    ) -> tuple[Interaction, bool]:
        """The next pick towards ``notation`` in the newest Play panel; whether it staged."""
        where = self.channel if channel is None else channel
        user = self.user[name]
        category, group, step = path
        message = self._panel_of(where, user)
        wanted = {"c": category, "g": group, "a": "=" + notation}
        for select in (c for c in walk_components(message.components) if c.get("type") == 3):
            level = select["custom_id"].split(":")[4]
            options = select.get("options", [])
            if level not in wanted and level != "s":
                continue  # (a plan panel's menu of plans to cancel)
            value = wanted.get(level)
            if level == "s":
                value = next((o["value"] for o in options if o["label"] == step), None)
            chosen = next((o for o in options if o["value"] == value), None)
            assert chosen is not None, f"{notation}: no option for level {level}"
            if chosen.get("default") and level != "a":
                continue
            done = await self.emu.select(user, message.id, select["custom_id"], [chosen["value"]])
            return await done.done(30), level == "a"
        raise AssertionError(f"the panel offers nothing leading to {notation}")

    async def choose(
        self, name: str, placeholder: str, label: str, channel: int | None = None
    ) -> Interaction:
        """Pick the option ``label`` of the menu showing ``placeholder`` in ``name``'s newest
        Play or plan panel."""
        message = self._panel_of(self.channel if channel is None else channel, self.user[name])
        for select in (c for c in walk_components(message.components) if c.get("type") == 3):
            if select.get("placeholder") != placeholder:
                continue
            chosen = next(o for o in select.get("options", []) if o["label"] == label)
            done = await self.emu.select(
                self.user[name], message.id, select["custom_id"], [chosen["value"]]
            )
            return await done.done(30)
        raise AssertionError(f"the panel has no menu {placeholder!r}")

    def _panel_of(self, channel_id: int, user: int) -> Msg:
        for msg in reversed(self.emu.messages(channel_id)):
            if msg.ephemeral_to in (None, user) and any(
                str(c.get("custom_id", "")).startswith(("tora:pn:", "tora:pd:"))
                for c in walk_components(msg.components)
            ):
                return msg  # the Play panel, or the plan panel (the same menus)
        raise LookupError(f"no Play panel in channel {channel_id}")

    async def quiet(self, timeout: float = 30) -> None:
        """Wait until the bot (in this process) has delivered everything it has to say, and
        disabled the buttons that stopped applying."""
        assert self.bot is not None
        store = self.bot.store
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        while await store.hosting.private_queue():
            if loop.time() > until:
                raise TimeoutError("the bot's outbox is not empty")
            await asyncio.sleep(0.02)
        await asyncio.wait_for(self.bot.sweeper.idle(), max(0.1, until - loop.time()))
        await asyncio.wait_for(self.bot.event_sweeper.idle(), max(0.1, until - loop.time()))

    async def posted(self, needle: str, channel: int | None = None, timeout: float = 30) -> str:
        """Wait for a public post containing ``needle``; its text."""
        where = self.channel if channel is None else channel
        found = await self.emu.wait_for_message(
            where, lambda m: m.ephemeral_to is None and needle in m.text(), timeout
        )
        return found.text()

    def names_for_ids(self, text: str) -> str:
        """``text`` with every user's, channel's, DM channel's and the guild's id replaced by a name
        (mentions and button ids included): ids differ from one emulator to the next."""
        named = {str(user_id): name for name, user_id in self.user.items()}
        named |= {str(channel): f"channel-{n}" for n, channel in enumerate(self.channels)}
        named[str(self.guild)] = "guild"
        named |= {
            str(dm): f"dm-{name}" for name, user_id in self.user.items()
            if (dm := self.emu.world.dm_of.get(user_id)) is not None
        }  # fmt: skip
        for key in sorted(named, key=len, reverse=True):
            text = text.replace(key, named[key])
        return text


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now (for a child process's web board)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def planned_turn(game: Game, rng: random.Random, attack: bool = True) -> list[str]:
    """A random turn for the side to act, played on ``game`` (a shadow of the bot's match):
    the actions that stand once the turn could be ended (R30 may take the last ones back).
    With ``attack``, attacks are preferred, so that games end in a few turns."""
    texts: list[str] = []
    for _ in range(game.actions_left):
        legal = game.legal_actions()
        if not legal:
            break
        action, text = _random_action(game, legal, rng, attack)
        with contextlib.suppress(IllegalAction):  # a search refused (R43)
            game.apply(action)
            texts.append(text)
    while True:
        try:
            game.end_turn()
            return texts
        except IllegalAction:
            game.undo()
            texts.pop()


def _random_action(
    game: Game, legal: list[Action], rng: random.Random, attack: bool
) -> tuple[Action, str]:
    """One of ``legal`` at random, with its notation; with ``attack``, one that removes a
    piece if any does (only then is every action named: naming them is most of the cost)."""
    if not attack:
        action = rng.choice(legal)
        return action, game.notation(action)
    named = [(action, game.notation(action)) for action in legal]
    keen = [pair for pair in named if " x " in pair[1] or " fire " in pair[1]]
    return rng.choice(keen or named)


async def panel_turn(
    stage: Stage,
    game: Game,
    name: str,
    where: int,
    rng: random.Random,
    attack: bool = True,
    after: Seen | None = None,
) -> list[Interaction]:
    """A random turn for the side to act played with the Play panel alone (each action
    picked in its menus, Undo where R30 would refuse the end, then End turn), and on
    ``game``, a shadow of the bot's match. With ``attack``, attacks are preferred."""
    picks: list[Interaction] = []
    for _ in range(game.actions_left):
        actions = [a for a in game.legal_actions() if a.kind != "search"]  # never refused
        if not actions:
            break
        texts = game.notations(actions)
        keen = [t for t in texts if " x " in t or " fire " in t]
        text = rng.choice((keen if attack else []) or texts)
        group = next(c.group for c in game.choices() if c.notation == text)
        path = menus.route(game.menu(), game.choices(group), text)
        picks += await stage.pick(name, text, path, channel=where, after=after)
        game.apply(text)
    while True:
        try:
            game.end_turn()
            break
        except IllegalAction:  # R30: the last action back, with the panel's Undo
            game.undo()
            picks.append(await stage.click(name, "Undo", channel=where))
    picks.append(await stage.click(name, "End turn", channel=where))
    return picks
