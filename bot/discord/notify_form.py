"""The notifications form on Discord (``/tora settings``): the application layer's form
(``bot.app.notify_form``) as toggle buttons (green when on) and select menus. Every pick
sets one setting at once and edits the form. The custom ids hold whose settings they are
(``me``, or ``sv`` for a server's defaults) and the setting, so a form works after a
restart; the form is the caller's alone (an ephemeral answer), and a pick acts on the one
who makes it."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.answers import NOT_YOURS, explain
from bot.app.notify_form import LANGUAGE, NotifyForm, Pick, Toggle
from bot.i18n import _, speaking

from .callers import caller_of
from .handlers import handlers_of
from .respond import NOBODY, Refusal, answer_pick, own_message, report

_SCOPE = r"(?P<scope>me|sv):(?P<key>[a-z_]{1,12})"
BUTTON_TEMPLATE = r"tora:nt:" + _SCOPE + r":(?P<value>[a-z0-9,\-]{1,8})"
SELECT_TEMPLATE = r"tora:ns:" + _SCOPE


class NotifyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A setting that is on or off: pressing it sets ``value`` (the other one)."""

    def __init__(self, scope: str, key: str, value: str, label: str = "", on: bool = False):
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or key, style=style, custom_id=f"tora:nt:{scope}:{key}:{value}"
        )
        super().__init__(button)
        self.scope, self.key, self.value = scope, key, value

    @classmethod
    def of(cls, scope: str, toggle: Toggle) -> NotifyButton:
        return cls(scope, toggle.key, toggle.flipped, toggle.label, toggle.on)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NotifyButton:
        return cls(match["scope"], match["key"], match["value"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await picked(interaction, self.scope, self.key, self.value)


class NotifySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A setting of several values, in a menu."""

    def __init__(self, select: discord.ui.Select[Any], scope: str, key: str) -> None:
        super().__init__(select)
        self.scope, self.key = scope, key

    @classmethod
    def of(cls, scope: str, pick: Pick) -> NotifySelect:
        options = [
            discord.SelectOption(label=label, value=value, default=chosen)
            for value, label, chosen in pick.options
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"tora:ns:{scope}:{pick.key}", placeholder=pick.placeholder, options=options
        )
        return cls(select, scope, pick.key)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NotifySelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, match["scope"], match["key"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await picked(interaction, self.scope, self.key, (self.item.values or [""])[0])


def view_of(form: NotifyForm) -> discord.ui.View:
    """The toggles in the first row, each menu in a row of its own."""
    view = discord.ui.View(timeout=None)
    for toggle in form.toggles:
        button = NotifyButton.of(form.scope, toggle)
        button.row = 0
        view.add_item(button)
    for row, pick in enumerate(form.picks, 1):
        select = NotifySelect.of(form.scope, pick)
        select.row = row
        view.add_item(select)
    return view


async def picked(interaction: discord.Interaction[Any], scope: str, key: str, value: str) -> None:
    """Set a pick, then edit the form it came from (``answer_pick``); a refusal goes to the
    caller alone and leaves the form as it was. A pick made anywhere but the caller's own
    form (an ephemeral answer, or a DM) is refused, that message left as it is."""
    handlers = handlers_of(interaction)
    if not await handlers.respond.handled.first(interaction):
        return
    await answer_pick(interaction, _set(interaction, scope, key, value), "a settings pick")


async def _set(
    interaction: discord.Interaction[Any], scope: str, key: str, value: str
) -> dict[str, Any] | Refusal:
    """The form as the pick leaves it, or why the pick is refused."""
    handlers = handlers_of(interaction)
    caller = caller_of(interaction)
    if not own_message(interaction):
        with speaking(await handlers.respond.language(interaction)):
            return Refusal(_(NOT_YOURS))
    try:
        with speaking(await handlers.respond.language(interaction)):
            form = await handlers.app.notify.set(caller, scope, key, value)
    except Exception as exc:
        with speaking(await handlers.respond.language(interaction)):
            return Refusal(explain(exc) or report(interaction, exc))
    if key == LANGUAGE:  # the form again, in the language now chosen
        with speaking(await handlers.respond.language(interaction)):
            form = await handlers.app.notify.form(caller, scope)
    return {"content": form.text[:2000], "view": view_of(form), "allowed_mentions": NOBODY}
