"""A server's own settings, chosen by its admins: the default turn deadline of new
challenges, whether each match gets a thread of its own, the ladder's channel (where
ladder pairings open their matches), after how long a wait in the ladder queue an AI
player takes on whoever still waits (off by default), how many matches against the AI
may be live there at once (the service's default unless set), each player's yearly
allowance of away days (14 unless set, 0: none) and whether a player who would miss a
deadline is given one of them automatically (the service's ``Settings.auto_away`` unless
set). Kept in storage's
``guild_settings`` rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from storage import Store

TURN_SECONDS, THREADS, LADDER_CHANNEL = "turn_seconds", "threads", "ladder_channel"
AI_FILL, AI_MATCHES = "ai_fill_after", "ai_matches"
AWAY_DAYS, AUTO_AWAY, CLOCK = "away_days", "auto_away", "clock"
DEFAULT_AWAY_DAYS = 14


@dataclass(frozen=True)
class ClockChoice:
    """A server's clock for new challenges and ladder matches (``Terms.clock``, its times;
    0: the clock's default)."""

    clock: str = "turn"
    bank_seconds: float = 0.0
    increment_seconds: float = 0.0
    cap_seconds: float = 0.0


@dataclass(frozen=True)
class GuildSettings:
    turn_seconds: float | None = None  # None: the service's default (Terms)
    threads: bool = False
    ladder_channel: int | None = None
    ai_fill_after: float | None = None  # seconds in the queue; None: the AI never fills it
    ai_matches: int | None = None  # live matches against the AI; None: the service's default
    away_days: int = DEFAULT_AWAY_DAYS  # each player's away days a year (0: none)
    auto_away: bool | None = None  # an away day before a missed turn; None: the service's
    clock: ClockChoice = field(default_factory=ClockChoice)


async def load_guild(store: Store, guild_id: int) -> GuildSettings:
    rows = await store.guild_settings(guild_id)
    turn = rows.get(TURN_SECONDS)
    channel = rows.get(LADDER_CHANNEL)
    fill = rows.get(AI_FILL)
    most = rows.get(AI_MATCHES)
    return GuildSettings(
        turn_seconds=None if turn is None else float(turn),
        threads=rows.get(THREADS) == "on",
        ladder_channel=None if channel is None else int(channel),
        ai_fill_after=None if fill is None else float(fill),
        ai_matches=None if most is None else int(most),
        away_days=int(rows.get(AWAY_DAYS, DEFAULT_AWAY_DAYS)),
        auto_away=None if AUTO_AWAY not in rows else rows[AUTO_AWAY] == "on",
        clock=_clock_of(rows.get(CLOCK)),
    )


async def save_guild(
    store: Store,
    guild_id: int,
    settings: GuildSettings,
    before: GuildSettings | None = None,
    clock: Callable[[ClockChoice], ClockChoice] | None = None,
) -> GuildSettings:
    """Keep ``settings``, in one transaction; with ``before`` (the settings as they were
    read), only the rows that differ from it, so that a setting another admin changed
    meanwhile, which this change leaves alone, keeps their change. With ``clock``, the clock
    is that made over the clock stored at the save (an admin's times typed, another's
    typed meanwhile kept), in place of ``settings``'. Answers the settings kept."""
    rows = _rows(settings)
    if before is not None:
        read = _rows(before)
        rows = {key: value for key, value in rows.items() if value != read[key]}
    if clock is None:
        await store.set_guild_settings(guild_id, rows)
        return settings
    rows.pop(CLOCK, None)

    def remade(stored: str | None) -> str | None:
        return _clock_row(clock(_clock_of(stored)))

    made = await store.set_guild_settings(guild_id, rows, {CLOCK: remade})
    return replace(settings, clock=_clock_of(made[CLOCK]))


def _rows(settings: GuildSettings) -> dict[str, str | None]:
    """The ``guild_settings`` rows of ``settings``, by key (None: no row, the default)."""
    turn, channel = settings.turn_seconds, settings.ladder_channel
    fill, most, auto = settings.ai_fill_after, settings.ai_matches, settings.auto_away
    return {
        TURN_SECONDS: None if turn is None else repr(turn),
        THREADS: "on" if settings.threads else "off",
        LADDER_CHANNEL: None if channel is None else str(channel),
        AI_FILL: None if fill is None else repr(fill),
        AI_MATCHES: None if most is None else str(most),
        AWAY_DAYS: str(settings.away_days),
        CLOCK: _clock_row(settings.clock),
        AUTO_AWAY: None if auto is None else "on" if auto else "off",
    }


def _clock_row(chosen: ClockChoice) -> str | None:
    """The ``guild_settings`` row of a server's clock (None: no row, the default)."""
    return None if chosen == ClockChoice() else json.dumps(chosen.__dict__, sort_keys=True)


def _clock_of(row: str | None) -> ClockChoice:
    """A server's clock from its row (None: none, the default)."""
    return ClockChoice() if row is None else ClockChoice(**json.loads(row))
