"""Which of an event's Join and Leave buttons still apply (``bot.tournament.event_buttons``): the
front ends disable the others, so no button is shown that the desk would refuse whoever
pressed it. The flow through Discord is in ``test_tournament_e2e``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.tournament.event_buttons import ENTER, QUIT, applying
from storage.competitions.events import CANCELLED, FINISHED, REGISTERING, RUNNING, EventRow

NOW = 1.8e9
SWISS = EventRow(
    guild_id=1, channel_id=2, name="Spring", game="torishogi", options="{}", format="swiss",
    rounds=3, turn_seconds=86400.0, round_seconds=5 * 86400.0, rated=False, bye_points=2,
    tiebreaks="", max_players=64, ai_fill=None, organiser_id=9, entry_closes=None,
    starts_at=None, away_days=True, id=1, status=REGISTERING, round=0, round_deadline=None,
    created_at=NOW - 100, started_at=None, finished_at=None,
)  # fmt: skip


def test_a_registering_event_takes_entries_and_withdrawals() -> None:
    assert applying(SWISS, NOW) == (ENTER, QUIT)


def test_a_running_swiss_takes_late_entries_until_its_last_round_is_paired() -> None:
    running = replace(SWISS, status=RUNNING, round=2)
    assert applying(running, NOW) == (ENTER, QUIT)
    assert applying(replace(running, round=3), NOW) == (QUIT,)


def test_a_round_robin_takes_no_entry_once_started() -> None:
    robin = replace(SWISS, format="round-robin")
    assert applying(robin, NOW) == (ENTER, QUIT)
    assert applying(replace(robin, status=RUNNING, round=1), NOW) == (QUIT,)


def test_entries_closed_leave_only_leave() -> None:
    closing = replace(SWISS, entry_closes=NOW)
    assert applying(closing, NOW) == (ENTER, QUIT)
    assert applying(closing, NOW + 1) == (QUIT,)


@pytest.mark.parametrize("status", [FINISHED, CANCELLED])
def test_an_event_over_or_gone_has_no_button_left(status: str) -> None:
    assert applying(replace(SWISS, status=status), NOW) == ()
    assert applying(None, NOW) == ()
