"""Whatever bytes a request's body holds, the web board reads them into a JSON object or
refuses them with 400 or 413, and a field is what it should be or a 400: never a failure.
A body (or one of Discord's answers) is read whole however the network splits it."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from hypothesis import given
from hypothesis import strategies as st
from web_world import World

from bot.web import guard
from bot.web.discord_api import DiscordApi
from bot.web.guard import MOST_BODY, Refusal, field_of, parse_body
from rules import Side

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(st.binary(max_size=MOST_BODY + 10))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    try:
        body = parse_body(data)
    except Refusal as refusal:
        assert refusal.status in (400, 413) and refusal.message
    else:
        assert isinstance(body, dict)


@given(JSON)
def test_any_json_gives_its_fields_or_a_400(value: object) -> None:
    data = json.dumps({"stamp": value, "notation": value, "yes": value}).encode()
    body = parse_body(data) if len(data) <= MOST_BODY else {}
    for name, kind, most in (("stamp", int, 6), ("notation", str, 200), ("yes", bool, 0)):
        try:
            got = field_of(body, name, kind, most)
        except Refusal as refusal:
            assert refusal.status == 400 and name in refusal.message
        else:
            assert type(got) is kind


def test_deep_nesting_is_refused_not_a_crash() -> None:
    try:
        parse_body(b"[" * MOST_BODY)
    except Refusal as refusal:
        assert refusal.status == 400


async def _sent_in_two(w: World, head: str, parts: tuple[bytes, bytes]) -> bytes:
    """The server's whole answer to a request whose body goes in two writes a moment apart
    (two TCP segments), as a slow or far network delivers it."""
    assert w.client is not None
    reader, writer = await asyncio.open_connection(w.client.server.host, w.client.server.port)
    writer.write(head.encode() + parts[0])
    await writer.drain()
    await asyncio.sleep(0.2)
    writer.write(parts[1])
    answer = await reader.read()
    writer.close()
    return answer


async def test_a_body_that_arrives_in_two_parts_is_read_whole(tmp_path: Path) -> None:
    """An action whose body came in two TCP segments was refused as "not JSON": only the
    first had been read. It is taken; and a body past the limit sent in parts, without a
    length to refuse it by, is refused for its size."""
    async with World(tmp_path / "r.sqlite3") as w:
        match = await w.playing()
        token = await w.token(match, Side.CHALLENGER)
        notation = await w.first_action(match, Side.CHALLENGER)
        body = json.dumps({"stamp": 1, "notation": notation}).encode()
        head = (
            f"POST /api/me/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        answer = await _sent_in_two(w, head, (body[:10], body[10:]))
        assert answer.startswith(b"HTTP/1.1 200"), answer
        chunked = head.replace(f"Content-Length: {len(body)}", "Transfer-Encoding: chunked")
        big = b"x" * (MOST_BODY + 10)
        parts = (f"{len(big):x}\r\n".encode() + big[:100], big[100:] + b"\r\n0\r\n\r\n")
        answer = await _sent_in_two(w, chunked, parts)
        assert answer.startswith(b"HTTP/1.1 413") and f"over {MOST_BODY} bytes".encode() in answer


async def test_an_answer_of_discord_that_arrives_in_two_parts_is_read_whole() -> None:
    """A sign-in read only the part of Discord's answer that had arrived, and took a user
    Discord named for one it could not read."""
    user = json.dumps({"id": "123456789012345678"}).encode()

    async def users_me(request: web.Request) -> web.StreamResponse:
        answer = web.StreamResponse(headers={"Content-Type": "application/json"})
        await answer.prepare(request)
        await answer.write(user[:5])
        await asyncio.sleep(0.2)
        await answer.write(user[5:])
        return answer

    async def token(request: web.Request) -> web.Response:
        return web.json_response({"access_token": "t", "scope": "identify"})

    app = web.Application()
    app.add_routes([web.get("/users/@me", users_me), web.post("/oauth2/token", token)])
    async with TestServer(app) as server:
        discord = DiscordApi(str(server.make_url("")), 1, "secret", "bot-token")
        assert (await discord.identify("code")).user_id == 123456789012345678


async def test_a_body_that_never_arrives_is_refused_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request that announced a body and sent only its start held its connection, and the
    handler waiting for the rest, for good (the idle timeout spares a request under way): a
    few clients that never finish (or a proxy streaming them, as Caddy does) piled up
    connections without end. It is refused with 408 once ``BODY_SECONDS`` have passed."""
    monkeypatch.setattr(guard, "BODY_SECONDS", 0.3)
    async with World(tmp_path / "r.sqlite3") as w:
        assert w.client is not None
        match = await w.playing()
        token = await w.token(match, Side.CHALLENGER)
        head = (
            f"POST /api/me/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            "Content-Length: 100\r\n\r\n"
        )
        server = w.client.server
        reader, writer = await asyncio.open_connection(server.host, server.port)
        writer.write(head.encode() + b'{"stamp": ')
        await writer.drain()
        try:
            answer = await asyncio.wait_for(reader.read(200), 5)
        finally:
            writer.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer


async def test_a_request_that_is_not_http_is_no_error_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A request aiohttp could not parse (a scanner's junk, a header of control bytes) was
    logged as an error with its traceback and the bytes sent, one for each at the network's
    pace: the client's doing, nothing for the operator to fix, and a flood that buried the
    bot's own errors. It is a line at debug level, without the bytes; still a 400."""
    async with World(tmp_path / "r.sqlite3") as w:
        await w.web.start()
        try:
            for level in (logging.INFO, logging.DEBUG):
                caplog.clear()
                caplog.set_level(level)
                answer = await _junk_sent(w.web.port)
                assert answer.startswith(b"HTTP/1.0 400"), answer
                said = [r for r in caplog.records if "handling request" in r.getMessage()]
                assert len(said) == (level == logging.DEBUG), said
                assert all(r.levelno == logging.DEBUG and not r.exc_info for r in said), said
                assert "secret" not in caplog.text
        finally:
            await w.web.stop()


async def _junk_sent(port: int) -> bytes:
    """The answer to a request with a header of control bytes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/m/1 HTTP/1.1\r\nHost: x\r\nX-Junk: secret\x01\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


async def test_the_answer_to_a_junk_request_names_no_software(tmp_path: Path) -> None:
    """The answer aiohttp makes alone to a request it could not parse (a scanner's junk,
    before any middleware) still said ``Server: Python/3.11 aiohttp/...``: the versions
    every other answer stopped telling, to whoever sent junk to learn them."""
    async with World(tmp_path / "j.sqlite3") as w:
        await w.web.start()
        try:
            answer = await _junk_sent(w.web.port)
        finally:
            await w.web.stop()
    head = answer.split(b"\r\n\r\n", 1)[0].decode()
    assert "\r\nServer: tora-bot\r\n" in head + "\r\n" and "aiohttp" not in head, head
