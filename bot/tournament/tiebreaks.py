"""Standings with tiebreaks, in the order the organiser chose.

Definitions (after FIDE's tiebreak regulations, C.07):

- **Buchholz**: the sum of the opponents' scores. A round without a game over the board (a
  bye, a forfeit, an absence) counts as a game against a virtual opponent with the player's
  own score, so nobody gains or loses by an opponent who never came; so does a game against
  someone outside the standings (the AI filling an odd slot).
- **Buchholz cut 1**: Buchholz without its lowest single contribution.
- **Sonneborn-Berger**: per round, the points the player scored times that opponent's
  score (the virtual opponent as above for unplayed rounds).
- **Direct encounter**: among the players still tied on everything before it, the points
  each scored against the others, if every one of them has met every other (otherwise it
  separates nobody).
- **Wins**: games won, forfeit wins included, byes not.

Scores are half points (``records``); tiebreak values are exact fractions of a point.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from bot.i18n import _, pgettext

from .records import STANDARD_POINTS, History, Outcome, PointsTable, RoundRecord, score


class Tiebreak(Enum):
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT1 = "buchholz-cut1"
    SONNEBORN_BERGER = "sonneborn-berger"
    DIRECT_ENCOUNTER = "direct-encounter"
    WINS = "wins"

    @property
    def label(self) -> str:
        """The short column heading of a standings table, in the current language."""
        labels = {
            Tiebreak.BUCHHOLZ: pgettext("tiebreak column", "Buch"),
            Tiebreak.BUCHHOLZ_CUT1: pgettext("tiebreak column", "BuchC1"),
            Tiebreak.SONNEBORN_BERGER: pgettext("tiebreak column", "SB"),
            Tiebreak.DIRECT_ENCOUNTER: pgettext("tiebreak column", "DE"),
            Tiebreak.WINS: pgettext("tiebreak column", "Wins"),
        }
        return labels[self]


SWISS_ORDER = (
    Tiebreak.BUCHHOLZ_CUT1,
    Tiebreak.BUCHHOLZ,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.WINS,
)
ROUND_ROBIN_ORDER = (Tiebreak.DIRECT_ENCOUNTER, Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS)


def parse_order(text: str) -> tuple[Tiebreak, ...]:
    """``"buchholz, wins"`` -> the tiebreaks in that order; each at most once."""
    allowed = ", ".join(t.value for t in Tiebreak)
    names = [part.strip().lower() for part in text[:200].split(",") if part.strip()]
    if len(names) > len(Tiebreak):
        raise ValueError(
            _("at most {most} tiebreaks; allowed: {allowed}", most=len(Tiebreak), allowed=allowed)
        )
    order = []
    for name in names:
        try:
            order.append(Tiebreak(name))
        except ValueError:
            raise ValueError(
                _(
                    "unknown tiebreak {name}; allowed: {allowed}",
                    name=repr(name[:30]),
                    allowed=allowed,
                )
            ) from None
    if len(set(order)) != len(order):
        raise ValueError(_("name each tiebreak at most once; allowed: {allowed}", allowed=allowed))
    return tuple(order)


@dataclass(frozen=True)
class Standing:
    """A player's line: ``rank`` is shared by players equal on score and every tiebreak."""

    rank: int
    player_id: int
    score: int  # half points
    tiebreaks: tuple[Fraction, ...]


def standings(
    players: Iterable[int],
    history: History,
    order: Sequence[Tiebreak],
    table: PointsTable = STANDARD_POINTS,
) -> list[Standing]:
    """Everybody in ``players`` ranked by score, then by the tiebreaks in ``order``."""
    ids = list(players)
    scores = {p: score(history.get(p, ()), table) for p in ids}
    values: dict[int, list[Fraction]] = {p: [] for p in ids}
    for tiebreak in order:
        if tiebreak is Tiebreak.DIRECT_ENCOUNTER:
            found = _direct_encounter(ids, scores, values, history, table)
        else:
            found = {p: _single(tiebreak, history.get(p, ()), scores, p, table) for p in ids}
        for p in ids:
            values[p].append(found[p])
    ranked = sorted(ids, key=lambda p: (-scores[p], [-v for v in values[p]], p))
    lines: list[Standing] = []
    for position, p in enumerate(ranked, start=1):
        key = (scores[p], values[p])
        tied = lines and (lines[-1].score, list(lines[-1].tiebreaks)) == key
        rank = lines[-1].rank if tied else position
        lines.append(Standing(rank, p, scores[p], tuple(values[p])))
    return lines


def _single(
    tiebreak: Tiebreak,
    records: Sequence[RoundRecord],
    scores: dict[int, int],
    player: int,
    table: PointsTable,
) -> Fraction:
    if tiebreak is Tiebreak.WINS:
        return Fraction(sum(r.outcome in (Outcome.WIN, Outcome.FORFEIT_WIN) for r in records))
    own = scores[player]
    opponents = [
        scores.get(r.opponent, own) if r.outcome.played and r.opponent is not None else own
        for r in records
    ]
    if tiebreak is Tiebreak.SONNEBORN_BERGER:
        total = sum(table.worth(r.outcome) * o for r, o in zip(records, opponents, strict=True))
        return Fraction(total, 4)
    if tiebreak is Tiebreak.BUCHHOLZ_CUT1 and opponents:
        return Fraction(sum(opponents) - min(opponents), 2)
    return Fraction(sum(opponents), 2)


def _direct_encounter(
    ids: list[int],
    scores: dict[int, int],
    values: dict[int, list[Fraction]],
    history: History,
    table: PointsTable,
) -> dict[int, Fraction]:
    groups: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for p in ids:
        groups[(scores[p], *values[p])].append(p)
    found = {p: Fraction(0) for p in ids}
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        met: dict[int, set[int]] = {p: set() for p in group}
        points: dict[int, int] = dict.fromkeys(group, 0)
        for p in group:
            for r in history.get(p, ()):
                if r.opponent in members and r.outcome is not Outcome.ABSENT:
                    met[p].add(r.opponent)
                    points[p] += table.worth(r.outcome)
        if all(len(met[p]) == len(group) - 1 for p in group):
            for p in group:
                found[p] = Fraction(points[p], 2)
    return found


def fraction_text(value: Fraction) -> str:
    """A tiebreak value as players read it: ``7``, ``7½``, ``6.25``."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        whole = value.numerator // 2
        return f"{whole}½" if whole else "½"
    return f"{float(value):g}"
