"""What Swiss and round robin events say: the round's one channel post, each player's
private notice of their pairing, a decided game, the final standings, standings and
pairings as text. Every text names the event and its game and says what comes next."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from bot.i18n import N_, _, ngettext, pgettext, slash, word
from bot.service.texts import clipped, escape, moment
from rules import game_type
from storage.competitions.events import RUNNING, EventRow, PairingRow

from .records import Outcome, PairedRound, half_points
from .tiebreaks import Standing, fraction_text

FORMAT_NAMES = {
    "swiss": N_("Swiss"),
    "round-robin": N_("round robin"),
    "double-round-robin": N_("double round robin"),
}
RESULT_WORDS = {
    Outcome.WIN: N_("{first} beat {second}"),
    Outcome.LOSS: N_("{second} beat {first}"),
    Outcome.DRAW: N_("{first} and {second} drew"),
    Outcome.FORFEIT_WIN: N_("{first} won by forfeit against {second}"),
    Outcome.FORFEIT_LOSS: N_("{second} won by forfeit against {first}"),
}
BY_WORDS = {
    "deadline": N_(
        "{event}, round {round}: {result} (adjudicated at the round's deadline: fewer missed "
        "turns wins, else a draw)."
    ),
    "admin": N_("{event}, round {round}: {result} (set by an admin)."),
    "withdrawal": N_("{event}, round {round}: {result} (a withdrawal)."),
}
DECIDED = N_("{event}, round {round}: {result}.")


def name_of(names: Mapping[int, str], player: int) -> str:
    return escape(names.get(player, _("player {id}", id=player)))


def title(event: EventRow) -> str:
    """``**Spring Open** (ToriShogi Swiss)``."""
    return _(
        "**{name}** ({game} {format})",
        name=escape(event.name),
        game=game_type(event.game).title,
        format=_(FORMAT_NAMES[event.format]),
    )


def headed(event: EventRow) -> str:
    """``title`` with the options its games are played with, where the game has any:
    ``**Cup** (Torii Swiss, without powers)`` (its announcement and list line: a player
    decides on them whether to enter)."""
    kind = game_type(event.game)
    options = [word(w) for w in kind.option_words(kind.check_options(json.loads(event.options)))]
    if not options:
        return title(event)
    return _(
        "**{name}** ({game} {format}, {options})",
        name=escape(event.name),
        game=kind.title,
        format=_(FORMAT_NAMES[event.format]),
        options=", ".join(options),
    )


def round_opened(
    event: EventRow,
    after: int,
    paired: Sequence[PairedRound],
    deadline: float | None,
    now: float,
    names: Mapping[int, str],
    ai: str | None = None,
) -> str:
    """The round's one post in the event's channel: every board (as many as fit), the bye
    (or, with ``ai``, the game of the AI of that level), the deadline."""
    lines: list[tuple[str, bool]] = []  # (line, whether it is a board)
    for number, round_ in enumerate(paired, start=after + 1):
        boards = [
            f"{board}. "
            + _(
                "{first} v {second}", first=name_of(names, b.first), second=name_of(names, b.second)
            )
            for board, b in enumerate(round_.boards, start=1)
        ]
        if round_.bye is not None and ai is not None:
            board = len(boards) + 1
            fields = {"player": name_of(names, round_.bye), "level": ai}
            if round_.bye_first:
                against_ai = _("{player} v the AI ({level})", **fields)
            else:
                against_ai = _("the AI ({level}) v {player}", **fields)
            boards.append(f"{board}. {against_ai}")
        elif round_.bye is not None:
            boards.append(_("bye: {player}", player=name_of(names, round_.bye)))
        if len(paired) > 1:
            head = _("Round {round}", round=number)
        else:
            head = _("Round {round} of {rounds}", round=number, rounds=event.rounds)
        lines += [("", False)] if lines else []
        lines += [(f"__{head}__", False), *((board, True) for board in boards)]
    fields = {"event": title(event)}
    if len(paired) > 1:
        text = _(
            "{event}: Every game of the schedule starts now, each in its own thread; the first "
            "named moves first. Each player is told their game privately.",
            **fields,
        )
    else:
        text = _(
            "{event}: Each game is opened in its own thread; the first named moves first. Each "
            "player is told their game privately.",
            **fields,
        )
    if deadline is not None:
        text += " " + _(
            "Games still running at {deadline} are adjudicated.",
            deadline=moment(deadline, now, localized=True),
        )
    # the boards are listed before their threads are opened: the command links them
    text += " " + _(
        "Anyone may follow a game: {command} links its thread.",
        command=slash("tora tournament pairings"),
    )
    return clipped(text, lines)


def game_intro(event: EventRow, row: PairingRow, names: Mapping[int, str]) -> str:
    return _(
        "{event}, round {round}, board {board}: {first} v {second}.",
        event=title(event),
        round=row.round,
        board=row.board,
        first=name_of(names, row.first_id),
        second=name_of(names, row.second_id or 0),
    )


def boards_here(event: EventRow, rows: Sequence[PairingRow], names: Mapping[int, str]) -> str:
    """The channel's post for the boards Discord opened no thread for (as many as fit):
    the round's post said each game has a thread of its own."""
    head = _(
        "{event}: Discord opened no thread here for these games, so they are played in this "
        "channel, one after another, each once the game before it is over:",
        event=title(event),
    )
    lines = [
        (
            _(
                "round {round}, board {board}: {first} v {second}",
                round=row.round,
                board=row.board,
                first=name_of(names, row.first_id),
                second=name_of(names, row.second_id or 0),
            ),
            True,
        )
        for row in rows
    ]
    return clipped(head, lines)


