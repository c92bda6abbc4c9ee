"""What the ladder desk says: profiles, head-to-head records, seasons and the queue, as
plain text for the front end to show. Matches are named with the command that shows their
record (``/tora record number:<id>``), which a front end can offer as is."""

from __future__ import annotations

import json
import time

from bot.service import Settings
from bot.service.texts import escape
from storage.competitions.ladders import Season

from .boards import BoardProfile, HeadToHead, Line, Recent
from .queue import BASE_GAP, EXPIRE_AFTER, HOUR, MOST_GAP, WIDEN_PER_HOUR
from .results import ladder_name, ladder_title

RESULT_WORDS = {1.0: "won against", 0.5: "drew with", 0.0: "lost to"}


def day(at: float) -> str:
    """A date as players read it (UTC): 2027-01-15."""
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def record_hint(settings: Settings, match_id: int) -> str:
    return settings.cmd(f"record number:{match_id}")


def rating(line: Line) -> str:
    mark = "?" if line.provisional else ""
    return f"{line.rating:.0f}{mark} ± {line.deviation:.0f}"


def streak(count: int) -> str:
    if count > 0:
        return f"won the last {count}" if count > 1 else "won the last game"
    if count < 0:
        return f"lost the last {-count}" if count < -1 else "lost the last game"
    return "no streak"


def board_profile(profile: BoardProfile, settings: Settings) -> list[str]:
    head = f"{ladder_title(profile.board)} ladder, season {profile.season}:"
    line = profile.line
    if line is None:
        out = [f"{head} no rated games this season."]
    else:
        out = [
            f"{head} rating {rating(line)}, rank {line.rank} of {profile.players}; "
            f"{line.wins} won, {line.losses} lost, {line.draws} drawn; {streak(line.streak)}."
        ]
    out.extend(f"- {recent(r, settings)}" for r in profile.recent)
    return out


def recent(result: Recent, settings: Settings) -> str:
    text = f"{day(result.played_at)} {RESULT_WORDS[result.score]} {escape(result.opponent)}"
    removed = " (removed from the ladder)" if result.removed else ""
    return f"{text}{removed}: {record_hint(settings, result.match_id)}"


def head_to_head(record: HeadToHead, names: dict[int, str], settings: Settings) -> str:
    first, second = escape(names[record.first_id]), escape(names[record.second_id])
    where = f"the {ladder_name(record.key.board)} ladder, season {record.key.season}"
    if not record.matches:
        return f"{first} and {second} have no counted results against each other on {where}."
    out = [
        f"{first} against {second} on {where}: {first} won {record.first_wins}, "
        f"{second} won {record.second_wins}, {record.draws} drawn."
    ]
    out.extend(f"- {record_hint(settings, match_id)}" for match_id in record.matches[:10])
    return "\n".join(out)


def seasons(board: str, found: list[Season], settings: Settings) -> str:
    out = [f"Seasons of the {ladder_name(board)} ladder:"]
    for season in found:
        number = season.key.season
        if season.closed_at is None:
            out.append(f"- Season {number}: open since {day(season.started_at)}.")
            continue
        final = json.loads(season.standings or "[]")
        winner = final[0] if final else None
        best = f", won by {escape(winner['name'])} ({winner['rating']:.0f})" if winner else ""
        out.append(
            f"- Season {number}: {day(season.started_at)} to {day(season.closed_at)}, "
            f"{len(final)} players{best}."
        )
    closed = [s.key.season for s in found if s.closed_at is not None]
    if closed:
        example = settings.cmd(f"ladder board:{board} season:{closed[-1]}")
        out.append(f"A closed season's final standings: {example}.")
    return "\n".join(out)


def waiting(board: str, others: int, settings: Settings) -> str:
    company = {0: "nobody else is", 1: "1 other player is"}.get(others, f"{others} others are")
    return (
        f"You are in the queue for a rated {ladder_name(board)} ladder match ({company} waiting). "
        f"I pair you with the waiting player closest to your rating, within {BASE_GAP:.0f} "
        f"points at first and {WIDEN_PER_HOUR:.0f} more for every hour you wait (at most "
        f"{MOST_GAP:.0f}). If nobody fits within {EXPIRE_AFTER / HOUR:.0f} hours you leave "
        f"the queue and I tell you. To leave it sooner: {settings.cmd('leave-queue')}."
    )


def expired(board: str, settings: Settings) -> str:
    return (
        f"Nobody close to your rating joined the {ladder_name(board)} ladder queue within "
        f"{EXPIRE_AFTER / HOUR:.0f} hours, so you have left it. Join again whenever you like "
        f"with {settings.cmd('queue')}."
    )
