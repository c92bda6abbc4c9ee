"""The match clocks players choose at the challenge (``Terms.clock``): a fixed time per turn,
a bank (a time per turn, and each player's reserve for the turns that overrun) or an
increment clock (an allowance that grows by an increment with every turn, up to a cap).

Each player's own time is stored with the hosted match (``Hosted.clocks``, as it stood when
the running turn began) and the running turn's deadline is ``due_at``, so a restart never
resets a clock: a turn that ended at a deadline passed while the bot was down is judged by
those stored times (it ended at its deadline, with nothing left)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from bot.i18n import SOURCE, _, current, speaking
from rules import Side
from storage import Hosted

from .stops import Interval, run_until, running_between
from .terms import BANK_CLOCK, INCREMENT_CLOCK, Terms
from .texts import duration

GIFT = 86400.0  # the time "give time" adds: a day
MOST_LEFT = 30 * 86400.0  # no gift takes a player's time past this


def starting(terms: Terms) -> tuple[float, float] | None:
    """Each player's own time when the game begins (None: a fixed time per turn)."""
    if terms.clock == BANK_CLOCK:
        return terms.bank_seconds, terms.bank_seconds
    if terms.clock == INCREMENT_CLOCK:
        return terms.turn_seconds, terms.turn_seconds
    return None


def turn_time(terms: Terms, hosted: Hosted, side: Side) -> float:
    """How long ``side``'s turn lasts when it begins: the time per turn (and the bank), or
    the allowance."""
    clocks = hosted.clocks or starting(terms)
    if clocks is None:
        return terms.turn_seconds
    if terms.clock == BANK_CLOCK:
        return terms.turn_seconds + clocks[side]
    return clocks[side]


def running_left(hosted: Hosted, now: float) -> float:
    """What is left of the running turn: while paused, what was left at the pause; a
    deadline passed counts as nothing left."""
    if hosted.paused_left is not None:
        return hosted.paused_left
    if hosted.due_at is None:
        return 0.0
    return max(0.0, hosted.due_at - now)


def settled(
    terms: Terms,
    hosted: Hosted,
    side: Side,
    now: float,
    stops: Sequence[Interval] = (),
    earned: bool = True,
) -> Hosted:
    """``side``'s turn is over (by their end of turn, or its deadline): their bank keeps
    what the turn did not use of it, their allowance what was left plus the increment (the
    running time left: none while ``stops`` stop their clock). Without ``earned`` (a decision
    in the opponent's turn, TI15, is not a turn of their own) no increment is added, unless
    it took the whole allowance (its deadline): the increment alone is left for their own
    turn, as after any turn ended at its deadline."""
    if hosted.clocks is None:
        return hosted
    left = running_left(hosted, now)
    if hosted.paused_left is None and hosted.due_at is not None:
        left = running_between(now, hosted.due_at, stops)
    clocks = list(hosted.clocks)
    if terms.clock == BANK_CLOCK:
        clocks[side] = min(clocks[side], left)
    elif terms.clock == INCREMENT_CLOCK:
        increment = terms.increment_seconds if earned or left <= 0 else 0.0
        clocks[side] = min(terms.cap_seconds, left + increment)
    return replace(hosted, clocks=(clocks[0], clocks[1]))


def taken_back(terms: Terms, hosted: Hosted, side: Side) -> Hosted:
    """``side``'s last turn is taken back, to be played again: the increment its end added
    to their allowance goes with it (the time it used stays used, as a bank keeps what it
    paid), so that the turn played again earns the one increment of a turn. An allowance
    held at the cap loses the whole increment (what the cap cut off is not known)."""
    if hosted.clocks is None or terms.clock != INCREMENT_CLOCK:
        return hosted
    clocks = list(hosted.clocks)
    clocks[side] = max(0.0, clocks[side] - terms.increment_seconds)
    return replace(hosted, clocks=(clocks[0], clocks[1]))


def started(
    now: float, terms: Terms, hosted: Hosted, side: Side, stops: Sequence[Interval] = ()
) -> Hosted:
    """``side``'s turn begins now: its deadline, its time run outside ``stops`` (its
    reminder is the player's, ``Context.next_reminder``)."""
    due = run_until(now, turn_time(terms, hosted, side), stops)
    return replace(hosted, due_at=due, remind_at=None, paused_left=None)


