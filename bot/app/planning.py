"""Planning a reply from where one plays, for any front end: the Play panel's pickers on the
draft's position (``MatchService.draft_plan``), the opponent's expected turn first, then the
answer, and Save. Each call is one command of the service and returns what to show next: a
``Panel`` for a Discord-like panel (select menus and buttons), or the page's state as JSON
(``state_of``) for the web board; both frontends call the same ``Planning`` methods.

A draft is the player's alone (it shows their own legal actions and those they expect of
their opponent as they know the game), so it is only ever shown to them."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.i18n import N_, _
from bot.service import Draft, MatchService, NotAllowed, Place, Refused, Stamp, User

from . import menus
from .actions import Actions
from .callers import Caller
from .menus import Nav
from .playing import Panel, Playing

# The plan panel's buttons: verb -> (label, style)
OPEN = "open"  # an ended turn's panel: the plan panel for the turn now running
CLOSE = "close"  # leave the panel (the draft stays with the service)
PLAN_BUTTONS: dict[str, tuple[str, str]] = {
    OPEN: (N_("Plan a reply"), "secondary"),
    "done": (N_("Their turn is complete"), "primary"),
    "save": (N_("Save the plan"), "success"),
    "undo": (N_("Undo"), "secondary"),
    "new": (N_("Start again"), "secondary"),
    CLOSE: (N_("Close"), "secondary"),
}
CANCEL = "~"  # an option's value that cancels a saved plan (number:digest, or all) starts with it
CANCELS = "x"  # the level of the menu of saved plans


class Planning:
    def __init__(self, actions: Actions) -> None:
        self.actions = actions
        self.service = actions.service

    async def open(self, caller: Caller, match: str | None) -> Panel:
        """The plan panel of the caller's match (named, or the one here)."""
        place = await self.actions.place(caller, match)
        return await self._shown(caller, place, None, Nav())

    async def open_at(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        """The plan panel opened from a button of the turn ``stamp`` (Plan a reply)."""
        return await self._shown(
            caller, await self.actions.reached(caller, channel_id, stamp), stamp, Nav()
        )

    async def act(
        self, caller: Caller, channel_id: int, stamp: Stamp, nav: Nav, value: str
    ) -> Panel:
        """A pick in a menu: an action is added to the draft and the menus go back to the
        pieces; anything else goes one level down."""
        place = await self.actions.reached(caller, channel_id, stamp)
        if value.startswith(CANCEL):
            return await self._cancel(caller, place, stamp, value.removeprefix(CANCEL))
        if not value.startswith(menus.ACT):
            return await self._shown(caller, place, stamp, nav)
        pick = value.removeprefix(menus.ACT)
        draft = await self.service.draft_plan(place, caller.user, pick=pick, expect=stamp)
        return plan_panel(channel_id, draft, Nav())

    async def _cancel(self, caller: Caller, place: Place, stamp: Stamp, picked: str) -> Panel:
        """A pick in the menu of saved plans (``_cancels``)."""
        draft = await cancelled(self.service, place, caller.user, stamp, picked)
        return plan_panel(place.channel_id, draft, Nav())

    async def step(self, caller: Caller, channel_id: int, stamp: Stamp, verb: str) -> Panel:
        """One of the panel's buttons (``PLAN_BUTTONS``)."""
        if verb == OPEN:
            return await self.open_at(caller, channel_id, stamp)
        if verb == CLOSE:  # nothing to ask the service: the draft stays as it is
            return self.closed(channel_id, stamp)
        place = await self.actions.reached(caller, channel_id, stamp)
        draft = await self.service.draft_plan(place, caller.user, step=verb, expect=stamp)
        return plan_panel(channel_id, draft, Nav())

    def closed(self, channel_id: int, stamp: Stamp) -> Panel:
        """The panel left: its text says how to come back, nothing on it to press."""
        text = _(
            "The plan panel is closed. What you picked stays until this turn ends, and your "
            "saved plans stay; {command} opens the panel again.",
            command=self.service.settings.cmd("play", localized=True),
        )
        return Panel(channel_id, stamp, text, files=(), over=True)

    async def play_or_plan(self, playing: Playing, caller: Caller, match: str | None) -> Panel:
        """``/tora play``: the Play panel on the player's turn; while their opponent's runs,
        the plan panel, saying whose turn it is."""
        try:
            return await playing.open(caller, match)
        except NotAllowed as waiting:
            try:
                panel = await self.open(caller, match)
            except Refused:
                raise waiting from None
            return replace(panel, text=f"{waiting.message}\n{panel.text}"[:2000])

    async def _shown(self, caller: Caller, place: Place, stamp: Stamp | None, nav: Nav) -> Panel:
        draft = await self.service.draft_plan(place, caller.user, group=nav.group, expect=stamp)
        return plan_panel(place.channel_id, draft, nav)


async def plan_state(
    service: MatchService, place: Place, user: User, stamp: Stamp, request: Mapping[str, str]
) -> dict[str, Any]:
    """The web board's plan mode, the same draft the panel makes: ``request`` holds at most
    one of ``pick`` (an action's notation), ``step`` (a ``PLAN_BUTTONS`` verb but ``open``),
    ``group`` (a piece whose actions to list) and ``cancel`` (a listed plan's value in
    ``cancels``, or its number); nothing: the draft as it is."""
    if "cancel" in request:
        return state_of(await cancelled(service, place, user, stamp, request["cancel"]))
    draft = await service.draft_plan(
        place,
        user,
        pick=request.get("pick"),
        step=request.get("step"),
        group=request.get("group"),
        expect=stamp,
    )
    return state_of(draft)


async def cancelled(
    service: MatchService, place: Place, user: User, stamp: Stamp, picked: str
) -> Draft:
    """The draft once the plan ``picked`` is cancelled: ``all``, a number, or the plan a
    list showed (``number:digest``, ``_cancel_value``) as numbered now: since the list was
    shown, another panel, ``/tora plans`` or the web page may have cancelled one,
    renumbering those after it."""
    shown, _sep, digest = picked.partition(":")
    cancel = shown
    if digest:
        draft = await service.draft_plan(place, user, expect=stamp)
        found = _numbered_now(draft.plans, shown, digest)
        if found is None:
            return replace(draft, news=_("That plan is no longer saved, so nothing was cancelled."))
        cancel = found
    return await service.draft_plan(place, user, cancel=cancel, expect=stamp)


def plan_panel(channel_id: int, draft: Draft, nav: Nav) -> Panel:
    """The panel showing ``draft``: what was picked, what to do next, its pickers."""
    menu = draft.menu
    them = draft.opponent
    lines = [f"**{menu.title}** \u00b7 {menu.to_act}"]
    if draft.news:
        lines.append(draft.news)
    if draft.theirs:
        lines.append(
            _("If {player} plays: {actions}", player=them, actions="; ".join(draft.theirs))
        )
    if draft.replying:
        mine = "; ".join(draft.mine) or _("(pick it below)")
        lines.append(_("You reply: {actions}", actions=mine))
    lines.append(_what_next(draft))
    if draft.plans:
        plans = " \u00b7 ".join(f"{n}. {p}" for n, p in enumerate(draft.plans, 1))
        lines.append(_("Your plans: {plans}", plans=plans))
    offered = bool(menu.groups) and (menu.actions_left > 0 or menu.one_move)
    letters = dict(menu.letters)
    selects = menus.selects(menu.groups, menu.choices, nav, letters, menu.prompt) if offered else []
    if draft.plans and nav.group is None:  # (a piece's menus take the rows while it is open)
        selects.append(_cancels(draft.plans))
    files = None if menu.picture is None else (menu.picture,)
    panel = Panel(channel_id, menu.stamp, "\n".join(lines)[:2000], tuple(selects), files)
    return replace(panel, verbs=plan_verbs(draft))


def _cancels(plans: tuple[str, ...]) -> menus.Select:
    """The menu of the saved ``plans`` (as listed), picking one cancels it; ``all`` too.
    An option holds the plan's number and its words' digest (``cancelled``)."""
    options = [
        menus.Option(menus.cut(f"{n}. {plan}"), CANCEL + _cancel_value(n, plan))
        for n, plan in enumerate(plans, 1)
    ]
    if len(plans) > 1:
        options.append(menus.Option(_("Every plan"), f"{CANCEL}all"))
    return menus.Select(CANCELS, Nav(), _("Cancel a plan"), tuple(options))


def _cancel_value(number: int, plan: str) -> str:
    """What cancels the saved ``plan`` listed as ``number`` (``cancelled``)."""
    return f"{number}:{_digest(plan)}"


def _digest(plan: str) -> str:
    """A short fingerprint of a plan's words, which tells it apart when its number changed."""
    return hashlib.blake2s(plan.encode(), digest_size=4).hexdigest()


def _numbered_now(plans: tuple[str, ...], shown: str, digest: str) -> str | None:
    """The number now of the plan a menu showed as ``shown`` with ``digest``: that one if
    it still is (the same plan may be saved twice), else the first with those words; None
    when no plan has them (it was cancelled or played since)."""
    numbers = [str(n) for n, plan in enumerate(plans, 1) if _digest(plan) == digest]
    return shown if shown in numbers else next(iter(numbers), None)


def plan_verbs(draft: Draft) -> tuple[str, ...]:
    """The buttons that do something now: never a dead one (Close always leaves)."""
    verbs = []
    if draft.theirs and not draft.replying and not draft.menu.one_move:
        verbs.append("done")
    if draft.complete:
        verbs.append("save")
    if draft.theirs or draft.replying:
        verbs += ["undo", "new"]
    return (*verbs, CLOSE)


def _what_next(draft: Draft) -> str:
    them = draft.opponent
    if not draft.replying:
        if draft.menu.one_move:
            return _("Pick the move you expect {player} to play; then your reply.", player=them)
        if draft.theirs:
            return _(
                "Pick the actions you expect {player} to play, as you see the board. Then "
                "press Their turn is complete.",
                player=them,
            )
        return _("Pick the actions you expect {player} to play, as you see the board.", player=them)
    if draft.complete:
        return _(
            "Save the plan: if {player} plays that, your reply is played at once. Or pick "
            "more (or another move) first.",
            player=them,
        )
    return _("Now pick your reply.")


def state_of(draft: Draft) -> dict[str, Any]:
    """The plan mode's state for the web board (private to the player): its picture, the
    draft's position as the player sees it, inline."""
    menu = draft.menu
    offered = menu.actions_left > 0 or menu.one_move
    picture = menu.picture
    return {
        "stamp": menu.stamp.turn,
        "title": menu.title,
        "to_act": menu.to_act,
        "news": draft.news,
        "opponent": draft.opponent,
        "theirs": list(draft.theirs),
        "mine": list(draft.mine),
        "replying": draft.replying,
        "complete": draft.complete,
        "next": _what_next(draft),
        "groups": [{"key": g.key, "label": g.label} for g in menu.groups] if offered else [],
        "group": menu.choices[0].group if menu.choices else None,
        "choices": [{"label": c.label, "notation": c.notation} for c in menu.choices],
        "steps": [verb for verb in plan_verbs(draft) if verb != CLOSE],  # (the page folds it)
        "plans": list(draft.plans),
        "cancels": [_cancel_value(n, plan) for n, plan in enumerate(draft.plans, 1)],
        "picture": None
        if picture is None
        else "data:image/png;base64," + base64.b64encode(picture.data).decode("ascii"),
    }
