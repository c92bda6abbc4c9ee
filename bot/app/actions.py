"""What every match command does, in terms of the match service, for any front end
(``Caller`` says who and where). Each returns the ``Answer`` to show the caller, its buttons
as verbs and stamps; refusals are raised (the service's, or ``Unusable``).

A command given in a server channel is about that channel's match. Given in a direct message
with the bot (where Assassin owners keep their moves out of sight), it is about the match
the caller plays in, found with ``MatchService.matches_of``; the ``match`` option picks one
when they play in several."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Protocol

from bot.i18n import N_, _, current, option, slash, speaking
from bot.service import (
    PROPOSAL_KINDS,
    Hosted,
    MatchService,
    Place,
    Refused,
    Reply,
    Stamp,
    Terms,
    Undeliverable,
    User,
)
from bot.service.agreements import DECLINE
from bot.service.guild import ClockChoice
from bot.service.phases import PLAYING
from bot.service.showing import match_heading
from bot.service.texts import escape, quote
from rules import DEFAULT, GAMES

from . import permissions
from .answers import Answer, Unusable
from .buttons import Press, presses
from .callers import Caller
from .costly import Limits
from .listing import Listing
from .parsing import parse_duration
from .time_off import TimeOff

log = logging.getLogger(__name__)
MATCH_CHOICES = 25  # the match option's choices: as many as Discord shows


class Threads(Protocol):
    """What a challenge needs from the front end when the server gives each match a thread
    (on Discord: a thread of the channel)."""

    async def open_thread(self, channel_id: int, name: str) -> int: ...

    async def drop_thread(self, thread_id: int) -> None: ...

    async def notice(self, channel_id: int, text: str) -> None: ...


@dataclass(frozen=True)
class ChallengeOptions:
    """The ``/tora challenge`` options as typed (durations as text)."""

    board: str = "short"
    terrain: str = "none"
    terrain_map: str = ""
    assassins: bool = False
    deadline: str | None = None
    target: int = 0
    rated: bool | None = None  # None: rated between people, a practice game against the AI
    roles: str = "challenger"
    forfeit_after: int = 3
    expires: str | None = None
    game: str = DEFAULT  # a game of the registry (rules.registry)
    powers: bool | None = None
    ai: str | None = None  # a strength: challenge the AI player of that strength
    clock: str | None = None  # turn, bank or increment (``Terms.clock``); None: the server's
    bank: str | None = None  # a bank clock's reserve
    increment: str | None = None  # an increment clock's time added per turn
    cap: str | None = None  # an increment clock's most
    weekends: str = "on"  # off: no clock runs on its player's Saturdays and Sundays


class Actions:
    def __init__(
        self, service: MatchService, threads: Threads, limits: Limits | None = None
    ) -> None:
        self.service = service
        self.records = service.records
        self.threads = threads
        self.limits = limits or Limits()
        self.time_off = TimeOff(service)
        self.listing = Listing(service)

    # ---- where ---------------------------------------------------------------------------
    async def place(self, caller: Caller, match: str | None = None) -> Place:
        """The match a command is about: the channel's, or in a DM the caller's own."""
        if match:
            return _place(await self._chosen(caller.user.id, match))
        if not caller.in_dm:
            await self._point_to_thread(caller)
            return Place(caller.guild_id or 0, caller.channel_id)
        mine = await self.service.matches_of(caller.user.id)
        if len(mine) == 1:
            return _place(mine[0])
        if not mine:
            raise Unusable(
                _(
                    "You are not in any match right now. Start one in a server channel with "
                    "{command}.",
                    command=slash("tora challenge"),
                )
            )
        labels = await self.listing.labels(mine)
        listed = [f"- `{hosted.id}`: {label}" for hosted, label in zip(mine, labels, strict=True)]
        asked = _(
            "You play in several matches: say which one with the `{match}` option.",
            match=option("match"),
        )
        raise Unusable("\n".join([asked, *listed]))

    async def _point_to_thread(self, caller: Caller) -> None:
        """A command given where no match is played, by a player of exactly one match in
        this server (e.g. in its thread, with threads on): refused, pointing to it."""
        if await self.records.live_in_channel(caller.channel_id) is not None:
            return
        theirs = [
            h
            for h in await self.service.matches_of(caller.user.id)
            if h.guild_id == caller.guild_id
        ]
        if len(theirs) == 1:
            hosted = theirs[0]
            channel = f"<#{hosted.channel_id}>"
            raise Unusable(
                _(
                    "No match is played in this channel; yours (match {number}) is in "
                    "{channel}. Give your commands there, or use its messages' buttons.",
                    number=hosted.id,
                    channel=channel,
                )
            )

    async def _chosen(self, user_id: int, match: str) -> Hosted:
        for hosted in await self.service.matches_of(user_id):
            if str(hosted.id) == match.strip():
                return hosted
        raise Unusable(
            _(
                "You play in no live match {match}. Leave the `{option}` option empty, or pick "
                "one from its list.",
                match=quote(match),
                option=option("match"),
            )
        )

    async def my_matches(self, user_id: int, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) of the caller's live matches, for the ``match`` option: those
        where it is the caller's turn first, then the soonest deadlines, as many as Discord
        shows (25): the ones to act in, not the oldest."""
        found = []
        mine = await self.service.matches_of(user_id)
        for hosted, label in zip(mine, await self.listing.labels(mine), strict=True):
            label = f"{hosted.id}: {label}"
            if typed.lower() in label.lower():
                urgency = (not await self.listing.waits_for(hosted, user_id), *_due(hosted))
                found.append((urgency, label, str(hosted.id)))
        found.sort(key=lambda one: one[0])
        return [(label, value) for _urgency, label, value in found[:MATCH_CHOICES]]

    async def games(self, caller: Caller) -> Answer:
        """The caller's matches (``/tora games``)."""
        return Answer(await self.listing.games(caller.user.id))

    # ---- challenges ----------------------------------------------------------------------
    async def challenge(
        self, caller: Caller, opponent: User | None, options: ChallengeOptions
    ) -> Answer:
        if caller.in_dm or caller.guild_id is None:
            raise Unusable(_("Challenges are made in a server channel, where the match is played."))
        settings = await self.records.guild(caller.guild_id)
        terms = terms_of(options, settings.turn_seconds, settings.clock)
        expires = None if options.expires is None else parse_duration(options.expires)
        place = Place(caller.guild_id, caller.channel_id)
        opened: list[int] = []
        unthreaded: list[int] = []  # the thread could not be opened

        if options.ai is not None and opponent is not None:
            raise Unusable(
                _("Challenge a person or the AI, not both: leave out the opponent to play the AI.")
            )
        permissions.check_match(caller)
        threaded = settings.threads and caller.text_channel
        if threaded and permissions.lacking(caller, *permissions.THREADS):
            threaded = False  # not asked of Discord: played here, as when it refuses one
            unthreaded.append(caller.channel_id)
        # a thread's name and the channel's notice of it are for everyone there
        public = await self._server_language(caller) if threaded else current()
        with speaking(public):
            rival = _("AI ({strength})", strength=options.ai) if options.ai else None
        rival = rival or (opponent.name if opponent else None)

        async def thread() -> Place:
            """Asked for by the service once every check has passed."""
            player = caller.user.name
            with speaking(public):
                name = (
                    _("{player} vs {opponent}", player=player, opponent=rival)
                    if rival
                    else _("{player} open challenge", player=player)
                )
            try:
                opened.append(await self.threads.open_thread(caller.channel_id, name))
            except Undeliverable as exc:  # not allowed to: the match is played here instead
                log.warning("no thread: %s", exc, extra={"channel": caller.channel_id})
                unthreaded.append(caller.channel_id)
                return place
            return Place(place.guild_id, opened[0])

        where = thread if threaded else None
        try:
            if options.ai is not None:
                reply = await self.service.challenge_ai(
                    place, caller.user, options.ai, terms, where=where
                )
            else:
                reply = await self.service.challenge(
                    place, caller.user, opponent, terms, expires, where=where
                )
        except Refused as exc:  # nothing was saved: the thread is not needed
            for unused in opened:
                await self.threads.drop_thread(unused)
            if unthreaded:  # the channel's own match, say
                raise Refused(f"{exc.message}\n{_no_thread()}") from None
            raise
        except BaseException:
            # the challenge may be saved in it (a commit whose answer was lost, a stop)
            await self._drop_empty(opened)
            raise
        text = reply.text if not unthreaded else f"{reply.text}\n{_no_thread()}"
        if opened:
            thread_of = f"<#{opened[0]}>"
            hosted = await self.records.live_in_channel(opened[0])
            with speaking(public):
                notice = _thread_notice(
                    caller.user.name, rival, bool(options.ai), terms.title, thread_of
                )
                if hosted is not None:  # named as the match's posts in the thread are
                    players = await self.listing.players(hosted)
                    notice = f"-# {match_heading(hosted, players, localized=True)}\n{notice}"
            await self.threads.notice(caller.channel_id, notice)
            text = _("Your match has its own thread: {thread}.", thread=thread_of)
            text = f"{text} {reply.text}"
            place = Place(place.guild_id, opened[0])
        if options.ai is not None:  # no challenge to take back: the match has begun
            return Answer(text, reply.files, True)
        return Answer(
            text, reply.files, True, presses(("takeback",), place.channel_id, reply.stamp)
        )

    async def _drop_empty(self, threads: list[int]) -> None:
        """Drop the threads opened for a challenge that failed, unless one holds it (saved
        before the failure) or whether it does cannot be read: a thread left empty is a
        lesser harm than a challenge hosted in a channel that is gone."""
        for thread in threads:
            try:
                if await self.records.live_in_channel(thread) is None:
                    await self.threads.drop_thread(thread)
            except Exception:
                log.exception("thread %d of a failed challenge is kept", thread)

    async def _server_language(self, caller: Caller) -> str:
        """The language of the server's posts: its admins' choice, else its Discord's."""
        chosen = await self.records.server_language(caller.guild_id or 0)
        return chosen.resolved(caller.guild_locale)

    async def accept(self, caller: Caller, match: str | None) -> Answer:
        place = await self.place(caller, match)
        return await self._headed(
            caller, place, Answer.of(await self.service.accept(place, caller.user))
        )

    async def decline(self, caller: Caller, match: str | None) -> Answer:
        place = await self.place(caller, match)
        reply = await self.service.decline(place, caller.user)
        return await self._headed(caller, place, Answer.of(reply))

    async def setup(
        self, caller: Caller, match: str | None, typed: Mapping[str, str | None]
    ) -> Answer:
        """The caller's setup answers: the typed command's options by question name
        (``strategy``, ``ruler``, ``assassin``, ``spirit``), those given."""
        place = await self.place(caller, match)
        answers = {name: text for name, text in typed.items() if text is not None}
        reply = await self.service.setup(place, caller.user, answers)
        return await self._headed(caller, place, Answer.of(reply))

    # ---- turns ---------------------------------------------------------------------------
    async def act(self, caller: Caller, match: str | None, action: str) -> Answer:
        place = await self.place(caller, match)
        reply = await self.service.play(place, caller.user, action)
        return await self._headed(caller, place, self._turn_prompt(place, reply))

    async def undo(self, caller: Caller, match: str | None, number: int | None) -> Answer:
        place = await self.place(caller, match)
        reply = await self.service.undo(place, caller.user, number)
        return await self._headed(caller, place, self._turn_prompt(place, reply))

    async def end(self, caller: Caller, match: str | None) -> Answer:
        place = await self.place(caller, match)
        reply = await self.service.end_turn(place, caller.user)
        return await self._headed(caller, place, self._ended(place, reply))

    async def plans(
        self, caller: Caller, match: str | None, add: str | None, cancel: str | None
    ) -> Answer:
        """The caller's planned replies in a match: add, cancel, list (private)."""
        place = await self.place(caller, match)
        return await self._headed(
            caller, place, Answer.of(await self.service.plans(place, caller.user, add, cancel))
        )

    async def hint(self, caller: Caller, match: str | None) -> Answer:
        """A practice game's hint, for the caller alone (a costly search: allowances)."""
        place = await self.place(caller, match)
        return await self._headed(
            caller, place, self._offered(place, await self._hint(place, caller.user))
        )

    @staticmethod
    def _offered(place: Place, reply: Reply) -> Answer:
        """A reply with the buttons it offers (a hint's Play this) for its own turn."""
        if not reply.buttons:
            return Answer.of(reply)
        return Answer.of(reply, presses(reply.buttons, place.channel_id, reply.stamp))

    async def _hint(self, place: Place, user: User) -> Reply:
        """The service's hint, within the hints' allowance (a search of seconds)."""
        return await self.limits.hints.run(user.id, lambda: self.service.hint(place, user))

    async def preview(self, caller: Caller, match: str | None) -> Answer:
        """The caller's own board, for them alone (whatever the service would allow)."""
        place = await self.place(caller, match)
        reply = await self._picture(caller, lambda: self.service.board(place, caller.user))
        return await self._headed(caller, place, replace(Answer.of(reply), private=True))

    async def board(self, caller: Caller, match: str | None) -> Answer:
        """A player's own board (private), or the public board for anyone else."""
        place = await self.place(caller, match)
        reply = await self._picture(caller, lambda: self.service.board(place, caller.user))
        return await self._headed(caller, place, Answer.of(reply))

    async def _headed(self, caller: Caller, place: Place, answer: Answer) -> Answer:
        """In a DM (where the answers of all one's matches meet), a first line naming the
        match the answer is about, with a link to its channel."""
        if not caller.in_dm:
            return answer
        hosted = await self.records.live_in_channel(place.channel_id)
        if hosted is None:
            return answer
        link = self.service.settings.link(hosted.guild_id, hosted.channel_id)
        named = match_heading(hosted, await self.listing.players(hosted), localized=True)
        heading = f"-# {named} \u00b7 {link}"
        return replace(answer, text=f"{heading}\n{answer.text}")

    async def _picture(self, caller: Caller, draw: Callable[[], Awaitable[Reply]]) -> Reply:
        return await self.limits.pictures.run(caller.user.id, draw)

    async def plays_here(self, caller: Caller) -> bool:
        """Whether the caller plays in the match of the channel they are in (a cheap read:
        a public board is answered in public, a player's own in private)."""
        if caller.in_dm:
            return True
        try:
            hosted = await self.records.live_in_channel(caller.channel_id)
        except Exception:  # answered in private then: never wrong, only less visible
            log.exception("could not look up the match", extra={"channel": caller.channel_id})
            return True
        return hosted is not None and hosted.side_of(caller.user.id) is not None

    async def choices(self, caller: Caller, match: str | None, typed: str) -> list[tuple[str, str]]:
        """The caller's legal actions matching ``typed``, as (in words, notation); refused
        (``Refused``, ``Unusable``) when they have none to play here now, saying why."""
        place = await self.place(caller, match)
        return await self.service.choices(place, caller.user, typed)

    async def offered(self, caller: Caller, match: str | None, name: str, typed: str) -> list[str]:
        """The answers the caller's free-text setup question ``name`` may take now, starting
        with ``typed`` (TORA's Assassin: the free squares of their home edge, R41); no
        match to ask about (none, or several in a DM) is refused as for any completion."""
        place = await self.place(caller, match)
        return await self.service.offered(place, caller.user, name, typed)

    # ---- agreements and endings ----------------------------------------------------------
    async def agree(self, caller: Caller, match: str | None, kind: str) -> Answer:
        """``draw``, ``reset``, ``pause``, ``resume`` or ``give`` (time) at once; ``resign``
        and ``abort`` ask for a confirming click first."""
        place = await self.place(caller, match)
        if kind in CONFIRMED:
            return await self._confirm(caller, place, kind)
        reply = await self._agreement(kind)(place, caller.user)
        return await self._headed(caller, place, Answer.of(reply))

    def _agreement(self, kind: str) -> Callable[..., Awaitable[Reply]]:
        service = self.service
        return {
            "draw": service.draw,
            "reset": service.reset,
            "pause": service.pause,
            "resume": service.resume,
            "give": service.give_time,
            "takeback": service.takeback,
            "resign": service.resign,
            "abort": service.abort,
        }[kind]

    async def _confirm(self, caller: Caller, place: Place, kind: str) -> Answer:
        # An ending that would be refused is refused at once (saying what to do instead),
        # not after a click on a button that can only fail.
        if kind == "abort":
            hosted = await self.service.abortable(place, caller.user)
        else:
            hosted = await self.service.hosted_of(place, caller.user)
            if hosted.phase != PLAYING:  # a resignation before the game
                return Answer.of(await self._agreement(kind)(place, caller.user))
        other = (
            hosted.opposition_id if hosted.challenger_id == caller.user.id else hosted.challenger_id
        )
        name = None if other is None else await self.records.player_name(other)
        against = _("your opponent") if name is None else escape(name)
        question = _(CONFIRMED[kind], number=hosted.id, opponent=against)
        offered = presses((kind, "keep"), place.channel_id, await self.service.stamp_of(place))
        return Answer(question, (), True, offered)

    async def cancel(self, caller: Caller) -> Answer:
        if caller.in_dm:
            raise Unusable(_("An admin cancels a match in its channel, in the server."))
        place = await self.place(caller)
        return Answer.of(await self.service.cancel(place, caller.user, admin=caller.admin))

    # ---- buttons -------------------------------------------------------------------------
    async def press(self, caller: Caller, press: Press) -> Answer:
        """A button pressed; in a DM its answer names its match, as the command's does."""
        # Only a new match needs its server; a button's match exists, found by its channel.
        place = await self.reached(caller, press.channel_id, press.stamp)
        return await self._headed(caller, place, await self._pressed(caller, place, press))

    async def reached(self, caller: Caller, channel_id: int, expect: Stamp | None) -> Place:
        """The place of a button's match, named by the channel in its id (which a modified
        client may forge): pressed in that channel, or by one who takes part in that match
        anywhere in its server or in a DM (a ``match:`` option's answer in another channel,
        a thread's challenge answered in its parent channel). Anywhere else it is refused as
        where no match is, in the same words, so that neither another server's match nor
        whether one is there is told."""
        place = Place(caller.guild_id or 0, channel_id)
        if channel_id == caller.channel_id:
            return place
        hosted = await self._taking_part(caller.user.id, channel_id, expect)
        if hosted is not None and (caller.in_dm or hosted.guild_id == caller.guild_id):
            return place
        raise self.service.nothing_here(expect)

    async def _taking_part(
        self, user_id: int, channel_id: int, expect: Stamp | None
    ) -> Hosted | None:
        """The match of ``channel_id`` if ``user_id`` takes part in it (``expect``: that
        match, live or ended, e.g. an end post's Rematch; None: the channel's live match)."""
        if expect is None:
            mine = await self.service.matches_of(user_id)
            return next((h for h in mine if h.channel_id == channel_id), None)
        hosted = await self.records.hosted(expect.match)
        if hosted is None or hosted.channel_id != channel_id:
            return None
        players = (hosted.issuer_id, hosted.invitee_id, hosted.challenger_id, hosted.opposition_id)
        return hosted if user_id in players else None

    async def _pressed(self, caller: Caller, place: Place, press: Press) -> Answer:
        user, expect = caller.user, press.stamp
        service = self.service
        if press.verb == "accept":
            return Answer.of(await service.accept(place, user, expect=expect))
        if expect is not None and _on_a_proposal(press.verb, expect):
            return Answer.of(await service.answer(place, user, press.verb, expect))
        if press.verb in ("decline", "takeback"):
            return Answer.of(await service.decline(place, user, expect=expect))
        if press.verb == "end":
            return self._ended(place, await service.end_turn(place, user, expect=expect))
        if press.verb == "askback":
            return Answer.of(await service.takeback(place, user, expect=expect))
        if press.verb == "undo":
            return self._turn_prompt(place, await service.undo(place, user, expect=expect))
        if press.verb in ("away", "back"):
            return await self.time_off.away_button(caller, press.verb, expect)
        if press.verb == "give":
            return Answer.of(await service.give_time(place, user, expect=expect))
        if press.verb == "rematch" and expect is not None:
            return await self._rematch(caller, place, expect)
        if press.verb == "offer":  # propose a draw, or accept the one proposed
            return Answer.of(await service.draw(place, user, expect=expect))
        if press.verb in ("draw", "reset", "pause", "resume", "resign", "abort"):
            return Answer.of(await self._agreement(press.verb)(place, user, expect=expect))
        if press.verb == "hint":
            return self._offered(place, await self._hint(place, user))
        if press.verb == "hinted" and expect is not None:
            return self._turn_prompt(place, await service.play_hint(place, user, expect))
        if press.verb == "keep":
            return Answer(_("Nothing was done: you play on."))
        # Preview: the board drawn, within the allowance ``/tora preview`` draws within
        reply = await self._picture(caller, lambda: service.board(place, user))
        return replace(Answer.of(reply), private=True)

    async def _rematch(self, caller: Caller, place: Place, made: Stamp) -> Answer:
        """The end post's Rematch: a challenge to the other player, with its buttons."""
        if caller.channel_id == place.channel_id:
            permissions.check_match(caller)
        reply = await self.service.rematch(place, caller.user, made)
        takeback = presses(("takeback",), place.channel_id, reply.stamp)
        return Answer(reply.text, reply.files, True, takeback)

    @staticmethod
    def _ended(place: Place, reply: Reply) -> Answer:
        """An ended turn's reply, with Ask to take it back in an unrated match."""
        return Answer.of(reply, presses(reply.buttons, place.channel_id, reply.stamp))

    @staticmethod
    def _turn_prompt(place: Place, reply: Reply) -> Answer:
        """A staged turn's reply, with Play, End turn, Undo (while it would take an action
        back) and Preview for this very state: the service names them."""
        return Answer.of(reply, presses(reply.buttons, place.channel_id, reply.stamp))


