"""The commands that read rather than play: a match's record, animated replay and analysis, and the
server's ladders (through the ladder desk: leaderboards, profiles, seasons, the
queue, and the admins' season close and result removal), and the server settings."""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.i18n import _, current, ngettext, pgettext, slash
from bot.i18n.words import Language
from bot.ladder.desk import LadderDesk
from bot.ladder.queue import AI_FILL_SHORTEST, EXPIRE_AFTER
from bot.service import Attachment, GuildSettings, Hosted, Link, MatchInfo, Place, Terms, User
from bot.service.guild import ClockChoice
from bot.service.links import page_link
from bot.service.phases import CHALLENGE
from bot.service.showing import match_heading, result_words
from bot.service.texts import duration, escape, quote
from render import HIDDEN, Replay, StatusInfo, board_of, replay_or_why
from render.eval_chart import evaluation_chart_png
from rules import game_type
from rules.digits import whole_number

from . import permissions
from .actions import Actions, ClockOptions
from .answers import Answer, Unusable
from .callers import Caller
from .costly import ANALYSES, Limits
from .links import Links
from .listing import ending_words
from .options import match_number
from .parsing import parse_duration
from .pictures import BytesCache

REPLAY_CACHE = 64 * 1024 * 1024  # bytes of GIFs kept
REPOST_SECONDS = 300.0  # a replay posted in a channel is not posted there again this soon


