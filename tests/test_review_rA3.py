"""Review rA3: failing tests for the messages about a turn."""

from __future__ import annotations

from pathlib import Path

from bot.service import Place, Terms, User
from bot.service.testing import PRIVATE, Harness, RecordingDelivery

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def _started(h: Harness, **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.running.challenge(HERE, ANN, BOB, Terms(**terms))  # type: ignore[arg-type]
    await h.running.accept(HERE, BOB)
    await h.settle()


def _dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


async def test_a_missed_torishogi_turn_restarting_the_clock_tells_its_player(h: Harness) -> None:
    """ToriShogi cannot pass: at the deadline with no move, ann's clock starts again on the
    same turn. With the default notifications (the turn's DM pings, not the post) ann sees
    nothing: the channel post's mention of her is dropped (a TURN notice, mention off) and no
    "your turn" DM with the new deadline is sent, so her old DM's deadline is the last she
    heard. She should be told once, as for any turn: a "your turn" DM (or the ping)."""
    await _started(h)
    before = len(_dms(h, ANN))
    await h.advance(10 * HOUR)  # ann stages nothing: her turn is missed, her clock restarts
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert "Their clock starts again" in post.text
    told = _dms(h, ANN)[before:]
    assert ANN.id in post.mentions or told, (post.mentions, told)


async def test_the_opponent_resuming_a_paused_match_tells_the_player_whose_clock_runs(
    h: Harness,
) -> None:
    """A pause was agreed in ann's turn; bob (who waits) resumes the match: ann's clock runs
    again from now on. With the default notifications ann hears nothing: the post's mention
    of her is a TURN notice (mention off: dropped) and no DM is sent beside it, unlike every
    other turn-starting post. She should be pinged once (a DM, as for her turn, or the
    mention), naming the new deadline."""
    await _started(h)
    await h.running.pause(HERE, ANN)
    await h.running.pause(HERE, BOB)  # agreed: the clock stops
    await h.settle()
    before = len(_dms(h, ANN))
    await h.running.resume(HERE, BOB)
    await h.settle()
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert "resumed the match" in post.text, post.text
    told = _dms(h, ANN)[before:]
    assert ANN.id in post.mentions or told, (post.mentions, told)


async def test_a_tournament_games_end_post_offers_no_rematch(h: Harness) -> None:
    """A tournament's game (``Terms.competition``, opened by the tournament with
    ``open_match``) ends by a resignation: its end post says "Either of you may ask for a
    rematch with the button (colours swapped)" and carries a Rematch button. In a
    tournament's thread the next game is the tournament's to open (with the colours it
    chooses); a rematch made there is a stray game carrying the competition's terms (a
    lapsed setup scored, no pause...) that no tournament counts. The end post of a
    competition's game should offer no rematch."""
    terms = Terms(game="torishogi", turn_seconds=10 * HOUR, rated=False, competition=True)
    await h.running.open_match(HERE, ANN, BOB, terms, "Round 1 of the cup.")
    await h.settle()
    await h.running.resign(HERE, ANN)
    await h.settle()
    end = h.delivery.channel(HERE.channel_id)[-1]
    assert "resigns" in end.text, end.text
    verbs = () if end.buttons is None else end.buttons.verbs
    assert "rematch" not in verbs and "rematch" not in end.text, (verbs, end.text)


async def test_a_player_whose_dms_are_closed_is_still_pinged_for_their_turn(
    tmp_path: Path,
) -> None:
    """bob's DMs are closed to the bot (known since his first "your turn" DM was refused).
    By default a turn pings by its DM, not by the post's mention, so bob is never pinged:
    the post's mention of him is dropped, and the DM's fallback is an ephemeral message
    (which pings nobody, and Discord only shows it while he has a recent interaction in the
    channel). A player whose DMs cannot be reached should get the post's mention instead."""
    async with Harness(
        tmp_path / "t.sqlite3", delivery=RecordingDelivery(closed_dms={BOB.id})
    ) as h:
        await _started(h)
        for who, move in ((ANN, "c3c4"), (BOB, "c5c4"), (ANN, "a3a4")):
            await h.running.play(HERE, who, move)
            await h.running.end_turn(HERE, who)
            await h.settle()
        assert not [d for d in h.delivery.user(BOB.id) if d.kind == PRIVATE]  # none reached
        post = h.delivery.channel(HERE.channel_id)[-1]
        assert "bob (Opposition) to act" in post.text, post.text
        assert BOB.id in post.mentions, post.mentions
