"""Ladder results on a real SQLite file: recording, the only-humans and aborted rules,
provisional marks, inactivity, season close with archived standings, removal with recompute."""

from __future__ import annotations

from pathlib import Path

import pytest
from backends import raw_sql
from ladder_fixtures import DAY, GUILD, ManualClock, finished, open_store

from bot.ladder import texts
from bot.ladder.errors import LadderError, NotFound, NotRated
from bot.ladder.glicko2 import PROVISIONAL_DEVIATION, Rating, play
from bot.ladder.results import Results
from bot.ladder.standings import PERIOD, current
from rules.tora import Game, Options, Side
from storage import Config, Store
from storage.backends.sql import IntegrityError
from storage.competitions.ladders import LadderKey

SHORT1 = LadderKey(GUILD, "short", 1)


async def test_a_result_moves_both_ratings_as_glicko2_does(db: Config) -> None:
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        recorded = await results.record_match(await finished(store, 1, 2, "C"))
        won, lost = play(Rating(), Rating(), 1.0)
        assert recorded.key == SHORT1
        assert recorded.challenger.rating == pytest.approx(won.rating)
        assert recorded.opposition.rating == pytest.approx(lost.rating)
        assert (recorded.challenger.wins, recorded.challenger.streak) == (1, 1)
        assert (recorded.opposition.losses, recorded.opposition.streak) == (1, -1)
        standings = await store.ladders.standings(SHORT1)
        assert [s.player_id for s in standings] == [1, 2]


async def test_boards_are_separate_ladders(db: Config) -> None:
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        await results.record_match(await finished(store, 1, 2, "C", board="long"))
        assert await store.ladders.standings(SHORT1) == []
        assert len(await store.ladders.standings(LadderKey(GUILD, "long", 1))) == 2


async def test_a_draw_counts_for_both_and_ends_streaks(db: Config) -> None:
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        await results.record_match(await finished(store, 1, 2, "C"))
        recorded = await results.record_match(await finished(store, 1, 2, None))
        assert (recorded.challenger.draws, recorded.challenger.streak) == (1, 0)
        assert recorded.challenger.games == recorded.opposition.games == 2


async def test_only_finished_games_between_two_people_count(db: Config) -> None:
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        with pytest.raises(NotRated, match="against itself"):
            await results.record_match(await finished(store, 1, 1, "C"))
        await store.ladders.set_bot(3)
        with pytest.raises(NotRated, match="bot account"):
            await results.record_match(await finished(store, 1, 3, "C"))
        aborted = await store.create_match(GUILD, 1, 2, Game(Options(board="short")))
        await store.save(aborted, close="aborted")
        with pytest.raises(NotRated, match="was aborted"):
            await results.record_match(aborted.id)
        running = await store.create_match(GUILD, 1, 2, Game(Options(board="short")))
        with pytest.raises(NotRated, match="not over yet"):
            await results.record_match(running.id)
        with pytest.raises(NotRated, match="does not exist"):
            await results.record_match(999)
        rated = await finished(store, 1, 2, "O")
        await results.record_match(rated)
        with pytest.raises(NotRated, match="already rated"):
            await results.record_match(rated)
        assert len(await store.ladders.results(SHORT1)) == 1


