"""The setup form, for any front end: the components of a player's setup message, laid out
from the game's setup questions (the service's ``SetupForm``), and what a pick in them does.
A question with a few options is a row of buttons (TORA's strategy and Ruler), one with more
is a select menu whose options say what each means (Torii's Spirit and its power), and a
free-text question is a select of what the host offers (TORA's Assassin: the free squares of
the home edge, and ``none``), in parts of 25 when there are more. Every pick answers that
question at once; the form then shows the prompt, the choices so far and the components with
the choice marked. Once the setup is over (the game began, or the match ended) a pick is
refused and the form turns off."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.i18n import _, option, word
from bot.service import Place, Refused, StaleRequest, Stamp, User
from bot.service.questions import Field, SetupForm, unasked

from .actions import Actions
from .answers import Answer, explain
from .callers import Caller
from .menus import Option

log = logging.getLogger(__name__)
VERB = "setup"  # the service's verb of a setup prompt: its components are the setup form
FEW = 5  # options shown as buttons (one row); more go in a select menu
MOST = 25  # options in one select menu
ROWS = 5  # rows of components in a message
LABEL = 80  # characters of a button's label
PLACEHOLDER = 150  # characters of a select's placeholder


@dataclass(frozen=True)
class FormButton:
    """One option of a question with few options (``index`` in its options); ``chosen``: the
    one picked, shown marked."""

    name: str
    index: int
    label: str
    chosen: bool


@dataclass(frozen=True)
class FormSelect:
    """A question's options in a menu: part ``part`` of them, when there are more than 25."""

    name: str
    part: int
    placeholder: str
    options: tuple[Option, ...]


Row = tuple[FormButton, ...] | FormSelect


