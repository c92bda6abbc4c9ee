"""Away days: each player's yearly allowance per server (``GuildSettings.away_days``,
counted by the calendar year, UTC, in which each time away begins; a time away counts its
days begun), and the automatic away day: a player who would miss a deadline with nothing
played, and has a day left, is given one (once per turn) before the missed turn is
counted, unless their server or they themselves turned that off."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import replace

from bot.i18n import _, ngettext, speaking
from storage import Away

from .context import Context, Mail
from .guild import load_guild
from .models import is_robot
from .people import load_player
from .table import Table
from .texts import moment

DAY = 86400.0


def year_of(when: float) -> tuple[float, float]:
    """The calendar year (UTC) ``when`` falls in, as [start, end)."""
    year = dt.datetime.fromtimestamp(when, dt.UTC).year
    start = dt.datetime(year, 1, 1, tzinfo=dt.UTC).timestamp()
    return start, dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC).timestamp()


def days_of(away: Away) -> int:
    """The days a time away counts: each day begun (an early return gives the rest back)."""
    return max(0, math.ceil((away.ends_at - away.starts_at) / DAY - 1e-9))


async def days_left(ctx: Context, guild_id: int, user_id: int, when: float) -> tuple[int, int]:
    """The away days ``user_id`` has left in the year of ``when``, and their allowance."""
    allowed = (await load_guild(ctx.store, guild_id)).away_days
    start, end = year_of(when)
    taken = await ctx.store.aways_between(guild_id, user_id, start, end)
    return max(0, allowed - sum(days_of(a) for a in taken)), allowed


async def auto_away(ctx: Context, table: Table) -> bool:
    """At a deadline with nothing played: give the player to act an away day if they may
    have one (the turn then ends a day later); whether one was given."""
    hosted = table.hosted
    side = table.game.side
    user, due = hosted.player(side), hosted.due_at
    if is_robot(user) or due is None or not table.terms.away_days:
        return False
    guild = await load_guild(ctx.store, hosted.guild_id)
    server = ctx.settings.auto_away if guild.auto_away is None else guild.auto_away
    if not server or not (await load_player(ctx.store, user)).auto_away:
        return False
    recent = await ctx.store.aways(hosted.guild_id, [user], due - 1)
    if any(a.automatic and abs(a.ends_at - due) < 1 for a in recent):
        return False  # this turn had its automatic day already
    given = any(a.automatic and abs(a.starts_at - due) < 1 for a in recent)
    if not given:  # (given: written before a crash, the deadline not yet moved)
        left, allowed = await days_left(ctx, hosted.guild_id, user, due)
        if left < 1:
            return False
        await ctx.store.add_away(Away(hosted.guild_id, user, due, due + DAY, automatic=True))
    left, allowed = await days_left(ctx, hosted.guild_id, user, due)
    moved = replace(hosted, due_at=due + DAY, remind_at=None)
    name = table.side_name(side)
    mail = Mail(table.channel_id)
    with speaking(await ctx.server_language(hosted.guild_id)) as language:
        ends = moment(due + DAY, ctx.now(), localized=True)
        said = ngettext(
            "{player} did not play by the deadline, so I gave them one of their away days "
            "({n} day of {allowed} left this year): their turn now ends {moment}.",
            "{player} did not play by the deadline, so I gave them one of their away days "
            "({n} days of {allowed} left this year): their turn now ends {moment}.",
            left,
            player=name,
            allowed=allowed,
            moment=ends,
        )
        mail.public(said, mentions=(user,), language=language)
    with speaking(await ctx.player_language(user)) as language:
        said = _(
            "Your turn against {player} reached its deadline with nothing played, so I gave "
            "you an away day: it now ends {moment}. If it ends again with nothing played, the "
            "turn is missed. (Turn automatic away days off with {command}.)",
            player=table.who(side.other),
            moment=moment(due + DAY, ctx.now(), localized=True),
            command=ctx.cmd("settings", localized=True),
        )
        mail.private(user, said, language=language)
    await ctx.update(table, moved, mail)
    return True
