"""What the two players agree on: a draw (R26), a reset of a series (R28), a pause of the
clock. One player proposes, the other accepts (with the same command, or the proposal's
button) or declines. A proposal stands until it is answered, taken back, lapses (a draw or
reset offer when the player it was made to ends a turn) or the match ends."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.i18n import N_, _, speaking, word
from rules import GAMES, ActionError, Side
from rules.words import Text, msg
from storage import Hosted

from . import announce, showing
from .context import Context, Mail
from .endings import discard_unfinished, finish, outcome_headline
from .errors import ActionRefused, Refused
from .models import Reply, User
from .notify import PROPOSAL, TURN
from .phases import FINISHED, PLAYING
from .stops import run_until, running_between
from .table import DRAW, OFFERS, PAUSE, RESET, REWIND, SPENT, Table, player_side
from .takebacks import before_asked, check_takeback, lapsed, rewind
from .texts import duration, listing, moment
from .turns import after_turn

# What is proposed, as the texts name it ("{player} proposes {proposal}.").
PROPOSALS = {
    # TRANSLATORS: what is proposed, in "{player} proposes {proposal}." and the like.
    DRAW: N_("a draw"),
    RESET: N_("a reset (a new board, the points carried over)"),
    PAUSE: N_("a pause (the clock stops until one of you resumes)"),
    REWIND: N_("a takeback of their last turn (it is played again)"),
}
# What the proposer's own answers name it where that differs: their own last turn is taken
# back ("You proposed a takeback of your last turn").
OWN_PROPOSALS = {
    # TRANSLATORS: what is proposed, in "You proposed {proposal}." and the like.
    REWIND: N_("a takeback of your last turn (it is played again)"),
}
# Every kind of proposal: one player proposes, the other accepts or declines. Resuming is
# none: either player resumes a paused clock alone, so that neither holds a match hostage.
PROPOSAL_KINDS = tuple(OFFERS)
# A proposal's Decline button: ``DECLINE + kind`` declines (or takes back) that one alone.
DECLINE = "decline-"
# What goes on when a proposal is declined or taken back, for the player who did it.
AFTER_DECLINING = {
    # TRANSLATORS: what goes on after a proposal is declined: "You {actions}: {after}."
    DRAW: N_("the game goes on"),
    RESET: N_("the board stays as it is"),
    PAUSE: N_("the clock keeps running"),
    REWIND: N_("the turn stands"),
}


def _offer(kind: str) -> str:
    """A standing proposal's name ("draw offer"), in the current language."""
    return _(OFFERS[kind])


async def propose(ctx: Context, table: Table, user: User, kind: str) -> Reply:
    """Propose ``kind``, or accept it if the opponent proposed it."""
    if table.hosted.phase != PLAYING:
        raise Refused(_("The game has not started yet, so there is nothing to agree on."))
    side = player_side(table, user)
    offers = table.offers()
    if offers.get(kind) == side.other:
        return await _agreed(ctx, table, side, kind)
    if offers.get(kind) == side:
        raise Refused(
            _(
                "You have already proposed {proposal}; {player} can accept it with {accept} or "
                "decline it with {decline}.",
                proposal=_own_proposal(kind),
                player=table.side_name(side.other),
                accept=ctx.cmd(kind, localized=True),
                decline=ctx.cmd("decline", localized=True),
            )
        )
    _check_proposal(ctx, table, kind, side)
    if kind == REWIND:
        await _check_rewind(ctx, table, side)
    offers[kind] = side
    mail = Mail(table.channel_id)
    other = table.hosted.player(side.other)
    with speaking(await ctx.server_language(table.hosted.guild_id)) as language:
        mail.public(
            _(
                "{player} proposes {proposal}. {other}, accept with {accept} or decline with "
                "{decline}.",
                **_proposal_words(ctx, table, side, kind),
            ),
            mentions=(other,),
            buttons=(kind, DECLINE + kind),
            turn=table.turn,
            back=table.rewinds,
            notice=PROPOSAL,
            language=language,
        )
    with speaking(await ctx.player_language(other)) as language:
        mail.private(
            other,
            _(
                "{player} proposes {proposal} in your match against them. Accept or decline "
                "with the buttons, or with {accept} and {decline}.",
                **_proposal_words(ctx, table, side, kind),
            ),
            buttons=(kind, DECLINE + kind),
            turn=table.turn,
            back=table.rewinds,
            notice=PROPOSAL,
            language=language,
        )
    await ctx.update(table, replace(table.hosted, offers=table.encode_offers(offers)), mail)
    return Reply(
        _("You proposed {proposal}.", proposal=_own_proposal(kind)),
        private=False,
        stamp=table.stamp,
    )


