"""Torii, a small abstract game for two (our rulings TI1-TI20 and how we play them:
docs/TORII.md).

Pure and deterministic, no I/O. ``TORII`` is the ``rules.protocol.GameType``; it makes
``ToriiGame`` objects (``rules.protocol.GameState``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from rules.policies import Policies
from rules.protocol import GameType, GameView, Ladder, SetupQuestion, describe
from rules.records import JUDGE, RecordError, ReplayError
from rules.sides import Side
from rules.words import msg

from . import fen as position_string
from .actions import Action, Build, Decision, Move, Pass
from .board import FILES, LINES, SIZE, SQUARES, file_of, rank_of
from .events import Event, Turn
from .game import ToriiGame
from .generate import whole_turns
from .monkey import decide, pass_turn
from .perft import perft as perft_position
from .record import lapsed, read_record, write_record
from .state import (
    BOAR,
    CRANE,
    DEER,
    KITSUNE,
    MONKEY,
    SPIRITS,
    TATSU,
    Position,
    Setup,
    follower,
    gate,
    spirit_named,
    start_position,
)
from .view import SpiritView, View

OPTIONS = {"powers": True}  # the match options and their defaults
# Each Spirit's power in a line (TI12-TI17), for whoever picks one.
POWERS = {
    DEER: msg("One step of each turn may be diagonal (TI12)"),
    KITSUNE: msg("With tile 1, first push the opponent's Spirit one step (TI13)"),
    CRANE: msg("At your turn's start, fly to a Torii outside the opponent's lanes (TI14)"),
    MONKEY: msg("When anyone builds a Torii, flip either player's tile 1 (TI15)"),
    TATSU: msg("Your Torii send home unprotected enemy Followers in their row and column (TI16)"),
    BOAR: msg(
        "With tile 1, first move one of your Torii a step; a Follower there goes home (TI17)"
    ),
}
# Bumped whenever the shape of a ToriiGame changes, so stored snapshots of older shapes are
# recognised as stale (storage then rebuilds the game from its log).
STATE_VERSION = 2


def _own_view(view: GameView[Any]) -> View:
    if not isinstance(view, View):
        raise TypeError(f"not a view of Torii: {type(view).__name__}")
    return view


class ToriiType(Policies[ToriiGame]):
    """The ``GameType`` of Torii: its policies are a plain game's (``rules.policies``) but for
    the words of its one option, whether the Spirits' powers play."""

    id = "torii"
    title = "Torii"
    state_version = STATE_VERSION
    one_move = True
    nothing_removed: str = msg("No Torii has been built")
    ladders: tuple[Ladder, ...] = (Ladder("torii", "Torii"),)
    option_nouns: Mapping[str, str] = MappingProxyType({"powers": "Spirit powers"})
    answer_nouns: Mapping[str, str] = MappingProxyType({"spirit": "spirit"})

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``powers``: True (default) plays the Spirits' powers; False, the rule book's first
        game, where a Spirit is only a token (TI4)."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(
                msg(
                    "Torii has no option {options}; its option is powers",
                    options=", ".join(unknown),
                )
            )
        powers = options.get("powers", OPTIONS["powers"])
        if not isinstance(powers, bool):
            raise ValueError(f"powers is on (True) or off (False), not {powers!r}")
        return {"powers": powers}

    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]:
        """The Spirit (TI4), each described by its power (off: only a token)."""
        if self.check_options(options)["powers"]:
            prompt = msg("Pick your Spirit: its power plays in this match")
            described = tuple(POWERS[spirit] for spirit in SPIRITS)
        else:
            prompt = msg("Pick your Spirit (powers are off: it is only your token)")
            described = tuple(msg("Not in play. {power}", power=POWERS[s]) for s in SPIRITS)
        return (SetupQuestion("spirit", prompt, SPIRITS, descriptions=described),)

    def answer_words(self, name: str, answer: str) -> str:
        if name == "spirit":
            return msg("spirit {spirit}", spirit=answer)
        return super().answer_words(name, answer)

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        if options["powers"]:
            return [msg("with the Spirits' powers")]
        return [msg("without powers")]

    def sample_setup(
        self, settings: Mapping[str, str]
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """``spirits``, two of them separated by a comma, with powers; without it Deer and
        Kitsune, without powers."""
        given = settings.get("spirits")
        spirits = (given or f"{DEER},{KITSUNE}").split(",")
        if len(spirits) != 2:
            raise ValueError("the spirits are two Spirits, e.g. Deer,Kitsune")
        options = self.check_options({"powers": given is not None})
        return options, ({"spirit": spirits[0]}, {"spirit": spirits[1]})

    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> ToriiGame:
        powers = self.check_options(options)["powers"]
        spirits = []
        for side, given in zip(Side, answers, strict=True):
            if "spirit" not in given:
                raise ValueError(f"the {side.title} has not picked a Spirit")
            spirits.append(spirit_named(given["spirit"]))
        return ToriiGame(Setup((spirits[0], spirits[1]), powers))

    def from_fen(self, fen: str, options: Mapping[str, Any]) -> ToriiGame:
        """A game from a position string; it names the Spirits and powers itself, so a
        ``powers`` option, if given, must agree."""
        pos, setup = position_string.read(fen)
        if "powers" in options and self.check_options(options)["powers"] != setup.powers:
            raise ValueError("the position string and the powers option disagree")
        return ToriiGame(setup, pos)

    def setup_of(
        self, game: ToriiGame
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """ValueError for a game from a position string: no new game makes it."""
        if game.start != start_position():
            raise ValueError("this game started from a position string, not a new game")
        spirits = game.setup.spirits
        return {"powers": game.setup.powers}, ({"spirit": spirits[0]}, {"spirit": spirits[1]})

    def write_record(
        self,
        game: ToriiGame,
        audience: Side | str | None,
        extra: Mapping[str, str] | None = None,
    ) -> str:
        return write_record(game, audience, extra)

    def read_record(self, text: str) -> ToriiGame:
        return read_record(text)

    def replay_turn(self, game: ToriiGame, texts: Sequence[str]) -> None:
        """A turn recorded as ``pass`` while a tile had a path was left to its deadline."""
        if lapsed(game, texts):
            game.end_turn(deadline=True)
        else:
            super().replay_turn(game, texts)

    def perft(self, game: ToriiGame, depth: int) -> int:
        """TI20, from the game's position (staged actions aside)."""
        return perft_position(game.pos, game.setup, depth)

    def describe(self, game: ToriiGame, viewer: Side | None) -> list[str]:
        """The position string, the status and the side to act (nothing is hidden)."""
        return describe(game)

    def visible_actions(self, game: ToriiGame, viewer: Side | None) -> list[str]:
        return [game.notation(action) for action in game.legal_actions()]

    def final_summary(self, view: GameView[Any], names: Sequence[str]) -> str:
        """``View.final_summary``: a game called off names nobody to move."""
        return _own_view(view).final_summary(names)

    def square_words(self, view: GameView[Any], names: Sequence[str]) -> dict[str, str]:
        return _own_view(view).contents(names)


TORII: GameType[ToriiGame] = ToriiType()

__all__ = [
    "BOAR",
    "CRANE",
    "DEER",
    "FILES",
    "JUDGE",
    "KITSUNE",
    "LINES",
    "MONKEY",
    "SIZE",
    "SPIRITS",
    "SQUARES",
    "STATE_VERSION",
    "TATSU",
    "TORII",
    "Action",
    "Build",
    "Decision",
    "Event",
    "Move",
    "Pass",
    "Position",
    "RecordError",
    "ReplayError",
    "Setup",
    "SpiritView",
    "ToriiGame",
    "ToriiType",
    "Turn",
    "View",
    "decide",
    "file_of",
    "follower",
    "gate",
    "pass_turn",
    "perft_position",
    "rank_of",
    "read_record",
    "whole_turns",
]
