"""Rated results on the ladders (per guild: each ladder of each game of the registry, TORA's
two boards and one per other game, and their AI ladders): recording a finished match, an
admin's removal of a result with the season recomputed, and closing a season.

A result counts only if the match finished with a result (not aborted or cancelled) between
two different accounts that are not bots; a series to a point target (R28) is one match, so
it is one result. Each match is rated at most once."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from bot.i18n import _, word
from bot.service.texts import quote
from rules.registry import ladder_game, ladder_of, ladders
from storage import Store
from storage.competitions.ladders import LadderKey, LadderTx, MatchFacts, Season, Standing
from storage.competitions.names import has_control_characters

from .errors import LadderError, NotFound, NotRated
from .standings import Applied, apply, current, fresh, replay

log = logging.getLogger(__name__)
# Each game ladder has an AI ladder: rated games against the host's AI players (never mixed
# with the ratings of games between people).
AI_PREFIX = "ai-"
SCORES = {"C": 1.0, "O": 0.0, None: 0.5}  # the Challenger's score by winner


@dataclass(frozen=True)
class Recorded:
    """A result as rated: its id, season, and both players' standings after it."""

    result_id: int
    key: LadderKey
    challenger: Standing
    opposition: Standing
    challenger_change: float
    opposition_change: float


@dataclass(frozen=True)
class Archived:
    """One line of a closed season's standings, as they were when it closed."""

    rank: int
    player_id: int
    name: str
    rating: float
    deviation: float
    provisional: bool
    games: int
    wins: int
    losses: int
    draws: int


def game_boards() -> tuple[str, ...]:
    """The ladders of games between people: every game's (``rules.registry``), in the
    registry's order (TORA's two boards, then the other games)."""
    return tuple(ladder.id for ladder in ladders())


def boards() -> tuple[str, ...]:
    """Every ladder: the games' (``game_boards``), then their AI ladders."""
    games = game_boards()
    return games + tuple(AI_PREFIX + board for board in games)


def ladder_name(board: str) -> str:
    """How texts name a ladder: "short-board", "long-board", "ToriShogi", "AI short-board"
    (the game's ``Ladder.name``, in the current language where the game marked it)."""
    if board.startswith(AI_PREFIX):
        return _("AI {ladder}", ladder=ladder_name(board.removeprefix(AI_PREFIX)))
    found = ladder_game(board)
    return board if found is None else word(found[1].name)


def ladder_title(board: str) -> str:
    """A ladder's name at the head of a line: "Short-board", "ToriShogi"."""
    name = ladder_name(board)
    return name[:1].upper() + name[1:]


def check_board(board: str) -> None:
    if board not in boards():
        named = ", ".join(f"`{name}`" for name in boards())
        raise LadderError(
            _("The ladder is one of {named}, not {board}.", named=named, board=quote(board))
        )


def board_of(facts: MatchFacts) -> str | None:
    """The ladder a finished match counts on: its game's ladder that holds its options
    (``rules.registry.ladder_of``), the AI ladder of it when an AI player played; None for
    a game the registry does not know."""
    try:
        ladder = ladder_of(facts.game, facts.options)
    except ValueError:
        return None
    return (AI_PREFIX if facts.against_ai else "") + ladder.id


def refusal(facts: MatchFacts | None, match_id: int) -> str | None:
    """Why the match cannot be rated, or None if it can."""
    if facts is None:
        return f"Match {match_id} does not exist."
    if facts.closed is not None:
        return f"Match {match_id} was {facts.closed}; it is never rated."
    if not facts.finished:
        return f"Match {match_id} is not over yet; only finished matches are rated."
    if facts.challenger_id == facts.opposition_id:
        return f"Match {match_id} was played by one account against itself; it is not rated."
    if facts.challenger_bot or facts.opposition_bot:
        return f"Match {match_id} was played by a bot account; only games between people count."
    if board_of(facts) is None:
        return f"Match {match_id} is of the game {quote(facts.game)}, which has no ladder here."
    return None


