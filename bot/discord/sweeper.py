"""Buttons that stop applying are disabled where they were shown on Discord (which ones have
is the application layer's ``sweeping``: a challenge's once it is answered, a turn's once it
has ended, a proposal's once it no longer stands, every button once the match is over).

Messages the bot sent with buttons (posts and DMs) are remembered through the service, so
this works after a restart; answers to a user's command (ephemeral), and the messages shown
to one user alone when their DMs are closed (follow-ups of their interaction), are
remembered in memory while their token lasts, as only that token can edit them. After each
message about a match goes out, that match's remembered buttons are looked at, and the
stale ones disabled; a failure to edit is logged and forgotten (the service refuses a stale
button anyway), but a rate limit longer than discord.py waits out: the match's next sweep
tries that one again.

Disabling a message's buttons needs its components as it shows them (its links, a setup
form's choices). A message this process sent is kept in memory as Discord answered the send,
until it is swept, so that the sweep edits it at once, without reading it back first: one
request instead of two at every turn end. A setup form, which its player's picks edit (in
any process), and a message sent by another process or before a restart, are read."""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord

from bot.app.setup_form import VERB as SETUP_FORM
from bot.app.sweeping import PANEL, Sweeping, stale
from bot.service import ButtonMessage, Hosted, Stamp
from bot.service.busy import KeyedLocks

from .background import Background
from .buttons import ToraButton
from .links import greyed, keeping, links_of
from .panel import PanelButton, PanelSelect

log = logging.getLogger(__name__)
TOKEN_AGE = 14 * 60.0  # an interaction's answer can be edited for 15 minutes
KEPT = 2_000  # sent messages kept until swept (a few per live match); past that, oldest read


@dataclass
class _Answer:
    interaction: discord.Interaction[Any]
    verbs: tuple[str, ...]
    turn: int
    at: float
    message: int  # the message it shows, or a command's own interaction (see ``claim``)
    # as it went out: its buttons greyed, its links kept, once swept; None: a follow-up of
    # ``interaction`` (``shown_privately``), read back as it shows now when swept
    view: discord.ui.View | None


def greyed_answer(view: discord.ui.View) -> discord.ui.View:
    """The buttons an answer went out with, greyed out, in the words the player read them
    in (made again, they would take the sweep's language); its links kept as they are."""
    for item in view.children:
        if isinstance(item, ToraButton):
            item.item.disabled = True
    return view


async def _disable_followup(answer: _Answer) -> None:
    """A follow-up's components as it shows them now, disabled (a setup form's picks edit
    it: what was chosen stays marked), its links kept; through its interaction's token."""
    followup = answer.interaction.followup
    with contextlib.suppress(discord.HTTPException, discord.RateLimited):
        shown = await followup.fetch_message(answer.message)
        await followup.edit_message(answer.message, view=greyed(shown))


