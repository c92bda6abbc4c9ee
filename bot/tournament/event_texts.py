"""What Swiss and round robin events say: the round's one channel post, each player's
private notice of their pairing, a decided game, the final standings, standings and
pairings as text. Every text names the event and its game and says what comes next."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.service.texts import escape, moment
from rules import game_type
from storage.competitions.events import EventRow, PairingRow

from .records import Outcome, PairedRound, half_points
from .tiebreaks import Standing, fraction_text

FORMAT_NAMES = {
    "swiss": "Swiss",
    "round-robin": "round robin",
    "double-round-robin": "double round robin",
}
RESULT_WORDS = {
    Outcome.WIN: "{first} beat {second}",
    Outcome.LOSS: "{second} beat {first}",
    Outcome.DRAW: "{first} and {second} drew",
    Outcome.FORFEIT_WIN: "{first} won by forfeit against {second}",
    Outcome.FORFEIT_LOSS: "{second} won by forfeit against {first}",
}
BY_WORDS = {
    "game": "",
    "deadline": " (adjudicated at the round's deadline: fewer missed turns wins, else a draw)",
    "admin": " (set by an admin)",
    "withdrawal": " (a withdrawal)",
}


def name_of(names: Mapping[int, str], player: int) -> str:
    return escape(names.get(player, f"player {player}"))


def title(event: EventRow) -> str:
    """``**Spring Open** (ToriShogi Swiss)``."""
    return f"**{escape(event.name)}** ({game_type(event.game).title} {FORMAT_NAMES[event.format]})"


def round_opened(
    event: EventRow,
    after: int,
    paired: Sequence[PairedRound],
    deadline: float | None,
    now: float,
    names: Mapping[int, str],
) -> str:
    """The round's one post in the event's channel: every board, the bye, the deadline."""
    lines = []
    for number, round_ in enumerate(paired, start=after + 1):
        boards = [
            f"{board}. {name_of(names, b.first)} v {name_of(names, b.second)}"
            for board, b in enumerate(round_.boards, start=1)
        ]
        if round_.bye is not None and event.ai_fill is not None:
            board = len(boards) + 1
            boards.append(f"{board}. {name_of(names, round_.bye)} v the AI ({event.ai_fill})")
        elif round_.bye is not None:
            boards.append(f"bye: {name_of(names, round_.bye)}")
        head = f"Round {number}" if len(paired) > 1 else f"Round {number} of {event.rounds}"
        lines.append(f"__{head}__\n" + "\n".join(boards))
    if len(paired) > 1:
        start = "Every game of the schedule starts now, each in its own thread"
    else:
        start = "Each game is opened in its own thread"
    when = (
        ""
        if deadline is None
        else f" Games still running at {moment(deadline, now)} are adjudicated."
    )
    text = (
        f"{title(event)}: {start}; the first named moves first. Each player is told their "
        f"game privately.{when}\n" + "\n\n".join(lines)
    )
    return text[:3900]


def game_intro(event: EventRow, row: PairingRow, names: Mapping[int, str]) -> str:
    second = name_of(names, row.second_id or 0)
    return (
        f"{title(event)}, round {row.round}, board {row.board}: "
        f"{name_of(names, row.first_id)} v {second}."
    )


def thread_name(event: EventRow, row: PairingRow, names: Mapping[int, str]) -> str:
    first = names.get(row.first_id, "?")
    second = names.get(row.second_id or 0, "?")
    return f"{event.name} r{row.round}: {first} v {second}"[:100]


def paired_notice(
    event: EventRow,
    row: PairingRow,
    player: int,
    thread_id: int,
    deadline: float | None,
    now: float,
    names: Mapping[int, str],
) -> str:
    """A player's private notice of their game, where it is and by when."""
    opponent = row.second_id if player == row.first_id else row.first_id
    moves = "you move first" if player == row.first_id else "your opponent moves first"
    by = "" if deadline is None else f" The round ends {moment(deadline, now)}."
    return (
        f"{title(event)}, round {row.round}: you play {name_of(names, opponent or 0)} in "
        f"<#{thread_id}> ({moves}); each turn has its own deadline there.{by}"
    )


def decided(
    event: EventRow, row: PairingRow, outcome: Outcome, by: str, names: Mapping[int, str]
) -> str:
    words = RESULT_WORDS[outcome].format(
        first=name_of(names, row.first_id), second=name_of(names, row.second_id or 0)
    )
    return f"{title(event)}, round {row.round}: {words}{BY_WORDS.get(by, '')}."


def standings_text(
    event: EventRow, lines: Sequence[Standing], names: Mapping[int, str], labels: Sequence[str]
) -> str:
    """The standings as lines of text (the image's fallback and the final post)."""
    head = "  ".join(("#", "player", "pts", *labels))
    rows = [
        "  ".join(
            (
                str(s.rank),
                name_of(names, s.player_id),
                half_points(s.score),
                *(fraction_text(v) for v in s.tiebreaks),
            )
        )
        for s in lines[:50]
    ]
    more = f"\n...and {len(lines) - 50} more" if len(lines) > 50 else ""
    return f"{head}\n" + "\n".join(rows) + more


def finished(
    event: EventRow, lines: Sequence[Standing], names: Mapping[int, str], why: str | None
) -> str:
    winners = [s.player_id for s in lines if s.rank == 1]
    won = " and ".join(name_of(names, p) for p in winners) or "nobody"
    early = "" if why is None else f" It ended early: {why}."
    top = "\n".join(
        f"{s.rank}. {name_of(names, s.player_id)} {half_points(s.score)}" for s in lines[:10]
    )
    return f"{title(event)} is over: {won} won it.{early}\n{top}"[:3900]


def created(event: EventRow, join: str, begin: str) -> str:
    rounds = f"{event.rounds} rounds" if event.format == "swiss" else "everyone meets everyone"
    starts = (
        f"it starts by itself {moment(event.starts_at, event.created_at)}"
        if event.starts_at is not None
        else f"the organiser starts it with {begin}"
    )
    closes = (
        f" Entries close {moment(event.entry_closes, event.created_at)}."
        if event.entry_closes is not None
        else ""
    )
    rated = "rated on the game's ladder" if event.rated else "unrated"
    if event.ai_fill is not None:
        rated += f", the AI ({event.ai_fill}) plays whoever an odd round leaves over"
    rated += f", {away_words(event.away_days)}"
    return (
        f"{title(event)} is open for entries: {rounds}, up to {event.max_players} players, "
        f"{rated}. Join with {join}; {starts}.{closes}"
    )


def away_words(applies: bool) -> str:
    """Whether away days stop a tournament's clocks, in words."""
    if applies:
        return "away days stop its clocks"
    return "away days do not stop its clocks (a player away still has to play)"


def replaced(event: EventRow, old: str, new: str, admin: str) -> str:
    return (
        f"{title(event)}: {escape(new)} takes over {escape(old)}'s games not yet decided "
        f"(an admin, {escape(admin)}, replaced them; their results so far stand)."
    )


def withdrew(event: EventRow, player: str) -> str:
    return f"{title(event)}: {escape(player)} has withdrawn."


def cancelled(event: EventRow, admin: str) -> str:
    return (
        f"{title(event)} is cancelled by an admin ({escape(admin)}): its games still running "
        "are called off; nothing more is paired."
    )


def described(event: EventRow, players: int) -> str:
    """One line of the server's list of tournaments."""
    state = {
        "registering": "open for entries",
        "running": f"round {event.round} of {event.rounds}",
        "finished": "finished",
        "cancelled": "cancelled",
    }[event.status]
    return f"{title(event)}: {players} players, {state}; {away_words(event.away_days)}."
