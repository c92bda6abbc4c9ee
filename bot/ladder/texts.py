"""What the ladder desk says: profiles, head-to-head records, seasons and the queue, as
plain text for the front end to show. Matches are named with the command that shows their
record (``/tora record number:<id>``), which a front end can offer as is."""

from __future__ import annotations

import json

from bot.i18n import N_, _, ngettext
from bot.service import Settings
from bot.service.texts import escape, listing
from storage.competitions.ladders import Season

from .boards import BoardProfile, HeadToHead, Line, Recent
from .queue import BASE_GAP, EXPIRE_AFTER, HOUR, MOST_GAP, WIDEN_PER_HOUR
from .results import ladder_name, ladder_title


def day(at: float) -> str:
    """A date as a Discord timestamp (``<t:1800000000:d>``): each reader sees it in their own
    time zone and notation (a UTC date put an evening game in America on the next day)."""
    return f"<t:{int(at)}:d>"


def record_hint(settings: Settings, match_id: int) -> str:
    return settings.cmd(f"record number:{match_id}", localized=True)


def rating(line: Line) -> str:
    mark = "?" if line.provisional else ""
    return f"{line.rating:.0f}{mark} ± {line.deviation:.0f}"


def streak(count: int) -> str:
    if count > 0:
        return ngettext("won the last game", "won the last {n}", count)
    if count < 0:
        return ngettext("lost the last game", "lost the last {n}", -count)
    return _("no streak")


def board_profile(profile: BoardProfile, settings: Settings) -> list[str]:
    line = profile.line
    ladder, season = ladder_title(profile.board), profile.season
    if line is None:
        out = [
            _(
                "{ladder} ladder, season {season}: no rated games this season.",
                ladder=ladder,
                season=season,
            )
        ]
    else:
        out = [
            _(
                "{ladder} ladder, season {season}: rating {rating}, rank {rank} of {players}; "
                "{wins} won, {losses} lost, {draws} drawn; {streak}.",
                ladder=ladder,
                season=season,
                rating=rating(line),
                rank=line.rank,
                players=profile.players,
                wins=line.wins,
                losses=line.losses,
                draws=line.draws,
                streak=streak(line.streak),
            )
        ]
    if profile.closed_at is not None:
        out.append(_("Final standings: this season closed on {day}.", day=day(profile.closed_at)))
    out.extend(f"- {recent(r, settings)}" for r in profile.recent)
    return out


def recent(result: Recent, settings: Settings) -> str:
    fields = {
        "day": day(result.played_at),
        "opponent": escape(result.opponent),
        "record": record_hint(settings, result.match_id),
    }
    if result.removed:
        return _(RESULT_REMOVED[result.score], **fields)
    return _(RESULT_WORDS[result.score], **fields)


RESULT_WORDS = {
    1.0: N_("{day} won against {opponent}: {record}"),
    0.5: N_("{day} drew with {opponent}: {record}"),
    0.0: N_("{day} lost to {opponent}: {record}"),
}
RESULT_REMOVED = {
    1.0: N_("{day} won against {opponent} (removed from the ladder): {record}"),
    0.5: N_("{day} drew with {opponent} (removed from the ladder): {record}"),
    0.0: N_("{day} lost to {opponent} (removed from the ladder): {record}"),
}


def head_to_head(record: HeadToHead, names: dict[int, str], settings: Settings) -> str:
    first, second = escape(names[record.first_id]), escape(names[record.second_id])
    where = {"ladder": ladder_name(record.key.board), "season": record.key.season}
    if not record.matches:
        return _(
            "{first} and {second} have no counted results against each other on the {ladder} "
            "ladder, season {season}.",
            first=first,
            second=second,
            **where,
        )
    out = [
        _(
            "{first} against {second} on the {ladder} ladder, season {season}: {first} won "
            "{first_wins}, {second} won {second_wins}, {draws} drawn.",
            first=first,
            second=second,
            first_wins=record.first_wins,
            second_wins=record.second_wins,
            draws=record.draws,
            **where,
        )
    ]
    out.extend(f"- {record_hint(settings, match_id)}" for match_id in record.matches[:10])
    return "\n".join(out)


def seasons(board: str, found: list[Season], settings: Settings) -> str:
    out = [_("Seasons of the {ladder} ladder:", ladder=ladder_name(board))]
    for season in found:
        out.append("- " + season_line(season))
    closed = [s.key.season for s in found if s.closed_at is not None]
    if closed:
        example = settings.cmd(f"ladder board:{board} season:{closed[-1]}", localized=True)
        out.append(_("A closed season's final standings: {command}.", command=example))
    return "\n".join(out)


def season_line(season: Season) -> str:
    number = season.key.season
    if season.closed_at is None:
        return _(
            "Season {season}: open since {start}.", season=number, start=day(season.started_at)
        )
    final = json.loads(season.standings or "[]")
    fields = {
        "season": number,
        "start": day(season.started_at),
        "end": day(season.closed_at),
        "players": ngettext("{n} player", "{n} players", len(final)),
    }
    if not final:
        return _("Season {season}: {start} to {end}, {players}.", **fields)
    # every line ranked first won it: equal ratings share their rank (``results.ranks``);
    # an archive written without ranks names its first line
    top = final[0].get("rank")
    first = [line for line in final if top is not None and line.get("rank") == top]
    first = first or final[:1]
    return _(
        "Season {season}: {start} to {end}, {players}, won by {winner} ({rating}).",
        winner=listing([escape(line["name"]) for line in first], localized=True),
        rating=round(first[0]["rating"]),
        **fields,
    )


def waiting(board: str, others: int, settings: Settings) -> str:
    if others == 0:
        company = _("nobody else is waiting")
    else:
        company = ngettext("{n} other player is waiting", "{n} others are waiting", others)
    return _(
        "You are in the queue for a rated {ladder} ladder match ({company}). I pair you with "
        "the waiting player closest to your rating, within {gap} points at first and {widen} "
        "more for every hour you wait (at most {most}). If nobody fits within {hours} hours "
        "you leave the queue and I tell you. To leave it sooner: {command}.",
        ladder=ladder_name(board),
        company=company,
        gap=round(BASE_GAP),
        widen=round(WIDEN_PER_HOUR),
        most=round(MOST_GAP),
        hours=round(EXPIRE_AFTER / HOUR),
        command=settings.cmd("leave-queue", localized=True),
    )


def opening_later(board: str) -> str:
    """The reply to a player whose pairing's match could not be opened just now (a failure
    that may pass): the next tick opens it."""
    return _(
        "You are paired for a rated {ladder} ladder match, but I could not open it just now "
        "(Discord or my database did not answer). I will try again within a minute; you will "
        "both be mentioned where it opens.",
        ladder=ladder_name(board),
    )


def expired(board: str, settings: Settings) -> str:
    return _(
        "Nobody close to your rating joined the {ladder} ladder queue within {hours} hours, so "
        "you have left it. Join again whenever you like with {command}.",
        ladder=ladder_name(board),
        hours=round(EXPIRE_AFTER / HOUR),
        command=settings.cmd("queue", localized=True),
    )
