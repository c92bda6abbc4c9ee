"""The match service (issue 6): challenges, setup, a whole short game, agreements, endings,
authorisation, the rate limit and stale requests, driven through the service with a
recording delivery and a manual clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.service import (
    ActionRefused,
    NotAllowed,
    Place,
    RateLimited,
    Refused,
    Settings,
    StaleRequest,
    Stamp,
    Terms,
    User,
)
from bot.service.testing import PRIVATE, Harness
from rules.tora import Side
from rules.tora.position import Position
from rules.tora.record import parse_record
from storage import CorruptMatch

ROOT = Path(__file__).resolve().parents[1]
HERE = Place(guild_id=1, channel_id=100)
ANN, BOB, CARL = User(1, "ann"), User(2, "bob"), User(3, "carl")
DAY = 86400.0


async def started(h: Harness, terms: Terms | None = None, setups=("aggressive", "defensive")):
    """ann challenges bob, bob accepts, both choose: the game is on, ann to act."""
    service = h.service
    await service.challenge(HERE, ANN, BOB, terms)
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": setups[0]})
    await service.setup(HERE, BOB, {"strategy": setups[1]})
    await h.settle()


def texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


# ---- challenges ----------------------------------------------------------------------------
async def test_a_challenge_and_its_setup_say_their_deadlines_as_discord_timestamps(
    h: Harness,
) -> None:
    """Regression: the challenge post, which stays in the channel, said "The challenge
    expires in 1 day.", still so a day later, a moment before it expired; and the setup's
    post and prompts said "You have 1 day to choose." Deadlines are Discord timestamps
    elsewhere (``texts.moment``), which every reader sees live in their own time zone."""
    now = h.clock.now()
    await h.service.challenge(HERE, ANN, BOB, Terms(rated=False))
    await h.settle()
    day = int(now + 86400)
    assert f"The challenge expires <t:{day}:f> (<t:{day}:R>)." in texts(h)[-1], texts(h)
    await h.advance(3600)
    await h.service.accept(HERE, BOB)
    await h.settle()
    due = int(now + 3600 + 86400)
    choose = f"You have until <t:{due}:f> (<t:{due}:R>) to choose."
    assert texts(h)[-1].endswith(choose), texts(h)[-1]
    prompts = [d.message.text for d in h.delivery.log if d.kind == PRIVATE]
    assert len(prompts) == 2 and all(p.endswith(choose) for p in prompts), prompts


async def test_a_named_challenge_is_accepted_and_set_up_privately(h: Harness) -> None:
    service = h.service
    reply = await service.challenge(
        HERE, ANN, BOB, Terms(options={"terrain": "river"}, rated=False)
    )
    assert "expires in 1 day" in reply.text
    with pytest.raises(NotAllowed, match="only they can accept"):
        await service.accept(HERE, CARL)
    with pytest.raises(NotAllowed, match="your own challenge"):
        await service.accept(HERE, ANN)
    await service.accept(HERE, BOB)
    await h.settle()
    prompts = [d for d in h.delivery.log if d.kind == PRIVATE]
    assert {d.user_id for d in prompts} == {ANN.id, BOB.id}
    assert all("aggressive" in d.message.text for d in prompts)
    reply = await service.setup(HERE, BOB, {"strategy": "Defensive"})
    assert "defensive" in reply.text and reply.private
    await h.settle()
    assert texts(h)[-1] == "bob has finished setting up; waiting for ann."
    assert "defensive" not in " ".join(texts(h))  # the choice stays private until the start
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await h.settle()
    assert (
        "ann (Challenger) playing aggressive against bob (Opposition) playing defensive"
        in (texts(h)[-1])
    )


async def test_challenge_terms_are_checked(h: Harness) -> None:
    service = h.service
    refusals = {
        "Assassins are played on the long board only": Terms(options={"assassins": True}),
        "between 5 min and 14 days": Terms(turn_seconds=60),
        "has no terrain `swamp`; choose one of `none`": Terms(options={"terrain": "swamp"}),
        "The board is `short` or `long`": Terms(options={"board": "huge"}),
        "cannot be used: clause 1": Terms(
            options={"terrain": "custom", "terrain_map": "water v10h1"}
        ),
    }
    for message, terms in refusals.items():
        with pytest.raises(Refused, match=message):
            await service.challenge(HERE, ANN, BOB, terms)
    with pytest.raises(Refused, match="cannot challenge yourself"):
        await service.challenge(HERE, ANN, ANN)
    await service.challenge(HERE, ANN, BOB)
    with pytest.raises(Refused, match="one at a time per channel"):
        await service.challenge(HERE, CARL)
    await service.challenge(Place(1, 101), CARL)  # another channel is free


async def test_decline_withdraw_and_expiry(h: Harness) -> None:
    service = h.service
    await service.challenge(HERE, ANN, BOB)
    with pytest.raises(NotAllowed, match="only they can answer"):
        await service.decline(HERE, CARL)
    await service.decline(HERE, BOB)
    await service.challenge(HERE, ANN)  # an open challenge, now that the channel is free
    with pytest.raises(NotAllowed, match="needs no answer"):
        await service.decline(HERE, BOB)
    await service.decline(HERE, ANN)
    await service.challenge(HERE, ANN, None, expires_in=3600)
    await h.advance(3599)
    assert "expired" not in texts(h)[-1]
    await h.advance(1)
    answers = [text for text in texts(h) if "challenges" not in text and "posts an" not in text]
    assert answers == [
        "bob declines ann's challenge.",
        "ann takes the challenge back.",
        "ann's challenge has expired: nobody accepted it in time.",
    ]
    with pytest.raises(Refused, match="no match here"):
        await service.accept(HERE, BOB)


async def test_an_open_challenge_with_the_challenger_drawn_at_random(h: Harness) -> None:
    service = h.service
    await service.challenge(HERE, ANN, None, Terms(roles="random"))
    await service.accept(HERE, CARL)
    with pytest.raises(Refused, match="already been accepted"):
        await service.accept(HERE, BOB)
    await h.settle()
    assert "(drawn at random)" in texts(h)[-1]
    assert "ann" in texts(h)[-1] and "carl" in texts(h)[-1]


async def test_setup_choices_are_checked(tmp_path: Path) -> None:
    async with Harness(tmp_path / "long.sqlite3") as h:
        service = h.service
        await service.challenge(HERE, ANN, BOB, Terms(options={"board": "long", "assassins": True}))
        await service.accept(HERE, BOB)
        with pytest.raises(Refused, match="strategy first"):
            await service.setup(HERE, ANN, {"assassin": "v3h17"})
        with pytest.raises(Refused, match="`aggressive` or `defensive`, not `bold`"):
            await service.setup(HERE, ANN, {"strategy": "bold"})
        with pytest.raises(Refused, match=r"`K` \(King\) or `Q`"):
            await service.setup(HERE, ANN, {"ruler": "X"})
        with pytest.raises(NotAllowed, match="play in this match"):
            await service.setup(HERE, CARL, {"strategy": "defensive"})
        reply = await service.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "q"})
        assert "Still to choose: your Assassin's start square" in reply.text
        with pytest.raises(Refused, match=r"not an empty square of your home edge .*Allowed: v"):
            await service.setup(HERE, ANN, {"assassin": "v9h17"})
        with pytest.raises(Refused, match="home edge"):
            await service.setup(HERE, ANN, {"assassin": "v3h1"})
        reply = await service.setup(HERE, ANN, {"assassin": "v3h17"})
        assert "Assassin starts on v3h17" in reply.text and "That is all" in reply.text
        await service.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K", "assassin": "none"})
        await h.settle()
        everything = " ".join(d.message.text for d in h.delivery.log if d.user_id != ANN.id)
        assert "v3h17" not in everything  # nobody else hears of ann's square
        assert "Ruler Q" in texts(h)[-1]


# ---- a whole short game --------------------------------------------------------------------
async def test_a_short_game_to_its_finish(h: Harness) -> None:
    """The example record (won by trapping) played through the service, action by action."""
    record = parse_record((ROOT / "docs/examples/short-game.tora").read_text())
    service = h.service
    await started(h, Terms(options={"terrain": "river"}))
    players = {Side.CHALLENGER: ANN, Side.OPPOSITION: BOB}
    for _line, side, actions in record.turns:
        for action in actions:
            reply = await service.play(HERE, players[side], action)
            assert reply.private and reply.files[0].data.startswith(b"private:")
        await service.end_turn(HERE, players[side])
    await h.settle()
    last = h.delivery.channel(HERE.channel_id)[-1]
    assert last.text.startswith("ann (Challenger) ended their turn:\n- ann's Archer moves")
    assert "\nann (Challenger) wins (trapped).\nFinal score:" in last.text  # after her last turn
    assert "The match was rated" in last.text
    board, record_file = last.files
    assert board.data.startswith(b"board:")
    played = parse_record(record_file.data.decode())
    assert [turn[1:] for turn in played.turns] == [turn[1:] for turn in record.turns]
    assert played.headers["Challenger"] == "ann" and played.headers["Result"] == "1-0"
    finished = await h.store.finished_matches(HERE.guild_id)
    assert [f.reason for f in finished] == ["trapped"]
    with pytest.raises(Refused, match="no match here"):
        await service.play(HERE, ANN, "G v5h9-v4h9")
    # every turn was announced with its board (the last one by the end post), and every
    # "your turn" went to the right player
    turn_posts = [m for m in h.delivery.channel(HERE.channel_id) if "ended their turn" in m.text]
    assert len(turn_posts) == len(record.turns)


async def test_refusals_carry_the_rules_reason_and_change_nothing(h: Harness) -> None:
    service = h.service
    await started(h)
    with pytest.raises(ActionRefused, match=r"8 steps away; .* \(R13\)") as refused:
        await service.play(HERE, ANN, "G v5h9-v1h1")
    assert refused.value.error.rule == "R13"
    with pytest.raises(ActionRefused, match="cannot read"):
        await service.play(HERE, ANN, "hello")
    with pytest.raises(Refused, match="use `/tora resign`"):
        await service.play(HERE, ANN, "resign")
    reply = await service.board(HERE, ANN)
    assert "Nothing staged this turn yet." in reply.text


async def test_the_player_to_act_may_list_their_legal_actions(h: Harness) -> None:
    service = h.service
    await started(h)
    choices = [value for _shown, value in await service.choices(HERE, ANN, limit=100)]
    assert "G v5h9-v4h9" in choices and all(not c.startswith("X") for c in choices)
    [(shown, value)] = await service.choices(HERE, ANN, "g  V5H9-v4", limit=1)
    assert (shown, value) == ("General v5h9: move to v4h9", "G v5h9-v4h9")
    with pytest.raises(NotAllowed, match="It is ann's turn"):
        await service.choices(HERE, BOB)
    with pytest.raises(NotAllowed, match="welcome to watch"):
        await service.choices(HERE, CARL)
    assert await service.choices(Place(1, 999), ANN) == []


async def test_undo_and_take_back(h: Harness) -> None:
    service = h.service
    await started(h)
    await service.play(HERE, ANN, "G v5h9-v4h9")
    reply = await service.play(HERE, ANN, "A v7h9-v7h8")
    assert "No actions left" in reply.text
    reply = await service.undo(HERE, ANN, number=1)
    assert reply.text.startswith("Taken back: G v5h9-v4h9.\nStaged this turn:\n1. A v7h9-v7h8")
    reply = await service.undo(HERE, ANN)
    assert "Nothing staged" in reply.text
    with pytest.raises(Refused, match="nothing to take back"):
        await service.undo(HERE, ANN)
    with pytest.raises(Refused, match="nothing to take back"):
        await service.undo(HERE, ANN, number=5)
    await service.play(HERE, ANN, "G v5h9-v4h9")
    with pytest.raises(Refused, match="This turn has 1 staged action: take back one of 1 to 1"):
        await service.undo(HERE, ANN, number=5)


# ---- authorisation, rate limit, stale requests ---------------------------------------------
async def test_only_the_players_act_and_only_on_their_turn(h: Harness) -> None:
    service = h.service
    await started(h)
    with pytest.raises(NotAllowed, match=r"Only ann .* and bob .* play in this match"):
        await service.play(HERE, CARL, "G v5h9-v4h9")
    with pytest.raises(NotAllowed, match="It is ann's turn"):
        await service.play(HERE, BOB, "G v5h1-v6h1")
    with pytest.raises(NotAllowed, match="It is ann's turn"):
        await service.end_turn(HERE, BOB)
    with pytest.raises(NotAllowed, match="Only a server admin"):
        await service.cancel(HERE, ANN, admin=False)
    with pytest.raises(NotAllowed):
        await service.resign(HERE, CARL)
    spectator = await service.board(HERE, CARL)
    assert not spectator.private and spectator.files[0].data.startswith(b"board:")


async def test_a_turn_asked_for_before_the_challenge_is_accepted_says_so(h: Harness) -> None:
    """Not "both players must finish their setup": ToriShogi has none, and nobody has
    accepted. The challenged player is told how to accept; the challenger, who waits on."""
    service = h.service
    await service.challenge(HERE, ANN, BOB, Terms(game="torishogi", rated=False))
    await h.settle()
    for ask in (service.hint, service.menu):
        with pytest.raises(Refused) as refused:
            await ask(HERE, BOB)
        said = str(refused.value)
        assert "setup" not in said and "accept it with `/tora accept`" in said, said
        with pytest.raises(Refused, match="not been accepted yet: it begins once bob accepts"):
            await ask(HERE, ANN)


async def test_the_rate_limit_refuses_clearly(tmp_path: Path) -> None:
    async with Harness(tmp_path / "t.sqlite3", settings=Settings(burst=3, every=2.0)) as h:
        service = h.service
        await service.challenge(HERE, ANN, BOB)
        await service.board(HERE, ANN)
        await service.board(HERE, ANN)
        with pytest.raises(
            RateLimited, match="up to 3 at once, then one every 2 seconds"
        ) as limited:
            await service.board(HERE, ANN)
        assert "wait 2 seconds" in limited.value.message
        await service.board(HERE, BOB)  # each user has their own allowance
        h.clock.advance(2)
        await service.board(HERE, ANN)


async def test_a_stamp_holds_only_public_facts_and_acts_on_the_current_turn(h: Harness) -> None:
    service = h.service
    await started(h)
    reply = await service.play(HERE, ANN, "G v5h9-v4h9")
    # the match, its public turn and its turns taken back (none), not a version
    assert reply.stamp == Stamp(1, 1, 0)
    undone = await service.undo(HERE, ANN)  # staging and undoing do not move the stamp on
    assert undone.stamp == reply.stamp
    await service.end_turn(HERE, ANN, expect=reply.stamp)  # the turn it was made for
    with pytest.raises(StaleRequest, match="That turn has already ended"):
        await service.end_turn(HERE, ANN, expect=reply.stamp)  # a double click
    with pytest.raises(StaleRequest, match="That turn has already ended"):
        await service.play(HERE, BOB, "A v5h3-v5h4", expect=reply.stamp)
    with pytest.raises(StaleRequest, match="That match is over"):
        await service.play(HERE, BOB, "A v5h3-v5h4", expect=Stamp(99, 2))
    # a stamp without its takebacks (kept before they were) is judged on its turn
    assert (await service.play(HERE, BOB, "A v5h3-v5h4", expect=Stamp(1, 2))).stamp == Stamp(
        1, 2, 0
    )


async def test_concurrent_requests_are_serialised(h: Harness) -> None:
    import asyncio

    service = h.service
    await started(h)
    stamp = (await service.board(HERE, ANN)).stamp
    results = await asyncio.gather(
        service.end_turn(HERE, ANN, expect=stamp),
        service.end_turn(HERE, ANN, expect=stamp),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleRequest) for r in results) == 1  # one turn end, not two
    assert len((await h.store.load(1)).game.turns) == 1
    await asyncio.gather(
        service.play(HERE, BOB, "G v5h1-v4h1"), service.play(HERE, BOB, "A v4h3-v4h4")
    )
    assert (await h.store.load(1)).game.staged() == ["G v5h1-v4h1", "A v4h3-v4h4"]


async def test_a_change_by_another_process_is_seen_by_the_next_command(h: Harness) -> None:
    service = h.service
    await started(h)
    other = await h.store.load(1)  # another process writes the match behind our back
    other.act("G v5h9-v4h9")
    await h.store.save(other)
    reply = await service.play(HERE, ANN, "A v7h9-v7h8")  # reloaded first: both are there
    assert "1. G v5h9-v4h9\n2. A v7h9-v7h8" in reply.text


async def test_a_lost_race_with_another_writer_is_refused(h: Harness, monkeypatch) -> None:
    service = h.service
    await started(h)
    seen = await h.store.hosting.versions(1)
    other = await h.store.load(1)  # another process commits between our look and our write
    other.act("G v5h9-v4h9")
    await h.store.save(other)
    monkeypatch.setattr(h.store.hosting, "versions", lambda _id: _at(seen))
    with pytest.raises(StaleRequest, match="another came first"):
        await service.play(HERE, ANN, "A v7h9-v7h8")
    monkeypatch.undo()
    reply = await service.play(HERE, ANN, "A v7h9-v7h8")  # reloaded: both actions are there
    assert "1. G v5h9-v4h9\n2. A v7h9-v7h8" in reply.text


async def _at(versions: object) -> object:
    return versions


# ---- agreements and endings ----------------------------------------------------------------
async def test_draw_offer_decline_lapse_and_acceptance(h: Harness) -> None:
    service = h.service
    await started(h)
    await service.draw(HERE, ANN)
    with pytest.raises(Refused, match="already proposed a draw"):
        await service.draw(HERE, ANN)
    declined = await service.decline(HERE, BOB)
    assert declined.text == "You declined ann's draw offer: the game goes on."
    await h.settle()
    assert texts(h)[-1] == "bob (Opposition) declines ann's draw offer."
    await service.draw(HERE, BOB)  # offered on ann's turn; ann plays on: it lapses
    await service.end_turn(HERE, ANN)
    await h.settle()
    assert "bob's draw offer lapsed: ann's turn ended without accepting it." in texts(h)[-1]
    await service.draw(HERE, ANN)
    await service.draw(HERE, BOB)
    await h.settle()
    last = h.delivery.channel(HERE.channel_id)[-1]
    assert last.text.startswith(
        "ann and bob agreed to a draw. The match ends in a tie (agreed draw)."
    )
    assert [f.reason for f in await h.store.finished_matches(1)] == ["agreed draw"]


async def series_with_bob_down_to_one(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A series to 30 points on the long board, ann to play, bob counted as down to one
    command piece (R28's position takes dozens of turns: his army is cut)."""
    real = Position.commanders
    monkeypatch.setattr(
        Position,
        "commanders",
        lambda self, side: real(self, side)[: 1 if side == Side.OPPOSITION else None],
    )
    service = h.service
    await service.challenge(HERE, ANN, BOB, Terms(options={"board": "long", "target": 30}))
    await service.accept(HERE, BOB)
    for user in (ANN, BOB):
        await service.setup(HERE, user, {"strategy": "aggressive", "ruler": "K"})
    await h.settle()


