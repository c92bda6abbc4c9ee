"""The setup form on Discord: the components of a setup message, built from the game's
setup questions (the service's ``SetupForm``). A question with a few options is a row of
buttons (TORA's strategy and Ruler), one with more is a select menu whose options say what
each means (Torii's Spirit and its power), and a free-text question is a select of what the
host offers (TORA's Assassin: the free squares of the home edge, and ``none``), in parts of
25 when there are more. Every pick answers that question at once and edits the message: the
prompt, the choices so far, the components with the choice marked.

Each component's custom id holds where it is (channel, match, turn, question), so the form
works after a restart like every other button (``tora:su:...`` a button, with its option's
number; ``tora:ss:...`` a select, with its part). Once the setup is over (the game began, or
the match ended) a pick is refused and the form turns off; the sweeper disables the forms it
sent (``frozen``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.app_commands import Choice

from bot.service import MatchService, Place, Refused, StaleRequest, Stamp, User
from bot.service.questions import Field, SetupForm

from .callers import caller_of
from .respond import NOBODY, Unusable, explain, report, tell

log = logging.getLogger(__name__)
_WHERE = r"(?P<channel>\d{1,20}):m(?P<match>\d{1,20})t(?P<turn>\d{1,9})"
BUTTON_TEMPLATE = r"tora:su:" + _WHERE + r":(?P<name>[a-z_]{1,20}):(?P<index>\d{1,2})"
SELECT_TEMPLATE = r"tora:ss:" + _WHERE + r":(?P<name>[a-z_]{1,20}):(?P<part>\d{1,2})"
FEW = 5  # options shown as buttons (one row); more go in a select menu
MOST = 25  # options in one select menu
ROWS = 5  # rows of components in a message


def _where(channel_id: int, stamp: Stamp) -> str:
    return f"{channel_id}:m{stamp.match}t{stamp.turn}"


def _stamp(found: re.Match[str]) -> Stamp:
    return Stamp(int(found["match"]), int(found["turn"]))


class SetupButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """One option of a question with few options; the chosen one is green."""

    def __init__(
        self,
        channel_id: int,
        stamp: Stamp,
        name: str,
        index: int,
        label: str = "",
        chosen: bool = False,
    ) -> None:
        style = discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary
        custom_id = f"tora:su:{_where(channel_id, stamp)}:{name}:{index}"
        button = discord.ui.Button(label=label or name, style=style, custom_id=custom_id)
        super().__init__(button)
        self.channel_id, self.stamp, self.name, self.index = channel_id, stamp, name, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SetupButton:
        return cls(int(match["channel"]), _stamp(match), match["name"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def value(form: SetupForm) -> str:
            field = _field(form, self.name)
            if self.index >= len(field.options):
                raise Refused(f"That {self.name} is no longer offered: pick another.")
            return field.options[self.index]

        await answer(interaction, self.channel_id, self.stamp, self.name, value)


class SetupSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A question's options in a menu (one part of them, when there are more than 25)."""

    def __init__(
        self, select: discord.ui.Select[Any], channel_id: int, stamp: Stamp, name: str
    ) -> None:
        super().__init__(select)
        self.channel_id, self.stamp, self.name = channel_id, stamp, name

    @classmethod
    def of(cls, channel_id: int, stamp: Stamp, field: Field, part: int, count: int) -> SetupSelect:
        options = field.options[part * MOST : (part + 1) * MOST]
        described = field.descriptions[part * MOST : (part + 1) * MOST]
        shown = [
            discord.SelectOption(
                label=option[:100],
                value=option[:100],
                description=(meaning or None) and meaning[:100],
                default=option == field.chosen,
            )
            for option, meaning in zip(options, described, strict=True)
        ]
        custom_id = f"tora:ss:{_where(channel_id, stamp)}:{field.name}:{part}"
        select = discord.ui.Select(
            custom_id=custom_id, placeholder=_placeholder(field, part, count), options=shown
        )
        return cls(select, channel_id, stamp, field.name)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SetupSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, int(match["channel"]), _stamp(match), match["name"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        picked = (self.item.values or [""])[0]

        async def value(form: SetupForm) -> str:
            return picked

        await answer(interaction, self.channel_id, self.stamp, self.name, value)


def _placeholder(field: Field, part: int, count: int) -> str:
    """What the menu asks for: the question, or why nothing but ``none`` is offered yet,
    and which part of the options it holds."""
    name = field.name.capitalize()
    text = f"{name}: {field.waiting or field.prompt}"
    if count > 1:
        options = field.options[part * MOST : (part + 1) * MOST]
        text = f"{name} ({options[0]} to {options[-1]}): {field.prompt}"
    return text.replace("`", "")[:150]  # a placeholder shows no markdown


def _field(form: SetupForm, name: str) -> Field:
    found = next((field for field in form.fields if field.name == name), None)
    if found is None:
        raise Refused(f"This match's setup asks for no {name}.")
    return found


def view_of(channel_id: int, form: SetupForm) -> discord.ui.View:
    """The form's components: a row of buttons per question with few options, a select
    per 25 options of the others (at most five rows)."""
    view = discord.ui.View(timeout=None)
    row = 0
    for field in form.fields:
        if not field.options:
            continue
        if len(field.options) <= FEW and not field.free:
            if row >= ROWS:
                break
            for index, option in enumerate(field.options):
                label = f"{field.name.capitalize()}: {option}"[:80]
                chosen = option == field.chosen
                item = SetupButton(channel_id, form.stamp, field.name, index, label, chosen)
                item.row = row
                view.add_item(item)
            row += 1
            continue
        count = -(-len(field.options) // MOST)
        for part in range(count):
            if row >= ROWS:
                break
            item = SetupSelect.of(channel_id, form.stamp, field, part, count)
            item.row = row
            view.add_item(item)
            row += 1
    return view


class SetupForms:
    """The components of the setup message the service sends each player (its ``setup``
    verb): the player's form as it is when the message goes out."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def view(self, channel_id: int, user_id: int) -> discord.ui.View | None:
        """None when there is no setup to show (the match moved on): the text stands alone,
        and ``/tora setup`` says the rest. A failure is logged, never raised: the message
        goes out without its components rather than not at all."""
        try:
            form = await self.service.setup_form(Place(0, channel_id), User(user_id, ""))
        except Refused:
            return None
        except Exception:
            log.exception("could not build a setup form", extra={"channel": channel_id})
            return None
        return view_of(channel_id, form)


Value = Callable[[SetupForm], Awaitable[str]]


async def answer(
    interaction: discord.Interaction[Any], channel_id: int, stamp: Stamp, name: str, value: Value
) -> None:
    """Acknowledge a pick at once, answer the question, then edit the form it came from (the
    prompt, what was chosen, the components); a refusal goes to the player alone and leaves
    the form, or turns it off when the setup is over."""
    handled = getattr(interaction.client, "handled", None)
    if handled is not None and not await handled.first(interaction.id):
        return
    try:
        await interaction.response.defer()
    except discord.HTTPException:
        log.warning(
            "could not acknowledge a setup pick; not acted on", extra={"id": interaction.id}
        )
        return
    service: MatchService = interaction.client.service
    caller = caller_of(interaction)
    place = Place(caller.guild_id or 0, channel_id)
    try:
        chosen = await value(await service.setup_form(place, caller.user))
        reply = await service.setup(place, caller.user, answers={name: chosen}, expect=stamp)
    except (Refused, StaleRequest) as refusal:
        await _refused(interaction, service, place, caller.user, refusal)
        return
    except Exception as exc:
        await tell(interaction, report(interaction, exc), over=False, what="a setup pick")
        return
    await _show(interaction, service, place, caller.user, channel_id, reply.text)


async def _show(
    interaction: discord.Interaction[Any],
    service: MatchService,
    place: Place,
    user: User,
    channel_id: int,
    said: str,
) -> None:
    """The form after a pick: its prompt and the reply, with its components as they are now.
    Once the setup is over (this pick began the game) only the text changes: the sweeper
    disables the components of every setup message of the match alike."""
    shown: dict[str, Any] = {}
    try:
        form = await service.setup_form(place, user)
    except Refused:
        text = said
    else:
        text, shown["view"] = f"{form.text}\n{said}", view_of(channel_id, form)
    content = f"{_heading(interaction)}{text}"[:2000]
    try:
        await interaction.edit_original_response(content=content, allowed_mentions=NOBODY, **shown)
    except discord.HTTPException:
        log.exception("could not update a setup form", extra={"interaction": interaction.id})


async def _refused(
    interaction: discord.Interaction[Any],
    service: MatchService,
    place: Place,
    user: User,
    refusal: Exception,
) -> None:
    """A refused pick: the form stays, unless the setup it belongs to is over."""
    try:
        await service.setup_form(place, user)
    except Refused:
        over = True
    else:
        over = isinstance(refusal, StaleRequest)
    await tell(interaction, explain(refusal) or str(refusal), over=over, what="a setup pick")


def _heading(interaction: discord.Interaction[Any]) -> str:
    """The small first line naming the match, kept from the message being edited."""
    content = interaction.message.content if interaction.message else ""
    first = content.split("\n", 1)[0]
    return f"{first}\n" if first.startswith("-# ") else ""


async def frozen(message: discord.PartialMessage) -> discord.ui.View:
    """A setup message's components as they were last shown, disabled: what the player
    chose stays marked once the setup is over."""
    shown = await message.fetch()
    view = discord.ui.View.from_message(shown, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button | discord.ui.Select):
            item.disabled = True
    return view


async def spirit(interaction: discord.Interaction[Any], current: str) -> list[Choice]:
    """``/tora setup spirit``: the match's Spirits with what each does (its power), those
    starting with what was typed. Quick and never raises (a failure is logged)."""
    return await _complete(interaction, "spirit", current)


async def _complete(interaction: discord.Interaction[Any], name: str, typed: str) -> list[Choice]:
    """The options of the caller's setup question ``name``, each named with its meaning."""
    try:
        caller = caller_of(interaction)
        match = getattr(interaction.namespace, "match", None)
        place = await interaction.client.actions.place(caller, match)
        form = await interaction.client.service.setup_form(place, caller.user)
        field = _field(form, name)
    except (Refused, Unusable) as refusal:
        first = (explain(refusal) or "").split(". ")[0].rstrip(".")[:99] + "."
        return [Choice(name=first, value=first)]
    except Exception:
        log.exception("setup autocomplete failed", extra={"user": interaction.user.id})
        return []
    wanted = typed.strip().lower()
    return [
        Choice(name=f"{option} · {meaning}"[:100] if meaning else option, value=option)
        for option, meaning in zip(field.options, field.descriptions, strict=True)
        if option.lower().startswith(wanted)
    ][:MOST]