class Lookups:
    """``links``: the web board's (None: it is off, and no page is linked)."""

    def __init__(
        self,
        actions: Actions,
        desk: LadderDesk,
        limits: Limits | None = None,
        links: Links | None = None,
    ) -> None:
        self.actions = actions
        self.links = links
        self.records = actions.service.records
        self.desk = desk
        self.limits = limits or Limits()
        self._gifs: BytesCache[Replay] = BytesCache(REPLAY_CACHE)
        self._posted: dict[tuple[int, int], float] = {}  # (channel, match) -> when

    # ---- records -------------------------------------------------------------------------
    async def _match(self, caller: Caller, number: int | None, match: str | None) -> MatchInfo:
        """The match a record is asked of: ``number``, or the one being played here (or, in
        a DM, the caller's). Another server's matches are not shown here but to their
        players (and to them alone: ``_public``); in a DM, only the caller's own."""
        if number is None:
            number = await self._default_number(caller, match)
        else:
            number = match_number(number)
        info = await self.records.match_info(number)
        mine = info is not None and info.side_of(caller.user.id) is not None
        here = info is not None and not caller.in_dm and info.guild_id == caller.guild_id
        if info is None or not (mine or here):
            await self._check_begun(caller, number)
            if caller.in_dm:
                raise Unusable(_("There is no match {number} of yours.", number=number))
            raise Unusable(_("There is no match {number} in this server.", number=number))
        return info

    async def _check_begun(self, caller: Caller, number: int) -> None:
        """Unusable if ``number`` is a hosted match whose game has not begun that the caller
        may know of: ``/tora games`` lists it by that number, so "there is no match" would
        be wrong."""
        hosted = await self.records.hosted(number)
        if hosted is None or hosted.match_id is not None:
            return
        mine = caller.user.id in (hosted.issuer_id, hosted.invitee_id)
        if mine or (not caller.in_dm and hosted.guild_id == caller.guild_id):
            raise Unusable(_not_begun(number, hosted))

    @staticmethod
    def _public(caller: Caller, info: MatchInfo) -> bool:
        """Whether ``info`` may be shown to the caller's channel: a match of this server, asked
        in one of its channels. A player's match of another server goes to them alone (its
        players' names and turns are not this server's to see)."""
        return not caller.in_dm and info.guild_id == caller.guild_id

    async def _default_number(self, caller: Caller, match: str | None) -> int:
        """The match a command without a number is about: the one played here now, else the
        last one played here, else the caller's last one (in a DM: theirs)."""
        if match or caller.in_dm:
            try:
                place = await self.actions.place(caller, match)
            except Unusable:
                place = None
            hosted = None if place is None else await self.records.live_in_channel(place.channel_id)
        else:
            hosted = await self.records.latest_in_channel(caller.channel_id, with_game=True)
        if hosted is not None and hosted.match_id is not None:
            return hosted.match_id
        for theirs in await self.records.of_user(caller.user.id, 20):
            if theirs.match_id is not None:
                return theirs.match_id
        guild = caller.guild_id
        if guild is not None:
            threads = caller.text_channel and (await self.records.guild(guild)).threads
            if not await self.records.any_in_guild(guild):
                raise Unusable(_none_yet(threads))
            if threads:  # nothing is played in the channel itself, but in its threads
                raise Unusable(
                    _(
                        "No match is played in this channel itself: here each match has a "
                        "thread of its own, which the channel's posts link. Give the command "
                        "in its thread, or give a match's number."
                    )
                )
        raise Unusable(
            _(
                "No match has been played here yet, and you have played none. Give a match's "
                "number ({command} lists yours).",
                command=slash("tora games"),
            )
        )

    async def board(self, caller: Caller, match: str | None) -> Answer:
        """The board: of the match played here now (a player's own privately, anyone else's
        the public one); else the public board of the last match played here, or of the
        caller's last one, finished or not."""
        live = caller.in_dm or match or await self.records.live_in_channel(caller.channel_id)
        if live:
            try:
                return await self._spectated(caller, match, await self.actions.board(caller, match))
            except Unusable:
                if match:
                    raise
        return await self._public_board(caller, await self._match(caller, None, None))

    async def _spectated(self, caller: Caller, match: str | None, answer: Answer) -> Answer:
        """The public board of the match played here, or of the caller's match ``match``
        (played elsewhere, maybe), headed as the match's posts are and linked to its page:
        a spectator may come upon it far from those posts."""
        if answer.private or caller.in_dm:
            return answer
        if match:  # the caller's own live match, ``Actions.board`` found it by this number
            return await self._named(await self.records.hosted(int(match)), answer)
        return await self._named(await self.records.live_in_channel(caller.channel_id), answer)

    async def _named(self, hosted: Hosted | None, answer: Answer) -> Answer:
        """``answer``, posted for a channel about ``hosted``, headed as the match's own posts
        are (its number, game and players) and linked to its page on the web board."""
        if hosted is None:
            return answer
        named = match_heading(hosted, await self.actions.listing.players(hosted), localized=True)
        return replace(answer, text=f"-# {named}\n{answer.text}", links=self._page(hosted.id))

    def _page(self, number: int) -> tuple[Link, ...]:
        """The link to match ``number``'s public page on the web board, if it is on."""
        if self.links is None:
            return ()
        return (page_link(self.links.page_url(number), localized=True),)

    async def numbered_board(self, caller: Caller, number: int) -> Answer:
        """The public board of match ``number``, finished or not, shown as its record and
        replay are (``_match``, ``_public``)."""
        return await self._public_board(caller, await self._match(caller, number, None))

    async def _public_board(self, caller: Caller, info: MatchInfo) -> Answer:
        """The public board of ``info``, with how it ended or that it is being played."""

        async def draw() -> Answer:
            view, outcome = await self.records.public_position(info.id)
            status = await self._status(info)
            png = await self.actions.service.paint(functools.partial(board_of, view, status))
            names = (escape(status.challenger), escape(status.opposition))
            title = game_type(info.game).title
            if outcome:
                ended: str | None = result_words(outcome, names, localized=True)
            else:  # aborted or cancelled: ended without a result
                ended = ending_words(info.closed) if info.closed else None
            text = (
                _(
                    "Match {number} ({game}) ended: {result}. Its final board:",
                    number=info.id,
                    game=title,
                    result=ended,
                )
                if ended
                else _("Match {number} ({game}) is being played:", number=info.id, game=title)
            )
            public = self._public(caller, info)
            links = self._page(info.id) if public else ()
            return Answer(text, (Attachment("board.png", png),), private=not public, links=links)

        return await self.limits.pictures.run(caller.user.id, draw)

    async def _status(self, info: MatchInfo) -> StatusInfo:
        names = []
        for user_id in (info.challenger_id, info.opposition_id):
            name = await self.records.player_name(user_id)
            names.append(_("player {id}", id=user_id) if name is None else name)
        return StatusInfo(names[0], names[1], "", words=Language(current()))

    async def record(self, caller: Caller, number: int | None, match: str | None) -> Answer:
        """The record (R50) as the caller may see it: a player's own (their hidden Assassin in
        full), anyone else's the public one. Shown to the caller alone."""
        info = await self._match(caller, number, match)
        side = info.side_of(caller.user.id)
        text = await self.records.record(info.id, side)
        if side is None:
            note = _("The public record of match {number}.", number=info.id)
        else:
            note = _(
                "Your record (with your own hidden actions in full) of match {number}.",
                number=info.id,
            )
        name = f"{info.game}-match-{info.id}.{info.game}"
        return Answer(note, (Attachment(name, text.encode()),))

    async def replay(self, caller: Caller, number: int | None, match: str | None) -> Answer:
        """An animated replay of the public record, drawn by a drawing worker: rate limited,
        a few at a time, cached by the record it shows and its language; posted publicly at
        most once every few minutes per channel and match (a repeat goes to the caller
        alone, and so does another server's match). A long match's replay shows its last
        turns (``render.replay_of``), and says so."""
        info = await self._match(caller, number, match)
        record = await self.records.record(info.id)
        words = Language(current())
        key = (info.id, hashlib.sha256(record.encode()).digest(), words.code)

        async def draw() -> Replay:
            cached = self._gifs.get(key)
            if cached is not None:
                return cached
            replay = await self.actions.service.paint(
                functools.partial(replay_or_why, record, words)
            )
            if isinstance(replay, str):  # why it was not drawn
                raise Unusable(
                    _(
                        "This match has hidden Assassin moves, and a replay shows only what "
                        "everyone may see: it can be replayed once the match has ended."
                    )
                    if replay == HIDDEN
                    else _("This match's replay would be larger than Discord lets a bot post.")
                )
            self._gifs.put(key, replay)
            return replay

        replay = await self.limits.replays.run(caller.user.id, draw)
        files = (Attachment(f"{info.game}-match-{info.id}.gif", replay.gif),)
        text = _("Match {number}, turn by turn.", number=info.id)
        if replay.shown < replay.turns:
            text = ngettext(
                "Match {number}, turn by turn: its last {shown} turn of {turns}.",
                "Match {number}, turn by turn: its last {shown} turns of {turns}.",
                replay.shown,
                number=info.id,
                shown=replay.shown,
                turns=replay.turns,
            )
        if not self._public(caller, info):
            return Answer(text, files)
        if not self._fresh_post(caller.channel_id, info.id):
            again = _("It was posted here a moment ago; this copy is for you alone.")
            return Answer(f"{text} {again}", files)
        return await self._named(await self.records.hosted(info.id), Answer(text, files, False))

    async def analyse(
        self, caller: Caller, number: int | None, match: str | None
    ) -> tuple[Answer, Callable[[], Awaitable[Answer]]]:
        """The analysis of a finished match (``bot.service.analysis``): the answer to give
        the caller at once (refused here: no such match, still running, beyond the hints'
        allowance, one already being worked out), and the work that makes the post, public
        in a server's channel of its own match (a second or so a turn; its refusals are the
        caller's alone)."""
        info = await self._match(caller, number, match)
        await self.actions.service.analysable(info.id, caller.user)
        self.limits.hints.take(caller.user.id, ANALYSES)  # the hints' allowance, shared
        title = game_type(info.game).title
        public = self._public(caller, info)
        started = Answer(
            _(
                "Analysing match {number} ({game}): the AI looks again at every turn, which "
                "takes a while. I'll post the analysis to you when it is done.",
                number=info.id,
                game=title,
            )
            if not public
            else _(
                "Analysing match {number} ({game}): the AI looks again at every turn, which "
                "takes a while. I'll post the analysis here when it is done.",
                number=info.id,
                game=title,
            )
        )

        async def post() -> Answer:
            report = await self.actions.service.analyse(info.id, caller.user, info.guild_id)
            chart = await self.actions.service.paint(
                functools.partial(
                    evaluation_chart_png,
                    report.values,
                    report.marked,
                    report.title,
                    Language(current()),
                )
            )
            graph = Attachment(f"{info.game}-match-{info.id}-analysis.png", chart)
            return Answer(report.text, (graph, *report.boards), private=not public)

        return started, post

    def _fresh_post(self, channel_id: int, match_id: int) -> bool:
        """Whether a public replay of ``match_id`` may go to the channel now (and note it)."""
        now = time.monotonic()
        if len(self._posted) > 1000:
            self._posted = {k: t for k, t in self._posted.items() if now - t < REPOST_SECONDS}
        last = self._posted.get((channel_id, match_id))
        if last is not None and now - last < REPOST_SECONDS:
            return False
        self._posted[(channel_id, match_id)] = now
        return True

    # ---- ladders (the ladder desk's replies) ---------------------------------------------
    def _guild(self, caller: Caller) -> int:
        if caller.guild_id is None:
            raise Unusable(_("Ladders belong to a server: ask in one of its channels."))
        return caller.guild_id

    async def ladder(self, caller: Caller, board: str, page: int, season: int | None) -> Answer:
        guild = self._guild(caller)
        reply = await self.limits.pictures.run(
            caller.user.id, lambda: self.desk.leaderboard(guild, board, page, season)
        )
        return Answer.of(reply)

    async def profile(
        self, caller: Caller, player: User, versus: int | None, board: str | None
    ) -> Answer:
        guild = self._guild(caller)
        if versus is not None:
            pair = await self.desk.head_to_head(guild, player.id, versus, board or "short")
            return Answer.of(pair)
        reply = await self.limits.pictures.run(
            caller.user.id, lambda: self.desk.profile(guild, player.id, board, player.name)
        )
        return Answer.of(reply)

    async def seasons(self, caller: Caller, board: str) -> Answer:
        return Answer.of(await self.desk.seasons(self._guild(caller), board))

    async def queue(self, caller: Caller, board: str) -> Answer:
        place = Place(self._guild(caller), caller.channel_id)
        settings = await self.records.guild(place.guild_id)
        if settings.ladder_channel is None and not caller.text_channel:
            raise Unusable(  # its matches would open threads here, where Discord opens none
                _(
                    "Ladder matches are opened in threads of the channel you queue from, and "
                    "this one cannot hold threads (a thread, say). Join the queue from a "
                    "server's text channel, or ask an admin to set the server's ladder channel."
                )
            )
        if settings.ladder_channel is None:  # its matches get their threads here
            permissions.check_match(caller, *permissions.THREADS)
        return Answer.of(await self.desk.join_queue(place, caller.user, board))

    async def leave_queue(self, caller: Caller, board: str | None) -> Answer:
        return Answer.of(await self.desk.leave_queue(self._guild(caller), caller.user, board))

    async def close_season(self, caller: Caller, board: str) -> Answer:
        guild = self._guild(caller)
        return Answer.of(await self.desk.close_season(guild, board, caller.user, caller.admin))

    async def remove_result(self, caller: Caller, number: int, reason: str) -> Answer:
        guild = self._guild(caller)
        number = match_number(number)
        reply = await self.desk.remove_result(guild, number, caller.user, reason, caller.admin)
        return Answer.of(reply)

    # ---- settings ------------------------------------------------------------------------
    async def settings(
        self,
        caller: Caller,
        deadline: str | None,
        threads: bool | None,
        ladder_channel: int | None,
        ai_fill: str | None = None,
        ai_matches: str | None = None,
        away_days: int | None = None,
        auto_away: bool | None = None,
        clock: ClockOptions | None = None,
        clear_ladder_channel: bool = False,
    ) -> Answer:
        guild = self._guild(caller)
        if not caller.admin:
            raise Unusable(_("Only the server's admins (Manage Server) can change its settings."))
        settings = read = await self.records.guild(guild)
        if deadline is not None:
            seconds = None if deadline.strip().lower() == "default" else parse_duration(deadline)
            settings = replace(settings, turn_seconds=seconds)
        if threads is not None:
            settings = replace(settings, threads=threads)
        if ladder_channel is not None and clear_ladder_channel:
            raise Unusable(_("Give a ladder channel or clear it, not both."))
        if ladder_channel is not None or clear_ladder_channel:  # None: cleared
            settings = replace(settings, ladder_channel=ladder_channel)
        if ai_fill is not None:
            settings = replace(settings, ai_fill_after=_ai_fill(ai_fill))
        default_cap = self.actions.service.settings.guild_ai_matches
        if ai_matches is not None:
            settings = replace(settings, ai_matches=_ai_matches(ai_matches, default_cap))
        if away_days is not None:
            settings = replace(settings, away_days=away_days)
        if auto_away is not None:
            settings = replace(settings, auto_away=auto_away)
        if clock is not None:
            settings = replace(settings, clock=clock.over(settings.clock))
        given = (
            deadline,
            threads,
            ladder_channel,
            ai_fill,
            ai_matches,
            away_days,
            auto_away,
            clock,
            clear_ladder_channel or None,
        )
        changed = any(value is not None for value in given)
        if changed:
            server_terms(settings).check()  # refused if out of range
            made_over = None if clock is None else _made_over(clock, settings)
            settings = await self.records.save_guild(guild, settings, read, made_over)
        text = settings_text(settings, default_cap, self.actions.service.settings.auto_away)
        return Answer(_("Saved. {settings}", settings=text) if changed else text)


