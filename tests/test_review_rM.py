"""Review rM: the pictures (render/, bot/app/pictures.py). One failing test per bug."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from PIL import Image

from bot.app.pictures import PillowRenderer
from bot.service import Place, Terms, User
from bot.service.testing import DigestRenderer, Harness
from storage import Config

HERE = Place(guild_id=1, channel_id=100)
LONGEST = "Bartholomew Montgomery-Whitfield"  # 32 characters: Discord's longest name
HOUR = 3600.0


def _strip(png: bytes, height: int) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.crop((0, 0, image.width, height)).tobytes()


class _Recording(DigestRenderer):
    """The harness's renderer, keeping what each public board is drawn from."""

    def __init__(self) -> None:
        self.boards: list[tuple[object, object]] = []

    def board(self, view, status, language="en"):  # type: ignore[no-untyped-def]
        self.boards.append((view, status))
        return super().board(view, status, language)


async def test_the_waiting_players_time_left_shows_on_the_board_whatever_their_name(
    tmp_path: Path,
) -> None:
    """A bank clock, the waiting player named with Discord's longest name: the turn post's
    board picture should show that player's time left ("... · Bartholomew ... 15 h"), as
    the README promises ("each player's time left is ... on the board picture"). The
    status's deadline carries the waiting player's whole name (bot/service/table.py,
    ``_deadline_text``), so the strip's sentence is cut with an ellipsis before the time:
    15 h left and 3 h left give the very same picture."""
    recording = _Recording()
    harness = Harness(Config(path=tmp_path / "db.sqlite"), renderer=recording)
    await harness.open()
    try:
        ann, bob = User(1, "ann"), User(2, LONGEST)
        terms = Terms(
            turn_seconds=10 * HOUR, game="torishogi", clock="bank", bank_seconds=5 * HOUR
        )
        await harness.running.challenge(HERE, ann, bob, terms)
        await harness.running.accept(HERE, bob)
        await harness.settle()
        for user, move in ((ann, "e4e5"), (bob, "d6e5")):
            await harness.running.play(HERE, user, move)
            await harness.running.end_turn(HERE, user)
            await harness.settle()
        view, status = recording.boards[-1]
    finally:
        await harness.close()
    deadline = status.deadline  # type: ignore[attr-defined]
    assert deadline.endswith(f"{LONGEST} 15 h"), deadline  # bob waits with 15 h left
    fewer = replace(status, deadline=deadline[: -len("15 h")] + "3 h")  # type: ignore[type-var]
    drawn = PillowRenderer(0)
    same = _strip(drawn.board(view, status), 62) == _strip(drawn.board(view, fewer), 62)
    assert not same, "15 h and 3 h left give the same board: the time left is cut off"
