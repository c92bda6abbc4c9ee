"""The web board's configuration from the environment: on by default on 127.0.0.1:8080, off
with TORA_WEB=off, and each variable checked with a refusal that names it; a port in use
refused saying what to change."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from web_world import World

from bot.__main__ import serve
from bot.build import dead_links, web_address
from bot.config import Config, ConfigError, WebConfig
from bot.discord.client import point_at
from bot.web import WebBoard
from bot.web.server import CannotListen
from emulator import Emulator
from storage import Config as StoreConfig

ROOT = Path(__file__).resolve().parent.parent


def test_the_web_board_is_served_on_localhost_8080_by_default() -> None:
    web = Config.from_env({"DISCORD_TOKEN": "t"}).web
    assert web == WebConfig(True, "127.0.0.1", 8080, None, "")
    assert web_address(web) == "http://127.0.0.1:8080"


def test_every_web_variable_is_read() -> None:
    web = WebConfig.from_env(
        {
            "TORA_WEB": "off",
            "TORA_WEB_HOST": "::1",
            "TORA_WEB_PORT": "9000",
            "TORA_WEB_URL": "https://tora.example/",
            "TORA_WEB_SECRET": "k" * 32,
        }
    )
    assert web == WebConfig(False, "::1", 9000, "https://tora.example", "k" * 32)
    assert web_address(web) == "http://[::1]:9000"


# What an admin gives docker compose (its ${NAME:?...} are required, ${NAME:-...} defaulted)
GIVEN = {"DISCORD_TOKEN": "t", "TORA_WEB_URL": "https://tora.example.org"}


def _compose_bot_environment() -> dict[str, str]:
    text = (ROOT / "docs/deploy/compose.yaml").read_text()
    environ = dict(re.findall(r"^\s+(TORA_[A-Z_]+):\s*\"?([^\"\n]*)\"?\s*$", text, re.M))

    def given(found: re.Match[str]) -> str:
        name, how, default = found.groups()
        return GIVEN[name] if how == ":?" else GIVEN.get(name, default)

    environ = {k: re.sub(r"\$\{(\w+)(:\?|:-)([^}]*)\}", given, v) for k, v in environ.items()}
    environ["DISCORD_TOKEN"] = "t"
    return environ


def _dockerfile_environment() -> dict[str, str]:
    text = (ROOT / "Dockerfile").read_text()
    [env] = re.findall(r"^ENV ((?:.*\\\n)*.*)$", text, re.M)
    environ = dict(re.findall(r"\b(TORA_[A-Z_]+)=(\S+)", env))
    environ["DISCORD_TOKEN"] = "t"
    return environ


@pytest.mark.parametrize("where", ["docs/deploy/compose.yaml", "Dockerfile"])
def test_the_container_deploys_do_not_hand_players_dead_web_board_links(where) -> None:
    """The web board is on by default and every "your turn" DM and Play panel carries
    **Open the board**. In the Docker image and in docs/deploy/compose.yaml it was served on
    the container's own 127.0.0.1:8080 (no TORA_WEB_HOST, no published port, no
    TORA_WEB_URL), so its links named http://127.0.0.1:8080, which no player (nor the
    reverse proxy DEPLOY.md describes) can reach: a dead button in every match. Regression:
    the image now serves every address of the container and says so (EXPOSE); compose
    publishes each process's port on the host's loopback, for its reverse proxy, and
    requires TORA_WEB_URL."""
    if where.endswith("compose.yaml"):
        web = Config.from_env(_compose_bot_environment()).web
        assert web.url == GIVEN["TORA_WEB_URL"] and not web.host.startswith("127.")
        text = (ROOT / where).read_text()
        assert re.findall(r'"127\.0\.0\.1:(\d+):8080"', text) == ["8080", "8081"]
        assert web.trusted_proxies  # the host's proxy, not one allowance for every player
    else:
        web = Config.from_env(_dockerfile_environment()).web
        assert web.enabled and web.host == "0.0.0.0" and web.url is None
        assert re.search(r"^EXPOSE 8080$", (ROOT / where).read_text(), re.M)
        assert dead_links(web) is not None  # without TORA_WEB_URL the bot says so at start


def test_links_to_an_address_no_player_can_open_are_warned_of() -> None:
    """Served on every address (0.0.0.0, ::) without TORA_WEB_URL, the links would name
    http://0.0.0.0:8080: the bot warns at start, naming TORA_WEB_URL."""
    for host in ("0.0.0.0", "::"):
        warning = dead_links(WebConfig(host=host))
        assert warning is not None and "TORA_WEB_URL" in warning
    assert dead_links(WebConfig(host="0.0.0.0", url="https://tora.example.org")) is None
    assert dead_links(WebConfig()) is None  # 127.0.0.1: this machine's, as documented
    assert dead_links(WebConfig(False, host="0.0.0.0")) is None  # no web board, no links


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("TORA_WEB", "maybe"),
        ("TORA_WEB_HOST", "a b"),
        ("TORA_WEB_HOST", "user@host"),
        ("TORA_WEB_PORT", "70000"),
        ("TORA_WEB_PORT", "-1"),
        ("TORA_WEB_PORT", "\u00b2"),  # regression: ``isdigit`` took it, ``int`` raised
        ("TORA_WEB_URL", "ftp://x"),
        ("TORA_WEB_SECRET", "short"),
    ],
)
def test_a_bad_web_variable_is_refused_by_name(variable: str, value: str) -> None:
    with pytest.raises(ConfigError, match=variable):
        WebConfig.from_env({variable: value})


