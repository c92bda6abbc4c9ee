"""The tournament commands in terms of the tournament desk (``bot/tournament/desk.py``):
what ``/tora tournament ...`` does for a caller in a server's channel."""

from __future__ import annotations

from bot.service import Place
from bot.tournament.desk import TournamentDesk

from .answers import Answer, Unusable
from .callers import Caller
from .costly import Limits
from .parsing import parse_duration


class Tournaments:
    def __init__(self, desk: TournamentDesk, limits: Limits | None = None) -> None:
        self.desk = desk
        self.limits = limits or Limits()

    @staticmethod
    def _place(caller: Caller) -> Place:
        if caller.guild_id is None:
            raise Unusable("Tournaments belong to a server: use this in one of its channels.")
        return Place(caller.guild_id, caller.channel_id)

    async def create(
        self, caller: Caller, name: str, board: str, target: int, deadline: str | None
    ) -> Answer:
        turn = None if deadline is None else parse_duration(deadline)
        reply = await self.desk.create(
            self._place(caller), caller.user, name, board, target,
            admin=caller.admin, turn_seconds=turn,
        )  # fmt: skip
        return Answer.of(reply)

    async def register(self, caller: Caller, name: str, substitute: bool) -> Answer:
        place = self._place(caller)
        return Answer.of(await self.desk.register(place, caller.user, name, substitute=substitute))

    async def withdraw(self, caller: Caller, name: str) -> Answer:
        return Answer.of(await self.desk.withdraw(self._place(caller), caller.user, name))

    async def start(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        return Answer.of(await self.desk.begin(place, caller.user, name, admin=caller.admin))

    async def cancel(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        return Answer.of(await self.desk.cancel(place, caller.user, name, admin=caller.admin))

    async def standings(self, caller: Caller, name: str) -> Answer:
        place = self._place(caller)
        draw = self.limits.pictures.run
        return Answer.of(await draw(caller.user.id, lambda: self.desk.standings(place, name)))

    async def listing(self, caller: Caller) -> Answer:
        place = self._place(caller)
        draw = self.limits.pictures.run
        return Answer.of(await draw(caller.user.id, lambda: self.desk.tournaments(place)))

    async def rank(self, caller: Caller) -> Answer:
        return Answer.of(await self.desk.rank(self._place(caller), caller.user))

    async def names(self, guild_id: int | None, typed: str) -> list[str]:
        return [] if guild_id is None else await self.desk.names(guild_id, typed)
