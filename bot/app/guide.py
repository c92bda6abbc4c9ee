"""``/tora help`` and ``/tora rules`` in the game at hand: the one chosen with the ``game``
option, else the game of the match here (the channel's, live or last; in a DM, the caller's
live matches' when they are all of one game), else TORA's help and every game's rules, TORA's
first."""

from __future__ import annotations

import asyncio

from bot.i18n import current
from bot.i18n.words import Language
from bot.service import Attachment, Terms
from render.coordinates import coordinates_of
from rules.registry import DEFAULT, GAMES

from . import rulebook
from .actions import Actions
from .answers import Answer
from .callers import Caller


async def game_here(actions: Actions, caller: Caller) -> str | None:
    """The game of the match at hand, if one is (None: none, or matches of several games)."""
    if caller.in_dm:
        hosted = await actions.service.matches_of(caller.user.id)
    else:
        latest = await actions.records.latest_in_channel(caller.channel_id)
        hosted = [] if latest is None else [latest]
    games = {Terms.from_json(each.terms).game for each in hosted}
    return games.pop() if len(games) == 1 else None


async def chosen_game(actions: Actions, caller: Caller, game: str | None) -> str | None:
    """``game`` if it is one of the registry's, else the game at hand."""
    if game in GAMES:
        return game
    return await game_here(actions, caller)


async def quick_start(actions: Actions, caller: Caller, game: str | None) -> Answer:
    """``/tora help``: the game's quick start with its coordinates picture, both in the
    reader's language."""
    shown = await chosen_game(actions, caller, game) or DEFAULT
    picture = await asyncio.to_thread(coordinates_of, shown, Language(current()))
    return Answer(rulebook.help_text(shown), (Attachment(f"{shown}-coordinates.png", picture),))


async def rules(actions: Actions, caller: Caller, topic: str, game: str | None) -> Answer:
    """``/tora rules``: a ruling, a piece or power, or a word, in the game at hand first."""
    return Answer(rulebook.lookup(topic, await chosen_game(actions, caller, game)))


async def topics(actions: Actions, caller: Caller, typed: str, game: str | None) -> list[str]:
    """What ``rules topic`` autocompletes: every game's topics containing ``typed``, the
    game at hand's first."""
    return rulebook.topics(typed, await chosen_game(actions, caller, game))