async def test_r28_only_the_player_down_to_one_command_piece_may_propose_a_reset(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a reset was offered to either player once one of them was down to one
    command piece, so the player with the stronger army could propose it; R28 gives the
    proposal to the player down to one action."""
    service = h.service
    await series_with_bob_down_to_one(h, monkeypatch)
    with pytest.raises(Refused, match=r"A reset needs .* \(R28\)"):
        await service.reset(HERE, ANN)
    proposed = await service.reset(HERE, BOB)
    assert "reset" in proposed.text


async def test_an_agreed_reset_does_not_play_the_turn_staged_before_it(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R12, R28: a turn is played only when its player ends it. ann staged a move and, in
    the same turn, accepted bob's reset: the move was played and recorded with the reset
    (a staged attack scored, a hidden action went into the record, R30 never judged it),
    though ann never ended her turn and bob never saw it. The reset discards it, as an
    agreed draw does."""
    service = h.service
    await series_with_bob_down_to_one(h, monkeypatch)
    await service.reset(HERE, BOB)  # proposed on ann's turn
    await service.play(HERE, ANN, "H v2h13-v2h14")
    await service.reset(HERE, ANN)  # accepted, her move still staged
    game = (await h.store.load(1)).game
    assert [turn.texts for turn in game.turns] == [["reset"]]
    assert game.game_number == 2 and not game.staged()


async def test_r28_a_reset_agreed_during_a_pause_keeps_the_match_paused(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the players paused, then agreed to bob's reset: the new board started with
    the clock running (a deadline, reminders) though nobody resumed, and its post said nothing
    of the pause. As after a takeback, the match stays paused with the new turn's full time."""
    service = h.service
    await series_with_bob_down_to_one(h, monkeypatch)
    await service.reset(HERE, BOB)
    await service.pause(HERE, ANN)
    await service.pause(HERE, BOB)
    await h.advance(3600.0)
    await service.reset(HERE, ANN)  # accepted during the pause
    await h.settle()
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    assert (hosted.due_at, hosted.remind_at, hosted.paused_left) == (None, None, 86400.0)
    post = texts(h)[-1]
    assert "by <t:" not in post and "The match stays paused" in post, post
    await service.resume(HERE, ANN)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.due_at == h.clock.now() + 86400.0


async def test_r28_a_paused_turns_notice_offers_resume_not_play(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: after a reset agreed during a pause, ann's "your turn" DM said "Press Play
    ... then end your turn" with Play and End turn buttons, each press refused ("The match
    is paused"). It names the turn, says the match stays paused, and offers Resume."""
    service = h.service
    await series_with_bob_down_to_one(h, monkeypatch)
    await service.reset(HERE, BOB)
    await service.pause(HERE, ANN)
    await service.pause(HERE, BOB)
    await h.settle()
    seen = len(h.delivery.log)
    await service.reset(HERE, ANN)  # accepted during the pause
    await h.settle()
    [dm] = [d.message for d in h.delivery.log[seen:] if d.kind == PRIVATE and d.user_id == ANN.id]
    assert dm.buttons is not None and "resume" in dm.buttons.verbs, dm.buttons
    assert not {"play", "end"} & set(dm.buttons.verbs), dm.buttons
    assert "Press Play" not in dm.text and "The match stays paused" in dm.text, dm.text


async def test_a_reset_needs_a_series_and_a_player_down_to_one_command_piece(h: Harness) -> None:
    service = h.service
    await started(h, Terms(options={"target": 20}))
    with pytest.raises(Refused, match=r"A reset needs a series .* \(R28\)"):
        await service.reset(HERE, ANN)
    await service.pause(HERE, ANN)
    declined = await service.decline(HERE, BOB)
    assert declined.text == "You declined ann's pause proposal: the clock keeps running."
    await h.settle()
    assert texts(h)[-1] == "bob (Opposition) declines ann's pause proposal."
    await service.pause(HERE, BOB)  # ann's is not made again this turn: she was declined
    await service.draw(HERE, ANN)
    both = await service.decline(HERE, ANN)  # his declined, her own taken back
    assert both.text == (
        "You declined bob's pause proposal and took back your draw offer: the clock keeps "
        "running and the game goes on."
    )
    with pytest.raises(Refused, match="not paused"):
        await service.resume(HERE, ANN)


async def test_resign_on_the_opponents_turn(h: Harness) -> None:
    service = h.service
    await started(h)
    await service.resign(HERE, BOB)
    await h.settle()
    assert texts(h)[-1].startswith("bob (Opposition) resigns. ann (Challenger) wins (resignation).")
    assert (await h.store.active_matches()) == []


@pytest.mark.parametrize("ending", ["resign", "draw", "abort"])
async def test_a_turn_its_player_did_not_end_is_never_played(h: Harness, ending: str) -> None:
    """R12: ann's staged action is discarded when the match ends before her turn does."""
    service = h.service
    await started(h)
    await service.play(HERE, ANN, "A v5h7-v5h5")
    if ending == "resign":
        await service.resign(HERE, BOB)
    elif ending == "draw":
        await service.draw(HERE, BOB)
        await service.draw(HERE, ANN)
    else:
        await service.abort(HERE, BOB)
    await h.settle()
    last = h.delivery.channel(HERE.channel_id)[-1]
    record = last.files[-1].data.decode()
    assert "v5h7" not in record and "Final score: ann 0, bob 0." in last.text
    assert "A v5h7-v5h5" not in " ".join(texts(h))


async def test_abort_only_before_the_first_round_is_complete(h: Harness) -> None:
    service = h.service
    await started(h)
    await service.end_turn(HERE, ANN)
    await service.abort(HERE, BOB)
    await h.settle()
    last = h.delivery.channel(HERE.channel_id)[-1]
    assert last.text.startswith(
        "bob (Opposition) aborted the match before the first round was complete."
    )
    assert "It counts for nothing and is not rated." in last.text
    assert [f.name.endswith(".tora") for f in last.files] == [False, True]
    assert await h.store.active_matches() == [] and await h.store.finished_matches(1) == []
    # a new match in the same channel, played one round further: too late to abort
    await started(h)
    await service.end_turn(HERE, ANN)
    await service.end_turn(HERE, BOB)
    with pytest.raises(Refused, match="can no longer be aborted"):
        await service.abort(HERE, ANN)


SETUPS = {
    "tora": ({"strategy": "aggressive"}, {"strategy": "defensive"}),
    "torishogi": (),  # no setup: the game begins at once
    "torii": ({"spirit": "Kitsune"}, {"spirit": "Tatsu"}),
}


@pytest.mark.parametrize("game", ["tora", "torishogi", "torii"])
async def test_an_aborted_matchs_final_board_does_not_read_as_a_running_turn(
    tmp_path: Path, game: str
) -> None:
    """An abort (or an admin's cancel) ends a running match without an outcome: the end
    post's final board says so, with no one to act and no deadline, where it read "bob
    (Opposition) to move · due in 10 h" as a running turn's board does."""
    from bot.app.pictures import PillowRenderer
    from bot.service import Status
    from bot.service.testing import DigestRenderer
    from storage import Config

    class Recording(DigestRenderer):
        def __init__(self) -> None:
            self.boards: list[tuple[Any, Status]] = []

        def board(self, view: Any, status: Status, language: str = "en") -> bytes:
            self.boards.append((view, status))
            return super().board(view, status, language)

    recording = Recording()
    h = Harness(Config(path=tmp_path / "db.sqlite"), renderer=recording)
    await h.open()
    try:
        await h.service.challenge(HERE, ANN, BOB, Terms(game=game, turn_seconds=36000))
        await h.service.accept(HERE, BOB)
        for player, answers in zip((ANN, BOB), SETUPS[game], strict=False):
            await h.service.setup(HERE, player, answers)
        await h.settle()
        running = recording.boards[-1]
        await h.service.abort(HERE, ANN)
        await h.settle()
        assert "aborted the match" in texts(h)[-1]
        view, status = recording.boards[-1]  # the end post's final board
    finally:
        await h.close()
    assert status.deadline == "" and status.headline
    drawn = PillowRenderer(0)
    for beside in (running[1], Status("ann", "bob")):  # a running turn's, with its deadline or not
        assert drawn.board(view, status) != drawn.board(view, beside)


async def test_the_web_picture_of_an_aborted_match_says_it_ended(h: Harness) -> None:
    """The web board's picture of an aborted match (``Look.worded_status``) says the match
    ended without a result, as the channel's end picture does, where it marked bob as the
    side to act."""
    await h.running.challenge(HERE, ANN, BOB, Terms(turn_seconds=36000, game="torishogi"))
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    await h.running.abort(HERE, ANN)
    await h.settle()
    look = await h.running.look(hosted.id)
    assert look.hosted.phase == "ended" and look.outcome is None
    status = look.worded_status()
    assert status.headline == "The match ended without a result", status
    assert status.deadline == ""


async def test_abort_during_setup_and_admin_cancellation(h: Harness) -> None:
    service = h.service
    await service.challenge(HERE, ANN, BOB)
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.abort(HERE, ANN)
    await started(h)
    await service.play(HERE, ANN, "G v5h9-v4h9")
    await service.cancel(HERE, CARL, admin=True)
    await h.settle()
    last = h.delivery.channel(HERE.channel_id)[-1]
    assert last.text.startswith("An admin (carl) cancelled the match.")
    with pytest.raises(Refused, match="no match here"):
        await service.end_turn(HERE, ANN)
    info = await h.store.match_info(2)  # the game takes its hosted match's number
    assert info.status == "active" and await h.store.active_matches() == []


async def test_an_admin_cancel_before_the_game_mentions_its_players(h: Harness) -> None:
    """Called off in the setup (or the challenge), the match's players are pinged, as by
    every other end before a game: one choosing their setup would not learn of it else."""
    service = h.service
    await service.challenge(HERE, ANN, BOB, Terms(rated=False))
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.cancel(HERE, CARL, admin=True)
    await service.challenge(HERE, ANN, BOB)
    await service.cancel(HERE, CARL, admin=True)
    await h.settle()
    posts = h.delivery.channel(HERE.channel_id)
    said = "An admin (carl) cancelled the match before its game started"
    cancels = [post for post in posts if post.text.startswith(said)]
    assert [set(post.mentions) for post in cancels] == [{ANN.id, BOB.id}] * 2


async def test_an_admin_cancel_calls_off_a_match_whose_stored_data_is_damaged(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match whose game no longer loads (CorruptMatch) refuses its players' commands and
    sends them to an admin, whose cancel calls it off (unrated) without its game: the
    players are told, the channel is free again and the match is no longer active."""
    await started(h)
    hosted = await h.store.hosting.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.match_id is not None
    damaged, loading = hosted.match_id, h.store.load

    async def load(match_id: int, *args: Any, **kw: Any) -> Any:
        if match_id == damaged:
            raise CorruptMatch(match_id, "log entry 3 (act 'A v5h5-v1h1') is refused")
        return await loading(match_id, *args, **kw)

    monkeypatch.setattr(h.store, "load", load)
    h.service._tables.clear()  # as after a restart: the match is read from the store
    with pytest.raises(Refused, match="please tell a server admin"):
        await h.service.end_turn(HERE, ANN)
    with pytest.raises(NotAllowed):
        await h.service.cancel(HERE, ANN, admin=False)
    await h.service.cancel(HERE, CARL, admin=True)
    await h.settle()
    last = h.delivery.channel(HERE.channel_id)[-1]
    assert last.text.startswith("An admin (carl) cancelled the match: its stored data is damaged")
    assert set(last.mentions) == {ANN.id, BOB.id}, last.mentions
    assert await h.store.hosting.live_in_channel(HERE.channel_id) is None
    assert await h.store.active_matches() == []
    monkeypatch.setattr(h.store, "load", loading)
    await started(h)  # the channel hosts a match again


async def test_a_whole_turn_in_one_command_all_or_nothing(h: Harness) -> None:
    service = h.service
    await started(h)
    with pytest.raises(Refused, match=r"Action 2 of 2 \(`A v1h1-v1h2`\) is refused, so none was"):
        await service.play(HERE, ANN, "G v5h9-v4h9; A v1h1-v1h2")
    assert (await h.store.load(1)).game.staged() == []
    reply = await service.play(HERE, ANN, "G v5h9-v4h9 ; A v7h9-v7h8")
    assert reply.text.startswith("Staged: G v5h9-v4h9; A v7h9-v7h8.")
    assert (await h.store.load(1)).game.staged() == ["G v5h9-v4h9", "A v7h9-v7h8"]


async def test_autocomplete_finds_actions_by_any_part_best_first(h: Harness) -> None:
    service = h.service
    await started(h)
    by_square = await service.choices(HERE, ANN, "v4h6")
    assert by_square and all("v4h6" in text for text, _value in by_square)
    assert by_square[0][1].startswith("A v5h7-v4h6")  # its destination, where the menu goes
    archers = await service.choices(HERE, ANN, "archer")
    assert archers and all(value.startswith("A ") for _text, value in archers)
    assert all(text.startswith("Archer v") for text, _value in archers)  # in words
    typed = await service.choices(HERE, ANN, "G v5h9-v4")
    assert typed and all(value.startswith("G v5h9-v4") for _text, value in typed)
    turn = await service.choices(HERE, ANN, "G v5h9-v4h9; archer v5h7")
    assert turn and all(value.startswith("G v5h9-v4h9; A v5h7") for _text, value in turn)
    assert all(text.startswith("G v5h9-v4h9; Archer v5h7: ") for text, _value in turn)


def test_a_choice_after_long_typed_actions_keeps_the_new_actions_words_whole() -> None:
    """After actions typed with `;`, the suggestions were each cut at 100 characters to
    "G v5h9-v4h9; ... ; Archer v3h9: move to v": all alike. What was typed is shortened
    instead, the new action's words kept whole."""
    from bot.service.typed import label as _label

    prefix = "; ".join(["H v2h11-v4h14 via v3h12 v4h13"] * 2) + "; "
    shown = "Cavalry v6h2: move to v4h{n} via v5h3 v4h3"
    names = [_label(prefix, shown.format(n=n)) for n in range(1, 10)]
    assert len(set(names)) == len(names), names[:4]
    assert all(len(name) <= 100 and name.startswith("…") for name in names), names[:4]
    assert all(name.endswith(shown.format(n=n)) for n, name in enumerate(names, 1)), names[:4]


async def test_autocomplete_after_a_typed_action_offers_what_may_follow_it(h: Harness) -> None:
    """After "archer v5h7 to v4h6; v4h6" the suggestions were the actions of the turn's
    start (the Archer still on v5h7: "A v5h7-v4h6" again), which the command then refused.
    They are now those legal after the typed ones, which are written in notation."""
    await started(h)
    offered = await h.service.choices(HERE, ANN, "archer v5h7 to v4h6; v4h6")
    assert any(value.startswith("A v5h7-v4h6; A v4h6-") for _shown, value in offered), offered
    game = (await h.store.load(1)).game
    for _shown, value in offered:
        copy = game.copy()
        for part in value.split(";"):
            copy.apply(part.strip())  # the command accepts each
    assert all(name.startswith("A v5h7-v4h6; ") for name, _value in offered), offered[:4]


async def test_autocomplete_after_seven_typed_actions_says_which_would_be_refused(
    h: Harness,
) -> None:
    """After seven actions typed with `;` autocomplete showed nothing (their value passed
    Discord's 100 characters): a turn of the short board holds two actions, so it now says
    which typed action the command would refuse, and why; with two typed, only them."""
    await started(h)
    typed = "; ".join(["A v5h7-v4h6", "G v5h9-v4h9", *["S v4h8 defend"] * 5]) + "; a"
    with pytest.raises(Refused, match=r"^Action 3 typed \(`S v4h8 defend`\) would be refused"):
        await h.service.choices(HERE, ANN, typed)
    full = await h.service.choices(HERE, ANN, "A v5h7-v4h6; G v5h9-v4h9; ")
    assert full == [
        ("A v5h7-v4h6; G v5h9-v4h9 (the turn holds no more actions)", "A v5h7-v4h6; G v5h9-v4h9")
    ]
    with pytest.raises(Refused, match=r"^`resign` is not a move"):
        await h.service.choices(HERE, ANN, "resign; a")


@pytest.mark.parametrize("game", ["torishogi", "torii"])
async def test_autocomplete_offers_the_move_that_replaces_a_staged_one(
    h: Harness, game: str
) -> None:
    """A one-move game's staged move is replaced by the next one the player types (the
    command says "Staged X in place of Y"), but /tora act suggested nothing once a move was
    staged. It suggests the moves the staged one may be replaced by."""
    await h.service.challenge(HERE, ANN, BOB, Terms(game=game, rated=False))
    await h.service.accept(HERE, BOB)
    if game == "torii":
        await h.service.setup(HERE, ANN, {"spirit": "Crane"})
        await h.service.setup(HERE, BOB, {"spirit": "Monkey"})
    before = await h.service.choices(HERE, ANN, "")
    await h.service.play(HERE, ANN, before[0][1])
    offered = await h.service.choices(HERE, ANN, "")
    assert offered == before
    reply = await h.service.play(HERE, ANN, offered[1][1])
    assert reply.text.startswith("Staged ") and " in place of " in reply.text, reply.text


async def test_r41_a_series_to_a_target_with_assassins_is_refused_until_each_game_hides_its_start(
    h: Harness,
) -> None:
    # R28 + R40-R44: a series' later games would start the Assassins on the squares game 1
    # published (R44), so a new match may not combine the two; one already agreed (an event
    # created before) keeps playing.
    from bot.tournament.event_spec import EventSpec, check_spec

    both = {"board": "long", "assassins": True, "target": 60}
    refusal = r"A series to a point target \(`target`\) is not played with Assassins"
    service = h.service
    with pytest.raises(Refused, match=refusal) as refused:
        await service.challenge(HERE, ANN, BOB, Terms(options=both))
    assert "`target` 0" in str(refused.value) and "without Assassins" in str(refused.value)
    with pytest.raises(Refused, match=refusal):
        await service.challenge(HERE, ANN, None, Terms(options=both))
    with pytest.raises(Refused, match=refusal):
        await service.challenge_ai(HERE, ANN, "easy", Terms(options=both, rated=False))
    with pytest.raises(Refused, match=refusal):
        check_spec(EventSpec("Cup", "tora", "swiss", dict(both)), None)
    # each alone is still offered
    await service.challenge(HERE, ANN, BOB, Terms(options={"board": "long", "target": 60}))
    await service.decline(HERE, ANN)
    await service.challenge(HERE, ANN, BOB, Terms(options={"board": "long", "assassins": True}))
    await service.decline(HERE, ANN)
    # a match already agreed with both (stored before the refusal) still opens and plays
    table = await service.open_match(Place(1, 102), ANN, BOB, Terms(options=both, rated=False))
    assert table.id
