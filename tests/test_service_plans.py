"""Planned replies (issue 27): lines of "if they play X, I play Y", several alternatives and
several steps deep, played the moment the opponent's turn matches; dropped, with a DM, when
it does not or the reply is no longer legal; kept across restarts, gone at the match's end;
private: the opponent's view is the same with plans or without (twin worlds)."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from positions import C, O, hidden, with_assassins
from test_service_games import torii_until_the_monkeys_pause

from bot.service import Place, Refused, Terms, User, plans, showing
from bot.service.offload import Offload
from bot.service.testing import PRIVATE, Harness
from harness.stage import planned_turn
from rules import ActionError, Side
from rules.tora import Game

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def started(h: Harness) -> None:
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()


async def turn(h: Harness, user: User, move: str) -> None:
    await h.running.play(HERE, user, move)
    await h.running.end_turn(HERE, user)
    await h.settle()


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


def posts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


async def stored(h: Harness, side: Side) -> list[str]:
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    return await h.running._ctx.store.hosting.private_plans(hosted.id, side)


async def test_a_line_two_steps_deep_is_played_as_the_opponent_matches_it(h: Harness) -> None:
    await started(h)
    listed = await h.running.plans(HERE, ANN, add="c5c4 > a3a4 | b5b4 > d1c2")
    assert listed.text == (
        "Plan 1 saved.\nYour plans against bob (1 line):\n1. if bob plays c5c4, you play a3a4; "
        "then if bob plays b5b4, you play d1c2"
    )
    await turn(h, BOB, "c5c4")
    assert posts(h)[-1].startswith("ann (Challenger) ended their turn:\n- ann's")
    assert "`a3a4`" in posts(h)[-1]
    assert dms(h, ANN)[-1].startswith("bob played c5c4: your planned reply a3a4 was played.")
    await turn(h, BOB, "b5b4")
    assert "`d1c2`" in posts(h)[-1]
    assert (await h.running.plans(HERE, ANN)).text == "No plans."


async def test_a_turn_answered_by_a_plan_sends_its_planner_one_dm(h: Harness) -> None:
    await started(h)
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    before = len(dms(h, ANN))
    await turn(h, BOB, "c5c4")
    assert dms(h, ANN)[before:] == [
        "bob played c5c4: your planned reply a3a4 was played. 0 plans left."
    ]  # no "your turn" for a turn that was answered at once
    assert any("your turn" in text.lower() for text in dms(h, BOB)[-1:])


async def test_a_turn_no_plan_answers_sends_its_planner_one_dm(h: Harness) -> None:
    """When bob's turn matches none of ann's plans she got the usual "Your turn against bob"
    DM and, as a second ping at the same moment, "bob played a5a4, which none of your plans
    answers: 1 plan dropped. It is your turn." Now the "your turn" DM says both; a player who
    wants no "your turn" DMs still gets the plans' news alone, as before."""
    await started(h)
    await h.running.plans(HERE, ANN, add="b5b4 > d1c2")
    before = len(dms(h, ANN))
    await turn(h, BOB, "a5a4")
    told = dms(h, ANN)[before:]
    assert len(told) == 1, told
    assert "bob played a5a4, which none of your plans answers: 1 plan dropped." in told[0]
    assert "Your turn against bob" in told[0]
    await h.running.records.set_notify(ANN, "dm_turn", "off")
    await turn(h, ANN, "a3a4")
    await h.running.plans(HERE, ANN, add="b5b4 > d1c2")
    before = len(dms(h, ANN))
    await turn(h, BOB, "f5f4")
    assert dms(h, ANN)[before:] == [
        "bob played f5f4, which none of your plans answers: 1 plan dropped. It is your turn."
    ]


