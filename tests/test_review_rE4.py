"""Review rE4: planned replies (bot/service/plans.py, turns.py, drafting.py)."""

from __future__ import annotations

from bot.service import Place, Refused, Terms, User
from bot.service.testing import PRIVATE, Harness
from rules import Side

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0

# Torii (tests/test_service_games.py): ann's 5th turn flips bob's last unused tile, so his
# turn is a pass (TI8), which the host plays at once.
TO_ANNS_FIFTH = ["3 c1 b1 a1", "3 d4 e4 f4", "1 b1", "2 f3 f2"]
FORCING = "3 c1 d1 d3 build c1 flip O"


async def torii_before_the_forcing_turn(h: Harness) -> None:
    await h.service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii"))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    for index, text in enumerate(TO_ANNS_FIFTH):
        player = ANN if index % 2 == 0 else BOB
        await h.service.play(HERE, player, text)
        await h.service.end_turn(HERE, player)
        await h.settle()


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


async def test_a_plan_whose_first_step_is_answered_by_a_forced_pass_still_plays_its_second(
    h: Harness,
) -> None:
    """bob plans "ann flips my last tile > pass | ann plays 1 d4 > 1 f3". ann plays exactly
    that, the host plays bob's forced pass at once (TI8), then ann plays 1 d4. bob sees
    "ann played 1 d4, which none of your plans answers: 1 plan dropped" and his 1 f3 is not
    played: the forced pass skipped his plans (turns.after_turn: planner None), so their
    first step, already answered, was matched against ann's next turn. He should see his
    planned 1 f3 played (or, at the least, a line whose turn passed never matched later)."""
    await torii_before_the_forcing_turn(h)
    saved = await h.service.plans(HERE, BOB, add=f"{FORCING} > pass | 1 d4 > 1 f3")
    assert saved.text.startswith("Plan 1 saved."), saved.text
    await h.service.play(HERE, ANN, FORCING)
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    table = await h.service._table(HERE.channel_id)
    assert table.game.turns[-1].events[0].kind == "pass"  # the host played bob's pass
    await h.service.play(HERE, ANN, "1 d4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    told = dms(h, BOB)[-1]
    assert "none of your plans answers" not in told, told
    table = await h.service._table(HERE.channel_id)
    assert table.game.side == Side.CHALLENGER, "bob's planned 1 f3 was not played"


async def test_cancelling_a_plan_when_there_is_none_says_so(h: Harness) -> None:
    """With no plans, `/tora plans cancel:1` answers "Cancel a plan by its number, 1 to 0,
    or `all`; not `1`.": a range that does not exist, never saying there is nothing to
    cancel. It should say there is no plan to cancel."""
    await h.service.challenge(HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR))
    await h.service.accept(HERE, BOB)
    await h.service.play(HERE, ANN, "c3c4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    try:
        said = (await h.service.plans(HERE, ANN, cancel="1")).text
    except Refused as refused:
        said = refused.message
    assert "1 to 0" not in said, said


async def test_a_planned_monkey_answer_is_not_then_told_as_the_opponents_unanswered_turn(
    h: Harness,
) -> None:
    """Torii, bob's Monkey (TI15): bob plans "if ann plays 3 b3 b4 b5 build b4, I flip none"
    (the Monkey's answer in her turn). ann plays it; the answer is played and bob is told so,
    but then, as his own turn begins, he is DMed "ann played flip none, which none of your
    plans answers: 1 plan dropped": his own answer told as ann's turn, and the plan just
    played counted again as dropped (turns.after_turn re-reads the plans from the store,
    not ``kept``, and takes the decision for the opponent's turn). He should get only the
    DM that his planned answer was played (and his usual "your turn")."""
    import random

    from rules import game_type

    await h.service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii"))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "kitsune"})
    await h.service.setup(HERE, BOB, {"spirit": "Monkey"})
    await h.settle()
    # the moves of test_service_games.torii_until_the_monkeys_pause
    game = game_type("torii").new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Monkey"}))
    rng = random.Random(43)
    planned = False
    while not game.deciding:
        player = ANN if game.side == Side.CHALLENGER else BOB
        texts = []
        while game.actions_left and game.legal_actions():
            actions = game.legal_actions()
            builds = [a for a in actions if "build" in game.notation(a)]
            text = game.notation(rng.choice(builds if builds and rng.random() < 0.8 else actions))
            texts.append(text)
            game.apply(text)
        probe = game.copy()
        probe.end_turn()
        if probe.deciding:
            saved = await h.service.plans(HERE, BOB, add=f"{'; '.join(texts)} > flip none")
            assert saved.text.startswith("Plan 1 saved."), saved.text
            planned = True
        for text in texts:
            await h.service.play(HERE, player, text)
        game.end_turn()
        await h.service.end_turn(HERE, player)
    await h.settle()
    assert planned
    told = dms(h, BOB)
    assert any("your planned reply flip none was played" in text for text in told), told[-2:]
    assert not any("ann played flip none" in text for text in told), told[-1]


async def test_a_plan_saved_on_the_web_page_can_be_cancelled_there(tmp_path) -> None:
    """The web board's plan mode saves a plan and lists it ("if bob plays c5c4, you play
    a3a4"), but offers no way to cancel it: its steps are only done, save, undo and new
    (``planning.plan_verbs``, ``drafting.STEPS``), so a player on the web who changes their
    mind must go to Discord's `/tora plans cancel:` (the plan panel has no cancel either).
    The page (and the panel) should offer to cancel a listed plan."""
    from web_world import World

    async with World(tmp_path / "web.sqlite3") as w:
        match = await w.playing(Terms(game="torishogi"))
        token = await w.token(match, Side.CHALLENGER)
        await w.post("act", token, {"stamp": 1, "notation": "c3c4"})
        await w.post("end", token, {"stamp": 1})
        await w.post("plan", token, {"stamp": 2, "pick": "c5c4"})
        await w.post("plan", token, {"stamp": 2, "pick": "a3a4"})
        _, plan, _ = await w.post("plan", token, {"stamp": 2, "step": "save"})
        assert plan["plans"] == ["if bob plays c5c4, you play a3a4"]
        assert any("cancel" in step for step in plan["steps"]), plan["steps"]


async def test_a_plan_made_during_the_opponents_monkey_answer_cannot_reply_with_their_move(
    h: Harness,
) -> None:
    """Torii (TI15): ann's turn waits for bob's answer for his Monkey, so bob is to act and
    ann may plan. `/tora plans add:flip none > 1 f4` is saved as "if bob plays flip none,
    you play 1 f4", but after bob's answer it is bob's own turn: 1 f4 is a move of bob's
    Monkey (``plans.played_out`` plays the reply for whoever is to act). The plan can never
    be played as told (it is dropped at bob's next turn, "none of your plans answers"). It
    should be refused, saying that ann's reply comes only after bob's own turn."""
    from test_service_games import torii_until_the_monkeys_pause

    await torii_until_the_monkeys_pause(h)
    table = await h.service._table(HERE.channel_id)
    assert table.game.deciding and table.game.side == Side.OPPOSITION
    mine = table.game.for_player(Side.CHALLENGER)
    mine.apply("flip none")
    mine.end_turn()
    assert mine.side == Side.OPPOSITION  # bob's own turn follows his answer
    bobs_move = mine.notation(mine.legal_actions()[0])
    try:
        said = (await h.service.plans(HERE, ANN, add=f"flip none > {bobs_move}")).text
    except Refused:
        return
    raise AssertionError(f"a reply that is bob's own move was saved as ann's plan: {said}")
