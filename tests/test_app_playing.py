"""The application layer's Play panel on a real match service: a pick, an undo and the panel
opened are each one command of the service (one lock, one look at the stored match, one
token of the player's allowance), and what the panel shows is what two commands showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_service_games import torii_until_the_monkeys_pause

from bot.app import Caller
from bot.app.actions import Actions, ChallengeOptions
from bot.app.boards import Boards
from bot.app.menus import ACT, Nav, categories
from bot.app.page_words import next_step
from bot.app.playing import Playing
from bot.i18n import _, speaking
from bot.service import Place, Terms, User
from bot.service.testing import Harness, RecordingThreads
from rules import Side

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


async def test_a_pick_of_an_action_staged_since_from_elsewhere_says_the_turn_changed(
    playing: Playing, h: Harness
) -> None:
    """A menu shown before an action was staged from another panel offers what the rules
    now refuse: the pick answers with the fresh panel, saying the turn changed."""
    opened = await playing.open(at(ANN), None)
    assert opened.stamp is not None
    await h.service.play(HERE, ANN, "G v5h9-v4h9")  # from another panel
    panel = await playing.act(
        at(ANN), CHANNEL, opened.stamp, Nav(group="Gv5h9"), ACT + "G v5h9-v6h9"
    )
    assert "changed since that menu was shown" in panel.text, panel.text
    assert "This turn so far: 1. G v5h9-v4h9" in panel.text


RECORD = Path(__file__).parent / "records" / "search-in-jeopardy.tora"


async def test_a_pick_of_a_search_the_rules_refuse_says_why(h: Harness) -> None:
    """The legal actions (and so the panel's menus) list a command piece's search that R43
    refuses only when it is applied (the piece would be in jeopardy). Regression: the panel
    took every refusal for a turn changed elsewhere, said "Your turn has changed since
    that menu was shown" (it had not) and offered the same search again, where it must say
    why the rules refuse it."""
    text = RECORD.read_text()
    headers = dict(line[1:-1].split(" ", 1) for line in text.splitlines() if line.startswith("["))
    turns = [line for line in text.splitlines() if line[:2] in ("C:", "O:")]
    await h.service.open_match(HERE, ANN, BOB, Terms("tora", {"board": "long", "assassins": True}))
    for user, side in ((ANN, "Challenger"), (BOB, "Opposition")):
        answers = {
            "strategy": headers[f"{side}Setup"].strip('"'),
            "ruler": headers[f"{side}Ruler"].strip('"'),
            "assassin": headers[f"{side}Assassin"].strip('"'),
        }
        await h.service.setup(HERE, user, answers)
    for line in turns:
        user = ANN if line.startswith("C:") else BOB
        for action in line[2:].split(";"):
            await h.service.play(HERE, user, action.strip())
        await h.service.end_turn(HERE, user)
    await h.settle()
    search = "G v4h5 search"  # R43: the General would be in jeopardy there
    menu = await h.service.menu(HERE, BOB)
    group = next(g.key for g in menu.groups if "v4h5" in g.key)
    offered = (await h.service.menu(HERE, BOB, group)).choices
    assert search in [c.notation for c in offered]  # the panel offers it
    playing = Playing(Actions(h.service, RecordingThreads()))
    opened = await playing.open(at(BOB), None)
    assert opened.stamp is not None
    panel = await playing.act(at(BOB), CHANNEL, opened.stamp, Nav(group=group), ACT + search)
    assert "changed since that menu was shown" not in panel.text, panel.text
    assert "R43" in panel.text, panel.text
    assert "This turn so far" not in panel.text and panel.selects  # nothing staged


async def test_a_panel_opened_with_the_match_option_in_another_channel_answers_its_picks(
    playing: Playing, h: Harness
) -> None:
    """Regression: ``/tora play match:N`` in another channel of the server opens the Play
    panel there, naming the match's channel; its picks were refused "That match is over,
    so nothing was done." (a live match) as pressed outside the match's channel."""
    (hosted,) = await h.service.matches_of(ANN.id)
    for user in (ANN, BOB):  # whoever is to play
        elsewhere = Caller(user, GUILD, 200, text_channel=True)
        panel = await playing.open(elsewhere, str(hosted.id))
        if panel.stamp is not None:
            break
    assert panel.stamp is not None and panel.channel_id == CHANNEL
    picked = await playing.navigate(elsewhere, panel.channel_id, panel.stamp, Nav())
    assert picked.stamp is not None


async def test_ti15_the_monkeys_panel_asks_for_a_decision_not_a_move(h: Harness) -> None:
    """bob opens the Play panel to decide for his Monkey (TI15). Regression: it read
    "Choose the Monkey's flip in the menu, then the move: the picture letters where each
    goes", and once decided "Your move is staged": there is no move, and nothing lettered."""
    await torii_until_the_monkeys_pause(h)
    playing = Playing(Actions(h.service, RecordingThreads()))
    opened = await playing.open(at(BOB), None)
    assert opened.stamp is not None
    assert (
        "Choose the Monkey's flip in the menu: a pick is staged at once (Undo takes it back)."
        in opened.text
    ), opened.text
    assert "the move" not in opened.text and "letters" not in opened.text
    decided = await playing.act(at(BOB), CHANNEL, opened.stamp, Nav(), ACT + "flip none")
    assert "This turn so far: 1. " in decided.text, decided.text
    assert "Your decision is staged: End turn plays it, or Undo takes it back." in decided.text
    assert "move" not in decided.text


async def test_ti15_the_pages_next_step_for_the_monkeys_decision_speaks_of_no_move(
    h: Harness,
) -> None:
    """bob decides for his Monkey on his page (TI15). Regression: the page's next step read
    "Click a piece, then where it goes." and, once decided, "another move replaces it",
    though there is no move and the decision is a button under the board."""
    await torii_until_the_monkeys_pause(h)
    hosted = await h.running.records.live_in_channel(CHANNEL)
    assert hosted is not None
    boards = Boards(h.service)
    state = await boards.mine(hosted.id, Side.OPPOSITION)
    assert next_step(state) == "Choose with the buttons under the board.", state
    await h.service.play(HERE, BOB, "flip none")
    state = await boards.mine(hosted.id, Side.OPPOSITION)
    assert next_step(state) == "Your decision is staged: End turn plays it, or Undo takes it back."


@pytest.mark.parametrize("language", ["en", "de", "ja"])
async def test_a_pick_staged_is_said_once_in_every_language(
    playing: Playing, language: str
) -> None:
    """A plain pick is said by the panel's "This turn so far" line alone. Regression: the
    panel left out the pick's "Staged: ..." line in English only (it looked for that English
    word), so in German it said the pick twice ("Vorgemerkt: ..." and "Bisher in diesem Zug:
    1. ...")."""
    with speaking(language):
        opened = await playing.open(at(ANN), None)
        assert opened.stamp is not None
        panel = await playing.act(
            at(ANN), CHANNEL, opened.stamp, Nav(group="Gv5h9"), ACT + "G v5h9-v4h9"
        )
        so_far = _("This turn so far: {actions}", actions="1. G v5h9-v4h9")
    assert so_far in panel.text, panel.text
    assert panel.text.count("G v5h9-v4h9") == 1, panel.text


async def test_r10_the_panel_warns_before_a_search_is_picked_that_it_is_never_taken_back(
    h: Harness,
) -> None:
    """ann's Play panel offered a search with the same legend as every other action, "a
    pick is staged at once (Undo takes it back)", which a search is not (R10, R43). Each
    search now says in the menu that it cannot be taken back, and the panel says what that
    means, before it is picked."""
    await h.service.open_match(HERE, ANN, BOB, Terms("tora", {"board": "long", "assassins": True}))
    await h.service.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "K", "assassin": "none"})
    await h.service.setup(HERE, BOB, {"strategy": "defensive", "ruler": "Q", "assassin": "none"})
    playing = Playing(Actions(h.service, RecordingThreads()))
    opened = await playing.open(at(ANN), None)
    assert opened.stamp is not None
    parts = categories((await h.service.menu(HERE, ANN)).groups)
    category, members = next((name, m) for name, m in parts.items() if "Soldier" in name)
    group = min(members, key=lambda g: len(g.description)).key  # few actions: one menu
    nav = Nav(category, group)
    panel = await playing.navigate(at(ANN), CHANNEL, opened.stamp, nav)
    options = [o for select in panel.selects for o in select.options]
    searches = [o for o in options if o.value.endswith(" search")]
    assert searches, [o.value for o in options]
    assert all("cannot be taken back" in o.description for o in searches), searches
    others = [o for o in options if o.value.startswith(ACT) and o not in searches]
    assert others and not any("cannot be taken back" in o.description for o in others)
    assert "Undo takes back neither it nor anything staged before it" in panel.text, panel.text
