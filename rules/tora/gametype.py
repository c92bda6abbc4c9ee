"""TORA as a hosted game (``rules.protocol.GameType``): its match options, the private setup
questions (R41: strategy, Ruler, Assassin), records and perft."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import IllegalAction
from ..protocol import GameType, Ladder, SetupQuestion
from ..sides import Side
from .game import Game
from .geometry import LONG, name
from .options import STRATEGIES, Options
from .record import replay, write_record
from .terrain import TerrainError

# The match options (everything of ``Options`` but the players' own setup choices).
OPTION_KEYS = ("board", "terrain", "terrain_map", "assassins", "target")
RULERS = ("K", "Q")
NO_ASSASSIN = "none"
# What each setup answer means, in the order of STRATEGIES and RULERS (docs/RULES.md).
SHORT_STRATEGIES = (
    "Two Archers on your home edge beside the General, one in front of the Cannon (R4)",
    "All three Archers in a line in front (R4)",
)
LONG_STRATEGIES = (
    "Six Archers hold the front's centre, Cavalry on both flanks, Soldiers behind (R5)",
    "Soldiers, Archers and a General form a front wall, the Cavalry in reserve (R5)",
)
RULER_NAMES = ("King (no effect on play)", "Queen (no effect on play)")
# Bumped whenever the shape of a Game object changes, so stored snapshots of older shapes
# are recognised as stale (storage then rebuilds the game from its action log).
STATE_VERSION = 7


class ToraType:
    """The ``GameType`` of TORA."""

    id = "tora"
    title = "TORA"
    state_version = STATE_VERSION
    one_move = False
    nothing_removed = "No piece has been removed"
    # a ladder per board: the boards differ too much for one rating to say much of both
    ladders: tuple[Ladder, ...] = (
        Ladder("short", "short-board", {"board": "short"}),
        Ladder("long", "long-board", {"board": "long"}),
    )

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``board`` (short, long), ``terrain`` (a preset) or ``terrain_map``, ``assassins``
        (long board), ``target`` (points for a series, R28)."""
        unknown = sorted(str(key) for key in options if key not in OPTION_KEYS)
        if unknown:
            raise ValueError(f"TORA has no option {', '.join(unknown)}")
        made = self.options(options)
        return {key: getattr(made, key) for key in OPTION_KEYS}

    def options(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], ...] = ({}, {})
    ) -> Options:
        """The rules' ``Options`` of match ``options`` and the players' setup ``answers``."""
        setups = [given.get("strategy", STRATEGIES[0]) for given in answers]
        rulers = [given.get("ruler", "K") for given in answers]
        try:
            made = Options(
                **{key: options[key] for key in OPTION_KEYS if key in options},
                challenger_setup=setups[0],
                opposition_setup=setups[1],
                rulers=(rulers[0], rulers[1]),
            )
            made.validate()
            made.make_terrain()
        except TerrainError as exc:
            raise ValueError(str(exc)) from None
        except TypeError as exc:
            raise ValueError(f"bad TORA options: {exc}") from None
        return made

    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]:
        checked = self.check_options(options)
        long = checked["board"] == LONG
        questions = [
            SetupQuestion(
                "strategy",
                "Your deployment (R4, R5)",
                STRATEGIES,
                descriptions=LONG_STRATEGIES if long else SHORT_STRATEGIES,
            )
        ]
        if long:
            questions.append(
                SetupQuestion(
                    "ruler", "Your Ruler: King or Queen (R5)", RULERS, descriptions=RULER_NAMES
                )
            )
        if checked["assassins"]:
            questions.append(
                SetupQuestion(
                    "assassin",
                    "A free square of your home edge where your Assassin starts hidden, or "
                    f"`{NO_ASSASSIN}` (R41)",
                    (),
                )
            )
        return tuple(questions)

    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> Game:
        """ValueError names a missing or wrong answer; an Assassin square is checked by the
        rules (IllegalAction, R41)."""
        questions = self.setup_questions(options)
        for side, given in zip(Side, answers, strict=True):
            for question in questions:
                value = given.get(question.name)
                if value is None:
                    raise ValueError(f"the {side.title} has not answered {question.name}")
                if question.options and value not in question.options:
                    allowed = ", ".join(question.options)
                    raise ValueError(f"{question.name} is one of {allowed}, not {value!r}")
        starts = [given.get("assassin") for given in answers]
        return Game(
            self.options(options, answers),
            tuple(None if s in (None, NO_ASSASSIN) else s for s in starts),  # type: ignore[arg-type]
        )

    def from_fen(self, fen: str, options: Mapping[str, Any]) -> Game:
        """TORA's position string is its full record (``Game.fen``)."""
        return replay(fen, trusted=True)

    def setup_of(self, game: Game) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """The options and the public answers (strategy, Ruler); the Assassins' squares are
        secret (R41) and not among them."""
        made = game.options
        options = {key: getattr(made, key) for key in OPTION_KEYS}
        setups = (made.challenger_setup, made.opposition_setup)
        answers = [{"strategy": setups[side], "ruler": made.rulers[side]} for side in Side]
        return options, (answers[0], answers[1])

    def write_record(
        self,
        game: Game,
        audience: Side | str | None,
        extra: Mapping[str, str] | None = None,
    ) -> str:
        return write_record(game, dict(extra or {}), audience=audience)

    def read_record(self, text: str) -> Game:
        return replay(text)

    def perft(self, game: Game, depth: int) -> int:
        """Leaf positions ``depth`` single actions ahead (see ``perft``)."""
        return perft(game.copy(), depth)

    def describe(self, game: Game, viewer: Side | None) -> list[str]:
        """One line per piece ``viewer`` may see, sorted as text (``<C|O> <letter> v<V>h<H>``
        and its marks; a hidden Assassin only in its owner's view), then the status."""
        lines = []
        for piece in game.view_for(viewer).pieces:
            marks = [
                mark
                for mark, present in (
                    ("defend", piece.defending),
                    ("unready", piece.kind == "C" and not piece.ready),
                    ("doomed", piece.doomed),
                )
                if present
            ]
            lines.append(" ".join([piece.side.letter, piece.letter, name(piece.sq), *marks]))
        outcome = game.outcome()
        c, o = game.scores()
        return [
            *sorted(lines),
            f"status: {'ongoing' if outcome is None else outcome}",
            f"score: C {c} O {o}",
            f"to act: {game.side.letter}, actions left {game.actions_left}",
        ]

    def visible_actions(self, game: Game, viewer: Side | None) -> list[str]:
        """The legal actions, less those of a hidden Assassin unless its owner is asking."""
        actions = game.legal_actions()
        own = game.pos.hidden_assassin(game.side)
        if viewer != game.side and own is not None:
            actions = [a for a in actions if a.origin != own.sq or a.letter != "X"]
        return game.notations(actions)


def perft(game: Game, depth: int) -> int:
    """Count the sequences of ``depth`` single actions from ``game``. A turn ends when its
    actions are used up or none is legal (never earlier, though R12 allows it); a turn that R30
    forbids to end is a dead line, and a finished game has no successors."""
    if depth == 0:
        return 1
    if game.is_over():
        return 0
    actions = game.legal_actions() if game.actions_left else []
    if not actions:
        ended = game.copy()
        try:
            ended.end_turn()
        except IllegalAction:
            return 0
        return perft(ended, depth)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = game.copy()  # a search cannot be undone (R43), so no apply/undo here
        child.apply(action)
        total += perft(child, depth - 1)
    return total


TORA: GameType[Game] = ToraType()
