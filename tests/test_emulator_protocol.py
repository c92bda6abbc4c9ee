"""The emulator's wire protocol checked directly (no discord.py client): transport
compression, gateway sessions, Discord's error replies and the interaction rules."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import warnings
import zlib
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import aiohttp
import pytest
from aiohttp.streams import StreamReader
from aiohttp.test_utils import make_mocked_request

from emulator import Emulator
from emulator.__main__ import parse_args
from emulator.compression import zstd_available
from emulator.messages import read_body


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(heartbeat_interval=0.5, callback_deadline=0.3) as emulator:
        yield emulator


@pytest.fixture
async def http(emu: Emulator) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession(emu.world.base_url, headers=headers) as session:
        yield session


async def call(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None, **kwargs: Any
) -> tuple[int, Any]:
    async with http.request(method, f"/api/v10{path}", json=body, **kwargs) as response:
        assert response.headers["Via"]
        if response.status == 204:
            return 204, None
        assert response.headers["Content-Type"] == "application/json"  # discord.py's test
        return response.status, await response.json()


async def test_zlib_stream_one_stream_each_message_sync_flushed(emu: Emulator) -> None:
    emu.add_guild("g")
    inflate = zlib.decompressobj()
    url = f"{emu.gateway_url}?v=10&encoding=json&compress=zlib-stream"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:

        async def receive() -> dict[str, Any]:
            message = await ws.receive_bytes()
            assert message.endswith(b"\x00\x00\xff\xff")
            return json.loads(inflate.decompress(message))

        hello = await receive()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 500
        await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 1, "properties": {}}})
        ready, guild = await receive(), await receive()
        assert (ready["t"], ready["s"], guild["t"], guild["s"]) == ("READY", 1, "GUILD_CREATE", 2)
        assert ready["d"]["resume_gateway_url"] == emu.gateway_url
        assert [m["user"]["id"] for m in guild["d"]["members"]] == [str(emu.bot_id)]
        await ws.send_json({"op": 1, "d": 2})
        assert (await receive())["op"] == 11


@pytest.mark.skipif(not zstd_available(), reason="neither zstandard nor compression.zstd")
async def test_zstd_stream_decodes_message_by_message(emu: Emulator) -> None:
    from discord.utils import _ZstdDecompressionContext  # exists when zstd is importable

    stream = _ZstdDecompressionContext()
    url = f"{emu.gateway_url}?v=10&encoding=json&compress=zstd-stream"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        assert json.loads(stream.decompress(await ws.receive_bytes()))["op"] == 10
        await ws.send_json({"op": 1, "d": None})
        assert json.loads(stream.decompress(await ws.receive_bytes()))["op"] == 11


async def test_gateway_refuses_a_wrong_token_and_an_unknown_session(emu: Emulator) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(emu.gateway_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": "nope", "intents": 1}})
            assert (await ws.receive()).type is aiohttp.WSMsgType.CLOSE
            assert ws.close_code == 4004
        async with session.ws_connect(emu.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": "x", "seq": 3}})
            assert await ws.receive_json() == {"op": 9, "d": False, "s": None, "t": None}


async def test_errors_have_discords_shape(emu: Emulator, http: aiohttp.ClientSession) -> None:
    channel = emu.add_channel(emu.add_guild("g"), "general")
    assert await call(http, "GET", "/channels/1") == (
        404,
        {"message": "Unknown Channel", "code": 10003},
    )
    status, body = await call(
        http, "POST", f"/channels/{channel}/messages", {"content": "x" * 2001}
    )
    assert (status, body["code"]) == (400, 50035) and "content" in body["errors"]
    status, body = await call(http, "POST", f"/channels/{channel}/messages", {"content": ""})
    assert (status, body["code"]) == (400, 50006)
    status, body = await call(
        http, "POST", f"/channels/{channel}/messages", {"content": "x", "nonce": "n" * 26}
    )
    assert (status, body["code"]) == (400, 50035)
    status, _ = await call(http, "GET", "/users/@me", headers={"Authorization": "Bot wrong"})
    assert status == 401


async def test_rate_limit_headers_and_a_real_429() -> None:
    async with Emulator(rate_limit=(2, 5.0)) as emu:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession(emu.world.base_url, headers=headers) as http:
            for remaining in ("1", "0"):
                async with http.get("/api/v10/users/@me") as response:
                    assert response.headers["X-RateLimit-Remaining"] == remaining
                    assert response.headers["X-RateLimit-Limit"] == "2"
                    assert response.headers["X-RateLimit-Bucket"]
            async with http.get("/api/v10/users/@me") as response:
                assert response.status == 429 and response.headers["X-RateLimit-Scope"] == "user"
                assert 0 < (await response.json())["retry_after"] <= 5


async def test_faults_on_demand(emu: Emulator, http: aiohttp.ClientSession) -> None:
    emu.fail_next("GET", r"^/users/@me$", status=429, retry_after=1.5, global_=True)
    emu.fail_next("*", r"^/users/@me$", status=500)
    async with http.get("/api/v10/users/@me") as response:
        assert response.status == 429 and response.headers["Retry-After"] == "2"
        assert response.headers["X-RateLimit-Global"] == "true"
        assert await response.json() == {
            "message": "You are being rate limited.",
            "retry_after": 1.5,
            "global": True,
            "code": 0,
        }
    assert (await call(http, "GET", "/users/@me"))[0] == 500
    assert (await call(http, "GET", "/users/@me"))[0] == 200
    assert [r.status for r in emu.requests] == [429, 500, 200]


async def test_interaction_rules(emu: Emulator, http: aiohttp.ClientSession) -> None:
    channel = emu.add_channel(emu.add_guild("g"), "general")
    ann = emu.add_user("ann")
    r = await emu.slash(ann, channel, "tora", options=[])
    assert r.error == "no gateway session: the bot is not connected"
    webhook = f"/webhooks/{emu.application_id}/{r.token}"
    assert (await call(http, "POST", webhook, {"content": "early"}))[1]["code"] == 10015
    reply = {"type": 4, "data": {"content": "hi", "flags": 64}}
    status, body = await call(
        http, "POST", f"/interactions/{r.id}/{r.token}/callback?with_response=1", reply
    )
    assert status == 200 and body["interaction"]["response_message_ephemeral"]
    status, body = await call(http, "POST", f"/interactions/{r.id}/{r.token}/callback", reply)
    assert (status, body["code"]) == (400, 40060)
    assert r.errors[-1] == "400 40060 Interaction has already been acknowledged."
    status, body = await call(http, "POST", f"{webhook}?wait=1", {"content": "more"})
    assert status == 200 and r.text == "hi\nmore"
    late = await emu.slash(ann, channel, "tora", options=[])
    await asyncio.sleep(0.35)
    status, body = await call(http, "POST", f"/interactions/{late.id}/{late.token}/callback", reply)
    assert (status, body["code"]) == (404, 10062)
    assert late.latency is not None and late.latency > 0.3


async def test_autocomplete_answers_are_checked(emu: Emulator, http: aiohttp.ClientSession) -> None:
    channel = emu.add_channel(emu.add_guild("g"), "general")
    ann = emu.add_user("ann")
    r = await emu.slash(ann, channel, "tora", options=[])
    r.type = 4  # as if it were an autocomplete
    choices = [{"name": str(n), "value": str(n)} for n in range(26)]
    status, body = await call(
        http,
        "POST",
        f"/interactions/{r.id}/{r.token}/callback",
        {"type": 8, "data": {"choices": choices}},
    )
    assert (status, body["code"]) == (400, 50035)
    status, _ = await call(
        http,
        "POST",
        f"/interactions/{r.id}/{r.token}/callback",
        {"type": 4, "data": {"content": "x"}},
    )
    assert status == 400 and r.callback_type is None


async def test_command_sync_is_checked(emu: Emulator, http: aiohttp.ClientSession) -> None:
    path = f"/applications/{emu.application_id}/commands"
    status, body = await call(http, "PUT", path, [{"name": "Tora", "description": "x"}])
    assert (status, body["code"]) == (400, 50035) and "0" in body["errors"]
    options = [
        {"type": 3, "name": "a", "description": "a"},
        {"type": 3, "name": "b", "description": "b", "required": True},
    ]
    status, _ = await call(
        http, "PUT", path, [{"name": "tora", "description": "x", "options": options}]
    )
    assert status == 400
    status, body = await call(http, "PUT", path, [{"name": "tora", "description": "x"}])
    first_id = body[0]["id"]
    status, body = await call(http, "PUT", path, [{"name": "tora", "description": "y"}])
    assert body[0]["id"] == first_id and emu.commands()[0]["description"] == "y"


async def test_a_command_larger_than_discord_takes_is_refused(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """Discord counts a command's names, descriptions and choices, each at its longest
    localization, against 8,000 characters (APPLICATION_COMMAND_TOO_LARGE)."""
    path = f"/applications/{emu.application_id}/commands"
    option = {"type": 3, "name": "o", "description": "d" * 99}
    long = {"de": "x" * 100}
    options = [{**option, "name": f"o{i}", "description_localizations": long} for i in range(25)]
    group = {"type": 1, "name": "s", "description": "s", "options": options}
    groups = [{**group, "name": f"s{i}"} for i in range(4)]
    command = {"name": "tora", "description": "x", "options": groups}
    status, body = await call(http, "PUT", path, [command])
    assert (status, body["code"]) == (400, 50035)
    assert "APPLICATION_COMMAND_TOO_LARGE" in json.dumps(body)
    status, _ = await call(http, "PUT", path, [{**command, "options": groups[:3]}])
    assert status == 200  # 3 x 25 x 104 and the names: under 8,000


async def test_attachments_kept_by_id_when_editing(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    channel = emu.add_channel(emu.add_guild("g"), "general")
    form = aiohttp.FormData(quote_fields=False)
    payload = {
        "content": "board",
        "attachments": [{"id": 0, "filename": "a.png"}, {"id": 1, "filename": "b.txt"}],
    }
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"PNG", filename="a.png", content_type="application/octet-stream")
    form.add_field("files[1]", b"TXT", filename="b.txt", content_type="application/octet-stream")
    async with http.post(f"/api/v10/channels/{channel}/messages", data=form) as response:
        posted = await response.json()
    assert [a["content_type"] for a in posted["attachments"]] == ["image/png", "text/plain"]
    keep = posted["attachments"][1]
    status, edited = await call(
        http, "PATCH", f"/channels/{channel}/messages/{posted['id']}", {"attachments": [keep]}
    )
    assert status == 200 and [a["filename"] for a in edited["attachments"]] == ["b.txt"]
    msg = emu.last_message(channel)
    assert [(f.name, f.data) for f in msg.files] == [("b.txt", b"TXT")]
    assert b"PNG" in emu.everything_public(channel)  # it was public once
    async with http.get(keep["url"].removeprefix(emu.world.base_url)) as response:
        assert await response.read() == b"TXT"


async def test_everything_public_holds_what_a_messages_components_and_embeds_show(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """A secret in a button's label, a select's option or an embed's author is as public
    as one in the text: the twin-world leak tests must see it."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    button = {"type": 2, "style": 1, "custom_id": "b", "label": "at v3h17"}
    option = {"label": "v4h2", "value": "v5h9", "description": "near v6h1"}
    menu = {"type": 3, "custom_id": "m", "placeholder": "v7h3", "options": [option]}
    rows = [{"type": 1, "components": [button]}, {"type": 1, "components": [menu]}]
    embed = {"description": "board", "author": {"name": "v8h8"}}
    status, _ = await call(
        http,
        "POST",
        f"/channels/{channel}/messages",
        {"content": "turn", "components": rows, "embeds": [embed]},
    )
    assert status == 200
    public = emu.everything_public(channel)
    for secret in (b"v3h17", b"v4h2", b"v5h9", b"v6h1", b"v7h3", b"v8h8"):
        assert secret in public


