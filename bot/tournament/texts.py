"""What the tournament desk says: posts in the tournament's channel and its matches' threads,
and the standings table as text."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.texts import escape
from storage.competitions.tournaments import MatchRow, TournamentRow

from .event_texts import away_words
from .match import GameResult, Seat
from .progress import GAME_POINTS, RECORD, TIE_BREAKER, Decision, MatchState
from .transition import PlayerRank

HOW = {
    GAME_POINTS: "on Game Points",
    RECORD: "on the tournament's Game Points and win/loss record (the Game Points were tied)",
    TIE_BREAKER: "in a tie-breaker game (the Game Points were tied)",
}


def versus(row: MatchRow, names: Mapping[int, str], *, plain: bool = False) -> str:
    """``ann v bob``, names escaped for a message (``plain``: as written, for a thread's
    name, which shows no markdown)."""
    shown = (lambda name: name) if plain else escape
    second = shown(names[row.second_id]) + (" (substitute)" if row.substitute else "")
    return f"{shown(names[row.first_id])} v {second}"


def game_intro(t: TournamentRow, row: MatchRow, number: int, names: Mapping[int, str]) -> str:
    kind = f"game {number} of 4" if number <= 4 else f"game {number} (a tie-breaker)"
    return f"**{escape(t.name)}**, tier {row.tier}: {versus(row, names)}, {kind}."


def thread_name(t: TournamentRow, row: MatchRow, names: Mapping[int, str]) -> str:
    return f"{t.name} - tier {row.tier}: {versus(row, names, plain=True)}"[:100]


def game_scored(
    state: MatchState, number: int, result: GameResult, names: Mapping[int, str]
) -> str:
    first, second = (escape(names[p]) for p in state.players())
    won = "a tie" if result.winner is None else f"won by {(first, second)[result.winner]}"
    scores = result.personal_scores(assassins=False)
    points = state.match.score.game_points
    if number > 4:
        return (
            f"Tie-breaker game {number}: {won}; points scored {first} {scores[0]}, "
            f"{second} {scores[1]} (more points wins it)."
        )
    return (
        f"Game {number} is over, {won}: points scored {first} {scores[0]}, {second} "
        f"{scores[1]}. Game Points now {first} {points[0]}, {second} {points[1]} "
        f"(target {state.match.setup.target})."
    )


def game_void(number: int, ending: str) -> str:
    return f"Game {number} ended without a result ({ending}), so it is played again from the start."


def match_decided(
    state: MatchState,
    decision: Decision,
    ranks: Mapping[int, PlayerRank],
    names: Mapping[int, str],
) -> str:
    players = state.players()
    winner, loser = players[decision.winner], players[decision.winner.other]
    points = state.match.score.game_points
    text = (
        f"{escape(names[winner])} wins the match against {escape(names[loser])} "
        f"{HOW[decision.how]}: "
        f"{points[decision.winner]} to {points[decision.winner.other]} Game Points"
        f" after {len(state.match.games)} games."
    )
    if state.row.substitute and decision.winner is Seat.SECOND:
        text += (
            f" {escape(names[winner])} was a substitute: {escape(names[loser])} is out, "
            "nobody goes on."
        )
    lines = [rank_line(escape(names[p]), ranks[p]) for p in players if p in ranks]
    return " ".join([text, *lines])


def rank_line(name: str, rank: PlayerRank) -> str:
    line = f"{name}: rank {rank.rank}"
    if rank.transition is not None:
        done = len(rank.transition.played_like)
        line += f" (in transition to {rank.transition.rank}, {done} of 4 matches played)"
    return line + "."


def tier_opened(t: TournamentRow, tier: int, rows: list[MatchRow], names: Mapping[int, str]) -> str:
    pairs = "; ".join(versus(row, names) for row in rows)
    return (
        f"**{escape(t.name)}**, tier {tier}: {pairs}. Each match is played in its own thread here, "
        "four games, each player Challenger twice."
    )


def champion(t: TournamentRow, player: int, names: Mapping[int, str]) -> str:
    return f"**{escape(names[player])}** is the champion of **{escape(t.name)}**! Congratulations."


def cancelled(t: TournamentRow, by: str) -> str:
    return (
        f"**{escape(t.name)}** has been cancelled by {by}, a server admin: there will be no "
        "champion "
        "and no more games. Matches already decided, and the ranks they moved, stand."
    )


def describe(t: TournamentRow, players: int, substitutes: int) -> str:
    state = {
        "registering": "registration open",
        "running": f"tier {t.tier} under way",
        "cancelled": "cancelled",
    }
    status = state.get(t.status, "finished")
    subs = f", {substitutes} substitute{'s' * (substitutes != 1)}" if substitutes else ""
    return (
        f"**{escape(t.name)}**: {t.board} board, matches to {t.target} Game Points; {status}; "
        f"{players} player{'s' * (players != 1)}{subs}; {away_words(t.away_days)}."
    )
