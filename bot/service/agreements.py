"""What the two players agree on: a draw (R26), a reset of a series (R28), a pause of the
clock. One player proposes, the other accepts (with the same command, or the proposal's
button) or declines. A proposal stands until it is answered, taken back, lapses (a draw or
reset offer when the player it was made to ends a turn) or the match ends."""

from __future__ import annotations

import json
from dataclasses import replace

from rules import GAMES, ActionError, Side
from storage import Hosted

from . import announce, plans, reminders, showing
from .context import Context, Mail
from .endings import discard_unfinished, finish, outcome_headline
from .errors import ActionRefused, Refused
from .models import Reply, User
from .notify import PROPOSAL, TURN
from .phases import FINISHED, PLAYING
from .play import after_turn
from .stops import run_until, running_between
from .table import DRAW, OFFERS, PAUSE, RESET, REWIND, Table, player_side
from .texts import duration, moment

PROPOSALS = {
    DRAW: "a draw",
    RESET: "a reset (a new board, the points carried over)",
    PAUSE: "a pause (the clock stops until one of you resumes)",
    REWIND: "a takeback of their last turn (it is played again)",
}
# Every kind of proposal: one player proposes, the other accepts or declines. Resuming is
# none: either player resumes a paused clock alone, so that neither holds a match hostage.
PROPOSAL_KINDS = tuple(OFFERS)
# What goes on when a proposal is declined or taken back, for the player who did it.
AFTER_DECLINING = {
    DRAW: "the game goes on",
    RESET: "the board stays as it is",
    PAUSE: "the clock keeps running",
    REWIND: "the turn stands",
}


async def propose(ctx: Context, table: Table, user: User, kind: str) -> Reply:
    """Propose ``kind``, or accept it if the opponent proposed it."""
    if table.hosted.phase != PLAYING:
        raise Refused("The game has not started yet, so there is nothing to agree on.")
    side = player_side(table, user)
    offers = table.offers()
    if offers.get(kind) == side.other:
        return await _agreed(ctx, table, side, kind)
    if offers.get(kind) == side:
        raise Refused(
            f"You have already proposed {PROPOSALS[kind]}; {table.side_name(side.other)} can "
            f"accept it with {ctx.cmd(kind)} or decline it with {ctx.cmd('decline')}."
        )
    _check_proposal(ctx, table, kind, side)
    offers[kind] = side
    mail = Mail(table.channel_id)
    mail.public(
        f"{table.who(side)} proposes {PROPOSALS[kind]}. {table.side_name(side.other)}, accept "
        f"with {ctx.cmd(kind)} or decline with {ctx.cmd('decline')}.",
        mentions=(table.hosted.player(side.other),),
        buttons=(kind, "decline"),
        turn=table.turn,
        notice=PROPOSAL,
    )
    mail.private(
        table.hosted.player(side.other),
        f"{table.who(side)} proposes {PROPOSALS[kind]} in your match against them. Accept or "
        f"decline with the buttons, or with {ctx.cmd(kind)} and {ctx.cmd('decline')}.",
        buttons=(kind, "decline"),
        turn=table.turn,
        notice=PROPOSAL,
    )
    await ctx.update(table, replace(table.hosted, offers=table.encode_offers(offers)), mail)
    return Reply(f"You proposed {PROPOSALS[kind]}.", private=False, stamp=table.stamp)


async def answer(ctx: Context, table: Table, user: User, kind: str) -> Reply:
    """A proposal's button: accept the opponent's proposal of ``kind`` (``draw``, ``reset``,
    ``pause``) or, for ``decline``, decline (or take back) the proposals standing. Unlike
    the commands, an Accept button never proposes anything itself."""
    if kind == "decline":
        return await decline(ctx, table, user)
    side = player_side(table, user)
    by = table.offers().get(kind)
    if by == side.other:
        return await _agreed(ctx, table, side, kind)
    if by == side:
        raise Refused(
            f"That {OFFERS[kind]} is yours: {table.side_name(side.other)} accepts or declines "
            f"it. To take it back, use its Decline button or {ctx.cmd('decline')}."
        )
    raise Refused(
        f"That {OFFERS[kind]} is no longer open (it was answered, taken back or lapsed), so "
        f"nothing was done. To propose {PROPOSALS[kind]} yourself, use {ctx.cmd(kind)}."
    )