class Results:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def record_match(self, match_id: int) -> Recorded:
        """Rate a finished match on its guild's ladder for its game or board, in the open
        season (season 1 opens with the first result), as played now (the ladder's clock).
        NotRated says why a match does not count (also if it was rated before)."""

        def work(tx: LadderTx) -> Recorded:
            facts = tx.match_facts(match_id)
            reason = refusal(facts, match_id)
            if reason is not None:
                raise NotRated(reason)
            assert facts is not None
            if tx.result_of(match_id) is not None:
                raise NotRated(f"Match {match_id} is already rated.")
            board = board_of(facts)
            assert board is not None
            season = tx.open_season(facts.guild_id, board)
            key, at = season.key, tx.now
            first = tx.standing(key, facts.challenger_id) or fresh(facts.challenger_id, at)
            second = tx.standing(key, facts.opposition_id) or fresh(facts.opposition_id, at)
            step = apply(first, second, SCORES[facts.winner], at)
            result_id = tx.insert_result(
                key, match_id, facts.challenger_id, facts.opposition_id, SCORES[facts.winner], at
            )
            _write(tx, key, result_id, season.revision, step)
            return Recorded(
                result_id, key, step.first, step.second, step.first_change, step.second_change
            )

        return await self._store.ladders.transact(work, self._clock())

    async def catch_up(self) -> list[Recorded]:
        """Rate every finished rated match that has no result yet, oldest finish first: the
        ladder rates a match when it hears of its end (``rating``), after the end is saved,
        so a crash in between leaves it unrated (the ladder runner calls this on start and
        now and then). A match rated meanwhile is skipped."""
        recorded = []
        for match_id in await self._store.ladders.unrated_matches():
            try:
                recorded.append(await self.record_match(match_id))
            except NotRated as exc:
                log.info("catching up: match %d is not rated: %s", match_id, exc)
            else:
                log.warning("match %d had finished unrated; rated on catching up", match_id)
        return recorded

    async def remove_result(self, guild_id: int, match_id: int, by: int, reason: str) -> int:
        """An admin takes a match's result off the ladder with a reason (logged with who and
        when); the season's ratings and history are recomputed from the results left.
        Returns how many results the season still counts."""
        reason = reason.strip()
        if not reason:
            raise LadderError(_("Give a reason for removing a result; it is kept in the log."))
        if has_control_characters(reason):  # PostgreSQL's text cannot hold a NUL
            raise LadderError(_("A reason cannot hold control characters."))

        def work(tx: LadderTx) -> int:
            found = tx.result_of(match_id)
            if found is None or found[0].guild_id != guild_id:
                raise NotFound(
                    _("Match {match} has no rated result on this server's ladders.", match=match_id)
                )
            key, result = found
            if result.removed:
                raise LadderError(
                    _("The result of match {match} was already removed.", match=match_id)
                )
            season = tx.season(key)
            if season is None or season.closed_at is not None:
                raise LadderError(
                    _(
                        "Match {match} belongs to season {season}, which is closed; its "
                        "standings are archived and stay as they were.",
                        match=match_id,
                        season=key.season,
                    )
                )
            tx.remove_result(result.id, by, reason)
            return recompute(tx, key)

        return await self._store.ladders.transact(work, self._clock())

    async def close_season(self, guild_id: int, board: str, by: int) -> Season:
        """Archive the open season's standings (as they stand now) and start the next season
        with fresh ratings. Returns the new season."""
        check_board(board)

        def work(tx: LadderTx) -> Season:
            season = tx.open_season(guild_id, board)
            lines = archive_lines(tx, season.key)
            tx.close_season(season.key, by, json.dumps([asdict(line) for line in lines]))
            return tx.start_season(guild_id, board)

        return await self._store.ladders.transact(work, self._clock())

    async def archived(self, guild_id: int, board: str, number: int) -> list[Archived]:
        """A closed season's final standings, best first."""
        check_board(board)
        for season in await self._store.ladders.seasons(guild_id, board):
            if season.key.season == number:
                if season.standings is None:
                    raise LadderError(
                        _(
                            "Season {season} of the {ladder} ladder is still open.",
                            season=number,
                            ladder=ladder_name(board),
                        )
                    )
                return [Archived(**line) for line in json.loads(season.standings)]
        raise NotFound(
            _(
                "The {ladder} ladder has no season {season}.",
                ladder=ladder_name(board),
                season=number,
            )
        )


def archive_lines(tx: LadderTx, key: LadderKey) -> list[Archived]:
    rows = tx.standings(key)
    names = tx.names(row.player_id for row in rows)
    return [
        archived_line(rank, row, names.get(row.player_id, str(row.player_id)), tx.now)
        for rank, row in zip(ranks(rows), rows, strict=True)
    ]


def ranks(rows: Sequence[Standing]) -> list[int]:
    """The rank of each of ``rows`` (best first): players whose ratings are shown alike (to
    the point) share a rank, and the next counts everyone above it (1, 2, 2, 4)."""
    found: list[int] = []
    for place, row in enumerate(rows, 1):
        tied = found and f"{row.rating:.0f}" == f"{rows[place - 2].rating:.0f}"
        found.append(found[-1] if tied else place)
    return found


def archived_line(rank: int, row: Standing, name: str, now: float) -> Archived:
    """A standings line as of ``now`` (the deviation grown with idle time since)."""
    rating = current(row, now)
    return Archived(
        rank,
        row.player_id,
        name,
        row.rating,
        rating.deviation,
        rating.provisional,
        row.games,
        row.wins,
        row.losses,
        row.draws,
    )


def _write(tx: LadderTx, key: LadderKey, result_id: int, revision: int, step: Applied) -> None:
    tx.put_standing(key, step.first)
    tx.put_standing(key, step.second)
    tx.append_history(result_id, revision, step.first.player_id, step.first, step.first_change)
    tx.append_history(result_id, revision, step.second.player_id, step.second, step.second_change)


def recompute(tx: LadderTx, key: LadderKey) -> int:
    """Rebuild a season's ratings from its counted results (in the order they were rated),
    and append its history again under the season's next revision."""
    results = tx.counted_results(key)
    revision = tx.next_revision(key)
    standings, applied = replay(results)
    tx.clear_standings(key)
    for standing in standings.values():
        tx.put_standing(key, standing)
    for result, step in zip(results, applied, strict=True):
        tx.append_history(result.id, revision, result.first_id, step.first, step.first_change)
        tx.append_history(result.id, revision, result.second_id, step.second, step.second_change)
    return len(results)
