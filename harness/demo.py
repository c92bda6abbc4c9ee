"""``make demo`` (``python -m harness.demo``): a scripted match through the local Discord
emulator, no token needed. Two players challenge, set up and play a short game to its end:
ann with the Play panel's menus alone, bob typing his actions; the transcript, as each of
them and the channel saw it, is written as Markdown with the images to ``demo-out/``. Then
they start a rematch, and the local addresses of its web board are printed (the finished
match's page, the rematch's page and each player's private board); with ``--serve`` the
bot, the emulator and the web board go on until Ctrl-C, so that those pages can be opened.
The web board is served where ``python -m bot`` serves it (TORA_WEB_PORT, else 8080), or on
a free port, said so, when that one is taken."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.config import ConfigError, WebConfig
from bot.logs import setup_logging
from emulator import Interaction, Msg
from emulator.models import walk_components
from rules.tora import Game, Side

from .cards import card
from .stage import Stage, panel_turn, planned_turn

SEED = 54  # a short game that ends (loss of command) in 10 turns


class Transcript:
    """What happened, in order: each command, its answer, and whatever the bot posted or
    sent privately since."""

    def __init__(self, stage: Stage, out: Path) -> None:
        self.stage = stage
        self.out = out
        self.images = out / "images"
        shutil.rmtree(self.images, ignore_errors=True)  # a new run, a new transcript
        self.images.mkdir(parents=True)
        self.lines = ["# A TORA match on Discord (through the local emulator)", ""]
        self.seen: set[int] = set()
        self.count = 0

    def command(self, name: str, words: str, answer: Interaction) -> None:
        self.lines += [f"**{name}** `{words}`", ""]
        for msg in answer.messages:
            self.seen.add(msg.id)
            self.message(
                msg,
                f"the bot answers{' (only ' + name + ' sees this)' if msg.ephemeral_to else ''}",
            )

    def message(self, msg: Msg, who: str) -> None:
        text = re.sub(r"<@(\w+)>", r"@\1", self.stage.names_for_ids(msg.text()))
        quoted = "\n".join("> " + line for line in text.splitlines()) or ">"
        self.lines += [f"*{who}:*", "", quoted, ""]
        for file in msg.files:
            self.count += 1
            path = self.images / f"{self.count:03d}-{file.name}"
            path.write_bytes(file.data)
            if file.name.endswith((".png", ".gif")):
                self.lines += [f"![{file.name}](images/{path.name})", ""]
            else:
                self.lines += [f"[{file.name}](images/{path.name})", ""]
        menus = [c for c in walk_components(msg.components) if c.get("type") == 3]
        for component in menus:  # a select menu, its options as offered
            self.lines += [_menu(component), ""]
        if menus:  # and a picture of the panel, as Discord would show it
            self.count += 1
            path = self.images / f"{self.count:03d}-panel.png"
            path.write_bytes(card(msg))
            self.lines += [f"![the Play panel](images/{path.name})", ""]
        buttons = [b.get("label") for b in msg.buttons() if not b.get("disabled")]
        if buttons:
            self.lines += ["buttons: " + " ".join(f"[{label}]" for label in buttons), ""]

    def catch_up(self) -> None:
        """Everything new in the channel, and in each player's DMs."""
        emu = self.stage.emu
        for msg in emu.public_messages(self.stage.channel):
            if msg.id not in self.seen:
                self.seen.add(msg.id)
                self.message(msg, "in #tora-0")
        for name, user_id in self.stage.user.items():
            for msg in emu.dms(user_id):
                if msg.id not in self.seen and msg.interaction_id is None:
                    self.seen.add(msg.id)
                    self.message(msg, f"privately to {name}")

    def write(self) -> Path:
        path = self.out / "transcript.md"
        path.write_text("\n".join(self.lines), encoding="utf-8")
        return path


def _menu(select: dict[str, Any]) -> str:
    """A select menu as a line: its placeholder, its options, the one picked marked."""
    options = select.get("options", [])
    shown = [o["label"] + (" (picked)" if o.get("default") else "") for o in options]
    return f"menu *{select.get('placeholder', '')}*: " + " | ".join(shown)