def _made_over(
    clock: ClockOptions, settings: GuildSettings
) -> Callable[[ClockChoice], ClockChoice]:
    """The server's clock as ``clock``'s options make it over the one stored when it is
    saved: another admin's time saved since ``settings`` were read stays (refused if the
    two make a clock out of range)."""

    def made(stored: ClockChoice) -> ClockChoice:
        chosen = clock.over(stored)
        server_terms(replace(settings, clock=chosen)).check()
        return chosen

    return made


def server_terms(settings: GuildSettings) -> Terms:
    """The terms of a new challenge there that names none: the server's deadline, clock."""
    turn = Terms().turn_seconds if settings.turn_seconds is None else settings.turn_seconds
    chosen = settings.clock
    return Terms(turn_seconds=turn).with_clock(
        chosen.clock, chosen.bank_seconds, chosen.increment_seconds, chosen.cap_seconds
    )


def _ai_fill(text: str) -> float | None:
    """The wait after which the AI plays whoever waits in the ladder queue: ``off``, or
    between 5 minutes and the queue's 24 hours."""
    if text.strip().lower() == "off":
        return None
    seconds = parse_duration(text)
    if not AI_FILL_SHORTEST <= seconds <= EXPIRE_AFTER:
        raise Unusable(
            _(
                "The AI fills the ladder queue after a wait between {shortest} and {longest} "
                "(the queue's longest), or `off`; {wait} is not.",
                shortest=duration(AI_FILL_SHORTEST, localized=True),
                longest=duration(EXPIRE_AFTER, localized=True),
                wait=duration(seconds, localized=True),
            )
        )
    return seconds