async def test_new_players_are_provisional_until_enough_games(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results = Results(store, clock)
        recorded = None
        for n in range(20):
            winner = "C" if n % 3 else "O"
            recorded = await results.record_match(await finished(store, 1, 2, winner))
            if n == 0:
                assert current(recorded.challenger, clock()).provisional
        assert recorded is not None
        assert not current(recorded.challenger, clock()).provisional


async def test_deviation_grows_with_inactivity(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results = Results(store, clock)
        for _ in range(20):
            recorded = await results.record_match(await finished(store, 1, 2, None))
        settled = recorded.challenger
        assert current(settled, clock() + PERIOD - 1).deviation == settled.deviation
        a_year = current(settled, clock() + 52 * PERIOD)
        assert a_year.deviation > PROVISIONAL_DEVIATION > settled.deviation
        clock.advance(52 * PERIOD)
        back = await results.record_match(await finished(store, 1, 3, "C"))
        # the win after a year away moves ann as far as a win at her grown deviation does
        expected, _ = play(a_year, Rating(), 1.0)
        assert back.challenger.rating == pytest.approx(expected.rating)
        assert back.challenger.deviation > settled.deviation


async def test_closing_a_season_archives_standings_and_starts_fresh(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results = Results(store, clock)
        await results.record_match(await finished(store, 1, 2, "C"))
        await results.record_match(await finished(store, 3, 2, "C"))
        before = await store.ladders.standings(SHORT1)
        clock.advance(DAY)
        season = await results.close_season(GUILD, "short", by=99)
        assert season.key == LadderKey(GUILD, "short", 2)
        archived = await results.archived(GUILD, "short", 1)
        assert [(line.rank, line.player_id) for line in archived] == [
            (rank, s.player_id) for rank, s in enumerate(before, 1)
        ]
        assert archived[0].name in ("ann", "cid") and archived[0].provisional
        recorded = await results.record_match(await finished(store, 1, 2, "O"))
        assert recorded.key.season == 2 and recorded.challenger.games == 1
        with pytest.raises(LadderError, match="still open"):
            await results.archived(GUILD, "short", 2)
        with pytest.raises(NotFound, match="no season 7"):
            await results.archived(GUILD, "short", 7)
        assert [s.key.season for s in await store.ladders.seasons(GUILD, "short")] == [1, 2]


async def test_removing_a_result_recomputes_the_season(db: Config, tmp_path: Path) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results = Results(store, clock)
        games = [(1, 2, "C"), (2, 3, "C"), (1, 3, None), (3, 1, "O"), (2, 1, "C")]
        matches = []
        for first, second, winner in games:
            matches.append(await finished(store, first, second, winner))
            await results.record_match(matches[-1])
            clock.advance(3 * DAY)
        with pytest.raises(LadderError, match="reason"):
            await results.remove_result(GUILD, matches[1], by=99, reason="  ")
        assert await results.remove_result(GUILD, matches[1], by=99, reason="smurf") == 4
        with pytest.raises(LadderError, match="already removed"):
            await results.remove_result(GUILD, matches[1], by=99, reason="again")
        with pytest.raises(NotFound, match="no rated result"):
            await results.remove_result(GUILD + 1, matches[0], by=99, reason="other server")
        recomputed = {s.player_id: s for s in await store.ladders.standings(SHORT1)}
        # the same season without that game, recorded from scratch in another file
        async with await Store.open(Config(path=tmp_path / "b.db")) as other:
            for user_id in (1, 2, 3):
                await other.save_player(user_id, f"p{user_id}")
            again = Results(other, ManualClock())
            for index, (first, second, winner) in enumerate(games):
                if index != 1:
                    await again.record_match(await finished(other, first, second, winner))
                again._clock.advance(3 * DAY)  # type: ignore[attr-defined]
            expected = {s.player_id: s for s in await other.ladders.standings(SHORT1)}
        assert recomputed == expected
        season = (await store.ladders.seasons(GUILD, "short"))[0]
        history = await store.ladders.history(SHORT1, season.revision, 2)
        assert [point.match_id for point in history] == [matches[0], matches[4]]


async def test_results_of_a_closed_season_stay(db: Config) -> None:
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        match_id = await finished(store, 1, 2, "C")
        await results.record_match(match_id)
        await results.close_season(GUILD, "short", by=99)
        with pytest.raises(LadderError, match="closed"):
            await results.remove_result(GUILD, match_id, by=99, reason="late")


async def test_history_and_results_are_append_only(db: Config) -> None:
    async with await open_store(db) as store:
        await Results(store, ManualClock()).record_match(await finished(store, 1, 2, "C"))
    for table in ("ladder_history", "ladder_results"):
        for statement in (f"UPDATE {table} SET id = 7", f"DELETE FROM {table}"):
            with pytest.raises(IntegrityError, match=r"never|append-only"):
                await raw_sql(db, statement)


async def test_a_series_to_a_point_target_is_one_rated_result(db: Config, monkeypatch) -> None:
    # A real reset (R28) takes a long-board game down to one command piece, which costs
    # minutes of turn ends; the ladder only needs a series that went on to a second game.
    monkeypatch.setattr(Game, "can_reset", lambda self, proposer=None: True)
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        series = await store.create_match(GUILD, 1, 2, Game(Options(board="long", target=30)))
        series.act(series.game.notation(series.game.legal_actions()[0]))
        series.agree_reset()
        await store.save(series)
        assert series.game.game_number == 2
        with pytest.raises(NotRated, match="not over yet"):  # one game of it is not a result
            await results.record_match(series.id)
        series.resign(Side.OPPOSITION)
        await store.save(series)
        recorded = await results.record_match(series.id)
        assert (recorded.challenger.games, recorded.challenger.wins) == (1, 1)
        assert len(await store.ladders.results(LadderKey(GUILD, "long", 1))) == 1


async def test_a_season_tied_at_the_top_is_won_by_everyone_ranked_first(db: Config) -> None:
    """Regression: a closed season's archive gives equal ratings one rank (a drawn season:
    1, 1), but the season list (`/tora-ladder seasons`) said it was "won by" the first line
    alone, the one of the smaller player id, so the other, 1st too, read as beaten."""
    async with await open_store(db) as store:
        results = Results(store, ManualClock())
        await results.record_match(await finished(store, 2, 1, None))  # a draw: both 1500
        await results.close_season(GUILD, "short", 9)
        [closed] = [s for s in await store.ladders.seasons(GUILD, "short") if s.closed_at]
        line = texts.season_line(closed)
        assert "won by" in line and "ann" in line and "bob" in line, line
