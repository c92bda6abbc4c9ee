"""Clocks that fit a busy week (issue 27): a bank (a time per turn and a reserve for the turns
that overrun) and an increment clock (an allowance that grows by an increment per turn, up to
a cap), chosen at the challenge, shown on posts and boards, kept across restarts (a deadline
passed while the bot was down is judged by the stored times); giving the opponent a day; a
rematch from the end post, the colours swapped."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import Place, Refused, Stamp, Terms, User
from bot.service.clock import ManualClock
from bot.service.testing import Harness
from rules import GameState, game_type

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR, DAY = 3600.0, 86400.0


class Mirror:
    """The game as the players see it, to pick a legal move for whoever is to act."""

    def __init__(self) -> None:
        self.game: GameState = game_type("torishogi").new_game({}, ({}, {}))

    async def move(self, h: Harness) -> None:
        user = ANN if self.game.side == 0 else BOB
        text = self.game.notation(self.game.legal_actions()[0])
        await h.running.play(HERE, user, text)
        await h.running.end_turn(HERE, user)
        self.game.apply(text)
        self.game.end_turn()


async def started(h: Harness, **terms: object) -> Mirror:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.running.challenge(HERE, ANN, BOB, Terms(**terms))  # type: ignore[arg-type]
    await h.running.accept(HERE, BOB)
    await h.settle()
    return Mirror()


def last_post(h: Harness) -> str:
    return h.delivery.texts(HERE.channel_id)[-1]


async def clocks(h: Harness) -> tuple[float, float] | None:
    return (await h.running.records.live_in_channel(HERE.channel_id)).clocks  # type: ignore[union-attr]


async def due_in(h: Harness) -> float:
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.due_at is not None
    return hosted.due_at - h.clock.now()


async def test_a_bank_pays_for_the_overrun_and_is_shown_on_every_turn_post(h: Harness) -> None:
    mirror = await started(h, clock="bank", bank_seconds=5 * HOUR)
    assert "10 h per turn and a bank of 5 h each" in h.delivery.texts(HERE.channel_id)[0]
    assert await due_in(h) == 15 * HOUR  # the turn and the whole bank
    start = last_post(h)
    assert "Time left: ann 15 h (bank 5 h), running \u00b7 bob 15 h (bank 5 h)." in start
    await h.advance(13 * HOUR)  # 3 h into the bank
    await mirror.move(h)
    await h.settle()
    assert await clocks(h) == (2 * HOUR, 5 * HOUR)
    assert "Time left: ann 12 h (bank 2 h) \u00b7 bob 15 h (bank 5 h), running." in last_post(h)
    assert "Time left: ann 12 h (bank 2 h)" in h.delivery.user(BOB.id)[-1].message.text
    await h.advance(4 * HOUR)  # bob stays inside his turn's 10 h: his bank is whole
    await mirror.move(h)
    assert await clocks(h) == (2 * HOUR, 5 * HOUR)
    assert await due_in(h) == 12 * HOUR
    await h.advance(12 * HOUR)  # ann's deadline: the turn and the bank are spent
    assert "ann's turn passed its deadline" in last_post(h)
    assert await clocks(h) == (0.0, 5 * HOUR)
    assert await due_in(h) == 10 * HOUR  # the time per turn is left


async def test_an_increment_clock_grows_by_its_increment_up_to_its_cap(h: Harness) -> None:
    mirror = await started(h, clock="increment", increment_seconds=4 * HOUR, cap_seconds=16 * HOUR)
    assert "10 h to start, 4 h more per turn, at most 16 h" in h.delivery.texts(HERE.channel_id)[0]
    await h.advance(2 * HOUR)
    await mirror.move(h)  # ann: 8 h left, and 4 h more
    assert await clocks(h) == (12 * HOUR, 10 * HOUR)
    await h.advance(9 * HOUR)
    await mirror.move(h)  # bob: 1 h left, and 4 h more
    assert await clocks(h) == (12 * HOUR, 5 * HOUR)
    assert await due_in(h) == 12 * HOUR
    await mirror.move(h)  # ann at once: 12 h and 4 h, at the cap of 16 h
    await mirror.move(h)
    await mirror.move(h)  # 16 h and 4 h: still the cap
    assert (await clocks(h))[0] == 16 * HOUR  # type: ignore[index]
    await h.settle()
    assert "Time left: ann 16 h \u00b7 bob 9 h, running." in last_post(h)


async def test_a_restart_keeps_the_bank_and_judges_a_deadline_passed_while_down(
    h: Harness,
) -> None:
    mirror = await started(h, clock="bank", bank_seconds=5 * HOUR)
    await h.advance(12 * HOUR)
    await mirror.move(h)  # ann used 2 h of her bank
    await h.crash()
    assert await clocks(h) == (3 * HOUR, 5 * HOUR)  # not reset to the terms' bank
    await h.close()
    h.clock.advance(20 * HOUR)  # bob's 15 h ran out while the bot was down
    await h.open()
    await h.settle()
    assert "bob's turn passed its deadline" in last_post(h)
    assert await clocks(h) == (3 * HOUR, 0.0)  # judged at its deadline, not at the restart
    assert await due_in(h) == 10 * HOUR


async def test_the_opponent_gives_a_day_on_any_clock(h: Harness) -> None:
    await started(h)
    before = await due_in(h)
    reply = await h.running.give_time(HERE, BOB)  # ann's turn runs: her deadline moves
    assert reply.text == "You gave ann 1 day."
    assert await due_in(h) == before + DAY
    await h.settle()
    assert last_post(h).startswith("bob (Opposition) gave ann 1 day: their turn now ends <t:")
    assert h.delivery.channel(HERE.channel_id)[-1].mentions == (ANN.id,)  # news, no DM
    with pytest.raises(Refused, match="next turn has its full 10 h anyway"):
        await h.running.give_time(HERE, ANN)  # her own turn, a fixed time per turn
    for _ in range(28):
        await h.running.give_time(HERE, BOB)
    with pytest.raises(Refused, match="time is given up to 30 days in all"):
        await h.running.give_time(HERE, BOB)


async def test_given_time_on_a_bank_clock_is_kept_in_the_bank(h: Harness) -> None:
    mirror = await started(h, clock="bank", bank_seconds=5 * HOUR)
    await h.running.give_time(HERE, ANN)  # her own turn: bob's bank grows
    assert await clocks(h) == (5 * HOUR, 5 * HOUR + DAY)
    await h.settle()
    assert "their next turn lasts 1 day 15 h" in last_post(h)
    await mirror.move(h)
    await h.running.give_time(HERE, ANN)  # his turn runs: deadline and bank move on
    assert await clocks(h) == (5 * HOUR, 5 * HOUR + 2 * DAY)
    assert await due_in(h) == 15 * HOUR + 2 * DAY
    await h.advance(20 * HOUR)
    await mirror.move(h)  # he used 10 h of his bank: the rest stays his
    assert await clocks(h) == (5 * HOUR, 2 * DAY - 5 * HOUR)


async def test_a_rematch_swaps_the_colours_on_the_same_terms(h: Harness) -> None:
    await started(h, clock="bank", bank_seconds=5 * HOUR, forfeit_after=2)
    await h.running.resign(HERE, BOB)
    await h.settle()
    end = h.delivery.channel(HERE.channel_id)[-1]
    assert end.buttons is not None and end.buttons.verbs == ("rematch",)
    assert "ask for a rematch with the button (colours swapped)" in end.text
    made = end.buttons.stamp
    with pytest.raises(Refused, match="Only the two players"):
        await h.running.rematch(HERE, User(3, "cy"), made)
    reply = await h.running.rematch(HERE, ANN, made)
    assert reply.text.startswith("Your challenge is posted")
    await h.settle()
    assert "bank of 5 h each" in last_post(h)
    assert "the challenged player moves first" in last_post(h)
    with pytest.raises(Refused, match="no longer the last one here"):
        await h.running.rematch(HERE, BOB, made)
    await h.running.accept(HERE, BOB)
    await h.settle()
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    assert (hosted.challenger_id, hosted.opposition_id) == (BOB.id, ANN.id)
    terms = Terms.from_json(hosted.terms)
    assert (terms.clock, terms.bank_seconds, terms.forfeit_after) == ("bank", 5 * HOUR, 2)


async def test_a_stale_rematch_stamp_is_refused(h: Harness) -> None:
    await started(h)
    with pytest.raises(Refused, match="no longer the last one here"):
        await h.running.rematch(HERE, ANN, Stamp(1, 1))  # it has not ended


async def test_a_match_aborted_or_cancelled_has_no_rematch(h: Harness) -> None:
    """Regression: the rematch looked only at whether the match had ended: one aborted in
    its first round, or cancelled by an admin, was rematched like one with a result (a
    challenge on its terms, the colours swapped), though its end post offers none."""
    await started(h)
    await h.running.abort(HERE, ANN)
    await h.settle()
    with pytest.raises(Refused, match="ended without a result, so it has no rematch"):
        await h.running.rematch(HERE, ANN, Stamp(1, 0))
    await started(h)
    await h.running.cancel(HERE, User(9, "admin"), admin=True)
    await h.settle()
    with pytest.raises(Refused, match="ended without a result, so it has no rematch"):
        await h.running.rematch(HERE, BOB, Stamp(2, 0))


@pytest.mark.parametrize(
    ("terms", "refusal"),
    [
        ({"bank_seconds": HOUR}, "`bank` is a time of the `bank` clock: add `clock:bank`"),
        ({"cap_seconds": HOUR}, "`cap` is a time of the `increment` clock"),
        ({"clock": "hourglass"}, "The clock is `turn`"),
        ({"clock": "bank", "bank_seconds": 61 * DAY}, "at most 60 days; 61 days is not"),
        (
            {"clock": "increment", "increment_seconds": 60.0},
            "The increment must be between 5 min and 14 days; 1 min is not",
        ),
        (
            {"clock": "increment", "cap_seconds": HOUR},
            r"The cap must be at least the starting time \(1 day\)",
        ),
    ],
)
async def test_clock_terms_are_checked(h: Harness, terms: dict[str, object], refusal: str) -> None:
    with pytest.raises(Refused, match=refusal):
        await h.running.challenge(HERE, ANN, BOB, Terms(**terms))  # type: ignore[arg-type]
    assert await h.running.records.live_in_channel(HERE.channel_id) is None


async def test_clock_defaults_fill_in_what_was_left_out(h: Harness) -> None:
    await h.running.challenge(HERE, ANN, BOB, Terms(clock="increment", turn_seconds=DAY))
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    terms = Terms.from_json(hosted.terms)
    assert (terms.increment_seconds, terms.cap_seconds) == (DAY, 2 * DAY)


async def test_a_sleep_begun_just_before_the_clock_moves_wakes_with_that_move() -> None:
    """The delivery loop starts its nap as a task and a test may move the clock before that
    task first runs: a DM held for quiet hours must still go when they end (it waited 30 s
    and failed once when the nap counted from the time after the move)."""
    clock = ManualClock()
    nap = asyncio.ensure_future(clock.sleep(3600))
    clock.advance(3600)
    done, _pending = await asyncio.wait({nap}, timeout=1)
    assert nap in done


async def monkeys_pause_on_an_increment_clock(h: Harness) -> tuple[GameState, float]:
    """A Torii match (ann Kitsune, bob Monkey) on an increment clock of 4 h, played as in
    test_service_games until bob's Monkey answers in ann's turn (TI15); the game as the
    players see it, and bob's allowance as his answer begins."""
    terms = Terms(
        game="torii", turn_seconds=10 * HOUR, clock="increment",
        increment_seconds=4 * HOUR, cap_seconds=1000 * HOUR,
    )  # fmt: skip
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"spirit": "Kitsune"})
    await h.running.setup(HERE, BOB, {"spirit": "Monkey"})
    await h.settle()
    game = game_type("torii").new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Monkey"}))
    rng = random.Random(43)
    while not game.deciding:
        player = ANN if game.side == 0 else BOB
        while game.actions_left and game.legal_actions():
            actions = game.legal_actions()
            builds = [a for a in actions if "build" in game.notation(a)]
            text = game.notation(rng.choice(builds if builds and rng.random() < 0.8 else actions))
            await h.running.play(HERE, player, text)
            game.apply(text)
        game.end_turn()
        await h.running.end_turn(HERE, player)
    return game, (await clocks(h))[1]  # type: ignore[index]


