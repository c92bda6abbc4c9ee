"""The commands that read rather than play: a match's record and animated replay, the rules,
and the server's ladders (through the ladder desk: leaderboards, profiles, seasons, the
queue, and the admins' season close and result removal), and the server settings."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.ladder.desk import LadderDesk
from bot.service import Attachment, GuildSettings, Place, Terms, load_guild, save_guild
from bot.service.texts import duration
from render import record_status, replay_gif, views_from_record
from rules.record import RecordError
from storage import MatchInfo, MatchNotFound, Store

from . import rulebook
from .actions import Actions
from .callers import Caller
from .parsing import parse_duration
from .respond import Answer, Unusable


class Lookups:
    def __init__(self, actions: Actions, store: Store, desk: LadderDesk) -> None:
        self.actions = actions
        self.store = store
        self.desk = desk

    # ---- records -------------------------------------------------------------------------
    async def _match(self, caller: Caller, number: int | None, match: str | None) -> MatchInfo:
        """The match a record is asked of: ``number``, or the one being played here (or, in
        a DM, the caller's). Another server's matches are not shown here; in a DM, only the
        caller's own."""
        if number is None:
            place = await self.actions.place(caller, match)
            hosted = await self.store.hosting.live_in_channel(place.channel_id)
            if hosted is None or hosted.match_id is None:
                raise Unusable(
                    "No game is being played here yet. For a match that has ended, give its "
                    "number (in its record's file name, `tora-match-<number>.tora`)."
                )
            number = hosted.match_id
        try:
            info = await self.store.match_info(number)
        except MatchNotFound:
            info = None
        mine = info is not None and info.side_of(caller.user.id) is not None
        here = info is not None and not caller.in_dm and info.guild_id == caller.guild_id
        if info is None or not (mine or here):
            where = "of yours" if caller.in_dm else "in this server"
            raise Unusable(f"There is no match {number} {where}.")
        return info

    async def record(self, caller: Caller, number: int | None, match: str | None) -> Answer:
        """The record (R50) as the caller may see it: a player's own (their hidden Assassin in
        full), anyone else's the public one. Shown to the caller alone."""
        info = await self._match(caller, number, match)
        side = info.side_of(caller.user.id)
        if side is None:
            text = await self.store.export_record(info.id)
            note = "The public record"
        else:
            text = await self.store.private_export_record(info.id, side)
            note = "Your record (with your own hidden actions in full)"
        name = f"tora-match-{info.id}.tora"
        return Answer(f"{note} of match {info.id}.", (Attachment(name, text.encode()),))

    async def replay(self, caller: Caller, number: int | None, match: str | None) -> Answer:
        """An animated replay of the public record, drawn in a worker thread."""
        info = await self._match(caller, number, match)
        record = await self.store.export_record(info.id)

        def draw() -> bytes:
            return replay_gif(views_from_record(record), record_status(record))

        try:
            gif = await asyncio.to_thread(draw)
        except RecordError:
            raise Unusable(
                "This match has hidden Assassin moves, and a replay shows only what everyone "
                "may see: it can be replayed once the match has ended."
            ) from None
        name = f"tora-match-{info.id}.gif"
        return Answer(f"Match {info.id}, turn by turn.", (Attachment(name, gif),), private=False)

    # ---- rules ---------------------------------------------------------------------------
    @staticmethod
    def rules(topic: str) -> Answer:
        return Answer(rulebook.lookup(topic))

    # ---- ladders (the ladder desk's replies) ---------------------------------------------
    def _guild(self, caller: Caller) -> int:
        if caller.guild_id is None:
            raise Unusable("Ladders belong to a server: ask in one of its channels.")
        return caller.guild_id

    async def ladder(self, caller: Caller, board: str, page: int, season: int | None) -> Answer:
        guild = self._guild(caller)
        return Answer.of(await self.desk.leaderboard(guild, board, page, season))

    async def profile(
        self, caller: Caller, player_id: int, versus: int | None, board: str | None
    ) -> Answer:
        guild = self._guild(caller)
        if versus is not None:
            pair = await self.desk.head_to_head(guild, player_id, versus, board or "short")
            return Answer.of(pair)
        return Answer.of(await self.desk.profile(guild, player_id, board))

    async def seasons(self, caller: Caller, board: str) -> Answer:
        return Answer.of(await self.desk.seasons(self._guild(caller), board))

    async def queue(self, caller: Caller, board: str) -> Answer:
        place = Place(self._guild(caller), caller.channel_id)
        return Answer.of(await self.desk.join_queue(place, caller.user, board))

    async def leave_queue(self, caller: Caller, board: str | None) -> Answer:
        return Answer.of(await self.desk.leave_queue(self._guild(caller), caller.user, board))

    async def close_season(self, caller: Caller, board: str) -> Answer:
        guild = self._guild(caller)
        return Answer.of(await self.desk.close_season(guild, board, caller.user, caller.admin))

    async def remove_result(self, caller: Caller, number: int, reason: str) -> Answer:
        guild = self._guild(caller)
        reply = await self.desk.remove_result(guild, number, caller.user, reason, caller.admin)
        return Answer.of(reply)

    # ---- settings ------------------------------------------------------------------------
    async def settings(
        self,
        caller: Caller,
        deadline: str | None,
        threads: bool | None,
        ladder_channel: int | None,
    ) -> Answer:
        guild = self._guild(caller)
        if not caller.admin:
            raise Unusable("Only the server's admins (Manage Server) can change its settings.")
        settings = await load_guild(self.store, guild)
        if deadline is not None:
            seconds = None if deadline.strip().lower() == "default" else parse_duration(deadline)
            settings = replace(settings, turn_seconds=seconds)
        if threads is not None:
            settings = replace(settings, threads=threads)
        if ladder_channel is not None:
            settings = replace(settings, ladder_channel=ladder_channel)
        changed = (deadline, threads, ladder_channel) != (None, None, None)
        if changed:
            if settings.turn_seconds is not None:
                Terms(turn_seconds=settings.turn_seconds).check()  # refused if out of range
            await save_guild(self.store, guild, settings)
        return Answer(("Saved. " if changed else "") + settings_text(settings))


def settings_text(settings: GuildSettings) -> str:
    turn = (
        "24 h (the default)" if settings.turn_seconds is None else duration(settings.turn_seconds)
    )
    channel = "none" if settings.ladder_channel is None else f"<#{settings.ladder_channel}>"
    return (
        f"This server's settings: turn deadline of new challenges {turn}; each match in its "
        f"own thread: {'on' if settings.threads else 'off'}; ladder channel: {channel}."
    )
