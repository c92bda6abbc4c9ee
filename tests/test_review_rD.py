"""Review rD: what a hostile or unlucky user can make expensive (stalls and unbounded
growth). Each test counts (entries kept, calls made in the bot's own process, steps), never
wall-clock time."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def _hub_with_one_stream(watched_versions: Any = None, version: Any = None) -> tuple[Any, Any]:
    """A live-events hub over a stand-in service, one public stream of match 5 open."""
    from bot.web.events import Hub, Stream

    service = SimpleNamespace(on_change=lambda _hook: None, watched_versions=watched_versions)
    hub = Hub(service, version)  # type: ignore[arg-type]
    stream = Stream((5, None), request=None, quiet_since=0.0)  # type: ignore[arg-type]
    hub._streams[5] = {stream}
    hub._sent[(5, None)] = "v1"
    return hub, stream


async def test_a_page_closed_while_the_poll_reads_leaves_nothing_of_its_match_behind() -> None:
    """The poll reads the watched matches' versions (a query: other pages close meanwhile)
    and then notes them for every match it read, watched or not by then: a match whose last
    page closed during the read is kept in ``_stored`` (and marked to refresh) for as long as
    the bot runs. Each such close, a second at a time, adds one: an unbounded growth with
    the pages viewers close."""
    hub: Any = None
    stream: Any = None

    async def watched_versions(matches: list[int]) -> dict[int, tuple[int, int | None]]:
        hub._drop(stream)  # the page goes while the query runs
        return {match: (3, None) for match in matches}

    hub, stream = _hub_with_one_stream(watched_versions=watched_versions)
    await hub.look_for_changes()
    assert hub.watched == 0
    assert 5 not in hub._stored, "a match no page watches is kept by the poll"
    assert 5 not in hub._polled


async def test_a_page_closed_while_its_version_is_worked_out_leaves_no_version_behind() -> None:
    """A refresh works out each audience's version (a read of the match) and then notes it
    as sent, whether or not the audience's last page closed meanwhile: ``_sent`` keeps an
    entry per (match, side) for good, one per page closed at the wrong moment."""
    hub: Any = None
    stream: Any = None

    async def version(_match: int, _side: Any) -> str:
        hub._drop(stream)  # the page goes while its version is read
        return "v2"

    async def watched_versions(matches: list[int]) -> dict[int, tuple[int, int | None]]:
        return {match: (3, None) for match in matches}

    hub, stream = _hub_with_one_stream(watched_versions=watched_versions, version=version)
    await hub.refresh(5)
    assert hub.watched == 0
    assert hub._sent == {}, f"versions kept for audiences nobody watches: {hub._sent}"
