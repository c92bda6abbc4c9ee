"""Each player's own settings, the same in every server: their time zone (for weekends off
and quiet hours) and whether the bot may give them an away day before a missed turn. Kept
in storage's ``player_settings`` rows."""

from __future__ import annotations

import functools
import re
import zoneinfo
from dataclasses import dataclass

from bot.i18n import _
from storage import Store

from .errors import Refused
from .texts import quote

TIMEZONE, AUTO_AWAY = "timezone", "auto_away"
ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")
LONGEST_ZONE = 40


@dataclass(frozen=True)
class PlayerSettings:
    timezone: str = "UTC"
    auto_away: bool = True  # the bot may give an away day before a missed turn

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zone(self.timezone)


def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone named (UTC for a name no longer known)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def checked_zone(text: str) -> str:
    """An IANA time zone's name as typed (``Europe/Paris``, ``America/New_York``, ``UTC``),
    in any case, as the database spells it (``utc`` is ``UTC``); Refused, naming what is
    allowed, for anything else."""
    name = text.strip()
    if len(name) <= LONGEST_ZONE and ZONE_NAME.fullmatch(name):
        spelled = _zone_names().get(name.lower(), name)
        try:
            zoneinfo.ZoneInfo(spelled)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
        else:
            return spelled
    raise Refused(
        _(
            "{zone} is not a time zone I know: write one as `Region/City`, e.g. "
            "`Europe/Paris`, `America/New_York`, `Asia/Tokyo`, or `UTC`.",
            zone=quote(name),
        )
    )


@functools.cache
def _zone_names() -> dict[str, str]:
    """Every IANA time zone's name, by its lower case (read once: it scans the database)."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


async def load_player(store: Store, user_id: int) -> PlayerSettings:
    rows = await store.player_settings(user_id)
    return PlayerSettings(
        timezone=rows.get(TIMEZONE, "UTC"),
        auto_away=rows.get(AUTO_AWAY) != "off",
    )


async def save_player(store: Store, user_id: int, settings: PlayerSettings) -> None:
    """Keep ``settings``, in one transaction: all of them or none."""
    auto_away = "on" if settings.auto_away else "off"
    await store.set_player_settings(user_id, {TIMEZONE: settings.timezone, AUTO_AWAY: auto_away})