def thread_name(event: EventRow, row: PairingRow, names: Mapping[int, str]) -> str:
    return _(
        "{event} r{round}: {first} v {second}",
        event=event.name,
        round=row.round,
        first=names.get(row.first_id, "?"),
        second=names.get(row.second_id or 0, "?"),
    )[:100]


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
    fields = {
        "event": title(event),
        "round": row.round,
        "opponent": name_of(names, opponent or 0),
        "thread": f"<#{thread_id}>",
    }
    if player == row.first_id:
        text = _(
            "{event}, round {round}: you play {opponent} in {thread} (you move first); each "
            "turn has its own deadline there.",
            **fields,
        )
    else:
        text = _(
            "{event}, round {round}: you play {opponent} in {thread} (your opponent moves "
            "first); each turn has its own deadline there.",
            **fields,
        )
    if deadline is None:
        return text
    return (
        text + " " + _("The round ends {deadline}.", deadline=moment(deadline, now, localized=True))
    )


def decided(
    event: EventRow,
    row: PairingRow,
    outcome: Outcome,
    by: str,
    names: Mapping[int, str],
    then: str = "",
) -> str:
    """A board's result with its match's number (what ``/tora record`` and ``replay`` ask
    for; none for a board decided without a game), then ``then`` (``next_step``) if given."""
    words = _(
        RESULT_WORDS[outcome],
        first=name_of(names, row.first_id),
        second=name_of(names, row.second_id or 0),
    )
    if row.hosted_id is not None:
        # TRANSLATORS: a board's result ("ann beat bob") and the number of its match.
        words = _("{result} (match {number})", result=words, number=row.hosted_id)
    text = _(BY_WORDS.get(by, DECIDED), event=title(event), round=row.round, result=words)
    return f"{text} {then}" if then else text


def next_step(event: EventRow, undecided: int) -> str:
    """What comes next in a running event with ``undecided`` boards left to decide: its next
    round (a Swiss's, paired once every board of the round is decided) or its end."""
    if event.status != RUNNING or event.round == 0:
        return ""
    if event.format == "swiss" and event.round < event.rounds:
        fields = {"round": event.round, "next": event.round + 1}
        if undecided:
            return _(
                "Round {next} is paired once every board of round {round} is decided.", **fields
            )
        return _("Every board of round {round} is decided: round {next} is paired now.", **fields)
    if undecided:
        return _("The final standings are posted once every game is decided.")
    return _("Every game is decided: the final standings follow.")


def standings_text(
    head: str, lines: Sequence[Standing], names: Mapping[int, str], labels: Sequence[str]
) -> str:
    """``head``, then the standings as lines of text under the table's header (the
    image's fallback): as many whole rows as fit in one message, then how many more."""
    header = "  ".join(
        ("#", pgettext("standings table", "player"), pgettext("standings table", "pts"), *labels)
    )
    rows = [
        "  ".join(
            (
                str(s.rank),
                name_of(names, s.player_id),
                half_points(s.score),
                *(fraction_text(v) for v in s.tiebreaks),
            )
        )
        for s in lines
    ]
    return clipped(f"{head}\n{header}", [(row, True) for row in rows])