def layout(form: SetupForm) -> list[Row]:
    """The form's rows: a row of buttons per question with few options, a select per 25
    options of the others (at most five rows)."""
    rows: list[Row] = []
    for field in form.fields:
        if not field.options:
            continue
        if len(field.options) <= FEW and not field.free:
            if len(rows) >= ROWS:
                break
            rows.append(
                tuple(
                    FormButton(
                        field.name,
                        index,
                        f"{_named(field.name)}: {choice}"[:LABEL],
                        choice == field.chosen,
                    )
                    for index, choice in enumerate(field.options)
                )
            )
            continue
        count = -(-len(field.options) // MOST)
        for part in range(count):
            if len(rows) >= ROWS:
                break
            rows.append(_select(field, part, count))
    return rows


def _select(field: Field, part: int, count: int) -> FormSelect:
    options = field.options[part * MOST : (part + 1) * MOST]
    described = field.descriptions[part * MOST : (part + 1) * MOST]
    shown = tuple(
        Option(option[:100], option[:100], word(meaning)[:100], option == field.chosen)
        for option, meaning in zip(options, described, strict=True)
    )
    return FormSelect(field.name, part, _placeholder(field, part, count), shown)


def _placeholder(field: Field, part: int, count: int) -> str:
    """What the menu asks for: the question, or why nothing but ``none`` is offered yet,
    and which part of the options it holds."""
    name = _named(field.name)
    text = f"{name}: {word(field.waiting or field.prompt)}"
    if count > 1:
        options = field.options[part * MOST : (part + 1) * MOST]
        text = _(
            "{name} ({first} to {last}): {prompt}",
            name=name,
            first=options[0],
            last=options[-1],
            prompt=word(field.prompt),
        )
    return text.replace("`", "")[:PLACEHOLDER]  # a placeholder shows no markdown


def _named(name: str) -> str:
    """A question's name as its option of ``/tora setup`` is called in the reader's
    Discord, capitalised: ``Strategy``."""
    shown = option(name)
    return shown[:1].upper() + shown[1:]


def field_of(form: SetupForm, name: str) -> Field:
    found = next((field for field in form.fields if field.name == name), None)
    if found is None:
        raise unasked(name)
    return found


def option_at(name: str, index: int) -> Choose:
    """A button's pick: the option at ``index`` of question ``name``, if it is still offered."""

    async def value(form: SetupForm) -> str:
        field = field_of(form, name)
        if index >= len(field.options):
            raise Refused(_("That {name} is no longer offered: pick another.", name=option(name)))
        return field.options[index]

    return value


def option_named(picked: str) -> Choose:
    """A menu's pick: the option picked, as it was."""

    async def value(form: SetupForm) -> str:
        return picked

    return value


Choose = Callable[[SetupForm], Awaitable[str]]


@dataclass(frozen=True)
class Picked:
    """A pick's outcome: the form's new text (its prompt and what the pick did) and the form
    as it is now (None once the setup is over: then only the text changes)."""

    text: str
    form: SetupForm | None


@dataclass(frozen=True)
class Typed:
    """A typed ``/tora setup``'s answer, with the form of the match in ``channel_id`` as the
    answer leaves it (None once the setup is over)."""

    answer: Answer
    channel_id: int
    form: SetupForm | None


class PickRefused(Exception):
    """A pick was refused: ``message`` for the player alone; ``over``: the setup it belongs to
    is over, so the form turns off."""

    def __init__(self, message: str, over: bool) -> None:
        super().__init__(message)
        self.message, self.over = message, over


class SetupForms:
    def __init__(self, actions: Actions) -> None:
        self.actions = actions
        self.service = actions.service

    async def current(self, channel_id: int, user_id: int) -> SetupForm | None:
        """The player's form as it is now, for the setup message going out to them; None
        when there is no setup to show (the match moved on: the text stands alone, and
        ``/tora setup`` says the rest). A failure is logged, never raised: the message goes
        out without its components rather than not at all."""
        try:
            return await self.service.setup_form(Place(0, channel_id), User(user_id, ""))
        except Refused:
            return None
        except Exception:
            log.exception("could not build a setup form", extra={"channel": channel_id})
            return None

    async def typed(
        self, caller: Caller, match: str | None, answers: Mapping[str, str | None]
    ) -> Typed:
        """``/tora setup``'s answers, and the caller's form as they leave it: the form of the
        setup message would otherwise be the only one they have, and it shows what they had
        chosen before (an Assassin's squares still waiting for a strategy). A refusal while
        the setup runs (no option given, none that applies) comes with the form too: the way
        to answer it, for a player whose DMs are closed the only form they have."""
        place = await self.actions.place(caller, match)
        try:
            answer = await self.actions.setup(caller, match, answers)
        except Refused as refusal:
            form = await self.current(place.channel_id, caller.user.id)
            if form is None:
                raise
            return Typed(Answer(explain(refusal) or str(refusal)), place.channel_id, form)
        return Typed(answer, place.channel_id, await self.current(place.channel_id, caller.user.id))

    async def pick(
        self, caller: Caller, channel_id: int, stamp: Stamp, name: str, choose: Choose
    ) -> Picked:
        """Answer question ``name`` with what ``choose`` picks from the form as it is now;
        ``PickRefused`` when the service refuses (the form stays, unless the setup is over)."""
        try:
            place = await self.actions.reached(caller, channel_id, stamp)
        except Refused as refusal:  # not this channel's form: nothing of it is told
            raise PickRefused(str(refusal), False) from None
        user = caller.user
        try:
            chosen = await choose(await self.service.setup_form(place, user))
            reply = await self.service.setup(place, user, answers={name: chosen}, expect=stamp)
        except Refused as refusal:
            over = await self._over(place, user) or isinstance(refusal, StaleRequest)
            raise PickRefused(explain(refusal) or str(refusal), over) from None
        try:
            form = await self.service.setup_form(place, user)
        except Refused:
            return Picked(reply.text, None)
        return Picked(f"{form.text}\n{reply.text}", form)

    async def kept(self, match_id: int, channel_id: int) -> list[int]:
        """The setup messages of match ``match_id`` kept in ``channel_id`` (a player's DMs):
        the forms a typed ``/tora setup`` leaves behind, which a front end shows anew."""
        kept = await self.service.records.button_messages(match_id)
        return [m.message_id for m in kept if m.channel_id == channel_id and VERB in m.verbs]

    async def _over(self, place: Place, user: User) -> bool:
        """Whether the player's setup is over (there is no form to show them any more)."""
        try:
            await self.service.setup_form(place, user)
        except Refused:
            return True
        return False

    async def options(self, caller: Caller, match: str | None, name: str) -> Field:
        """The caller's setup question ``name``, with its options and what each means (for a
        front end's completion of ``/tora setup``)."""
        place = await self.actions.place(caller, match)
        return field_of(await self.service.setup_form(place, caller.user), name)
