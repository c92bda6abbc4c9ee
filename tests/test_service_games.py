"""The match service hosting games other than TORA (issues 15, 16): ToriShogi starts on
acceptance, refuses TORA's terms by name, and a deadline with no move staged is a missed turn
that restarts the same player's clock, until the forfeit; Torii's Monkey answers in the
opponent's turn, and no answer by the deadline means none (TI15)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

from bot.service import Place, Refused, Reply, Terms, User
from bot.service.testing import Harness
from rules import Side, game_type

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


def channel_texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


async def started(h: Harness, **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.service.challenge(HERE, ANN, BOB, Terms(**terms))
    reply = await h.service.accept(HERE, BOB)
    assert reply.text == "You accepted the challenge: the game begins."
    await h.settle()


async def test_torishogi_begins_on_acceptance_and_refuses_toras_terms(h: Harness) -> None:
    with pytest.raises(Refused, match="ToriShogi is played without a choice of board or Assassins"):
        await h.service.challenge(
            HERE, ANN, BOB, Terms(game="torishogi", options={"board": "long", "assassins": True})
        )
    with pytest.raises(Refused, match="The game is `tora`, `torishogi` or `torii`, not `chess`"):
        await h.service.challenge(HERE, ANN, BOB, Terms(game="chess"))
    await started(h)
    begins = channel_texts(h)[-1]
    assert begins.startswith("bob accepts ann's challenge. The game begins: ")
    assert "to act: a move" in begins
    await h.service.play(HERE, ANN, "c3c4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    assert "- ann's Swallow moves 5e-5d and captures bob's Swallow" in channel_texts(h)[-1]


async def test_a_torishogi_deadline_without_a_move_restarts_the_clock_then_forfeits(
    h: Harness,
) -> None:
    await started(h, forfeit_after=2)
    await h.advance(10 * HOUR)  # ann stages nothing
    missed = channel_texts(h)[-1]
    assert missed.startswith(
        "ann's turn passed its deadline with no move played (missed turns in a row: 1 of 2 "
        "before a forfeit). Their clock starts again.\nann (Challenger) to act: a move"
    )
    await h.service.play(HERE, ANN, "c3c4")  # still ann's turn: it was not passed
    await h.service.undo(HERE, ANN, None)  # staged and taken back: counts for nothing
    await h.advance(10 * HOUR)
    forfeit = channel_texts(h)[-1]
    assert forfeit.startswith("ann (Challenger) forfeits: 2 turns in a row")
    record = h.delivery.channel(HERE.channel_id)[-1].files[1]
    assert record.name == "torishogi-match-1.torishogi"
    assert record.data.decode().rstrip().endswith("C: forfeit")


async def test_a_staged_torishogi_move_is_played_at_the_deadline(h: Harness) -> None:
    await started(h)
    await h.service.play(HERE, ANN, "c3c4")
    await h.advance(10 * HOUR)
    post = channel_texts(h)[-1]
    assert post.startswith(
        "ann's turn ended at its deadline:\n"
        "- ann's Swallow moves 5e-5d and captures bob's Swallow · `c3c4`\n"
        "In hand: ann 1 Swallow; bob to move.\n"
        "bob (Opposition) to act: a move"
    )


async def torii_until_the_monkeys_pause(
    h: Harness,
    before_it: Callable[[list[str]], Awaitable[None]] | None = None,
    **terms: object,
) -> Reply:
    """A Torii match (ann Kitsune, bob Monkey) played until ann's turn waits for bob's
    Monkey (TI15), with the same keen-on-building moves as the end-to-end test;
    ``before_it`` is called with the actions of the turn that brings the pause, before
    they are played. Returns ann's answer to the end of that turn."""
    await h.service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii", **terms))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "kitsune"})
    await h.service.setup(HERE, BOB, {"spirit": "Monkey"})
    await h.settle()
    game = game_type("torii").new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Monkey"}))
    rng = random.Random(43)
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
        if before_it is not None and probe.deciding:
            await before_it(texts)
        for text in texts:
            await h.service.play(HERE, player, text)
        game.end_turn()
        ended = await h.service.end_turn(HERE, player)
    await h.settle()
    return ended


async def test_ti15_the_monkeys_answer_lapses_as_none_at_its_deadline(h: Harness) -> None:
    await torii_until_the_monkeys_pause(h)
    notice = h.delivery.user(BOB.id)[-1].message.text
    assert "\nYour turn against ann (Challenger): 1 decision in the opponent's" in notice
    assert notice.startswith("ann (Challenger) ended their turn:\n- ann's")  # what she did
    posted = channel_texts(h)[-1]
    assert "bob decides for the Monkey" in posted
    await h.advance(10 * HOUR)  # bob does not answer
    lapsed = channel_texts(h)[-1]
    assert lapsed.startswith("bob's turn ended at its deadline with no action played")
    assert "`flip none`" in lapsed
    assert "bob (Opposition) to act: a move" in lapsed  # then bob's own turn