MOST_AI_MATCHES = 500  # the highest cap an admin may set on live matches against the AI


def _ai_matches(text: str, default: int) -> int | None:
    """The cap on live matches against the AI: ``default`` (None), or 0 to
    ``MOST_AI_MATCHES`` (0: none at all)."""
    word = text.strip().lower()
    if word == "default":
        return None
    cap = whole_number(word, 3)
    if cap is None or cap > MOST_AI_MATCHES:
        raise Unusable(
            _(
                "The cap on matches against the AI at once is a whole number from 0 (none) to "
                "{most}, or `default` ({default}); {text} is not.",
                most=MOST_AI_MATCHES,
                default=default,
                text=quote(text),
            )
        )
    return cap


def settings_text(settings: GuildSettings, default_cap: int, auto_default: bool = True) -> str:
    """A server's settings in the current language."""
    on, off = pgettext("setting", "on"), pgettext("setting", "off")
    turn = (
        _("24 h (the default)")
        if settings.turn_seconds is None
        else duration(settings.turn_seconds, localized=True)
    )
    none = pgettext("setting", "none")
    channel = none if settings.ladder_channel is None else f"<#{settings.ladder_channel}>"
    fill = settings.ai_fill_after
    ai = off if fill is None else _("after {time} in the queue", time=duration(fill, True))
    cap = settings.ai_matches
    auto_away = auto_default if settings.auto_away is None else settings.auto_away
    most = (
        _("{number} (the default)", number=default_cap)
        if cap is None
        else none
        if cap == 0
        else str(cap)
    )
    return _(
        "This server's settings: turn deadline of new challenges {turn}; each match in its own "
        "thread: {threads}; ladder channel: {channel}; the AI plays whoever waits for a ladder "
        "match: {ai}; matches against the AI at once: {most}. Clock of new challenges and "
        "ladder matches: {clock}. Away days a year for each player: {away}; an away day given "
        "before a missed turn: {auto}.",
        turn=turn,
        threads=on if settings.threads else off,
        channel=channel,
        ai=ai,
        most=most,
        clock=server_terms(settings).clock_words(localized=True),
        away=settings.away_days or none,
        auto=on if auto_away else off,
    )


def _not_begun(number: int, hosted: Hosted) -> str:
    """Why match ``number`` (``hosted``, without a game) has no record: a live one says
    what it waits for (an answer to the challenge, or the setup), an ended one that its
    game never began (declined, withdrawn, expired, a setup that lapsed)."""
    if hosted.phase == CHALLENGE:
        return _(
            "Match {number}'s game has not begun yet: it begins once the challenge is "
            "accepted ({command}).",
            number=number,
            command=slash("tora accept"),
        )
    if hosted.live:  # the setup
        return _(
            "Match {number}'s game has not begun yet: it begins once both players have "
            "chosen their setup ({command}).",
            number=number,
            command=slash("tora setup"),
        )
    return _(
        "Match {number}'s game never began, so it has no record, board or replay.", number=number
    )


def _none_yet(threads: bool) -> str:
    """A command without a number in a server that never had a match (nor had the caller,
    anywhere): no match number to give, no thread to point to, but how to start one."""
    command = slash("tora challenge")
    if threads:
        return _(
            "No match has been played in this server yet: challenge someone with {command}, "
            "and the match gets a thread of its own.",
            command=command,
        )
    return _(
        "No match has been played in this server yet: challenge someone with {command}.",
        command=command,
    )