async def test_an_answer_in_the_opponents_turn_earns_no_increment(h: Harness) -> None:
    """Regression: on an increment clock, the Monkey's owner answering in the builder's turn
    (TI15) earned an increment for the answer, then another for their own turn: two a round
    whenever the opponent built. The answer is part of the builder's turn; its time comes out
    of the owner's allowance, which grows at the end of their own turn alone."""
    game, allowance = await monkeys_pause_on_an_increment_clock(h)
    await h.advance(HOUR)
    await h.running.play(HERE, BOB, "flip none")
    await h.running.end_turn(HERE, BOB)  # his answer: an hour of his allowance, no increment
    game.apply("flip none")
    game.end_turn()
    assert (await clocks(h))[1] == allowance - HOUR  # type: ignore[index]
    assert await due_in(h) == allowance - HOUR  # his own turn: what is left
    await h.advance(HOUR)
    await h.running.play(HERE, BOB, game.notation(game.legal_actions()[0]))
    await h.running.end_turn(HERE, BOB)  # his own turn earns the increment
    assert (await clocks(h))[1] == allowance - 2 * HOUR + 4 * HOUR  # type: ignore[index]


async def test_an_answer_left_to_its_deadline_leaves_the_increment_for_the_own_turn(
    h: Harness,
) -> None:
    """The answer took the whole allowance: the increment alone is left for the owner's own
    turn, as after any turn ended at its deadline (not an own turn due at once)."""
    _game, allowance = await monkeys_pause_on_an_increment_clock(h)
    await h.advance(allowance)  # no answer: none
    assert "`flip none`" in last_post(h)
    assert (await clocks(h))[1] == 4 * HOUR  # type: ignore[index]
    assert await due_in(h) == 4 * HOUR


async def test_a_spectators_rematch_press_says_how_to_play_one_of_their_own(h: Harness) -> None:
    """cy, watching, pressed the end post's Rematch: "Only the two players of a match that
    was played can ask for its rematch.", and no word of what cy may do. It names the
    command that starts a match of cy's own."""
    await started(h)
    await h.running.resign(HERE, BOB)
    await h.settle()
    end = h.delivery.channel(HERE.channel_id)[-1]
    assert end.buttons is not None
    with pytest.raises(Refused, match="Start a match of your own with `/tora challenge`"):
        await h.running.rematch(HERE, User(3, "cy"), end.buttons.stamp)
