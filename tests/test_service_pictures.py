"""The real board images behind the service's Renderer protocol: a match started through the
service posts PNGs, the public one drawn from the public view only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app.pictures import PillowRenderer
from bot.service import Place, Status, User
from bot.service.testing import Harness
from rules.tora import Game, Side

PNG = b"\x89PNG\r\n\x1a\n"
LONGEST = "Bartholomew Montgomery-Whitfield"  # 32 characters: Discord's longest name


def test_the_adapter_draws_pngs() -> None:
    game = Game(board="short")
    status = Status("ann", "bob", "due in 1 day")
    renderer = PillowRenderer()
    assert renderer.board(game.view_for(None), status).startswith(PNG)
    assert renderer.private(game.view_for(Side.CHALLENGER), status).startswith(PNG)


async def test_a_match_through_the_service_posts_real_boards(tmp_path: Path) -> None:
    here, ann, bob = Place(1, 100), User(1, "ann"), User(2, "bob")
    async with Harness(tmp_path / "t.sqlite3", renderer=PillowRenderer()) as h:
        service = h.service
        await service.challenge(here, ann, bob)
        await service.accept(here, bob)
        await service.setup(here, ann, {"strategy": "aggressive"})
        await service.setup(here, bob, {"strategy": "defensive"})
        reply = await service.play(here, ann, "G v5h9-v4h9")
        await h.settle()
    assert reply.files[0].data.startswith(PNG)
    images = [f.data for d in h.delivery.log for f in d.message.files]
    assert images and all(image.startswith(PNG) for image in images)


async def test_the_waiting_players_time_left_shows_on_the_board_whatever_their_name(
    tmp_path: Path,
) -> None:
    """A bank clock, the waiting player named with Discord's longest name: the board shows
    their time left ("due in 10 h · Bartholomew Mo… 15 h"), as the README promises. The
    deadline carried their whole name, so the strip's sentence did not fit and the time was
    lost (15 h and 3 h left gave the same picture); their name is cut as the strip's other
    names are."""
    from dataclasses import replace

    from bot.service import Terms
    from bot.service.testing import DigestRenderer
    from storage import Config

    boards: list[tuple[Any, Status]] = []

    class Recording(DigestRenderer):
        def board(self, view: Any, status: Status, language: str = "en") -> bytes:
            boards.append((view, status))
            return super().board(view, status, language)

    here, hour = Place(guild_id=1, channel_id=100), 3600.0
    ann, bob = User(1, "ann"), User(2, LONGEST)
    terms = Terms(game="torishogi", turn_seconds=10 * hour, clock="bank", bank_seconds=5 * hour)
    async with Harness(Config(path=tmp_path / "db.sqlite"), renderer=Recording()) as h:
        await h.service.challenge(here, ann, bob, terms)
        await h.service.accept(here, bob)
        await h.settle()
        for user, move in ((ann, "e4e5"), (bob, "d6e5")):
            await h.service.play(here, user, move)
            await h.service.end_turn(here, user)
            await h.settle()
        view, status = boards[-1]  # ann to move, bob waits
    assert status.deadline.endswith(f"{LONGEST} 15 h"), status.deadline
    fewer = replace(status, deadline=status.deadline.removesuffix("15 h") + "3 h")
    drawn = PillowRenderer(0)
    assert drawn.board(view, status) != drawn.board(view, fewer)


@pytest.mark.parametrize("game", ["tora", "torishogi", "torii"])
def test_every_games_strip_cuts_the_waiting_players_name_not_their_time(game: str) -> None:
    """The same in every game's status strip, whoever is to act first."""
    from render import StatusInfo
    from render.drawings import drawing_of
    from rules import game_type

    kind = game_type(game)
    view = kind.new_game(*kind.sample_setup({})).view_for(None)
    names = {view.side: "ann", view.side.other: LONGEST}

    def board(left: str) -> bytes:
        deadline = f"due in 10 h · {LONGEST} {left}"
        info = StatusInfo(names[Side.CHALLENGER], names[Side.OPPOSITION], deadline)
        return drawing_of(game).board(view, info)

    assert board("15 h") != board("3 h")
