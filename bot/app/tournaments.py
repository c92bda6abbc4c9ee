"""The tournament commands in terms of the tournament desk (``bot/tournament/desk.py``):
what ``/tora-tournament ...`` does for a caller in a server's channel. Chapter 10's format
(TORA's tiers of four-game matches) is one format among Swiss and round robin, which any game
of the registry plays (the desk's ``events``): a command naming a tournament goes to the
desk of its format."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import _, option
from bot.service import Place, User
from bot.tournament.desk import TournamentDesk
from bot.tournament.event_buttons import ENTER, EVENT_BUTTONS
from bot.tournament.event_spec import EventSpec

from . import permissions
from .actions import ChallengeOptions, terms_of
from .answers import Answer, Unusable
from .buttons import Press
from .callers import Caller
from .costly import Limits
from .parsing import parse_duration

CHAPTER_10 = "chapter10"
BYES = {"0": 0, "1/2": 1, "1": 2}  # the bye's worth as typed: half points


@dataclass(frozen=True)
class CreateOptions:
    """``/tora-tournament create``'s options as typed (None: not given)."""

    name: str
    format: str = CHAPTER_10
    game: str = "tora"
    board: str | None = None
    target: int | None = None
    deadline: str | None = None
    assassins: bool = False
    powers: bool | None = None
    rounds: int | None = None
    round_deadline: str | None = None
    rated: bool = False
    entry: str | None = None
    starts_in: str | None = None
    max_players: int | None = None  # default: 64, a round robin its most
    bye: str | None = None
    tiebreaks: str | None = None
    ai_fill: str | None = None
    away_days: bool = True


class Tournaments:
    def __init__(self, desk: TournamentDesk, limits: Limits | None = None) -> None:
        self.desk = desk
        self.events = desk.events
        self.limits = limits or Limits()

    @staticmethod
    def _place(caller: Caller) -> Place:
        if caller.guild_id is None:
            raise Unusable(_("Tournaments belong to a server: use this in one of its channels."))
        return Place(caller.guild_id, caller.channel_id)

    async def _is_event(self, caller: Caller, name: str) -> bool:
        return await self.events.has(self._place(caller).guild_id, name)

    async def create(self, caller: Caller, typed: CreateOptions) -> Answer:
        place = self._place(caller)
        if not caller.text_channel:  # its games open threads here, where Discord opens none
            raise Unusable(
                _(
                    "A tournament's games are played in threads of the channel it is made "
                    "in, and this one cannot hold threads (a thread, say). Create it in a "
                    "server's text channel."
                )
            )
        permissions.check_tournament(caller)
        turn = None if typed.deadline is None else parse_duration(typed.deadline)
        if typed.format == CHAPTER_10:
            if typed.game != "tora" or typed.board is None or typed.target is None:
                raise Unusable(
                    _(
                        "Chapter 10's tournaments are TORA's, on a `{board}` with a match "
                        "`{target}`; for another game choose the `swiss` or a round robin format.",
                        board=option("board"),
                        target=option("target"),
                    )
                )
            reply = await self.desk.create(
                place, caller.user, typed.name, typed.board, typed.target,
                admin=caller.admin, turn_seconds=turn, away_days=typed.away_days,
            )  # fmt: skip
            return Answer.of(reply)
        if typed.bye is not None and typed.bye not in BYES:
            raise Unusable(_("A bye is worth `0`, `1/2` or `1` point."))
        options = ChallengeOptions(
            board=typed.board or "short",
            assassins=typed.assassins,
            target=typed.target or 0,
            game=typed.game,
            powers=typed.powers,
        )
        spec = EventSpec(
            typed.name, typed.game, typed.format, dict(terms_of(options, None).options),
            rounds=typed.rounds, turn_seconds=turn,
            round_seconds=_duration(typed.round_deadline), rated=typed.rated,
            entry_seconds=_duration(typed.entry), starts_in=_duration(typed.starts_in),
            max_players=typed.max_players,
            bye_points=None if typed.bye is None else BYES[typed.bye],
            tiebreaks=typed.tiebreaks, ai_fill=typed.ai_fill, away_days=typed.away_days,
        )  # fmt: skip
        reply = await self.events.create(place, caller.user, spec, admin=caller.admin)
        event = await self.events.event(place, typed.name)
        presses = tuple(Press(verb, event.id, None) for verb in EVENT_BUTTONS)
        return Answer.of(reply, presses)

    async def press(self, caller: Caller, press: Press) -> Answer:
        """Join or Leave on an event's announcement (the press names the event)."""
        place = self._place(caller)
        name = await self.events.name_of(place, press.channel_id)
        if press.verb == ENTER:
            return Answer.of(await self.events.join(place, caller.user, name))
        return Answer.of(await self.events.leave(place, caller.user, name))

    async def register(self, caller: Caller, name: str, substitute: bool) -> Answer:
        place = self._place(caller)
        if await self._is_event(caller, name):
            if substitute:
                raise Unusable(_("Substitutes belong to chapter 10's tournaments; just join."))
            return Answer.of(await self.events.join(place, caller.user, name))
        return Answer.of(await self.desk.register(place, caller.user, name, substitute=substitute))

    async def withdraw(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        if await self._is_event(caller, name):
            return Answer.of(await self.events.leave(place, caller.user, name))
        return Answer.of(await self.desk.withdraw(place, caller.user, name))

    async def start(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        if await self._is_event(caller, name):
            return Answer.of(await self.events.begin(place, caller.user, name, admin=caller.admin))
        return Answer.of(await self.desk.begin(place, caller.user, name, admin=caller.admin))

    async def cancel(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        if await self._is_event(caller, name):
            return Answer.of(await self.events.cancel(place, caller.user, name, admin=caller.admin))
        return Answer.of(await self.desk.cancel(place, caller.user, name, admin=caller.admin))

    async def standings(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        draw = self.limits.pictures.run
        if await self._is_event(caller, name):
            return Answer.of(await draw(caller.user.id, lambda: self.events.standings(place, name)))
        return Answer.of(await draw(caller.user.id, lambda: self.desk.standings(place, name)))

    async def pairings(self, caller: Caller, name: str, round_: int | None) -> Answer:
        """A round's boards, or a knockout's tier's matches (``round_`` is its tier)."""
        place = self._place(caller)
        if await self._is_event(caller, name):
            return Answer.of(await self.events.pairings(place, name, round_))
        return Answer.of(await self.desk.pairings(place, name, round_))

    async def replace(self, caller: Caller, name: str, old: User, new: User) -> Answer:
        place = self._place(caller)
        reply = await self.events.replace(place, caller.user, name, old, new, admin=caller.admin)
        return Answer.of(reply)

    async def adjust(
        self, caller: Caller, name: str, round_: int, player: User, result: str, reason: str
    ) -> Answer:
        place = self._place(caller)
        reply = await self.events.adjust(
            place, caller.user, name, round_, player, result, reason, admin=caller.admin
        )
        return Answer.of(reply)

    async def listing(self, caller: Caller) -> Answer:
        place = self._place(caller)
        draw = self.limits.pictures.run
        return Answer.of(await draw(caller.user.id, lambda: self.desk.tournaments(place)))

    async def rank(self, caller: Caller) -> Answer:
        return Answer.of(await self.desk.rank(self._place(caller), caller.user))

    async def names(self, guild_id: int | None, typed: str) -> list[str]:
        return [] if guild_id is None else await self.desk.names(guild_id, typed)


def _duration(text: str | None) -> float | None:
    return None if text is None else parse_duration(text)