def open_proposals(hosted: Hosted) -> frozenset[str]:
    """The kinds of proposal standing in ``hosted`` (``draw``, ``reset``, ``pause``)."""
    return frozenset(json.loads(hosted.offers))


def _check_proposal(ctx: Context, table: Table, kind: str, side: Side) -> None:
    if kind == PAUSE and table.paused:
        raise Refused(f"The match is already paused; resume it with {ctx.cmd('resume')}.")
    if kind == RESET and RESET not in table.game.agreements():
        raise Refused(_unavailable(table, kind))
    if kind == REWIND:
        _check_takeback(table, side)


def _check_takeback(table: Table, side: Side) -> None:
    """A takeback is asked in an unrated match, by the player whose turn just ended, while
    the opponent's turn runs (it lapses when they end it)."""
    if table.terms.rated:
        raise Refused(
            "Turns are taken back only in casual matches: this one is rated. Play on, or "
            "challenge again with `rated:False` for a match where takebacks are allowed."
        )
    game = table.game
    if game.side == side or not game.turns or game.turns[-1].side != side:
        raise Refused(
            "You can ask to take back the turn you have just ended, until your opponent ends "
            "theirs; now there is none."
        )


def _unavailable(table: Table, kind: str) -> str:
    """Why the players cannot agree on ``kind`` now: what it needs in their game, or which
    game has it (TORA's reset, in a series: R28)."""
    title = table.terms.title
    for owner in GAMES.values():
        for agreement in owner.agreements:
            if agreement.kind != kind:
                continue
            if owner is table.terms.kind:
                return agreement.needs
            return f"{title} has no {kind}: it is {owner.title}'s, {agreement.where}."
    return f"{title} has no {kind}."


async def _agreed(ctx: Context, table: Table, side: Side, kind: str) -> Reply:
    if kind == PAUSE:
        return await _pause(ctx, table, side)
    if kind == REWIND:
        return await _rewind(ctx, table, side)
    offers = table.offers()
    del offers[kind]
    hosted = replace(table.hosted, offers=table.encode_offers(offers))
    match = table.played
    before = showing.series_number(match.game)
    running = match.game.side
    try:
        if kind == DRAW:
            discard_unfinished(table)
            match.agree_draw()
        else:
            match.agree_reset()
    except ActionError as exc:
        raise ActionRefused(exc) from None
    both = f"{table.side_name(side.other)} and {table.side_name(side)}"
    if kind == DRAW:
        headline = f"{both} agreed to a draw. {outcome_headline(table)}"
        await finish(ctx, table, hosted, headline, FINISHED)
        return Reply("You accepted the draw; the match is over.", private=False)
    # the turn's end reads the proposals still standing from the table: not this one
    table.hosted = hosted
    await after_turn(
        ctx,
        table,
        hosted,
        f"{both} agreed to reset the board:",
        before,
        running,
        answer_plans=False,
    )
    return Reply("You accepted the reset.", private=False, stamp=table.stamp)


async def _pause(ctx: Context, table: Table, side: Side) -> Reply:
    hosted = table.hosted
    offers = table.offers()
    offers.pop(PAUSE, None)
    now = ctx.now()
    stops = await ctx.stops(table.terms, hosted, table.game.side)
    left = running_between(now, hosted.due_at or now, stops)
    paused = replace(
        hosted, due_at=None, remind_at=None, paused_left=left, offers=table.encode_offers(offers)
    )
    mail = Mail(table.channel_id)
    mail.public(
        f"{table.side_name(side.other)} and {table.side_name(side)} agreed to pause: the clock "
        f"is stopped with {duration(left)} left in {table.side_name(table.game.side)}'s turn. "
        f"Either of you can resume with {ctx.cmd('resume')}.",
    )
    await ctx.save(table, paused, mail)
    return Reply("The match is paused.", private=False, stamp=table.stamp)


