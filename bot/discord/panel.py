"""The Play panel on Discord (``bot.app.playing`` says what it shows and does): a message
(ephemeral in a channel, plain in a DM) with up to four select menus (kind of piece, piece,
first step, action) and End turn / Undo (with an action staged) / Refresh buttons. Every
pick edits the same message: a menu goes one level down, an action is staged and the panel
goes back to the pieces with the new preview.

Each component's custom id holds where it is (channel, match, turn, turns taken back, and the
menus above it), so the panel works after a restart like every other button. A pick made for
a turn that has ended, or was taken back since, shows the player's turn now if it is theirs
again, else turns the panel off ("That turn has already ended.").

The plan panel (``bot.app.planning``: a planned reply picked with the same menus) is the
same message with its own kind in the custom ids (``pd`` menus, ``pq`` buttons), so each
pick goes to the draft rather than the turn."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.app.answers import NOT_YOURS, explain
from bot.app.buttons import STAMP, number, stamp_id, stamp_of
from bot.app.menus import Nav, Select
from bot.app.planning import PLAN_BUTTONS
from bot.app.playing import BUTTONS, Panel
from bot.i18n import _, speaking
from bot.service import StaleRequest, Stamp
from rules.digits import whole_number

from .callers import caller_of
from .handlers import Handlers, handlers_of
from .links import LINK_ROW, with_links
from .respond import (
    NOBODY,
    Outgoing,
    Refusal,
    Views,
    answer_pick,
    files_of,
    own_message,
    report,
    within,
)
from .styles import STYLES

log = logging.getLogger(__name__)
_WHERE = r"(?P<channel>\d{1,20}):" + STAMP
SELECT_TEMPLATE = (
    r"tora:(?P<kind>pn|pd):" + _WHERE + r":(?P<level>[cgsax]):(?P<category>[^:]{0,20})"
    r":(?P<group>[^:]{0,20}):(?P<step>\d{0,3})"
)
_VERBS = "|".join(dict.fromkeys([*BUTTONS, *PLAN_BUTTONS]))
BUTTON_TEMPLATE = r"tora:(?P<kind>pb|pq):(?P<verb>" + _VERBS + r"):" + _WHERE
PLAY, PLAN = ("pn", "pb"), ("pd", "pq")  # the kinds of a panel's menus and buttons


def _stamp(found: re.Match[str]) -> Stamp:
    return stamp_of(found)


def _where(channel_id: int, stamp: Stamp) -> str:
    return f"{channel_id}:{stamp_id(stamp)}"


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """One of the panel's menus: its ``level`` and the picks above it (``nav``) are in its
    custom id, its options are the message's."""

    def __init__(
        self,
        select: discord.ui.Select[Any],
        channel_id: int,
        stamp: Stamp,
        level: str,
        nav: Nav,
        kind: str = PLAY[0],
    ) -> None:
        super().__init__(select)
        self.channel_id, self.stamp, self.level, self.nav = channel_id, stamp, level, nav
        self.kind = kind

    @classmethod
    def of(cls, channel_id: int, stamp: Stamp, spec: Select, kind: str = PLAY[0]) -> PanelSelect:
        nav = spec.nav
        step = "" if nav.step is None else str(nav.step)
        custom_id = (
            f"tora:{kind}:{_where(channel_id, stamp)}:{spec.level}:{nav.category or ''}"
            f":{nav.group or ''}:{step}"
        )
        options = [
            discord.SelectOption(
                label=o.label, value=o.value, description=o.description or None, default=o.default
            )
            for o in spec.options
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, placeholder=spec.placeholder, options=options
        )
        return cls(select, channel_id, stamp, spec.level, nav, kind)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PanelSelect:
        step = int(match["step"]) if match["step"] else None
        nav = Nav(match["category"] or None, match["group"] or None, step)
        assert isinstance(item, discord.ui.Select)
        where = number(match["channel"]), _stamp(match)
        return cls(item, *where, match["level"], nav, match["kind"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        picked = (self.item.values or [""])[0]
        handlers = handlers_of(interaction)
        app, caller = handlers.app, caller_of(interaction)
        panel = app.planning if self.kind == PLAN[0] else app.playing

        def work() -> Awaitable[Panel]:  # the pick read within the work, whose failure is told
            nav = _deeper(self.level, self.nav, picked)
            return panel.act(caller, self.channel_id, self.stamp, nav, picked)

        await update(handlers, interaction, work)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, verb: str, channel_id: int, stamp: Stamp, kind: str = PLAY[1]) -> None:
        label, style = (PLAN_BUTTONS if kind == PLAN[1] else BUTTONS)[verb]
        label = _(label)
        custom_id = f"tora:{kind}:{verb}:{_where(channel_id, stamp)}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=STYLES[style], custom_id=custom_id
        )
        super().__init__(button)
        self.verb, self.channel_id, self.stamp, self.kind = verb, channel_id, stamp, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PanelButton:
        return cls(match["verb"], number(match["channel"]), _stamp(match), match["kind"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)
        caller, where = caller_of(interaction), (self.channel_id, self.stamp)
        if self.kind == PLAN[1]:
            planning = handlers.app.planning
            if self.verb not in PLAN_BUTTONS:  # a made-up id: nothing to do
                return
            await update(handlers, interaction, lambda: planning.step(caller, *where, self.verb))
            return
        playing = handlers.app.playing
        work = {"end": playing.end, "undo": playing.undo, "refresh": playing.refresh}.get(self.verb)
        if work is not None:
            await update(handlers, interaction, lambda: work(caller, *where))


def _deeper(level: str, nav: Nav, picked: str) -> Nav:
    """Where a pick in the select of ``level`` (with ``nav`` above it) leads."""
    if level == "c":
        return Nav(picked)
    if level == "g":
        return Nav(nav.category, picked)
    step = whole_number(picked, 3) if level == "s" else None
    return nav if step is None else Nav(nav.category, nav.group, step)


def view_of(panel: Panel, views: Views) -> discord.ui.View | None:
    """The panel's menus and buttons (once its turn is over, only what ended it offers:
    an ended turn's Ask to take it back, shown by ``views`` as an answer's, and Plan a
    reply)."""
    if panel.over or panel.stamp is None:
        return _ended_view(panel, views)
    select_kind, button_kind = PLAN if panel.planning else PLAY
    view = discord.ui.View(timeout=None)
    for row, spec in enumerate(panel.selects[:4]):
        item = PanelSelect.of(panel.channel_id, panel.stamp, spec, select_kind)
        item.row = row
        view.add_item(item)
    for verb in panel.buttons:
        button = PanelButton(verb, panel.channel_id, panel.stamp, button_kind)
        button.row = LINK_ROW
        view.add_item(button)
    return with_links(view, panel.links, LINK_ROW)


def _ended_view(panel: Panel, views: Views) -> discord.ui.View | None:
    if not (panel.ended or panel.presses) or panel.stamp is None:
        return None
    view = (views(panel.presses) if panel.presses else None) or discord.ui.View(timeout=None)
    for verb in panel.ended:
        view.add_item(PanelButton(verb, panel.channel_id, panel.stamp, PLAN[1]))
    return view


def message_of(panel: Panel, views: Views) -> dict[str, Any]:
    """The keyword arguments that show ``panel`` (new attachments only when it has any)."""
    out: dict[str, Any] = {
        "content": panel.text[:2000],
        "view": view_of(panel, views),
        "allowed_mentions": NOBODY,
    }
    if panel.files is not None:
        out["attachments"] = files_of(panel.files)
    return out


async def update(
    handlers: Handlers, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[Panel]]
) -> None:
    """Edit the panel a pick came from (as the pick's response when it is ready quickly, else
    once the pick is deferred); a refusal goes to the player alone and leaves the panel, or
    turns it off when its turn has ended. A pick made anywhere but the player's own panel
    (an ephemeral answer, or a DM) is refused, that message left as it is. Acted on once,
    however often it is delivered."""
    if not await handlers.respond.handled.first(interaction):
        log.info("an interaction delivered again is ignored", extra={"interaction": interaction.id})
        return
    handlers.respond.claim(interaction)
    shown = await answer_pick(interaction, _picked(handlers, interaction, work), "a panel pick")
    if shown is not None:
        handlers.respond.watch(interaction, shown["view"])


