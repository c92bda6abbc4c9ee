"""The policies of a plain game: what the host asks of a game besides its turns
(``rules.protocol.GameType``'s second half), answered as a game with nothing special
answers it. A game type inherits ``Policies`` and says only what differs (TORA: its
options in words, its Assassin square, its long board's costly turn ends, its rounds and
series in texts).

A plain game's setup questions each have a few options, picked by name in any case; its
options need no words beyond its own (Torii says whether the Spirits' powers play); its
turn ends are cheap; its texts say what is to do as a move, or a decision in the opponent's
turn; nothing of its setup stays secret once the game starts."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from types import MappingProxyType
from typing import Any, Generic

from .errors import ActionError, echo
from .hosting import Agreement, Answered, Scoring
from .protocol import G, GameView, Mapped, SetupQuestion
from .sides import Side
from .words import listing, msg, msg_n

NO_NOUNS: Mapping[str, str] = MappingProxyType({})
NO_BOUNDS: Mapping[str, int] = MappingProxyType({})


class Policies(ABC, Generic[G]):
    """A plain game's policies, for a game type to inherit (see the module's docstring)."""

    title: str
    option_nouns: Mapping[str, str] = NO_NOUNS
    answer_nouns: Mapping[str, str] = NO_NOUNS
    text_bounds: Mapping[str, int] = NO_BOUNDS
    agreements: tuple[Agreement, ...] = ()
    tournament: Scoring | None = None
    uci_variant: str | None = None

    @abstractmethod
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]: ...

    @abstractmethod
    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]: ...

    @abstractmethod
    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> G: ...

    @abstractmethod
    def setup_of(self, game: G) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]: ...

    # ---- options ---------------------------------------------------------------------------
    def refuse_new(self, options: Mapping[str, Any]) -> None:
        return None

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        return []

    def series_words(self, options: Mapping[str, Any]) -> str:
        return ""

    def option_choices(self, name: str, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ()

    # ---- the setup -------------------------------------------------------------------------
    def unasked(self, options: Mapping[str, Any], name: str) -> str:
        return "not asked in this match"

    def answer_setup(
        self,
        options: Mapping[str, Any],
        side: Side,
        before: Mapping[str, str],
        given: Mapping[str, str],
    ) -> Answered:
        """Each answer one of its question's options, named in any case (a free-text
        answer as typed, trimmed)."""
        asked = {question.name: question for question in self.setup_questions(options)}
        answers = dict(before)
        for name, text in given.items():
            question = asked.get(name)
            if question is None:
                wanted = listing([f"`{n}`" for n in asked]) or msg("nothing")
                raise ValueError(
                    msg(
                        "{game} asks for {wanted} in its setup, not {name}.",
                        game=self.title,
                        wanted=wanted,
                        name=echo(name),
                    )
                )
            answer = option_named(question, text)
            if answer is None:
                allowed = ", ".join(f"`{option}`" for option in question.options)
                raise ValueError(
                    msg(
                        "Your {name} is one of {allowed}, not {answer}.",
                        name=name,
                        allowed=allowed,
                        answer=echo(text),
                    )
                )
            answers[name] = answer
        return Answered(answers)

    def answer_words(self, name: str, answer: str) -> str:
        return f"{name} {answer}"

    def free_prompt(self, options: Mapping[str, Any], side: Side, question: SetupQuestion) -> str:
        return question.prompt

    def offered(
        self, options: Mapping[str, Any], side: Side, answers: Mapping[str, str], name: str
    ) -> tuple[tuple[str, ...], str]:
        return (), ""

    def draw_setup(
        self, options: Mapping[str, Any], side: Side, rng: random.Random
    ) -> dict[str, str]:
        return {q.name: rng.choice(q.options) for q in self.setup_questions(options) if q.options}

    def sample_setup(
        self, settings: Mapping[str, str]
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        """The default options, and each question's first option for both sides."""
        options = self.check_options({})
        first = {q.name: q.options[0] for q in self.setup_questions(options) if q.options}
        return options, (first, dict(first))

    def setup_preview(
        self, options: Mapping[str, Any], side: Side, answers: Mapping[str, str]
    ) -> GameView[Any]:
        """The start as ``side``'s player would see it with ``answers``, what they chose so
        far: each question they have not answered takes its first option (a free-text one
        ``blank_answer``), and so do all of the opponent's, never their real answers; a game
        whose view would show those stand-ins as the opponent's (TORA's army in a formation
        of the first strategy) leaves them out (``own_setup``). Answers that do not go
        together (a square of another strategy) are left out rather than refused."""
        first = self._stand_ins(options)
        mine = first | {name: answers[name] for name in first if name in answers}
        both = (mine, first) if side == Side.CHALLENGER else (first, mine)
        try:
            game = self.new_game(options, both)
        except ActionError:
            game = self.new_game(options, (first, dict(first)))
        return self.own_setup(game.view_for(side), side)

    def setup_board(self, options: Mapping[str, Any]) -> GameView[Any]:
        """The start of these options as the first answers make it, as anyone sees it: a
        plain game's setup answers show on no piece of its board (``public_setup``)."""
        first = self._stand_ins(options)
        return self.public_setup(self.new_game(options, (first, dict(first))).view_for(None))

    def _stand_ins(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Each setup question's first option (a free-text one's ``blank_answer``)."""
        asked = self.setup_questions(options)
        return {q.name: q.options[0] if q.options else self.blank_answer(q) for q in asked}

    def public_setup(self, view: GameView[Any]) -> GameView[Any]:
        """``view`` of a start made with stand-in answers for both sides, with none of
        them: a plain game's view shows no setup answers as pieces."""
        return view

    def own_setup(self, view: GameView[Any], side: Side) -> GameView[Any]:
        """``view`` of a start made with stand-in answers for ``side``'s opponent, with only
        what ``side`` chose: a plain game's view shows no setup answers as pieces."""
        return view

    def blank_answer(self, question: SetupQuestion) -> str:
        """The answer a free-text question takes in ``setup_preview`` while not given."""
        return ""

    # ---- games and views -------------------------------------------------------------------
    def heavy(self, game: G) -> bool:
        return False

    def searching_turn_end(self, game: G) -> bool:
        return False

    def replaying(self, game: G) -> AbstractContextManager[None]:
        return nullcontext()

    def replay_turn(self, game: G, texts: Sequence[str]) -> None:
        for text in texts:
            game.apply(text)
        game.end_turn()

    def series_number(self, game: G) -> int:
        return 1

    def setup_words(self, game: G, side: Side) -> str:
        """The side's answers that are not secret, in the order of the questions."""
        options, answers = self.setup_of(game)
        shown = [q.name for q in self.setup_questions(options) if not q.secret]
        return ", ".join(answers[side][name] for name in shown if name in answers[side])

    def to_act(self, view: GameView[Any]) -> str:
        """A move, a pass that is the turn's only legal action (Torii's TI8), or a decision in
        the opponent's turn and what it is (the view words it: Torii's Monkey flip)."""
        if view.forced_pass:
            return msg("a pass (no other action is legal)")
        if view.deciding:
            return msg_n(
                "{n} decision in the opponent's turn, {decision}",
                "{n} decisions in the opponent's turn, {decision}",
                view.actions_left,
                decision=view.decision,
            )
        return msg("a move")

    def turn_notes(
        self, view: GameView[Any], names: Sequence[str], series_before: int
    ) -> list[str]:
        return []

    def final_summary(self, view: GameView[Any], names: Sequence[str]) -> str:
        return view.summary(names)

    def square_words(self, view: GameView[Any], names: Sequence[str]) -> dict[str, str]:
        """Its square map's pieces (``Mapped``); nothing for a view that says no map."""
        if not isinstance(view, Mapped):
            return {}
        return {
            square: msg("{player}'s {piece}", player=names[placed.side], piece=placed.name)
            for square, placed in view.square_map().pieces.items()
        }

    def end_notes(self, game: G, names: Sequence[str]) -> list[str]:
        return []

    def turn_hints(self, game: G) -> list[str]:
        return []

    def private_notes(self, view: GameView[Any]) -> list[str]:
        return []


def option_named(question: SetupQuestion, text: str) -> str | None:
    """The option of ``question`` that ``text`` names, in any case; for a free-text
    question the text itself, trimmed (None when empty)."""
    wanted = text.strip()
    if not question.options:
        return wanted or None
    return next((o for o in question.options if o.lower() == wanted.lower()), None)
