"""What a host asks of TORA besides its turns (``rules.protocol.GameType``'s policies): its
match options (checked and worded in ``match_options``), the players' setup answers judged
(strategy, Ruler, the Assassin's secret start square: R4, R5, R41), what its texts say of a
game (rounds, the series, Assassins revealed, doomed pieces removed) and what its turn ends
cost.

Each side's answers are ``{"strategy", "ruler"}``, and ``assassin`` (a square, or ``none``)
in a match with Assassins. Every refusal is worded for the player who chose."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from types import MappingProxyType
from typing import Any

from ..errors import IllegalAction, echo
from ..hosting import Agreement, Answered
from ..policies import Policies
from ..protocol import GameView, SetupQuestion
from ..sides import Side
from ..words import frame, listing, msg, msg_n
from .assassin import check_assassin_start, home_row, start_squares
from .events import Event
from .game import Game
from .geometry import BOARD_SIZES, LONG, MAX_SQUARE_TEXT, SHORT, name
from .match_options import check_options, option_words, options_of
from .options import STRATEGIES, Options
from .terrain import CUSTOM, MAX_MAP, preset_names
from .view import View

RULERS = ("K", "Q")
RULER_WORDS = {"k": "K", "king": "K", "q": "Q", "queen": "Q"}
NO_ASSASSIN = "none"
# What each setup answer means, in the order of STRATEGIES and RULERS (docs/RULES.md).
SHORT_STRATEGIES = (
    msg("Two Archers on your home edge beside the General, one in front of the Cannon (R4)"),
    msg("All three Archers in a line in front (R4)"),
)
LONG_STRATEGIES = (
    msg("Six Archers hold the front's centre, Cavalry on both flanks, Soldiers behind (R5)"),
    msg("Soldiers, Archers and a General form a front wall, the Cavalry in reserve (R5)"),
)
RULER_NAMES = (msg("King (no effect on play)"), msg("Queen (no effect on play)"))
RESET = Agreement(
    "reset",
    msg("in a series (R28)"),
    msg(
        "A reset needs a series to a point target on the long board, and only a player down "
        "to one command piece may propose it (R28)."
    ),
)


# ---- the setup (R4, R5, R41) ---------------------------------------------------------------
def questions(checked: Mapping[str, Any]) -> tuple[SetupQuestion, ...]:
    long = checked["board"] == LONG
    asked = [
        SetupQuestion(
            "strategy",
            msg("Your deployment (R4, R5)"),
            STRATEGIES,
            descriptions=LONG_STRATEGIES if long else SHORT_STRATEGIES,
        )
    ]
    if long:
        asked.append(
            SetupQuestion(
                "ruler",
                msg("Your Ruler: King or Queen (R5)"),
                RULERS,
                descriptions=RULER_NAMES,
                wanted=msg("your Ruler"),
            )
        )
    if checked["assassins"]:
        asked.append(
            SetupQuestion(
                "assassin",
                msg(
                    "A free square of your home edge where your Assassin starts hidden, or "
                    "`{none}` (R41)",
                    none=NO_ASSASSIN,
                ),
                (),
                secret=True,
                wanted=msg("your Assassin's start square (or `{none}`)", none=NO_ASSASSIN),
            )
        )
    return tuple(asked)


def answer(
    checked: Mapping[str, Any], side: Side, before: Mapping[str, str], given: Mapping[str, str]
) -> Answered:
    """The answers after this request, checked, and a note on anything it undid: a new
    strategy under which the Assassin's square is no longer free asks for the square again.
    An answer that does not apply to this match is refused, saying why."""
    strategy, ruler, assassin = given.get("strategy"), given.get("ruler"), given.get("assassin")
    answers, note = dict(before), ""
    if strategy is not None:
        chosen = strategy.strip().lower()
        if chosen not in STRATEGIES:
            raise ValueError(
                msg(
                    "Your strategy is `aggressive` or `defensive`, not {text}.",
                    text=echo(strategy),
                )
            )
        answers["strategy"] = chosen
        square = answers.get("assassin", NO_ASSASSIN)
        if square != NO_ASSASSIN and assassin is None:
            try:
                start_square(checked, side, chosen, square)
            except ValueError:
                del answers["assassin"]
                again = msg(
                    "Your Assassin's square {square} is not free with the {strategy} setup, so "
                    "choose its square again.",
                    square=square,
                    strategy=chosen,
                )
                note = frame("{note}\n", note=again)
    if ruler is not None:
        if checked["board"] != LONG:
            raise ValueError(
                msg("Only the long board has a Ruler; on the short board there is none to choose.")
            )
        letter = RULER_WORDS.get(ruler.strip().lower())
        if letter is None:
            raise ValueError(
                msg("Your Ruler is `K` (King) or `Q` (Queen), not {text}.", text=echo(ruler))
            )
        answers["ruler"] = letter
    if assassin is not None:
        answers["assassin"] = _assassin(checked, side, answers, assassin)
    return Answered(answers, note)


def _assassin(checked: Mapping[str, Any], side: Side, answers: Mapping[str, str], text: str) -> str:
    if not checked["assassins"]:
        raise ValueError(msg("This match is played without Assassins, so there is none to place."))
    square = text.strip().lower()
    if square in (NO_ASSASSIN, "no"):
        return NO_ASSASSIN
    if "strategy" not in answers:
        raise ValueError(
            msg(
                "Choose your strategy first: it decides which squares of your home edge are "
                "free for the Assassin."
            )
        )
    return start_square(checked, side, answers["strategy"], square)


def _own_options(checked: Mapping[str, Any], side: Side, strategy: str) -> Options:
    """The options for judging ``side``'s own home edge: the other side's strategy does not
    matter (it never stands there)."""
    own = (strategy, STRATEGIES[0]) if side == Side.CHALLENGER else (STRATEGIES[0], strategy)
    return options_of(checked, ({"strategy": own[0]}, {"strategy": own[1]}))


def start_square(checked: Mapping[str, Any], side: Side, strategy: str, text: str) -> str:
    """The Assassin's start square ``text`` names, checked against ``side``'s own setup
    (R41); ValueError names the squares allowed."""
    try:
        return name(check_assassin_start(_own_options(checked, side, strategy), side, text))
    except IllegalAction as exc:
        raise ValueError(exc.message) from None


def offered_squares(
    checked: Mapping[str, Any], side: Side, answers: Mapping[str, str]
) -> tuple[tuple[str, ...], str]:
    """Where ``side``'s Assassin may start (R41): the free squares of their home edge under
    the strategy they chose, then ``none``; only ``none`` until a strategy is chosen."""
    strategy = answers.get("strategy")
    if strategy is None:
        return (NO_ASSASSIN,), msg("choose your strategy first: it decides the squares")
    squares = start_squares(_own_options(checked, side, strategy), side)
    return (*(name(square) for square in squares), NO_ASSASSIN), ""


def drawn(checked: Mapping[str, Any], side: Side, rng: random.Random) -> dict[str, str]:
    """An AI player's setup: a strategy, a Ruler on the long board, and with Assassins a
    free square (four times in five) or none."""
    drawn = {"strategy": rng.choice(STRATEGIES)}
    if checked["board"] == LONG:
        drawn["ruler"] = rng.choice(RULERS)
    if checked["assassins"]:
        squares = start_squares(_own_options(checked, side, drawn["strategy"]), side)
        pick = rng.choice(squares) if squares and rng.random() < 0.8 else 0
        drawn["assassin"] = name(pick) if pick else NO_ASSASSIN
    return drawn


# ---- what the texts say of a game ----------------------------------------------------------
def turn_notes(view: View, names: Sequence[str], series_before: int) -> list[str]:
    """Assassins revealed (R44), doomed pieces removed at the end of a round (R11), a new
    game of the series (R28)."""
    lines: list[str] = []
    revealed = {_assassin_owner(event) for event in view.last_turn if event.revealed}
    for side, record in view.published:
        if side in revealed and record:
            lines.append(
                msg(
                    "{player}'s Assassin is revealed, so its record is public now (R44): {record}.",
                    player=names[side],
                    record=record_words(record),
                )
            )
    if view.round_end:
        removed = listing(view.removed_at_round_end(names))
        lines.append(
            msg("At the end of the round, doomed pieces are removed: {pieces}.", pieces=removed)
        )
    if view.game_number != series_before:
        lines.append(
            msg(
                "Game {number} of the series is over: a new board is set up for game {next}, "
                "and the points carry over.",
                number=series_before,
                next=view.game_number,
            )
        )
    return lines


def end_notes(game: Game, names: Sequence[str]) -> list[str]:
    """The record of each Assassin still hidden when the match ends (R44): published then,
    where a reveal during the game says it in that turn's notes (``turn_notes``)."""
    published = dict(game.view_for(None).published)
    return [
        msg(
            "{player}'s Assassin stayed hidden; its record is public now (R44): {record}.",
            player=names[side],
            record=record_words(published[side]),
        )
        for side in Side
        if game.pos.hidden_assassin(side) is not None and published.get(side)
    ]