async def test_alternatives_and_a_turn_none_answers(h: Harness) -> None:
    await started(h)
    await h.running.plans(HERE, ANN, add="b5b4 > d1c2")
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    with pytest.raises(Refused, match="Plan 2 answers the same turn with another reply"):
        await h.running.plans(HERE, ANN, add="c5c4 > d1c2")
    await turn(h, BOB, "a5a4")  # neither: nothing is played, the plans go
    assert posts(h)[-1].startswith("bob (Opposition) ended their turn")
    assert (
        "\nbob played a5a4, which none of your plans answers: 2 plans dropped." in (dms(h, ANN)[-1])
    )
    assert await stored(h, Side.CHALLENGER) == []


async def test_a_reply_no_longer_legal_is_not_played(h: Harness) -> None:
    await started(h)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    stale = json.dumps([[["c5c4"], ["c4c5"]]])  # a plan of another position: c5 is taken
    await h.running._ctx.store.hosting.put_plans(hosted.id, Side.CHALLENGER, [stale])
    await turn(h, BOB, "c5c4")
    assert "\nYour planned reply c4c5 to bob's turn can no longer" in dms(h, ANN)[-1]
    assert "nothing was played, and 1 plan was dropped" in dms(h, ANN)[-1]
    assert posts(h)[-1].startswith("bob (Opposition) ended their turn")


async def test_plans_are_refused_when_they_cannot_be_played(h: Harness) -> None:
    await started(h)
    with pytest.raises(Refused, match="Cannot read the step"):
        await h.running.plans(HERE, ANN, add="c5c4 a3a4")
    with pytest.raises(Refused, match="Step 1 cannot be played"):
        await h.running.plans(HERE, ANN, add="c5c4 > a3a9")
    with pytest.raises(Refused, match="a plan answers your opponent's turn"):
        await h.running.plans(HERE, BOB, add="a3a4 > c5c4")
    with pytest.raises(Refused, match="Only ann"):
        await h.running.plans(HERE, User(3, "cy"))
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    await h.running.plans(HERE, ANN, add="b5b4 > d1c2")
    cancelled = await h.running.plans(HERE, ANN, cancel="1")
    assert cancelled.text.startswith("Plan 1 cancelled.\nYour plans against bob (1 line):\n1. if")
    assert (await h.running.plans(HERE, ANN, cancel="all")).text.startswith("Every plan")


async def test_cancelling_plan_number_typed_as_a_superscript_digit_is_refused_not_a_crash(
    h: Harness,
) -> None:
    """``/tora plans cancel:²``: "²" is a digit to ``str.isdigit`` but not to ``int``, so
    the command failed with an internal error; it gets the refusal saying what is allowed."""
    await started(h)
    await h.running.plans(HERE, ANN, add="b5b4 > d1c2")
    for typed in ("\u00b2", "\u0661", "+1", " 1 2"):
        with pytest.raises(Refused, match="Cancel a plan by its number, 1 to 1, or `all`"):
            await h.running.plans(HERE, ANN, cancel=typed)
    assert len(await stored(h, Side.CHALLENGER)) == 1


async def test_cancelling_a_plan_when_there_is_none_says_there_is_none(h: Harness) -> None:
    """With no plans, ``cancel:1`` was refused with "1 to 0", a range that does not exist."""
    await started(h)
    with pytest.raises(Refused, match="You have no plans to cancel") as refused:
        await h.running.plans(HERE, ANN, cancel="1")
    assert "1 to 0" not in refused.value.message
    assert (await h.running.plans(HERE, ANN, cancel="all")).text.startswith("Every plan")


async def test_plans_survive_a_restart_and_go_with_the_match(h: Harness) -> None:
    await started(h)
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4 | b5b4 > d1c2")
    await h.crash()
    await turn(h, BOB, "c5c4")
    assert "`a3a4`" in posts(h)[-1]
    assert len(await stored(h, Side.CHALLENGER)) == 1
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    await h.running.resign(HERE, BOB)
    assert await h.running._ctx.store.hosting.private_plans(hosted.id, Side.CHALLENGER) == []


class Died(Exception):
    """The process died: nothing after its first commit was written."""