def _own_proposal(kind: str) -> str:
    """``kind`` as its proposer's own answers name it, in the current language."""
    return _(OWN_PROPOSALS.get(kind, PROPOSALS[kind]))


def _proposal_words(ctx: Context, table: Table, side: Side, kind: str) -> dict[str, str]:
    """The parameters of a proposal's post and notice, in the current language."""
    return {
        "player": table.who(side),
        "proposal": _(PROPOSALS[kind]),
        "other": table.side_name(side.other),
        "accept": ctx.cmd(kind, localized=True),
        "decline": ctx.cmd("decline", localized=True),
    }


async def answer(ctx: Context, table: Table, user: User, verb: str) -> Reply:
    """A proposal's button: accept the opponent's proposal of kind ``verb`` (``draw``,
    ``reset``, ``pause``, ``rewind``) or, for ``DECLINE`` + a kind, decline that proposal
    (take it back if it is one's own) and no other, refused once it no longer stands: a
    Decline pressed late must not decline whatever was proposed since. ``decline`` alone is
    the Decline of a button posted before they named their proposal: it declines (or takes
    back) every proposal standing, as the command does. Unlike the commands, an Accept
    button never proposes anything itself."""
    if verb == "decline":
        return await decline(ctx, table, user)
    side = player_side(table, user)
    kind = verb.removeprefix(DECLINE)
    by = table.offers().get(kind)
    if by is not None and kind != verb:
        return await decline(ctx, table, user, kind)
    if by == side.other:
        return await _agreed(ctx, table, side, kind)
    if by == side:
        raise Refused(
            _(
                "That {offer} is yours: {player} accepts or declines it. To take it back, use "
                "its Decline button or {command}.",
                offer=_offer(kind),
                player=table.side_name(side.other),
                command=ctx.cmd("decline", localized=True),
            )
        )
    raise Refused(
        _(
            "That {offer} is no longer open (it was answered, taken back or lapsed), so nothing "
            "was done. To propose {proposal} yourself, use {command}.",
            offer=_offer(kind),
            proposal=_own_proposal(kind),
            command=ctx.cmd(kind, localized=True),
        )
    )


async def proposable(ctx: Context, table: Table, side: Side) -> tuple[str, ...]:
    """The kinds of proposal ``side``'s player may make now, as ``propose`` takes them (a
    page offers these alone): a draw; a pause unless the clock is stopped; a reset where
    their game lets them propose one (TORA's, in a series, down to one action: R28); a
    takeback of the turn they have just ended with End turn, in a casual match, while the
    rules let it go back. A proposal of theirs standing is none: the page lists it, with
    its Take back."""
    offers = table.offers()
    kinds = []
    for kind in PROPOSAL_KINDS:
        if offers.get(kind) == side:
            continue
        try:
            _check_proposal(ctx, table, kind, side)
        except Refused:
            continue
        kinds.append(kind)
    if REWIND in kinds:
        try:
            await _check_rewind(ctx, table, side)
        except Refused:
            kinds.remove(REWIND)
    return tuple(kinds)


async def _check_rewind(ctx: Context, table: Table, side: Side) -> None:
    """The checks of ``side``'s takeback that read the log: their last turn ended by End
    turn (not at its deadline or by an agreement), and was not a pass the host played after
    the opponent's turn, nor one after a decision of theirs that lapsed (``before_asked``,
    TI8, TI15)."""
    if not await ctx.store.last_turn_ended_by_player(table.played.id):
        raise lapsed()
    await before_asked(ctx, table, side)


