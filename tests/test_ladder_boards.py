"""Leaderboard pages (text and image), profiles and head-to-head on a real SQLite file."""

from __future__ import annotations

import json

import pytest
from ladder_fixtures import GUILD, ManualClock, finished, open_store

from bot.ladder.boards import PAGE_SIZE, Boards
from bot.ladder.errors import NotFound
from bot.ladder.results import Results
from storage import Config


async def test_pages_rank_best_first_and_mark_provisional_ratings(db: Config) -> None:
    async with await open_store(db) as store:
        for user_id in range(6, 6 + PAGE_SIZE + 3):
            await store.save_player(user_id, f"p{user_id}")
        clock = ManualClock()
        results, boards = Results(store, clock), Boards(store, clock)
        with pytest.raises(NotFound, match="not had any season yet"):
            await boards.page(GUILD, "short")
        for user_id in range(6, 6 + PAGE_SIZE + 3):
            await results.record_match(await finished(store, user_id, 1, "C"))
        first = await boards.page(GUILD, "short")
        last = await boards.page(GUILD, "short", number=99)
        assert (first.number, first.pages, last.number) == (1, 2, 2)
        assert len(first.lines) == PAGE_SIZE and len(last.lines) == 4
        ratings = [line.rating for line in first.lines + last.lines]
        assert ratings == sorted(ratings, reverse=True)
        assert [line.rank for line in last.lines] == [11, 12, 13, 14]
        text = first.text()
        assert text.startswith("Short-board ladder, season 1 - page 1 of 2")
        assert "?" in text and "provisional" in text
        loser = next(line for line in last.lines if line.player_id == 1)
        assert loser.losses == PAGE_SIZE + 3 and loser.streak == -(PAGE_SIZE + 3)
        assert loser.trend < 0  # the change over the last 5 results
        image = first.drawing()()
        assert image.startswith(b"\x89PNG")


async def test_players_with_equal_ratings_share_their_rank(db: Config) -> None:
    """Regression: two players of the very same rating were ranked 1 and 2 (then 2 and 3)
    by their player ids, on the leaderboard, in the profile's "rank N of M" and in a closed
    season's archive; they share the rank now, and the next one skips it (1, 2, 2, 4)."""
    async with await open_store(db) as store:
        clock = ManualClock()
        results, boards = Results(store, clock), Boards(store, clock)
        await results.record_match(await finished(store, 2, 1, None))  # a draw: both 1500
        await results.record_match(await finished(store, 4, 3, "C"))
        page = await boards.page(GUILD, "short")
        assert [(line.player_id, line.rank) for line in page.lines] == [
            (4, 1),
            (1, 2),
            (2, 2),
            (3, 4),
        ]
        assert "\n2. bob 1500?" in page.text() and "\n2. ann 1500?" in page.text()
        profile = await boards.profile(GUILD, 2)
        [short] = [b for b in profile.boards if b.board == "short"]
        assert short.line is not None and (short.line.rank, short.players) == (2, 4)
        await results.close_season(GUILD, "short", 9)
        [closed] = [s for s in await store.ladders.seasons(GUILD, "short") if s.closed_at]
        assert closed.standings is not None
        assert [line["rank"] for line in json.loads(closed.standings)] == [1, 2, 2, 4]


async def test_a_profile_has_history_record_and_recent_match_ids(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results, boards = Results(store, clock), Boards(store, clock)
        short_win = await finished(store, 1, 2, "C")
        long_draw = await finished(store, 3, 1, None, board="long")
        short_loss = await finished(store, 2, 1, "C")
        for match_id in (short_win, long_draw, short_loss):
            await results.record_match(match_id)
        profile = await boards.profile(GUILD, 1)
        by_board = {b.board: b for b in profile.boards}
        short = by_board["short"]
        assert short.line is not None and (short.line.wins, short.line.losses) == (1, 1)
        assert [p.match_id for p in short.history] == [short_win, short_loss]
        assert [(r.match_id, r.opponent, r.score) for r in short.recent] == [
            (short_loss, "bob", 0.0),
            (short_win, "bob", 1.0),
        ]
        assert by_board["long"].line is not None and by_board["long"].line.draws == 1
        with pytest.raises(NotFound, match="never played"):
            await boards.profile(GUILD, 404)


async def test_head_to_head_counts_only_results_still_standing(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results, boards = Results(store, clock), Boards(store, clock)
        ids = []
        for first, second, winner in ((1, 2, "C"), (2, 1, "C"), (1, 2, None), (1, 3, "C")):
            ids.append(await finished(store, first, second, winner))
            await results.record_match(ids[-1])
        await results.remove_result(GUILD, ids[0], by=99, reason="played on a shared account")
        record = await boards.head_to_head(GUILD, "short", 1, 2)
        assert (record.first_wins, record.second_wins, record.draws) == (0, 1, 1)
        assert record.matches == [ids[2], ids[1]]


@pytest.mark.parametrize("name", ["ann", "Bartholomew Montgomery-Whitfield"])
def test_a_provisional_rating_stays_marked_on_the_ladder_picture_whatever_the_name(
    name: str,
) -> None:
    """The picture marks a provisional rating "?" after the name, as the text marks it;
    with Discord's longest name the mark was cut off with the name, showing the rating as a
    settled one. The name is cut, not the mark."""
    from bot.ladder.boards import Line, Page
    from storage.competitions.ladders import LadderKey

    def picture(provisional: bool) -> bytes:
        line = Line(1, 7, name, 1500.0, 300.0, provisional, 3, 2, 1, 0, streak=1, trend=12.0)
        return Page(LadderKey(1, "short", 1), 1, 1, [line]).drawing()()

    assert picture(True) != picture(False)
