"""How matches end outside the board: resignation, abort, an admin's cancellation, and the
end of a match once its game is over."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import N_, _, kept, speaking
from rules import Side
from rules.words import Text, msg
from storage import Hosted

from . import announce, showing
from .context import Context, Mail
from .errors import NotAllowed, Refused
from .models import Reply, User
from .phases import ABORTED, CANCELLED, CHALLENGE, ENDED, FINISHED, FORFEIT, PLAYING, SETUP
from .table import Table, player_side
from .texts import escape


def ended(hosted: Hosted, ending: str) -> Hosted:
    return replace(
        hosted,
        phase=ENDED,
        ending=ending,
        due_at=None,
        remind_at=None,
        paused_left=None,
        offers="{}",
    )


def outcome_headline(table: Table) -> Text:
    """The result in a line: English as a ``str``, worded in each reader's language where
    it is shown (``bot.i18n.word``)."""
    outcome = table.game.outcome()
    if outcome is None:
        raise RuntimeError("the game is not over")
    if outcome.winner is None:
        return msg("The match ends in a tie ({reason}).", reason=kept(outcome.reason))
    if outcome.reason == FORFEIT:
        return msg("{player} wins by forfeit.", player=table.who(outcome.winner))
    reason = kept(outcome.reason)
    return msg("{player} wins ({reason}).", player=table.who(outcome.winner), reason=reason)


async def finish(
    ctx: Context,
    table: Table,
    hosted: Hosted,
    headline: str,
    ending: str,
    mail: Mail | None = None,
) -> None:
    """The game is over: announce it with the final board, score and record, and save
    (with ``mail``'s messages, if any, before the announcement)."""
    mail = mail or Mail(table.channel_id)
    await announce.match_end(ctx, table, headline, mail, counted=True)
    await ctx.save(table, ended(hosted, ending), mail)


async def resign(ctx: Context, table: Table, user: User) -> Reply:
    if table.hosted.phase != PLAYING:
        raise Refused(
            _(
                "The game has not started, so there is nothing to resign; to call the match "
                "off, use {command}.",
                command=ctx.cmd("abort", localized=True),
            )
        )
    side = player_side(table, user)
    discard_unfinished(table)
    table.played.resign(side)
    headline = msg(
        "{player} resigns. {result}", player=table.who(side), result=outcome_headline(table)
    )
    await finish(ctx, table, table.hosted, headline, FINISHED)
    return Reply(_("You resigned; the match is over."), private=False)


def discard_unfinished(table: Table) -> None:
    """Drop what the player to act staged: their turn never ended (R12), so none of it is
    applied, scored or published when the match ends, or the board is reset (R28), before
    it does."""
    if table.game.staged():
        table.played.discard()


def first_round_complete(table: Table) -> bool:
    game = table.game
    return showing.series_number(game) > 1 or len(game.turns) >= 2


def abortable(ctx: Context, table: Table, user: User) -> Side:
    """``user``'s side if they may abort the match now (its setup, or its game before the
    first round is complete); Refused otherwise, saying what they can do instead."""
    if table.hosted.phase == CHALLENGE:
        raise Refused(
            _(
                "Nothing to abort yet: to take a challenge back or decline it, use {command}.",
                command=ctx.cmd("decline", localized=True),
            )
        )
    side = player_side(table, user)
    if table.hosted.phase == PLAYING and first_round_complete(table):
        raise Refused(
            _(
                "The first round is complete, so the match can no longer be aborted. You can "
                "resign ({resign}) or offer a draw ({draw}).",
                resign=ctx.cmd("resign", localized=True),
                draw=ctx.cmd("draw", localized=True),
            )
        )
    return side


async def abort(ctx: Context, table: Table, user: User) -> Reply:
    """Either player calls the match off before its first round is complete: unrated."""
    hosted = table.hosted
    side = abortable(ctx, table, user)
    player = table.who(side)
    if hosted.phase == SETUP:
        mail = Mail(table.channel_id)
        with speaking(await ctx.server_language(hosted.guild_id)) as language:
            said = _(
                "{player} aborted the match during the setup. Nothing is recorded.", player=player
            )
            mail.public(said, mentions=(hosted.player(side.other),), language=language)
        await ctx.update(table, ended(hosted, ABORTED), mail, drop_choices=True)
        return Reply(_("You aborted the match."), private=False)
    headline = msg("{player} aborted the match before the first round was complete.", player=player)
    await close(ctx, table, headline, ABORTED)
    return Reply(_("You aborted the match."), private=False)


async def cancel(ctx: Context, table: Table, user: User, admin: bool) -> Reply:
    """A server admin calls off a match in any phase: unrated."""
    if not admin:
        raise NotAllowed(_("Only a server admin can cancel a match."))
    hosted = table.hosted
    admin_name = escape(user.name)
    if hosted.match_id is not None and table.match is None:  # its game cannot be loaded
        await _call_off_unloaded(ctx, table, admin_name)
    elif hosted.phase == PLAYING:
        headline = msg("An admin ({admin}) cancelled the match.", admin=admin_name)
        await close(ctx, table, headline, CANCELLED)
    else:
        said = N_(
            "An admin ({admin}) cancelled the match before its game started. Nothing is recorded."
        )
        mail = await _players_told(ctx, hosted, said, admin_name)
        await ctx.update(table, ended(hosted, CANCELLED), mail, drop_choices=True)
    return Reply(_("The match is cancelled."), private=False)


async def _call_off_unloaded(ctx: Context, table: Table, admin_name: str) -> None:
    """An admin's cancel of a match whose game cannot be loaded (its stored data is
    damaged): called off without its game, which no post shows."""
    hosted = table.hosted
    said = N_(
        "An admin ({admin}) cancelled the match: its stored data is damaged, so its game "
        "cannot be shown. Nothing is recorded."
    )
    mail = await _players_told(ctx, hosted, said, admin_name)
    await ctx.close_unloaded(table, ended(hosted, CANCELLED), mail, CANCELLED)


async def _players_told(ctx: Context, hosted: Hosted, said: str, admin: str) -> Mail:
    """The channel's post of an admin's cancel ``said`` (a source text naming ``admin``),
    in the server's language, mentioning the match's players so far."""
    mail = Mail(hosted.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        text = _(said, admin=admin)
        mail.public(text, mentions=_players_so_far(hosted), language=language)
    return mail


def _players_so_far(hosted: Hosted) -> tuple[int, ...]:
    """Who a match without a game yet has: the challenger and whoever they challenged (an
    open challenge: nobody yet), or both players once it is accepted."""
    if hosted.phase == CHALLENGE:
        return tuple(user for user in (hosted.issuer_id, hosted.invitee_id) if user is not None)
    return (hosted.player(Side.CHALLENGER), hosted.player(Side.OPPOSITION))


async def close(ctx: Context, table: Table, headline: str, how: str) -> None:
    """End a running match without a result (aborted or cancelled): its game ends there,
    so what it kept hidden is published (R44) before the end post shows it."""
    discard_unfinished(table)
    table.played.close()
    mail = Mail(table.channel_id)
    # the end post's board is the ended match's: nobody to act, no deadline
    closed = replace(table, hosted=ended(table.hosted, how))
    await announce.match_end(ctx, closed, headline, mail, counted=False)
    await ctx.save(table, closed.hosted, mail, close=how)
