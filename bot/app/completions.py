"""What a front end offers while a caller types an option (Discord's autocomplete): each a
list of (what is shown, the value it stands for), best first. Refusals are raised as
everywhere (not your turn, no match here), for the front end to show as a hint."""

from __future__ import annotations

from bot.i18n import word
from bot.service import Refused
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
        one), those starting with what was typed. When it takes none of them, the refusal
        of the last (``custom``: the map's mistake, or its lack), for the hint to say why
        rather than an empty list."""
        try:
            kind = game_type(game or DEFAULT)
        except ValueError:
            return []
        given = {"board": board} | ({"terrain_map": terrain_map} if terrain_map else {})
        offered = _starting(kind.option_choices("terrain", given), typed)
        refusals = [_refusal(kind, given | {"terrain": each}) for each in offered]
        taken = [each for each, refusal in zip(offered, refusals, strict=True) if refusal is None]
        refused = [refusal for refusal in refusals if refusal is not None]
        if refused and not taken:
            raise Refused(refused[-1])
        return _same(taken)

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


def _refusal(kind: GameType, options: dict[str, str]) -> str | None:
    """Why game ``kind`` does not take ``options`` (as a challenge checks them), None when
    it does."""
    try:
        kind.check_options(options)
    except ValueError as exc:  # the game's words (a rules text) in the reader's language
        return word(exc.args[0]) if exc.args else str(exc)
    return None


def _starting(values: tuple[str, ...], typed: str) -> list[str]:
    wanted = typed.strip().lower()
    return [value for value in values if value.startswith(wanted)]
