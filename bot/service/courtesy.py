"""What one player does for the other: give them time (a day at a time, as often as they
like, until the receiver has ``timing.MOST_LEFT``), or ask for a rematch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.i18n import _, speaking
from rules import Side
from storage import Hosted

from . import timing
from .context import Context, Mail
from .errors import NotAllowed, Refused
from .models import Place, Reply, User, is_robot
from .phases import ABORTED, CANCELLED, ENDED, PLAYING
from .ports import Stamp
from .stops import Interval, running_between
from .table import Table, player_side
from .terms import Terms
from .texts import duration, moment


async def give_time(ctx: Context, table: Table, user: User) -> Reply:
    """``user`` gives their opponent a day: on the opponent's running turn its deadline
    moves on (and their bank grows); on the giver's own turn, with a bank or an increment
    clock, the opponent's own time grows. A fixed time per turn has nothing to add to then."""
    if table.hosted.phase != PLAYING:
        raise Refused(_("The game has not started yet, so there is no clock to add to."))
    side = player_side(table, user)
    to, terms, now = side.other, table.terms, ctx.now()
    name = table.side_name(to)
    stops = await ctx.stops(terms, table.hosted, to) if to == table.game.side else []
    try:
        hosted = timing.gift(terms, table.hosted, to, table.game.side, stops)
    except ValueError:
        raise Refused(
            _(
                "Your turn is running: {player}'s next turn has its full {time} anyway. Give "
                "time while their turn runs.",
                player=name,
                time=duration(terms.turn_seconds, localized=True),
            )
        ) from None
    has = _time_of(table, hosted, to, now, stops)
    if has > timing.MOST_LEFT:
        raise Refused(
            _(
                "{player} already has {time}: time is given up to {most} in all, so nothing "
                "was added.",
                player=name,
                time=duration(has - timing.GIFT, localized=True),
                most=duration(timing.MOST_LEFT, localized=True),
            )
        )
    if to == table.game.side and hosted.due_at is not None:
        remind = await ctx.next_reminder(terms, hosted, to, now)
        hosted = replace(hosted, remind_at=remind)
    mail = Mail(table.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        said = _given_words(table, hosted, side, now)
        mail.public(said, mentions=(hosted.player(to),), language=language)
    await ctx.update(table, hosted, mail)
    said = _("You gave {player} {time}.", player=name, time=duration(timing.GIFT, localized=True))
    return Reply(said, private=False, stamp=table.stamp)


def _time_of(
    table: Table, hosted: Hosted, to: Side, now: float, stops: Sequence[Interval]
) -> float:
    """What ``to`` has after the gift: on their turn the running time left of it (none
    while ``stops`` stop their clock), else their next turn's time."""
    if to != table.game.side:
        return timing.turn_time(table.terms, hosted, to)
    if hosted.paused_left is None and hosted.due_at is not None:
        return running_between(now, hosted.due_at, stops)
    return timing.running_left(hosted, now)


def _given_words(table: Table, hosted: Hosted, giver: Side, now: float) -> str:
    """The post of a gift of time, in the current language: who gave whom a day, and what
    the receiver has now."""
    to = giver.other
    who, name = table.who(giver), table.side_name(to)
    day = duration(timing.GIFT, localized=True)
    if to != table.game.side:
        return _(
            "{giver} gave {player} {time}: their next turn lasts {turn}.",
            giver=who,
            player=name,
            time=day,
            turn=duration(timing.turn_time(table.terms, hosted, to), localized=True),
        )
    if hosted.paused_left is not None:
        return _(
            "{giver} gave {player} {time}: the paused clock now holds {left} of their turn.",
            giver=who,
            player=name,
            time=day,
            left=duration(hosted.paused_left, localized=True),
        )
    return _(
        "{giver} gave {player} {time}: their turn now ends {moment}.",
        giver=who,
        player=name,
        time=day,
        moment=moment(hosted.due_at or now, now, localized=True),
    )


async def rematch(ctx: Context, place: Place, user: User, made: Stamp) -> tuple[Place, User, Terms]:
    """Where a rematch of the ended match ``made`` is challenged, against whom, on which
    terms: its own, the colours swapped (whoever played the Challenger plays the
    Opposition). Refused unless ``user`` played in it, it ended with a result (its end post
    offers a rematch of no other: one aborted or cancelled has none), it was no
    competition's game and it is still the channel's latest match (nothing was started
    there since)."""
    old = await ctx.store.hosting.latest_in_channel(place.channel_id)
    if old is None or old.id != made.match or old.phase != ENDED:
        raise Refused(
            _(
                "That match is no longer the last one here (a rematch or another match came "
                "since), so nothing was done. Start a new one with {command}.",
                command=ctx.cmd("challenge", localized=True),
            )
        )
    side = old.side_of(user.id)
    if side is None or old.match_id is None:
        raise NotAllowed(
            _(
                "Only the two players of a match that was played can ask for its rematch. "
                "Start a match of your own with {command}.",
                command=ctx.cmd("challenge", localized=True),
            )
        )
    if old.ending in (ABORTED, CANCELLED):
        raise Refused(
            _(
                "That match ended without a result, so it has no rematch. Start a new one "
                "with {command}.",
                command=ctx.cmd("challenge", localized=True),
            )
        )
    terms = Terms.from_json(old.terms)
    if terms.competition:
        raise Refused(
            _(
                "That match was a tournament's game: the tournament pairs the next one, so it "
                "has no rematch."
            )
        )
    other = old.player(side.other)
    if is_robot(other):
        raise Refused(
            _(
                "Play the AI again with {command} and its `ai` option.",
                command=ctx.cmd("challenge", localized=True),
            )
        )
    found = await ctx.store.player(other)
    opponent = User(other, found.name if found else f"player {other}")
    roles = "challenger" if side == Side.OPPOSITION else "opposition"
    return Place(old.guild_id, old.channel_id), opponent, replace(terms, roles=roles)
