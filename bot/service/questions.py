"""The setup questions of a game (its ``GameType``'s: TORA's strategy, Ruler and Assassin,
Torii's Spirit), the answers a request gives them, and the setup form a front end shows them
in. The game judges and words its own answers (``GameType.answer_setup``); here a request's
answers are sorted first: those this match asks, those the game asks only in other matches
(TORA's Ruler on the short board) and those of another game, set aside and named."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import _, ngettext, option, word
from rules import GAMES, GameType, GameView, SetupQuestion, Side

from .errors import Refused
from .ports import Stamp
from .terms import Terms
from .texts import listing, quote


@dataclass(frozen=True)
class Field:
    """One setup question as a form shows it. ``options`` are what may be picked now: the
    game's own, or for a free-text question (TORA's Assassin square) those the game offers
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
    return terms.kind.setup_questions(terms.checked)


def unasked(name: str) -> Refused:
    """The refusal of question ``name`` in a match whose setup does not ask it (a strategy
    in Torii, an Assassin in a TORA match without them): the setup form's, and its
    completions' hint."""
    return Refused(_("This match's setup asks for no {name}.", name=option(name)))


def prompt_lines(terms: Terms, side: Side) -> list[str]:
    """Lines per question: its prompt and the allowed answers, each with what it means (a
    free-text question as the game words it for ``side``), in the current language; each
    question named as the reader's Discord names the option."""
    lines = []
    for question in questions(terms):
        name, prompt = option(question.name), word(question.prompt)
        if not question.options:
            free = word(terms.kind.free_prompt(terms.checked, side, question))
            lines.append(f"- {name}: {free}")
            continue
        if not question.descriptions:
            allowed = ", ".join(f"`{answer}`" for answer in question.options)
            lines.append(f"- {name}: {prompt} ({allowed})")
            continue
        lines.append(f"- {name}: {prompt}:")
        lines += [f"  - `{o}`: {word(question.description(o))}" for o in question.options]
    return lines


def answered(
    terms: Terms, side: Side, before: Mapping[str, str], given: Mapping[str, str]
) -> tuple[dict[str, str], str]:
    """The answers after this request, and a note for the player: what it set aside (a
    player who answers too much has the rest taken, not everything refused) and what the
    game says it undid. Refused when nothing applies or an answer is wrong, naming what is
    allowed."""
    kind, checked = terms.kind, terms.checked
    asked = {question.name for question in questions(terms)}
    applying = {name: text for name, text in given.items() if name in asked}
    unasked = {n: t for n, t in given.items() if n not in asked and n in kind.answer_nouns}
    foreign = [name for name in given if name not in asked and name not in unasked]
    ignored = [
        # TRANSLATORS: an answer set aside, in "Ignored: {answers}." ({why}: the game's reason).
        _(
            "your {answer} ({why})",
            answer=word(kind.answer_nouns[n]),
            why=word(kind.unasked(checked, n)),
        )
        for n in unasked
    ]
    owned = _owned(kind, foreign)
    ignored += [
        _("{answers} ({game}'s)", answers=listing(named, localized=True), game=owner)
        for owner, named in owned.items()
    ]
    strays = [name for name in foreign if not any(name in g.answer_nouns for g in GAMES.values())]
    ignored += [
        _("your {answer} (not {game}'s)", answer=quote(name), game=kind.title) for name in strays
    ]
    try:
        if not applying and unasked:
            kind.answer_setup(checked, side, before, unasked)  # the game says why not
        if not applying:
            raise Refused(_nothing_applies(terms, owned))
        made = kind.answer_setup(checked, side, before, applying)
    except ValueError as exc:
        raise Refused(_reason(exc)) from None
    note = word(made.note)
    if ignored:
        note = _("Ignored: {answers}.\n{note}", answers=listing(ignored, localized=True), note=note)
    return made.answers, note


def _reason(exc: ValueError) -> str:
    """Why the game refused an answer, in the current language (its words, if it gave a
    message of its own)."""
    reason = exc.args[0] if exc.args else ""
    return word(reason) if isinstance(reason, str) else str(exc)


def _owned(kind: GameType, names: list[str]) -> dict[str, list[str]]:
    """The answers among ``names`` that another game asks for, as "your <answer>" by the
    title of that game, in the order it asks them (in the current language)."""
    owned: dict[str, list[str]] = {}
    for owner in GAMES.values():
        if owner is kind:
            continue
        for name, noun in owner.answer_nouns.items():
            if name in names:
                owned.setdefault(owner.title, []).append(_("your {answer}", answer=word(noun)))
                names = [other for other in names if other != name]
    return owned


def _nothing_applies(terms: Terms, owned: Mapping[str, list[str]]) -> str:
    wanted = listing(missing(terms, {}), localized=True)
    if not owned:
        return _("{game} asks for {wanted}, not that.", game=terms.title, wanted=wanted)
    owner, named = next(iter(owned.items()))
    text = listing(named, localized=True)
    text = text[:1].upper() + text[1:]
    return ngettext(
        "{answers} is {owner}'s; {game} asks for {wanted}.",
        "{answers} are {owner}'s; {game} asks for {wanted}.",
        len(named),
        answers=text,
        owner=owner,
        game=terms.title,
        wanted=wanted,
    )


def missing(terms: Terms, answers: Mapping[str, str]) -> list[str]:
    """The required answers not given yet, as texts name them ("your Ruler"), in the current
    language."""
    return [_missing(q) for q in questions(terms) if q.required and q.name not in answers]


def _missing(question: SetupQuestion) -> str:
    """How texts name ``question``'s answer while it is missing (``SetupQuestion.missing``)."""
    if question.wanted:
        return word(question.wanted)
    # TRANSLATORS: a setup answer not given yet ({answer}: its option's name, e.g. "spirit").
    return _("your {answer}", answer=option(question.name))


def summary(terms: Terms, answers: Mapping[str, str]) -> list[str]:
    """The answers given so far in words ("strategy aggressive", "Assassin starts on
    v3h17"), in the order of the questions, in the current language."""
    words = terms.kind.answer_words
    return [word(words(q.name, answers[q.name])) for q in questions(terms) if q.name in answers]


def answers_of(
    choices: Mapping[Side, Mapping[str, str]],
) -> tuple[dict[str, str], dict[str, str]]:
    """Both sides' answers, Challenger's first."""
    first, second = (dict(choices[side]) for side in Side)
    return first, second


def fields(terms: Terms, side: Side, chosen: Mapping[str, str]) -> tuple[Field, ...]:
    """The form's fields: each question with its options, the free-text ones with what the
    game offers ``side`` for them now (options, and why there are none yet)."""
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
        options, waiting = terms.kind.offered(terms.checked, side, chosen, question.name)
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
