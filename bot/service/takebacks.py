"""A takeback (R10's limits, casual matches only): the player whose turn just ended asks
to take it back, while the turn after it runs; the opponent accepts (``agreements``: as
any proposal) and the asker plays that turn again on a fresh clock."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import _, option, speaking, word
from rules import ActionError, GameState, Side

from . import announce, plans, showing, timing
from .context import Context, Mail
from .errors import Refused
from .models import Reply
from .notify import TURN
from .table import REWIND, Table


def check_takeback(table: Table, side: Side) -> None:
    """A takeback is asked in a casual match (``Terms.casual``: neither rated nor a
    competition's), by the player whose turn just ended, while the turn after it runs (it
    lapses when that one ends): the opponent's, or after a decision in the opponent's turn
    (Torii's Monkey, TI15) the asker's own; for a turn the rules let be taken back
    (``check_takeback``: not one holding an action they never take back, such as TORA's
    search, R10, whose player would play the turn again knowing what it found)."""
    if table.terms.competition:
        raise Refused(
            _(
                "Turns are taken back only in casual matches: this game counts in its event's "
                "or tournament's standings, where no other player could take a turn back. "
                "Play on."
            )
        )
    if table.terms.rated:
        casual = f"`{option('rated')}:False`"  # the option as the reader's Discord names it
        raise Refused(
            _(
                "Turns are taken back only in casual matches: this one is rated. Play on, or "
                "challenge again with {rated} for a match where takebacks are allowed.",
                rated=casual,
            )
        )
    game = table.game
    if not game.turns or game.turns[-1].side != side:
        raise Refused(
            _(
                "You can ask to take back the turn you have just ended, until your opponent "
                "ends theirs; now there is none."
            )
        )
    try:
        game.check_takeback()
    except ActionError as exc:
        raise Refused(
            _(
                "Your last turn cannot be taken back: {reason}. Play on from it; you can ask "
                "to take back a later turn that holds no such action.",
                reason=word(exc.message),
            )
        ) from None


def lapsed() -> Refused:
    """The refusal of a takeback whose turn ended at its deadline or by an agreement: the
    log holds no End turn to go back to (``Store.before_last_turn``)."""
    return Refused(
        _("Your last turn ended at its deadline or by an agreement, so it cannot be taken back.")
    )


def check_discard(table: Table, asker: Side) -> None:
    """The takeback drops what its accepter staged: refused while that holds an action the
    rules never take back (``check_discard``: TORA's search, R10), whose player would
    otherwise keep what it showed them without it being played."""
    try:
        table.game.check_discard()
    except ActionError as exc:
        raise Refused(
            _(
                "You cannot accept {asker}'s takeback now: it would take back what you staged "
                "this turn, and {reason}. Decline it, or end your turn (the request then "
                "lapses).",
                asker=table.side_name(asker),
                reason=word(exc.message),
            )
        ) from None


async def before_asked(ctx: Context, table: Table, asker: Side) -> tuple[GameState, int] | None:
    """The game before the turn ``asker`` asks back and the log entry it stood at
    (``Store.before_last_turn``), None when that turn did not end by End turn. A last turn
    the host played, as its only legal action was a pass (``forced_pass``, TI8), holds no
    choice of theirs: it goes back with the turn before it when that one is theirs (their
    decision in the opponent's turn left it a pass, TI15), and is refused when that one is
    the opponent's: else the asker would be put back before the same pass, which nobody
    plays for them then, or when the decision before it lapsed at its deadline (``lapsed``),
    so that a request asked is one its Accept can carry out."""
    match = table.played
    found = await ctx.store.before_last_turn(match)
    if found is None or not found[0].view_for(None).forced_pass:
        return found
    turns = table.game.turns
    if len(turns) < 2 or turns[-2].side != asker:
        raise Refused(
            _(
                "Your last turn was a pass the host played for you, as you had no other "
                "action: there is no turn of yours to take back."
            )
        )
    with_decision = await ctx.store.before_last_turn(match, 2)
    if with_decision is None:
        raise lapsed()
    return with_decision


async def rewind(ctx: Context, table: Table, side: Side) -> Reply:
    """``side`` accepts the takeback: the game goes back to before the asker's last turn
    (replayed from the log: ``before_asked``, with the host's pass after it), what ``side``
    staged goes with it, and the asker plays that turn again on a fresh clock (less the
    increment the turns taken back earned: ``timing.taken_back``; a decision in the
    opponent's turn, TI15, earned none, the host's pass after it one). Accepted during a
    pause, the match stays paused,
    with that fresh time for the turn once either player resumes it."""
    asker, match = side.other, table.played
    found = await before_asked(ctx, table, asker)
    if found is None:
        raise Refused(
            _(
                "{player}'s last turn ended at its deadline or by an agreement, so it cannot be "
                "taken back; the takeback request stands until you decline it.",
                player=table.side_name(asker),
            )
        )
    check_discard(table, asker)
    offers = table.offers()
    del offers[REWIND]
    ended = len(match.game.turns)
    match.rewind(*found)
    number = len(match.game.turns) + 1  # the turn played again
    hosted = replace(table.hosted, offers=table.encode_offers(offers))
    with_pass = ended > number  # (the host's pass went back with the decision before it)
    if with_pass or not match.game.view_for(asker).deciding:  # not a decision alone
        hosted = timing.taken_back(table.terms, hosted, asker)
    if table.paused:
        hosted = timing.started_paused(table.terms, hosted, asker)
    else:
        hosted = await ctx.turn_clock(table.terms, hosted, asker)
    staged = replace(table, hosted=hosted)
    view = match.game.view_for(None)
    names = announce.names_of(table)
    mail = Mail(table.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        said = _(
            "{player} accepted {asker}'s takeback: turn {number} is taken back and played again.",
            player=table.who(side),
            asker=table.side_name(asker),
            number=number,
        )
        paused = announce.paused_lines(ctx, staged)  # accepted during a pause
        standing = showing.standing(view, names)
        to_act = announce.to_act_line(ctx, staged, view, localized=True)
    mail.public(
        "\n".join([said, *paused, standing, to_act]),
        await ctx.board_file(view, staged, guild=hosted.guild_id),
        mentions=(hosted.player(asker),),
        notice=TURN,
        language=language,
    )
    await announce.your_turn(ctx, staged, asker, mail)
    # the plans, drafts and looks were of turns of the game as it was: they go with it
    await ctx.save(table, hosted, mail, plans=plans.emptied(), forget=True)
    return Reply(
        _("You accepted the takeback: turn {number} is played again.", number=number),
        private=False,
        stamp=table.stamp,
    )
