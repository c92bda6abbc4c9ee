"""The application layer's Play panel on a real match service: a pick, an undo and the panel
opened are each one command of the service (one lock, one look at the stored match, one
token of the player's allowance), and what the panel shows is what two commands showed."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import Caller
from bot.app.actions import Actions, ChallengeOptions
from bot.app.menus import ACT, Nav
from bot.app.playing import Playing
from bot.service import Place, User
from bot.service.testing import Harness, RecordingThreads

GUILD, CHANNEL = 1, 100
ANN, BOB = User(1, "ann"), User(2, "bob")
HERE = Place(GUILD, CHANNEL)


def at(user: User) -> Caller:
    return Caller(user, GUILD, CHANNEL)


@pytest.fixture
async def playing(h: Harness) -> Playing:
    actions = Actions(h.service, RecordingThreads())
    await actions.challenge(at(ANN), BOB, ChallengeOptions())
    await actions.accept(at(BOB), None)
    await actions.setup(at(ANN), None, {"strategy": "aggressive"})
    await actions.setup(at(BOB), None, {"strategy": "defensive"})
    await h.settle()
    return Playing(actions)


class Counted:
    """How many commands the service ran: allowance tokens taken, stored versions read."""

    def __init__(self, h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tokens = self.reads = 0
        limit, hosting = h.service._limit, h.store.hosting
        take, versions = limit.take, hosting.versions

        def counted_take(*args: Any) -> None:
            self.tokens += 1
            take(*args)

        async def counted_versions(*args: Any) -> Any:
            self.reads += 1
            return await versions(*args)

        monkeypatch.setattr(limit, "take", counted_take)
        monkeypatch.setattr(hosting, "versions", counted_versions)


async def test_a_pick_stages_and_shows_the_pieces_in_one_command(
    playing: Playing, h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a pick staged with one command and asked for the next menu with another
    (two locks, two version reads, two tokens of the player's allowance). A turn command
    reads no versions at all: its write checks them (``Host._unchecked``)."""
    opened = await playing.open(at(ANN), None)
    assert opened.stamp is not None and opened.files
    menu = await h.service.menu(HERE, ANN)
    notation = (await h.service.menu(HERE, ANN, menu.groups[0].key)).choices[0].notation
    counted = Counted(h, monkeypatch)
    panel = await playing.act(at(ANN), CHANNEL, opened.stamp, Nav(), ACT + notation)
    assert (counted.tokens, counted.reads) == (1, 0)
    assert [select.level for select in panel.selects] == ["g"]  # back to the pieces
    assert panel.files and panel.files[0].name == "preview.png"
    assert "This turn so far: 1." in panel.text
    undone = await playing.undo(at(ANN), CHANNEL, opened.stamp)
    assert (counted.tokens, counted.reads) == (2, 0)
    assert "This turn so far" not in undone.text and undone.selects


async def test_the_panel_opens_in_one_command_with_the_players_own_board(
    playing: Playing, h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = await h.service.board(HERE, ANN)
    counted = Counted(h, monkeypatch)
    opened = await playing.open(at(ANN), None)
    assert (counted.tokens, counted.reads) == (1, 1)
    assert [(f.name, f.data) for f in opened.files or ()] == [(f.name, f.data) for f in board.files]
