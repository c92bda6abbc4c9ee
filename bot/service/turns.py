"""A turn's end, whoever ended it (its player, an AI, the clock, an agreed reset): the
match's end when the game is over, else the next turn with its clock, the offers the turn
let lapse, its post and "your turn" DM, and a planned reply played at once (``plans``), or
a pass that is the turn's only legal action (``GameView.forced_pass``)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from rules import Side
from rules.words import Text, msg
from storage import Hosted, TurnStart

from . import announce, plans, showing, timing
from .context import Context, Mail
from .endings import ended, outcome_headline
from .notify import notify_of
from .phases import FINISHED
from .table import DRAW, RESET, REWIND, Table


def turn_headline(table: Table, side: Side) -> Text:
    """A turn post's first line (worded in each reader's language, ``bot.i18n.word``)."""
    return msg("{player} ended their turn:", player=table.who(side))


def with_missed(hosted: Hosted, side: Side, count: int) -> tuple[int, int]:
    missed = list(hosted.missed)
    missed[side] = count
    return missed[0], missed[1]


async def after_turn(
    ctx: Context,
    table: Table,
    hosted: Hosted,
    headline: str,
    game_before: int,
    ran: Side,
    mail: Mail | None = None,
    *,
    reset: bool = False,
    kept: dict[Side, list[str]] | None = None,
    lapsed: bool = False,
) -> None:
    """A turn has ended (by the player, the deadline or an agreed reset): announce the
    outcome if the game is over, else the turn and whose it is now, with a new clock.
    ``ran`` is the side whose clock was running (its time is settled). The player whose
    turn begins may have planned their reply to it (``plans``): it is played at once and
    saved in the same transaction as the turn it answers (a crash cannot come between),
    and that player gets no "your turn" DM for it, only the one saying what was played.
    A turn that may only be a pass (TI8) is played by the host, and answers the plans as
    their reply would have: the lines replying with that pass go on, the others are dropped.
    ``kept``: the planned replies changed by the turns of this save so far. After an
    agreed ``reset`` no plan answers the turn: both sides' plans, drafts and looks were of
    the game before it, and go in this save. ``lapsed``: the turn ended at its deadline
    with no action played (what a game shows of it, Torii's pass, was not played)."""
    game = table.game
    mail = mail or Mail(table.channel_id)
    kept = plans.emptied() if reset else {} if kept is None else kept
    if game.is_over():
        outcome, turn = outcome_headline(table), (headline, game_before)
        await announce.match_end(ctx, table, outcome, mail, counted=True, turn=turn)
        await ctx.save(table, ended(hosted, FINISHED), mail, plans=kept, forget=reset)
        return
    forced = game.view_for(None).forced_pass
    planner = None if reset else plans.planner_of(table)
    # the planner's plans changed earlier in this save (their reply played: its line one
    # step shorter) are not in the store yet: those are read from ``kept``
    fresh = None if planner is None else kept.get(planner)
    read = planner if fresh is None else None
    start = await ctx.turn_start(table.terms, hosted, ran, game.side, read)
    texts = start.plans if fresh is None else fresh
    planned = None if planner is None else await plans.answer(ctx, table, planner, texts, lapsed)
    if planned is not None and forced and planned.reply is None:
        planned = plans.dropped_at_pass(table, planned, len(texts))
    replying = planned is not None and planned.reply is not None
    # one DM for one turn: plans that played nothing are told in the "your turn" DM, unless
    # the planner wants none or has no turn to play (then alone, as a reply played is)
    news = ""
    if planned is not None and not (replying or forced):
        news = planned.told if await _turn_dms(ctx, hosted, planned.planner) else ""
    hosted = await _next_turn(
        ctx, table, hosted, headline, game_before, ran, mail, replying or forced, start, news
    )
    if planned is not None:
        kept[planned.planner] = planned.kept
        if not news:
            mail.private(hosted.player(planned.planner), planned.told, language=planned.language)
    if forced:  # the pass is the host's whether or not it was planned (its post the same)
        table.hosted = hosted  # not saved yet: the pass is saved with it
        await _forced_pass(ctx, table, mail, kept, reset)
        return
    if planned is None or planned.reply is None:
        await ctx.save(table, hosted, mail, plans=kept, forget=reset)
        return
    table.hosted = hosted  # not saved yet: the reply is saved with it
    await _planned_turn(ctx, table, planned.reply, mail, kept)


async def _next_turn(
    ctx: Context,
    table: Table,
    hosted: Hosted,
    headline: str,
    game_before: int,
    ran: Side,
    mail: Mail,
    answered: bool,
    start: TurnStart,
    news: str = "",
) -> Hosted:
    """The hosted match as the next turn begins (clocks, lapsed offers, as of ``start``:
    what ``Context.turn_start`` read), its turn post in ``mail``; the "your turn" DM too,
    with the plans' ``news``, unless a planned reply ``answered`` the turn."""
    game = table.game
    ender = game.turns[-1].side
    offers = table.offers()
    # a draw or reset offer lapses when the player it was made to has ended their own turn, so
    # the side to act changes: not at a decision in the offerer's turn (TI15: the Monkey's
    # answer); a takeback at any turn end, whoever ended it (the turn asked about is no longer
    # the last one: after a Monkey's decision, the asker's own turn follows it)
    own = game.side != ender
    lapsed = [
        (kind, offerer)
        for kind, offerer in offers.items()
        if kind == REWIND or (own and kind in (DRAW, RESET) and offerer == ender.other)
    ]
    for kind, _offerer in lapsed:
        del offers[kind]
    # a decision in the opponent's turn earns no increment (their own turn will)
    passed = await ctx.turn_passes(table.terms, hosted, ran, game.side, start, earned=own)
    # a turn ends during a pause by an agreement alone (a reset): nobody resumed the clock
    paused = hosted.paused_left is not None
    hosted = timing.started_paused(table.terms, passed, game.side) if paused else passed
    hosted = replace(hosted, offers=table.encode_offers(offers))
    notes = [
        _lapsed(kind, table.side_name(offerer), table.side_name(ender), offerer == ender)
        for kind, offerer in lapsed
    ]
    staged = replace(table, hosted=hosted)
    await announce.turn_end(
        ctx, staged, headline, mail, game_before, notes, tell=not answered, news=news
    )
    return hosted


async def _turn_dms(ctx: Context, hosted: Hosted, side: Side) -> bool:
    """Whether ``side``'s player gets a "your turn" DM (``notify``)."""
    return (await notify_of(ctx.store, hosted.player(side), hosted.guild_id)).turn_dms


def _lapsed(kind: str, offerer: str, ender: str, own: bool = False) -> Text:
    """A note of a turn post: an offer the player who ended their turn let lapse, or (``own``)
    the takeback request the asker let lapse by ending their own turn after the one asked
    about (a Monkey's decision, TI15)."""
    if own:
        return msg(
            "{player}'s takeback request lapsed: they have ended their own turn since.",
            player=offerer,
        )
    if kind == DRAW:
        return msg(
            "{player}'s draw offer lapsed: {ender}'s turn ended without accepting it.",
            player=offerer,
            ender=ender,
        )
    if kind == RESET:
        return msg(
            "{player}'s reset proposal lapsed: {ender}'s turn ended without accepting it.",
            player=offerer,
            ender=ender,
        )
    return msg(
        "{player}'s takeback request lapsed: {ender}'s turn ended without accepting it.",
        player=offerer,
        ender=ender,
    )


async def _forced_pass(
    ctx: Context, table: Table, mail: Mail, kept: dict[Side, list[str]], reset: bool
) -> None:
    """The turn beginning has no choice, its only legal action is a pass (``forced_pass``):
    the host plays it at once, posted as any turn with a headline saying so, instead of
    asking its player for it and waiting a deadline (then a missed turn) for nothing."""
    side, match = table.game.side, table.played
    before = showing.series_number(table.game)
    (only,) = table.game.legal_actions()
    await ctx.offload.step(match.game, partial(match.act, table.game.notation(only)))
    await ctx.offload.end_turn(match)
    headline = msg(
        "{player} had no choice, so the host played their turn at once:", player=table.who(side)
    )
    # neither missed nor played by them: their count of missed turns stays as it was
    await after_turn(ctx, table, table.hosted, headline, before, side, mail, kept=kept, reset=reset)


async def _planned_turn(
    ctx: Context, table: Table, texts: list[str], mail: Mail, kept: dict[Side, list[str]]
) -> None:
    """The player to act's planned reply (``plans``), played and ended as their own turn
    would be, posted as any turn is (the opponent cannot tell it was planned)."""
    side = table.game.side
    match = table.played
    before = showing.series_number(table.game)
    for text in texts:
        await ctx.offload.step(match.game, partial(match.act, text))
    await ctx.offload.end_turn(match)
    hosted = replace(table.hosted, missed=with_missed(table.hosted, side, 0))
    await after_turn(ctx, table, hosted, turn_headline(table, side), before, side, mail, kept=kept)
