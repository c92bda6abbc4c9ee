"""The Play panel in terms of the match service, no discord.py objects: opening it, moving
through its menus, staging the picked action, undo and the end of the turn. Each returns
the panel to show next (``Panel``); refusals are raised, as everywhere in the actions.

The panel is the player's own: its menus hold their legal actions (a hidden Assassin's
included), so it is only ever shown to them (ephemeral in a channel, or in their DMs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.service import Attachment, Menu, Place, Reply, Stamp

from . import menus
from .callers import Caller
from .menus import Nav

if TYPE_CHECKING:
    from .actions import Actions


@dataclass(frozen=True)
class Panel:
    """What the panel shows: ``text``, the select menus, and the preview image (None: keep
    the one shown). ``over``: the turn it was for has ended, so it offers nothing more."""

    channel_id: int
    stamp: Stamp | None
    text: str
    selects: tuple[menus.Select, ...] = ()
    files: tuple[Attachment, ...] | None = None
    over: bool = False


class Playing:
    def __init__(self, actions: Actions) -> None:
        self.actions = actions
        self.service = actions.service

    async def open(self, caller: Caller, match: str | None) -> Panel:
        """The panel at its start: the player's pieces, their turn so far, their preview."""
        place = await self.actions.place(caller, match)
        return await self._fresh(caller, place, None)

    async def open_at(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        """The panel opened from a button of the turn ``stamp`` (a "your turn" message)."""
        return await self._fresh(caller, Place(caller.guild_id or 0, channel_id), stamp)

    async def navigate(self, caller: Caller, channel_id: int, stamp: Stamp, nav: Nav) -> Panel:
        """One level down the menus; a picked piece's picture points out where it may go."""
        place = Place(caller.guild_id or 0, channel_id)
        menu = await self.service.menu(
            place, caller.user, nav.group, expect=stamp, shown=lambda cs: menus.shown(cs, nav)
        )
        return _panel(channel_id, menu, nav, None if menu.picture is None else (menu.picture,))

    async def act(
        self, caller: Caller, channel_id: int, stamp: Stamp, nav: Nav, value: str
    ) -> Panel:
        """A pick in a menu: an action stages it and goes back to the pieces; anything
        else goes one level down."""
        if not value.startswith(menus.ACT):
            return await self.navigate(caller, channel_id, stamp, nav)
        place = Place(caller.guild_id or 0, channel_id)
        reply = await self.service.play(
            place, caller.user, value.removeprefix(menus.ACT), expect=stamp
        )
        return await self._after(caller, place, reply)

    async def undo(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        place = Place(caller.guild_id or 0, channel_id)
        reply = await self.service.undo(place, caller.user, expect=stamp)
        return await self._after(caller, place, reply)

    async def end(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        place = Place(caller.guild_id or 0, channel_id)
        reply = await self.service.end_turn(place, caller.user, expect=stamp)
        return Panel(channel_id, None, reply.text, over=True)

    async def refresh(self, caller: Caller, channel_id: int, stamp: Stamp) -> Panel:
        return await self._fresh(caller, Place(caller.guild_id or 0, channel_id), stamp)

    async def _fresh(self, caller: Caller, place: Place, stamp: Stamp | None) -> Panel:
        menu = await self.service.menu(place, caller.user, expect=stamp)
        board = await self.service.board(place, caller.user)
        return _panel(place.channel_id, menu, Nav(), board.files)

    async def _after(self, caller: Caller, place: Place, reply: Reply) -> Panel:
        """Back to the pieces after a change, with the new preview (the reply's) and what
        the change was (its first line: "Staged: ...", "Taken back: ...")."""
        menu = await self.service.menu(place, caller.user)
        return _panel(place.channel_id, menu, Nav(), reply.files, reply.text.split("\n", 1)[0])


def _panel(
    channel_id: int,
    menu: Menu,
    nav: Nav,
    files: tuple[Attachment, ...] | None,
    news: str = "",
) -> Panel:
    lines = [f"**Your turn** \u00b7 {menu.title} \u00b7 {menu.to_act}"]
    if news and (not news.startswith("Staged:") or "(" in news):  # e.g. a search's finding
        lines.append(news)
    if menu.staged:
        lines.append(
            "This turn so far: " + "; ".join(f"{n}. {t}" for n, t in enumerate(menu.staged, 1))
        )
    lines.append(_what_next(menu))
    if any(choice.warning for choice in menu.choices):
        lines.append(f"{menus.WARN} marks an action after which your turn could not end.")
    offered = bool(menu.groups) and (menu.actions_left > 0 or menu.one_move)
    letters = dict(menu.letters)
    selects = menus.selects(menu.groups, menu.choices, nav, letters, menu.prompt) if offered else []
    return Panel(channel_id, menu.stamp, "\n".join(lines), tuple(selects), files)


def _what_next(menu: Menu) -> str:
    """What the player does next, in the game's words."""
    staged_move = menu.one_move and menu.staged and not menu.actions_left
    if staged_move:
        return "Your move is staged: End turn plays it, or pick another to play instead."
    if menu.actions_left and menu.groups:
        then = "the move" if menu.one_move else "what it does"
        return (
            f"{menu.prompt} in the menu, then {then}: the picture letters where each goes, "
            "and a pick is staged at once (Undo takes it back)."
        )
    return "Nothing more to stage this turn: End turn shows it to everyone."