def die_after_first_commit(h: Harness) -> None:
    """From now on the store commits one transaction, then every later write fails, as a
    process killed right after that commit would have left the database."""
    assert h.store is not None
    writer = h.store._writer
    run, execute, commits = writer.run, writer.execute, []

    async def once(job, **how):  # type: ignore[no-untyped-def]
        if commits:
            raise Died
        commits.append(job)
        return await run(job, **how)

    async def statement_once(sql, parameters=()):  # type: ignore[no-untyped-def]
        if commits:
            raise Died
        commits.append(sql)
        return await execute(sql, parameters)

    writer.run = once  # type: ignore[method-assign]
    writer.execute = statement_once  # type: ignore[method-assign]


async def test_a_crash_after_the_opponents_turn_is_saved_does_not_lose_the_reply(
    h: Harness,
) -> None:
    await started(h)
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    await h.running.play(HERE, BOB, "c5c4")
    die_after_first_commit(h)
    with contextlib.suppress(Died):  # what follows that commit, if anything, is lost
        await h.running.end_turn(HERE, BOB)
    await h.crash()
    await h.settle()
    assert "`a3a4`" in posts(h)[-1]  # her reply was saved with the turn it answers
    assert "bob (Opposition) to act" in (await h.running.board(HERE, ANN)).text
    assert dms(h, ANN)[-1].startswith("bob played c5c4: your planned reply a3a4 was played.")


async def twin(path: Path, plan: str | None, bob_plays: str) -> tuple[list, list]:
    """A world where ann may have ``plan``; if it does not play her reply, she plays a3a4
    herself. What bob sees: the channel (texts, mentions, pictures) and his own DMs."""
    async with Harness(path) as h:
        await started(h)
        if plan is not None:
            await h.running.plans(HERE, ANN, add=plan)
        await turn(h, BOB, bob_plays)
        if h.delivery.texts(HERE.channel_id)[-1].startswith("bob (Opposition) ended"):
            await turn(h, ANN, "a3a4")
        seen = [(m.text, m.mentions, [f.data for f in m.files]) for m in h.delivery.channel(100)]
        return seen, [d.message.text for d in h.delivery.user(BOB.id)]


async def test_twin_worlds_bob_cannot_tell_whether_ann_planned(tmp_path: Path) -> None:
    planned = await twin(tmp_path / "a.sqlite3", "c5c4 > a3a4", "c5c4")
    by_hand = await twin(tmp_path / "b.sqlite3", None, "c5c4")
    assert planned == by_hand
    missed = await twin(tmp_path / "c.sqlite3", "b5b4 > d1c2", "c5c4")
    assert missed == by_hand


async def tora_turns_to_plan(h: Harness) -> tuple[list[str], list[str]]:
    """A TORA match where ann has ended her first turn: bob's next whole turn, and a whole
    turn of ann's in reply to it (each legal by then)."""
    await h.running.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"strategy": "aggressive"})
    await h.running.setup(HERE, BOB, {"strategy": "defensive"})
    mirror = Game(board="short", challenger_setup="aggressive", opposition_setup="defensive")
    rng = random.Random(5)
    for text in planned_turn(mirror, rng, attack=False):
        await h.running.play(HERE, ANN, text)
    await h.running.end_turn(HERE, ANN)
    theirs = planned_turn(mirror, rng, attack=False)
    mine = planned_turn(mirror, rng, attack=False)
    return theirs, mine


async def test_a_tora_whole_turn_in_reply_to_a_whole_turn(h: Harness) -> None:
    theirs, mine = await tora_turns_to_plan(h)
    await h.running.plans(HERE, ANN, add=f"{'; '.join(theirs)} > {'; '.join(mine)}")
    for text in theirs:
        await h.running.play(HERE, BOB, text)
    await h.running.end_turn(HERE, BOB)
    await h.settle()
    assert posts(h)[-1].startswith("ann (Challenger) ended their turn:")
    assert all(f"`{text}`" in posts(h)[-1] for text in mine)


