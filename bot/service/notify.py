"""Notifications each player controls (``/tora settings``), with their server's defaults
(set by its admins) under them and the bot's under those: a DM on their turn, a mention in
the channel, reminders, quiet hours in their time zone, a daily digest instead of the
per-turn DMs, DMs of the opponent's proposals.

The service marks what a message is about (``Mail``'s ``notice``: ``turn``, ``reminder``,
``proposal``); the outbox asks ``decide`` as each goes: a DM the player does not want is
dropped, a DM in their quiet hours is held until they end (and a turn's DM dropped if that
turn is over by then: ``outbox.outlived``). "Mention me" is about their turn and their
opponent's proposals: a channel post of those mentions only the players who want it. The
defaults ping once for one event: for a turn or a proposal the DM, not the mention; for
other news of a match that names them (its end, a gift of time, a challenge) the mention
in its post, which has no DM beside it. A player whose DMs are closed to the bot (the last
DM sent them was refused: ``DMS_CLOSED``, kept by the outbox) gets the mention in place of
a DM they want, whose fallback in the channel pings nobody. No player is pinged in their
quiet hours: the post goes without their mention (a ping cannot wait as a DM does)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import N_, _
from storage import Store

from .people import zone

PREFIX = "notify_"
TURN, REMINDER, PROPOSAL = "turn", "reminder", "proposal"  # what a message is about
ON, OFF = "on", "off"
# The player setting the outbox keeps while the player's DMs are closed to the bot: set when
# a DM to them is refused, removed when one reaches them.
DMS_CLOSED = "dms_closed"
# Each setting: its values (the first is the bot's default) and their words.
DIGEST_HOURS = (6, 7, 8, 9, 12, 18, 20)
# Quiet hours cover both ways of reaching a player: a DM waits, a post's mention is left out.
QUIET = N_("quiet {start}-{end} (no pings; DMs wait)")
CHOICES: dict[str, dict[str, str]] = {
    "dm_turn": {ON: N_("DM on my turn"), OFF: N_("no DM on my turn")},
    "mention": {OFF: N_("no mention on my turn"), ON: N_("a mention on my turn")},
    "proposals": {ON: N_("DMs of proposals"), OFF: N_("no DMs of proposals")},
    "reminders": {
        "80": N_("a reminder at 80 % of the time"),
        "none": N_("no reminders"),
        "50": N_("a reminder at 50 %"),
        "50,80": N_("reminders at 50 % and 80 %"),
        "h1": N_("a reminder 1 h before the deadline"),
        "h3": N_("a reminder 3 h before the deadline"),
        "h12": N_("a reminder 12 h before the deadline"),
        "h24": N_("a reminder 24 h before the deadline"),
    },
    "quiet": {
        OFF: N_("no quiet hours"),
        **{hours: QUIET for hours in ("22-7", "23-8", "0-8", "21-9")},
    },
    "digest": {
        OFF: N_("no daily digest"),
        **{str(hour): N_("a daily digest at {time}") for hour in DIGEST_HOURS},
    },
}
KEYS = tuple(CHOICES)
SERVER_KEYS = tuple(key for key in KEYS if key != "digest")  # a digest is the player's own


@dataclass(frozen=True)
class Notify:
    """One player's notifications, their own settings over their server's defaults."""

    values: Mapping[str, str]
    timezone: str = "UTC"
    dms_closed: bool = False  # the last DM sent them was refused (``DMS_CLOSED``)

    def __getitem__(self, key: str) -> str:
        return self.values[key]

    @property
    def dm_turn(self) -> bool:
        return self["dm_turn"] == ON

    @property
    def turn_dms(self) -> bool:
        """Whether the player gets a DM on their turn: they want it, and no daily digest
        tells them instead."""
        return self.dm_turn and self.digest is None

    @property
    def mention(self) -> bool:
        return self["mention"] == ON

    @property
    def proposals(self) -> bool:
        return self["proposals"] == ON

    @property
    def digest(self) -> int | None:
        """The hour of the daily digest in the player's time zone (None: none)."""
        value = self["digest"]
        return None if value == OFF else int(value)

    @property
    def any_reminder(self) -> bool:
        """Whether the player wants reminders at all (the setup's comes at its own time)."""
        return self["reminders"] != "none"

    def reminders(self, due: float, seconds: float) -> list[float]:
        """When to remind the player of a turn of ``seconds`` due at ``due``."""
        value = self["reminders"]
        if value == "none":
            return []
        if value.startswith("h"):
            return [due - int(value[1:]) * 3600.0]
        return sorted(due - (1 - int(part) / 100) * seconds for part in value.split(","))

    def quiet_until(self, now: float) -> float | None:
        """When the player's quiet hours end, if ``now`` is in them."""
        value = self["quiet"]
        if value == OFF:
            return None
        start, end = (int(part) for part in value.split("-"))
        local = dt.datetime.fromtimestamp(now, zone(self.timezone))
        hour = local.hour
        inside = start <= hour < end if start < end else hour >= start or hour < end
        if not inside:
            return None
        ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
        if ends <= local:
            ends += dt.timedelta(days=1)
        return ends.timestamp()

    def words(self, keys: Sequence[str] = KEYS) -> str:
        """The settings ``keys`` (a server's defaults: ``SERVER_KEYS``) in the current
        language (``bot.i18n``)."""
        return "; ".join(choice_words(key, self[key]) for key in keys)