def open_proposals(hosted: Hosted) -> frozenset[str]:
    """The kinds of proposal standing in ``hosted`` (``draw``, ``reset``, ``pause``,
    ``rewind``)."""
    return frozenset(json.loads(hosted.offers).keys() - {SPENT})


def _check_proposal(ctx: Context, table: Table, kind: str, side: Side) -> None:
    if (kind, side) in table.spent():
        raise Refused(
            _(
                "Your {offer} was declined or taken back this turn, so it is not made again "
                "before the turn ends: each would ping {player} again.",
                offer=_offer(kind),
                player=table.side_name(side.other),
            )
        )
    if kind == PAUSE and table.paused:
        raise Refused(
            _(
                "The match is already paused; resume it with {command}.",
                command=ctx.cmd("resume", localized=True),
            )
        )
    if kind == RESET and RESET not in table.game.agreements(side):
        raise Refused(_unavailable(table, kind))
    if kind == REWIND:
        check_takeback(table, side)


def _unavailable(table: Table, kind: str) -> str:
    """Why the players cannot agree on ``kind`` now: what it needs in their game, or which
    game has it (TORA's reset, in a series: R28), in the current language."""
    title = table.terms.title
    for owner in GAMES.values():
        for agreement in owner.agreements:
            if agreement.kind != kind:
                continue
            if owner is table.terms.kind:
                return word(agreement.needs)
            return _(
                "{game} has no {kind}: it is {owner}'s, {where}.",
                game=title,
                kind=kind,
                owner=owner.title,
                where=word(agreement.where),
            )
    return _("{game} has no {kind}.", game=title, kind=kind)


async def _agreed(ctx: Context, table: Table, side: Side, kind: str) -> Reply:
    if kind == PAUSE:
        return await _pause(ctx, table, side)
    if kind == REWIND:
        return await rewind(ctx, table, side)
    offers = table.offers()
    del offers[kind]
    hosted = replace(table.hosted, offers=table.encode_offers(offers))
    match = table.played
    before = showing.series_number(match.game)
    running = match.game.side
    discard_unfinished(table)  # a draw or a reset: the running turn never ended (R12)
    try:
        if kind == DRAW:
            match.agree_draw()
        else:
            match.agree_reset()
    except ActionError as exc:
        raise ActionRefused(exc) from None
    # the headline is worded in each reader's language where it is shown
    players = {"player": table.side_name(side.other), "other": table.side_name(side)}
    if kind == DRAW:
        headline = msg(
            "{player} and {other} agreed to a draw. {outcome}",
            outcome=outcome_headline(table),
            **players,
        )
    else:
        headline = msg("{player} and {other} agreed to reset the board:", **players)
    if kind == DRAW:
        await finish(ctx, table, hosted, headline, FINISHED)
        return Reply(_("You accepted the draw; the match is over."), private=False)
    # the turn's end reads the proposals still standing from the table: not this one
    table.hosted = hosted
    await after_turn(ctx, table, hosted, headline, before, running, reset=True)
    return Reply(_("You accepted the reset."), private=False, stamp=table.stamp)


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
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        mail.public(
            _(
                "{player} and {other} agreed to pause: the clock is stopped with {left} left in "
                "{mover}'s turn. Either of you can resume with {command}.",
                player=table.side_name(side.other),
                other=table.side_name(side),
                left=duration(left, localized=True),
                mover=table.side_name(table.game.side),
                command=ctx.cmd("resume", localized=True),
            ),
            language=language,
        )
    await ctx.save(table, paused, mail)
    return Reply(_("The match is paused."), private=False, stamp=table.stamp)