async def test_a_tora_plan_plays_its_turn_ends_off_the_bots_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/tora plans add`` plays the line out (``plans.played_out``): up to 8 steps, two TORA
    turn ends each, with their R30 and R25 searches (0.35 s at the median on the long board,
    up to 2 s: offload.py). They were played in a thread of the bot's process: seconds of
    the interpreter lock every channel waits on, for one command a player may repeat; and
    so was the check of a planned reply once the opponent's turn ended. TORA's turn ends
    are played in the rules' workers, as ``Offload.end_turn`` and ``warnings`` do."""
    from bot.service import Settings

    settings = Settings(
        burst=1000, every=0.001, rules_processes=1, ai_processes=0, draw_processes=0,
        ai_seconds=0.05, auto_away=False,
    )  # fmt: skip
    async with Harness(tmp_path / "plans.sqlite3", settings=settings) as h:
        theirs, mine = await tora_turns_to_plan(h)
        ended_here: list[int] = []
        end_turn = Game.end_turn

        def counted(self: Any, *args: Any, **kw: Any) -> Any:
            ended_here.append(len(self.turns))
            return end_turn(self, *args, **kw)

        monkeypatch.setattr(Game, "end_turn", counted)
        reply = await h.running.plans(HERE, ANN, add=f"{'; '.join(theirs)} > {'; '.join(mine)}")
        assert "Plan 1 saved." in reply.text
        for text in theirs:
            await h.running.play(HERE, BOB, text)
        await h.running.end_turn(HERE, BOB)
        await h.settle()
        assert all(f"`{text}`" in posts(h)[-1] for text in mine), "the planned reply was played"
    assert ended_here == [], f"{len(ended_here)} TORA turn ends searched in the bot's process"


async def test_an_agreed_reset_drops_the_plans_of_the_game_before(h: Harness, monkeypatch) -> None:
    """An agreed reset (R28: a new game of the series begins) drops both players' plans (and
    plan drafts) as a takeback does: ann's plan made in game 1 against bob's turn was matched
    against bob's turns of game 2 and her reply played there without her asking."""
    from rules.tora.play import Play

    # R28's condition, granted
    monkeypatch.setattr(Play, "can_reset", lambda self, proposer=None: True)
    terms = Terms(options={"board": "long", "target": 20}, turn_seconds=10 * HOUR)
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "Q"})
    await h.running.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K"})
    options = dict(
        board="long",
        target=20,
        challenger_setup="aggressive",
        opposition_setup="defensive",
        rulers=("Q", "K"),
    )
    mirror = Game(**options)
    rng = random.Random(5)
    first = planned_turn(mirror, rng, attack=False)
    for text in first:
        await h.running.play(HERE, ANN, text)
    await h.running.end_turn(HERE, ANN)
    theirs = planned_turn(mirror, rng, attack=False)
    mine = planned_turn(mirror, rng, attack=False)
    await h.running.plans(HERE, ANN, add=f"{'; '.join(theirs)} > {'; '.join(mine)}")
    await h.running.draft_plan(HERE, ANN, pick=theirs[0])  # and a draft, of game 1
    await h.running.reset(HERE, BOB)  # bob proposes, ann agrees: game 2 begins
    await h.running.reset(HERE, ANN)
    await h.settle()
    assert "agreed to reset the board" in " ".join(h.delivery.texts(HERE.channel_id)[-3:])
    assert await stored(h, Side.CHALLENGER) == []
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    assert await h.running._ctx.store.hosting.private_draft(hosted.id, Side.CHALLENGER) is None
    for text in first:  # game 2: ann opens as before, bob answers as ann once expected
        await h.running.play(HERE, ANN, text)
    await h.running.end_turn(HERE, ANN)
    for text in theirs:
        await h.running.play(HERE, BOB, text)
    await h.running.end_turn(HERE, BOB)
    await h.settle()
    told = [t for t in dms(h, ANN) if "planned reply" in t]
    assert told == [], told


# ---- a plan never depends on hidden state: no action after a search (R43) ------------------
class _Ctx:
    offload = Offload(0, 0)  # the rules' work in threads

    async def player_language(self, user_id: int) -> str:
        return "en"


