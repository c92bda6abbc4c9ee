"""What the tournament desk says: posts in the tournament's channel and its matches' threads,
and the standings table as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import N_, _, ngettext, pgettext, slash
from bot.service.phases import ABORTED, CANCELLED
from bot.service.texts import clipped, escape
from storage.competitions.tournaments import CANCELLED as CALLED_OFF
from storage.competitions.tournaments import REGISTERING, MatchRow, Snapshot, TournamentRow

from .event_texts import away_words
from .match import GameResult, Seat
from .progress import GAME_POINTS, RECORD, TIE_BREAKER, Decision, MatchState, tier_rows
from .transition import PlayerRank

HOW = {
    GAME_POINTS: N_(
        "{winner} wins the match against {loser} on Game Points: {points} to {other} Game "
        "Points after {games} games."
    ),
    RECORD: N_(
        "{winner} wins the match against {loser} on the tournament's Game Points and win/loss "
        "record (the Game Points were tied): {points} to {other} Game Points after {games} games."
    ),
    TIE_BREAKER: N_(
        "{winner} wins the match against {loser} in a tie-breaker game (the Game Points were "
        "tied): {points} to {other} Game Points after {games} games."
    ),
}


def versus(row: MatchRow, names: Mapping[int, str], *, plain: bool = False) -> str:
    """``ann v bob``, names escaped for a message (``plain``: as written, for a thread's
    name, which shows no markdown)."""
    shown = (lambda name: name) if plain else escape
    second = shown(names[row.second_id])
    if row.substitute:
        second = _("{player} (substitute)", player=second)
    return _("{first} v {second}", first=shown(names[row.first_id]), second=second)


def game_intro(t: TournamentRow, row: MatchRow, number: int, names: Mapping[int, str]) -> str:
    fields = {"name": escape(t.name), "tier": row.tier, "pair": versus(row, names), "game": number}
    if number <= 4:
        return _("**{name}**, tier {tier}: {pair}, game {game} of 4.", **fields)
    return _("**{name}**, tier {tier}: {pair}, game {game} (a tie-breaker).", **fields)


def matches_here(t: TournamentRow, rows: Sequence[MatchRow], names: Mapping[int, str]) -> str:
    """The channel's post for the matches Discord opened no thread for: the tier's post
    said each match has a thread of its own."""
    return _(
        "**{name}**: Discord opened no thread here for {pairs}, so their games are played in "
        "this channel, one after another, each once the game before it is over.",
        name=escape(t.name),
        pairs="; ".join(versus(row, names) for row in rows),
    )


def thread_name(t: TournamentRow, row: MatchRow, names: Mapping[int, str]) -> str:
    pair = versus(row, names, plain=True)
    return _("{name} - tier {tier}: {pair}", name=t.name, tier=row.tier, pair=pair)[:100]


def game_scored(
    state: MatchState, number: int, result: GameResult, names: Mapping[int, str]
) -> str:
    first, second = (escape(names[p]) for p in state.players())
    won = (
        pgettext("a game's result", "a tie")
        if result.winner is None
        else _("won by {player}", player=(first, second)[result.winner])
    )
    scores = result.personal_scores(assassins=False)
    points = state.match.score.game_points
    fields = {
        "game": number,
        "won": won,
        "first": first,
        "second": second,
        "first_score": scores[0],
        "second_score": scores[1],
    }
    if number > 4:
        return _(
            "Tie-breaker game {game}: {won}; points scored {first} {first_score}, {second} "
            "{second_score} (more points wins it).",
            **fields,
        )
    return _(
        "Game {game} is over, {won}: points scored {first} {first_score}, {second} "
        "{second_score}. Game Points now {first} {first_points}, {second} {second_points} "
        "(target {target}).",
        first_points=points[0],
        second_points=points[1],
        target=state.match.setup.target,
        **fields,
    )


VOID = {
    ABORTED: N_(
        "Game {game} was aborted before its first round was complete: it has no result and is "
        "played again from the start."
    ),
    CANCELLED: N_(
        "Game {game} was cancelled by an admin: it has no result and is played again from the "
        "start."
    ),
}
VOID_OTHERWISE = N_("Game {game} ended without a result, so it is played again from the start.")


def game_void(number: int, ending: str) -> str:
    """A game without a result (T17), by the service's ending word (``bot.service.phases``)."""
    return _(VOID.get(ending, VOID_OTHERWISE), game=number)