def _on_a_proposal(verb: str, stamp: Stamp) -> bool:
    """Whether a button is a proposal's Accept or Decline (``decline-draw``; a plain
    ``decline`` posted before they named their proposal): those act whichever turn it is (a
    proposal outlives its turn); a challenge's Decline is stamped before the game, turn 0."""
    kind = verb.removeprefix(DECLINE)
    return kind in PROPOSAL_KINDS or (verb == "decline" and stamp.turn > 0)


CONFIRMED = {
    "resign": N_("Resign match {number} against {opponent}? They win, and the match is over."),
    "abort": N_("Abort match {number} against {opponent}? It ends without a result, unrated."),
}


def _no_thread() -> str:
    """Why a challenge made with threads on is in the channel itself, and what an admin
    can do about it."""
    return _(
        "I may not open threads in this channel (I lack the Create Public Threads or Send "
        "Messages in Threads permission), so this match is played here. A server admin can "
        "grant me those permissions, or turn threads off with {command}.",
        command=slash("tora admin settings threads:False"),
    )


def _thread_notice(player: str, rival: str | None, ai: bool, game: str, thread: str) -> str:
    """The channel's notice that a challenge's match is in its own ``thread`` (the names
    escaped)."""
    named = {"player": escape(player), "game": escape(game), "thread": thread}
    if ai and rival:
        return _(
            "{player}'s match of {game} against {rival} is in {thread}.",
            rival=escape(rival),
            **named,
        )
    if rival:
        return _(
            "{player}'s challenge to {rival} to a match of {game} is in {thread}.",
            rival=escape(rival),
            **named,
        )
    return _("{player}'s challenge to a match of {game} is in {thread}.", **named)