async def play(stage: Stage, transcript: Transcript) -> None:
    async def slash(name: str, words: str, *path: str, **values: Any) -> None:
        transcript.command(name, words, await stage.slash(name, *path, **values))
        await stage.quiet()
        transcript.catch_up()

    async def click(name: str, label: str) -> None:
        transcript.command(name, f"[{label}]", await stage.click(name, label))
        await stage.quiet()
        transcript.catch_up()

    async def picked(pick: Interaction) -> None:
        """A pick in ann's Play panel, and the panel as it shows then."""
        chosen = pick.payload["data"].get("values") or ["a button"]
        transcript.lines += [f"**ann** picks `{chosen[0]}`", ""]
        for msg in pick.messages:
            transcript.message(msg, "the panel, edited (only ann sees it)")

    await slash("ann", "/tora challenge opponent:bob deadline:12h", "challenge",
                opponent="bob", deadline="12h")  # fmt: skip
    await click("bob", "Accept")
    await slash("ann", "/tora setup strategy:aggressive", "setup", strategy="aggressive")
    await slash("bob", "/tora setup strategy:aggressive", "setup", strategy="aggressive")
    game = Game(board="short", challenger_setup="aggressive", opposition_setup="aggressive")
    rng = random.Random(SEED)
    while not game.is_over():
        if game.side == Side.CHALLENGER:  # ann plays with the Play panel alone
            await slash("ann", "/tora play", "play")
            await panel_turn(stage, game, "ann", stage.channel, rng, after=picked)
            await stage.quiet()
            transcript.catch_up()
        else:  # bob types his actions
            for text in planned_turn(game, rng):
                await slash("bob", f"/tora act action:{text}", "act", action=text)
            await click("bob", "End turn")
    await slash("bob", "/tora replay number:1", "replay", number=1)
    await slash("ann", "/tora rules topic:R25", "rules", topic="R25")
    await slash("ann", "/tora-ladder show", "ladder", "show")


async def rematch(stage: Stage) -> int:
    """A new match in the same channel, set up and waiting for ann's first turn."""
    await stage.slash("bob", "challenge", opponent="ann")
    await stage.click("ann", "Accept")
    await stage.slash("bob", "setup", strategy="defensive")
    await stage.slash("ann", "setup", strategy="aggressive")
    await stage.posted("The game begins")
    return await latest_match(stage)


async def latest_match(stage: Stage) -> int:
    """The hosted match played last (or now) in the stage's channel."""
    assert stage.bot is not None
    hosted = await stage.bot.service.records.latest_in_channel(stage.channel)
    assert hosted is not None
    return hosted.id


async def addresses(stage: Stage, finished: int, live: int) -> list[str]:
    """The lines that say where the demo's matches are on the web board."""
    bot = stage.bot
    assert bot is not None
    links = bot.links
    rematch_side = {"bob": Side.CHALLENGER, "ann": Side.OPPOSITION}
    lines = [
        f"The web board is at {stage.web_url}:",
        f"- the finished match's page (its replay): {links.page_url(finished)}",
        f"- the rematch's page (anyone may watch): {links.page_url(live)}",
    ]
    for name, side in rematch_side.items():
        url = await links.private_url(live, side)
        lines.append(f"- {name}'s own board (plays {name}'s turns): {url}")
    return lines


def web_port(wanted: int) -> tuple[int, str | None]:
    """``wanted`` if 127.0.0.1 can listen on it now, else 0 (a free one) and a note saying
    so and what to change."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the web server does
        try:
            probe.bind(("127.0.0.1", wanted))
        except OSError as exc:
            return 0, (
                f"Port {wanted} is taken ({exc.strerror}): the web board is on a free port "
                "instead (set TORA_WEB_PORT to choose one)."
            )
    return wanted, None


async def run(out: Path, serve: bool = False, port: int = 0) -> tuple[Path, list[str]]:
    """Play the demo into ``out``: the transcript written, and where its pages are (served
    on ``port``, 0: a free one); with ``serve``, print those and keep everything running
    until cancelled."""
    with tempfile.TemporaryDirectory(prefix="tora-demo-") as workdir:
        async with Stage(Path(workdir), web_port=port) as stage:
            transcript = Transcript(stage, out)
            await play(stage, transcript)
            finished = await latest_match(stage)
            written = transcript.write()
            where = await addresses(stage, finished, await rematch(stage))
            if serve:
                print("\n".join(closing_lines(written, where, serving=True)), flush=True)
                await asyncio.Event().wait()
            return written, where


def closing_lines(written: Path, where: list[str], *, serving: bool) -> list[str]:
    """What the demo says at its end: the transcript, the pages' addresses, and whether they
    are still served (without ``--serve`` the bot and its board have stopped by then)."""
    after = (
        "Serving until Ctrl-C."
        if serving
        else "They were served while the demo ran: `python -m harness.demo --serve` "
        "(what `make demo` runs) keeps them up until Ctrl-C."
    )
    return [f"The transcript is in {written} (open it in a Markdown viewer).", *where, after]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.demo", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("demo-out"), help="where to write it")
    parser.add_argument(
        "--serve", action="store_true", help="keep the web board up (until Ctrl-C) afterwards"
    )
    args = parser.parse_args(argv)
    setup_logging("WARNING")
    try:
        port, note = web_port(WebConfig.from_env(os.environ).port)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if note is not None:
        print(note, flush=True)
    try:
        written, where = asyncio.run(run(args.out, args.serve, port))
    except KeyboardInterrupt:
        return 0
    print("\n".join(closing_lines(written, where, serving=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