def match_decided(
    t: TournamentRow,
    state: MatchState,
    decision: Decision,
    ranks: Mapping[int, PlayerRank],
    names: Mapping[int, str],
) -> str:
    players = state.players()
    winner, loser = players[decision.winner], players[decision.winner.other]
    points = state.match.score.game_points
    text = _(
        HOW[decision.how],
        winner=escape(names[winner]),
        loser=escape(names[loser]),
        points=points[decision.winner],
        other=points[decision.winner.other],
        games=len(state.match.games),
    )
    if state.row.substitute and decision.winner is Seat.SECOND:
        text += " " + _(
            "{winner} was a substitute: {loser} is out, nobody goes on.",
            winner=escape(names[winner]),
            loser=escape(names[loser]),
        )
    lines = [rank_line(escape(names[p]), ranks[p]) for p in players if p in ranks]
    return _(
        "**{name}**, tier {tier}: {result}",
        name=escape(t.name),
        tier=state.row.tier,
        result=" ".join([text, *lines]),
    )


def rank_line(name: str, rank: PlayerRank) -> str:
    if rank.transition is None:
        return _("{player}: rank {rank}.", player=name, rank=rank.rank)
    return _(
        "{player}: rank {rank} (in transition to {next}, {played} of 4 matches played).",
        player=name,
        rank=rank.rank,
        next=rank.transition.rank,
        played=len(rank.transition.played_like),
    )


def tier_opened(t: TournamentRow, tier: int, rows: list[MatchRow], names: Mapping[int, str]) -> str:
    text = _(
        "**{name}**, tier {tier}: {pairs}. Each match is played in its own thread here, four "
        "games, each player Challenger twice.",
        name=escape(t.name),
        tier=tier,
        pairs="; ".join(versus(row, names) for row in rows),
    )
    # the matches are posted before their threads are opened: the command links them
    return (
        text
        + " "
        + _(
            "Anyone may follow a match: {command} links its thread.",
            command=slash("tora tournament pairings"),
        )
    )


def tier_pairings(snapshot: Snapshot, names: Mapping[int, str], tier: int) -> str:
    """A tier's matches: each with its winner, or where it is played (a link to its
    thread, or the tournament's channel where Discord opened none), or that its thread is
    not open yet."""
    t = snapshot.tournament
    if t.tier == 0:
        return not_paired(t)
    rows = tier_rows(snapshot, tier)
    if not rows:
        return _("**{name}** has no tier {tier} paired.", name=escape(t.name), tier=tier)
    lines = [
        (f"{row.position}. {versus(row, names)}: {match_state(t, row, names)}", True)
        for row in rows
    ]
    head = _("**{name}**, tier {tier}:", name=escape(t.name), tier=tier)
    return clipped(head, lines)


def match_state(t: TournamentRow, row: MatchRow, names: Mapping[int, str]) -> str:
    if row.winner_id is not None:
        return pgettext("a knockout match", "won by {player}", player=escape(names[row.winner_id]))
    if t.status == CALLED_OFF:
        return pgettext("a match", "called off")
    if row.thread_id is None:  # (where Discord opens none, it is the channel's id)
        return pgettext("a board's game", "opening")
    return _("playing in <#{thread}>", thread=row.thread_id)


def not_paired(t: TournamentRow) -> str:
    """What ``pairings`` says of a knockout with no tier paired: before its start, or one
    called off before it."""
    if t.status == REGISTERING:
        return _(
            "**{name}** has not started yet: its first tier is paired when it starts.",
            name=escape(t.name),
        )
    return _("**{name}** was called off before any tier was paired.", name=escape(t.name))


def champion(t: TournamentRow, player: int, names: Mapping[int, str]) -> str:
    return _(
        "**{player}** is the champion of **{name}**! Congratulations.",
        player=escape(names[player]),
        name=escape(t.name),
    )


def cancelled(t: TournamentRow, by: str) -> str:
    return _(
        "**{name}** has been cancelled by {admin}, a server admin: there will be no champion "
        "and no more games. Matches already decided, and the ranks they moved, stand.",
        name=escape(t.name),
        admin=by,
    )


BOARD_WORDS = {"short": N_("short board"), "long": N_("long board")}


def board_words(board: str) -> str:
    """``short board``, ``long board`` in the reader's language."""
    return _(BOARD_WORDS[board]) if board in BOARD_WORDS else board


def status_words(t: TournamentRow) -> str:
    """Where a chapter 10 tournament stands."""
    if t.status == "registering":
        return _("registration open")
    if t.status == "running":
        return _("tier {tier} under way", tier=t.tier)
    if t.status == "cancelled":
        return pgettext("tournament", "cancelled")
    return pgettext("tournament", "finished")


def describe(t: TournamentRow, players: int, substitutes: int) -> str:
    entrants = ngettext("{n} player", "{n} players", players)
    if substitutes:
        entrants = _(
            "{players}, {substitutes}",
            players=entrants,
            substitutes=ngettext("{n} substitute", "{n} substitutes", substitutes),
        )
    return _(
        "**{name}**: {board}, matches to {target} Game Points; {status}; {entrants}; {away}.",
        name=escape(t.name),
        board=board_words(t.board),
        target=t.target,
        status=status_words(t),
        entrants=entrants,
        away=away_words(t.away_days),
    )