def _place(hosted: Hosted) -> Place:
    return Place(hosted.guild_id, hosted.channel_id)


def _due(hosted: Hosted) -> tuple[bool, float, int]:
    """A match's place by its deadline: the soonest first, those without one last (then
    the oldest)."""
    return (hosted.due_at is None, hosted.due_at or 0.0, hosted.id)


def game_options() -> list[str]:
    """The challenge's options that are a game's own (``GameType.option_nouns``: TORA's
    board, terrain, Assassins and point target, Torii's powers): the game checks them, and
    refuses another game's by name."""
    owned = {name for kind in GAMES.values() for name in kind.option_nouns}
    return [f.name for f in fields(ChallengeOptions) if f.name in owned]


def terms_of(
    options: ChallengeOptions, default_turn: float | None, server: ClockChoice | None = None
) -> Terms:
    """The service's Terms from the typed options (the server's default deadline, if any):
    the game's own options are those given, an option left at the command's default being
    not given; a terrain map without a terrain is a custom terrain."""
    turn = Terms().turn_seconds if default_turn is None else default_turn
    if options.deadline is not None:
        turn = parse_duration(options.deadline)
    typed = ClockOptions(options.clock, options.bank, options.increment, options.cap)
    clock = typed.over(server or ClockChoice())
    if options.terrain_map and options.terrain == "none":
        options = replace(options, terrain="custom")
    unset = ChallengeOptions()
    given = {
        name: getattr(options, name)
        for name in game_options()
        if getattr(options, name) != getattr(unset, name)
    }
    return Terms(
        game=options.game,
        options=given,
        turn_seconds=turn,
        rated=options.ai is None if options.rated is None else options.rated,
        roles=options.roles,
        forfeit_after=options.forfeit_after,
        clock=clock.clock,
        bank_seconds=clock.bank_seconds,
        increment_seconds=clock.increment_seconds,
        cap_seconds=clock.cap_seconds,
        weekends_off=options.weekends == "off",
    )