async def test_an_upload_that_arrives_in_pieces_is_read_whole_and_warns_of_nothing() -> None:
    """A post's picture may reach the emulator in pieces (a loaded machine, a killed bot):
    then aiohttp's multipart reader gives back what it read past a chunk with the stream's
    ``unread_data``, which aiohttp itself deprecates (its own call, not ours: pyproject
    filters that one warning). The picture is read whole; our own call still warns."""
    boundary = "b0undary"
    picture = bytes(range(256)) * 80
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="files[0]"; '
        f'filename="board.png"\r\nContent-Type: image/png\r\n\r\n'
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    protocol = mock.Mock(_reading_paused=False)
    stream = StreamReader(protocol, 2**16, loop=asyncio.get_running_loop())
    request = make_mocked_request(
        "POST",
        "/api/v10/channels/1/messages",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        payload=stream,
    )

    async def arrive() -> None:
        """A chunk's worth and a few bytes, then the rest: the reader reads past a chunk."""
        stream.feed_data(head + picture[: 8192 + 5])
        await asyncio.sleep(0.01)
        stream.feed_data(picture[8192 + 5 :] + tail)
        stream.feed_eof()

    arriving = asyncio.create_task(arrive())
    with warnings.catch_warnings(record=True) as seen:  # the filters as configured
        body = await read_body(request)
        await arriving
        assert body.uploads[0].data == picture
        assert not seen, [str(w.message) for w in seen]
        stream.unread_data(b"ours")
    assert [w.category for w in seen] == [DeprecationWarning]


