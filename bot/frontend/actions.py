"""The actions layer: what every match command does, in terms of the match service, with
no discord.py objects in sight (``Caller`` says who and where). Each returns the ``Answer``
to show the caller; refusals are raised (the service's, or ``Unusable``).

A command given in a server channel is about that channel's match. Given in a direct message
with the bot (where Assassin owners keep their moves out of sight), it is about the match
the caller plays in, found with ``MatchService.matches_of``; the ``match`` option picks one
when they play in several."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Protocol

from bot.service import MatchService, Place, Reply, Terms, User, load_guild
from storage import Hosted, Store

from .buttons import TURN, Press, buttons
from .callers import Caller
from .parsing import parse_duration
from .respond import Answer, Unusable

log = logging.getLogger(__name__)


class Threads(Protocol):
    """What a challenge needs from Discord when the server gives each match a thread."""

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
    rated: bool = True
    roles: str = "challenger"
    forfeit_after: int = 3
    expires: str | None = None


class Actions:
    def __init__(self, service: MatchService, store: Store, threads: Threads) -> None:
        self.service = service
        self.store = store
        self.threads = threads

    # ---- where ---------------------------------------------------------------------------
    async def place(self, caller: Caller, match: str | None = None) -> Place:
        """The match a command is about: the channel's, or in a DM the caller's own."""
        if match:
            return _place(await self._chosen(caller.user.id, match))
        if not caller.in_dm:
            return Place(caller.guild_id or 0, caller.channel_id)
        mine = await self.service.matches_of(caller.user.id)
        if len(mine) == 1:
            return _place(mine[0])
        if not mine:
            raise Unusable(
                "You are not in any match right now. Start one in a server channel with "
                "`/tora challenge`."
            )
        listed = "\n".join([f"- `{hosted.id}`: {await self.label(hosted)}" for hosted in mine])
        raise Unusable(
            "You play in several matches: say which one with the `match` option.\n" + listed
        )

    async def _chosen(self, user_id: int, match: str) -> Hosted:
        for hosted in await self.service.matches_of(user_id):
            if str(hosted.id) == match.strip():
                return hosted
        raise Unusable(
            f"You play in no live match `{match}`. Leave the `match` option empty, or pick "
            "one from its list."
        )

    async def my_matches(self, user_id: int, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) of the caller's live matches, for the ``match`` option."""
        found = []
        for hosted in await self.service.matches_of(user_id):
            label = f"{hosted.id}: {await self.label(hosted)}"
            if typed.lower() in label.lower():
                found.append((label, str(hosted.id)))
        return found[:25]

    async def label(self, hosted: Hosted) -> str:
        """``ann vs bob (playing)``."""
        names = []
        for user_id in (hosted.issuer_id, hosted.invitee_id):
            player = None if user_id is None else await self.store.player(user_id)
            names.append(player.name if player else "anyone")
        return f"{names[0]} vs {names[1]} ({hosted.phase})"

    # ---- challenges ----------------------------------------------------------------------
    async def challenge(
        self, caller: Caller, opponent: User | None, options: ChallengeOptions
    ) -> Answer:
        if caller.in_dm or caller.guild_id is None:
            raise Unusable("Challenges are made in a server channel, where the match is played.")
        settings = await load_guild(self.store, caller.guild_id)
        terms = terms_of(options, settings.turn_seconds)
        terms.check()  # before a thread is opened for it
        expires = None if options.expires is None else parse_duration(options.expires)
        place = Place(caller.guild_id, caller.channel_id)
        thread = None
        if settings.threads and caller.text_channel:
            against = f"vs {opponent.name}" if opponent else "open challenge"
            thread = await self.threads.open_thread(
                caller.channel_id, f"{caller.user.name} {against}"
            )
            place = Place(caller.guild_id, thread)
        try:
            reply = await self.service.challenge(place, caller.user, opponent, terms, expires)
        except BaseException:
            if thread is not None:
                await self.threads.drop_thread(thread)
            raise
        text = reply.text
        if thread is not None:
            whom = f" to {opponent.name}" if opponent else ""
            await self.threads.notice(
                caller.channel_id,
                f"{caller.user.name}'s challenge{whom} to a match of TORA is in <#{thread}>.",
            )
            text = f"Your match has its own thread: <#{thread}>. {text}"
        view = buttons(("takeback",), place.guild_id, place.channel_id, reply.stamp)
        return Answer(text, reply.files, True, view)

    async def accept(self, caller: Caller, match: str | None) -> Answer:
        return Answer.of(await self.service.accept(await self.place(caller, match), caller.user))

    async def decline(self, caller: Caller, match: str | None) -> Answer:
        return Answer.of(await self.service.decline(await self.place(caller, match), caller.user))

    async def setup(
        self,
        caller: Caller,
        match: str | None,
        strategy: str | None,
        ruler: str | None,
        assassin: str | None,
    ) -> Answer:
        place = await self.place(caller, match)
        reply = await self.service.setup(
            place, caller.user, strategy=strategy, ruler=ruler, assassin=assassin
        )
        return Answer.of(reply)

    # ---- turns ---------------------------------------------------------------------------
    async def act(self, caller: Caller, match: str | None, action: str) -> Answer:
        place = await self.place(caller, match)
        return self._turn_prompt(place, await self.service.play(place, caller.user, action))

    async def undo(self, caller: Caller, match: str | None, number: int | None) -> Answer:
        place = await self.place(caller, match)
        return self._turn_prompt(place, await self.service.undo(place, caller.user, number))

    async def end(self, caller: Caller, match: str | None) -> Answer:
        place = await self.place(caller, match)
        return Answer.of(await self.service.end_turn(place, caller.user))

    async def preview(self, caller: Caller, match: str | None) -> Answer:
        """The caller's own board, for them alone (whatever the service would allow)."""
        place = await self.place(caller, match)
        return replace(Answer.of(await self.service.board(place, caller.user)), private=True)

    async def board(self, caller: Caller, match: str | None) -> Answer:
        """A player's own board (private), or the public board for anyone else."""
        place = await self.place(caller, match)
        return Answer.of(await self.service.board(place, caller.user))

    async def plays_here(self, caller: Caller) -> bool:
        """Whether the caller plays in the match of the channel they are in (a cheap read:
        a public board is answered in public, a player's own in private)."""
        if caller.in_dm:
            return True
        try:
            hosted = await self.store.hosting.live_in_channel(caller.channel_id)
        except Exception:  # answered in private then: never wrong, only less visible
            log.exception("could not look up the match", extra={"channel": caller.channel_id})
            return True
        return hosted is not None and hosted.side_of(caller.user.id) is not None

    async def choices(self, caller: Caller, match: str | None, typed: str) -> list[str]:
        """The caller's legal actions starting with ``typed`` (empty if none or no match)."""
        try:
            place = await self.place(caller, match)
        except Unusable:
            return []
        return await self.service.choices(place, caller.user, typed)

    async def assassin_squares(self, caller: Caller, match: str | None, typed: str) -> list[str]:
        """The caller's allowed Assassin start squares starting with ``typed`` (R41)."""
        try:
            place = await self.place(caller, match)
        except Unusable:
            return []
        return await self.service.assassin_squares(place, caller.user, typed)

    # ---- agreements and endings ----------------------------------------------------------
    async def agree(self, caller: Caller, match: str | None, kind: str) -> Answer:
        """``draw``, ``reset``, ``pause``, ``resume``, ``resign`` or ``abort``."""
        place = await self.place(caller, match)
        command = {
            "draw": self.service.draw,
            "reset": self.service.reset,
            "pause": self.service.pause,
            "resume": self.service.resume,
            "resign": self.service.resign,
            "abort": self.service.abort,
        }[kind]
        return Answer.of(await command(place, caller.user))

    async def cancel(self, caller: Caller) -> Answer:
        if caller.in_dm:
            raise Unusable("An admin cancels a match in its channel, in the server.")
        place = await self.place(caller)
        return Answer.of(await self.service.cancel(place, caller.user, admin=caller.admin))

    # ---- buttons -------------------------------------------------------------------------
    async def press(self, caller: Caller, press: Press) -> Answer:
        place = Place(press.guild_id, press.channel_id)
        user, expect = caller.user, press.stamp
        service = self.service
        if press.verb == "accept":
            return Answer.of(await service.accept(place, user, expect=expect))
        if press.verb in ("decline", "takeback"):
            return Answer.of(await service.decline(place, user, expect=expect))
        if press.verb == "end":
            return Answer.of(await service.end_turn(place, user, expect=expect))
        if press.verb == "undo":
            return self._turn_prompt(place, await service.undo(place, user, expect=expect))
        return replace(Answer.of(await service.board(place, user)), private=True)

    @staticmethod
    def _turn_prompt(place: Place, reply: Reply) -> Answer:
        """A staged turn's reply, with End turn, Undo and Preview for this very state."""
        return Answer.of(reply, buttons(TURN, place.guild_id, place.channel_id, reply.stamp))


def _place(hosted: Hosted) -> Place:
    return Place(hosted.guild_id, hosted.channel_id)


def terms_of(options: ChallengeOptions, default_turn: float | None) -> Terms:
    """The service's Terms from the typed options (the server's default deadline, if any)."""
    turn = Terms().turn_seconds if default_turn is None else default_turn
    if options.deadline is not None:
        turn = parse_duration(options.deadline)
    return Terms(
        board=options.board,
        terrain="custom" if options.terrain_map and options.terrain == "none" else options.terrain,
        terrain_map=options.terrain_map,
        assassins=options.assassins,
        turn_seconds=turn,
        target=options.target,
        rated=options.rated,
        roles=options.roles,
        forfeit_after=options.forfeit_after,
    )