async def _picked(
    handlers: Handlers, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[Panel]]
) -> dict[str, Any] | Refusal:
    """The panel as a pick leaves it (``message_of``), or why the pick is refused."""
    with speaking(await handlers.respond.language(interaction)):
        if not own_message(interaction):
            return Refusal(_(NOT_YOURS))
        try:
            return message_of(await work(), handlers.respond.views)
        except StaleRequest as stale:
            return Refusal(stale.message, over=True)
        except Exception as exc:
            return Refusal(explain(exc) or report(interaction, exc))


async def play(
    handlers: Handlers,
    interaction: discord.Interaction[Any],
    match: int | None,
    work: Callable[[], Awaitable[Panel]],
) -> None:
    """A Play button (of ``match``) or ``/tora play`` (None: no match named): with
    ``TORA_ACTIVITY=on``, the web board as a Discord Activity where it shows the caller
    that match (``LAUNCH_ACTIVITY``); else, or if Discord refuses to launch it here, the
    Play panel and its web link (also when the read that tells is slower than the
    interaction may wait before its acknowledgement)."""
    launches = handlers.app.activities.launches(caller_of(interaction), match)
    if not await within(interaction, launches, False):
        await open_panel(handlers, interaction, work)
        return
    if not await handlers.respond.handled.first(interaction):
        log.info("an interaction delivered again is ignored", extra={"interaction": interaction.id})
        return
    try:
        launched = await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        log.warning(
            "Discord refused to launch the Activity: the Play panel instead",
            extra={"interaction": interaction.id, "status": exc.status, "code": exc.code},
        )
        await open_panel(handlers, interaction, work, claimed=True)
        return
    log.info(
        "Activity launched",
        extra={"interaction": interaction.id, "instance": launched.activity_id, "match": match},
    )


async def open_panel(
    handlers: Handlers,
    interaction: discord.Interaction[Any],
    work: Callable[[], Awaitable[Panel]],
    claimed: bool = False,
) -> None:
    """``/tora play`` or a Play button: a new panel message (ephemeral in a channel);
    ``claimed``: the interaction is already taken as this process's (``Handled``)."""

    async def shown() -> Outgoing:
        panel = await work()
        return Outgoing(panel.text, panel.files or (), True, view_of(panel, handlers.respond.views))

    await handlers.respond.show(interaction, shown, private=True, claimed=claimed)
