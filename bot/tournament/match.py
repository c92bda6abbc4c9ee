"""A four-game tournament match between two players on one board size.

Everything about the match is computed from its setup and the games played so far, so a
``Match`` is plain data a service can store and load: Game Points with all handicaps, whether
the match is over, who won it, and the ranking comparison that decides the bands.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction

from .bands import Band, average, band_for, percentage_scores
from .handicap import game_point_value, rank_handicap
from .points import Board, Captures, army, check_captures, personal_score

GAMES_PER_MATCH = 4
GAMES_TO_COMPARE = 3  # "only if one of the players won 3 out of the 4 games in the match"
# The organiser's Game Point target for a match win, inclusive bounds per board size.
TARGET_BOUNDS = {Board.LONG: (181, 240), Board.SHORT: (49, 64)}
STARTING_RANK = 1  # ranks count up from 1; a higher rank is a stronger player


class Seat(IntEnum):
    """The two players of a match; FIRST is the Challenger of games 1 and 3, SECOND of 2 and 4."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Seat:
        return Seat(1 - self)


def check_target(board: Board, target: int) -> None:
    """Refuse a match target outside the chapter's bounds for the board."""
    low, high = TARGET_BOUNDS[board]
    if not low <= target <= high:
        raise ValueError(
            f"a {board}-board match target must be from {low} to {high} Game Points "
            f"(rule book chapter 10), not {target}"
        )


@dataclass(frozen=True)
class MatchSetup:
    """What is fixed before the first game: board, both Current Ranks on it, the target."""

    board: Board
    ranks: tuple[int, int]
    target: int
    assassins: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", Board(self.board))
        object.__setattr__(self, "ranks", tuple(self.ranks))
        if len(self.ranks) != len(Seat):
            raise ValueError("a match has the ranks of exactly two players")
        if any(rank < STARTING_RANK for rank in self.ranks):
            raise ValueError(f"ranks start at {STARTING_RANK}, not {self.ranks}")
        check_target(self.board, self.target)
        army(self.board, self.assassins)  # refuses the Assassin rules on the short board


@dataclass(frozen=True)
class GameResult:
    """One finished game: what each seat captured, and who won it (None: a tie)."""

    captures: tuple[Captures, Captures]
    winner: Seat | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "captures", tuple(self.captures))
        if len(self.captures) != len(Seat):
            raise ValueError("a game has the captures of exactly two players")
        if self.winner is not None:
            object.__setattr__(self, "winner", Seat(self.winner))

    def personal_scores(self, assassins: bool) -> tuple[int, int]:
        first, second = self.captures
        return personal_score(first, assassins), personal_score(second, assassins)


@dataclass(frozen=True)
class RankingComparison:
    """The Ranking Point Value of a match in which one player won at least 3 games."""

    games: tuple[int, ...]  # indexes of the games compared: those the winner of 3 or 4 won
    averages: tuple[Fraction, Fraction]  # each seat's Average Percentage Score over them

    @property
    def bands(self) -> tuple[Band, Band]:
        return band_for(self.averages[0]), band_for(self.averages[1])

    @property
    def mismatch(self) -> bool:
        return any(band.mismatch for band in self.bands)


@dataclass(frozen=True)
class MatchScore:
    """The match as it stands: each seat's Game Points and what went into them."""

    game_points: tuple[int, int]
    rank_handicap: tuple[int, int]
    games_won: tuple[int, int]
    ranking: RankingComparison | None


def compare_ranking(games: tuple[GameResult, ...], assassins: bool) -> RankingComparison | None:
    """The percentages compared over the games won by a player who won 3 or 4; None if
    nobody won 3 (the chapter compares them "only if one of the players won 3 out of 4")."""
    winners = [seat for seat in Seat if _wins(games, seat) >= GAMES_TO_COMPARE]
    if not winners:
        return None
    compared = tuple(i for i, game in enumerate(games) if game.winner is winners[0])
    shares = [percentage_scores(*games[i].personal_scores(assassins)) for i in compared]
    averages = (average([s[0] for s in shares]), average([s[1] for s in shares]))
    return RankingComparison(compared, averages)


def _wins(games: tuple[GameResult, ...], seat: Seat) -> int:
    return sum(game.winner is seat for game in games)


def score(setup: MatchSetup, games: tuple[GameResult, ...]) -> MatchScore:
    """Game Points after ``games``: each game's captures at the values of the player's band
    (bands exist once a player has won 3 games), plus the rank-differential handicap."""
    ranking = compare_ranking(games, setup.assassins)
    bands = ranking.bands if ranking else (Band.EVEN, Band.EVEN)
    handicap = rank_handicap(setup.board, setup.ranks)
    points = tuple(
        handicap[seat]
        + sum(game_point_value(game.captures[seat], setup.assassins, bands[seat]) for game in games)
        for seat in Seat
    )
    wins = (_wins(games, Seat.FIRST), _wins(games, Seat.SECOND))
    return MatchScore((points[0], points[1]), handicap, wins, ranking)


@dataclass(frozen=True)
class Match:
    """A match: its setup and the games played so far, in order."""

    setup: MatchSetup
    games: tuple[GameResult, ...] = ()

    def __post_init__(self) -> None:
        for number, game in enumerate(self.games):
            if Match(self.setup, self.games[:number]).finished:
                raise ValueError(f"the match was over before game {number + 1}")
            for captures in game.captures:
                check_captures(captures, self.setup.board, self.setup.assassins)

    def record(self, game: GameResult) -> Match:
        """The match with one more finished game."""
        return Match(self.setup, (*self.games, game))

    @property
    def score(self) -> MatchScore:
        return score(self.setup, self.games)

    @property
    def finished(self) -> bool:
        """Over after four games, or as soon as a player's Game Points reach the target (with
        a handicap that can happen in the 3rd game)."""
        if len(self.games) >= GAMES_PER_MATCH:
            return True
        return any(points >= self.setup.target for points in self.score.game_points)

    @property
    def next_challenger(self) -> Seat:
        """Who is Challenger in the next game: the seats alternate, each Challenger twice."""
        if self.finished:
            raise ValueError("the match is over")
        return Seat(len(self.games) % 2)

    @property
    def reached_target(self) -> tuple[bool, bool]:
        target = self.setup.target
        first, second = self.score.game_points
        return first >= target, second >= target

    @property
    def winner(self) -> Seat | None:
        """Who has won the finished match: the seat with more Game Points (whoever reached the
        target has more). None while it goes on, or when the Game Points are equal: then
        tie-breaker games decide, as for tied champions (``decide_tie_breaker``)."""
        if not self.finished:
            return None
        first, second = self.score.game_points
        if first == second:
            return None
        return Seat.FIRST if first > second else Seat.SECOND


def decide_tie_breaker(game: GameResult, assassins: bool) -> Seat | None:
    """The winner of a tie-breaker game "by point value": more points at the plain R27 values.
    None: equal points, so another tie-breaker game is played."""
    first, second = game.personal_scores(assassins)
    if first == second:
        return None
    return Seat.FIRST if first > second else Seat.SECOND
