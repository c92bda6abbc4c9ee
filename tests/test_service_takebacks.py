"""Takebacks in unrated matches (issue 27): the player who has just ended a turn asks to take
it back until the opponent ends theirs; the opponent accepts (the game goes back, replayed
from the log, and the asker plays the turn again) or declines. The log keeps a rewind, so
a restart, and a rebuild from the whole log, come to the same game."""

from __future__ import annotations

from dataclasses import replace

import event_helpers as events
import pytest
from test_service_games import (
    TO_A_FORCED_PASS,
    monkey_flips_bob_into_a_pass,
    torii_until_the_monkeys_pause,
)

from bot.service import Place, Refused, StaleRequest, Terms, User
from bot.service.testing import Harness
from rules import game_type
from storage.matches import reads
from storage.matches.loader import rebuild
from storage.matches.log import fingerprint

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def started(h: Harness, rated: bool = False) -> None:
    terms = Terms(game="torishogi", turn_seconds=10 * HOUR, rated=rated)
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.settle()


async def turn(h: Harness, user: User, move: str) -> None:
    await h.running.play(HERE, user, move)
    await h.running.end_turn(HERE, user)


def last_post(h: Harness) -> str:
    return h.delivery.texts(HERE.channel_id)[-1]


async def game_key(h: Harness) -> tuple[object, ...]:
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.match_id is not None
    store = h.store
    assert store is not None
    loaded = await store.load(hosted.match_id)
    stored = await store._read(lambda db: reads.stored_match(db, loaded.id, whole_log=True))
    whole = rebuild(replace(stored, snapshot=None))  # the log alone, rewinds replayed
    assert fingerprint(whole) == fingerprint(loaded.game)
    return fingerprint(loaded.game)


def replayed(*moves: str) -> tuple[object, ...]:
    game = game_type("torishogi").new_game({}, ({}, {}))
    for move in moves:
        game.apply(move)
        game.end_turn()
    return fingerprint(game)


async def test_an_accepted_takeback_replays_the_turn_and_survives_restarts(h: Harness) -> None:
    await started(h)
    await h.running.play(HERE, ANN, "c3c4")
    reply = await h.running.end_turn(HERE, ANN)
    assert reply.buttons == ("askback", "plan")
    assert "take it back with the button or `/tora-match takeback`" in reply.text
    await h.running.takeback(HERE, ANN)
    await h.settle()
    assert last_post(h).startswith(
        "ann (Challenger) proposes a takeback of their last turn (it is played again). bob, "
        "accept with `/tora-match takeback`"
    )
    assert h.delivery.channel(HERE.channel_id)[-1].buttons.verbs == ("rewind", "decline-rewind")  # type: ignore[union-attr]
    await h.running.play(HERE, BOB, "c5c4")  # staged, and dropped with the takeback
    accepted = await h.running.takeback(HERE, BOB)
    assert accepted.text == "You accepted the takeback: turn 1 is played again."
    assert accepted.stamp.turn == 1  # type: ignore[union-attr]
    await h.settle()
    assert last_post(h).startswith(
        "bob (Opposition) accepted ann's takeback: turn 1 is taken back and played again."
    )
    assert "ann (Challenger) to act: a move" in last_post(h)
    assert h.delivery.user(ANN.id)[-1].message.text.startswith("Your turn against bob")
    assert await game_key(h) == replayed()
    await turn(h, ANN, "a3a4")  # another move this time
    await turn(h, BOB, "a5a4")
    await h.crash()
    assert await game_key(h) == replayed("a3a4", "a5a4")
    await h.running.takeback(HERE, BOB)  # a second takeback: back to a rewind's entry
    await h.running.takeback(HERE, ANN)
    await turn(h, BOB, "b5b4")
    await h.crash()
    assert await game_key(h) == replayed("a3a4", "b5b4")


async def test_a_stamp_from_before_a_takeback_is_stale_on_the_replayed_turn(h: Harness) -> None:
    """A button or panel made for turn 2 before turn 1 was taken back and played again is
    refused as stale (pointing to ``/tora play``), though the turn's number is 2 again: the
    stamp holds how many turns were taken back, a public count kept in the log, so a restart
    counts the same. Regression: the stamp was the match and the turn alone, and the old
    panel staged on the new position without a word."""
    await started(h)
    await turn(h, ANN, "c3c4")
    old = (await h.running.menu(HERE, BOB)).stamp
    assert (old.turn, old.back) == (2, 0)
    await h.running.takeback(HERE, ANN)
    await h.running.takeback(HERE, BOB)
    await turn(h, ANN, "a3a4")
    for _restart in range(2):
        with pytest.raises(StaleRequest) as stale:
            await h.running.play(HERE, BOB, "c5c4", expect=old)
        assert "taken back" in stale.value.message and "`/tora play`" in stale.value.message
        now = (await h.running.menu(HERE, BOB)).stamp
        assert (now.turn, now.back) == (2, 1)
        await h.crash()
    await h.running.play(HERE, BOB, "a5a4", expect=now)


