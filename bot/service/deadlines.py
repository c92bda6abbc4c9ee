"""The clock's end of a turn: at its deadline a turn ends with what was staged (R12), a
turn left empty is missed (public), and after ``forfeit_after`` missed turns in a row the
absent player forfeits at the deadline of their own turn (a decision owed in the opponent's
turn, Torii's Monkey, counts but never forfeits by itself); in a game whose turn cannot
pass, a missed turn restarts the same player's clock. The channel is told in the server's
language, the player in theirs."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import _, ngettext, speaking
from rules import IllegalAction, Side
from rules.words import Text, msg, msg_n
from storage import Hosted

from . import absence, announce, showing
from .context import Context, Mail
from .endings import finish, outcome_headline
from .notify import TURN
from .phases import FORFEIT
from .table import Table
from .turns import after_turn, with_missed


async def deadline(ctx: Context, table: Table) -> None:
    """The turn's time is up: it ends with what was staged (R12). A turn that ends so with no
    action played is missed, a public fact: it is posted empty. After ``forfeit_after`` missed
    turns in a row the absent player forfeits. Staging and undoing leave no public trace,
    so they count for nothing. A player who would miss it and may have an away day is given
    one first (``absence.auto_away``), but not for a decision owed in the opponent's turn."""
    hosted, game, match = table.hosted, table.game, table.played
    side = game.side
    # a decision in the opponent's turn (TI15: no answer means none) is not put off by an
    # away day, and counts as missed but never forfeits by itself: the forfeit comes at the
    # deadline of a turn of one's own
    deciding = game.view_for(side).deciding
    if not (deciding or game.staged()) and await absence.auto_away(ctx, table):
        return  # an away day given: the turn ends a day later
    limit = 0 if deciding else table.terms.forfeit_after
    missed = hosted.missed[side] + 1
    if not game.staged() and limit and missed >= limit:
        await _forfeit(ctx, table, replace(hosted, missed=with_missed(hosted, side, missed)), side)
        return
    before, staged = showing.series_number(game), len(game.staged())
    try:
        await ctx.offload.end_turn(match, deadline=True)
    except IllegalAction:  # a game whose turn cannot pass (ToriShogi): the clock restarts
        await _missed_move(ctx, table, replace(hosted, missed=with_missed(hosted, side, missed)))
        return
    # Public: what was staged is played now, and a turn left empty shows as such (TORA: no
    # action; Torii: a lapse). R30 may take back all that was staged: then it was missed too.
    played = len(game.turns[-1].texts) if staged else 0
    count = 0 if played else missed
    hosted = replace(hosted, missed=with_missed(hosted, side, count))
    mail = Mail(table.channel_id)
    if staged and played < staged:
        await _taken_back(ctx, mail, hosted.player(side), staged - played)
    if count and limit and count >= limit:  # R30 took back everything that was staged
        await _forfeit(ctx, table, hosted, side, mail)
        return
    headline = _deadline_headline(table.side_name(side), count, limit)
    await after_turn(ctx, table, hosted, headline, before, side, mail, lapsed=not played)


async def _taken_back(ctx: Context, mail: Mail, user: int, dropped: int) -> None:
    """The DM of a player whose last staged actions R30 took back at the deadline."""
    with speaking(await ctx.player_language(user)) as language:
        said = ngettext(
            "Your turn ended at its deadline. Your last staged action was taken back first, so "
            "that no command piece you moved ends in jeopardy (R30).",
            "Your turn ended at its deadline. Your last {n} staged actions were taken back "
            "first, so that no command piece you moved ends in jeopardy (R30).",
            dropped,
        )
        mail.private(user, said, language=language)


def _deadline_headline(player: str, count: int, limit: int) -> Text:
    """The headline of a turn ended at its deadline: ``count`` missed turns in a row (0: it
    played something), of ``limit`` before a forfeit (0: none)."""
    if not count:
        return msg("{player}'s turn ended at its deadline:", player=player)
    if not limit:
        return msg(
            "{player}'s turn ended at its deadline with no action played (missed turns in a "
            "row: {count}):",
            player=player,
            count=count,
        )
    return msg(
        "{player}'s turn ended at its deadline with no action played (missed turns in a row: "
        "{count} of {limit} before a forfeit):",
        player=player,
        count=count,
        limit=limit,
    )


async def _missed_move(ctx: Context, table: Table, hosted: Hosted) -> None:
    """The deadline came with no move in a game that cannot pass a turn: the turn is missed
    (public: no move was played) and the same player's clock starts again, as they are
    told by DM with their new deadline."""
    side = table.game.side
    count, limit = hosted.missed[side], table.terms.forfeit_after
    hosted = await ctx.turn_passes(table.terms, hosted, side, side)
    mail = Mail(table.channel_id)
    restarted = replace(table, hosted=hosted)

    def said() -> str:
        return _missed_move_text(table.side_name(side), count, limit)

    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        view = table.game.view_for(None)
        to_act = announce.to_act_line(ctx, restarted, view, localized=True)
        mail.public(
            f"{said()}\n{to_act}", mentions=(hosted.player(side),), notice=TURN, language=language
        )
    await announce.your_turn(ctx, restarted, side, mail, said)  # their new deadline
    await ctx.update(table, hosted, mail, unlook=side)  # a look before says nothing of it


def _missed_move_text(player: str, count: int, limit: int) -> str:
    """What a missed turn whose clock starts again says, in the current language: ``count``
    missed turns in a row, of ``limit`` before a forfeit (0: none)."""
    if limit:
        return _(
            "{player}'s turn passed its deadline with no move played (missed turns in a "
            "row: {count} of {limit} before a forfeit). Their clock starts again.",
            player=player,
            count=count,
            limit=limit,
        )
    return _(
        "{player}'s turn passed its deadline with no move played (missed turns in a "
        "row: {count}). Their clock starts again.",
        player=player,
        count=count,
    )


async def _forfeit(
    ctx: Context, table: Table, hosted: Hosted, side: Side, mail: Mail | None = None
) -> None:
    count = hosted.missed[side]
    table.played.forfeit(side)
    headline = msg_n(
        "{player} forfeits: {n} turn in a row ended at the deadline with no action played. "
        "{result}",
        "{player} forfeits: {n} turns in a row ended at the deadline with no action played. "
        "{result}",
        count,
        player=table.who(side),
        result=outcome_headline(table),
    )
    await finish(ctx, table, hosted, headline, FORFEIT, mail)
