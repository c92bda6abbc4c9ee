"""The daily digest (``notify``: a player's own ``digest`` hour, in their time zone): one
private message a day listing the matches where it is their turn, the most urgent first, in
place of the "your turn" DMs; the most urgent ``MOST`` at most (fewer where long names
would pass ``LENGTH``), then how many more there are and where to see them all. Looked
for with the clock's work, at most once a minute; each day's digest is claimed as it is
queued, in one transaction, so one process sends it and a crash never claims it unsent."""

from __future__ import annotations

import datetime as dt

from bot.i18n import _, ngettext, speaking
from rules.digits import whole_number
from storage import Hosted, Post

from .context import Context
from .notify import OFF, PREFIX
from .outbox import private_post
from .people import zone
from .phases import PLAYING
from .showing import game_title
from .texts import escape

SENT = "digest_sent"  # the player setting: the last digest's time (its hour that day)
EVERY = 60.0  # seconds between looks
MOST = 10  # matches listed; the rest are counted
# Characters in a digest: one Discord message (2000) with room for what the outbox adds
# where the player's DMs are closed (``outbox.DM_FALLBACK``, in any language).
LENGTH = 1500


def last_slot(hour: int, timezone: str, now: float) -> float:
    """The latest ``hour``:00 in ``timezone`` that is not after ``now``. Where the clocks
    go back and repeat that hour it is its first occurrence (``fold=0``; ``now`` in the
    repeat has ``fold=1``, which would make the repeat a second slot that day); times are
    compared as instants, since datetimes of one zone compare by wall clock alone."""
    local = dt.datetime.fromtimestamp(now, zone(timezone))
    slot = local.replace(hour=hour, minute=0, second=0, microsecond=0, fold=0)
    if slot.timestamp() > now:
        slot -= dt.timedelta(days=1)
    return slot.timestamp()


def sent_mark(hour: int, timezone: str, now: float, before: str | None) -> float:
    """The last digest's slot (``SENT``) to keep when the digest is set to ``hour`` at
    ``now``: the latest ``hour``:00 (turned on, that day's counts as sent: the first comes
    at its next hour), or, where a digest of the player's today (``before``, their day in
    ``timezone``) went already, today's ``hour``:00 even if it is still to come, so a new
    hour later that day brings no second one."""
    slot = last_slot(hour, timezone, now)
    if before is None:
        return slot
    place = zone(timezone)
    today = dt.datetime.fromtimestamp(now, place)
    if dt.datetime.fromtimestamp(float(before), place).date() != today.date():
        return slot
    todays = today.replace(hour=hour, minute=0, second=0, microsecond=0, fold=0)
    return max(slot, todays.timestamp())


async def send_due(ctx: Context, now: float) -> int:
    """Queue the digests whose hour has come; how many were queued."""
    store = ctx.store
    sent = 0
    for user_id, hour in await store.players_with(PREFIX + "digest"):
        at = None if hour == OFF else whole_number(hour, 2)
        if at is None:
            continue
        own = await store.player_settings(user_id)
        slot = last_slot(at, own.get("timezone", "UTC"), now)
        before = own.get(SENT)
        if before is not None and float(before) >= slot:
            continue
        post = await _digest(ctx, user_id, now)
        posts = [] if post is None else [post]
        if not await store.swap_player_setting(user_id, SENT, before, repr(slot), posts):
            continue  # another process took it
        sent += len(posts)
    return sent


async def _digest(ctx: Context, user_id: int, now: float) -> Post | None:
    """The digest of ``user_id``: their matches waiting for them, the most urgent first.
    Their live matches are read on the indexes naming them (``of_user``, no ended one): a
    digest hour's many digests do not each read every live match the bot hosts."""
    waiting: list[tuple[float, Hosted]] = []
    for hosted in await ctx.store.hosting.of_user(user_id, 0):
        side = hosted.side_of(user_id)
        if hosted.phase != PLAYING or side is None or hosted.match_id is None:
            continue
        info = await ctx.store.match_info(hosted.match_id)
        if info.side_to_act == side:
            due = hosted.due_at if hosted.due_at is not None else float("inf")
            waiting.append((due, hosted))
    if not waiting:
        return None
    waiting.sort(key=lambda pair: (pair[0], pair[1].id))  # ties: the oldest match first
    with speaking(await ctx.player_language(user_id)) as language:
        head = ngettext(
            "Your turn in {n} match, the most urgent first:",
            "Your turn in {n} matches, the most urgent first:",
            len(waiting),
        )
        listed = [await _line(ctx, user_id, hosted, due) for due, hosted in waiting[:MOST]]
        while True:
            left = len(waiting) - len(listed)
            more = [_more(ctx, left)] if left else []
            text = "\n".join([head, *listed, *more])
            if len(text) <= LENGTH or len(listed) == 1:
                break
            listed.pop()
    first = waiting[0][1]
    return private_post(first.channel_id, text, user_id, language)


def _more(ctx: Context, left: int) -> str:
    """The digest's last line when ``left`` matches waiting were not listed."""
    return ngettext(
        "\u2026and {n} more match: see {command}",
        "\u2026and {n} more matches: see {command}",
        left,
        command=ctx.cmd("games", localized=True),
    )


async def _line(ctx: Context, user_id: int, hosted: Hosted, due: float) -> str:
    """A match of the digest, in the current language: its number and game (as a match's
    other DMs are headed: the digest, of no one match, has no heading), the opponent, when
    it is due and where it is played."""
    side = hosted.side_of(user_id)
    assert side is not None
    other = await ctx.store.player(hosted.player(side.other))
    link = ctx.settings.link(hosted.guild_id, hosted.channel_id)
    if hosted.paused_left is not None:
        when = _("paused")
    else:
        stamp = f"<t:{int(due)}:R>"  # a countdown, which Discord shows in the reader's language
        when = _("due {moment}", moment=stamp)
    if other is None:
        return _(
            "- Match {number} \u00b7 {game} against your opponent: {when} \u00b7 {link}",
            number=hosted.id,
            game=game_title(hosted),
            when=when,
            link=link,
        )
    return _(
        "- Match {number} \u00b7 {game} against {player}: {when} \u00b7 {link}",
        number=hosted.id,
        game=game_title(hosted),
        player=escape(other.name),
        when=when,
        link=link,
    )
