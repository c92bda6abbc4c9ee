"""Which of the service's posts get buttons. The service's messages carry no components;
they name the command their reader should use (``Settings.cmd``), and a button is a shortcut
for exactly that command: a public post that asks for `/tora accept` (the challenge) gets
Accept and Decline; a private message that asks for `/tora end` (the "your turn" notice)
gets End turn and Preview. The stamp is the match's version when the message goes out,
so a button pressed after the match has moved on is refused by the service as stale."""

from __future__ import annotations

import discord

from bot.service import Message, Settings
from storage import Store
from storage.hosting import CHALLENGE, PLAYING

from .buttons import CHALLENGE as CHALLENGE_BUTTONS
from .buttons import buttons


class PostButtons:
    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self._store = store
        settings = settings or Settings()
        self._accept = settings.cmd("accept")
        self._end = settings.cmd("end")

    async def __call__(
        self, channel_id: int, user_id: int | None, message: Message
    ) -> discord.ui.View | None:
        wanted = self._accept if user_id is None else self._end
        if wanted not in message.text:
            return None
        hosted = await self._store.hosting.live_in_channel(channel_id)
        if user_id is None and hosted is not None and hosted.phase == CHALLENGE:
            return buttons(CHALLENGE_BUTTONS, hosted.guild_id, channel_id, hosted.version)
        if user_id is not None and hosted is not None and hosted.phase == PLAYING:
            return buttons(("end", "preview"), hosted.guild_id, channel_id, hosted.version)
        return None