async def test_a_takeback_is_refused_in_rated_matches_and_on_ones_own_turn(h: Harness) -> None:
    await started(h, rated=True)
    await h.running.play(HERE, ANN, "c3c4")
    assert (await h.running.end_turn(HERE, ANN)).buttons == ("plan",)  # no "Ask to take it back"
    with pytest.raises(Refused, match="only in casual matches: this one is rated"):
        await h.running.takeback(HERE, ANN)


async def test_a_competition_game_offers_and_takes_back_no_turn(h: Harness) -> None:
    """Regression: an (unrated) Swiss event's game counts in the standings, yet End turn
    offered Ask to take it back and a takeback was asked as in a casual match: a turn
    played again, help no other entrant had."""
    desk = await events.desk_of(h)
    await events.create(desk, "Cup", "torishogi", "swiss", rounds=2)
    for n in (1, 2):
        await desk.join(events.HERE, events.user(n), "Cup")
    await desk.begin(events.HERE, events.ADMIN, "Cup", admin=True)
    await h.settle()
    [pairing] = (await events.snapshot(h, "Cup")).pairings
    hosted = await h.store.hosting.get(pairing.hosted_id)
    place = Place(events.GUILD, hosted.channel_id)
    first = events.user(hosted.challenger_id)
    await h.service.play(place, first, "c3c4")
    assert (await h.service.end_turn(place, first)).buttons == ("plan",)
    with pytest.raises(Refused, match="counts in its event's or tournament's standings"):
        await h.service.takeback(place, first)


async def test_nothing_to_take_back_on_ones_own_turn_and_a_request_lapses(h: Harness) -> None:
    await started(h)
    with pytest.raises(Refused, match="you have just ended, until your opponent ends theirs"):
        await h.running.takeback(HERE, ANN)  # her turn: nothing of hers has ended
    await turn(h, ANN, "c3c4")
    await h.running.takeback(HERE, ANN)
    await turn(h, BOB, "c5c4")  # bob plays on: the request lapses
    await h.settle()
    assert "ann's takeback request lapsed: bob's turn ended without accepting it" in last_post(h)
    with pytest.raises(Refused, match="That takeback request is no longer open"):
        await h.running.answer(HERE, BOB, "rewind", (await h.running.stamp_of(HERE)))


async def test_a_declined_takeback_leaves_the_turn_standing(h: Harness) -> None:
    await started(h)
    await turn(h, ANN, "c3c4")
    await h.running.takeback(HERE, ANN)
    declined = await h.running.decline(HERE, BOB)
    assert declined.text == "You declined ann's takeback request: the turn stands."
    assert await game_key(h) == replayed("c3c4")


async def test_a_turn_ended_at_its_deadline_is_not_taken_back(h: Harness) -> None:
    """Regression: the takeback of a turn ended at its deadline was asked and posted with an
    Accept button that could never work (refused at the Accept): the asker is told at once."""
    await started(h)
    await h.running.play(HERE, ANN, "c3c4")
    await h.advance(10 * HOUR)  # the deadline plays the staged move
    posts = len(h.delivery.texts(HERE.channel_id))
    with pytest.raises(Refused, match="Your last turn ended at its deadline or by an agreement"):
        await h.running.takeback(HERE, ANN)
    assert len(h.delivery.texts(HERE.channel_id)) == posts  # no request posted
    with pytest.raises(Refused, match="you have just ended, until your opponent ends theirs"):
        await h.running.takeback(HERE, BOB)  # nothing to accept: bob's own turn
    assert await game_key(h) == replayed("c3c4")


async def assassins_started(h: Harness) -> None:
    """A casual match on the long board with an Assassin a side, ann to play."""
    terms = Terms(options={"board": "long", "assassins": True}, turn_seconds=HOUR, rated=False)
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"strategy": "defensive", "ruler": "K", "assassin": "v8h17"})
    await h.running.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K", "assassin": "v17h1"})
    await h.settle()


