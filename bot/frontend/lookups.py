"""The commands that read rather than play: a match's record and animated replay, the rules,
the server's ladders and a player's profile, and the server settings (admins)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

from bot.ladder.boards import Boards, Profile, png
from bot.service import Attachment, GuildSettings, Terms, load_guild, save_guild
from bot.service.texts import duration
from render import record_status, replay_gif, views_from_record
from rules.record import RecordError
from storage import MatchInfo, MatchNotFound, Store

from . import rulebook
from .actions import Actions
from .callers import Caller
from .parsing import parse_duration
from .respond import Answer, Unusable

RECENT_SHOWN = 5


class Lookups:
    def __init__(self, actions: Actions, store: Store) -> None:
        self.actions = actions
        self.store = store

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

    # ---- ladders -------------------------------------------------------------------------
    def _guild(self, caller: Caller) -> int:
        if caller.guild_id is None:
            raise Unusable("Ladders belong to a server: ask in one of its channels.")
        return caller.guild_id

    async def ladder(self, caller: Caller, board: str, page: int) -> Answer:
        found = await Boards(self.store).page(self._guild(caller), board, page)
        image = Attachment("ladder.png", await png(found))
        return Answer(found.text(), (image,), private=False)

    async def profile(
        self, caller: Caller, player_id: int, versus: int | None, board: str
    ) -> Answer:
        boards = Boards(self.store)
        guild = self._guild(caller)
        if versus is not None:
            pair = await boards.head_to_head(guild, board, player_id, versus)
            names = await self.store.ladders.names([player_id, versus])
            first, second = (names.get(i, str(i)) for i in (player_id, versus))
            text = (
                f"{first} vs {second}, {board} board, season {pair.key.season}: "
                f"{pair.first_wins} wins to {pair.second_wins}, {pair.draws} drawn."
            )
            return Answer(text, private=False)
        return Answer(profile_text(await boards.profile(guild, player_id)), private=False)

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


def profile_text(profile: Profile) -> str:
    lines = [f"**{profile.name}**"]
    if not profile.boards:
        lines.append("No rated games in this server yet.")
    for board in profile.boards:
        line = board.line
        head = f"{board.board.capitalize()} board, season {board.season}: "
        if line is None:
            lines.append(head + "no rated game this season.")
        else:
            mark = "?" if line.provisional else ""
            streak = f", streak {line.streak:+d}" if line.streak else ""
            lines.append(
                f"{head}rank {line.rank}, rating {line.rating:.0f}{mark} "
                f"({line.wins}-{line.losses}-{line.draws}{streak})"
            )
        for recent in board.recent[:RECENT_SHOWN]:
            result = {1.0: "won", 0.5: "drew", 0.0: "lost"}.get(recent.score, "played")
            day = time.strftime("%Y-%m-%d", time.gmtime(recent.played_at))
            removed = " (removed)" if recent.removed else ""
            lines.append(
                f"- {day}: {result} against {recent.opponent}, match {recent.match_id}{removed}"
            )
    return "\n".join(lines)
