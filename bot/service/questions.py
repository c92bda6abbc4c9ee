"""The setup questions of a game (its ``GameType``'s: TORA's strategy, Ruler and Assassin,
Torii's Spirit), and the setup form a front end shows them in. A game other than TORA has its
answers kept and checked here, private until both players are done; TORA's (strategy, Ruler,
Assassin) are ``setup_phase``'s own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules import GameView, SetupQuestion, Side, game_type
from rules.tora import TORA
from storage import SetupChoice

from .errors import Refused
from .ports import Stamp
from .terms import Terms
from .texts import listing, quote


@dataclass(frozen=True)
class Field:
    """One setup question as a form shows it. ``options`` are what may be picked now: the
    game's own, or for a free-text question (TORA's Assassin square) those the host offers
    (``free``); ``descriptions`` say what each means ("" when nothing); ``waiting`` says why
    nothing may be picked yet."""

    name: str
    prompt: str
    options: tuple[str, ...]
    descriptions: tuple[str, ...]
    chosen: str | None
    free: bool = False
    waiting: str = ""


@dataclass(frozen=True)
class SetupForm:
    """A player's setup as a form: the questions with what they chose so far, the prompt
    that goes with them, and whether they are done. ``stamp`` is the match's, for
    components that answer later. ``preview`` is the player's own view of the start as
    their choices so far make it (``setup_phase.preview``), for a board to pick squares on."""

    stamp: Stamp
    text: str
    fields: tuple[Field, ...]
    done: bool
    preview: GameView | None = None


def questions(terms: Terms) -> tuple[SetupQuestion, ...]:
    """The match's setup questions (TORA's depend on its board and Assassins)."""
    if terms.game == TORA.id:
        return TORA.setup_questions({"board": terms.board, "assassins": terms.assassins})
    return game_type(terms.game).setup_questions(terms.game_rules())


def prompt_lines(asked: tuple[SetupQuestion, ...]) -> list[str]:
    """Lines per question: its prompt and the allowed answers, each with what it means."""
    lines = []
    for question in asked:
        if not question.options:
            lines.append(f"- {question.name}: {question.prompt}")
            continue
        if not question.descriptions:
            allowed = ", ".join(f"`{option}`" for option in question.options)
            lines.append(f"- {question.name}: {question.prompt} ({allowed})")
            continue
        lines.append(f"- {question.name}: {question.prompt}:")
        lines += [f"  - `{o}`: {question.description(o)}" for o in question.options]
    return lines


def merged(terms: Terms, before: SetupChoice, given: Mapping[str, str]) -> SetupChoice:
    """The answers after this request; Refused names a wrong answer and the allowed ones."""
    asked = {question.name: question for question in questions(terms)}
    answers = dict(before.answers)
    for name, text in given.items():
        question = asked.get(name)
        if question is None:
            wanted = listing([f"`{n}`" for n in asked]) or "nothing"
            raise Refused(f"{terms.title} asks for {wanted} in its setup, not `{name}`.")
        answer = _option(question, text)
        if answer is None:
            allowed = ", ".join(f"`{option}`" for option in question.options)
            raise Refused(f"Your {name} is one of {allowed}, not {quote(text)}.")
        answers[name] = answer
    return SetupChoice(answers=tuple(sorted(answers.items())))


def _option(question: SetupQuestion, text: str) -> str | None:
    """The allowed answer ``text`` names, in any case."""
    wanted = text.strip().lower()
    return next((option for option in question.options if option.lower() == wanted), None)


def missing(terms: Terms, choice: SetupChoice) -> list[str]:
    answered = dict(choice.answers)
    return [f"your {q.name}" for q in questions(terms) if q.required and q.name not in answered]


def summary(choice: SetupChoice) -> list[str]:
    return [f"{name} {answer}" for name, answer in choice.answers]


def answers_of(choices: Mapping[Side, SetupChoice]) -> tuple[dict[str, str], dict[str, str]]:
    """Both sides' answers, Challenger's first."""
    first, second = (dict(choices[side].answers) for side in Side)
    return first, second


def answered(choice: SetupChoice) -> dict[str, str]:
    """Every answer in ``choice`` by question name, TORA's and the others'."""
    tora = {"strategy": choice.strategy, "ruler": choice.ruler, "assassin": choice.assassin}
    return {name: text for name, text in tora.items() if text is not None} | dict(choice.answers)


def fields(
    terms: Terms, choice: SetupChoice, offered: Mapping[str, tuple[tuple[str, ...], str]]
) -> tuple[Field, ...]:
    """The form's fields: each question with its options, the free-text ones with what the
    host ``offered`` for them (options, and why there are none yet)."""
    chosen = answered(choice)
    made = []
    for question in questions(terms):
        if question.options:
            described = tuple(question.description(o) for o in question.options)
            made.append(
                Field(
                    question.name,
                    question.prompt,
                    question.options,
                    described,
                    chosen.get(question.name),
                )
            )
            continue
        options, waiting = offered.get(question.name, ((), ""))
        made.append(
            Field(
                question.name,
                question.prompt,
                options,
                ("",) * len(options),
                chosen.get(question.name),
                free=True,
                waiting=waiting,
            )
        )
    return tuple(made)
