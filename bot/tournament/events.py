"""Swiss and round robin events of any game, on the match service: what a stored event's
history is, how its next round is paired, and the writes that move it on (each inside one
``store.events.transact``).

A round is paired outside any transaction (the Swiss library may take seconds on a large
event: ``next_rounds`` runs in a worker thread) from a snapshot, then written in one
transaction that first checks that the event has not moved since (``write_rounds``): a crash
or a second process pairing the same round leaves the round wholly paired once, or not at
all. Games are opened afterwards, from what is stored (``flow``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_, _, ngettext, speaking
from bot.service.errors import Refused
from bot.service.models import AI_IDS
from storage import Post
from storage.competitions.events import (
    FINISHED,
    REGISTERING,
    RUNNING,
    EventRow,
    EventSnapshot,
    EventTx,
    PairingRow,
)

from . import event_texts as texts
from .records import Colour, Outcome, PairedRound, PointsTable, RoundRecord
from .roundrobin import schedule
from .swiss import CannotPair, SwissPlayer, pair_round
from .tiebreaks import (
    ROUND_ROBIN_ORDER,
    SWISS_ORDER,
    Standing,
    Tiebreak,
    parse_order,
    standings,
)

SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN = "swiss", "round-robin", "double-round-robin"
FORMATS = (SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN)
BYE = "bye"  # a bye's pairing is decided by "bye" as soon as it is written
BY_GAME, BY_DEADLINE, BY_ADMIN, BY_WITHDRAWAL = "game", "deadline", "admin", "withdrawal"


def table_of(event: EventRow) -> PointsTable:
    return PointsTable(bye=event.bye_points)


def order_of(event: EventRow) -> tuple[Tiebreak, ...]:
    if event.tiebreaks:
        return parse_order(event.tiebreaks)
    return SWISS_ORDER if event.format == SWISS else ROUND_ROBIN_ORDER


def is_robin(event: EventRow) -> bool:
    return event.format != SWISS


def history(snapshot: EventSnapshot) -> dict[int, list[RoundRecord]]:
    """Each entrant's decided rounds, in order; a round of a Swiss they were not paired in
    (entered later, withdrawn) is an absence. Undecided games are left out."""
    event = snapshot.event
    rounds: dict[int, dict[int, RoundRecord | None]] = {e.player_id: {} for e in snapshot.entries}
    for row in snapshot.pairings:
        for player, record in _records(row):
            rounds.setdefault(player, {})[row.round] = record
    out: dict[int, list[RoundRecord]] = {}
    for player, by_round in rounds.items():
        if is_robin(event):
            out[player] = [r for _, r in sorted(by_round.items()) if r is not None]
            continue
        records = []
        for number in range(1, event.round + 1):
            if number not in by_round:
                records.append(RoundRecord(Outcome.ABSENT))
            elif (found := by_round[number]) is not None:
                records.append(found)
        out[player] = records
    return out


def _records(row: PairingRow) -> list[tuple[int, RoundRecord | None]]:
    """What a board gave each of its players (None: not decided yet)."""
    if row.second_id is None:
        return [(row.first_id, RoundRecord(Outcome.BYE))]
    if row.outcome is None:
        return [(row.first_id, None), (row.second_id, None)]
    outcome = Outcome(row.outcome)
    return [
        (row.first_id, RoundRecord(outcome, row.second_id, Colour.FIRST)),
        (row.second_id, RoundRecord(outcome.opposite, row.first_id, Colour.SECOND)),
    ]


def standings_of(snapshot: EventSnapshot) -> list[Standing]:
    event = snapshot.event
    players = [e.player_id for e in snapshot.entries]
    return standings(players, history(snapshot), order_of(event), table_of(event))


# ---- pairing (outside transactions) --------------------------------------------------------
@dataclass(frozen=True)
class Paired:
    """The rounds to write after ``after`` (all of a round robin's at once, one Swiss
    round) from the entries of ``entrants``, or why none can be."""

    after: int
    entrants: frozenset[int]
    rounds: tuple[PairedRound, ...]
    refusal: str | None = None


def entrants_of(snapshot: EventSnapshot) -> frozenset[int]:
    """Who has entered: a round is written only for the entries it was paired from."""
    return frozenset(e.player_id for e in snapshot.entries)


def next_rounds(snapshot: EventSnapshot) -> Paired:
    """The next round(s) of a running event, from its snapshot (pure; may take seconds)."""
    event, entrants = snapshot.event, entrants_of(snapshot)
    if is_robin(event):
        seeded = sorted(snapshot.entries, key=lambda e: (-e.rating, e.joined_at, e.player_id))
        ids = [e.player_id for e in seeded]
        rounds = tuple(schedule(ids, event.format == DOUBLE_ROUND_ROBIN))
        return Paired(event.round, entrants, rounds)
    number = event.round + 1
    players = [
        SwissPlayer(e.player_id, e.rating, active=e.plays(number), joined_at=e.joined_at)
        for e in snapshot.entries
        if e.joined_round <= number
    ]
    if sum(p.active for p in players) < 2:
        return Paired(event.round, entrants, (), N_("fewer than two players are left to pair"))
    try:
        paired = pair_round(players, history(snapshot), event.rounds, table_of(event))
    except CannotPair:
        refusal = N_("every pair of players left has met already")
        return Paired(event.round, entrants, (), refusal)
    return Paired(event.round, entrants, (paired,))


# ---- inside one transaction ----------------------------------------------------------------
def write_rounds(
    tx: EventTx, event_id: int, paired: Paired, deadline: float | None, ai: str | None
) -> bool:
    """Write the paired rounds, with the round's post, unless the event moved on since the
    snapshot they were paired from, or someone entered meanwhile (a late entry is told it is
    paired from this round: it is paired again, with them). Then nothing is written: False.
    ``ai``: the AI's level that plays whoever has a round's bye (None: the bye stands)."""
    snapshot = tx.snapshot(event_id)
    event = snapshot.event
    if event.status != RUNNING or event.round != paired.after:
        return False
    if entrants_of(snapshot) != paired.entrants:
        return False
    number = paired.after
    for number, round_ in enumerate(paired.rounds, start=paired.after + 1):
        for board, pair in enumerate(round_.boards, start=1):
            tx.add_pairing(event_id, number, board, pair.first, pair.second)
        last = len(round_.boards) + 1
        if round_.bye is not None and ai is not None:  # the AI fills the odd slot
            robot = AI_IDS[ai]
            first, second = (round_.bye, robot) if round_.bye_first else (robot, round_.bye)
            tx.add_pairing(event_id, number, last, first, second)
        elif round_.bye is not None:
            tx.decide(tx.add_pairing(event_id, number, last, round_.bye, None), BYE, BYE)
    tx.set_round(event_id, number, deadline)
    if is_robin(event):
        tx.set_rounds(event_id, number)
    names = tx.names(e.player_id for e in snapshot.entries)
    tx.post(
        [
            Post(
                event.channel_id,
                texts.round_opened(event, paired.after, paired.rounds, deadline, tx.now, names, ai),
            )
        ]
    )
    return True


def finish(tx: EventTx, event_id: int, why: str | None = None) -> bool:
    """End a running event whose games are all decided, with its final standings post."""
    snapshot = tx.snapshot(event_id)
    event = snapshot.event
    if event.status != RUNNING or any(p.outcome is None for p in snapshot.pairings):
        return False
    tx.set_status(event_id, FINISHED)
    tx.set_round(event_id, event.round, None)
    names = tx.names(e.player_id for e in snapshot.entries)
    lines = standings_of(snapshot)
    tx.post([Post(event.channel_id, texts.finished(event, lines, names, why))])
    return True


def record_outcome(tx: EventTx, event_id: int, pairing_id: int, outcome: Outcome, by: str) -> bool:
    """Decide an undecided board (the first player's ``outcome``) and post it in the game's
    thread. False if it was decided already."""
    if not tx.decide(pairing_id, outcome.value, by):
        return False
    snapshot = tx.snapshot(event_id)
    row = next(p for p in snapshot.pairings if p.id == pairing_id)
    names = tx.names(p for p in (row.first_id, row.second_id) if p is not None)
    where = row.thread_id or snapshot.event.channel_id
    then = texts.next_step(snapshot.event, undecided(snapshot))
    tx.post([Post(where, texts.decided(snapshot.event, row, outcome, by, names, then))])
    return True


def overrule(tx: EventTx, event_id: int, pairing_id: int, outcome: Outcome) -> None:
    """Decide a board by its game's result, which also replaces an adjudication at the
    deadline that the game's end overtook (posted again, with the game's result)."""
    if record_outcome(tx, event_id, pairing_id, outcome, BY_GAME):
        return
    snapshot = tx.snapshot(event_id)
    row = next(p for p in snapshot.pairings if p.id == pairing_id)
    if row.decided_by != BY_DEADLINE or row.outcome == outcome.value:
        return
    tx.adjust(pairing_id, outcome.value, BY_GAME)
    names = tx.names(p for p in (row.first_id, row.second_id) if p is not None)
    where = row.thread_id or snapshot.event.channel_id
    tx.post([Post(where, texts.decided(snapshot.event, row, outcome, BY_GAME, names))])


def undecided(snapshot: EventSnapshot) -> int:
    """How many boards paired so far are not decided yet."""
    return sum(p.outcome is None for p in snapshot.pairings)


def round_done(snapshot: EventSnapshot) -> bool:
    """Whether every board paired so far is decided."""
    return all(p.outcome is not None for p in snapshot.pairings)


def completed_rounds(snapshot: EventSnapshot) -> int:
    """How many rounds, from the first, have every board decided (what the standings are
    after)."""
    done = 0
    for number in range(1, snapshot.event.round + 1):
        if any(p.round == number and p.outcome is None for p in snapshot.pairings):
            break
        done = number
    return done


def current_round(snapshot: EventSnapshot) -> int:
    """The round being played: a Swiss's latest paired; a round robin's first with a game
    undecided (all its rounds are paired at its start, the last is not what is played)."""
    event = snapshot.event
    if not is_robin(event):
        return event.round
    return min(completed_rounds(snapshot) + 1, event.round)


def later_byes(snapshot: EventSnapshot, player_id: int) -> list[PairingRow]:
    """A round robin's byes of ``player_id`` in rounds after the one being played (written,
    decided, at its start): a withdrawal annuls them, a replacement hands them on."""
    now = current_round(snapshot)
    return [
        row
        for row in snapshot.pairings
        if row.second_id is None and row.first_id == player_id and row.round > now
    ]


def wants_pairing(snapshot: EventSnapshot) -> bool:
    """A running event whose boards are all decided and which has rounds left to pair."""
    event = snapshot.event
    if event.status != RUNNING or not round_done(snapshot):
        return False
    if is_robin(event):
        return event.round == 0
    return event.round < event.rounds


def withdraw(
    tx: EventTx, event_id: int, player_id: int, actor_id: int, public: str
) -> tuple[str, list[int]]:
    """Leave a registering event, or withdraw from a running one (see ``EventDesk.leave``):
    the answer in the current language (the posts in ``public``, the server's) and the
    leaver's games to call off."""
    snapshot = tx.snapshot(event_id)
    e = snapshot.event
    entry = next((x for x in snapshot.entries if x.player_id == player_id), None)
    if entry is None or entry.left_round is not None:
        raise Refused(_("You are not playing in {event}.", event=texts.title(e)))
    if e.status == REGISTERING:
        tx.remove_entry(e.id, player_id)
        return _("You have left {event}.", event=texts.title(e)), []
    if e.status != RUNNING:
        raise Refused(_("{event} is over.", event=texts.title(e)))
    tx.leave(e.id, player_id, e.round + 1)
    tx.log(e.id, actor_id, "withdraw", str(player_id))
    for bye in later_byes(snapshot, player_id):
        tx.drop_bye(e.id, bye.id)
    lost = [
        row
        for row in snapshot.pairings
        if row.outcome is None and player_id in (row.first_id, row.second_id)
    ]
    with speaking(public):
        for row in lost:
            forfeit = Outcome.FORFEIT_LOSS if player_id == row.first_id else Outcome.FORFEIT_WIN
            record_outcome(tx, e.id, row.id, forfeit, BY_WITHDRAWAL)
        names = tx.names((player_id,))
        # the leaver's undecided boards are decided now (the byes dropped were decided)
        then = texts.next_step(e, undecided(snapshot) - len(lost))
        tx.post([Post(e.channel_id, texts.withdrew(e, names.get(player_id, "?"), then))])
    text = ngettext(
        "You have withdrawn from {event}: your {n} game not yet decided is lost by forfeit "
        "(called off if it is being played), and you are paired no more.",
        "You have withdrawn from {event}: your {n} games not yet decided are lost by "
        "forfeit (those being played are called off), and you are paired no more.",
        len(lost),
        event=texts.title(e),
    )
    return text, [row.hosted_id for row in lost if row.hosted_id is not None]
