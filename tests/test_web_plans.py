"""The web board's plan mode through aiohttp's test client (``POST /api/me/plan``): the draft
the Play panel makes, step by step, for the player whose opponent is to act; its hostile
input refused with a 400 naming what is wanted, a stale stamp with a 409, the player to act
and a forged link refused; the opponent's page shows nothing of it."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_service_games
from test_service_games import torii_until_the_monkeys_pause
from web_world import HERE, World

from bot.service import Terms, User
from rules import Side

C, O = Side.CHALLENGER, Side.OPPOSITION


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "web.sqlite3") as world:
        yield world


async def torishogi(w: World) -> tuple[int, str]:
    """A ToriShogi match in which ann played c3c4: bob to act; ann's token."""
    match = await w.playing(Terms(game="torishogi"))
    token = await w.token(match, C)
    await w.post("act", token, {"stamp": 1, "notation": "c3c4"})
    await w.post("end", token, {"stamp": 1})
    return match, token


async def test_a_plan_made_on_the_web_step_by_step(w: World) -> None:
    match, token = await torishogi(w)
    status, plan, _ = await w.post("plan", token, {"stamp": 2})
    assert status == 200 and plan["theirs"] == [] and not plan["replying"]
    assert plan["picture"].startswith("data:image/png;base64,")
    assert plan["groups"] and plan["choices"] == []
    group = next(g["key"] for g in plan["groups"] if "c5" in g["label"] or g["key"] == "c5")
    status, plan, _ = await w.post("plan", token, {"stamp": 2, "group": group})
    assert status == 200 and "c5c4" in [c["notation"] for c in plan["choices"]]
    _, plan, _ = await w.post("plan", token, {"stamp": 2, "pick": "c5c4"})
    assert plan["theirs"] == ["c5c4"] and plan["replying"]
    _, plan, _ = await w.post("plan", token, {"stamp": 2, "pick": "a3a4"})
    assert plan["complete"] and plan["steps"] == ["save", "undo", "new"]
    _, plan, _ = await w.post("plan", token, {"stamp": 2, "step": "save"})
    assert plan["news"] == "Plan 1 saved." and plan["plans"] == ["if bob plays c5c4, you play a3a4"]
    bob = await w.me(match, O)
    shown = {key: value for key, value in bob.items() if key != "unplannable"}
    assert bob["unplannable"] is None and "plan" not in str(shown).lower()


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"stamp": 2, "pick": "c5c4", "step": "save"}, "at most one of pick, step, group and"),
        ({"stamp": 2, "step": "fly"}, "A step is one of new, done, undo, save"),
        ({"stamp": 2, "step": "open"}, "A step is one of"),
        ({"stamp": 2, "pick": "a" * 201}, "'pick' is text of at most 200 characters"),
        ({"stamp": 2, "group": "\x00"}, "group is a piece's group key"),
        ({"stamp": "two"}, "'stamp' is a whole number"),
    ],
)
async def test_hostile_plan_requests_are_refused(w: World, body: dict, error: str) -> None:
    _match, token = await torishogi(w)
    status, answer, _ = await w.post("plan", token, body)
    assert status == 400 and error in answer["error"], answer


async def test_a_stale_stamp_the_player_to_act_and_a_bad_pick_are_refused(w: World) -> None:
    match, token = await torishogi(w)
    status, answer, _ = await w.post("plan", token, {"stamp": 1})
    assert status == 409 and answer["stale"] is True
    status, answer, _ = await w.post("plan", await w.token(match, O), {"stamp": 2})
    assert status == 409 and "a plan answers your opponent's turn" in answer["error"]
    status, answer, _ = await w.post("plan", token, {"stamp": 2, "pick": "c5c9"})
    assert status == 409 and answer["error"]
    status, answer, _ = await w.post("plan", None, {"stamp": 2})
    assert status == 401


