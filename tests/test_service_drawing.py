"""Where the service's board images are drawn (``bot.service.offload``): a match's pictures in
the same drawing worker, so that its caches serve them."""

from __future__ import annotations

from bot.service import Status
from bot.service.offload import SPILL, Offload, _shown
from rules.tora import Game


def test_a_match_s_pictures_go_to_one_worker_unless_it_is_busy() -> None:
    offload = Offload(0, 0, draw_processes=2)  # no worker starts until a drawing is sent
    try:
        players = ("ann", "bob")
        lane = offload.lane_for(players)
        assert {offload.lane_for(players) for _ in range(5)} == {lane}
        pairs = {offload.lane_for((f"player {n}", f"player {n + 1}")) for n in range(20)}
        assert pairs == {"draw", "draw1"}  # other matches use the other worker too
        offload._queued[lane] = SPILL - 1
        assert offload.lane_for(players) == lane
        offload._queued[lane] = SPILL  # that many more waiting than the idle worker
        assert offload.lane_for(players) != lane
    finally:
        offload.close()


def test_a_drawing_is_routed_by_the_players_it_shows() -> None:
    view = Game(board="short").view_for(None)
    status = Status("ann", "bob", "due in 1 day")
    assert _shown((view, status, "en")) == _shown((view, status, None, "fr")) == ("ann", "bob")
    assert _shown((view,)) is None