def _table(game: Game) -> Any:  # what ``plans.answer`` reads of a match
    hosted = SimpleNamespace(player=lambda side: (ANN.id, BOB.id)[side])
    return SimpleNamespace(game=game, hosted=hosted, side_name=lambda side: ("ann", "bob")[side])


def _searching(bob_assassin: str) -> Game:
    """bob's turn runs; his hidden Assassin stands on ``bob_assassin``, by his Archer on
    v9h11 or far away; ann's Cannon on v10h12 may search next to the Archer."""
    return with_assassins(
        hidden(O, bob_assassin),
        (O, "A", "v9h11"),
        (C, "G", "v9h12"),
        (C, "G", "v5h15"),
        (C, "C", "v10h12"),
        side=O,
    )


async def _answered(bob_assassin: str, stored: str) -> plans.Answer:
    """bob plays G v17h1-v16h1, which ann's plan (``stored``, as kept) answers."""
    game = _searching(bob_assassin)
    game.apply("G v17h1-v16h1")
    game.end_turn()
    found = await plans.answer(_Ctx(), _table(game), Side.CHALLENGER, [stored])
    assert found is not None
    return found


def _saved(typed: str) -> str:
    """The line as ``/tora plans add`` checks and keeps it, on ann's own copy of the game."""
    mine = _searching("v14h3").for_player(Side.CHALLENGER)
    line = plans.played_out(mine, Side.CHALLENGER, plans.parse(typed))
    if isinstance(line, plans.Stuck):
        raise plans.refusal(line)
    return plans.encode(line)


async def test_a_planned_reply_that_fails_tells_the_planner_where_the_hidden_assassin_is() -> None:
    """A planned reply was checked on the REAL game (hidden Assassin included) although it was
    saved from the planner's view: a search in it that finds the Assassin changes the board
    (here the Assassin shares its Archer's square: both go), so the next planned action
    failed, nothing was played, and ann's DM said "can no longer be played (there is no
    enemy piece to attack on v9h11)": she learnt, without anything public, that bob's
    Assassin is on v9h11, while in the twin world (Assassin far away) the plan was played.
    A reply going on after a search is refused when it is saved; one kept from before is
    dropped the same way in both worlds; a reply ending with the search is played in both."""
    with pytest.raises(Refused, match="may end with a search but not go on after it"):
        _saved("G v17h1-v16h1 > C v10h12 search; G v9h12 x v9h11")
    ending = _saved("G v17h1-v16h1 > C v10h12 search")
    near, far = await _answered("v9h11", ending), await _answered("v14h3", ending)
    assert (near.reply, near.told) == (far.reply, far.told)
    assert near.reply == ["C v10h12 search"]
    assert near.told == (
        "bob played G v17h1-v16h1: your planned reply C v10h12 search was played. 0 plans left."
    )
    kept = json.dumps([[["G v17h1-v16h1"], ["C v10h12 search", "G v9h12 x v9h11"]]])
    near, far = await _answered("v9h11", kept), await _answered("v14h3", kept)
    assert (near.reply, near.told, near.kept) == (far.reply, far.told, far.kept)
    assert near.reply is None and near.kept == []
    assert near.told.startswith(
        "Your planned reply C v10h12 search; G v9h12 x v9h11 to bob's turn was not played, "
        "and 1 plan was dropped: A planned reply may end with a search but not go on after "
        "it: what `C v10h12 search` finds decides what can follow"
    )


