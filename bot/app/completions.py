"""What a front end offers while a caller types an option (Discord's autocomplete): each a
list of (what is shown, the value it stands for), best first. Refusals are raised as
everywhere (not your turn, no match here), for the front end to show as a hint."""

from __future__ import annotations

from bot.i18n import word
from rules import DEFAULT, GameType, game_type

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

    async def strategy(self, caller: Caller, match: str | None, typed: str) -> list[Completion]:
        """The strategies the match's setup offers (TORA's, with what each means), those
        starting with what was typed; refused in a game that asks for none."""
        return await self._answers(caller, match, "strategy", typed)

    async def assassin(self, caller: Caller, match: str | None, typed: str) -> list[Completion]:
        """Where the caller's own Assassin may start, under the strategy they chose (R41)."""
        return _same(await self.actions.offered(caller, match, "assassin", typed))

    @staticmethod
    def terrain(game: str | None, board: str, terrain_map: str, typed: str) -> list[Completion]:
        """The terrains of the game and board chosen so far that the game takes with the
        ``terrain_map`` typed (TORA: its presets of the board with none, ``custom`` with
        one), those starting with what was typed."""
        try:
            kind = game_type(game or DEFAULT)
        except ValueError:
            return []
        given = {"board": board} | ({"terrain_map": terrain_map} if terrain_map else {})
        offered = _starting(kind.option_choices("terrain", given), typed)
        return _same([each for each in offered if _takes(kind, given | {"terrain": each})])

    async def spirit(self, caller: Caller, match: str | None, typed: str) -> list[Completion]:
        """The match's Spirits with what each does (its power, in the caller's language),
        those starting with what was typed."""
        return await self._answers(caller, match, "spirit", typed)

    async def _answers(
        self, caller: Caller, match: str | None, name: str, typed: str
    ) -> list[Completion]:
        """The answers the match's setup question ``name`` offers, with what each means (in
        the caller's language), those starting with what was typed."""
        field = await self.setup.options(caller, match, name)
        wanted = typed.strip().lower()
        return [
            (f"{option} · {word(meaning)}" if meaning else option, option)
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


def _takes(kind: GameType, options: dict[str, str]) -> bool:
    """Whether game ``kind`` takes ``options`` (as a challenge checks them)."""
    try:
        kind.check_options(options)
    except ValueError:
        return False
    return True


def _starting(values: tuple[str, ...], typed: str) -> list[str]:
    wanted = typed.strip().lower()
    return [value for value in values if value.startswith(wanted)]