@dataclass(frozen=True)
class ClockOptions:
    """A clock as typed in a command (a challenge's, the server's settings): its options
    ``clock``, ``bank``, ``increment`` and ``cap`` (durations as text; None: not given)."""

    clock: str | None = None
    bank: str | None = None
    increment: str | None = None
    cap: str | None = None

    def given(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))

    def over(self, kept: ClockChoice) -> ClockChoice:
        """The clock these options make of ``kept`` (the server's): a clock named other
        than kept's starts afresh, its times defaults (0); each time typed replaces kept's,
        the others stay. A time of another clock is left for ``Terms.check`` to refuse."""
        if self.clock is not None and self.clock != kept.clock:
            kept = ClockChoice(self.clock)
        return ClockChoice(
            kept.clock,
            _seconds("bank", self.bank) or kept.bank_seconds,
            _seconds("increment", self.increment) or kept.increment_seconds,
            _seconds("cap", self.cap) or kept.cap_seconds,
        )


def _seconds(name: str, text: str | None) -> float:
    """A clock's duration as typed in option ``name``; 0 when left out (the clock's
    default). A typed time of nothing is refused: a 0 would be read as left out, and the
    player bound to the default they did not ask for."""
    if text is None:
        return 0.0
    seconds = parse_duration(text)
    if not seconds:
        raise Unusable(
            _(
                "`{name}:{text}` gives the clock no time; leave `{name}` out for the clock's "
                "default.",
                name=option(name),
                text=text.strip()[:12],
            )
        )
    return seconds