class Sweeper:
    def __init__(self, sweeping: Sweeping, client: discord.Client) -> None:
        self._sweeping = sweeping
        self._client = client
        # by match, only while it has some (a match's answers go once swept or too old)
        self._answers: dict[int, list[_Answer]] = {}
        self._locks: KeyedLocks[int] = KeyedLocks()  # by match, while sweeps want them
        # a sweep that failed (the database away, say) is logged; the next message about
        # the match sweeps again
        self._background = Background("sweeping stale buttons")
        self._claimed: dict[int, float] = {}  # message id -> when a pick began editing it
        self._shown: dict[int, discord.Message] = {}  # sent, as Discord answered, by id

    async def sent(self, message: discord.Message, verbs: tuple[str, ...], stamp: Stamp) -> None:
        """A post or DM went out with buttons for ``stamp``'s match and turn."""
        if SETUP_FORM not in verbs:
            if len(self._shown) >= KEPT:
                del self._shown[next(iter(self._shown))]
            self._shown[message.id] = message
        await self._sweeping.remember(message.channel.id, message.id, verbs, stamp)

    def watch(self, interaction: discord.Interaction[Any], view: discord.ui.View | None) -> None:
        """An answer to a user went out with ``view``: remember its buttons that act on a
        turn (in memory: only the interaction's token can edit an ephemeral message)."""
        if view is None:
            return
        items = view.children
        panel = [i for i in items if isinstance(i, PanelSelect | PanelButton)]
        pressed = [i.press for i in items if isinstance(i, ToraButton)]
        stamps = [p.stamp for p in pressed if p.stamp is not None]
        if panel:
            self._remember(interaction, PANEL, panel[0].stamp, view)
        elif stamps:
            self._remember(interaction, tuple(p.verb for p in pressed), stamps[0], view)

    def shown_privately(
        self,
        interaction: discord.Interaction[Any],
        message: discord.WebhookMessage,
        verbs: tuple[str, ...],
        stamp: Stamp,
    ) -> None:
        """A message only one user sees (the fallback when their DMs are closed: a
        follow-up of their interaction) went out with buttons for ``stamp``: remembered in
        memory like an answer, as only that interaction's token can edit it."""
        self._keep(
            stamp.match, _Answer(interaction, verbs, stamp.turn, time.monotonic(), message.id, None)
        )

    def claim(self, interaction: discord.Interaction[Any]) -> None:
        """A pick in a message's components is about to edit that message: what the sweep
        decided for the message's earlier answers no longer holds (the pick shows something
        newer, and tells ``watch`` what once it has). A command's own answer is known by
        the command's interaction (its message unknown to it), which the message names."""
        shown = interaction.message
        if shown is None:
            return
        keys = {shown.id}
        if shown.interaction_metadata is not None:
            keys.add(shown.interaction_metadata.id)
        now = time.monotonic()
        self._claimed = {m: at for m, at in self._claimed.items() if now - at < TOKEN_AGE}
        self._claimed.update(dict.fromkeys(keys, now))
        for match, answers in list(self._answers.items()):
            self._set_answers(
                match, [a for a in answers if a.message not in keys and now - a.at < TOKEN_AGE]
            )

    def _set_answers(self, match: int, answers: list[_Answer]) -> None:
        """Keep ``answers`` as ``match``'s; none: the match is forgotten (a match the bot
        hosted once need not be walked at every pick for as long as it runs)."""
        if answers:
            self._answers[match] = answers
        else:
            self._answers.pop(match, None)

    def _overtaken(self, answer: _Answer) -> bool:
        """Whether a newer pick claimed ``answer``'s message: editing it through the older
        token would undo what the newer one shows."""
        return self._claimed.get(answer.message, answer.at) > answer.at

    def _remember(
        self,
        interaction: discord.Interaction[Any],
        verbs: tuple[str, ...],
        stamp: Stamp | None,
        view: discord.ui.View,
    ) -> None:
        if stamp is None:
            return
        message = interaction.message.id if interaction.message else interaction.id
        self._keep(
            stamp.match, _Answer(interaction, verbs, stamp.turn, time.monotonic(), message, view)
        )

    def _keep(self, match: int, answer: _Answer) -> None:
        """Remember ``answer`` among its match's, dropping those whose token has run out and
        an earlier answer shown in the same message (it shows this one's buttons now)."""
        fresh = [
            a
            for a in self._answers.get(match, [])
            if answer.at - a.at < TOKEN_AGE and a.message != answer.message
        ]
        fresh.append(answer)
        self._answers[match] = fresh

    def after(self, match_id: int | None) -> None:
        """A message about ``match_id`` went out: sweep its buttons, in the background."""
        if match_id is None:
            return
        self._background.start(self.sweep(match_id), f"tora-sweep-{match_id}")

    async def sweep(self, match_id: int) -> None:
        async with self._locks.hold(match_id):
            found = await self._sweeping.sweep(match_id)
            if found is None:
                return
            for record in found.stale:
                await self._disable(record)
            await self._disable_answers(found.hosted)

    async def _disable(self, record: ButtonMessage) -> None:
        """The message's components as it shows them, disabled (a setup form keeps what was
        chosen marked), its links kept: only the message itself knows them."""
        kept = self._shown.pop(record.message_id, None)
        message = self._client.get_partial_messageable(record.channel_id)
        try:
            shown = message.get_partial_message(record.message_id)
            await shown.edit(view=greyed(kept or await shown.fetch()))
        except discord.RateLimited:  # remembered: the match's next sweep tries again
            if kept is not None:
                self._shown[record.message_id] = kept
            log.info("stale buttons wait for a rate limit", extra={"channel": record.channel_id})
            return
        except discord.HTTPException as exc:
            log.info(
                "could not disable stale buttons: %s", exc, extra={"channel": record.channel_id}
            )
        await self._sweeping.forget(record.channel_id, record.message_id)

    async def _disable_answers(self, hosted: Hosted) -> None:
        now = time.monotonic()
        current = [a for a in self._answers.get(hosted.id, []) if now - a.at < TOKEN_AGE]
        gone = [a for a in current if stale(a.verbs, a.turn, hosted)]
        # set aside before any await: answers remembered meanwhile are kept
        self._set_answers(hosted.id, [a for a in current if a not in gone])
        for answer in gone:
            if answer.view is None:
                await _disable_followup(answer)
                continue
            if self._overtaken(answer):
                continue
            if answer.verbs == PANEL:  # its menus go, its links stay
                view = keeping(None, links_of(answer.view))
            else:
                view = greyed_answer(answer.view)
            with contextlib.suppress(discord.HTTPException, discord.RateLimited):
                await answer.interaction.edit_original_response(view=view)

    async def idle(self) -> None:
        """Wait for the sweeps under way (tests compare what users see once all is done)."""
        await self._background.idle()

    async def close(self) -> None:
        await self._background.close()
