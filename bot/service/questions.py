"""The setup of a game other than TORA: its ``GameType``'s questions (Torii: each player's
Spirit), answered privately, public once both players are done. TORA's setup (strategy,
Ruler, Assassin) is ``setup_phase``'s own."""

from __future__ import annotations

from collections.abc import Mapping

from rules import SetupQuestion, Side, game_type
from storage import SetupChoice

from .errors import Refused
from .terms import Terms
from .texts import listing, quote


def questions(terms: Terms) -> tuple[SetupQuestion, ...]:
    return game_type(terms.game).setup_questions(terms.game_rules())


def prompt_lines(terms: Terms) -> list[str]:
    """One line per question: its prompt and the allowed answers."""
    return [
        f"- {question.name}: {question.prompt} "
        f"({', '.join(f'`{option}`' for option in question.options)})"
        for question in questions(terms)
    ]


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
