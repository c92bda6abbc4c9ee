"""What the engine does for a player besides playing: a practice game's hint (the turn a
strong AI would play now, from the player's own view) and the analysis of a finished match
(``analysis``). Both search in the AI's workers in the player's fair turn, one at a time per
player."""

from __future__ import annotations

import logging
from functools import partial

from bot.i18n import _
from rules import GameState, Side
from storage import MatchInfo

from . import analysis, hints, play
from .errors import Refused, StaleRequest
from .fairness import Owner
from .host import Host
from .models import Place, Reply, User
from .offload import HINT, Offload, WorkerFailed
from .phases import PLAYING
from .ports import Stamp
from .table import Table

log = logging.getLogger(__name__)


class Coaching(Host):
    async def hint(self, place: Place, user: User) -> Reply:
        """A practice game's hint: the turn a strong AI would play for ``user`` now, from
        their own view (private), told in words, drawn on their board, with "Play this"
        when it differs from what they staged. Searching costs seconds: one hint at a time
        per player; the same position gives the same hint (searched once)."""
        self._limit.take(user.id, self._ctx.now())
        table, side, hint, texts = await self._hinted(place, user, None)
        said = await Offload.step(table.game, lambda: hints.played(hint, texts).staged())
        picture = await hints.picture(self._ctx, table, side, hint, texts)
        offer = (hints.PLAY,) if hints.to_stage(hint, texts) else ()
        text = hints.hint_text(self._ctx, hint, texts, said)
        return Reply(text, (picture,), stamp=table.stamp, buttons=offer)

    async def play_hint(self, place: Place, user: User, expect: Stamp) -> Reply:
        """Stage the hinted turn for ``user`` ("Play this"): what they staged that it does
        not keep is taken back, its actions staged, all or nothing."""
        self._limit.take(user.id, self._ctx.now())
        _table, side, hint, texts = await self._hinted(place, user, expect)

        async def flow(table: Table) -> Reply:
            now = hints.hint_game(table, side)
            if now.notations != hint.notations:
                raise StaleRequest(_("Your turn changed since that hint: ask for a new one."))
            await Offload.step(table.game, partial(hints.stage, table, hint, texts))
            staged = "; ".join(table.game.staged())
            done = _("Staged the hint: {actions}.", actions=staged)
            return await play.staged_reply(self._ctx, table, side, done)

        return await self._command(place, user, expect, (PLAYING,), flow, limited=False)

    async def _hinted(
        self, place: Place, user: User, expect: Stamp | None
    ) -> tuple[Table, Side, hints.Hint, list[str]]:
        """The hint for ``user`` in the match's present state (``expect``: of that turn),
        searched unless the state already has it."""
        if user.id in self._hinting:
            raise Refused(_("Your last hint is still being worked out; wait for it first."))
        async with self._lock(place.channel_id):
            table = await self._expected(place, expect)
            side = play.acting_side(self._ctx, table, user)
            hint = hints.hint_game(table, side)
            position = (table.stamp, hint.notations)
            known = table.memo().get(hints.MEMO)
            owner = Owner(table.hosted.guild_id, user.id)
        if known is not None and known[0] == position:
            return table, side, hint, known[1]
        self._hinting.add(user.id)
        try:
            texts = await self._robots.search(hint.game, HINT, owner)
        except WorkerFailed:
            log.exception("the hint's search failed in channel %d", place.channel_id)
            raise Refused(
                _(
                    "The AI could not work out a hint this time, and nothing in your match "
                    "changed. Ask again in a moment, or play on."
                )
            ) from None
        finally:
            self._hinting.discard(user.id)
        async with self._lock(place.channel_id):
            if await self._loaded(place.channel_id) is table:
                table.memo()[hints.MEMO] = (position, texts)
        return table, side, hint, texts

    async def analysable(self, match_id: int, user: User) -> tuple[MatchInfo, GameState]:
        """The match ``user`` may have analysed now, and its game: refused unless it has
        ended (and is not on TORA's long board), and while a hint or analysis of theirs is
        still being worked out (``analysis``)."""
        info = await self.records.match_info(match_id)
        if info is None:
            raise Refused(_("There is no match {number}.", number=match_id))
        final = await analysis.analysable(self._ctx, info)
        if user.id in self._hinting:
            raise Refused(_("Your last hint or analysis is still being worked out; wait for it."))
        return info, final

    async def analyse(self, match_id: int, user: User, guild_id: int) -> analysis.Report:
        """The analysis of a finished match, to post (``analysis``): the hint's search on
        every position, in the AI's workers in ``user``'s turn (``guild_id``: theirs), one
        hint or analysis of theirs at a time. It takes a while: a second or so a turn."""
        info, final = await self.analysable(match_id, user)
        self._hinting.add(user.id)  # at once: no other analysis of theirs gets past the check
        owner = Owner(guild_id, user.id)
        try:
            players = ((info.challenger_id, "Challenger"), (info.opposition_id, "Opposition"))
            names = [await self.records.player_name(uid) or role for uid, role in players]
            return await analysis.report(
                self._ctx, info, final, names, lambda game: self._robots.search(game, HINT, owner)
            )
        except WorkerFailed:
            log.exception("the analysis of match %d failed", match_id)
            raise Refused(
                _(
                    "The AI could not finish the analysis of match {number}; ask again later.",
                    number=match_id,
                )
            ) from None
        finally:
            self._hinting.discard(user.id)
