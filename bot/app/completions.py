"""What a front end offers while a caller types an option (Discord's autocomplete): each a
list of (what is shown, the value it stands for), best first. Refusals are raised as
everywhere (not your turn, no match here), for the front end to show as a hint."""

from __future__ import annotations

from rules.tora import CUSTOM, STRATEGIES, preset_names

from . import guide
from .actions import Actions
from .callers import Caller
from .setup_form import SetupForms
from .tournaments import Tournaments

Completion = tuple[str, str]  # (shown, value)


class Completions:
    def __init__(self, actions: Actions, setup: SetupForms, tournaments: Tournaments) -> None:
        self.actions = actions
        self.setup = setup
        self.tournaments = tournaments

    async def action(self, caller: Caller, match: str | None, typed: str) -> list[Completion]:
        """The caller's legal actions that match what they typed, each shown in words and
        standing for its notation, which is what the command receives."""
        return await self.actions.choices(caller, match, typed)

    async def match(self, caller: Caller, typed: str) -> list[Completion]:
        """The caller's live matches, for commands given in a DM."""
        return await self.actions.my_matches(caller.user.id, typed)

    @staticmethod
    def strategy(typed: str) -> list[Completion]:
        return _same([s for s in STRATEGIES if s.startswith(typed.strip().lower())])

    async def assassin(self, caller: Caller, match: str | None, typed: str) -> list[Completion]:
        """Where the caller's own Assassin may start, under the strategy they chose (R41)."""
        return _same(await self.actions.assassin_squares(caller, match, typed))

    @staticmethod
    def terrain(board: str, typed: str) -> list[Completion]:
        """The presets of the board chosen so far, and ``custom``."""
        names = [*preset_names(board), CUSTOM]
        return _same([n for n in names if n.startswith(typed.strip().lower())])

    async def spirit(self, caller: Caller, match: str | None, typed: str) -> list[Completion]:
        """The match's Spirits with what each does (its power), those starting with what
        was typed."""
        field = await self.setup.options(caller, match, "spirit")
        wanted = typed.strip().lower()
        return [
            (f"{option} · {meaning}" if meaning else option, option)
            for option, meaning in zip(field.options, field.descriptions, strict=True)
            if option.lower().startswith(wanted)
        ]

    async def topic(self, caller: Caller, game: str | None, typed: str) -> list[Completion]:
        """Every game's rulings, pieces and powers holding what was typed, the game chosen
        (or the match's here) first."""
        return _same(await guide.topics(self.actions, caller, typed, game))

    async def tournament(self, caller: Caller, typed: str) -> list[Completion]:
        """The server's tournament names starting with what was typed."""
        return _same(await self.tournaments.names(caller.guild_id, typed.strip()))


def _same(values: list[str]) -> list[Completion]:
    return [(value, value) for value in values]