async def test_a_reply_going_on_after_a_search_is_refused_however_the_plan_is_made(
    h: Harness,
) -> None:
    """``/tora plans add:`` and the plan panel (the web page's plan mode is the same draft)
    refuse a reply with an action after a search, saying why and what may be planned."""
    from test_service_assassins import BOB_START, OPTIONS, TERMS

    await h.running.challenge(HERE, ANN, BOB, TERMS)
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "Q"})
    await h.running.setup(HERE, ANN, {"assassin": "v3h17"})
    await h.running.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K", "assassin": BOB_START})
    shadow = Game(OPTIONS, assassin_starts=("v3h17", BOB_START))
    first = planned_turn(shadow, random.Random(5), attack=False)
    for text in first:
        await h.running.play(HERE, ANN, text)
    await h.running.end_turn(HERE, ANN)
    theirs = next(  # one plain move of bob's, the turn ann expects
        shadow.notation(a)
        for a in shadow.legal_actions()
        if a.letter != "X" and a.kind == "move" and not a.target
    )
    mine = shadow.for_player(Side.CHALLENGER)
    mine.apply(theirs)
    mine.end_turn()
    search = next(
        text
        for text in (mine.notation(a) for a in mine.legal_actions() if a.kind == "search")
        if _plays(mine, text)
    )
    mine.apply(search)
    after = next(mine.notation(a) for a in mine.legal_actions() if a.kind == "move")
    why = "may end with a search but not go on after it"
    with pytest.raises(Refused, match=why):
        await h.running.plans(HERE, ANN, add=f"{theirs} > {search}; {after}")
    listed = await h.running.plans(HERE, ANN, add=f"{theirs} > {search}")
    assert listed.text.startswith("Plan 1 saved.")
    await h.running.draft_plan(HERE, ANN, pick=theirs)
    await h.running.draft_plan(HERE, ANN, step="done")
    await h.running.draft_plan(HERE, ANN, pick=search)
    with pytest.raises(Refused, match=why):
        await h.running.draft_plan(HERE, ANN, pick=after)
    draft = await h.running.draft_plan(HERE, ANN)  # the draft stands as it was
    assert draft.mine == (search,)


def _plays(game: Game, text: str) -> bool:
    """Whether ``text`` can be staged on ``game`` (a copy is tried)."""
    try:
        game.copy().apply(text)
    except ActionError:
        return False
    return True


async def test_a_takeback_that_fails_to_save_leaves_the_askers_planned_replies(
    h: Harness,
) -> None:
    """ann ends her turn, plans her reply to bob's ("if c5c4, I play a3a4") and asks to take
    her turn back. bob accepts; ``takebacks.rewind`` deletes both players' plans and
    drafts (``plans.forget``, each its own commit) before the takeback itself was saved.
    The bot dies (or the save fails: its board picture, a stale copy) in between: the
    takeback never happened, but ann's planned reply is gone, and bob's c5c4 is not
    answered. The plans belong in the takeback's own save (``ctx.save(..., plans=...)``)."""
    await h.running.challenge(
        HERE, ANN, BOB, Terms(game="torishogi", rated=False, turn_seconds=10 * HOUR)
    )
    await h.running.accept(HERE, BOB)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    await h.running.takeback(HERE, ANN)
    await h.settle()
    store = h.store
    assert store is not None

    async def dies(*args: object, **kwargs: object) -> object:
        raise ConnectionError("the bot died before the takeback was saved (simulated)")

    store.save_hosted = dies  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        await h.running.takeback(HERE, BOB)  # bob accepts
    await h.crash()
    listed = (await h.running.plans(HERE, ANN)).text
    assert "c5c4" in listed, listed


async def test_ti15_a_planned_monkey_answer_is_not_told_again_as_the_opponents_turn(
    h: Harness,
) -> None:
    """Torii, bob's Monkey (TI15): bob plans his answer ("flip none") to ann's turn. It was
    played, and then, as his own turn began, his plans (re-read from the store, the line
    just played included) were matched against his own answer: "ann played flip none,
    which none of your plans answers: 1 plan dropped". A player's plans answer only the
    opponent's turns."""

    async def plan_the_answer(texts: list[str]) -> None:
        saved = await h.service.plans(HERE, BOB, add=f"{'; '.join(texts)} > flip none")
        assert saved.text.startswith("Plan 1 saved."), saved.text

    await torii_until_the_monkeys_pause(h, plan_the_answer)
    told = dms(h, BOB)
    assert any("your planned reply flip none was played" in text for text in told), told[-2:]
    assert not any("none of your plans answers" in text for text in told), told[-1]


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
        await turn(h, ANN if index % 2 == 0 else BOB, text)


