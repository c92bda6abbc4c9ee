"""Planned replies made with the Play panel's pickers (issue 27): the opponent's expected
turn picked from their legal actions as the player knows the game, then the answer, saved
as a plan; the draft is kept in the store across restarts, refused on the player's own turn
and against the AI, and a pick that cannot be played changes nothing."""

from __future__ import annotations

import json

import pytest
from test_service_games import torii_until_the_monkeys_pause
from test_service_plans import ANN, BOB, HERE, tora_turns_to_plan

from bot.service import Refused, Terms
from bot.service.testing import PRIVATE, Harness
from rules import Side

HOUR = 3600.0


async def started(h: Harness) -> None:
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()


async def test_a_reply_picked_then_saved_is_played_when_the_turn_comes(h: Harness) -> None:
    await started(h)
    draft = await h.running.draft_plan(HERE, ANN)
    assert draft.menu.title == "Plan a reply · Match 1 · ToriShogi against bob"
    assert draft.menu.to_act == "picking bob's turn you expect"
    assert draft.menu.groups and not draft.replying
    group = next(g.key for g in draft.menu.groups if g.origin == "c5")
    opened = await h.running.draft_plan(HERE, ANN, group=group)
    assert "c5c4" in [choice.notation for choice in opened.menu.choices]
    draft = await h.running.draft_plan(HERE, ANN, pick="c5c4")
    assert draft.theirs == ("c5c4",) and draft.replying  # one move: the reply is next
    await h.crash()  # the draft is kept
    draft = await h.running.draft_plan(HERE, ANN, pick="a3a4")
    assert draft.mine == ("a3a4",) and draft.complete
    draft = await h.running.draft_plan(HERE, ANN, step="save")
    assert draft.news == "Plan 1 saved."
    assert draft.plans == ("if bob plays c5c4, you play a3a4",)
    assert draft.theirs == () and not draft.replying  # ready for another
    await h.running.play(HERE, BOB, "c5c4")
    await h.running.end_turn(HERE, BOB)
    await h.settle()
    assert "`a3a4`" in h.delivery.texts(HERE.channel_id)[-1]


async def test_undo_and_refusals(h: Harness) -> None:
    await started(h)
    with pytest.raises(Refused, match="a plan answers your opponent's turn"):
        await h.running.draft_plan(HERE, BOB)
    with pytest.raises(Refused, match="nothing to take back"):
        await h.running.draft_plan(HERE, ANN, step="undo")
    with pytest.raises(Refused, match="before saving the plan"):
        await h.running.draft_plan(HERE, ANN, step="save")
    with pytest.raises(Refused):
        await h.running.draft_plan(HERE, ANN, pick="c5c9")
    draft = await h.running.draft_plan(HERE, ANN, pick="c5c4")
    draft = await h.running.draft_plan(HERE, ANN, step="undo")
    assert draft.theirs == ("c5c4",) and not draft.replying
    draft = await h.running.draft_plan(HERE, ANN, step="undo")
    assert draft.theirs == ()
    await h.running.draft_plan(HERE, ANN, pick="b5b4")
    await h.running.play(HERE, BOB, "c5c4")  # bob's turn ends: the draft was of that turn
    await h.running.end_turn(HERE, BOB)
    assert not any(
        "plan" in d.message.text.lower() for d in h.delivery.user(BOB.id) if d.kind == PRIVATE
    )
    await h.running.play(HERE, ANN, "a3a4")
    await h.running.end_turn(HERE, ANN)
    assert (await h.running.draft_plan(HERE, ANN)).theirs == ()  # stale: begun again


async def test_a_tora_whole_turn_picked_then_ended_then_answered(h: Harness) -> None:
    theirs, mine = await tora_turns_to_plan(h)
    for text in theirs:
        draft = await h.running.draft_plan(HERE, ANN, pick=text)
    assert draft.theirs == tuple(theirs) and not draft.replying
    draft = await h.running.draft_plan(HERE, ANN, step="done")
    assert draft.replying and draft.menu.to_act == "picking your reply"
    for text in mine:
        draft = await h.running.draft_plan(HERE, ANN, pick=text)
    assert draft.complete
    assert (await h.running.draft_plan(HERE, ANN, step="save")).news == "Plan 1 saved."
    for text in theirs:
        await h.running.play(HERE, BOB, text)
    await h.running.end_turn(HERE, BOB)
    await h.settle()
    post = h.delivery.texts(HERE.channel_id)[-1]
    assert post.startswith("ann (Challenger) ended their turn:")
    assert all(f"`{text}`" in post for text in mine)


