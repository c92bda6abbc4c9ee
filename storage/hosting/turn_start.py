"""What a turn's beginning reads, in one statement: the planned replies of the player whose
turn begins (``plans``), the players' times away (``away_days``: their clocks stand still
then) and the notifications of the player whose clock starts (their settings and their
server's). Three reads before, each a round trip on PostgreSQL; the branches are one
``UNION ALL`` whose rows say which branch they come from, each column of one type in
every branch (PostgreSQL types a union's columns branch by branch)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import Side

from ..backends.sql import ReadConnection
from ..players import Away

PLANS, AWAYS, OWN, GUILD = range(4)  # the branches, in the order their rows come
# The columns: the branch, a number (a plan's; an away's user), starts_at, ends_at,
# automatic, a key, a text (a plan's line; a setting's value).
_INT, _REAL, _TEXT = "CAST(NULL AS BIGINT)", "CAST(NULL AS DOUBLE PRECISION)", "CAST(NULL AS TEXT)"
_PLANS = (
    f"SELECT {PLANS}, number, {_REAL}, {_REAL}, {_INT}, {_TEXT}, line"
    " FROM plans WHERE hosted_id = ? AND side = ?"
)
_AWAYS = (
    f"SELECT {AWAYS}, user_id, starts_at, ends_at, automatic, {_TEXT}, {_TEXT}"
    " FROM away_days WHERE guild_id = ? AND user_id IN ({marks}) AND ends_at > ?"
)
_OWN = (
    f"SELECT {OWN}, {_INT}, {_REAL}, {_REAL}, {_INT}, key, value"
    " FROM player_settings WHERE user_id = ?"
)
_GUILD = (
    f"SELECT {GUILD}, {_INT}, {_REAL}, {_REAL}, {_INT}, key, value"
    " FROM guild_settings WHERE guild_id = ?"
)


@dataclass(frozen=True)
class TurnStart:
    """What ``private_turn_start`` read, as of ``since``. ``plans`` are PRIVATE to the
    planner."""

    since: float
    plans: list[str] = field(default_factory=list)
    aways: list[Away] = field(default_factory=list)
    own: dict[str, str] = field(default_factory=dict)  # the notified player's settings
    guild: dict[str, str] = field(default_factory=dict)  # their server's


async def private_turn_start(
    db: ReadConnection,
    hosted_id: int,
    guild_id: int | None,
    *,
    planner: Side | None,
    away: Sequence[int],
    since: float,
    notified: int | None,
) -> TurnStart:
    """PRIVATE to ``planner``: its planned replies in the match (none read without one),
    with the times away in ``guild_id`` of the players ``away`` that end after ``since``
    (the earliest first, each player's), and the settings of ``notified`` and of the
    server (none read without one), in one statement."""
    branches: list[str] = []
    params: list[object] = []
    if planner is not None:
        branches.append(_PLANS)
        params += [hosted_id, planner.letter]
    if away and guild_id is not None:  # a DM channel's match has no server to be away from
        branches.append(_AWAYS.format(marks=", ".join("?" for _ in away)))
        params += [guild_id, *away, since]
    if notified is not None:
        branches += [_OWN, _GUILD]
        params += [notified, guild_id]
    if not branches:
        return TurnStart(since)
    rows = await db.execute_fetchall(" UNION ALL ".join(branches) + " ORDER BY 1, 2, 3", params)
    return _split(since, guild_id, rows)


def _split(since: float, guild_id: int | None, rows: Iterable[Any]) -> TurnStart:
    """The rows back in their branches (the first column says which)."""
    plans: list[str] = []
    aways: list[Away] = []
    settings: dict[int, dict[str, str]] = {OWN: {}, GUILD: {}}
    for part, number, starts, ends, automatic, key, text in rows:
        if part == PLANS:
            plans.append(str(text))
        elif part == AWAYS:
            assert guild_id is not None  # the branch is read only with a server
            aways.append(Away(guild_id, int(number), float(starts), float(ends), bool(automatic)))
        else:
            settings[part][key] = text
    return TurnStart(since, plans, aways, settings[OWN], settings[GUILD])