async def test_ti8_a_plan_answering_a_turn_with_the_forced_pass_goes_on_to_its_next_step(
    h: Harness,
) -> None:
    """bob plans "ann flips my last tile > pass | ann plays 1 d4 > 1 f3". The host played
    his forced pass without his plans, which stayed as they were, their first step then
    matched against ann's next turn: "ann played 1 d4, which none of your plans answers".
    The forced pass answers the plans as the reply would have: bob's 1 f3 is played."""
    await torii_before_the_forcing_turn(h)
    await h.service.plans(HERE, BOB, add=f"{FORCING} > pass | 1 d4 > 1 f3")
    await turn(h, ANN, FORCING)
    table = await h.service._table(HERE.channel_id)
    assert table.game.turns[-1].events[0].kind == "pass"  # the host played bob's pass
    assert "your planned reply pass was played. 1 plan left." in dms(h, BOB)[-1]
    await turn(h, ANN, "1 d4")
    told = dms(h, BOB)[-1]
    assert "your planned reply 1 f3 was played" in told, told
    table = await h.service._table(HERE.channel_id)
    assert table.game.side == Side.CHALLENGER, "bob's planned 1 f3 was not played"


async def test_ti8_a_forced_pass_drops_the_plans_that_did_not_answer_its_turn_with_it(
    h: Harness,
) -> None:
    """Plans answering another turn are dropped at the forced pass, and bob is told so (not
    "it is your turn": he has none); a line going on after the pass is dropped in its turn."""
    await torii_before_the_forcing_turn(h)
    await h.service.plans(HERE, BOB, add="1 a1 > 1 f3")
    await turn(h, ANN, FORCING)
    told = dms(h, BOB)[-1]
    assert "ann's turn left you only a pass, which the host played at once" in told, told
    assert not await stored(h, Side.OPPOSITION)
    await h.service.plans(HERE, BOB, add="1 d4 > 1 f3")  # (his plans for ann's next turn)
    await turn(h, ANN, "1 c3")
    assert "ann played 1 c3, which none of your plans answers: 1 plan dropped" in dms(h, BOB)[-1]


async def test_ti15_a_plan_triggered_by_the_opponents_monkey_answer_is_refused(
    h: Harness,
) -> None:
    """ann's turn waits for bob's Monkey (TI15), so ann may plan; "flip none > 1 f4" was
    saved as "if bob plays flip none, you play 1 f4", but bob's own turn follows his answer:
    1 f4 was checked as a move of his, and the plan could never be played as told. Then
    every line was tried and refused with a rules error ("Step 1 cannot be played: ...",
    or "after `flip none` it is still your opponent's turn"), where the panel said why no
    plan can be made: `/tora plans` says the same now."""
    from test_service_games import torii_until_the_monkeys_pause

    await torii_until_the_monkeys_pause(h)
    table = await h.service._table(HERE.channel_id)
    mine = table.game.for_player(Side.CHALLENGER)
    mine.apply("flip none")
    mine.end_turn()
    assert mine.side == Side.OPPOSITION  # bob's own turn follows his answer
    bobs_move = mine.notation(mine.legal_actions()[0])
    for line in (f"flip none > {bobs_move}", f"flip none; {bobs_move} > 1 c3"):
        with pytest.raises(Refused, match="bob has a decision to make in your turn"):
            await h.service.plans(HERE, ANN, add=line)
    assert not await stored(h, Side.CHALLENGER)


async def test_a_plan_against_the_ai_is_refused_as_the_draft_panel_refuses_it(
    h: Harness,
) -> None:
    """The plan panel refused to draft a reply to the AI's turn ("The AI answers at once"),
    while `/tora plans add:` saved one: they say the same now."""
    await h.running.challenge_ai(
        HERE, ANN, "easy", Terms(game="torishogi", rated=False, turn_seconds=10 * HOUR)
    )
    await h.settle()
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)  # (the AI's turn: not settled)
    for attempt in (
        h.running.plans(HERE, ANN, add="c5c4 > a3a4"),
        h.running.draft_plan(HERE, ANN, pick="c5c4"),
    ):
        with pytest.raises(Refused, match="The AI answers at once"):
            await attempt