async def _rewind(ctx: Context, table: Table, side: Side) -> Reply:
    """``side`` accepts the takeback: the game goes back to before the asker's last turn
    (replayed from the log: ``Store.before_last_turn``), what ``side`` staged goes with it,
    and the asker plays that turn again on a fresh clock."""
    asker, match = side.other, table.played
    found = await ctx.store.before_last_turn(match)
    if found is None:
        raise Refused(
            f"{table.side_name(asker)}'s last turn ended at its deadline or by an agreement, "
            "so it cannot be taken back; the takeback request stands until you decline it."
        )
    number = len(match.game.turns)
    offers = table.offers()
    del offers[REWIND]
    match.rewind(*found)
    await plans.forget(ctx, table)  # they answered turns of the game as it was
    await reminders.forget_looks(ctx, table)
    hosted = replace(table.hosted, offers=table.encode_offers(offers))
    hosted = await ctx.turn_clock(table.terms, hosted, asker)
    staged = replace(table, hosted=hosted)
    view = match.game.view_for(None)
    names = announce.names_of(table)
    mail = Mail(table.channel_id)
    mail.public(
        f"{table.who(side)} accepted {table.side_name(asker)}'s takeback: turn {number} is "
        f"taken back and played again.\n{showing.standing(view, names)}\n"
        + announce.to_act_line(ctx, staged, view),
        await ctx.board_file(view, staged, guild=hosted.guild_id),
        mentions=(hosted.player(asker),),
        notice=TURN,
    )
    mail.private(
        hosted.player(asker),
        announce.your_turn_text(ctx, staged, match.game.view_for(asker)),
        await ctx.private_file(match.game.view_for(asker), staged, reader=hosted.player(asker)),
        buttons=announce.turn_buttons(table),
        turn=table.turn,
        notice=TURN,
    )
    await ctx.save(table, hosted, mail)
    return Reply(
        f"You accepted the takeback: turn {number} is played again.",
        private=False,
        stamp=table.stamp,
    )


async def resume(ctx: Context, table: Table, user: User) -> Reply:
    """Either player restarts the clock where it stopped."""
    side = player_side(table, user)
    hosted = table.hosted
    if not table.paused:
        raise Refused(
            "The match is not paused; its clock is running. To take back a pause proposal, "
            f"use {ctx.cmd('decline')}."
        )
    left = hosted.paused_left or 0.0
    now = ctx.now()
    due = run_until(now, left, await ctx.stops(table.terms, hosted, table.game.side))
    resumed = replace(hosted, due_at=due, paused_left=None)
    remind = await ctx.next_reminder(table.terms, resumed, table.game.side, now)
    resumed = replace(resumed, remind_at=remind)
    mail = Mail(table.channel_id)
    to_act = table.game.side
    mail.public(
        f"{table.who(side)} resumed the match: {table.side_name(to_act)}'s turn goes on, with "
        f"{duration(left)} left ({moment(due, now)}).",
        mentions=(hosted.player(to_act),),
        notice=TURN,
    )
    await ctx.save(table, resumed, mail)
    return Reply("The clock is running again.", private=False, stamp=table.stamp)


async def decline(ctx: Context, table: Table, user: User) -> Reply:
    """Decline what the opponent proposed, or take back one's own proposals."""
    side = player_side(table, user)
    offers = table.offers()
    theirs = [kind for kind, by in offers.items() if by == side.other]
    mine = [kind for kind, by in offers.items() if by == side]
    if not theirs and not mine:
        raise Refused("There is no proposal to decline.")
    for kind in theirs + mine:
        del offers[kind]
    words = [f"declines {table.side_name(side.other)}'s {OFFERS[k]}" for k in theirs]
    words += [f"takes back their {OFFERS[k]}" for k in mine]
    mail = Mail(table.channel_id)
    mail.public(
        f"{table.who(side)} " + " and ".join(words) + ".",
        mentions=(table.hosted.player(side.other),),
    )
    await ctx.update(table, replace(table.hosted, offers=table.encode_offers(offers)), mail)
    return Reply(_declined(table, side, theirs, mine), private=False, stamp=table.stamp)


def _declined(table: Table, side: Side, theirs: list[str], mine: list[str]) -> str:
    """What the player who declined (or took back) proposals is told: which, and what
    happens now."""
    done = [f"declined {table.side_name(side.other)}'s {OFFERS[kind]}" for kind in theirs]
    done += [f"took back your {OFFERS[kind]}" for kind in mine]
    after = " and ".join(AFTER_DECLINING[kind] for kind in theirs + mine)
    return "You " + " and ".join(done) + f": {after}."