async def test_a_new_torishogi_move_replaces_the_staged_one_and_a_refused_one_changes_nothing(
    h: Harness,
) -> None:
    await started(h)
    staged = await h.service.play(HERE, ANN, "c3c4")
    assert staged.text.startswith("Staged: Swallow 5ex5d.\n")  # as people read it (TS1)
    replaced = await h.service.play(HERE, ANN, "a3a4")
    assert replaced.text.startswith("Staged Swallow 7e-7d in place of Swallow 5ex5d.\nStaged: ")
    table = await h.service._table(HERE.channel_id)
    version = table.hosted.version
    with pytest.raises(Refused, match="cannot move to 7b"):
        await h.service.play(HERE, ANN, "a3a6")
    table = await h.service._table(HERE.channel_id)
    assert table.game.staged() == ["Swallow 7e-7d"] and table.hosted.version == version
    menu = await h.service.menu(HERE, ANN)
    assert menu.one_move and menu.actions_left == 0 and menu.groups  # others may replace it
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    assert "Swallow moves 7e-7d" in channel_texts(h)[-1]


async def test_ts9_a_replacing_move_that_mates_is_staged_with_its_checkmate_said(
    h: Harness,
) -> None:
    """Regression: a move staged in place of another lost its note, so the Crane drop that
    mates said "(checkmate)" when staged first and nothing when it replaced a quiet move."""
    fen = "k6/7/1F5/7/7/7/6K[CS] w 0 1"
    await started(h, options={"fen": fen})
    direct = await h.service.play(HERE, ANN, "C@b6")
    assert direct.text.startswith("Staged: Crane drop 6b (checkmate).")
    await h.service.undo(HERE, ANN)
    quiet = await h.service.play(HERE, ANN, "S@g2")
    assert quiet.text.startswith("Staged: Swallow drop 1f.")
    replaced = await h.service.play(HERE, ANN, "C@b6")
    assert replaced.text.startswith(
        "Staged Crane drop 6b (checkmate) in place of Swallow drop 1f.\n"
    ), replaced.text


async def test_the_move_that_ends_the_game_opens_the_end_post(h: Harness) -> None:
    """Regression: the end post said who won, but the move that ended the game was never
    told in words (after a turn, the match's end dropped the turn's headline and actions):
    here bob's 12th move, repeating the start a fourth time, loses (TS10)."""
    await started(h)
    for i, move in enumerate(["d2c2", "d6c6", "c2d2", "c6d6"] * 3):
        who = ANN if i % 2 == 0 else BOB
        await h.service.play(HERE, who, move)
        await h.service.end_turn(HERE, who)
        await h.settle()
    final = channel_texts(h)[-1]
    assert final.startswith("bob (Opposition) ended their turn:\n- bob's Falcon moves 5b-4b")
    assert "`c6d6`\n" in final and "wins (fourfold repetition)" in final


async def test_ti15_the_builder_waiting_on_the_monkey_is_told_its_owner_decides_then_plays(
    h: Harness,
) -> None:
    """Regression: while bob answered for his Monkey in ann's turn, ann trying to act was
    told "It is bob's turn. Yours begins when they end it or at its deadline", but once he
    has answered, or at the deadline, it is bob's own turn that begins, not hers."""
    await torii_until_the_monkeys_pause(h)
    with pytest.raises(Refused) as refused:
        await h.service.play(HERE, ANN, "1 c3")
    said = str(refused.value)
    assert said.startswith("bob has a decision to make in your turn, the Monkey's: flip"), said
    assert "Then they play their own turn; yours begins when they end it." in said


async def test_ti15_a_draw_offer_made_while_the_monkey_answers_stands_in_its_owners_own_turn(
    h: Harness,
) -> None:
    """Regression: ann's draw offer, made while bob answered for his Monkey in her turn,
    lapsed with his answer ("bob's turn ended without accepting it"), before his own turn:
    offers lapse when the side to act changes, and the answer is part of ann's turn (TI15)."""
    await torii_until_the_monkeys_pause(h)
    await h.service.draw(HERE, ANN)
    await h.service.play(HERE, BOB, "flip none")
    await h.service.end_turn(HERE, BOB)
    await h.settle()
    post = channel_texts(h)[-1]
    assert "bob (Opposition) to act: a move" in post  # bob's own turn now
    assert "draw offer lapsed" not in post, post
    accepted = await h.service.draw(HERE, BOB)  # the offer stands in bob's own turn
    assert accepted.text == "You accepted the draw; the match is over."