async def test_ti8_a_plan_goes_on_after_the_pass_its_monkey_decision_leaves_the_planner(
    h: Harness,
) -> None:
    """bob (Monkey) plans "ann's turn > flip O | ann's next turn > his reply": flip O (TI15)
    leaves his own turn only a pass (TI8), which the host plays. The plan was refused at
    step 2, ann's next turn checked as his own pass's actions; the pass is played on his
    copy as the host plays it, and the line goes on to ann's next turn."""
    from test_service_takebacks import TO_BOBS_OWN_PASS, torii_played

    *before, (_, last) = TO_BOBS_OWN_PASS
    await torii_played(h, before)
    saved = await h.service.plans(HERE, BOB, add=f"{last} > flip O | 1 b3 > 1 d5")
    assert saved.text.startswith("Plan 1 saved."), saved.text
    await turn(h, ANN, last)
    assert "had no choice, so the host played their turn at once" in posts(h)[-1]
    await turn(h, ANN, "1 b3")
    told = dms(h, BOB)[-1]
    assert "ann played 1 b3: your planned reply 1 d5 was played" in told, told


async def test_r28_a_plan_never_answers_a_turn_that_ends_a_game_of_the_series_in_the_next(
    h: Harness,
) -> None:
    """bob's turn ends game 1 of a series (R28) and ann opens game 2. ann's plan "bob's
    winning turn > her reply" was saved, its reply checked on game 2's new board, and
    played there as her opening the moment game 1 ended: a plan answers turns of its own
    game alone, as an agreed reset drops them."""
    terms = Terms(options={"target": 20}, turn_seconds=10 * HOUR)
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "Q"})
    await h.running.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K"})
    await h.settle()
    mirror = Game(
        target=20, challenger_setup="aggressive", opposition_setup="defensive", rulers=("Q", "K")
    )
    rng = random.Random(1)  # bob's 19th turn takes ann's ruler: game 1 ends
    for number in range(37):
        texts = planned_turn(mirror, rng, attack=True)
        user = ANN if number % 2 == 0 else BOB
        for text in texts:
            await h.running.play(HERE, user, text)
        await h.running.end_turn(HERE, user)
    await h.settle()
    winning = mirror.copy()
    theirs = planned_turn(winning, rng, attack=True)
    assert showing.series_number(winning) == 2
    opening = planned_turn(winning.copy(), rng, attack=False)  # game 2's first turn, ann's
    with pytest.raises(Refused, match="this game of the series is over"):
        await h.running.plans(HERE, ANN, add=f"{'; '.join(theirs)} > {'; '.join(opening)}")
    for text in theirs:  # the plan panel: refused as their turn is complete
        await h.running.draft_plan(HERE, ANN, pick=text)
    with pytest.raises(Refused, match="this game of the series is over"):
        await h.running.draft_plan(HERE, ANN, step="done")


async def test_ti8_a_torii_turn_that_lapsed_is_not_told_to_the_planner_as_a_pass_played(
    h: Harness,
) -> None:
    """bob's Torii turn lapsed at its deadline (no action played, shown as a pass); ann's
    DM then said "bob played pass, which none of your plans answers" under the post saying
    he played nothing. It says he played nothing."""
    await h.service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii"))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    await turn(h, ANN, "3 c1 b1 a1")
    await h.service.plans(HERE, ANN, add="1 d6 > 1 a2")
    await h.advance(10 * HOUR)  # bob's turn lapses
    await h.settle()
    told = dms(h, ANN)[-1]
    assert "bob played nothing, which none of your plans answers: 1 plan dropped." in told, told
    assert "played pass" not in told, told
