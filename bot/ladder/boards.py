"""What players read from a ladder: leaderboard pages (text and image), a player's profile
and head-to-head records. Ratings are shown as they stand now: a deviation grown by idle
weeks makes a rating provisional again (marked ``?``)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import N_, _, current
from bot.i18n.words import Language
from bot.service.texts import escape
from render import LadderRow, ladder_png
from storage import Store
from storage.competitions.ladders import HistoryPoint, LadderKey, ResultRow, Season

from .errors import NotFound
from .results import (
    Archived,
    archived_line,
    boards,
    check_board,
    ladder_name,
    ladder_title,
    ranks,
)

PROVISIONAL_NOTE = N_("? provisional: too few recent games for a settled rating.")
PAGE_SIZE = 10
TREND_GAMES = 5  # a leaderboard's trend is the rating change over a player's last 5 results
RECENT = 10  # matches listed on a profile


@dataclass(frozen=True)
class Line(Archived):
    """A line of a season's standings now: an archived line with the streak and trend."""

    streak: int
    trend: float


@dataclass(frozen=True)
class Page:
    key: LadderKey
    number: int  # from 1
    pages: int
    lines: list[Line]

    def text(self) -> str:
        """The page in the current language."""
        out = [
            _(
                "{ladder} ladder, season {season} - page {number} of {pages}",
                ladder=ladder_title(self.key.board),
                season=self.key.season,
                number=self.number,
                pages=self.pages,
            )
        ]
        if not self.lines:
            out.append(_("No rated games yet."))
        for line in self.lines:
            mark = "?" if line.provisional else ""
            rating, trend = f"{line.rating:.0f}", f"{line.trend:+.0f}"
            out.append(
                _(
                    "{rank}. {name} {rating}{mark} ({wins}-{losses}-{draws}, trend {trend})",
                    rank=line.rank,
                    name=escape(line.name),
                    rating=rating,
                    mark=mark,
                    wins=line.wins,
                    losses=line.losses,
                    draws=line.draws,
                    trend=trend,
                )
            )
        if any(line.provisional for line in self.lines):
            out.append(_(PROVISIONAL_NOTE))
        return "\n".join(out)

    def rows(self) -> list[LadderRow]:
        return [
            LadderRow(
                line.rank, line.name, line.rating, line.games, round(line.trend), line.provisional
            )
            for line in self.lines
        ]

    def drawing(self) -> Callable[[], bytes]:
        """The page's image to draw (a call of plain data, for a drawing worker), in the
        current language: its title, and the image's own words (``render.words``), are
        chosen here, where the language is known."""
        title = _(
            "{ladder} ladder - season {season} ({number}/{pages})",
            ladder=ladder_title(self.key.board),
            season=self.key.season,
            number=self.number,
            pages=self.pages,
        )
        return functools.partial(ladder_png, self.rows(), title, Language(current()))


@dataclass(frozen=True)
class Recent:
    match_id: int
    opponent_id: int
    opponent: str
    score: float  # the player's: 1 win, 0.5 draw, 0 loss
    played_at: float
    removed: bool


@dataclass(frozen=True)
class BoardProfile:
    board: str
    season: int
    line: Line | None  # None: no rated game this season
    players: int  # how many are ranked this season
    history: list[HistoryPoint]  # rating after each counted result, oldest first
    recent: list[Recent]  # newest first
    closed_at: float | None = None  # set when the season shown has closed (its final line)


@dataclass(frozen=True)
class Profile:
    player_id: int
    name: str
    boards: list[BoardProfile]


@dataclass(frozen=True)
class HeadToHead:
    key: LadderKey
    first_id: int
    second_id: int
    first_wins: int
    second_wins: int
    draws: int
    matches: list[int]  # match ids, newest first


def _score_of(result: ResultRow, player_id: int) -> float:
    return result.score if result.first_id == player_id else 1.0 - result.score


