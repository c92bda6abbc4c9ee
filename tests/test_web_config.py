"""The web board's configuration from the environment: on by default on 127.0.0.1:8080, off
with TORA_WEB=off, and each variable checked with a refusal that names it; a port in use
refused saying what to change."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from web_world import World

from bot.__main__ import serve
from bot.build import web_address
from bot.config import Config, ConfigError, WebConfig
from bot.discord.client import point_at
from bot.web import WebBoard
from bot.web.server import CannotListen
from emulator import Emulator
from storage import Config as StoreConfig


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
