"""The real board images behind the service's Renderer protocol: a match started through the
service posts PNGs, the public one drawn from the public view only."""

from __future__ import annotations

from pathlib import Path

from bot.app.pictures import PillowRenderer
from bot.service import Place, Status, User
from bot.service.testing import Harness
from rules.tora import Game, Side

PNG = b"\x89PNG\r\n\x1a\n"


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