async def test_a_turn_with_a_search_is_neither_offered_nor_taken_back(h: Harness) -> None:
    """R10: a search showed its player what it found, so its turn is not played again; its
    end offers no "Ask to take it back", and bob is never asked to accept it."""
    await assassins_started(h)
    await h.running.play(HERE, ANN, "K v9h17 search")
    assert (await h.running.end_turn(HERE, ANN)).buttons == ("plan",)
    posts = len(h.delivery.texts(HERE.channel_id))
    with pytest.raises(Refused, match=r"it holds a search.* \(R10\)\. Play on from it"):
        await h.running.takeback(HERE, ANN)
    assert len(h.delivery.texts(HERE.channel_id)) == posts  # no request posted


async def test_a_takeback_is_not_accepted_over_a_search_the_accepter_staged(h: Harness) -> None:
    """R10: bob's staged search showed him what it found; accepting ann's takeback dropped it
    with the rest of his turn, so he knew where her Assassin was (or was not) without the
    search ever being played. He must end his turn (the request lapses) or decline it."""
    await assassins_started(h)
    await h.running.play(HERE, ANN, "K v9h17-v9h16")
    await h.running.end_turn(HERE, ANN)
    await h.running.takeback(HERE, ANN)
    await h.running.play(HERE, BOB, "K v9h1 search")
    with pytest.raises(Refused, match=r"a search revealed what it found.*\(R10\)\. Decline it"):
        await h.running.takeback(HERE, BOB)
    game = (await h.store.load((await h.store.active_matches())[0].id)).game
    assert len(game.turns) == 1  # ann's turn stands
    assert (await h.running.decline(HERE, BOB)).text.startswith("You declined")


async def test_a_torii_turn_that_lapsed_is_not_taken_back(h: Harness) -> None:
    """Regression: a Torii turn left to its deadline (played as a pass, TI8's effect) could
    be asked back; bob's Accept could never work."""
    terms = Terms(game="torii", turn_seconds=10 * HOUR, rated=False)
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"spirit": "Kitsune"})
    await h.running.setup(HERE, BOB, {"spirit": "Monkey"})
    await h.settle()
    await h.advance(10 * HOUR)  # ann's turn lapses
    assert "lapsed: a pass" in last_post(h)
    with pytest.raises(Refused, match="Your last turn ended at its deadline or by an agreement"):
        await h.running.takeback(HERE, ANN)


async def test_a_monkey_decision_is_taken_back_in_a_casual_match(h: Harness) -> None:
    """Regression (review rL): bob answered for his Monkey in ann's turn (TI15), ended that
    decision turn and was offered "Ask to take it back", then refused "now there is none":
    his own turn follows the decision, so it was taken for his own turn that nothing had
    ended in. Taken back, he decides again."""
    await torii_until_the_monkeys_pause(h, rated=False)
    await h.running.play(HERE, BOB, "flip C")
    ended = await h.running.end_turn(HERE, BOB)
    assert "until you end your own turn" in ended.text, ended.text
    await h.running.takeback(HERE, BOB)
    await h.running.takeback(HERE, ANN)  # accepts
    await h.settle()
    assert "bob (Opposition) to act: 1 decision in the opponent's turn" in last_post(h)
    await game_key(h)  # a restart, and a rebuild from the log, come to the same game


async def test_a_rated_monkey_decision_says_the_deciders_own_turn_begins(h: Harness) -> None:
    """bob's answer for his Monkey in ann's turn (TI15) in a rated match was told "Your
    turn is over." with a Plan button, though his own turn begins at once: there was no
    opponent's turn to plan a reply to."""
    await torii_until_the_monkeys_pause(h, rated=True)
    await h.running.play(HERE, BOB, "flip C")
    ended = await h.running.end_turn(HERE, BOB)
    assert ended.text == "Your decision is made, and your own turn begins.", ended.text
    assert not ended.buttons


async def shogi_with_anns_plan(h: Harness, rated: bool) -> None:
    """ann has planned her reply to bob's c5c4, which bob has staged."""
    await started(h, rated=rated)
    await turn(h, ANN, "c3c4")
    await h.settle()
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    await h.running.play(HERE, BOB, "c5c4")


async def test_a_turn_answered_by_a_plan_is_not_called_a_decision_rated(h: Harness) -> None:
    """bob ends a plain ToriShogi turn in a rated match; ann's planned reply is played at
    once, so bob's turn is back before his end_turn answers. Regression: that was taken for
    a Monkey decision (TI15), and he was told "Your decision is made, and your own turn
    begins." """
    await shogi_with_anns_plan(h, rated=True)
    ended = await h.running.end_turn(HERE, BOB)
    assert "decision" not in ended.text, ended.text
    assert not ended.buttons  # his own turn is back: no reply of ann's to plan


