"""The Play panel in terms of the match service, for any front end: opening it, moving
through its menus, staging the picked action, undo and the end of the turn. Each returns the
panel to show next (``Panel``: its text, its menus as data, its picture) and is one command
of the service (a pick stages and gives the next menu at once); refusals are raised, as
everywhere in the actions.

The panel is the player's own: its menus hold their legal actions (a hidden Assassin's
included), so it is only ever shown to them (ephemeral in a channel, or in their DMs)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.i18n import N_, _, word
from bot.service import (
    ActionRefused,
    Attachment,
    Link,
    Menu,
    Place,
    Refused,
    Reply,
    StaleRequest,
    Stamp,
)
from bot.service.play import PLAN

from . import menus
from .actions import Actions
from .board_links import BoardLinks
from .buttons import Press, presses
from .callers import Caller
from .menus import Nav

# The panel's buttons: verb -> (label, style), beside its menus while its turn lasts
BUTTONS: dict[str, tuple[str, str]] = {
    "end": (N_("End turn"), "primary"),
    "undo": (N_("Undo"), "secondary"),
    "refresh": (N_("Refresh"), "secondary"),
}


@dataclass(frozen=True)
class Panel:
    """What the panel shows: ``text``, the select menus, and the preview image (None: keep
    the one shown). ``over``: the turn it was for has ended, so it offers nothing more.
    ``links``: the player's own board on the web (while the turn lasts). ``verbs``: a plan
    panel's buttons (``planning.PLAN_BUTTONS``; None: the Play panel's). ``ended``: the plan
    panel's buttons an ended panel still offers (Plan a reply, for the turn now running);
    ``presses``: the answers' buttons it offers besides, as ``/tora end`` does (Ask to take
    it back, in a casual match). ``undoable``: Undo would take an action of the turn back
    (the Play panel offers it then alone: with nothing staged, or a search holding it, R10,
    it would be dead)."""

    channel_id: int
    stamp: Stamp | None
    text: str
    selects: tuple[menus.Select, ...] = ()
    files: tuple[Attachment, ...] | None = None
    over: bool = False
    links: tuple[Link, ...] = ()
    verbs: tuple[str, ...] | None = None
    ended: tuple[str, ...] = ()
    presses: tuple[Press, ...] = ()
    undoable: bool = False

    @property
    def planning(self) -> bool:
        """A plan panel (its menus pick a planned reply), not the Play panel."""
        return self.verbs is not None

    @property
    def buttons(self) -> tuple[str, ...]:
        """The verbs of its buttons (``BUTTONS`` but Undo when it would take nothing back,
        or a plan panel's): none once its turn is over."""
        if self.over or self.stamp is None:
            return ()
        if self.verbs is not None:
            return self.verbs
        return tuple(verb for verb in BUTTONS if verb != "undo" or self.undoable)


class Playing:
    def __init__(self, actions: Actions, board_links: BoardLinks | None = None) -> None:
        self.actions = actions
        self.service = actions.service
        self.board_links = board_links or BoardLinks(actions, None)

    async def _linked(self, caller: Caller, panel: Panel) -> Panel:
        """The panel with the player's board link, while its turn lasts."""
        if panel.over:
            return panel
        links = await self.board_links.for_turn(caller.user.id, panel.stamp)
        return replace(panel, links=links) if links else panel

    async def open(self, caller: Caller, match: str | None) -> Panel:
        """The panel at its start: the player's pieces, their turn so far, their preview."""
        place = await self.actions.place(caller, match)
        return await self._fresh(caller, place, None)

    async def open_at(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        """The panel opened from a button of the turn ``stamp`` (a "your turn" message)."""
        return await self._fresh(
            caller, await self.actions.reached(caller, channel_id, stamp), stamp
        )

    async def navigate(self, caller: Caller, channel_id: int, stamp: Stamp, nav: Nav) -> Panel:
        """One level down the menus; a picked piece's picture points out where it may go,
        and with no piece picked (a kind of piece: the long board's first menu) the picture
        is the player's own board again (a piece picked before may have lettered it)."""
        place = await self.actions.reached(caller, channel_id, stamp)
        return await self._navigate(caller, place, stamp, nav)

    async def _navigate(self, caller: Caller, place: Place, stamp: Stamp, nav: Nav) -> Panel:
        menu = await self.service.menu(
            place,
            caller.user,
            nav.group,
            expect=stamp,
            shown=lambda cs: menus.shown(cs, nav),
            board=nav.group is None,
        )
        picture = None if menu.picture is None else (menu.picture,)
        return await self._linked(caller, _panel(place.channel_id, menu, nav, picture))

    async def act(
        self, caller: Caller, channel_id: int, stamp: Stamp, nav: Nav, value: str
    ) -> Panel:
        """A pick in a menu: an action stages it and goes back to the pieces; anything
        else goes one level down. A menu offers legal actions alone, so one the rules refuse
        that is no longer among them was shown before the turn changed (staged or taken
        back from another panel or by a command): the panel as the turn is now, saying so.
        One still among them is refused only as it is applied (R43: a search that would end
        in jeopardy): the panel with the rules' reason."""
        place = await self.actions.reached(caller, channel_id, stamp)
        if not value.startswith(menus.ACT):
            try:
                return await self._navigate(caller, place, stamp, nav)
            except StaleRequest as stale:
                return await self._turn_now(caller, place, stamp, stale)
        action = value.removeprefix(menus.ACT)
        try:
            reply = await self.service.play(place, caller.user, action, expect=stamp, menu=True)
        except StaleRequest as stale:
            return await self._turn_now(caller, place, stamp, stale)
        except ActionRefused as refused:
            if await self._offered(caller, place, action):  # refused as applied (R43)
                return await self._fresh(caller, place, stamp, str(refused))
            news = _(
                "Your turn has changed since that menu was shown, so nothing was staged: "
                "here it is as it is now."
            )
            return await self._fresh(caller, place, stamp, news)
        return await self._linked(caller, _after(channel_id, reply))

    async def _offered(self, caller: Caller, place: Place, action: str) -> bool:
        """Whether ``action`` is among the legal actions of the turn as it is now: one the
        rules list but refuse only when it is applied (a command piece's search that R43
        refuses: it would end in jeopardy), not one left over from before the turn
        changed."""
        found = await self.service.choices(place, caller.user, action)
        return action in (notation for _words, notation in found)

    async def undo(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        place = await self.actions.reached(caller, channel_id, stamp)
        try:
            reply = await self.service.undo(place, caller.user, expect=stamp, menu=True)
        except StaleRequest as stale:
            return await self._turn_now(caller, place, stamp, stale)
        return await self._linked(caller, _after(channel_id, reply))

    async def end(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        place = await self.actions.reached(caller, channel_id, stamp)
        try:
            reply = await self.service.end_turn(place, caller.user, expect=stamp, titled=True)
        except StaleRequest as stale:
            return await self._turn_now(caller, place, stamp, stale)
        # the plan panel opens in this message (planning.OPEN); the rest as /tora end's
        offered = ("open",) if PLAN in reply.buttons else ()
        others = tuple(verb for verb in reply.buttons if verb != PLAN)
        return Panel(
            channel_id,
            reply.stamp,
            f"**{reply.title}**\n{reply.text}",
            over=True,
            ended=offered,
            presses=presses(others, channel_id, reply.stamp),
        )

    async def refresh(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        place = await self.actions.reached(caller, channel_id, stamp)
        try:
            return await self._fresh(caller, place, stamp)
        except StaleRequest as stale:
            return await self._turn_now(caller, place, stamp, stale)

    async def _turn_now(
        self, caller: Caller, place: Place, stamp: Stamp, stale: StaleRequest
    ) -> Panel:
        """A pick in a panel of an earlier turn of its match (or of one taken back since):
        the caller's panel as their turn is now, saying so, if it is their turn in that
        match; else the refusal (``stale``)."""
        news = _("That menu was for an earlier turn, so nothing was done: here is your turn now.")
        try:
            panel = await self._fresh(caller, place, None, news)
        except Refused:
            raise stale from None
        if panel.stamp is None or panel.stamp.match != stamp.match:
            raise stale
        return panel

    async def _fresh(
        self, caller: Caller, place: Place, stamp: Stamp | None, news: str = ""
    ) -> Panel:
        """The pieces, with the player's own board (and ``news``, a line on top)."""
        menu = await self.service.menu(place, caller.user, expect=stamp, board=True)
        board = None if menu.picture is None else (menu.picture,)
        return await self._linked(caller, _panel(place.channel_id, menu, Nav(), board, news))


def _after(channel_id: int, reply: Reply) -> Panel:
    """Back to the pieces after a change (the reply's menu), with the new preview (the
    reply's) and what the change was (its first line: "Staged: ...", "Taken back: ...")."""
    if reply.menu is None:
        raise ValueError("a panel's change is asked for with its menu")
    return _panel(channel_id, reply.menu, Nav(), reply.files, reply.text.split("\n", 1)[0])


def _panel(
    channel_id: int,
    menu: Menu,
    nav: Nav,
    files: tuple[Attachment, ...] | None,
    news: str = "",
) -> Panel:
    lines = [_("**Your turn** · {game} · {to_act}", game=menu.title, to_act=menu.to_act)]
    if news and not _just_staged(news, menu):
        lines.append(news)
    if menu.staged:
        so_far = "; ".join(f"{n}. {t}" for n, t in enumerate(menu.staged, 1))
        lines.append(_("This turn so far: {actions}", actions=so_far))
    lines += [word(hint) for hint in menu.hints]
    lines.append(_what_next(menu))
    if any(choice.warning for choice in menu.choices):
        lines.append(
            _("{mark} marks an action after which your turn could not end.", mark=menus.WARN)
        )
    if any(choice.final for choice in menu.choices):  # the legend's Undo does not hold for it
        lines.append(
            _(
                "An action that says it cannot be taken back stays once picked: Undo takes back "
                "neither it nor anything staged before it."
            )
        )
    # With no action left, a game's groups hold only what costs none: TORA's free take of
    # the Assassin a search has just revealed (R43), which the hint above offers
    offered = bool(menu.groups)
    letters = dict(menu.letters)
    selects = menus.selects(menu.groups, menu.choices, nav, letters, menu.prompt) if offered else []
    text = "\n".join(lines)
    return Panel(channel_id, menu.stamp, text, tuple(selects), files, undoable=menu.undoable)


def _just_staged(news: str, menu: Menu) -> bool:
    """Whether ``news`` only says that the last action of the turn so far was staged
    ("Staged: 4d.", in the player's language): the "This turn so far" line says it already.
    A note staged with it (a search's finding, a check) or any other change is news."""
    return bool(menu.staged) and news == _("Staged: {actions}.", actions=menu.staged[-1])


def _what_next(menu: Menu) -> str:
    """What the player does next, in the game's words."""
    staged_move = menu.one_move and menu.staged and not menu.actions_left
    if staged_move and menu.decision:
        return _("Your decision is staged: End turn plays it, or Undo takes it back.")
    if staged_move:
        return _("Your move is staged: End turn plays it, or pick another to play instead.")
    if menu.groups and menu.decision:
        return _(
            "{prompt} in the menu: a pick is staged at once (Undo takes it back).",
            prompt=menu.prompt,
        )
    if menu.groups and menu.one_move:
        return _(
            "{prompt} in the menu, then the move: the picture letters where each goes, and a "
            "pick is staged at once (Undo takes it back).",
            prompt=menu.prompt,
        )
    if menu.groups:  # with no action left, the free take alone (R43)
        return _(
            "{prompt} in the menu, then what it does: the picture letters where each goes, and "
            "a pick is staged at once (Undo takes it back).",
            prompt=menu.prompt,
        )
    return _("Nothing more to stage this turn: End turn shows it to everyone.")