def finished(
    event: EventRow, lines: Sequence[Standing], names: Mapping[int, str], why: str | None
) -> str:
    winners = [s.player_id for s in lines if s.rank == 1]
    if winners:
        won = _(
            "{event} is over: {winners} won it.",
            event=title(event),
            winners=pgettext("between names", " and ").join(name_of(names, p) for p in winners),
        )
    else:
        won = _("{event} is over: nobody won it.", event=title(event))
    early = "" if why is None else " " + _("It ended early: {why}.", why=_(why))
    top = [
        (f"{s.rank}. {name_of(names, s.player_id)} {half_points(s.score)}", True)
        for s in lines[:10]
    ]
    return clipped(won + early, top)


def created(event: EventRow, join: str, begin: str) -> str:
    rounds = (
        ngettext("{n} round", "{n} rounds", event.rounds)
        if event.format == "swiss"
        else _("everyone meets everyone")
    )
    if event.starts_at is not None:
        starts = _(
            "it starts by itself {start}",
            start=moment(event.starts_at, event.created_at, localized=True),
        )
    else:
        starts = _("the organiser starts it with {command}", command=begin)
    rated = _("rated on the game's ladder") if event.rated else pgettext("tournament", "unrated")
    if event.ai_fill is not None:
        rated = _(
            "{rated}, the AI ({level}) plays whoever an odd round leaves over",
            rated=rated,
            level=event.ai_fill,
        )
    text = _(
        "{event} is open for entries: {rounds}, up to {most} players, {rated}, {away}. Join "
        "with {join}; {starts}.",
        event=headed(event),
        rounds=rounds,
        most=event.max_players,
        rated=rated,
        away=away_words(event.away_days),
        join=join,
        starts=starts,
    )
    if event.entry_closes is None:
        return text
    return (
        text
        + " "
        + _(
            "Entries close {end}.", end=moment(event.entry_closes, event.created_at, localized=True)
        )
    )


def away_words(applies: bool) -> str:
    """Whether away days stop a tournament's clocks, in words."""
    if applies:
        return _("away days stop its clocks")
    return _("away days do not stop its clocks (a player away still has to play)")


def replaced(event: EventRow, old: str, new: str, admin: str) -> str:
    return _(
        "{event}: {new} takes over {old}'s games not yet decided (an admin, {admin}, replaced "
        "them; their results so far stand).",
        event=title(event),
        new=escape(new),
        old=escape(old),
        admin=escape(admin),
    )


def withdrew(event: EventRow, player: str, then: str = "") -> str:
    """A withdrawal, then ``then`` (``next_step``) if given."""
    text = _("{event}: {player} has withdrawn.", event=title(event), player=escape(player))
    return f"{text} {then}" if then else text


def standings_head(event: EventRow, completed: int) -> str:
    """The standings' first line: after how many rounds, counted complete."""
    if completed == 0:
        return _("{event}, no round complete yet:", event=title(event))
    return _("{event} after round {round}:", event=title(event), round=completed)


def cancelled(event: EventRow, admin: str) -> str:
    return _(
        "{event} is cancelled by an admin ({admin}): its games still running are called off; "
        "nothing more is paired.",
        event=title(event),
        admin=escape(admin),
    )


def state_words(event: EventRow, round_: int) -> str:
    """Where an event stands (``round_``: the round being played), as the server's list of
    tournaments shows it."""
    if event.status == "registering":
        return _("open for entries")
    if event.status == "running":
        return _("round {round} of {rounds}", round=round_, rounds=event.rounds)
    if event.status == "finished":
        return pgettext("tournament", "finished")
    return pgettext("tournament", "cancelled")


def described(event: EventRow, players: int, round_: int) -> str:
    """One line of the server's list of tournaments."""
    return _(
        "{event}: {players}, {state}; {away}.",
        event=headed(event),
        players=ngettext("{n} player", "{n} players", players),
        state=state_words(event, round_),
        away=away_words(event.away_days),
    )
