"""``/tora away`` and the player's own settings of time (``/tora settings``: their time zone,
automatic away days), in terms of the match service, for any front end. Away days are per
server: the command is given in a server, or through a button of one of its matches."""

from __future__ import annotations

import datetime as dt
import re

from bot.i18n import _, option, pgettext, slash, speaking
from bot.service import MatchService, Reply, Stamp
from bot.service.absence import days_between
from bot.service.languages import LanguageChoice
from bot.service.people import PlayerSettings, checked_zone, zone
from bot.service.texts import quote

from .answers import Answer, Unusable
from .buttons import label, presses
from .callers import Caller
from .notify_form import DISCORD, ME, language_words
from .parsing import parse_duration

DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
# a date in another form (2027/03/01, 01.03.2027): told how to write it, not as a duration
OTHER_DATE = re.compile(r"\d{1,4}[./ ]\d{1,2}[./ ]\d{1,4}")


class TimeOff:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def away(
        self,
        caller: Caller,
        days: int | None = None,
        start: str | None = None,
        until: str | None = None,
        back: bool = False,
    ) -> Answer:
        """Take away days from ``start`` (now; a duration from now, ``2d``, or a date,
        ``2027-03-01``, in the caller's time zone) for ``days`` or ``until`` a date or
        duration; ``back`` comes back early; nothing given: the caller's away days."""
        guild = _guild(caller)
        user = caller.user
        if back:
            return _answer(await self.service.back(guild, user), caller)
        if days is not None and until is not None:
            raise Unusable(
                _(
                    "Say for how long in one way: `{days}:` or `{until}:`, not both.",
                    days=option("days"),
                    until=option("until"),
                )
            )
        if days is None and until is None:
            if start is not None:
                raise Unusable(
                    _(
                        "Say for how long: `{days}:3`, or `{until}:2027-03-01`.",
                        days=option("days"),
                        until=option("until"),
                    )
                )
            return _answer(await self.service.away_days(guild, user), caller)
        settings = await self.service.records.player_settings(user.id)
        now = self.service.records.now()
        # a start in the past is now: the time away begins when it is taken, and its days
        # are counted (and ``until`` checked) from then
        begin = now if start is None else max(now, _moment(start, now, settings))
        if days is None:
            assert until is not None
            end = _moment(until, begin, settings)
            if end <= now:
                raise Unusable(
                    _(
                        "Your time away would end in the past: `{until}` must come after now.",
                        until=option("until"),
                    )
                )
            if end <= begin:
                raise Unusable(
                    _(
                        "`{until}` must come after the start of your time away.",
                        until=option("until"),
                    )
                )
            # the allowance counts the days it begins (days of the player's time zone,
            # 23 or 25 hours across a change of summer time); the time away itself ends at
            # ``end`` (a date: its midnight), not with the whole of its last day
            days = days_between(begin, end, settings.zone)
            return _answer(await self.service.away(guild, user, begin, days, end), caller)
        return _answer(await self.service.away(guild, user, begin, days), caller)

    async def away_button(self, caller: Caller, verb: str, made: Stamp | None) -> Answer:
        """A match's "Away for a day" (on a reminder) or "I am back": the server is the
        match's."""
        hosted = None if made is None else await self.service.records.hosted(made.match)
        guild = caller.guild_id if hosted is None else hosted.guild_id
        if not guild:
            raise Unusable(
                _("Use {command} in the server of your match.", command=slash("tora away"))
            )
        if verb == "back":
            return _answer(await self.service.back(guild, caller.user), caller)
        now = self.service.records.now()
        return _answer(await self.service.away(guild, caller.user, now, 1), caller)

    async def settings(
        self,
        caller: Caller,
        timezone: str | None = None,
        auto_away: bool | None = None,
        language: str | None = None,
    ) -> Answer:
        """The caller's own settings, changed as given, then shown (in the language just
        chosen, if one was: ``language`` is a shipped language's code, or ``discord``)."""
        records = self.service.records
        mine = await records.player_settings(caller.user.id)
        if timezone is not None:
            mine = PlayerSettings(checked_zone(timezone), mine.auto_away)
        if auto_away is not None:
            mine = PlayerSettings(mine.timezone, auto_away)
        if timezone is not None or auto_away is not None:
            await records.save_player_settings(caller.user, mine)
        if language is not None:
            try:
                await records.choose_player_language(
                    caller.user, None if language == DISCORD else language
                )
            except ValueError:
                raise Unusable(
                    _("{language} is not a language I speak.", language=quote(language[:20]))
                ) from None
        choice = await records.player_language(caller.user.id)
        with speaking(choice.resolved(caller.locale)):
            return Answer(_settings_text(mine, choice, caller.locale))


def _guild(caller: Caller) -> int:
    if caller.in_dm or not caller.guild_id:
        raise Unusable(
            _(
                "Away days are per server: use {command} in the server whose matches you "
                "leave for a while (or the {button} button on a reminder of one of its "
                "matches).",
                command=slash("tora away"),
                button=label("away"),
            )
        )
    return caller.guild_id


def _answer(reply: Reply, caller: Caller) -> Answer:
    return Answer.of(reply, presses(reply.buttons, caller.channel_id, None))


def _moment(text: str, base: float, settings: PlayerSettings) -> float:
    """A date (midnight in the player's time zone) or a duration after ``base``."""
    typed = text.strip()
    found = DATE.fullmatch(typed)
    if found is None and not OTHER_DATE.fullmatch(typed):
        return base + parse_duration(text)
    day = None if found is None else _date(found)
    if day is None:
        raise Unusable(_("`{text}` is not a date: write it as `2027-03-01`.", text=typed[:12]))
    return dt.datetime.combine(day, dt.time(), zone(settings.timezone)).timestamp()


def _date(found: re.Match[str]) -> dt.date | None:
    """The date ``DATE`` found; None if there is no such day (2027-02-30)."""
    try:
        return dt.date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return None


def _settings_text(mine: PlayerSettings, language: LanguageChoice, discord_now: str | None) -> str:
    auto = pgettext("setting", "on") if mine.auto_away else pgettext("setting", "off")
    return _(
        "Your settings: time zone `{zone}` (your weekends, in matches with weekends off); an "
        "away day given automatically before a missed turn: {auto}; language: {language}. "
        "Change them with {command}.",
        zone=mine.timezone,
        auto=auto,
        language=language_words(ME, language, discord_now),
        command=slash("tora settings", "timezone:Europe/Paris", "auto_away:False", "language:"),
    )
