"""Swiss and round robin events through the match service, on both backends: rounds paired
when every board is decided, byes, late entry and withdrawal between rounds, a round
adjudicated at its deadline, admins' replacements, adjustments (logged) and cancellation,
and a crash in the middle of a round's pairing."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from backends import raw_sql
from event_helpers import (
    ADMIN,
    GUILD,
    HERE,
    create,
    desk_of,
    finish_setup,
    play_open_games,
    snapshot,
    user,
)

from bot.app.boards import Boards
from bot.app.listing import Listing
from bot.ladder.results import Results
from bot.service import GuildSettings, Place, Refused, Settings, Terms, User, save_guild
from bot.service.errors import NotAllowed
from bot.service.models import AI_IDS
from bot.service.ports import Stamp
from bot.service.testing import Harness
from bot.tournament import event_flow
from bot.tournament.event_desk import EventDesk
from bot.tournament.event_spec import EventSpec
from bot.tournament.events import standings_of
from storage import Config
from storage.competitions.events import EventTx
from storage.hosting.sharing import LeaseLost, Sharing
from tests.service_helpers import busy_while, gated

DAY = 86400.0


async def slow_swiss(h: Harness) -> EventDesk:
    """A desk whose Swiss "Slow" (ToriShogi, 2 rounds of 3 days) has begun with 4 players."""
    desk = await desk_of(h)
    await create(desk, "Slow", "torishogi", "swiss", rounds=2, round_seconds=3 * DAY)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Slow")
    await desk.begin(HERE, ADMIN, "Slow", admin=True)
    await h.settle()
    return desk


async def test_a_swiss_pairs_each_round_once_the_last_is_decided_with_a_bye(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    for n in (1, 2, 3, 4, 5):
        await desk.join(HERE, user(n), "Open")
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    snap = await snapshot(h, "Open")
    assert snap.event.round == 1
    [bye] = [p for p in snap.pairings if p.second_id is None]
    assert bye.outcome == "bye" and bye.first_id == 5  # the lowest seed
    live = [p for p in snap.pairings if p.second_id is not None]
    assert len(live) == 2 and all(p.hosted_id for p in live)
    # one post in the channel for the round, and a private notice to each paired player
    posts = h.delivery.texts(HERE.channel_id)
    assert sum("Round 1 of 3" in t for t in posts) == 1
    for n in (1, 2, 3, 4):
        [notice] = [d for d in h.delivery.user(n) if "round 1" in d.message.text]
        assert "Open" in notice.message.text and "ToriShogi" in notice.message.text
    for round_ in (1, 2, 3):
        assert (await snapshot(h, "Open")).event.round == round_
        assert await play_open_games(h, "Open") == 2
    snap = await snapshot(h, "Open")
    assert snap.event.status == "finished"
    byes = [p.first_id for p in snap.pairings if p.second_id is None]
    assert len(set(byes)) == 3  # nobody has two byes
    met = [frozenset((p.first_id, p.second_id)) for p in snap.pairings if p.second_id]
    assert len(set(met)) == len(met)  # no rematch
    lines = standings_of(snap)
    assert lines[0].player_id == 1 and lines[0].score == 6  # three wins (or a bye) of three
    assert any("is over: p1 won it" in t for t in h.delivery.texts(HERE.channel_id))


async def test_an_events_announcement_names_the_register_command(h: Harness) -> None:
    """It told players to join with `/tora-tournament join`, a command that does not exist."""
    desk = await desk_of(h)
    reply = await desk.create(
        HERE, ADMIN, EventSpec("Club", "torishogi", "round-robin", {}), admin=True
    )
    assert "Join with `/tora-tournament register`;" in reply.text, reply.text


async def test_an_events_announcement_and_list_line_name_its_games_options(h: Harness) -> None:
    """A Torii Swiss without powers was announced and listed as "**Cup** (Torii Swiss)":
    nothing said its games are played without the Spirits' powers (nor, for TORA, the
    board or Assassins), though a player decides on that whether to enter."""
    desk = await desk_of(h)
    reply = await desk.create(
        HERE, ADMIN, EventSpec("Cup", "torii", "swiss", {"powers": False}), admin=True
    )
    assert reply.text.startswith("**Cup** (Torii Swiss, without powers) is open"), reply.text
    listed = await desk.described((await snapshot(h, "Cup")).event)
    assert listed.startswith("**Cup** (Torii Swiss, without powers): 0 players"), listed
    spec = EventSpec("Long", "tora", "round-robin", {"board": "long", "assassins": True})
    reply = await desk.create(HERE, ADMIN, spec, admin=True)
    assert "**Long** (TORA round robin, long board, with Assassins) is open" in reply.text
    reply = await desk.create(HERE, ADMIN, EventSpec("Birds", "torishogi", "swiss", {}), admin=True)
    assert reply.text.startswith("**Birds** (ToriShogi Swiss) is open"), reply.text  # no options


async def test_a_swiss_seeds_equal_ratings_by_entry_order(h: Harness) -> None:
    """E9: seeds are the ladder rating, ties by entry order. Six unrated players (1500 each)
    enter in the order 30, 10, 20, 40, 60, 50: seeds 1-6 in that order, so round 1 pairs 1-4
    (30 v 40), 2-5 (10 v 60), 3-6 (20 v 50). Regression: equal ratings were ordered by
    Discord id (10, 20, 30, ...), whoever entered first."""
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    for n in (30, 10, 20, 40, 60, 50):
        await desk.join(HERE, User(n, f"p{n}"), "Open")
        h.clock.advance(1)
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    snap = await snapshot(h, "Open")
    pairs = {frozenset((p.first_id, p.second_id)) for p in snap.pairings if p.round == 1}
    assert pairs == {frozenset((30, 40)), frozenset((10, 60)), frozenset((20, 50))}


async def test_e9_a_seed_after_the_ladders_season_closed_is_its_final_rating(
    h: Harness,
) -> None:
    """E9: p1 won three rated ToriShogi matches, then an admin closed the ladder's season.
    p1's seed was 1500, read from the new season alone (empty); it is the closed season's
    final rating, until p1 plays in the open one."""
    for n in (1, 2, 3):
        here = Place(GUILD, 500 + n)
        await h.service.challenge(here, user(1), user(2), Terms(game="torishogi", rated=True))
        await h.service.accept(here, user(2))
        await h.service.resign(here, user(2))
        await h.settle()
    [season] = await h.store.ladders.seasons(GUILD, "torishogi")
    [top] = [s for s in await h.store.ladders.standings(season.key) if s.player_id == 1]
    assert top.rating > 1600
    await Results(h.store, h.clock.now).close_season(GUILD, "torishogi", ADMIN.id)
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    await desk.join(HERE, user(1), "Open")
    await desk.join(HERE, user(3), "Open")  # never rated: 1500
    seeds = {e.player_id: e.rating for e in (await snapshot(h, "Open")).entries}
    assert seeds == {1: round(top.rating), 3: 1500}


async def test_late_entry_and_withdrawal_take_effect_between_rounds(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Cup", "torii", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    reply = await desk.join(HERE, user(5), "Cup")
    assert "late entry" in reply.text and "round 2" in reply.text
    reply = await desk.leave(HERE, user(4), "Cup")
    assert "your 1 game not yet decided is lost by forfeit" in reply.text
    assert len((await snapshot(h, "Cup")).pairings) == 2  # round 1 is as it was
    await play_open_games(h, "Cup")
    snap = await snapshot(h, "Cup")
    second = [p for p in snap.pairings if p.round == 2]
    seated = {x for p in second for x in (p.first_id, p.second_id) if x}
    assert seated == {1, 2, 3, 5} and len(second) == 2
    with pytest.raises(Refused, match="not playing"):
        await desk.leave(HERE, user(4), "Cup")


async def test_a_player_who_withdrew_is_told_so_when_they_press_join(h: Harness) -> None:
    """A player who withdrew from a running Swiss is paired no more and cannot enter again:
    Join says so. Regression: it answered "You are in Open already", which was false."""
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Open")
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    await desk.leave(HERE, user(4), "Open")
    await h.settle()
    with pytest.raises(Refused, match=r"You withdrew from .*Open.*; you cannot enter it again"):
        await desk.join(HERE, user(4), "Open")


async def test_a_result_and_a_withdrawal_say_what_happens_next(h: Harness) -> None:
    """A board's result and a withdrawal are posted while the round goes on: each says what
    comes next, the next round paired once every board of this one is decided (after the
    last round, or in a round robin, the final standings). Regression: they said the result
    or the withdrawal alone, and the players were left to wonder when round 2 came."""
    desk = await slow_swiss(h)
    first = (await snapshot(h, "Slow")).pairings[0]
    hosted = await h.store.hosting.get(first.hosted_id)
    await h.service.resign(Place(GUILD, hosted.channel_id), user(first.second_id))
    await h.settle()
    [result] = [t for t in h.delivery.texts(hosted.channel_id) if "Slow" in t and "round 1:" in t]
    assert result.endswith("Round 2 is paired once every board of round 1 is decided."), result
    await desk.leave(HERE, user(4), "Slow")  # their game was the round's last undecided
    await h.settle()
    [left] = [t for t in h.delivery.texts(HERE.channel_id) if "has withdrawn" in t]
    assert left.endswith("Every board of round 1 is decided: round 2 is paired now."), left
    await create(desk, "Club", "torishogi", "round-robin")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Club")
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    await desk.leave(HERE, user(3), "Club")
    await h.settle()
    [left] = [t for t in h.delivery.texts(HERE.channel_id) if "p3 has withdrawn" in t]
    assert left.endswith("The final standings are posted once every game is decided."), left


async def test_a_board_s_result_names_its_match_number(h: Harness) -> None:
    """A board's result post said who beat whom, never in which match: spectators could
    not ask for its record or replay later (``/tora record number:N``)."""
    await slow_swiss(h)
    first = (await snapshot(h, "Slow")).pairings[0]
    hosted = await h.store.hosting.get(first.hosted_id)
    await h.service.resign(Place(GUILD, hosted.channel_id), user(first.second_id))
    await h.settle()
    [result] = [t for t in h.delivery.texts(hosted.channel_id) if "Slow" in t and "round 1:" in t]
    assert f"(match {hosted.id})" in result, result


async def test_a_round_is_adjudicated_at_its_deadline_never_before(h: Harness) -> None:
    desk = await slow_swiss(h)
    snap = await snapshot(h, "Slow")
    first = snap.pairings[0]
    hosted = await h.store.hosting.get(first.hosted_id)
    await h.service.resign(Place(GUILD, hosted.channel_id), user(first.second_id))
    await h.settle()
    h.clock.advance(3 * DAY - 60)
    await desk.flow.tick()
    assert (await snapshot(h, "Slow")).event.round == 1  # not yet
    h.clock.advance(120)
    await desk.flow.tick()
    await h.settle()
    snap = await snapshot(h, "Slow")
    assert snap.event.round == 2
    decided = [p for p in snap.pairings if p.round == 1]
    assert [p.decided_by for p in decided] == ["game", "deadline"]
    late = await h.store.hosting.get(decided[1].hosted_id)
    assert not late.live  # its game was called off


async def test_admins_replace_adjust_with_a_logged_reason_and_cancel(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Club", "torishogi", "round-robin")
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Club")
    with pytest.raises(NotAllowed):
        await desk.begin(HERE, user(1), "Club", admin=False)
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    snap = await snapshot(h, "Club")
    assert snap.event.rounds == 3 and len(snap.pairings) == 6  # every game at once
    assert all(p.hosted_id for p in snap.pairings)
    newcomer = User(8, "p8")
    await desk.replace(HERE, ADMIN, "Club", user(4), newcomer, admin=True)
    snap = await snapshot(h, "Club")
    assert {p.first_id for p in snap.pairings} | {p.second_id for p in snap.pairings} == {
        1,
        2,
        3,
        8,
    }
    await h.settle()
    snap = await snapshot(h, "Club")
    for p in snap.pairings:  # the newcomer's games are new ones
        hosted = await h.store.hosting.get(p.hosted_id)
        assert hosted.live and {hosted.challenger_id, hosted.opposition_id} == {
            p.first_id,
            p.second_id,
        }
    with pytest.raises(Refused, match="Give a reason"):
        await desk.adjust(HERE, ADMIN, "Club", 1, user(1), "win", " ", admin=True)
    await desk.adjust(HERE, ADMIN, "Club", 1, user(1), "win", "opponent never showed", admin=True)
    [entry] = [x for x in await h.store.events.log(snap.event.id) if x.action == "adjust"]
    assert "opponent never showed" in entry.detail and entry.actor_id == ADMIN.id
    await desk.cancel(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    snap = await snapshot(h, "Club")
    assert snap.event.status == "cancelled"
    for p in snap.pairings:
        if p.hosted_id:
            assert not (await h.store.hosting.get(p.hosted_id)).live


async def test_refusals_name_what_is_wrong_and_change_nothing(h: Harness) -> None:
    desk = await desk_of(h)
    with pytest.raises(Refused, match="The game is one of `tora`, `torishogi`, `torii`"):
        await create(desk, "X", "chess", "swiss")
    with pytest.raises(Refused, match="The format is one of"):
        await create(desk, "X", "torii", "knockout")
    with pytest.raises(Refused, match="1 to 20 rounds"):
        await create(desk, "X", "torii", "swiss", rounds=99)
    with pytest.raises(NotAllowed):
        await desk.create(HERE, user(1), EventSpec("X", "torii", "swiss", {}), admin=False)
    with pytest.raises(Refused, match="An event's name cannot hold control characters"):
        await create(desk, "X\x00", "torii", "swiss")
    with pytest.raises(Refused, match="no Swiss or round robin event called"):
        await desk.join(HERE, user(1), "X\x00")
    assert await h.store.events.of_guild(GUILD) == []
    await create(desk, "X", "torii", "swiss", max_players=2)
    with pytest.raises(Refused, match="already has an event called"):
        await create(desk, "x", "torii", "swiss")
    await desk.join(HERE, user(1), "X")
    with pytest.raises(Refused, match="already"):
        await desk.join(HERE, user(1), "X")
    await desk.join(HERE, user(2), "X")
    with pytest.raises(Refused, match="full"):
        await desk.join(HERE, user(3), "X")


async def test_a_round_robin_takes_no_more_players_than_a_correspondence_host_can_play(
    h: Harness, db: Config
) -> None:
    """A round robin opens every game of its schedule at its start: each player plays all
    of theirs at once, so it takes at most 31 players (30 games each), a double round robin
    16, and the refusal says why; one created before the cap fills at it. Regression: it
    took up to 500 (124,750 games at once, each player 499; 100 players took 104 s to
    start, under the lock every event shares)."""
    desk = await desk_of(h)
    with pytest.raises(Refused, match="A round robin takes 2 to 31 players: each plays"):
        await create(desk, "Big", "torishogi", "round-robin", max_players=32)
    with pytest.raises(Refused, match="A double round robin takes 2 to 16 players"):
        await create(desk, "Big", "torishogi", "double-round-robin", max_players=17)
    await create(desk, "Club", "torishogi", "round-robin")  # the most by default
    await create(desk, "Open", "torishogi", "swiss")
    assert (await snapshot(h, "Club")).event.max_players == 31
    assert (await snapshot(h, "Open")).event.max_players == 64
    await raw_sql(db, "UPDATE events SET max_players = 64 WHERE name = ?", "Club")  # as before
    for n in range(1, 32):
        await desk.join(HERE, user(n), "Club")
    with pytest.raises(Refused, match=r"is full \(31 players\)"):
        await desk.join(HERE, user(32), "Club")


async def test_an_event_named_like_another_in_other_case_is_refused_on_both_backends(
    h: Harness,
) -> None:
    """Event names are told apart as Python's ``casefold`` does on both backends (SQLite
    folded only ASCII letters), and so are they against the server's tournaments."""
    desk = await desk_of(h)
    await create(desk, "Été", "torii", "swiss")
    for same in ("été", "ÉTÉ"):
        with pytest.raises(Refused, match="already has an event called"):
            await create(desk, same, "torii", "swiss")
    await desk.join(HERE, user(1), "ÉtÉ")
    assert [e.player_id for e in (await snapshot(h, "été")).entries] == [1]
    assert h.store is not None
    await h.store.save_player(ADMIN.id, ADMIN.name)
    await h.store.tournaments.transact(
        lambda tx: tx.create(GUILD, 100, "Straße", "short", 49, 86400.0, ADMIN.id), 0.0
    )
    with pytest.raises(Refused, match="already has a tournament called"):
        await create(desk, "STRASSE", "torii", "swiss")