async def resume(ctx: Context, table: Table, user: User) -> Reply:
    """Either player restarts the clock where it stopped."""
    side = player_side(table, user)
    hosted = table.hosted
    if not table.paused:
        raise Refused(
            _(
                "The match is not paused; its clock is running. To take back a pause proposal, "
                "use {command}.",
                command=ctx.cmd("decline", localized=True),
            )
        )
    left = hosted.paused_left or 0.0
    now = ctx.now()
    due = run_until(now, left, await ctx.stops(table.terms, hosted, table.game.side))
    resumed = replace(hosted, due_at=due, paused_left=None)
    remind = await ctx.next_reminder(table.terms, resumed, table.game.side, now)
    resumed = replace(resumed, remind_at=remind)
    mail = Mail(table.channel_id)
    to_act = table.game.side

    def said() -> str:
        return _(
            "{player} resumed the match: {mover}'s turn goes on, with {left} left ({due}).",
            player=table.who(side),
            mover=table.side_name(to_act),
            left=duration(left, localized=True),
            due=moment(due, now, localized=True),
        )

    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        mail.public(said(), mentions=(hosted.player(to_act),), notice=TURN, language=language)
    if side != to_act:  # the player whose clock runs again learns it as of any turn of theirs
        await announce.your_turn(ctx, replace(table, hosted=resumed), to_act, mail, said)
    await ctx.save(table, resumed, mail)
    return Reply(_("The clock is running again."), private=False, stamp=table.stamp)


async def decline(
    ctx: Context, table: Table, user: User, only: str | None = None, why: Text | None = None
) -> Reply:
    """Decline what the opponent proposed, or take back one's own proposals: all of them
    (the command), or the one of kind ``only`` alone (its Decline button: ``answer``).
    ``why``: a reason said after it (a rules text, ``msg``, worded in the post's language;
    an AI player's)."""
    side = player_side(table, user)
    offers = table.offers()
    named = [(kind, by) for kind, by in offers.items() if only in (None, kind)]
    theirs = [kind for kind, by in named if by == side.other]
    mine = [kind for kind, by in named if by == side]
    if not theirs and not mine:
        raise Refused(_("There is no proposal to decline."))
    for kind in theirs + mine:
        del offers[kind]
    # not made again this turn (``Table.spent``): each would ping the opponent again
    spent = [(kind, side.other) for kind in theirs] + [(kind, side) for kind in mine]
    other = table.side_name(side.other)
    with speaking(await ctx.server_language(table.hosted.guild_id)) as language:
        # TRANSLATORS: an action in "{player} {actions}." ({offer}: "draw offer"...).
        words = [_("declines {player}'s {offer}", player=other, offer=_offer(k)) for k in theirs]
        # TRANSLATORS: an action in "{player} {actions}." ({offer}: "draw offer"...).
        words += [_("takes back their {offer}", offer=_offer(k)) for k in mine]
        # TRANSLATORS: {actions}: one or more of "declines {player}'s {offer}", "takes back
        # their {offer}", joined with "and".
        said = _(
            "{player} {actions}.", player=table.who(side), actions=listing(words, localized=True)
        )
        if why is not None:
            said = f"{said} {word(why)}"
    mail = Mail(table.channel_id)
    mail.public(said, mentions=(table.hosted.player(side.other),), language=language)
    await ctx.update(table, replace(table.hosted, offers=table.encode_offers(offers, spent)), mail)
    return Reply(_declined(table, side, theirs, mine), private=False, stamp=table.stamp)


def _declined(table: Table, side: Side, theirs: list[str], mine: list[str]) -> str:
    """What the player who declined (or took back) proposals is told: which, and what
    happens now, in the current language."""
    other = table.side_name(side.other)
    # TRANSLATORS: an action in "You {actions}: {after}." ({offer}: "draw offer"...).
    done = [_("declined {player}'s {offer}", player=other, offer=_offer(k)) for k in theirs]
    # TRANSLATORS: an action in "You {actions}: {after}." ({offer}: "draw offer"...).
    done += [_("took back your {offer}", offer=_offer(k)) for k in mine]
    after = [_(AFTER_DECLINING[kind]) for kind in theirs + mine]
    # TRANSLATORS: {actions}: "declined {player}'s {offer}", "took back your {offer}";
    # {after}: "the game goes on", "the clock keeps running"...
    return _(
        "You {actions}: {after}.",
        actions=listing(done, localized=True),
        after=listing(after, localized=True),
    )