def turn_hints(game: Game) -> list[str]:
    """What the player to act may do now and at no other time: the free take of the
    Assassin their search has just revealed (R43), which only the very next action is."""
    takes = game.free_takes()
    if not takes:
        return []
    return [
        msg(
            "Your search found the Assassin: the searching piece may take it now at no "
            "cost, as your very next action (R43), with one of: {actions}.",
            actions="; ".join(f"`{take}`" for take in takes),
        )
    ]


def record_words(record: Sequence[str]) -> str:
    """An Assassin's record (R44), its lines (``start v9h17``, ``round 3: X v9h13-v9h12``)
    one after another."""
    said = record[0]
    for line in record[1:]:
        said = frame("{list}; {item}", list=said, item=line)
    return said


def _assassin_owner(event: Event) -> Side:
    """Whose Assassin an action revealed: the searched side's, else the actor's own (it
    showed itself by attacking or by moving onto an enemy, R42)."""
    return event.side.other if event.searched else event.side


@contextmanager
def skipping_trapped(game: Game) -> Iterator[None]:
    """Replay a log judged when it was played: the trapped search (R25) is skipped inside
    and run once at the end, where the log ends, and a turn its player ended is not judged
    by R30 again (``Play.judged_log``)."""
    game.skip_trapped = game.judged_log = True
    try:
        yield
    finally:
        game.skip_trapped = game.judged_log = False
    game.judge_trapped()


