"""Autocomplete for the ``/tora`` options, over the application layer's ``completions``.
Discord asks at every keystroke and shows nothing if the answer is late or fails, so each of
these answers in time (none if its work is not ready; a user's keystroke waits for their
work under way, so that each user has one such work at most) and never raises: a refusal
(not your turn, no match here) is a one-line hint as the only choice, and only a real
failure is logged as an error.

The command groups inherit ``Completing``: discord.py calls an autocomplete method with the
group its command is bound to, whose ``handlers`` hold the application layer."""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.app.answers import Unusable, first_sentence
from bot.app.completions import Completion
from bot.i18n import from_discord, speaking
from bot.service import Refused

from .callers import caller_of
from .handlers import Serving, handlers_of

log = logging.getLogger(__name__)
MOST = 25  # Discord shows at most 25 choices
ANSWER_WITHIN = 2.5  # seconds after Discord made an autocomplete: it shows none past 3
Choices = list[app_commands.Choice[str]]
Work = asyncio.Future[list[Completion]]
# Each user's autocomplete work under way, from its start (``safely``): one at most, as
# keystrokes are not rate limited and each would start more while the service is slow.
_WORKING: dict[int, Work] = {}


def choices(found: list[Completion]) -> Choices:
    return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in found[:MOST]]


def hint(text: str, typed: str = "") -> Choices:
    """A refusal's first sentence (of its first line) as the only choice: the user reads why
    there is none. It stands for what was ``typed`` (Discord picks the first choice on
    Enter: the command then answers what was typed, not the hint's words), or for itself
    when nothing was (or more than a value holds). Neither holds control characters, which
    a refusal may repeat from what was typed."""
    first = first_sentence(_printable(text.split("\n", 1)[0]))[:100]
    typed = _printable(typed)
    value = typed if 0 < len(typed) <= 100 else first
    return [app_commands.Choice(name=first, value=value)]


def _printable(text: str) -> str:
    """``text`` without its control characters (a tab, a line break, ``\\x00``): Discord
    takes none in a choice."""
    return "".join(char for char in text if unicodedata.category(char) != "Cc")


async def safely(
    interaction: discord.Interaction[Any],
    complete: Callable[[], Awaitable[list[Completion]]],
    typed: str = "",
) -> Choices:
    """``complete``'s choices, never raising (see the module's docstring), in the caller's
    language (as their answers); a refusal's hint stands for what was ``typed``. A
    keystroke while that user's last work goes on waits for it first; not ready
    ``ANSWER_WITHIN`` after Discord made the interaction, none. A work that started goes on
    after its answer (its answers are kept for the state), so that a later keystroke finds
    it done."""
    user = interaction.user.id
    work: Work | None = None
    with speaking(await _language(interaction)):
        try:
            async with asyncio.timeout(_budget(interaction)):
                await _turn_of(user)
                work = _start(user, complete)
                return choices(await asyncio.shield(work))
        except TimeoutError:
            if work is None:  # the user's last work took this one's time: no log per keystroke
                return []
            log.warning("autocomplete was slow; no choices", extra={"user": user})
            work.add_done_callback(_late)
            return []
        except (Refused, Unusable) as refusal:
            return hint(str(refusal), typed)
        except Exception:
            log.exception("autocomplete failed", extra={"user": user})
            return []


def _budget(interaction: discord.Interaction[Any]) -> float:
    """Seconds left to answer ``interaction`` (its age read from its id's time)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(0.0, ANSWER_WITHIN - max(age, 0.0))


async def _turn_of(user: int) -> None:
    """Wait until ``user`` has no autocomplete work going on (work of an event loop no
    longer running, which will never finish, does not count). Several keystrokes may
    wait: the first to wake starts its work, and the others wait for that one."""
    while (work := _WORKING.get(user)) is not None and not work.done():
        if work.get_loop() is not asyncio.get_running_loop():
            break
        await asyncio.wait((work,))


def _start(user: int, complete: Callable[[], Awaitable[list[Completion]]]) -> Work:
    """``complete`` started, as ``user``'s work under way until it is done."""
    work: Work = asyncio.ensure_future(complete())
    _WORKING[user] = work
    work.add_done_callback(lambda done: _finished(user, done))
    return work


def _finished(user: int, work: Work) -> None:
    if _WORKING.get(user) is work:
        del _WORKING[user]


def _late(work: Work) -> None:
    """An autocomplete's work that finished after its answer: a failure is logged."""
    if work.cancelled():
        return
    exc = work.exception()
    if exc is not None and not isinstance(exc, Refused | Unusable):
        log.error("autocomplete failed after its answer", exc_info=exc)


async def _language(interaction: discord.Interaction[Any]) -> str:
    """The caller's language (``Responder.language``); their Discord's where the client
    holds no handlers."""
    try:
        return await handlers_of(interaction).respond.language(interaction)
    except (TypeError, AttributeError):
        return from_discord(interaction.locale.value)


def _option(interaction: discord.Interaction[Any], name: str) -> Any:
    """An option typed so far in the command being completed (None: not yet)."""
    return getattr(interaction.namespace, name, None)


class Completing(Serving, app_commands.Group):
    """The autocomplete methods of the ``/tora`` groups (each group inherits them)."""

    async def complete_action(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The caller's legal actions that match what they typed (from the service), each
        shown in words and standing for its notation, which is what the command receives."""
        found = self.handlers.app.completions
        match = _option(interaction, "match")
        return await safely(
            interaction, lambda: found.action(caller_of(interaction), match, current), current
        )

    async def complete_match(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The caller's live matches, for commands given in a DM."""
        found = self.handlers.app.completions
        return await safely(
            interaction, lambda: found.match(caller_of(interaction), current), current
        )

    async def complete_strategy(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        """The strategies the match's setup offers (TORA's), with what each means."""
        found = self.handlers.app.completions
        match = _option(interaction, "match")
        return await safely(
            interaction, lambda: found.strategy(caller_of(interaction), match, current), current
        )

    async def complete_assassin(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        """Where the caller's own Assassin may start, under the strategy they chose (R41)."""
        found = self.handlers.app.completions
        match = _option(interaction, "match")
        return await safely(
            interaction, lambda: found.assassin(caller_of(interaction), match, current), current
        )

    async def complete_terrain(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        """The terrains of the game and board chosen so far (short by default) that go with
        the terrain map typed (TORA's presets of the board with none, ``custom`` with one)."""
        found = self.handlers.app.completions
        game, board = _option(interaction, "game"), _option(interaction, "board") or "short"
        terrain_map = _option(interaction, "terrain_map") or ""

        async def terrains() -> list[Completion]:
            return found.terrain(game, board, terrain_map, current)

        return await safely(interaction, terrains, current)

    async def complete_topic(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """Every game's rulings, pieces and powers holding what was typed, the game chosen (or
        the match's here) first."""
        found = self.handlers.app.completions
        game = _option(interaction, "game")
        return await safely(
            interaction, lambda: found.topic(caller_of(interaction), game, current), current
        )

    async def complete_tournament(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        """The server's tournament names starting with what was typed."""
        found = self.handlers.app.completions
        return await safely(
            interaction, lambda: found.tournament(caller_of(interaction), current), current
        )

    async def complete_spirit(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """``/tora setup spirit``: the match's Spirits with what each does (its power), in
        the caller's language."""
        found = self.handlers.app.completions
        match = _option(interaction, "match")
        return await safely(
            interaction, lambda: found.spirit(caller_of(interaction), match, current), current
        )
