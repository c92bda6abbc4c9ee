"""What ``/tora-tournament create`` asks of a Swiss or round robin event, and its checks:
every refusal names what is wrong and what is allowed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.i18n import _
from bot.service import Refused
from bot.service.models import AI_IDS
from bot.service.terms import DAY, LONGEST_TURN, SHORTEST_TURN, Terms
from bot.service.texts import quote
from rules import GAMES
from storage.competitions.names import has_control_characters

from .event_texts import FORMAT_NAMES
from .events import DOUBLE_ROUND_ROBIN, FORMATS, ROUND_ROBIN, SWISS
from .tiebreaks import parse_order

LONGEST_NAME = 60
MOST_PLAYERS = 500
MOST_ROUNDS = 20
DEFAULT_PLAYERS = 64
# A round robin opens every game of its schedule at its start: each player plays all of
# theirs at once, at most this many (a correspondence host's load), so a round robin takes
# at most 31 players and a double round robin 16.
MOST_GAMES_AT_ONCE = 30


def most_players(format_: str) -> int:
    """The most players an event of ``format_`` takes."""
    if format_ == ROUND_ROBIN:
        return MOST_GAMES_AT_ONCE + 1
    if format_ == DOUBLE_ROUND_ROBIN:
        return MOST_GAMES_AT_ONCE // 2 + 1
    return MOST_PLAYERS


@dataclass(frozen=True)
class EventSpec:
    """What ``/tora-tournament create`` asks for, before it is checked."""

    name: str
    game: str
    format: str
    options: dict[str, Any]
    rounds: int | None = None  # a Swiss's rounds (a round robin's follow from its players)
    turn_seconds: float | None = None
    round_seconds: float | None = None
    rated: bool = False
    entry_seconds: float | None = None  # entries close this long after creation
    starts_in: float | None = None  # it starts by itself this long after creation
    max_players: int | None = None  # default: 64, a round robin its most (``most_players``)
    bye_points: int | None = None  # half points; default: a point (Swiss), none (round robin)
    tiebreaks: str | None = None
    ai_fill: str | None = None
    away_days: bool = True  # the players' away days stop its games' clocks


@dataclass(frozen=True)
class NewEventParts:
    name: str
    options: str
    rounds: int
    turn_seconds: float
    round_seconds: float
    bye_points: int
    tiebreaks: str
    max_players: int


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not 0 < len(name) <= LONGEST_NAME:
        raise Refused(_("An event's name is 1 to {most} characters.", most=LONGEST_NAME))
    if has_control_characters(name):
        raise Refused(_("An event's name cannot hold control characters."))
    return name


def check_spec(spec: EventSpec, guild_turn: float | None) -> NewEventParts:
    """The spec made complete, or Refused naming what is wrong and what is allowed."""
    name = check_name(spec.name)
    if spec.game not in GAMES:
        allowed = ", ".join(f"`{g}`" for g in GAMES)
        raise Refused(
            _(
                "The game is one of {allowed}, not {game}.",
                allowed=allowed,
                game=quote(spec.game[:40]),
            )
        )
    if spec.format not in FORMATS:
        allowed = ", ".join(f"`{f}`" for f in FORMATS)
        raise Refused(
            _(
                "The format is one of {allowed}, not {format}.",
                allowed=allowed,
                format=quote(spec.format[:40]),
            )
        )
    turn = spec.turn_seconds or guild_turn or DAY
    if not SHORTEST_TURN <= turn <= LONGEST_TURN:
        raise Refused(_("A turn's deadline is between 5 minutes and 14 days."))
    terms = Terms(spec.game, spec.options, turn_seconds=turn, rated=spec.rated)
    options = terms.checked  # Refused names the option that is wrong
    terms.check_new()  # options a new match is not offered (its games would be refused)
    robin = spec.format != SWISS
    rounds = spec.rounds if spec.rounds is not None else (1 if robin else 5)
    if not 1 <= rounds <= MOST_ROUNDS:
        raise Refused(_("A Swiss has 1 to {most} rounds.", most=MOST_ROUNDS))
    most = most_players(spec.format)
    players = spec.max_players if spec.max_players is not None else min(DEFAULT_PLAYERS, most)
    if robin and not 2 <= players <= most:
        raise Refused(
            _(
                "A {format} takes 2 to {most} players: each plays all their games at once, "
                "from its start, and {games} games at once is the most.",
                format=_(FORMAT_NAMES[spec.format]),
                most=most,
                games=MOST_GAMES_AT_ONCE,
            )
        )
    if not 2 <= players <= most:
        raise Refused(_("An event takes 2 to {most} players.", most=most))
    round_seconds = spec.round_seconds or (30 * DAY if robin else 7 * DAY)
    if not turn <= round_seconds <= 365 * DAY:
        raise Refused(_("A round lasts at least one turn's deadline and at most a year."))
    bye = spec.bye_points if spec.bye_points is not None else (0 if robin else 2)
    if bye not in (0, 1, 2):
        raise Refused(_("A bye is worth 0, ½ or 1 point (0, 1 or 2 half points)."))
    try:
        order = parse_order(spec.tiebreaks or "")
    except ValueError as exc:
        raise Refused(_("{problem}.", problem=exc)) from None
    if spec.ai_fill is not None and spec.ai_fill not in AI_IDS:
        allowed = ", ".join(f"`{level}`" for level in AI_IDS)
        raise Refused(
            _(
                "The AI that fills an odd slot is {allowed}, not {level}.",
                allowed=allowed,
                level=quote(spec.ai_fill[:20]),
            )
        )
    for seconds in (spec.entry_seconds, spec.starts_in):
        if seconds is not None and not 0 < seconds <= 365 * DAY:
            raise Refused(_("The entry window and the start are within a year from now."))
    return NewEventParts(
        name, json.dumps(options, sort_keys=True), rounds, turn, round_seconds, bye,
        ",".join(t.value for t in order), players,
    )  # fmt: skip