def _tora_view(view: GameView[Any]) -> View:
    if not isinstance(view, View):
        raise TypeError(f"not a view of TORA: {type(view).__name__}")
    return view


class ToraPolicies(Policies[Game]):
    """TORA's policies (see the module's docstring)."""

    option_nouns: Mapping[str, str] = MappingProxyType(
        {
            "board": msg("a choice of board"),
            "terrain": msg("terrain"),
            "terrain_map": msg("terrain"),
            "assassins": "Assassins",
            "target": msg("a point target"),
        }
    )
    answer_nouns: Mapping[str, str] = MappingProxyType(
        {"strategy": msg("strategy"), "ruler": "Ruler", "assassin": "Assassin"}
    )
    text_bounds: Mapping[str, int] = MappingProxyType(
        {"terrain_map": MAX_MAP, "assassin": MAX_SQUARE_TEXT}
    )
    agreements: tuple[Agreement, ...] = (RESET,)

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        return option_words(options)

    def series_words(self, options: Mapping[str, Any]) -> str:
        if not options["target"]:
            return ""
        return msg("a series to {target} points", target=options["target"])

    def option_choices(self, name: str, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The strategies; a board's terrain presets (the short board's when none is
        chosen), and ``custom``."""
        if name == "strategy":
            return STRATEGIES
        if name == "terrain":
            board = options.get("board", SHORT)
            return (*preset_names(board if board in BOARD_SIZES else SHORT), CUSTOM)
        return ()

    def unasked(self, options: Mapping[str, Any], name: str) -> str:
        if name == "ruler":
            return msg("only the long board has one")
        if name == "assassin":
            return msg("this match is played without Assassins")
        return super().unasked(options, name)

    def answer_setup(
        self,
        options: Mapping[str, Any],
        side: Side,
        before: Mapping[str, str],
        given: Mapping[str, str],
    ) -> Answered:
        return answer(options, side, before, given)

    def answer_words(self, name: str, answer: str) -> str:
        if name == "strategy":
            return msg("strategy {strategy}", strategy=answer)
        if name == "ruler":
            return frame("Ruler {letter}", letter=answer)
        if name == "assassin":
            if answer == NO_ASSASSIN:
                return msg("no Assassin")
            return msg("Assassin starts on {square}", square=answer)
        return super().answer_words(name, answer)

    def free_prompt(self, options: Mapping[str, Any], side: Side, question: SetupQuestion) -> str:
        """The Assassin's question names the player's own home edge."""
        if question.name != "assassin":
            return question.prompt
        edge = home_row(side, BOARD_SIZES[LONG])
        return msg(
            "a free square of your home edge (h{edge}) where it starts hidden, or `{none}` not "
            "to field one (once your strategy is chosen: it decides which squares are free)",
            edge=edge,
            none=NO_ASSASSIN,
        )

    def offered(
        self, options: Mapping[str, Any], side: Side, answers: Mapping[str, str], name: str
    ) -> tuple[tuple[str, ...], str]:
        if name != "assassin" or not options["assassins"]:
            return (), ""
        return offered_squares(options, side, answers)

    def draw_setup(
        self, options: Mapping[str, Any], side: Side, rng: random.Random
    ) -> dict[str, str]:
        return drawn(options, side, rng)

    def blank_answer(self, question: SetupQuestion) -> str:
        return NO_ASSASSIN

    def public_setup(self, view: GameView[Any]) -> GameView[Any]:
        """No army: each side's formation follows its secret strategy."""
        return dataclasses.replace(_tora_view(view), pieces=())

    def own_setup(self, view: GameView[Any], side: Side) -> GameView[Any]:
        """Only ``side``'s army: the opponent's formation follows their secret strategy."""
        own = _tora_view(view)
        return dataclasses.replace(own, pieces=tuple(p for p in own.pieces if p.side == side))

    def sample_setup(
        self, settings: Mapping[str, str]
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """``board`` (short by default), both sides aggressive with a King."""
        options = check_options({"board": settings.get("board", SHORT)})
        setup = {"strategy": STRATEGIES[0], "ruler": "K"}
        return options, (setup, dict(setup))

    def heavy(self, game: Game) -> bool:
        return game.options.board == LONG

    def searching_turn_end(self, game: Game) -> bool:
        return True

    def replaying(self, game: Game) -> AbstractContextManager[None]:
        return skipping_trapped(game)

    def series_number(self, game: Game) -> int:
        return game.game_number

    def setup_words(self, game: Game, side: Side) -> str:
        """The strategy, and the Ruler on the long board (the Assassin's square stays
        secret, R41)."""
        options = game.options
        strategy = options.strategies[side]
        if options.board == LONG:
            return frame(
                "{strategy}, Ruler {letter}", strategy=strategy, letter=options.rulers[side]
            )
        return strategy

    def to_act(self, view: GameView[Any]) -> str:
        shown = _tora_view(view)
        return msg_n(
            "{n} action in round {round}",
            "{n} actions in round {round}",
            shown.actions_left,
            round=shown.round,
        )

    def turn_notes(
        self, view: GameView[Any], names: Sequence[str], series_before: int
    ) -> list[str]:
        return turn_notes(_tora_view(view), names, series_before)

    def final_summary(self, view: GameView[Any], names: Sequence[str]) -> str:
        return _tora_view(view).final_summary(names)

    def square_words(self, view: GameView[Any], names: Sequence[str]) -> dict[str, str]:
        return _tora_view(view).contents(names)

    def end_notes(self, game: Game, names: Sequence[str]) -> list[str]:
        return end_notes(game, names)

    def turn_hints(self, game: Game) -> list[str]:
        return turn_hints(game)

    def private_notes(self, view: GameView[Any]) -> list[str]:
        record = _tora_view(view).private_record
        if not record:
            return []
        return [msg("Your Assassin's record: {record}.", record=record_words(record))]