async def test_driver_refuses_what_the_client_could_not_send(emu: Emulator) -> None:
    channel = emu.add_channel(emu.add_guild("g"), "general")
    ann, bob = emu.add_user("ann"), emu.add_user("bob")
    with pytest.raises(ValueError, match="sync the command tree"):
        await emu.slash(ann, channel, "tora", "act", action="x")
    with pytest.raises(ValueError, match="another user's DM"):
        await emu.slash(bob, emu.dm_channel(ann), "tora", options=[])
    with pytest.raises(ValueError, match="no message"):
        await emu.click(ann, 1, "x")


async def test_standalone_process_prints_its_addresses_and_the_transcript() -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "emulator", "--port", "0", "--users", "ann", stdout=PIPE
    )
    assert child.stdout is not None
    try:
        info = json.loads(await asyncio.wait_for(child.stdout.readline(), 20))
        headers = {"Authorization": f"Bot {info['token']}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            url = f"{info['api_base']}/channels/{info['channels']['general']}/messages"
            async with http.post(url, json={"content": "hello"}) as response:
                assert response.status == 200
            async with http.get(f"{info['api_base']}/gateway/bot") as response:
                assert (await response.json())["url"] == info["gateway_url"]
        assert await asyncio.wait_for(child.stdout.readline(), 5) == b"[#general] hello\n"
    finally:
        child.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(child.wait(), 10) == 0


def _select(**fields: Any) -> dict[str, Any]:
    """A string select of three options, changed by ``fields``."""
    options = [{"label": f"Option {n}", "value": str(n)} for n in range(3)]
    return {"type": 3, "custom_id": "pick", "options": options} | fields


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


async def test_components_and_attachments_discord_refuses_are_refused(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """The limits Discord keeps on a message's selects, buttons and attachments, refused
    as Discord does (400 50035 with its ``errors`` tree), so that a bot breaking one fails
    its tests here rather than on Discord."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    many = [{"label": str(n), "value": str(n)} for n in range(26)]
    twice = [{"label": "a", "value": "same"}, {"label": "b", "value": "same"}]
    chosen = [{"label": v, "value": v, "default": True} for v in "ab"]  # of a single select
    refused = {
        "26 options": [_row(_select(options=many))],
        "no option": [_row(_select(options=[]))],
        "a long label": [_row(_select(options=[{"label": "x" * 101, "value": "x"}]))],
        "a long value": [_row(_select(options=[{"label": "x", "value": "x" * 101}]))],
        "a long description": [
            _row(_select(options=[{"label": "x", "value": "x", "description": "d" * 101}]))
        ],
        "a long placeholder": [_row(_select(placeholder="p" * 151))],
        "a value twice": [_row(_select(options=twice))],
        "two defaults of one": [_row(_select(options=chosen))],
        "six buttons a row": [_row(*(_button(f"b{n}") for n in range(6)))],
        "a select beside a button": [_row(_select(), _button("b"))],
        "a custom_id twice": [_row(_button("b")), _row(_button("b"))],
    }
    for why, components in refused.items():
        status, body = await call(
            http,
            "POST",
            f"/channels/{channel}/messages",
            {"content": "x", "components": components},
        )
        assert (status, body.get("code")) == (400, 50035) and body.get("errors"), why
    fine = [_row(_select(options=many[:25], placeholder="p" * 150)), _row(*map(_button, "abcde"))]
    status, _ = await call(
        http, "POST", f"/channels/{channel}/messages", {"content": "x", "components": fine}
    )
    assert status == 200
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "files"}))
    for n in range(11):
        form.add_field(f"files[{n}]", b"x", filename=f"f{n}.txt")
    status, body = await call(http, "POST", f"/channels/{channel}/messages", data=form)
    assert (status, body.get("code")) == (400, 50035), body


def _text_input(**fields: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": "name", "style": 1, "label": "Name"} | fields


async def test_a_modal_discord_refuses_is_refused(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """A modal answer past Discord's limits (a title of 45, 1 to 5 rows of one text input
    each, an input's label of 45, placeholder of 100, value and lengths of 4000, custom ids
    of 100) is refused as Discord refuses it, so that a bot's modal fails its tests here.
    Regression: any payload was taken as the modal."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    ann = emu.add_user("ann")
    refused = {
        "a long title": {"title": "t" * 46},
        "no row": {"components": []},
        "six rows": {"components": [_row(_text_input(custom_id=f"i{n}")) for n in range(6)]},
        "two inputs a row": {"components": [_row(_text_input(), _text_input(custom_id="b"))]},
        "a long custom_id": {"custom_id": "m" * 101},
        "a long label": {"components": [_row(_text_input(label="l" * 46))]},
        "a long placeholder": {"components": [_row(_text_input(placeholder="p" * 101))]},
        "a long value": {"components": [_row(_text_input(value="v" * 4001))]},
        "a max_length past 4000": {"components": [_row(_text_input(max_length=4001))]},
        "a button in a modal": {"components": [_row(_button("b"))]},
    }
    fine = {"custom_id": "rename", "title": "t" * 45, "components": [_row(_text_input())]}
    for why, change in refused.items():
        r = await emu.slash(ann, channel, "tora", options=[])
        status, body = await call(
            http,
            "POST",
            f"/interactions/{r.id}/{r.token}/callback",
            {"type": 9, "data": fine | change},
        )
        assert (status, body.get("code")) == (400, 50035) and body.get("errors"), why
        assert r.modal is None, why
    r = await emu.slash(ann, channel, "tora", options=[])
    status, _ = await call(
        http, "POST", f"/interactions/{r.id}/{r.token}/callback", {"type": 9, "data": fine}
    )
    assert status == 204 and r.modal == fine


async def test_embeds_discord_refuses_are_refused(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """An embed past Discord's limits (title 256, description 4096, 25 fields of a name of
    256 and a value of 1024, footer 2048, author 256, 6000 characters in all the message's
    embeds) is refused as Discord refuses it. Regression: only the number of embeds was."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    field = {"name": "n", "value": "v"}
    refused = {
        "a long title": [{"title": "t" * 257}],
        "a long description": [{"description": "d" * 4097}],
        "26 fields": [{"fields": [field] * 26}],
        "a long field name": [{"fields": [{"name": "n" * 257, "value": "v"}]}],
        "a long field value": [{"fields": [{"name": "n", "value": "v" * 1025}]}],
        "a long footer": [{"footer": {"text": "f" * 2049}}],
        "a long author": [{"author": {"name": "a" * 257}}],
        "6001 characters in all": [{"description": "d" * 4000}, {"description": "d" * 2001}],
    }
    for why, embeds in refused.items():
        status, body = await call(
            http, "POST", f"/channels/{channel}/messages", {"content": "x", "embeds": embeds}
        )
        assert (status, body.get("code")) == (400, 50035) and body.get("errors"), why
    fine = [{"title": "t" * 256, "description": "d" * 4096, "fields": [field] * 25}]
    status, _ = await call(
        http, "POST", f"/channels/{channel}/messages", {"content": "x", "embeds": fine}
    )
    assert status == 200


def test_standalone_admins_must_be_among_its_users(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m emulator --users ann,bob --admins admin`` started with no admin at all (an
    admin named outside --users was dropped without a word), so the admin commands could not
    be tried. Now it is refused in one line naming who is not a user."""
    with pytest.raises(SystemExit) as refused:
        parse_args(["--users", "ann,bob", "--admins", "admin"])
    assert refused.value.code == 2
    assert "--admins names users of --users, not: admin" in capsys.readouterr().err
    assert parse_args(["--users", "ann,admin", "--admins", "admin"]).admins == "admin"


async def test_driver_submits_only_what_the_modal_takes(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """The Discord client submits a modal only with its own inputs, every required one
    filled and each within its lengths. Regression: ``submit_modal`` sent anything, so a
    bot's handler was tested with submissions no user can make."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    ann = emu.add_user("ann")
    opened = await emu.slash(ann, channel, "tora", options=[])
    inputs = [
        _row(_text_input(min_length=2, max_length=10)),
        _row(_text_input(custom_id="note", label="Note", required=False)),
    ]
    modal = {"custom_id": "rename", "title": "Rename", "components": inputs}
    answer = f"/interactions/{opened.id}/{opened.token}/callback"
    status, _ = await call(http, "POST", answer, {"type": 9, "data": modal})
    assert status == 204
    refused = [  # an input it lacks; a required one left out, or empty; too short, too long
        ({"name": "ok", "other": "x"}, "no input 'other'"),
        ({"note": "x"}, "'name' is required"),
        ({"name": ""}, "'name' is required"),
        ({"name": "x"}, "2 to 10 characters"),
        ({"name": "x" * 11}, "2 to 10 characters"),
    ]
    for values, said in refused:
        with pytest.raises(ValueError, match=said):
            await emu.submit_modal(ann, opened, values)
    submitted = await emu.submit_modal(ann, opened, {"name": "final"})
    rows = submitted.payload["data"]["components"]
    sent = {row["components"][0]["custom_id"]: row["components"][0]["value"] for row in rows}
    assert sent == {"name": "final", "note": ""}  # every input, as the client sends them


async def test_a_message_of_blanks_alone_is_refused_as_empty(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """Discord trims a message's content: spaces and newlines alone, with nothing else, are
    "Cannot send an empty message" (400 50006). Regression: the emulator posted them."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    for blank in (" ", "\n\n", " \t "):
        status, body = await call(http, "POST", f"/channels/{channel}/messages", {"content": blank})
        assert (status, body["code"]) == (400, 50006), repr(blank)
    row = _row(_button("b"))
    status, _ = await call(
        http, "POST", f"/channels/{channel}/messages", {"content": " ", "components": [row]}
    )
    assert status == 200  # a button is something to show


async def test_a_modal_of_labels_is_taken_as_discord_takes_it(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    """Discord's newer modals hold labels (type 18: a label of 45, a description of 100,
    around a text input or a select) and text displays (10), as discord.py's ``ui.Label``
    sends them. Regression: only action rows of a text input were taken."""
    channel = emu.add_channel(emu.add_guild("g"), "general")
    ann = emu.add_user("ann")
    named = {"type": 4, "custom_id": "name", "style": 1, "max_length": 10}
    label = {"type": 18, "label": "Name", "description": "d" * 100, "component": named}
    chooser = {"type": 18, "label": "Side", "component": _select()}
    shown = {"type": 10, "content": "Rename the match"}
    modal = {"custom_id": "rename", "title": "Rename", "components": [shown, label, chooser]}
    opened = await emu.slash(ann, channel, "tora", options=[])
    answer = f"/interactions/{opened.id}/{opened.token}/callback"
    status, _ = await call(http, "POST", answer, {"type": 9, "data": modal})
    assert status == 204
    for wrong in ({"label": "l" * 46}, {"description": "d" * 101}, {"component": _button("b")}):
        refused = await emu.slash(ann, channel, "tora", options=[])
        bad = {"type": 9, "data": modal | {"components": [label | wrong]}}
        answer = f"/interactions/{refused.id}/{refused.token}/callback"
        status, body = await call(http, "POST", answer, bad)
        assert (status, body.get("code")) == (400, 50035), wrong
    with pytest.raises(ValueError, match="takes 0 to 10 characters"):
        await emu.submit_modal(ann, opened, {"name": "x" * 11})
    submitted = await emu.submit_modal(ann, opened, {"name": "final"})
    [sent] = submitted.payload["data"]["components"]
    assert sent == {"type": 18, "component": {"type": 4, "custom_id": "name", "value": "final"}}