async def test_a_plan_listed_on_the_page_can_be_cancelled_there(w: World) -> None:
    """The plan mode saved and listed plans but could not cancel one: a player on the page
    had to go to Discord's `/tora plans cancel:`. ``cancel`` (a listed plan's number) does."""
    _, token = await torishogi(w)
    for body in ({"pick": "c5c4"}, {"pick": "a3a4"}, {"step": "save"}):
        _, plan, _ = await w.post("plan", token, {"stamp": 2, **body})
    assert plan["plans"] == ["if bob plays c5c4, you play a3a4"]
    status, plan, _ = await w.post("plan", token, {"stamp": 2, "cancel": 1})
    assert status == 200 and plan["plans"] == [] and plan["news"] == "Plan 1 cancelled."
    status, said, _ = await w.post("plan", token, {"stamp": 2, "cancel": 1})
    assert status == 409 and "You have no plans to cancel" in said["error"], said
    status, said, _ = await w.post("plan", token, {"stamp": 2, "cancel": 1, "step": "new"})
    assert status == 400, said


async def test_the_pages_cancel_takes_the_plan_it_listed_after_another_was_cancelled(
    w: World,
) -> None:
    """The page cancelled a plan by its number in the list it showed: once another plan was
    cancelled elsewhere (Discord's `/tora plans`, the plan panel, another tab), the numbers
    after it moved up, and the page's Cancel under "if bob plays d5d4" cancelled the plan
    now numbered as it was shown, keeping the one pressed. Each listed plan now comes with
    the value to send (``cancels``), which finds it whatever its number now."""
    _, token = await torishogi(w)
    for theirs in ("c5c4", "d5d4"):
        for body in ({"pick": theirs}, {"pick": "a3a4"}, {"step": "save"}):
            _, plan, _ = await w.post("plan", token, {"stamp": 2, **body})
    shown = plan["plans"]
    assert shown == ["if bob plays c5c4, you play a3a4", "if bob plays d5d4, you play a3a4"]
    first, second = plan["cancels"]
    _, plan, _ = await w.post("plan", token, {"stamp": 2, "cancel": first})  # another tab
    assert plan["plans"] == shown[1:]
    status, plan, _ = await w.post("plan", token, {"stamp": 2, "cancel": second})
    assert status == 200 and plan["plans"] == [], plan
    status, plan, _ = await w.post("plan", token, {"stamp": 2, "cancel": second})
    gone = "That plan is no longer saved, so nothing was cancelled."
    assert status == 200 and plan["news"] == gone


async def test_ti15_the_page_offers_no_plan_while_the_opponent_decides_for_the_monkey(
    w: World,
) -> None:
    """While bob decides for his Monkey in ann's turn (TI15), her page showed its plan mode
    (bob to act, her turn over), whose opening was refused: a plan answers bob's own turn,
    which follows his decision. Her state now says why no plan can be made then, which the
    page shows in place of the plan mode; while bob's own turn runs, she may plan."""
    await torii_until_the_monkeys_pause(w.h)
    hosted = await w.h.store.hosting.live_in_channel(HERE.channel_id)
    assert hosted is not None
    ann = await w.me(hosted.id, C)
    assert ann["unplannable"].startswith("bob has a decision to make in your turn"), ann
    assert (await w.me(hosted.id, O))["unplannable"] is None  # (bob acts: the page knows)


async def test_ti15_the_pages_reason_for_no_plan_shows_the_opponents_name_as_written(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page showed why no plan can be made during b_o_b's Monkey decision (TI15) with
    his name escaped as a Discord message escapes it: "b\\_o\\_b has a decision to make";
    the page shows plain text, so the name now reads as he wrote it."""
    monkeypatch.setattr(test_service_games, "BOB", User(2, "b_o_b"))
    await torii_until_the_monkeys_pause(w.h)
    hosted = await w.h.store.hosting.live_in_channel(HERE.channel_id)
    assert hosted is not None
    said = (await w.me(hosted.id, C))["unplannable"]
    assert said.startswith("b_o_b has a decision to make in your turn"), said
