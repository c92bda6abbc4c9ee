"""TORA's match options checked, completed and worded (board, terrain, Assassins, a series'
target: R1, R6, R28, R40), and the rules' ``Options`` a game is made with from them and the
players' setup answers.

Checked options are ``{"board", "terrain", "terrain_map", "assassins", "target"}``, a custom
terrain written as the terrain ``custom`` with its map. Every refusal says what is wrong and
what is allowed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import echo
from ..words import msg
from .geometry import LONG, SHORT
from .options import STRATEGIES, Options
from .terrain import CUSTOM, NONE, TerrainError, preset_names

OPTION_KEYS = ("board", "terrain", "terrain_map", "assassins", "target")
MOST_POINTS = 999  # a series' point target (R28)


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options made complete and checked; ValueError says what is wrong and what is
    allowed, in the order a challenge's options are read."""
    unknown = sorted(str(key) for key in options if key not in OPTION_KEYS)
    if unknown:
        raise ValueError(msg("TORA has no option {options}", options=", ".join(unknown)))
    board = options.get("board", SHORT)
    if board not in (SHORT, LONG):
        raise ValueError(msg("The board is `short` or `long`, not {text}.", text=echo(str(board))))
    assassins = options.get("assassins", False)
    if not isinstance(assassins, bool):
        raise ValueError(
            msg("Assassins are on (True) or off (False), not {text}.", text=echo(str(assassins)))
        )
    if assassins and board != LONG:
        raise ValueError(
            msg(
                "Assassins are played on the long board only: choose the long board, or play "
                "without Assassins."
            )
        )
    terrain, terrain_map = _terrain(board, options)
    target = options.get("target", 0)
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target <= MOST_POINTS:
        raise ValueError(
            msg("The point target is 0 (a single game) or a number up to {most}.", most=MOST_POINTS)
        )
    return {
        "board": board,
        "terrain": terrain,
        "terrain_map": terrain_map,
        "assassins": assassins,
        "target": target,
    }


def refuse_new(checked: Mapping[str, Any]) -> None:
    """ValueError if a new match may not be made of these checked options, though one already
    agreed to plays on: a series to a target (R28) with Assassins (R40-R44), whose later games
    would start each Assassin on the square the first game's end published (R41, R44)."""
    if checked["assassins"] and checked["target"]:
        raise ValueError(
            msg(
                "A series to a point target (`target`) is not played with Assassins: after "
                "its first game, everyone would know where each Assassin starts again. "
                "Play Assassins in a single game (`target` 0), or a series without Assassins."
            )
        )


def _terrain(board: str, options: Mapping[str, Any]) -> tuple[str, str]:
    """A preset of the board, or ``custom`` with its map (R6, R31-R33)."""
    terrain, terrain_map = options.get("terrain", NONE), options.get("terrain_map", "")
    if not isinstance(terrain, str) or not isinstance(terrain_map, str):
        raise ValueError(msg("A terrain is a preset's name, and a custom terrain's map is text."))
    names = preset_names(board)
    if terrain == CUSTOM:
        if not terrain_map.strip():
            raise ValueError(
                msg("A custom terrain needs its map, e.g. `water v4h6 v5h6; forest v3h3`.")
            )
    elif terrain_map:
        raise ValueError(msg("A terrain map goes with the terrain `custom`."))
    elif terrain not in names:
        raise ValueError(
            msg(
                "The {board} board has no terrain {text}; choose one of {presets}, or `custom` "
                "with a map.",
                board=board,
                text=echo(terrain),
                presets=", ".join(f"`{name}`" for name in names),
            )
        )
    try:
        rules_options(board, terrain, terrain_map).make_terrain()
    except (TerrainError, ValueError) as exc:
        raise ValueError(
            msg("The terrain map cannot be used: {reason}.", reason=exc.args[0])
        ) from None
    return terrain, terrain_map


def rules_options(
    board: str,
    terrain: str,
    terrain_map: str,
    assassins: bool = False,
    target: int = 0,
    strategies: tuple[str, str] = (STRATEGIES[0], STRATEGIES[0]),
    rulers: tuple[str, str] = ("K", "K"),
) -> Options:
    """The rules' ``Options`` (which write a custom terrain as no preset with a map)."""
    return Options(
        board=board,
        challenger_setup=strategies[0],
        opposition_setup=strategies[1],
        terrain=NONE if terrain == CUSTOM else terrain,
        terrain_map=terrain_map if terrain == CUSTOM else "",
        assassins=assassins,
        rulers=rulers,
        target=target,
    )


def options_of(
    checked: Mapping[str, Any], answers: Sequence[Mapping[str, str]] = ({}, {})
) -> Options:
    """The rules' ``Options`` of checked options and each side's answers (unanswered: an
    aggressive setup and a King)."""
    strategies = [given.get("strategy", STRATEGIES[0]) for given in answers]
    rulers = [given.get("ruler", "K") for given in answers]
    made = rules_options(
        checked["board"],
        checked["terrain"],
        checked["terrain_map"],
        checked["assassins"],
        checked["target"],
        (strategies[0], strategies[1]),
        (rulers[0], rulers[1]),
    )
    made.validate()
    return made


def checked_of(options: Options) -> dict[str, Any]:
    """The checked options a game was made with."""
    custom = bool(options.terrain_map)
    return {
        "board": options.board,
        "terrain": CUSTOM if custom else options.terrain,
        "terrain_map": options.terrain_map,
        "assassins": options.assassins,
        "target": options.target,
    }


def option_words(checked: Mapping[str, Any]) -> list[str]:
    words: list[str] = [msg("long board") if checked["board"] == LONG else msg("short board")]
    if checked["terrain"] == CUSTOM:
        words.append(msg("custom terrain"))
    elif checked["terrain"] != NONE:
        words.append(msg("terrain {preset}", preset=checked["terrain"]))
    if checked["assassins"]:
        words.append(msg("with Assassins"))
    return words
