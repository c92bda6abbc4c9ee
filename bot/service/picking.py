"""What the acting player picks from, for them alone: their pieces, and a piece's actions
with the rules' warnings (``warning``) and their board pointing them out. The Play panel's
menu (``menu``) and the web board's picked piece (``Looking.warnings``) read it; each state's
answers are kept in its memo (``Table.memo``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TypeAlias

from bot.i18n import _
from rules import GameState, GameView, Side, game_type
from rules.protocol import Choice, ChoiceGroup

from . import pointing, showing, warning
from .context import Context
from .models import Menu, User
from .play import acting_side
from .reminders import looked
from .table import Table
from .typed import base_of

ShownChoices: TypeAlias = Callable[[tuple[Choice, ...]], Sequence[Choice]]


async def menu(
    ctx: Context, table: Table, user: User, group: str | None, shown: ShownChoices | None = None
) -> Menu:
    """The Play panel's content for the acting player: their staged turn, their legal
    actions grouped by piece and, for ``group``, that piece's actions, the ones ``shown``
    picks (all by default) with the rules' warnings, and their board with the piece framed
    and the squares its actions go to lettered. Private. In a one-move game whose move is
    staged, the actions are those that would replace it."""
    side = acting_side(ctx, table, user)
    await looked(ctx, table, side)
    game = table.game
    base = base_of(table)
    groups = await _groups(ctx, table, base)
    view = base.view_for(side)
    head = Menu(
        table.stamp,
        title(table, side),
        tuple(game.staged()),
        groups,
        (),
        game.actions_left,
        to_act=showing.to_act(view),
        prompt=base.prompt(),
        one_move=game_type(game.game_type).one_move,
        decision=decides(view),
        undoable=game.can_undo(),
        hints=tuple(game_type(game.game_type).turn_hints(game)),
    )
    header = next((g for g in groups if g.key == group), None)
    if header is None:
        return head
    choices = await warned(ctx, table, base, await _choices(ctx, table, base, header.key), shown)
    marks = pointing.pointing(header, choices)
    picture = await ctx.private_file(view, table, "your-board.png", marks)
    return replace(head, choices=choices, letters=marks.letters, picture=picture)


def title(table: Table, side: Side) -> str:
    """The match as ``side``'s panels name it: its number, its game and the opponent
    ("Match 1 · TORA against bob")."""
    return _(
        "Match {number} · {game} against {player}",
        number=table.hosted.id,
        game=table.terms.title,
        player=table.side_name(side.other),
    )


async def warned(
    ctx: Context,
    table: Table,
    game: GameState,
    choices: tuple[Choice, ...],
    shown: ShownChoices | None,
) -> tuple[Choice, ...]:
    """``choices`` with the warnings of those ``shown`` (each worked out once per state;
    those not worked out ahead, ``warnings_ahead``, are worked out now)."""
    memo = table.memo()
    waiting = warning.ahead(ctx.offload, memo, game, _notations(choices, shown))
    if waiting is not None:
        await waiting
    return warning.known(memo, choices)


async def warnings_ahead(
    ctx: Context, table: Table, user: User, group: str, shown: ShownChoices | None = None
) -> Awaitable[None] | None:
    """Under the match's lock: the warnings of the actions of ``group`` (those ``shown``)
    not known yet for this state set to be worked out, and what waits for them, for the
    caller to await with the lock let go before it asks ``menu`` or ``warned`` (which then
    find them kept, if the match has not moved on); None if there is nothing to wait for (a
    piece the player has not, or whose warnings are known). Refused if ``user`` may not act."""
    acting_side(ctx, table, user)
    base = base_of(table)
    choices = await group_choices(ctx, table, base, group)
    if not choices:
        return None
    return warning.ahead(ctx.offload, table.memo(), base, _notations(choices, shown))


async def _groups(ctx: Context, table: Table, base: GameState) -> tuple[ChoiceGroup, ...]:
    """The player's pieces (``base``'s menu), worked out once per state."""
    memo = table.memo()
    if "menu" not in memo:
        memo["menu"] = await ctx.offload.step(base, base.menu)
    groups: tuple[ChoiceGroup, ...] = memo["menu"]
    return groups


async def group_choices(
    ctx: Context, table: Table, base: GameState, group: str
) -> tuple[Choice, ...]:
    """The actions of the player's piece ``group`` (none for a piece they have not: what a
    page asks for is not kept), worked out once per state."""
    if not any(header.key == group for header in await _groups(ctx, table, base)):
        return ()
    return await _choices(ctx, table, base, group)


async def _choices(ctx: Context, table: Table, base: GameState, group: str) -> tuple[Choice, ...]:
    memo, key = table.memo(), f"choices:{group}"
    if key not in memo:
        memo[key] = await ctx.offload.step(base, partial(base.choices, group))
    choices: tuple[Choice, ...] = memo[key]
    return choices


def _notations(choices: tuple[Choice, ...], shown: ShownChoices | None) -> list[str]:
    return [c.notation for c in (choices if shown is None else shown(choices))]


def decides(view: GameView) -> bool:
    """Whether the turn of ``view``'s player asks no move but a decision (Torii's Monkey,
    TI15) or its forced pass (TI8): what a panel or a page then asks them for."""
    return view.deciding or view.forced_pass