class Boards:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def season(self, guild_id: int, board: str, number: int | None = None) -> Season:
        """The season ``number``, or the latest one (NotFound before the first result)."""
        check_board(board)
        seasons = await self._store.ladders.seasons(guild_id, board)
        if number is None and seasons:
            return seasons[-1]
        for season in seasons:
            if season.key.season == number:
                return season
        if number is None:
            raise NotFound(
                _(
                    "The {ladder} ladder of this server has not had any season yet.",
                    ladder=ladder_name(board),
                )
            )
        raise NotFound(
            _(
                "The {ladder} ladder of this server has not had a season {season}.",
                ladder=ladder_name(board),
                season=number,
            )
        )

    async def lines(self, season: Season) -> list[Line]:
        """The season's standings now, best first."""
        ladders = self._store.ladders
        standings = await ladders.standings(season.key)
        names = await ladders.names(s.player_id for s in standings)
        trends = await ladders.recent_changes(season.key, season.revision, TREND_GAMES)
        now = self._clock() if season.closed_at is None else season.closed_at
        lines = []
        for rank, s in zip(ranks(standings), standings, strict=True):
            base = archived_line(rank, s, names.get(s.player_id, str(s.player_id)), now)
            lines.append(Line(**vars(base), streak=s.streak, trend=trends.get(s.player_id, 0.0)))
        return lines

    async def page(
        self, guild_id: int, board: str, number: int = 1, season: int | None = None
    ) -> Page:
        """One page of the open (or a given) season's leaderboard; a page past the end shows
        the last one. ``Page.text()`` and ``await png(page)`` draw it."""
        found = await self.season(guild_id, board, season)
        lines = await self.lines(found)
        pages = max(1, -(-len(lines) // PAGE_SIZE))
        number = min(max(1, number), pages)
        start = (number - 1) * PAGE_SIZE
        return Page(found.key, number, pages, lines[start : start + PAGE_SIZE])

    async def profile(self, guild_id: int, player_id: int, name: str | None = None) -> Profile:
        """A player's rating, history, record and recent matches on each board: in its
        latest season the player has results in (a closed one until they play the open
        one), else its open season. ``name`` names one who never played, where known."""
        ladders = self._store.ladders
        names = await ladders.names([player_id])
        if player_id not in names:
            if name is not None:
                raise NotFound(_("{player} has never played here.", player=escape(name)))
            raise NotFound(_("Player {id} has never played here.", id=player_id))
        played = []
        for board in boards():
            seasons = await ladders.seasons(guild_id, board)
            if seasons:
                played.append(
                    await self._board_profile(
                        await self._last_played(seasons, player_id), player_id
                    )
                )
        return Profile(player_id, names[player_id], played)

    async def _last_played(self, seasons: list[Season], player_id: int) -> Season:
        """The latest of ``seasons`` (oldest first) with a result of the player's, else the
        latest."""
        for season in reversed(seasons):
            if await self._store.ladders.results(season.key, player_id, limit=1):
                return season
        return seasons[-1]

    async def _board_profile(self, season: Season, player_id: int) -> BoardProfile:
        ladders = self._store.ladders
        lines = await self.lines(season)
        line = next((li for li in lines if li.player_id == player_id), None)
        history = await ladders.history(season.key, season.revision, player_id)
        results = await ladders.results(season.key, player_id, limit=RECENT)
        opponents = [r.second_id if r.first_id == player_id else r.first_id for r in results]
        names = await ladders.names(opponents)
        recent = [
            Recent(
                r.match_id, o, names.get(o, str(o)), _score_of(r, player_id), r.played_at, r.removed
            )
            for r, o in zip(results, opponents, strict=True)
        ]
        key = season.key
        return BoardProfile(
            key.board, key.season, line, len(lines), history, recent, season.closed_at
        )

    async def head_to_head(
        self, guild_id: int, board: str, first_id: int, second_id: int, season: int | None = None
    ) -> HeadToHead:
        """The counted results between two players in a season (the open one by default)."""
        found = await self.season(guild_id, board, season)
        results = [
            r
            for r in await self._store.ladders.results(found.key, first_id, second_id)
            if not r.removed
        ]
        scores = [_score_of(r, first_id) for r in results]
        return HeadToHead(
            found.key,
            first_id,
            second_id,
            scores.count(1.0),
            scores.count(0.0),
            scores.count(0.5),
            [r.match_id for r in results],
        )