async def test_a_turn_answered_by_a_plan_is_not_called_a_decision_casual(h: Harness) -> None:
    """The same in a casual match: bob was told his "decision is made" and offered to take
    it back "until you end your own turn"; he made no decision, and the takeback offered
    was refused (the last turn is ann's planned reply)."""
    await shogi_with_anns_plan(h, rated=False)
    ended = await h.running.end_turn(HERE, BOB)
    assert "decision" not in ended.text, ended.text
    assert (ended.text, ended.buttons) == ("Your turn is over.", ())  # nothing to take back


async def test_a_torii_turn_answered_by_a_forced_pass_is_not_called_a_decision(
    h: Harness,
) -> None:
    """ann (Monkey) ends her 5th turn flipping bob's tile 1 to used: bob's turn is a forced
    pass (TI8), which the host plays at once, so her own turn is back when end_turn
    answers. Regression: she was told "Your decision is made, and your own turn begins.
    Changed your mind? Ask bob to let you take it back ...": she made no decision, and the
    takeback offered was refused (the last turn is bob's pass)."""
    await h.service.challenge(
        HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii", rated=False)
    )
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    ended = None
    for index, text in enumerate(TO_A_FORCED_PASS):
        player = ANN if index % 2 == 0 else BOB
        await h.service.play(HERE, player, text)
        ended = await h.service.end_turn(HERE, player)
        await h.settle()
    assert ended is not None
    said = ended.text
    offered_back = "take it back" in said
    refused = False
    if offered_back:
        try:
            await h.service.takeback(HERE, ANN)
        except Refused:
            refused = True
    assert "decision" not in said and not refused, said


async def test_a_monkey_decisions_takeback_lapses_when_the_deciders_own_turn_ends(
    h: Harness,
) -> None:
    """bob may ask back his Monkey decision (TI15); the request lapses when the turn after
    it ends, which is bob's own. Regression: a takeback lapsed only when the asker's
    opponent ended a turn, so the request stood through bob's own turn, and ann's takeback
    on her turn then accepted it, taking back bob's whole own turn (not the decision he
    asked about)."""
    await torii_until_the_monkeys_pause(h, rated=False)
    await h.running.play(HERE, BOB, "flip C")
    await h.running.end_turn(HERE, BOB)
    await h.running.takeback(HERE, BOB)  # asks back the decision
    game = (await h.store.load((await h.store.active_matches())[0].id)).game
    assert game.side.letter == "O"
    while game.actions_left and game.legal_actions():
        text = game.notation(game.legal_actions()[0])
        await h.running.play(HERE, BOB, text)
        game.apply(text)
    await h.running.end_turn(HERE, BOB)  # bob's own turn ends: the request has lapsed
    await h.settle()
    posts = "\n".join(h.delivery.texts(HERE.channel_id)[-2:])
    assert "bob's takeback request lapsed: they have ended their own turn since." in posts
    with pytest.raises(Refused):  # bob's request lapsed: ann has no turn of hers to ask back
        await h.running.takeback(HERE, ANN)


async def test_a_takeback_accepted_while_paused_keeps_the_clock_stopped(h: Harness) -> None:
    """Regression: a takeback asked before the players agreed to pause, and accepted during
    the pause, restarted the asker's clock: the match was no longer paused, its deadline
    ran, and the post announced it as if nobody had paused."""
    await started(h)
    await turn(h, ANN, "c3c4")
    await h.running.takeback(HERE, ANN)
    await h.running.pause(HERE, BOB)
    await h.running.pause(HERE, ANN)
    await h.advance(HOUR)
    await h.running.takeback(HERE, BOB)
    await h.settle()
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    assert (hosted.due_at, hosted.paused_left) == (None, 10 * HOUR)  # her turn, afresh
    post = last_post(h)
    assert "by <t:" not in post and "resume" in post, post
    await h.running.resume(HERE, ANN)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.due_at == h.clock.now() + 10 * HOUR