def started_paused(terms: Terms, hosted: Hosted, side: Side) -> Hosted:
    """``side``'s turn begins while the match is paused (a takeback or a reset agreed during
    the pause): it stays paused, its clock holding the turn's full time for the resume."""
    return replace(hosted, due_at=None, remind_at=None, paused_left=turn_time(terms, hosted, side))


def left(terms: Terms, hosted: Hosted, side: Side, to_act: Side, now: float) -> float | None:
    """The time ``side`` has: on their turn, what is left of it; else what their next turn
    will last. None on a fixed time per turn (the deadline says it)."""
    if hosted.clocks is None or terms.clock not in (BANK_CLOCK, INCREMENT_CLOCK):
        return None
    if side == to_act:
        return running_left(hosted, now)
    return turn_time(terms, hosted, side)


def bank_left(terms: Terms, hosted: Hosted, side: Side, to_act: Side, now: float) -> float | None:
    """A bank clock's reserve left to ``side`` now (None on other clocks)."""
    if hosted.clocks is None or terms.clock != BANK_CLOCK:
        return None
    if side == to_act:
        return min(hosted.clocks[side], running_left(hosted, now))
    return hosted.clocks[side]


def side_words(
    terms: Terms, hosted: Hosted, side: Side, to_act: Side, now: float, localized: bool = False
) -> str:
    """``2 days 4 h`` (``, bank 5 days``) for one player, or "" on a fixed time per turn; in
    English unless ``localized`` (as ``texts.duration``)."""
    time = left(terms, hosted, side, to_act, now)
    if time is None:
        return ""
    with speaking(current() if localized else SOURCE):
        return _side_words(terms, hosted, side, to_act, now, time)


def _side_words(
    terms: Terms, hosted: Hosted, side: Side, to_act: Side, now: float, time: float
) -> str:
    left_now = duration(_whole_minutes(time), localized=True)
    bank = bank_left(terms, hosted, side, to_act, now)
    running = side == to_act and hosted.paused_left is None
    if bank is None:
        return _("{time}, running", time=left_now) if running else left_now
    banked = duration(_whole_minutes(bank), localized=True)
    if running:
        return _("{time} (bank {bank}), running", time=left_now, bank=banked)
    return _("{time} (bank {bank})", time=left_now, bank=banked)


def _whole_minutes(seconds: float) -> float:
    """A running time rounded up to the minute: 7 days less a second reads "7 days"."""
    return math.ceil(seconds / 60) * 60.0


def clocks_line(
    terms: Terms,
    hosted: Hosted,
    to_act: Side,
    now: float,
    names: tuple[str, str],
    localized: bool = False,
) -> str:
    """Each player's time, for posts and boards: ``Time left: ann 2 days 4 h, running (bank
    5 days) · bob 3 days (bank 7 days).``; "" on a fixed time per turn. In English unless
    ``localized`` (as ``texts.duration``)."""
    with speaking(current() if localized else SOURCE):
        parts = [
            f"{names[side]} {words}"
            for side in Side
            if (words := side_words(terms, hosted, side, to_act, now, localized=True))
        ]
        return _("Time left: {clocks}.", clocks=" \u00b7 ".join(parts)) if parts else ""


def gift(
    terms: Terms, hosted: Hosted, to: Side, to_act: Side, stops: Sequence[Interval] = ()
) -> Hosted:
    """``to`` is given a day: on their running turn its deadline (and their bank) moves on
    by a day of running clock, outside ``stops`` (a calendar day could end the turn in
    their weekend, when their clock stands still); on the giver's turn, their own time for
    the next turn grows (a bank or an allowance). ValueError on a fixed time per turn
    outside their turn: there is nothing to add to."""
    clocks = list(hosted.clocks) if hosted.clocks is not None else None
    if clocks is not None and terms.clock == BANK_CLOCK:
        clocks[to] += GIFT
    if to == to_act:
        if hosted.paused_left is not None:
            hosted = replace(hosted, paused_left=hosted.paused_left + GIFT)
        elif hosted.due_at is not None:
            hosted = replace(hosted, due_at=run_until(hosted.due_at, GIFT, stops))
    elif clocks is not None:
        if terms.clock == INCREMENT_CLOCK:
            clocks[to] += GIFT
    else:
        raise ValueError("a fixed time per turn: the next turn has its full time anyway")
    if clocks is not None:
        hosted = replace(hosted, clocks=(clocks[0], clocks[1]))
    return hosted
