"""What an event's standings image and pairings list show: a Swiss table (rank, player,
points, the tiebreaks in the organiser's order) or a round robin's crosstable (each result
against each player by seed number), and each round's boards with links to their games."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import _, pgettext
from bot.service.texts import clipped
from render.event_table import EventTable
from rules import game_type
from storage.competitions.events import REGISTERING, RUNNING, EventRow, EventSnapshot

from . import event_texts as texts
from .events import current_round, history, is_robin, order_of, standings_of
from .records import Outcome, half_points
from .tiebreaks import fraction_text

SELF = "\u00d7"  # a multiplication sign: a player's own cell of the crosstable
MARKS = {
    Outcome.WIN: "1",
    Outcome.DRAW: "½",
    Outcome.LOSS: "0",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "-",
}


def standings_table(snapshot: EventSnapshot, names: Mapping[int, str]) -> EventTable:
    event = snapshot.event
    lines = standings_of(snapshot)
    labels = tuple(t.label for t in order_of(event))
    left = {e.player_id for e in snapshot.entries if e.left_round is not None}

    def named(player: int) -> str:
        return names.get(player, _("player {id}", id=player))

    def shown(player: int) -> str:
        name = named(player)
        return _("{player} (withdrawn)", player=name) if player in left else name

    fields = {
        "name": event.name,
        "game": game_type(event.game).title,
        "format": _(texts.FORMAT_NAMES[event.format]),
    }
    if event.round == 0:  # a round robin's count of rounds is known only at its start
        title = _("{name} - {game} {format}, before its first round", **fields)
    else:
        title = _(
            "{name} - {game} {format}, round {round} of {rounds}",
            round=current_round(snapshot),
            rounds=event.rounds,
            **fields,
        )
    if not is_robin(event):
        rows = tuple(
            (
                str(s.rank),
                shown(s.player_id),
                half_points(s.score),
                *(fraction_text(v) for v in s.tiebreaks),
            )
            for s in lines
        )
        return EventTable(
            title,
            (
                "#",
                pgettext("standings table", "Player"),
                pgettext("standings table", "Pts"),
                *labels,
            ),
            rows,
            names=tuple(named(s.player_id) for s in lines),
        )
    seeds = sorted(snapshot.entries, key=lambda e: (-e.rating, e.joined_at, e.player_id))
    number = {e.player_id: n for n, e in enumerate(seeds, start=1)}
    records = history(snapshot)
    crossed = []
    for s in lines:
        against: dict[int, str] = {}
        for record in records.get(s.player_id, ()):
            if record.opponent is not None:
                against[record.opponent] = against.get(record.opponent, "") + MARKS[record.outcome]
        cells = tuple(SELF if p == s.player_id else against.get(p, "·") for p in number)
        crossed.append(
            (str(s.rank), f"{number[s.player_id]} {shown(s.player_id)}", *cells,
             half_points(s.score), *(fraction_text(v) for v in s.tiebreaks))
        )  # fmt: skip
    header = (
        "#",
        pgettext("standings table", "Player"),
        *(str(n) for n in number.values()),
        pgettext("standings table", "Pts"),
        *labels,
    )
    return EventTable(
        title,
        header,
        tuple(crossed),
        points=2 + len(number),
        names=tuple(named(s.player_id) for s in lines),
    )


def pairings_text(snapshot: EventSnapshot, names: Mapping[int, str], round_: int) -> str:
    """A round's boards: each with its result or a link to its game's thread."""
    event = snapshot.event
    if event.round == 0:
        return not_paired(event)
    rows = [p for p in snapshot.pairings if p.round == round_]
    if not rows:
        return _("{event} has no round {round} paired.", event=texts.title(event), round=round_)
    lines = []
    for row in rows:
        first = texts.name_of(names, row.first_id)
        if row.second_id is None:
            lines.append((f"{row.board}. " + _("{player}: bye", player=first), True))
            continue
        second = texts.name_of(names, row.second_id)
        if row.outcome is not None:
            state = MARKS[Outcome(row.outcome)] + "-" + MARKS[Outcome(row.outcome).opposite]
        elif row.thread_id is not None:
            state = _("playing in <#{thread}>", thread=row.thread_id)
        else:
            state = pgettext("a board's game", "opening")
        pair = _("{first} v {second}", first=first, second=second)
        lines.append((f"{row.board}. {pair}: {state}", True))
    head = _("{event}, round {round}:", event=texts.title(event), round=round_)
    return clipped(head, lines)


def not_paired(event: EventRow) -> str:
    """What ``pairings`` says of an event with no round paired: before its start (there
    is no current round to show yet), or one that ended without any."""
    if event.status in (REGISTERING, RUNNING):
        return _(
            "{event} has not started yet: its first round is paired when it starts.",
            event=texts.title(event),
        )
    return _("{event} is over, and no round of it was ever paired.", event=texts.title(event))
