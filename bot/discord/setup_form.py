"""The setup form on Discord: the components of a setup message, built from the application
layer's layout of the player's setup (``bot.app.setup_form``): rows of buttons (the chosen
one green) and select menus. Every pick answers that question at once and edits the message.

Each component's custom id holds where it is (channel, match, turn, question), so the form
works after a restart like every other button (``tora:su:...`` a button, with its option's
number; ``tora:ss:...`` a select, with its part). Once the setup is over a pick is refused
and the form turns off; the sweeper disables the forms it sent (what was chosen stays marked)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.app.answers import NOT_YOURS
from bot.app.buttons import number
from bot.app.setup_form import (
    ROWS,
    Choose,
    FormButton,
    FormSelect,
    PickRefused,
    layout,
    option_at,
    option_named,
)
from bot.i18n import _, speaking
from bot.service import Stamp
from bot.service.questions import SetupForm

from .callers import caller_of
from .handlers import handlers_of
from .links import keeping, links_of
from .respond import NOBODY, Refusal, answer_pick, own_message, report

log = logging.getLogger(__name__)
_WHERE = r"(?P<channel>\d{1,20}):m(?P<match>\d{1,20})t(?P<turn>\d{1,9})"
BUTTON_TEMPLATE = r"tora:su:" + _WHERE + r":(?P<name>[a-z_]{1,20}):(?P<index>\d{1,2})"
SELECT_TEMPLATE = r"tora:ss:" + _WHERE + r":(?P<name>[a-z_]{1,20}):(?P<part>\d{1,2})"


def _where(channel_id: int, stamp: Stamp) -> str:
    return f"{channel_id}:m{stamp.match}t{stamp.turn}"


def _stamp(found: re.Match[str]) -> Stamp:
    return Stamp(number(found["match"]), int(found["turn"]))


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
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or name, style=style, custom_id=custom_id
        )
        super().__init__(button)
        self.channel_id, self.stamp, self.name, self.index = channel_id, stamp, name, index

    @classmethod
    def of(cls, channel_id: int, stamp: Stamp, spec: FormButton) -> SetupButton:
        return cls(channel_id, stamp, spec.name, spec.index, spec.label, spec.chosen)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SetupButton:
        return cls(number(match["channel"]), _stamp(match), match["name"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        choose = option_at(self.name, self.index)
        await answer(interaction, self.channel_id, self.stamp, self.name, choose)


class SetupSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A question's options in a menu (one part of them, when there are more than 25)."""

    def __init__(
        self, select: discord.ui.Select[Any], channel_id: int, stamp: Stamp, name: str
    ) -> None:
        super().__init__(select)
        self.channel_id, self.stamp, self.name = channel_id, stamp, name

    @classmethod
    def of(cls, channel_id: int, stamp: Stamp, spec: FormSelect) -> SetupSelect:
        options = [
            discord.SelectOption(
                label=o.label, value=o.value, description=o.description or None, default=o.default
            )
            for o in spec.options
        ]
        custom_id = f"tora:ss:{_where(channel_id, stamp)}:{spec.name}:{spec.part}"
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, placeholder=spec.placeholder, options=options
        )
        return cls(select, channel_id, stamp, spec.name)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SetupSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, number(match["channel"]), _stamp(match), match["name"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        picked = (self.item.values or [""])[0]
        await answer(interaction, self.channel_id, self.stamp, self.name, option_named(picked))


def view_of(channel_id: int, form: SetupForm) -> discord.ui.View:
    """The form's components, row by row as the application layer lays them out."""
    view = discord.ui.View(timeout=None)
    for row, spec in enumerate(layout(form)):
        items: list[SetupButton | SetupSelect] = (
            [SetupSelect.of(channel_id, form.stamp, spec)]
            if isinstance(spec, FormSelect)
            else [SetupButton.of(channel_id, form.stamp, button) for button in spec]
        )
        for item in items:
            item.row = row
            view.add_item(item)
    return view


async def answer(
    interaction: discord.Interaction[Any], channel_id: int, stamp: Stamp, name: str, choose: Choose
) -> None:
    """Answer the question, then edit the form the pick came from (the prompt, what was
    chosen, the components; ``answer_pick``); a refusal goes to the player alone and leaves
    the form, or turns it off when the setup is over."""
    handlers = handlers_of(interaction)
    if not await handlers.respond.handled.first(interaction):
        return
    job = _answered(interaction, channel_id, stamp, name, choose)
    await answer_pick(interaction, job, "a setup pick")


async def _answered(
    interaction: discord.Interaction[Any], channel_id: int, stamp: Stamp, name: str, choose: Choose
) -> dict[str, Any] | Refusal:
    """The form as the pick leaves it, or why the pick is refused, in the player's language
    (the one their form was sent in)."""
    handlers = handlers_of(interaction)
    with speaking(await handlers.respond.language(interaction)):
        if not own_message(interaction):
            return Refusal(_(NOT_YOURS))
        try:
            picked = await handlers.app.setup.pick(
                caller_of(interaction), channel_id, stamp, name, choose
            )
        except PickRefused as refusal:
            return Refusal(refusal.message, refusal.over)
        except Exception as exc:
            return Refusal(report(interaction, exc))
        shown: dict[str, Any] = {"allowed_mentions": NOBODY}
        if picked.form is not None:  # else the setup is over: the sweeper disables every form
            view = view_of(channel_id, picked.form)
            shown["view"] = _with_links(interaction.message, picked.form, view)
    shown["content"] = f"{_heading(interaction)}{picked.text}"[:2000]
    return shown


async def show_in_dm(
    interaction: discord.Interaction[Any], channel_id: int, form: SetupForm
) -> None:
    """A typed ``/tora setup`` changed the caller's setup: the setup message in their DMs
    shows their form as it is now, where it would contradict the command (an Assassin still
    waiting for the strategy just chosen) until its own next pick. Its text stays (the
    prompt); a failure leaves it as it was, as that pick shows the form anew."""
    forms = handlers_of(interaction).app.setup
    try:
        dm = await interaction.user.create_dm()
        for message_id in await forms.kept(form.stamp.match, dm.id):
            shown = await dm.fetch_message(message_id)
            await shown.edit(view=_with_links(shown, form, view_of(channel_id, form)))
    except discord.HTTPException as exc:
        log.info("could not show the setup form anew: %s", exc, extra={"channel": channel_id})


def _with_links(
    message: discord.Message | None, form: SetupForm, view: discord.ui.View
) -> discord.ui.View:
    """``form``'s ``view`` with the link buttons of the form it replaces (the player's
    board), in the row after the form's when it leaves one free: only the message knows
    them."""
    links = () if message is None else links_of(discord.ui.View.from_message(message))
    rows = len(layout(form))
    if rows >= ROWS:
        return view
    for link in links:
        link.row = rows
    return keeping(view, links) or view


def _heading(interaction: discord.Interaction[Any]) -> str:
    """The small first line naming the match, kept from the message being edited."""
    content = interaction.message.content if interaction.message else ""
    first = content.split("\n", 1)[0]
    return f"{first}\n" if first.startswith("-# ") else ""