async def test_a_port_in_use_is_refused_saying_what_to_change(tmp_path: Path) -> None:
    async with World(tmp_path / "ports.sqlite3") as w:
        first = WebBoard(w.service, w.links, "127.0.0.1", 0)
        await first.start()
        try:
            second = WebBoard(w.service, w.links, "127.0.0.1", first.port)
            with pytest.raises(CannotListen, match="TORA_WEB_PORT"):
                await second.start()
        finally:
            await first.stop()


async def test_an_idle_connection_is_closed_within_the_boards_keep_alive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """aiohttp keeps an idle connection open for 3630 s unless told otherwise: every
    connection a page (or a script) opens and leaves idle held a socket and its buffers for
    an hour. The board closes an idle one after ``IDLE_SECONDS``."""
    import asyncio

    import bot.web.server

    monkeypatch.setattr(bot.web.server, "IDLE_SECONDS", 0.3)
    async with World(tmp_path / "idle.sqlite3") as w:
        board = WebBoard(w.service, w.links, "127.0.0.1", 0)
        await board.start()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", board.port)
            writer.write(b"GET /api/words/en HTTP/1.1\r\nHost: x\r\n\r\n")
            await writer.drain()
            assert (await reader.readline()).startswith(b"HTTP/1.1 ")
            try:  # the answer, then the end of an idle connection
                await asyncio.wait_for(reader.read(-1), 5.0)
            except TimeoutError:
                raise AssertionError("an idle connection was kept past the keep-alive") from None
            finally:
                writer.close()
        finally:
            await board.stop()


async def test_python_m_bot_on_a_port_in_use_stops_naming_the_setting(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    emu = Emulator(bot_name="TORA")
    await emu.start()
    point_at(emu.api_base, emu.gateway_url)
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            web = WebConfig(port=taken.getsockname()[1])
            store = StoreConfig(path=tmp_path / "tora.sqlite3")
            config = Config(
                emu.token, store, "WARNING", None, emu.api_base, emu.gateway_url, web=web
            )
            assert await serve(config) == 1
    finally:
        await emu.stop()
    [said] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "TORA_WEB_PORT" in said.getMessage() and said.exc_info is None  # no traceback
