"""Behind reverse proxies: with TORA_WEB_TRUSTED_PROXIES naming them, the per-address
limits count each client (the right-most X-Forwarded-For hop that is not a trusted proxy)
rather than all of them as the proxy; without it, or from a peer not trusted, the header
is ignored, so nobody escapes a limit by sending it."""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st
from web_world import World

from bot.config import ConfigError, WebConfig
from bot.web import WebBoard
from bot.web.forwarded import NO_PROXIES, Proxies
from bot.web.guard import Allowance, Limits

PROXY = Proxies.of(["127.0.0.1", "10.0.0.0/8"])


def test_the_trusted_proxies_are_read_as_networks() -> None:
    web = WebConfig.from_env({"TORA_WEB_TRUSTED_PROXIES": " 10.0.0.1, 172.16.0.0/12 ,::1"})
    assert web.trusted_proxies == ("10.0.0.1/32", "172.16.0.0/12", "::1/128")
    assert WebConfig.from_env({}).trusted_proxies == ()


@pytest.mark.parametrize("value", ["10.0.0.300", "proxy.example", "10.0.0.0/40", "1," * 65])
def test_a_bad_trusted_proxy_is_refused_by_name(value: str) -> None:
    with pytest.raises(ConfigError, match="TORA_WEB_TRUSTED_PROXIES"):
        WebConfig.from_env({"TORA_WEB_TRUSTED_PROXIES": value})


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("127.0.0.1", ["203.0.113.7"], "203.0.113.7"),  # one trusted proxy
        ("127.0.0.1", ["198.51.100.1, 203.0.113.7, 10.1.2.3"], "203.0.113.7"),  # two proxies
        ("127.0.0.1", ["198.51.100.1", "203.0.113.7"], "203.0.113.7"),  # two headers: one list
        ("127.0.0.1", ["10.0.0.2, 10.0.0.3"], "10.0.0.2"),  # all trusted: the first hop
        ("127.0.0.1", [], "127.0.0.1"),  # no header: the proxy itself
        ("127.0.0.1", ["203.0.113.7, junk"], "127.0.0.1"),  # not an address: stop there
        ("127.0.0.1", ["2001:db8::1"], "2001:db8::1"),
        ("192.0.2.9", ["203.0.113.7"], "192.0.2.9"),  # a peer not trusted: no header believed
    ],
)
def test_the_client_is_the_right_most_hop_not_trusted(
    peer: str, forwarded: list[str], client: str
) -> None:
    assert PROXY.client(peer, forwarded) == client


def test_without_trusted_proxies_the_peer_is_the_client() -> None:
    assert NO_PROXIES.client("127.0.0.1", ["203.0.113.7"]) == "127.0.0.1"


@given(st.lists(st.text(alphabet="0123456789.:abf, ", max_size=30), max_size=5))
def test_any_header_gives_the_peer_or_an_address_it_names(forwarded: list[str]) -> None:
    client = PROXY.client("127.0.0.1", forwarded)
    named = set()
    for hop in (hop.strip() for value in forwarded for hop in value.split(",")):
        with contextlib.suppress(ValueError):
            named.add(str(ipaddress.ip_address(hop)))
    assert client == "127.0.0.1" or client in named


@asynccontextmanager
async def served(w: World, proxies: Proxies) -> AsyncIterator[TestClient]:
    """The world's service behind a web board trusting ``proxies``, three reads allowed
    per address and then none for a minute."""
    limits = Limits(reads=Allowance(3, 60.0))
    board = WebBoard(w.service, w.links, "127.0.0.1", 0, limits=limits, proxies=proxies)
    client = TestClient(TestServer(board.application()))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()


async def statuses(client: TestClient, path: str, forwarded: str, count: int) -> list[int]:
    out = []
    for _ in range(count):
        async with client.get(path, headers={"X-Forwarded-For": forwarded}) as answer:
            out.append(answer.status)
    return out


async def test_behind_a_trusted_proxy_each_client_has_its_own_limit(tmp_path: Path) -> None:
    async with World(tmp_path / "proxied.sqlite3") as w:
        match = await w.playing()
        async with served(w, Proxies.of(["127.0.0.1"])) as client:
            path = f"/api/m/{match}"
            assert await statuses(client, path, "203.0.113.7", 4) == [200, 200, 200, 429]
            assert await statuses(client, path, "203.0.113.8", 1) == [200]
            # a client that writes its own header cannot pass as another: the proxy appends
            spoofed = await statuses(client, path, "203.0.113.9, 203.0.113.7", 1)
            assert spoofed == [429]


async def test_without_trusted_proxies_the_header_is_ignored(tmp_path: Path) -> None:
    async with World(tmp_path / "direct.sqlite3") as w:
        match = await w.playing()
        async with served(w, NO_PROXIES) as client:
            path = f"/api/m/{match}"
            assert await statuses(client, path, "203.0.113.7", 3) == [200, 200, 200]
            assert await statuses(client, path, "203.0.113.8", 1) == [429]


async def test_one_ipv6_network_is_one_client_for_every_limit(tmp_path: Path) -> None:
    """An IPv6 client is handed a /64 of addresses to use as it likes, so counting each
    address apart let one client take a fresh allowance (reads, actions, live streams,
    sign-ins) per request. Every address of a /64 counts as one client; another /64, and
    each IPv4 address, as another."""
    async with World(tmp_path / "six.sqlite3") as w:
        match = await w.playing()
        async with served(w, Proxies.of(["127.0.0.1"])) as client:
            path = f"/api/m/{match}"
            hops = [f"2001:db8:1:2::{n:x}" for n in range(4)]
            got = [(await statuses(client, path, hop, 1))[0] for hop in hops]
            assert got == [200, 200, 200, 429]
            assert await statuses(client, path, "::ffff:203.0.113.7", 1) == [200]
            assert await statuses(client, path, "2001:db8:1:3::1", 1) == [200]
            assert await statuses(client, path, "203.0.113.7", 3) == [200, 200, 429]
