"""The posts and private messages that announce a match's events: the start, every turn,
the "your turn" notice and the end. Public texts and images are built only from
``view_for(None)``; a player's own board only from ``view_for(their side)``."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rules import GameState, GameView, Side, game_type
from rules.protocol import GameEvent
from storage import write_record

from . import showing, timing
from .context import Context, Mail
from .models import is_robot
from .notify import TURN
from .ports import Attachment
from .table import DRAW, Table
from .texts import moment

TURN_BUTTONS = ("play", "end", "preview")  # on the "your turn" notice


def turn_buttons(table: Table) -> tuple[str, ...]:
    """The "your turn" notice's buttons: with a Hint in a practice game."""
    return TURN_BUTTONS + (("hint",) if table.practice else ())


def to_act_line(ctx: Context, table: Table, view: GameView) -> str:
    """Who acts, what, by when; on a bank or increment clock each player's time too."""
    hosted = table.hosted
    when = "" if hosted.due_at is None else f", by {moment(hosted.due_at, ctx.now())}"
    line = f"{table.who(view.side)} to act: {showing.to_act(view)}{when}."
    clocks = timing.clocks_line(table.terms, hosted, view.side, ctx.now(), names_of(table))
    return f"{line}\n{clocks}" if clocks else line


def event_line(event: GameEvent, names: tuple[str, str]) -> str:
    """An action of a turn post: in plain words, then its notation."""
    return f"- {event.words(names)} \u00b7 `{event.text}`"


def names_of(table: Table) -> tuple[str, str]:
    return table.side_name(Side.CHALLENGER), table.side_name(Side.OPPOSITION)


async def game_start(ctx: Context, table: Table, game: GameState, lead: str = "") -> Mail:
    """The posts of a new ``game``'s start."""
    view = game.view_for(None)
    mail = Mail(table.channel_id)
    first = table.hosted.player(Side.CHALLENGER)
    players = []
    for side in Side:
        words = showing.setup_words(game, side)
        players.append(f"{table.who(side)} playing {words}" if words else table.who(side))
    mail.public(
        (lead + " " if lead else "")
        + "The game begins: "
        + " against ".join(players)
        + ".\n"
        + to_act_line(ctx, table, view),
        await ctx.board_file(view, table, guild=table.hosted.guild_id),
        mentions=(first,),
        notice=TURN,
    )
    mail.private(
        first,
        your_turn_text(ctx, table, view),
        await ctx.private_file(game.view_for(Side.CHALLENGER), table, reader=first),
        buttons=turn_buttons(table),
        turn=1,
        notice=TURN,
    )
    mail.private(
        table.hosted.player(Side.OPPOSITION),
        f"The game against {table.who(Side.CHALLENGER)} has begun; they move first. This is "
        "your own board: it shows what only you may see.",
        await ctx.private_file(
            game.view_for(Side.OPPOSITION), table, reader=table.hosted.player(Side.OPPOSITION)
        ),
    )
    return mail


def your_turn_text(ctx: Context, table: Table, view: GameView, recap: Sequence[str] = ()) -> str:
    """The "your turn" notice: what the opponent's turn did (``recap``, as the channel was
    told), then what is to do and by when, so that a player who follows by DM needs not
    open the channel."""
    hosted = table.hosted
    when = "" if hosted.due_at is None else f", by {moment(hosted.due_at, ctx.now())}"
    clocks = timing.clocks_line(table.terms, hosted, view.side, ctx.now(), names_of(table))
    return "\n".join(
        [
            *recap,
            f"Your turn against {table.who(view.side.other)}: {showing.to_act(view)}{when}. "
            f"Press Play (or {ctx.cmd('play')}) and pick your actions, or type them with "
            f"{ctx.cmd('act')}; then end your turn.",
            *([clocks] if clocks else []),
        ]
    )