def choice_words(key: str, value: str) -> str:
    """A setting's value in words, in the current language."""
    if key == "quiet" and value != OFF:
        start, end = (f"{int(hour):02d}:00" for hour in value.split("-"))
        return _(CHOICES[key][value], start=start, end=end)
    if key == "digest" and value != OFF:
        hour = f"{int(value):02d}:00"
        return _(CHOICES[key][value], time=hour)
    return _(CHOICES[key][value])


def defaults(guild: Mapping[str, str]) -> dict[str, str]:
    """The server's defaults over the bot's."""
    found = {key: next(iter(values)) for key, values in CHOICES.items()}
    for key in SERVER_KEYS:
        value = guild.get(PREFIX + key)
        if value in CHOICES[key]:
            found[key] = value
    return found


async def notify_of(store: Store, user_id: int, guild_id: int | None) -> Notify:
    """``user_id``'s notifications in ``guild_id`` (its defaults under their own)."""
    return notify_from(*await store.settings_in(user_id, guild_id))


def notify_from(own: Mapping[str, str], guild: Mapping[str, str]) -> Notify:
    """A player's notifications from their own settings and their server's."""
    found = defaults(guild)
    for key in KEYS:
        value = own.get(PREFIX + key)
        if value in CHOICES[key]:
            found[key] = value
    return Notify(found, own.get("timezone", "UTC"), DMS_CLOSED in own)


def checked(key: str, value: str) -> tuple[str, str]:
    """A setting as a front end sent it: ValueError unless it is one."""
    if key not in CHOICES or value not in CHOICES[key]:
        raise ValueError(f"no setting {key}={value}")
    return PREFIX + key, value


@dataclass(frozen=True)
class Decision:
    """What the outbox does with a message as it goes: drop it, hold it until ``hold``, or
    send it with ``mentions``."""

    drop: bool = False
    hold: float | None = None
    mentions: tuple[int, ...] = ()


async def decide(
    notice: str,
    user_id: int | None,
    mentions: tuple[int, ...],
    now: float,
    wants_of: Callable[[int], Awaitable[Notify]],
) -> Decision:
    """The players' notifications (``wants_of`` a player) applied to one message
    (``user_id``: a DM to them)."""
    if user_id is None:
        kept = [u for u in mentions if _pinged(notice, await wants_of(u), now)]
        return Decision(mentions=tuple(kept))
    wants = await wants_of(user_id)
    if notice == TURN and not wants.turn_dms:
        return Decision(drop=True)
    if notice == PROPOSAL and not wants.proposals:
        return Decision(drop=True)
    return Decision(hold=wants.quiet_until(now))


def _pinged(notice: str, wants: Notify, now: float) -> bool:
    """Whether a channel post about ``notice`` pings a player it mentions: a turn's or a
    proposal's if they want mentions, or want its DM but their DMs are closed; any other
    (news they get no DM of) whatever they chose; never in their quiet hours."""
    if notice == TURN:
        wanted = wants.mention or (wants.dms_closed and wants.turn_dms)
    elif notice == PROPOSAL:
        wanted = wants.mention or (wants.dms_closed and wants.proposals)
    else:
        wanted = True
    return wanted and wants.quiet_until(now) is None