async def test_a_crash_in_the_middle_of_pairing_pairs_nobody_twice_and_drops_nobody(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = await desk_of(h)
    await create(desk, "Crash", "torishogi", "swiss", rounds=3)
    for n in range(1, 8):
        await desk.join(HERE, user(n), "Crash")
    await desk.begin(HERE, ADMIN, "Crash", admin=True)
    await h.settle()
    written = []
    real = EventTx.add_pairing

    def dies_after_two(self: EventTx, *args: object) -> int:
        if len(written) == 2:
            raise RuntimeError("the process died while pairing")
        written.append(args)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(EventTx, "add_pairing", dies_after_two)
    await play_open_games(h, "Crash")  # the round ends; pairing round 2 dies half-way
    snap = await snapshot(h, "Crash")
    assert snap.event.round == 1 and all(p.round == 1 for p in snap.pairings)
    monkeypatch.setattr(EventTx, "add_pairing", real)
    await h.crash()
    desk = await desk_of(h)  # catching up on start pairs the round, once
    await h.settle()
    snap = await snapshot(h, "Crash")
    second = [p for p in snap.pairings if p.round == 2]
    seated = [x for p in second for x in (p.first_id, p.second_id) if x]
    assert sorted(seated) == list(range(1, 8))
    await desk.flow.tick()
    assert len([p for p in (await snapshot(h, "Crash")).pairings if p.round == 2]) == 4


async def test_the_seats_key_refuses_a_second_seat_in_a_round(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Seats", "torii", "swiss")
    snap = await snapshot(h, "Seats")
    for n in (1, 2, 3):
        await h.store.save_player(n, f"p{n}")

    def twice(tx: EventTx) -> None:
        tx.add_pairing(snap.event.id, 1, 1, 1, 2)
        tx.add_pairing(snap.event.id, 1, 2, 3, 1)

    with pytest.raises(Exception):  # noqa: B017 - each backend names its own integrity error
        await h.store.events.transact(twice, h.clock.now())
    assert (await snapshot(h, "Seats")).pairings == ()


def test_a_game_that_ended_gives_the_first_player_their_outcome() -> None:
    from storage import Hosted

    def ended(ending: str, ready: str = "") -> Hosted:
        return Hosted(1, 1, 1, 1, 2, "{}", "ended", ending, 1, 2, 5, ready)

    assert event_flow.game_outcome(ended("finished"), True, "C").value == "win"
    assert event_flow.game_outcome(ended("finished"), True, None).value == "draw"
    assert event_flow.game_outcome(ended("forfeit"), True, "O").value == "forfeit_loss"
    assert event_flow.game_outcome(ended("setup lapsed", "O"), False, None).value == "forfeit_loss"
    assert event_flow.game_outcome(ended("setup lapsed"), False, None) is None
    assert event_flow.game_outcome(ended("aborted"), False, None) is None


def test_a_game_lost_on_missed_turns_mid_game_is_played_and_not_paired_again() -> None:
    """A game under way that ended because one player stopped moving (the match service's
    "forfeit": missed turns in a row), or was adjudicated at the deadline on missed turns, was
    played over the board: a win and a loss, so the two are not paired again (FIDE C.04.1)
    and the tiebreaks count the game. Only a game nobody started (no round of it over) is a
    forfeit. Regression: every "forfeit" ending was a forfeit, which the Swiss library reads
    as never played: 1 and 3 met again in round 3 of this five-player Swiss."""
    from dataclasses import replace

    from bot.tournament.records import Colour, Outcome, RoundRecord
    from bot.tournament.swiss import SwissPlayer, pair_round
    from storage import Hosted

    fresh = Hosted(1, 1, 1, 1, 2, "{}", "ended", "forfeit", 1, 2, 5, "CO", turn=2)
    timed_out = replace(fresh, turn=9)  # player 1 (the Challenger) stopped moving mid-game
    first = event_flow.game_outcome(timed_out, True, "O")
    assert first is Outcome.LOSS
    assert event_flow.game_outcome(fresh, True, "O") is Outcome.FORFEIT_LOSS
    running = replace(timed_out, phase="playing", ending=None, missed=(0, 2))
    assert event_flow.adjudicated(running) is Outcome.WIN
    assert event_flow.adjudicated(replace(running, turn=1)) is Outcome.FORFEIT_WIN
    games = [(1, 3, first), (4, 2, Outcome.DRAW), (3, 5, Outcome.DRAW), (2, 1, Outcome.LOSS)]
    history: dict[int, list[RoundRecord]] = {p: [] for p in range(1, 6)}
    for number, (a, b, outcome) in enumerate(games):
        history[a].append(RoundRecord(outcome, b, Colour.FIRST))
        history[b].append(RoundRecord(outcome.opposite, a, Colour.SECOND))
        if number in (1, 3):  # the round's bye: 5, then 4
            history[5 if number == 1 else 4].append(RoundRecord(Outcome.BYE))
    third = pair_round([SwissPlayer(p, 1500) for p in range(1, 6)], history, 5)
    assert frozenset((1, 3)) not in {frozenset((b.first, b.second)) for b in third.boards}


async def swiss_of_two(h: Harness, game: str, rounds: int) -> None:
    """A Swiss "Cup" of ``game`` begun by players 1 and 2, a day a turn."""
    desk = await desk_of(h)
    await create(desk, "Cup", game, "swiss", rounds=rounds, turn_seconds=DAY)
    for n in (1, 2):
        await desk.join(HERE, user(n), "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()


async def test_a_lapsed_setup_is_not_said_to_record_nothing(h: Harness) -> None:
    """p2 never finished the setup of a Swiss game, which the event scores a forfeit win for
    p1: the lapse post says the game is over, not that nothing is recorded."""
    await swiss_of_two(h, "tora", rounds=1)
    [row] = (await snapshot(h, "Cup")).pairings
    assert row.hosted_id is not None
    hosted = await h.store.hosting.get(row.hosted_id)
    place = Place(GUILD, hosted.channel_id)
    await h.service.setup(place, user(row.first_id), {"strategy": "aggressive"})
    await h.advance(2 * DAY)  # the other never chose: the setup lapses
    [lapsed] = [t for t in h.delivery.texts(place.channel_id) if "not finished in time" in t]
    assert "this game is over" in lapsed and "Nothing is recorded" not in lapsed, lapsed
    [row] = (await snapshot(h, "Cup")).pairings
    assert row.outcome == "forfeit_win"


async def test_e5_a_setup_lapsed_by_both_is_listed_as_played_again(h: Harness) -> None:
    """Neither player finished the setup of a Swiss game: E5 plays it again, which their
    ``/tora games`` says (not "without a result", nor a tournament's tie)."""
    await swiss_of_two(h, "tora", rounds=1)
    await h.advance(2 * DAY)  # neither chose: the setup lapses
    await h.settle()
    said = await Listing(h.service).games(user(1).id)
    assert "the setup lapsed: the game is played again" in said, said


async def test_the_ai_plays_whoever_an_odd_round_leaves_over_where_allowed(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Odd", "torishogi", "swiss", rounds=2, ai_fill="easy")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Odd")
    await desk.begin(HERE, ADMIN, "Odd", admin=True)
    await h.settle()
    snap = await snapshot(h, "Odd")
    assert all(p.second_id is not None for p in snap.pairings)  # no bye
    [against_ai] = [p for p in snap.pairings if p.second_id == AI_IDS["easy"]]
    assert against_ai.first_id == 3 and against_ai.hosted_id is not None
    assert any("p3 v the AI (easy)" in t for t in h.delivery.texts(HERE.channel_id))
    await play_open_games(h, "Odd", lambda row: row.first_id if row.second_id < 0 else 2)
    snap = await snapshot(h, "Odd")
    assert snap.event.round == 2  # the AI's game counted like any other
    assert {s.player_id for s in standings_of(snap)} == {1, 2, 3}  # the AI is not ranked


async def test_e11_an_ai_fill_is_refused_where_the_servers_admins_turned_the_ai_off(
    h: Harness,
) -> None:
    """E11: with ``ai_matches:0`` (matches against the AI off here) a Swiss with
    ``ai_fill:easy`` was accepted, and its odd player played the AI. It is refused, naming
    the setting."""
    await save_guild(h.store, GUILD, GuildSettings(ai_matches=0))
    desk = await desk_of(h)
    with pytest.raises(Refused, match=r"turned matches against the AI off .*ai_matches:0"):
        await create(desk, "Odd", "torishogi", "swiss", rounds=2, ai_fill="easy")
    assert await h.store.events.named(GUILD, "Odd") is None


async def test_e11_the_odd_player_has_the_bye_once_the_ai_is_turned_off_here(h: Harness) -> None:
    """E11: the admins turned matches against the AI off after the event was created: its
    odd player gets the round's bye, not a match against the AI."""
    desk = await desk_of(h)
    await create(desk, "Odd", "torishogi", "swiss", rounds=2, ai_fill="easy")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Odd")
    await save_guild(h.store, GUILD, GuildSettings(ai_matches=0))
    await desk.begin(HERE, ADMIN, "Odd", admin=True)
    await h.settle()
    [bye] = [p for p in (await snapshot(h, "Odd")).pairings if p.second_id is None]
    assert bye.first_id == 3 and bye.outcome == "bye"
    assert await h.store.live_ai_matches(GUILD) == 0
    assert any("bye: p3" in t for t in h.delivery.texts(HERE.channel_id))


async def test_the_ai_in_a_double_round_robin_moves_first_in_one_of_each_players_games(
    h: Harness,
) -> None:
    """E11: the AI takes the Berger table's ghost's seat, so each player meets it once with
    each colour (it used to be seated second on every board, both cycles alike)."""
    desk = await desk_of(h)
    await create(desk, "Club", "torii", "double-round-robin", ai_fill="easy")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Club")
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    ai = AI_IDS["easy"]
    pairings = (await snapshot(h, "Club")).pairings
    against_ai = [p for p in pairings if ai in (p.first_id, p.second_id)]
    for n in (1, 2, 3):
        mine = [p for p in against_ai if n in (p.first_id, p.second_id)]
        assert sorted(p.first_id == n for p in mine) == [False, True], mine
    assert all(p.hosted_id is not None for p in against_ai)  # opened with the AI first too
    assert any("the AI (easy) v p" in t for t in h.delivery.texts(HERE.channel_id))


async def test_an_event_games_end_post_offers_no_rematch(h: Harness) -> None:
    """A rated Swiss game's end post offered a Rematch: accepted, a rated match of the same
    terms outside the event (its next round is the event's to pair). It offers none, and a
    rematch of it (an old button, a forged press) is refused."""
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=2, rated=True)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Open")
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    row = (await snapshot(h, "Open")).pairings[0]
    hosted = await h.store.hosting.get(row.hosted_id)
    place = Place(GUILD, hosted.channel_id)
    await h.service.resign(place, user(row.second_id))
    await h.settle()
    [end] = [m for m in h.delivery.channel(hosted.channel_id) if "The full record" in m.text]
    assert "rematch" not in end.text and (end.buttons is None or not end.buttons.verbs)
    with pytest.raises(Refused, match="a tournament's game: the tournament pairs the next"):
        await h.service.rematch(place, user(row.first_id), Stamp(hosted.id, hosted.turn))


async def test_an_event_starts_at_its_set_time_and_entries_close_on_theirs(h: Harness) -> None:
    desk = await desk_of(h)
    hour = 3600.0
    await create(desk, "Timed", "torii", "swiss", rounds=2, entry_seconds=hour, starts_in=2 * hour)
    await desk.join(HERE, user(1), "Timed")
    await desk.join(HERE, user(2), "Timed")
    h.clock.advance(hour + 1)
    with pytest.raises(Refused, match=r"Entries to \*\*Timed\*\* .* have closed"):
        await desk.join(HERE, user(3), "Timed")
    await desk.flow.tick()
    assert (await snapshot(h, "Timed")).event.status == "registering"  # not before its time
    h.clock.advance(hour)
    await desk.flow.tick()
    await h.settle()
    snap = await snapshot(h, "Timed")
    assert snap.event.status == "running" and snap.event.round == 1
    [board] = snap.pairings
    assert {board.first_id, board.second_id} == {1, 2} and board.hosted_id is not None


async def test_a_set_start_without_enough_players_waits_for_the_organiser(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Empty", "torii", "round-robin", starts_in=60.0)
    await desk.join(HERE, user(1), "Empty")
    h.clock.advance(61)
    await desk.flow.tick()
    await h.settle()
    snap = await snapshot(h, "Empty")
    assert snap.event.status == "registering" and snap.event.starts_at is None
    [said] = [t for t in h.delivery.texts(HERE.channel_id) if "needs at least two" in t]
    assert "starts once the organiser starts it" in said


async def test_the_service_is_busy_while_the_events_tick(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tick of the Swiss and round robin events starts rounds and posts: the service
    counts it in ``busy`` (an idle garbage collection waits for it) until it is done."""
    assert h.service is not None and h.store is not None
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    events, reading, going_on = h.store.events, asyncio.Event(), asyncio.Event()
    monkeypatch.setattr(events, "active", gated(events.active, reading, going_on))
    assert not h.service.busy()
    tick = desk.flow.tick()
    await busy_while(h.service, tick, reading.is_set, going_on.set, "the events are ticking")


@pytest.mark.parametrize("lands", ["before the deadline's look", "as it is called off"])
async def test_a_game_resigned_as_the_round_deadline_passes_keeps_its_real_result(
    h: Harness, monkeypatch: pytest.MonkeyPatch, lands: str
) -> None:
    """A resignation that lands while the deadline's tick runs (after the tick's look at the
    games that ended, or between the adjudication and calling the game off) is the game's
    result: the winner keeps the win, never a deadline draw."""
    from bot.service import MatchService
    from bot.tournament.event_flow import EventFlow

    desk = await slow_swiss(h)
    row = (await snapshot(h, "Slow")).pairings[0]
    hosted = await h.store.hosting.get(row.hosted_id)
    place = Place(GUILD, hosted.channel_id)
    resigned: list[asyncio.Task] = []

    async def resign() -> None:  # its end is heard under the event's lock: a task of its own
        if not resigned:
            resigned.append(asyncio.create_task(h.service.resign(place, user(row.second_id))))
            while (await h.store.hosting.get(row.hosted_id)).live:
                await asyncio.sleep(0.01)

    if lands == "before the deadline's look":
        real_adjudicate = EventFlow._adjudicate

        async def adjudicate(self: EventFlow, event_id: int) -> None:
            await resign()
            await real_adjudicate(self, event_id)

        monkeypatch.setattr(EventFlow, "_adjudicate", adjudicate)
    else:
        real_cancel = MatchService.cancel

        async def cancel(self: MatchService, where: Place, *args, **kw):  # type: ignore[no-untyped-def]
            if where == place:
                await resign()
            return await real_cancel(self, where, *args, **kw)

        monkeypatch.setattr(MatchService, "cancel", cancel)
    h.clock.advance(3 * DAY + 1)
    await desk.flow.tick()
    await asyncio.gather(*resigned)
    await h.settle()
    decided = next(p for p in (await snapshot(h, "Slow")).pairings if p.id == row.id)
    assert (decided.outcome, decided.decided_by) == ("win", "game")
    said = [t for t in h.delivery.texts(hosted.channel_id) if "round 1:" in t]
    assert said and " beat " in said[-1]  # the thread's last word on it is the win


@pytest.mark.parametrize("fmt", ["round-robin", "swiss"])
async def test_a_player_who_withdraws_loses_every_game_not_yet_decided(
    h: Harness, fmt: str
) -> None:
    """A withdrawal loses the leaver's undecided games by forfeit, in every format: a round
    robin opens all its games at the start, so "not yet begun" was none of them and the
    leaver's games ran on to their deadlines. Those being played are called off; the
    others' games go on."""
    desk = await desk_of(h)
    await create(desk, "Club", "torishogi", fmt, rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Club")
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    mine = [p for p in (await snapshot(h, "Club")).pairings if 4 in (p.first_id, p.second_id)]
    reply = await desk.leave(HERE, user(4), "Club")
    lost = len(mine)
    assert lost == (3 if fmt == "round-robin" else 1)
    assert f"your {lost} game" in reply.text and "lost by forfeit" in reply.text
    await h.settle()
    snap = await snapshot(h, "Club")
    for row in (p for p in snap.pairings if 4 in (p.first_id, p.second_id)):
        assert row.decided_by == "withdrawal"
        assert row.outcome == ("forfeit_loss" if row.first_id == 4 else "forfeit_win")
        assert not (await h.store.hosting.get(row.hosted_id)).live  # called off
    others = [p for p in snap.pairings if 4 not in (p.first_id, p.second_id) and p.round == 1]
    assert [p.outcome for p in others] == [None]
    assert (await h.store.hosting.get(others[0].hosted_id)).live  # goes on


async def test_a_round_robin_leaver_keeps_no_bye_of_a_later_round_and_a_newcomer_takes_it(
    h: Harness,
) -> None:
    """E3, E7: a withdrawal loses the leaver's undecided games and pairs them no more; a
    replacement hands the newcomer the leaver's boards to come. In a three-player round
    robin whose bye is worth a point, p3's bye is in round 2. Regression: the byes, written
    decided at the start, stayed with the leaver: a point for a round after they left, and
    none for the newcomer."""
    desk = await desk_of(h)
    for name in ("Trio", "Duo"):
        await create(desk, name, "torishogi", "round-robin", bye_points=2)
        for n in (1, 2, 3):
            await desk.join(HERE, user(n), name)
        await desk.begin(HERE, ADMIN, name, admin=True)
    await h.settle()
    byes = [p for p in (await snapshot(h, "Trio")).pairings if p.second_id is None]
    assert [(p.round, p.first_id) for p in byes] == [(1, 1), (2, 3), (3, 2)]
    await desk.leave(HERE, user(3), "Trio")
    await desk.replace(HERE, ADMIN, "Duo", user(3), User(8, "p8"), admin=True)
    await h.settle()
    snap = await snapshot(h, "Trio")
    [line] = [s for s in standings_of(snap) if s.player_id == 3]
    assert line.score == 0
    assert [(p.round, p.first_id) for p in snap.pairings if p.second_id is None] == [(1, 1), (3, 2)]
    snap = await snapshot(h, "Duo")
    byes = [(p.round, p.first_id) for p in snap.pairings if p.second_id is None]
    assert byes == [(1, 1), (2, 8), (3, 2)]
    [line] = [s for s in standings_of(snap) if s.player_id == 8]
    assert line.score == 2


async def test_a_round_robin_reads_as_the_round_being_played_not_its_last(h: Harness) -> None:
    """A round robin pairs every round at its start, yet it is at round 1 until round 1's
    games are decided: the list, the standings (after the rounds completed), the standings
    picture and /pairings all say so, not "round 3 of 3" before a move."""
    from event_helpers import finish_setup

    from bot.tournament.event_tables import standings_table

    desk = await desk_of(h)
    await create(desk, "Club", "torishogi", "round-robin")
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Club")
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    assert "round 1 of 3" in await desk.described((await snapshot(h, "Club")).event)
    assert "no round complete yet" in await desk.standings_text(HERE, "Club")
    assert "round 1:" in (await desk.pairings(HERE, "Club")).text
    for row in (await snapshot(h, "Club")).pairings:
        if row.round == 1:
            hosted = await h.store.hosting.get(row.hosted_id)
            if hosted.phase == "setup":
                await finish_setup(h, hosted, (user(row.first_id), user(row.second_id)))
            await h.service.resign(Place(GUILD, hosted.channel_id), user(row.second_id))
    await h.settle()
    assert "round 2 of 3" in await desk.described((await snapshot(h, "Club")).event)
    assert "after round 1:" in await desk.standings_text(HERE, "Club")
    assert "round 2:" in (await desk.pairings(HERE, "Club")).text
    snap = await snapshot(h, "Club")
    names = await h.store.events.names(e.player_id for e in snap.entries)
    assert "round 2 of 3" in standings_table(snap, names).title


async def test_an_event_not_started_reads_as_before_its_first_round_not_round_0(
    h: Harness,
) -> None:
    """E1: before its start a round robin of three has no current round. /pairings said
    "has no round 0 paired" and the standings picture "round 0 of 1" (its three rounds are
    counted at the start); they say it has not started."""
    from bot.tournament.event_tables import standings_table

    desk = await desk_of(h)
    await create(desk, "Club", "torishogi", "round-robin")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Club")
    text = (await desk.pairings(HERE, "Club")).text
    assert "has not started yet: its first round is paired when it starts" in text, text
    assert "round 0" not in (await desk.pairings(HERE, "Club", 2)).text
    snap = await snapshot(h, "Club")
    title = standings_table(snap, await h.store.events.names([1, 2, 3])).title
    assert title == "Club - ToriShogi round robin, before its first round", title
    await desk.cancel(HERE, ADMIN, "Club", admin=True)
    text = (await desk.pairings(HERE, "Club")).text
    assert "is over, and no round of it was ever paired" in text, text


@pytest.mark.parametrize("paired", ["the first round", "the second round"])
async def test_a_late_entry_made_while_a_round_is_paired_plays_in_it(
    h: Harness, monkeypatch: pytest.MonkeyPatch, paired: str
) -> None:
    """A player who enters while the Swiss library is pairing a round (at the start, or
    after a round) is told they are paired from that round, and is: the round is paired
    again with them, not written without them as a zero-point absence."""
    import threading

    from bot.tournament.events import history
    from bot.tournament.records import Outcome

    desk = await desk_of(h)
    await create(desk, "Cup", "torii", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Cup")
    if paired == "the second round":
        await desk.begin(HERE, ADMIN, "Cup", admin=True)
        await h.settle()
    entered, release = threading.Event(), threading.Event()
    real = event_flow.next_rounds

    def slow(snap):  # type: ignore[no-untyped-def]  # the library taking its seconds
        entered.set()
        release.wait(30)
        return real(snap)

    monkeypatch.setattr(event_flow, "next_rounds", slow)
    if paired == "the first round":
        pairing = asyncio.create_task(desk.begin(HERE, ADMIN, "Cup", admin=True))
    else:
        pairing = asyncio.create_task(play_open_games(h, "Cup"))
    while not entered.is_set():
        await asyncio.sleep(0.01)
    number = 1 if paired == "the first round" else 2
    reply = await desk.join(HERE, user(5), "Cup")
    assert f"paired from round {number}" in reply.text
    release.set()
    await pairing
    await h.settle()
    snap = await snapshot(h, "Cup")
    assert snap.event.round == number
    seated = {x for p in snap.pairings if p.round == number for x in (p.first_id, p.second_id)}
    assert 5 in seated
    absent = [r for r in history(snap)[5] if r.outcome is Outcome.ABSENT]
    assert len(absent) == number - 1  # only the rounds before their entry


async def test_an_event_being_moved_on_for_minutes_is_not_taken_by_a_second_process(
    h: Harness,
) -> None:
    """Opening the games of a large round takes minutes: the process doing it renews the
    event's lease meanwhile, so a second process's tick skips it instead of opening second
    games for the boards not yet opened. A process that lost its lease all the same (it
    hung past it) stops before its next effect."""
    desk = await desk_of(h)
    other = Sharing(h.store.sharing._writer)  # a second process on the same database
    async with desk.flow.guarded(1, "Cup"):
        for _ in range(6):  # three minutes at work
            h.clock.advance(30)
            await asyncio.sleep(0.05)
        assert not await other.claim("event:1", h.clock.now(), 60.0)
        desk.flow.check_lease()  # still its own
    assert await other.claim("event:1", h.clock.now(), 60.0)  # given back at the end
    await other.release("event:1")
    async with desk.flow.guarded(1, "Cup"):
        h.clock.advance(61)  # hung past its lease, without a chance to renew it
        assert await other.claim("event:1", h.clock.now(), 60.0)
        h.clock.advance(30)
        await asyncio.sleep(0.05)
        with pytest.raises(LeaseLost):
            desk.flow.check_lease()


async def test_a_dead_process_s_event_lease_runs_out_after_tora_claim_seconds(db: Config) -> None:
    """Regression: DEPLOY.md says a process that dies holding a lease keeps it until
    TORA_CLAIM_SECONDS have passed, but the events' and tournaments' leases were taken for
    ``Sharing.holding``'s fixed 60 s whatever it was set to: with TORA_CLAIM_SECONDS=10, an
    event whose process died stayed stuck a minute."""
    settings = Settings(claim_seconds=10.0, poll_seconds=1.0, ai_processes=0)
    h = Harness(db, settings=settings)
    await h.open()
    try:
        desk = await desk_of(h)
        async with desk.flow.guarded(1, "Cup"):  # this process would die here
            [(expires_at,)] = await raw_sql(
                db, "SELECT expires_at FROM leases WHERE name = ?", "event:1"
            )
        # the others may take it over once this expiry has passed
        assert expires_at - h.clock.now() <= settings.claim_seconds
    finally:
        await h.close()


async def test_a_renewal_of_a_lease_that_fails_is_tried_again_and_breaks_nothing(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database away as the lease is renewed: the renewal is tried again at its next
    time (it was left dead, the lease running out under work that went on as if held), and
    leaving the block raises nothing of it (it was raised there, over the block's own
    outcome)."""
    desk = await desk_of(h)
    sharing = h.store.sharing
    claim, calls = sharing.claim, []
    failures = [ConnectionError("the database went away (simulated)")]

    async def flaky(name: str, now: float, seconds: float) -> bool:
        calls.append(now)
        if len(calls) == 2:  # the first renewal
            raise failures.pop()
        return await claim(name, now, seconds)

    monkeypatch.setattr(sharing, "claim", flaky)
    other = Sharing(sharing._writer)
    async with desk.flow.guarded(1, "Cup"):
        for _ in range(4):  # two minutes: one renewal failed, the next ones went through
            h.clock.advance(30)
            await asyncio.sleep(0.05)
        assert not failures
        assert not await other.claim("event:1", h.clock.now(), 60.0)
        desk.flow.check_lease()


async def test_leaving_an_event_another_process_is_moving_on_is_refused_by_its_name(
    h: Harness,
) -> None:
    """Regression: a player's leave while another process held the event's lease (its tick
    opening a large round's games: minutes) polled a minute, then raised a bare
    TimeoutError: "Something went wrong" after a minute. Now the player is told at once
    which event is busy, and to try again."""
    desk = await desk_of(h)
    await create(desk, "Cup", "torii", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    event_id = (await snapshot(h, "Cup")).event.id
    other = Sharing(h.store.sharing._writer)  # a second process on the same database
    assert await other.claim(f"event:{event_id}", h.clock.now(), 600.0)  # at work, alive
    with pytest.raises(Refused, match=r"\*\*Cup\*\* is being updated"):
        await asyncio.wait_for(desk.leave(HERE, user(4), "Cup"), 10)
    await other.release(f"event:{event_id}")
    await desk.leave(HERE, user(4), "Cup")  # once it is free, as one process alone


async def test_an_event_another_process_is_moving_on_does_not_hold_up_every_other_event(
    h: Harness,
) -> None:
    """Regression: the events' tick waited for each event's lease while it held the
    process's one lock of all events, so with Cup's lease held by another process (its
    tick opening a round's games) the tick waited there a minute, and every command of any
    other event waited behind it. The tick now skips an event another process holds."""
    desk = await desk_of(h)
    await create(desk, "Cup", "torii", "swiss", rounds=3)
    await create(desk, "Club", "torii", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Cup")
        await desk.join(HERE, user(n + 10), "Club")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    cup = (await snapshot(h, "Cup")).event.id
    other = Sharing(h.store.sharing._writer)  # a second process on the same database
    assert await other.claim(f"event:{cup}", h.clock.now(), 600.0)  # at work on Cup, alive
    ticking = asyncio.create_task(desk.flow.tick())
    try:
        await asyncio.sleep(0.5)  # the tick has come to Cup
        try:
            reply = await asyncio.wait_for(desk.begin(HERE, ADMIN, "Club", admin=True), 5)
        except TimeoutError:
            pytest.fail("starting Club waited behind another process's work on Cup")
        assert "has started" in reply.text
        await asyncio.wait_for(ticking, 5)  # Cup skipped: its holder moves it on
    finally:
        ticking.cancel()
        await asyncio.gather(ticking, return_exceptions=True)


async def test_resigning_an_event_game_answers_while_another_process_moves_the_event_on(
    h: Harness,
) -> None:
    """Regression: a game's end is heard by the event's listener inside the command that
    ended it, which waited for the event's lease: held by another process (its tick opening
    boards, minutes), the resignation was answered only after a minute of polling. The
    listener now leaves the ending to the catch-up of the next tick."""
    desk = await desk_of(h)
    await create(desk, "Cup", "torii", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    snap = await snapshot(h, "Cup")
    row = next(r for r in snap.pairings if r.hosted_id is not None and r.second_id)
    hosted = await h.store.hosting.get(row.hosted_id)
    place = Place(HERE.guild_id, hosted.channel_id)
    if hosted.phase == "setup":
        await finish_setup(h, hosted, (user(row.first_id), user(row.second_id)))
    other = Sharing(h.store.sharing._writer)  # a second process on the same database
    assert await other.claim(f"event:{snap.event.id}", h.clock.now(), 600.0)
    try:
        await asyncio.wait_for(h.service.resign(place, user(row.second_id)), 5)
    except TimeoutError:
        pytest.fail("the resignation was not answered: its ending waits for the event's lease")
    await other.release(f"event:{snap.event.id}")
    await desk.flow.tick()  # the catch-up records it
    [board] = [r for r in (await snapshot(h, "Cup")).pairings if r.id == row.id]
    assert board.outcome is not None


async def test_a_board_game_ended_while_its_opener_was_down_keeps_its_result(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``EventFlow._open_game`` opens the board's game (committed, announced in
    its thread), then records it on the board in a second transaction. The process dying in
    between (here: that write failing once) leaves a live game no board knows; if a player
    resigned it meanwhile, its ending was ignored (no board had it), and the next step,
    finding the thread free, opened a second game for the board: the result was lost and
    the players played again. The ended game is now adopted with its result."""
    desk = await desk_of(h)
    await create(desk, "Cup", "torii", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Cup")
    real, crashed = EventTx.set_hosted, []

    def dies_once(self: EventTx, pairing_id: int, hosted_id: int) -> None:
        if not crashed:
            crashed.append(pairing_id)
            raise RuntimeError("the process died here (simulated)")
        real(self, pairing_id, hosted_id)

    monkeypatch.setattr(EventTx, "set_hosted", dies_once)
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    [board] = [r for r in (await snapshot(h, "Cup")).pairings if r.id == crashed[0]]
    assert board.hosted_id is None and board.thread_id is not None
    hosted = await h.store.hosting.live_in_channel(board.thread_id)
    assert hosted is not None  # the game the players were shown
    place = Place(HERE.guild_id, board.thread_id)
    if hosted.phase == "setup":
        await finish_setup(h, hosted, (user(board.first_id), user(board.second_id or 0)))
    await h.service.resign(place, user(board.second_id or 0))  # before the successor comes
    await h.settle()
    await desk.flow.tick()  # the successor moves the event on
    await h.settle()
    [board] = [r for r in (await snapshot(h, "Cup")).pairings if r.id == crashed[0]]
    again = await h.store.hosting.live_in_channel(board.thread_id)
    assert again is None, "a second game was opened for a board whose game was resigned"
    assert board.outcome is not None


async def test_a_board_in_a_channel_without_threads_is_not_an_old_casual_match(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where Discord opens no thread, a board's game is played in the event's channel. p1
    and p2 played a casual match there before. The event's step stores the channel as the
    board's, then dies before opening the game (here: ``open_match`` failing once); the
    next step, finding no live game there, takes the latest ended match of the two in
    that channel, unrecorded by any board, for the board's game opened before a crash:
    their old casual match, whose result would be scored as the board's. In the event's
    channel an ended match of the two is not the board's: its game is opened."""
    from ladder_fixtures import play_out

    from bot.service import MatchService, Terms

    h.threads.no_threads.add(HERE.channel_id)
    one, two = user(1), user(2)
    for player in (one, two):
        await h.store.save_player(player.id, player.name)
    await h.service.open_match(HERE, one, two, Terms(rated=False))
    await play_out(h, HERE.channel_id, one)  # their casual match, over
    desk = await desk_of(h)
    await create(desk, "Cup", "torishogi", "round-robin")
    for player in (one, two):
        await desk.join(HERE, player, "Cup")
    real, failed = MatchService.open_match, []

    async def dies_once(self: MatchService, *args: object, **kwargs: object) -> object:
        if not failed:
            failed.append(True)
            raise RuntimeError("the process died before opening the game (simulated)")
        return await real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MatchService, "open_match", dies_once)
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    await desk.flow.tick()  # the next step
    await h.settle()
    assert failed
    [board] = [r for r in (await snapshot(h, "Cup")).pairings if r.second_id is not None]
    assert board.outcome is None, "the old casual match was scored as the board's game"
    assert await h.store.hosting.live_in_channel(HERE.channel_id) is not None


async def test_an_event_board_in_a_channel_without_threads_is_not_a_live_casual_match(
    h: Harness,
) -> None:
    """The same for an event (7be92cf's board half): p1 and p2 are playing a casual match
    in the event's channel, where Discord opens no thread, when the round robin begins;
    ``EventFlow._open_game`` takes the live match of the two there, no board's game, for
    the board's (as if opened before a crash), and its result decides the board. The
    board waits for the channel to free up."""
    from ladder_fixtures import play_out

    from bot.service import Terms

    h.threads.no_threads.add(HERE.channel_id)
    one, two = user(1), user(2)
    for player in (one, two):
        await h.store.save_player(player.id, player.name)
    casual = await h.service.open_match(HERE, one, two, Terms(rated=False))
    desk = await desk_of(h)
    await create(desk, "Cup", "torishogi", "round-robin")
    for player in (one, two):
        await desk.join(HERE, player, "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    [board] = [r for r in (await snapshot(h, "Cup")).pairings if r.second_id is not None]
    assert board.hosted_id != casual.id, "their casual match was taken as the board's game"
    await play_out(h, HERE.channel_id, one)  # the channel frees up: the board's game opens
    await desk.flow.tick()
    await h.settle()
    [board] = [r for r in (await snapshot(h, "Cup")).pairings if r.second_id is not None]
    assert board.outcome is None and board.hosted_id not in (None, casual.id)


async def test_a_game_left_running_by_a_crash_after_its_board_was_decided_is_called_off(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between deciding a board (here at the round's deadline) and calling its game
    off left the game running, since only undecided boards were looked at again: the
    catch-up on start calls off the live games of decided boards."""
    from bot.service import MatchService

    desk = await slow_swiss(h)

    async def dies(*args, **kw):  # type: ignore[no-untyped-def]
        raise RuntimeError("the process died before calling the game off")

    monkeypatch.setattr(MatchService, "cancel", dies)
    h.clock.advance(3 * DAY + 1)
    await desk.flow.tick()  # the first board is decided, then the process dies
    monkeypatch.undo()
    await h.crash()
    await desk_of(h)  # the catch-up on start
    await h.settle()
    first = [p for p in (await snapshot(h, "Slow")).pairings if p.round == 1]
    assert [p.decided_by for p in first] == ["deadline", "deadline"]
    for row in first:
        assert not (await h.store.hosting.get(row.hosted_id)).live


async def test_a_round_too_long_for_one_post_says_how_many_boards_are_left_out(
    h: Harness,
) -> None:
    """A round of hundreds of boards does not fit in one Discord message: the round's post
    and /pairings end with "...and N more" instead of stopping mid-line."""
    from dataclasses import replace

    from bot.tournament.event_tables import pairings_text
    from bot.tournament.event_texts import round_opened
    from bot.tournament.records import Board, PairedRound
    from storage.competitions.events import PairingRow

    desk = await desk_of(h)
    await create(desk, "Big", "torishogi", "swiss", rounds=3)
    snap = await snapshot(h, "Big")
    count = 300
    names = {n: f"player number {n:04d}" for n in range(1, 2 * count + 1)}
    rows = tuple(
        PairingRow(b, 1, b, 2 * b - 1, 2 * b, 1000 + b, None, None, None, None)
        for b in range(1, count + 1)
    )
    running = replace(snap.event, status="running", round=1)
    listed = pairings_text(replace(snap, event=running, pairings=rows), names, 1)
    boards = tuple(Board(2 * b - 1, 2 * b) for b in range(1, count + 1))
    posted = round_opened(snap.event, 0, (PairedRound(boards, None),), None, 0.0, names)
    for text in (listed, posted):
        assert len(text) <= 2000
        shown = len(re.findall(r"^\d+\. player number \d{4} v player number \d{4}", text, re.M))
        assert text.endswith(f"...and {count - shown} more"), text[-80:]


async def test_a_game_that_cannot_be_opened_does_not_keep_the_other_boards_from_theirs(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: only a refusal or an Undeliverable thread was caught board by board;
    anything else (a 5xx, a Discord error the adapter raised as it was) stopped the start
    at that board, with the event running and the later boards without a game until the
    next tick. The failure is logged, the others open, and the next step opens it."""
    opening = h.threads.open_thread
    failing = [True]

    async def first_fails(channel_id: int, name: str) -> int:
        if failing.pop() if failing else False:
            raise RuntimeError("503 Service Unavailable")
        return await opening(channel_id, name)

    h.threads.open_thread = first_fails  # type: ignore[method-assign]
    desk = await desk_of(h)
    await create(desk, "Club", "torishogi", "round-robin")
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Club")
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    assert "its game could not be opened" in caplog.text
    boards = (await snapshot(h, "Club")).pairings
    assert [row.hosted_id is None for row in boards] == [True] + [False] * 5
    await desk.flow.tick()
    assert all(row.hosted_id for row in (await snapshot(h, "Club")).pairings)


async def test_an_events_join_is_looked_at_once_its_entries_close_before_its_start(
    h: Harness,
) -> None:
    """Regression: an event whose entries close before it starts (``entry`` without
    ``starts_in``) kept its announcement's Join enabled until an admin started it: the
    tick of a registering event told its watchers nothing. It does once entries close."""
    desk = await desk_of(h)
    await create(desk, "Late", "torii", "swiss", entry_seconds=DAY)
    event = (await snapshot(h, "Late")).event
    await desk.remember_buttons(event.id, 10, 11)
    told: list[int] = []
    desk.flow.watchers.append(told.append)
    await desk.flow.tick()
    assert told == [] and await desk.stale_buttons(event.id) == []  # entries still open
    h.clock.advance(2 * DAY)
    await desk.flow.tick()
    assert [n.stale for n in await desk.stale_buttons(event.id)] == [("enter",)]
    assert told == [event.id]


async def test_a_flood_of_joins_and_leaves_is_refused_at_the_commands_allowance(
    tmp_path,
) -> None:
    """Regression: a match command counts against the user's allowance (``Settings.burst``
    at once, then one every ``every`` seconds), but joining and leaving an event, each a
    database write, counted nowhere: a script pressing Join and Leave wrote without end."""
    settings = Settings(burst=4, every=60.0)
    async with Harness(tmp_path / "t.sqlite3", settings=settings) as h:
        desk = await desk_of(h)
        await create(desk, "Flood", "torii", "swiss", rounds=3)
        with pytest.raises(Refused, match="faster than I take them"):
            for _ in range(10):
                await desk.join(HERE, user(1), "Flood")
                await desk.leave(HERE, user(1), "Flood")
        assert len((await snapshot(h, "Flood")).entries) <= 1


async def test_a_swiss_round_is_paired_off_the_bots_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Swiss round's pairing weighs every pair of players in Python: "a 500-player round
    takes seconds" (docs/TOURNAMENTS.md). It ran in a thread of the bot's process, which
    docs/SERVICE.md measured to hold up every channel all the same (the interpreter lock:
    "the other channels' posts came 300-450 ms late" for turn ends of a tenth of that),
    where the rules' workers (another process) are there for such work."""
    import bot.tournament.events as events

    paired_here: list[int] = []
    pair_round = events.pair_round

    def counted(players: Any, *args: Any) -> Any:
        paired_here.append(len(players))
        return pair_round(players, *args)

    monkeypatch.setattr(events, "pair_round", counted)
    settings = Settings(
        burst=1000, every=0.001, rules_processes=1, ai_processes=0, draw_processes=0,
        ai_seconds=0.05, auto_away=False,
    )  # fmt: skip
    async with Harness(tmp_path / "swiss.sqlite3", settings=settings) as h:
        desk = await desk_of(h)
        await create(desk, "Open", "torishogi", "swiss", rounds=2)
        for n in (1, 2, 3, 4):
            await desk.join(HERE, user(n), "Open")
        await desk.begin(HERE, ADMIN, "Open", admin=True)
        await h.settle()
        assert await play_open_games(h, "Open") == 2  # round 1 decided: round 2 is paired
        assert (await snapshot(h, "Open")).event.round == 2
    assert paired_here == [], "a Swiss round was paired in the bot's own process"


def test_a_round_robins_schedule_post_fits_one_discord_message() -> None:
    """The round's one post in the event's channel keeps "as many boards as fit in one
    Discord message" and counts the rest; a bot's message holds 2,000 characters (4,000 is
    a Nitro user's), so a round robin of twelve long names is posted today as two messages,
    the second starting in the middle of the schedule (``LONGEST_POST = 3900``)."""
    from bot.tournament import event_texts
    from bot.tournament.records import Board, PairedRound
    from storage.competitions.events import EventRow

    event = EventRow(
        guild_id=1, channel_id=2, name="Walpurgis Round Robin", game="tora", options="{}",
        format="round-robin", rounds=11, turn_seconds=86400.0, round_seconds=0.0, rated=True,
        bye_points=2, tiebreaks="", max_players=12, ai_fill=None, organiser_id=3,
        entry_closes=None, starts_at=None, away_days=True, id=1, status="running", round=1,
        round_deadline=None, created_at=0.0, started_at=0.0, finished_at=None,
    )  # fmt: skip
    names = {p: f"Großmeisterin Walpurgisnacht {p:03d}"[:32] for p in range(12)}
    rounds = [
        PairedRound(tuple(Board(r * 2 % 12, (r * 2 + 1 + b) % 12) for b in range(6)), None)
        for r in range(11)
    ]
    text = event_texts.round_opened(event, 0, rounds, None, 0.0, names)
    assert len(text) <= 2000, len(text)


async def test_a_withdrawn_player_stays_marked_on_the_standings_picture_whatever_the_name(
    h: Harness,
) -> None:
    """A player who left a Swiss is "(withdrawn)" on the standings picture (the text leaves
    it to the image); with Discord's longest name the cell was cut to the player column with
    the mark, so the picture showed them as still playing. The name is cut, not the mark."""
    from dataclasses import replace

    from bot.tournament.event_tables import standings_table
    from render.event_table import event_table_png

    longest = "Bartholomew Montgomery-Whitfield"  # 32 characters: Discord's longest name
    desk = await desk_of(h)
    await create(desk, "Spring", "torishogi", "swiss", rounds=3)
    leaver = User(4, longest)
    for player in (user(1), user(2), user(3), leaver):
        await desk.join(HERE, player, "Spring")
    await desk.begin(HERE, ADMIN, "Spring", admin=True)
    await h.settle()
    await desk.leave(HERE, leaver, "Spring")
    await h.settle()
    snap = await snapshot(h, "Spring")
    names = await h.store.events.names(e.player_id for e in snap.entries)
    table = standings_table(snap, names)
    assert any(row[1] == f"{longest} (withdrawn)" for row in table.rows)
    bare = tuple((row[0], longest, *row[2:]) if longest in row[1] else row for row in table.rows)
    assert event_table_png(table) != event_table_png(replace(table, rows=bare))


async def test_an_events_game_is_not_called_casual_where_no_turn_is_taken_back(h: Harness) -> None:
    """An unrated Swiss game is refused a takeback with "Turns are taken back only in casual
    matches" (it counts in the standings), yet its web page's terms read "1 day per turn,
    casual, ...", the word picked from ``rated`` alone. An event's game is "unrated"."""
    await swiss_of_two(h, "torishogi", rounds=2)
    [pairing] = (await snapshot(h, "Cup")).pairings
    hosted = await h.store.hosting.get(pairing.hosted_id)
    terms = Terms.from_json(hosted.terms)
    assert terms.competition and not terms.rated and not terms.casual
    place = Place(GUILD, hosted.channel_id)
    first = user(hosted.challenger_id)
    await h.service.play(place, first, "c3c4")
    await h.service.end_turn(place, first)
    with pytest.raises(Refused, match="only in casual matches"):
        await h.service.takeback(place, first)
    state = await Boards(h.service).public(hosted.id)
    assert "casual" not in state["terms"].split(", "), state["terms"]


async def test_a_board_discord_opens_no_thread_for_is_said_to_play_in_the_channel(
    h: Harness,
) -> None:
    """The round post says each game is opened in its own thread. Where Discord opens none
    (the bot may not, the server has its 1,000 active threads), the boards play in the
    event's channel one after another: nothing said so, so spectators looked for threads
    that were not there, and the players of a board waiting its turn heard nothing. The
    channel is told, in one post naming every such board, its players named."""
    h.threads.no_threads.add(HERE.channel_id)
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Open")
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    [told] = [m for m in h.delivery.channel(HERE.channel_id) if "no thread here" in m.text]
    assert told.text.startswith("**Open** (ToriShogi Swiss): Discord opened no thread here")
    assert told.text.endswith("\nround 1, board 1: p1 v p3\nround 1, board 2: p4 v p2")
    assert set(told.mentions) == {1, 2, 3, 4}


async def test_a_rounds_post_tells_spectators_how_to_follow_a_game(h: Harness) -> None:
    """The round's post in the event's channel lists its boards ("1. p1 v p3") and says each
    game has its own thread, but not which: a spectator had no way to a game but to hunt
    through the channel's threads. It names the command that links each game's thread."""
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Open")
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    [posted] = [t for t in h.delivery.texts(HERE.channel_id) if "__Round 1 of 3__" in t]
    assert "follow a game: `/tora-tournament pairings` links its thread" in posted, posted


async def test_an_event_games_end_post_does_not_call_it_a_casual_match(h: Harness) -> None:
    """A Swiss's game ended in its thread with "... It was a casual match. The full record is
    attached.": the spectators (and players) read that it counted for nothing, where its
    result decides the board in the event. An unrated event's game says it counts in its
    event."""
    await slow_swiss(h)
    board = next(r for r in (await snapshot(h, "Slow")).pairings if r.second_id is not None)
    assert board.thread_id is not None
    hosted = await h.store.hosting.live_in_channel(board.thread_id)
    assert hosted is not None
    if hosted.phase == "setup":
        await finish_setup(h, hosted, (user(board.first_id), user(board.second_id or 0)))
    await h.service.resign(Place(GUILD, board.thread_id), user(board.second_id or 0))
    await h.settle()
    [end] = [t for t in h.delivery.texts(board.thread_id) if "The full record is attached" in t]
    assert "casual" not in end and "It counts in its tournament" in end, end
