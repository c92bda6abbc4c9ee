"""The posts and private messages that announce a match's events: the start, every turn,
the "your turn" notice and the end. Public texts and images are built only from
``view_for(None)``; a player's own board only from ``view_for(their side)``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from bot.i18n import SOURCE, _, current, ngettext, speaking, word
from rules import GameState, GameView, Side, game_type
from rules.protocol import GameEvent
from storage import write_record

from . import showing, timing
from .context import Context, Mail
from .models import is_robot
from .notify import TURN
from .ports import Attachment
from .table import DRAW, Table
from .texts import duration, moment

TURN_BUTTONS = ("play", "end", "preview")  # on the "your turn" notice
PAUSED_BUTTONS = ("resume", "preview")  # on it while the turn waits for a resume


def turn_buttons(table: Table) -> tuple[str, ...]:
    """The "your turn" notice's buttons: with a Hint in a practice game; Resume in place of
    Play and End turn while the match stays paused (a takeback or reset agreed then), where
    those would be refused."""
    paused = table.hosted.paused_left is not None
    return (PAUSED_BUTTONS if paused else TURN_BUTTONS) + (("hint",) if table.practice else ())


def to_act_line(ctx: Context, table: Table, view: GameView, localized: bool = False) -> str:
    """Who acts, what, by when; on a bank or increment clock each player's time too. In
    English unless ``localized`` (as ``texts.duration``)."""
    with speaking(current() if localized else SOURCE):
        return _to_act_line(ctx, table, view)


def _to_act_line(ctx: Context, table: Table, view: GameView) -> str:
    hosted, who, what = table.hosted, table.who(view.side), word(showing.to_act(view))
    if hosted.due_at is None:
        line = _("{player} to act: {what}.", player=who, what=what)
    else:
        when = moment(hosted.due_at, ctx.now(), localized=True)
        line = _("{player} to act: {what}, by {time}.", player=who, what=what, time=when)
    clocks = timing.clocks_line(
        table.terms, hosted, view.side, ctx.now(), names_of(table), localized=True
    )
    return f"{line}\n{clocks}" if clocks else line


def paused_lines(ctx: Context, table: Table) -> list[str]:
    """While a turn begun during a pause waits (a takeback or a reset agreed then): that the
    match stays paused, with the time kept for the turn, and how to resume; in the current
    language. Nothing while the clock runs."""
    left = table.hosted.paused_left
    if left is None:
        return []
    return [
        _(
            "The match stays paused, with {left} for the turn: either of you can resume with "
            "{command}.",
            left=duration(left, localized=True),
            command=ctx.cmd("resume", localized=True),
        )
    ]


def event_line(event: GameEvent, names: tuple[str, str]) -> str:
    """An action of a turn post: in plain words (the current language's), then its
    notation."""
    return f"- {word(event.words(names))} \u00b7 `{event.text}`"


def names_of(table: Table) -> tuple[str, str]:
    return table.side_name(Side.CHALLENGER), table.side_name(Side.OPPOSITION)


async def game_start(ctx: Context, table: Table, game: GameState, lead: str = "") -> Mail:
    """The posts of a new ``game``'s start: the channel's in the server's language, each
    player's own board and notice in theirs. ``lead`` opens the post (a rules text or one
    made with ``rules.words.msg`` is worded in the server's language)."""
    view = game.view_for(None)
    mail = Mail(table.channel_id)
    hosted = table.hosted
    first, second = hosted.player(Side.CHALLENGER), hosted.player(Side.OPPOSITION)
    public, first_language, second_language = await asyncio.gather(
        ctx.server_language(hosted.guild_id),
        ctx.player_language(first),
        ctx.player_language(second),
    )
    board, first_board, second_board = await asyncio.gather(
        ctx.board_file(view, table, guild=hosted.guild_id, language=public),
        ctx.private_file(game.view_for(Side.CHALLENGER), table, language=first_language),
        ctx.private_file(game.view_for(Side.OPPOSITION), table, language=second_language),
    )
    with speaking(public) as language:
        begins = _begins(table, game)
        mail.public(
            (f"{word(lead)} " if lead else "") + begins + "\n" + _to_act_line(ctx, table, view),
            board,
            mentions=(first,),
            notice=TURN,
            language=language,
        )
    with speaking(first_language) as language:
        mail.private(
            first,
            _your_turn_text(ctx, table, view, ()),
            first_board,
            buttons=turn_buttons(table),
            turn=1,
            back=table.rewinds,
            notice=TURN,
            language=language,
        )
    with speaking(second_language) as language:
        said = _(
            "The game against {player} has begun; they move first. This is your own board: "
            "it shows what only you may see.",
            player=table.who(Side.CHALLENGER),
        )
        mail.private(second, said, second_board, language=language)
    return mail


def _begins(table: Table, game: GameState) -> str:
    """``The game begins: ann playing Fortress against bob.``, in the current language."""
    players = []
    for side in Side:
        words = showing.setup_words(game, side)
        who = table.who(side)
        players.append(
            _("{player} playing {setup}", player=who, setup=word(words)) if words else who
        )
    return _("The game begins: {first} against {second}.", first=players[0], second=players[1])


async def your_turn(
    ctx: Context, table: Table, side: Side, mail: Mail, say: Callable[[], str] = lambda: ""
) -> None:
    """The "your turn" notice with their own board for ``side``'s player, in their language,
    for a turn that runs again without a turn post of its own (resumed, restarted, taken
    back): ``say`` words why, in the current language, before what is to do. The post
    beside it pings them only if they want mentions: by default this DM is their ping, as
    for any turn (``notify``)."""
    user = table.hosted.player(side)
    view = table.game.view_for(side)
    reader = await ctx.player_language(user)
    board = await ctx.private_file(view, table, language=reader)
    with speaking(reader) as language:
        said = say()
        mail.private(
            user,
            _your_turn_text(ctx, table, view, [said] if said else []),
            board,
            buttons=turn_buttons(table),
            turn=table.turn,
            back=table.rewinds,
            notice=TURN,
            language=language,
        )


def _your_turn_text(ctx: Context, table: Table, view: GameView, recap: Sequence[str]) -> str:
    hosted = table.hosted
    opponent, what = table.who(view.side.other), word(showing.to_act(view))
    play, act = ctx.cmd("play", localized=True), ctx.cmd("act", localized=True)
    if hosted.paused_left is not None:  # nothing is played before a resume (paused_lines)
        line = _("Your turn against {player}: {what}.", player=opponent, what=what)
    elif hosted.due_at is None:
        line = _(
            "Your turn against {player}: {what}. Press Play (or {play}) and pick your actions, "
            "or type them with {act}; then end your turn.",
            player=opponent,
            what=what,
            play=play,
            act=act,
        )
    else:
        line = _(
            "Your turn against {player}: {what}, by {time}. Press Play (or {play}) and pick "
            "your actions, or type them with {act}; then end your turn.",
            player=opponent,
            what=what,
            time=moment(hosted.due_at, ctx.now(), localized=True),
            play=play,
            act=act,
        )
    clocks = timing.clocks_line(
        table.terms, hosted, view.side, ctx.now(), names_of(table), localized=True
    )
    return "\n".join([*recap, line, *paused_lines(ctx, table), *([clocks] if clocks else [])])


async def turn_end(
    ctx: Context,
    table: Table,
    headline: str,
    mail: Mail,
    game_before: int,
    notes: Sequence[str],
    *,
    tell: bool = True,
    news: str = "",
) -> None:
    """The public post of a finished turn (the board after it), in the server's language,
    and, with ``tell``, the "your turn" notice with their own board for the player who acts
    next, in theirs (not when their planned reply answers the turn at once: they are told
    that instead), saying ``news`` (already in their language: what their plans did) before
    what is to do. ``headline`` and ``notes`` are worded in each (``bot.i18n.word``: a
    ``rules.words.msg`` text is, any other is shown as it is)."""
    game = table.game
    view = game.view_for(None)
    nxt = table.hosted.player(view.side)
    guild = table.hosted.guild_id
    server = await ctx.server_language(guild)
    reader = await ctx.player_language(nxt) if tell else SOURCE  # its DM's only
    drawn = [ctx.board_file(view, table, guild=guild, language=server)]
    drawn += [ctx.private_file(game.view_for(view.side), table, language=reader)] if tell else []
    public, *private = await asyncio.gather(*drawn)
    with speaking(server) as language:
        recap = _recap(table, view, headline, notes, game_before)
        lines = [*recap, _to_act_line(ctx, table, view), *paused_lines(ctx, table)]
        offer = _draw_offer(ctx, table)
        lines += [offer] if offer else []
        buttons = (DRAW_BUTTON if offer else ()) + give_button(table)
        mail.public(
            "\n".join(lines),
            public,
            mentions=(nxt,),
            buttons=buttons,
            turn=table.turn,
            back=table.rewinds,
            notice=TURN,
            language=language,
        )
    if not private:
        return
    public_language = language
    with speaking(reader) as language:
        if language != public_language:  # else the post's recap is the DM's too
            recap = _recap(table, view, headline, notes, game_before)
        mail.private(
            nxt,
            _your_turn_text(ctx, table, view, [*recap, *([news] if news else [])]),
            *private,
            buttons=turn_buttons(table),
            turn=table.turn,
            back=table.rewinds,
            notice=TURN,
            language=language,
        )


def _recap(
    table: Table,
    view: GameView,
    headline: str,
    notes: Sequence[str],
    game_before: int,
    standing: bool = True,
) -> list[str]:
    """What a finished turn did, in the current language: the headline, its actions, what
    the game adds (``showing.turn_notes``), the service's ``notes`` and, with ``standing``,
    the standing."""
    names = names_of(table)
    recap = [word(headline)]
    recap += [event_line(event, names) for event in view.last_turn] or [_("(no actions)")]
    recap += [word(note) for note in showing.turn_notes(view, names, game_before)]
    recap += [word(note) for note in notes]
    recap += [showing.standing(view, names)] if standing else []
    return recap


def between_people(table: Table) -> bool:
    return not any(is_robot(table.hosted.player(side)) for side in Side)


def give_button(table: Table) -> tuple[str, ...]:
    """A turn post's "Give +1 day", for the player who waits (between people)."""
    return ("give",) if between_people(table) else ()


QUIET_DRAW = 30  # rounds without a removal after which the turn post offers a draw
DRAW_BUTTON = ("offer",)  # "Propose a draw": either player's draw command (propose or accept)


def _draw_offer(ctx: Context, table: Table) -> str:
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
    return ngettext(
        "{nothing} for {n} round: either of you may propose a draw with the button below or "
        "{command}.",
        "{nothing} for {n} rounds: either of you may propose a draw with the button below or "
        "{command}.",
        quiet,
        nothing=word(nothing),
        command=ctx.cmd("draw", localized=True),
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


async def match_end(
    ctx: Context,
    table: Table,
    headline: str,
    mail: Mail,
    counted: bool,
    turn: tuple[str, int] | None = None,
) -> None:
    """The end of a match: the headline, the final score, the final board and the record,
    in the server's language (``headline`` worded in it, as ``turn_end``'s). A game's own
    end came with a turn: ``turn`` (its headline and the series number before it, as
    ``turn_end`` takes them) opens the post with what that turn did, as a turn post would."""
    view = table.game.view_for(None)
    again = counted and between_people(table) and not table.terms.competition
    guild = table.hosted.guild_id
    server = await ctx.server_language(guild)
    board = await ctx.board_file(view, table, guild=guild, language=server)
    kind = game_type(view.game)
    with speaking(server) as language:
        final = word(kind.final_summary(view, names_of(table)))
        notes = [word(note) for note in kind.end_notes(table.game, names_of(table))]
        if not counted:
            footer = _("It counts for nothing and is not rated.")
        elif table.terms.rated:
            footer = _("The match was rated.")
        elif table.terms.competition:  # unrated, yet its result scores in its competition
            footer = _("It counts in its tournament.")
        else:
            footer = _("It was a casual match.")
        offer = _("Either of you may ask for a rematch with the button (colours swapped).")
        recap = [] if turn is None else _recap(table, view, turn[0], (), turn[1], standing=False)
        said = _(
            "{headline}\n{final}. {footer} The full record is attached.",
            headline=word(headline),
            final=final,
            footer=footer,
        )
        said = "\n".join([*recap, f"{said} {offer}" if again else said, *notes])
        mail.public(
            said,
            board,
            record_file(table),
            mentions=(table.hosted.player(Side.CHALLENGER), table.hosted.player(Side.OPPOSITION)),
            buttons=("rematch",) if again else (),
            turn=table.turn,
            back=table.rewinds,
            language=language,
        )