async def test_a_taken_back_turn_takes_its_increment_with_it(h: Harness) -> None:
    """Regression: on an increment clock, the turn taken back had already added its
    increment to the asker's allowance, and the turn played again added it once more: one
    turn, two increments."""
    terms = Terms(
        game="torishogi",
        turn_seconds=10 * HOUR,
        rated=False,
        clock="increment",
        increment_seconds=4 * HOUR,
        cap_seconds=20 * HOUR,
    )
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.advance(2 * HOUR)
    await turn(h, ANN, "c3c4")  # ann: 8 h left, and 4 h more
    await h.running.takeback(HERE, ANN)
    await h.running.takeback(HERE, BOB)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.due_at == h.clock.now() + 8 * HOUR
    await h.advance(HOUR)
    await turn(h, ANN, "c3c4")  # 7 h left, and the one turn's 4 h
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.clocks == (11 * HOUR, 10 * HOUR)


async def test_a_monkey_decision_taken_back_costs_no_increment(h: Harness) -> None:
    """On an increment clock a Monkey decision (TI15) earns no increment. Regression: its
    takeback took an increment off the asker's allowance as for any turn: bob, deciding
    with 14 h, decided, took it back and was left 10 h to decide again."""
    await torii_until_the_monkeys_pause(
        h, rated=False, clock="increment", increment_seconds=4 * HOUR, cap_seconds=40 * HOUR
    )

    async def bobs_time() -> float:
        hosted = await h.running.records.live_in_channel(HERE.channel_id)
        assert hosted is not None and hosted.clocks is not None
        return hosted.clocks[1]

    deciding = await bobs_time()
    await h.running.play(HERE, BOB, "flip C")
    await h.running.end_turn(HERE, BOB)
    await h.running.takeback(HERE, BOB)
    await h.running.takeback(HERE, ANN)  # accepts: bob decides again
    await h.settle()
    assert await bobs_time() == deciding


async def test_a_posts_button_from_before_a_takeback_is_stale_on_the_replayed_turn(
    h: Harness,
) -> None:
    """A public post's button (the turn post's "Give +1 day") made for turn 2 before turn 1
    was taken back and played again is refused as stale, as a panel's is. Regression: the
    outbox kept a post's turn alone, so its buttons came back without the takebacks
    (``Stamp.back`` None: not compared) and the old post's Give acted on the replayed
    turn."""
    await started(h)
    await turn(h, ANN, "c3c4")
    await h.settle()
    posted = [m for m in h.delivery.channel(HERE.channel_id) if m.buttons is not None]
    old = next(m.buttons.stamp for m in reversed(posted) if "give" in m.buttons.verbs)  # type: ignore[union-attr]
    assert (old.turn, old.back) == (2, 0)
    await h.running.takeback(HERE, ANN)
    await h.running.takeback(HERE, BOB)
    await h.settle()
    again = h.delivery.user(ANN.id)[-1].message.buttons  # "Your turn against bob": its Play
    assert again is not None and (again.stamp.turn, again.stamp.back) == (1, 1)
    await turn(h, ANN, "a3a4")
    await h.settle()
    with pytest.raises(StaleRequest) as stale:
        await h.running.give_time(HERE, ANN, expect=old)
    assert "taken back" in stale.value.message
    posted = [m for m in h.delivery.channel(HERE.channel_id) if m.buttons is not None]
    now = next(m.buttons.stamp for m in reversed(posted) if "give" in m.buttons.verbs)  # type: ignore[union-attr]
    assert (now.turn, now.back) == (2, 1)
    await h.running.give_time(HERE, ANN, expect=now)


# Torii, ann Kitsune and bob Monkey: ann's last turn here builds a Torii while bob's tiles 2
# and 3 are used, so bob's decision "flip O" (TI15) leaves his own turn only a pass (TI8).
TO_BOBS_OWN_PASS = [
    (ANN, "1 push b5 d2"),
    (BOB, "3 b4 b3 c3"),
    (ANN, "3 d4 b4 b5"),
    (BOB, "2 d3 e3 build d3 flip O"),
    (ANN, "1 push e2 b4"),
    (BOB, "2 e3 d3"),
    (ANN, "3 c4 e4 e2 build b4"),
    (BOB, "flip C"),
    (BOB, "3 d4 d5 d6 build d5 flip C"),
    (ANN, "2 c2 b2 build d2"),
]


async def torii_played(h: Harness, turns: list[tuple[User, str]]) -> None:
    """A casual Torii match, ann Kitsune and bob Monkey, with ``turns`` played."""
    await h.running.challenge(
        HERE, ANN, BOB, Terms(game="torii", turn_seconds=10 * HOUR, rated=False)
    )
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"spirit": "Kitsune"})
    await h.running.setup(HERE, BOB, {"spirit": "Monkey"})
    await h.settle()
    for user, text in turns:
        await turn(h, user, text)
        await h.settle()