async def test_ti15_the_reminder_of_the_monkeys_answer_names_the_decision(h: Harness) -> None:
    """Regression: the reminder bob got while his Monkey's answer waited in ann's turn said
    "your turn against ann ... 0 actions staged so far", never naming the decision."""
    await torii_until_the_monkeys_pause(h)
    await h.advance(8 * HOUR)  # 80 % of the answer's time
    reminder = h.delivery.user(BOB.id)[-1].message.text
    assert reminder.startswith(
        "Reminder: your decision in ann's turn, the Monkey's: flip either player's "
        "tile 1 (used to unused or back), or neither (TI15), is due in 2 h"
    ), reminder
    assert "staged so far" not in reminder


# ann (Monkey) and bob (Kitsune): ann's 5th turn builds on c1 and flips bob's tile 1 to used
# while his tiles 2 and 3 are used, so bob's turn is a pass (TI8: no unused tile has a path).
TO_A_FORCED_PASS = ["3 c1 b1 a1", "3 d4 e4 f4", "1 b1", "2 f3 f2", "3 c1 d1 d3 build c1 flip O"]


async def monkey_flips_bob_into_a_pass(h: Harness, **terms: object) -> None:
    await h.service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii", **terms))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    for index, text in enumerate(TO_A_FORCED_PASS):
        player = ANN if index % 2 == 0 else BOB
        await h.service.play(HERE, player, text)
        await h.service.end_turn(HERE, player)
        await h.settle()
    table = await h.service._table(HERE.channel_id)
    assert table.game.turns[-1].events[0].kind == "pass"  # TI8's, played at once: not a lapse


async def test_a_player_whose_turn_is_a_forced_pass_is_not_forfeited_for_missing_it(
    h: Harness,
) -> None:
    """TI8: when no unused tile has a path "the turn is a pass": the player has nothing to
    choose. Today the host waits the whole deadline for bob to confirm the only action there
    is, then counts it as a missed turn, and with forfeit_after 1 bob loses the match by
    forfeit for a turn in which the rules left him no choice."""
    await monkey_flips_bob_into_a_pass(h, forfeit_after=1)
    table = await h.service._table(HERE.channel_id)
    assert table is not None and not table.game.is_over()
    assert table.game.side == Side.CHALLENGER and table.hosted.missed == (0, 0)


async def test_a_player_whose_turn_is_a_forced_pass_is_told_so_not_asked_for_a_move(
    h: Harness,
) -> None:
    """TI8: bob's tiles are all used (ann's Monkey flipped his tile 1), so his turn is a pass.
    Today his "your turn" notice and the channel's post ask him for "a move" and to "pick your
    actions", never saying that the only thing he can do is pass."""
    await monkey_flips_bob_into_a_pass(h)
    flipped, passed = h.delivery.texts(HERE.channel_id)[-2:]
    to_act = next(line for line in flipped.splitlines() if line.startswith("bob (Opposition)"))
    assert to_act.startswith("bob (Opposition) to act: a pass (no other action is legal)"), to_act
    assert passed.startswith(
        "bob (Opposition) had no choice, so the host played their turn at once:\n"
        "- bob passes: no unused tile has a path · `pass`\n"
    ), passed
    assert "ann (Challenger) to act: a move" in passed
    # no "your turn" DM asked bob for the turn the host played
    assert all("flip O" not in dm.message.text for dm in h.delivery.user(BOB.id))


async def test_ti15_an_unanswered_monkey_question_means_none_not_a_forfeit(h: Harness) -> None:
    """TI15: the Monkey's owner is asked "with a turn's deadline, and no answer by then means
    none". With forfeit_after 1, bob leaving the optional question unanswered loses him the
    match by forfeit ("bob forfeits: 1 turn in a row ended at the deadline with no action
    played") before his own turn ever began, where the ruling says the answer is none and
    the game goes on to his turn."""
    await torii_until_the_monkeys_pause(h, forfeit_after=1)
    await h.advance(10 * HOUR)  # bob does not answer
    posted = h.delivery.texts(HERE.channel_id)[-1]
    assert "forfeits" not in posted, posted
    assert "bob (Opposition) to act: a move" in posted, posted


async def test_setup_mid_torishogi_says_the_match_has_none(h: Harness) -> None:
    """ann typed `/tora setup` in a ToriShogi match, which began with no setup at all: she
    was told "The game has begun, so the setup can no longer change", as if there had been
    one. Now she is told the match has no setup, and where to see the board."""
    await started(h)
    with pytest.raises(Refused) as late:
        await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    assert str(late.value) == (
        "This match of ToriShogi has no setup: nothing is chosen before its first turn, and "
        "`/tora board` shows the board."
    )


async def test_setup_before_a_torishogi_challenge_is_accepted_says_it_has_none(h: Harness) -> None:
    """ann typed `/tora setup` on her ToriShogi challenge bob had not accepted yet: she was
    told "The match has not been accepted yet, so that cannot be done now", as if a setup
    would come once he did. Now she is told the match has no setup at all."""
    await h.service.challenge(HERE, ANN, BOB, Terms(game="torishogi"))
    with pytest.raises(Refused) as early:
        await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    assert str(early.value).startswith("This match of ToriShogi has no setup:"), early.value