async def turn_end(
    ctx: Context,
    table: Table,
    headline: str,
    mail: Mail,
    game_before: int,
    notes: list[str],
    *,
    tell: bool = True,
) -> None:
    """The public post of a finished turn (the board after it), and, with ``tell``, the
    "your turn" notice with their own board for the player who acts next (not when their
    planned reply answers the turn at once: they are told that instead)."""
    game = table.game
    view = game.view_for(None)
    names = names_of(table)
    recap = [headline]
    recap += [event_line(event, names) for event in view.last_turn] or ["(no actions)"]
    recap += showing.turn_notes(view, names, game_before)
    recap += notes
    recap += [showing.standing(view, names)]
    lines = [*recap, to_act_line(ctx, table, view)]
    offer = draw_offer(ctx, table)
    lines += [offer] if offer else []
    nxt = table.hosted.player(view.side)
    drawn = [ctx.board_file(view, table, guild=table.hosted.guild_id)]
    drawn += [ctx.private_file(game.view_for(view.side), table, reader=nxt)] if tell else []
    public, *private = await asyncio.gather(*drawn)
    buttons = (DRAW_BUTTON if offer else ()) + give_button(table)
    mail.public(
        "\n".join(lines), public, mentions=(nxt,), buttons=buttons, turn=table.turn, notice=TURN
    )
    if not private:
        return
    mail.private(
        nxt,
        your_turn_text(ctx, table, view, recap),
        *private,
        buttons=turn_buttons(table),
        turn=table.turn,
        notice=TURN,
    )


def between_people(table: Table) -> bool:
    return not any(is_robot(table.hosted.player(side)) for side in Side)


def give_button(table: Table) -> tuple[str, ...]:
    """A turn post's "Give +1 day", for the player who waits (between people)."""
    return ("give",) if between_people(table) else ()


QUIET_DRAW = 30  # rounds without a removal after which the turn post offers a draw
DRAW_BUTTON = ("offer",)  # "Propose a draw": either player's draw command (propose or accept)


def draw_offer(ctx: Context, table: Table) -> str:
    """The turn post's offer of a draw in a game going nowhere: after ``QUIET_DRAW`` rounds
    without a removal, a line and a button for both players (none where only AI players
    play, or a draw is already proposed)."""
    game = table.game
    quiet = game.quiet_rounds()
    if quiet < QUIET_DRAW or DRAW not in game.agreements() or DRAW in table.offers():
        return ""
    if all(is_robot(table.hosted.player(side)) for side in Side):
        return ""
    nothing = game_type(game.game_type).nothing_removed
    return (
        f"{nothing} for {quiet} rounds: either of you may propose a draw with the button "
        f"below or {ctx.cmd('draw')}."
    )


def record_file(table: Table) -> Attachment:
    """The full record (R50): once a match has ended nothing in it is secret any more."""
    match = table.match
    if match is None:
        raise RuntimeError("no game, no record")
    names = {
        "Challenger": table.side_name(Side.CHALLENGER),
        "Opposition": table.side_name(Side.OPPOSITION),
    }
    text = write_record(match.game, names)
    game = match.game.game_type
    return Attachment(f"{game}-match-{match.id}.{game}", text.encode())


async def match_end(ctx: Context, table: Table, headline: str, mail: Mail, counted: bool) -> None:
    """The end of a match: the headline, the final score, the final board and the record."""
    view = table.game.view_for(None)
    if not counted:
        footer = "It counts for nothing and is not rated."
    elif table.terms.rated:
        footer = "The match was rated."
    else:
        footer = "It was a casual match."
    final = showing.final_standing(view, names_of(table))
    again = counted and between_people(table)
    offer = (
        " Either of you may ask for a rematch with the button (colours swapped)." if again else ""
    )
    mail.public(
        f"{headline}\n{final} {footer} The full record is attached.{offer}",
        await ctx.board_file(view, table, guild=table.hosted.guild_id),
        record_file(table),
        mentions=(table.hosted.player(Side.CHALLENGER), table.hosted.player(Side.OPPOSITION)),
        buttons=("rematch",) if again else (),
        turn=table.turn,
    )