async def test_after_a_takeback_the_plan_panel_opens_empty(h: Harness) -> None:
    """Drafts are kept by turn number, and a takeback brings turn numbers back: ann drafted
    "bob a5a4, me c4c5" in turn 2; her turn 1 is taken back and replayed as a3a4; in the new
    turn 2 the plan panel replayed the old draft and was refused (c4 is empty now), so the
    panel with its Start again button could not even be shown. A takeback drops both
    players' drafts (as it drops their plans), and the panel opens empty."""
    await h.running.challenge(
        HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR, rated=False)
    )
    await h.running.accept(HERE, BOB)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    await h.running.draft_plan(HERE, ANN, pick="a5a4")
    await h.running.draft_plan(HERE, ANN, pick="c4c5")
    await h.running.takeback(HERE, ANN)
    await h.running.takeback(HERE, BOB)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    assert await h.running._ctx.store.hosting.private_draft(hosted.id, Side.CHALLENGER) is None
    await h.running.play(HERE, ANN, "a3a4")  # turn 1 again, another move
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    draft = await h.running.draft_plan(HERE, ANN)  # opening the panel in the new turn 2
    assert draft.theirs == () and draft.mine == ()


async def test_a_stored_draft_that_no_longer_plays_opens_empty(h: Harness) -> None:
    """A draft kept for this turn that cannot be played in its position (kept before this
    fix across a takeback, say) is an empty draft, not a refusal of the panel."""
    await started(h)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    stale = json.dumps({"theirs": ["a5a4"], "mine": ["c3c4"], "replying": True})  # c3 is empty
    turn = (await h.running.draft_plan(HERE, ANN)).menu.stamp.turn
    await h.running._ctx.store.hosting.put_draft(hosted.id, Side.CHALLENGER, turn, stale)
    draft = await h.running.draft_plan(HERE, ANN)
    assert draft.theirs == () and draft.mine == () and not draft.replying
    draft = await h.running.draft_plan(HERE, ANN, pick="a5a4")  # and it is made again
    assert draft.theirs == ("a5a4",)


async def test_a_plans_picture_shows_the_opponents_expected_actions_picked_so_far(
    h: Harness,
) -> None:
    """Planning a reply in TORA, ann picks bob's expected turn action by action: the panel's
    picture shows each pick (the piece moved, the action drawn), where it stayed the board
    as it is, the same after every pick, the letters of a piece's next action pointing at
    squares where no piece stood."""
    theirs, _mine = await tora_turns_to_plan(h)
    assert len(theirs) >= 2
    before = (await h.running.draft_plan(HERE, ANN)).menu.picture
    picked = await h.running.draft_plan(HERE, ANN, pick=theirs[0])
    assert picked.theirs == (theirs[0],) and not picked.replying
    assert picked.menu.picture is not None and before is not None
    assert picked.menu.picture.data != before.data
    again = await h.running.draft_plan(HERE, ANN, pick=theirs[1])
    assert again.menu.picture is not None and again.menu.picture.data != picked.menu.picture.data


async def test_ti15_no_plan_is_offered_while_the_opponent_decides_for_the_monkey(
    h: Harness,
) -> None:
    """ann's turn waits for bob's Monkey (TI15): her End turn offered Plan a reply, whose
    panel asked for "the move you expect" (bob's flip), then for her reply on his own turn's
    tiles, and its save was refused. bob's own turn follows his decision, so nothing of
    ann's answers it: no plan is offered then, and the panel says why."""
    ended = await torii_until_the_monkeys_pause(h)
    assert "plan" not in ended.buttons
    with pytest.raises(Refused, match="bob has a decision to make in your turn") as refused:
        await h.running.draft_plan(HERE, ANN)
    assert "plan your reply once it runs" in refused.value.message


async def test_ti15_a_reply_of_two_monkey_decisions_is_picked_in_the_plan_panel(
    h: Harness,
) -> None:
    """ann's expected move builds two Torii, so bob's Monkey owes two decisions (TI15), one
    turn of two actions. In the plan panel his second pick replaced the first, as a move
    replaces the move picked before, so the reply could never hold both, and its save was
    refused. The second decision is added to the first."""
    from test_service_takebacks import torii_played

    turns = ["3 b2 b1 a1", "1 c5", "1 push b5 a2", "3 c5 c4 c3", "1 a4", "2 c2 d2 build c3 flip O"]
    await torii_played(h, [(ANN if n % 2 == 0 else BOB, text) for n, text in enumerate(turns)])
    await h.running.draft_plan(HERE, BOB, pick="3 a3 b3 b4 build b1 build a4")
    draft = await h.running.draft_plan(HERE, BOB, pick="flip C")
    assert not draft.complete  # (no Save the plan with one decision of two)
    draft = await h.running.draft_plan(HERE, BOB, pick="flip none")
    assert draft.mine == ("flip C", "flip none") and draft.complete, draft.mine
    saved = await h.running.draft_plan(HERE, BOB, step="save")
    assert saved.news == "Plan 1 saved.", saved.news


async def test_ti15_the_monkeys_owner_deciding_is_told_so_when_planning(h: Harness) -> None:
    """bob answers for his Monkey in ann's turn (TI15): asking to plan, in the panel or with
    `/tora plans`, he was told "It is your turn", though it is ann's turn and what he owes
    is a decision, then his own turn. He is told that now."""
    await torii_until_the_monkeys_pause(h)
    for attempt in (h.running.draft_plan(HERE, BOB), h.running.plans(HERE, BOB, add="1 a1 > 1 a2")):
        with pytest.raises(
            Refused, match="You have a decision to make in ann's turn, the Monkey's"
        ):
            await attempt