async def test_ti8_a_monkeys_decision_that_left_its_own_turn_a_pass_is_taken_back_with_it(
    h: Harness,
) -> None:
    """bob planned his Monkey's answer "flip O" to ann's turn (TI15), which left his own turn
    only a pass (TI8), played by the host. His takeback took back the host's pass alone:
    he was to act again with "a pass (no other action is legal)" on his clock, never played
    for him, where he meant to decide again. The pass goes back with the decision now."""
    *before, (_, last) = TO_BOBS_OWN_PASS
    await torii_played(h, before)
    await h.running.plans(HERE, BOB, add=f"{last} > flip O")
    await turn(h, ANN, last)
    await h.settle()
    assert "bob (Opposition) had no choice, so the host played" in last_post(h)
    await h.running.takeback(HERE, BOB)
    accepted = await h.running.takeback(HERE, ANN)
    assert accepted.text == "You accepted the takeback: turn 11 is played again.", accepted.text
    await h.settle()
    assert "bob (Opposition) to act: 1 decision in the opponent's turn" in last_post(h)
    await turn(h, BOB, "flip none")  # decided again: his own turn is a move now
    await h.settle()
    assert "bob (Opposition) to act: a move" in last_post(h), last_post(h)


async def test_ti8_a_pass_the_host_played_after_the_opponents_turn_is_not_asked_back(
    h: Harness,
) -> None:
    """ann's Monkey flip left bob's turn only a pass (TI8), played by the host; bob could
    ask it back, and ann's accept put him back before the same pass, on his clock and never
    played for him. He chose nothing in it: he is told there is no turn of his to take back."""
    await monkey_flips_bob_into_a_pass(h, rated=False)
    with pytest.raises(Refused, match="no turn of yours to take back"):
        await h.running.takeback(HERE, BOB)


async def test_ti8_a_monkeys_decision_that_left_its_own_turn_a_pass_says_so(h: Harness) -> None:
    """bob's decision "flip O" (TI15) left his own turn only a pass (TI8), played by the
    host at once; he was told "Your turn is over." and offered no takeback, though the
    decision can be taken back (with the pass). Now he is told what happened, and offered it."""
    await torii_played(h, TO_BOBS_OWN_PASS)
    await h.running.play(HERE, BOB, "flip O")
    ended = await h.running.end_turn(HERE, BOB)
    assert ended.text.startswith(
        "Your decision is made, and it left your own turn only a pass, which the host played "
        "at once. Changed your mind? Ask ann to let you take it back"
    ), ended.text
    assert ended.buttons == ("askback",)


async def test_the_asker_of_a_takeback_is_told_of_their_own_last_turn(h: Harness) -> None:
    """ann asked to take back the turn she had just ended: she was answered "You proposed a
    takeback of their last turn", and asking again "You have already proposed a takeback of
    their last turn", as if it were bob's. Now both speak of her own ("your last turn"),
    where the channel's post says "their"."""
    await started(h)
    await turn(h, ANN, "c3c4")
    asked = await h.running.takeback(HERE, ANN)
    assert asked.text == "You proposed a takeback of your last turn (it is played again)."
    with pytest.raises(Refused, match="already proposed a takeback of your last turn"):
        await h.running.takeback(HERE, ANN)


async def test_ti15_a_monkey_decision_left_to_its_deadline_is_not_asked_back(h: Harness) -> None:
    """Both Spirits Monkeys: ann's flip leaves bob's tiles all used, and bob lets his own
    Monkey's answer to it (TI15) lapse at its deadline, so his own turn is a pass the host
    plays (TI8). His takeback was asked (and an AI opponent agreed to it), then refused at
    the Accept, as the decision it goes back with ended at its deadline: it is refused
    when asked now, with that reason."""
    await h.service.challenge(
        HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii", rated=False)
    )
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Monkey"})
    await h.settle()
    for index, text in enumerate(TO_A_FORCED_PASS):
        await turn(h, ANN if index % 2 == 0 else BOB, text)
        await h.settle()
    await h.advance(10 * HOUR)  # bob's decision lapses: his own turn is the host's pass
    table = await h.service._table(HERE.channel_id)
    assert table.game.turns[-1].events[0].kind == "pass"
    posts = len(h.delivery.texts(HERE.channel_id))
    with pytest.raises(Refused, match="ended at its deadline or by an agreement"):
        await h.running.takeback(HERE, BOB)
    assert len(h.delivery.texts(HERE.channel_id)) == posts  # no request posted
