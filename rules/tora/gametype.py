"""TORA as a hosted game (``rules.protocol.GameType``): its match options and the private
setup questions (R4, R5, R41: strategy, Ruler, Assassin; ``hosting`` judges them), records
and perft."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import IllegalAction
from ..hosting import Scoring
from ..protocol import GameType, Ladder, SetupQuestion
from ..sides import Side
from ..words import msg
from .game import Game
from .geometry import name
from .hosting import NO_ASSASSIN, ToraPolicies, questions
from .match_options import check_options, checked_of, options_of, refuse_new
from .record import replay, write_record
from .tournament import CHAPTER_10

# Bumped whenever the shape of a Game object changes, so stored snapshots of older shapes
# are recognised as stale (storage then rebuilds the game from its action log).
STATE_VERSION = 10  # 10: a position knows its series' point target (R28, R29)


class ToraType(ToraPolicies):
    """The ``GameType`` of TORA."""

    id = "tora"
    title = "TORA"
    state_version = STATE_VERSION
    one_move = False
    nothing_removed: str = msg("No piece has been removed")
    # a ladder per board: the boards differ too much for one rating to say much of both
    ladders: tuple[Ladder, ...] = (
        Ladder("short", msg("short-board"), {"board": "short"}),
        Ladder("long", msg("long-board"), {"board": "long"}),
    )
    tournament: Scoring | None = CHAPTER_10

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``board`` (short, long), ``terrain`` (a preset, or ``custom`` with a
        ``terrain_map``), ``assassins`` (long board), ``target`` (points for a series,
        R28)."""
        return check_options(options)

    def refuse_new(self, options: Mapping[str, Any]) -> None:
        """A series to a target is not offered with Assassins (R28, R41, R44)."""
        refuse_new(options)

    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]:
        return questions(check_options(options))

    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> Game:
        """ValueError names a missing or wrong answer; an Assassin square is checked by the
        rules (IllegalAction, R41)."""
        checked = check_options(options)
        asked = questions(checked)
        for side, given in zip(Side, answers, strict=True):
            for question in asked:
                value = given.get(question.name)
                if value is None:
                    raise ValueError(f"the {side.title} has not answered {question.name}")
                if question.options and value not in question.options:
                    allowed = ", ".join(question.options)
                    raise ValueError(f"{question.name} is one of {allowed}, not {value!r}")
        first, second = (given.get("assassin", NO_ASSASSIN) for given in answers)
        starts = (
            None if first == NO_ASSASSIN else first,
            None if second == NO_ASSASSIN else second,
        )
        return Game(options_of(checked, answers), starts)

    def from_fen(self, fen: str, options: Mapping[str, Any]) -> Game:
        """TORA's position string is its full record (``Game.fen``)."""
        return replay(fen, trusted=True)

    def setup_of(self, game: Game) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """The options and every answer: strategy, Ruler, and where the match has Assassins
        each one's start square or ``none`` (secret, R41)."""
        made = game.options
        answers: list[dict[str, str]] = []
        for side in Side:
            given = {"strategy": made.strategies[side], "ruler": made.rulers[side]}
            if made.assassins:
                start = game.assassin_starts[side]
                given["assassin"] = name(start) if start else NO_ASSASSIN
            answers.append(given)
        return checked_of(made), (answers[0], answers[1])

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
