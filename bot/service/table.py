"""A hosted match as the service holds it in memory: its row, terms, players' names and,
once the game has started, the judge's copy of the match."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_, SOURCE, _, current, slash, speaking
from rules import GameState, Side
from storage import Hosted, Match

from . import timing
from .errors import NotAllowed
from .models import User, is_robot
from .phases import ENDED
from .ports import Stamp, Status
from .terms import Terms
from .texts import TITLES, duration, escape

MEMOS = 4  # game states whose memo a table keeps
DRAW, RESET, PAUSE, REWIND = "draw", "reset", "pause", "rewind"
OFFERS = {  # each standing proposal, as the answers name it ("That {offer} is yours")
    DRAW: N_("draw offer"),
    RESET: N_("reset proposal"),
    PAUSE: N_("pause proposal"),
    REWIND: N_("takeback request"),  # a finished turn taken back (casual matches)
}
# The offers JSON's entry of the proposals declined or taken back in the running turn (the
# turn and takebacks it was at, and each kind's proposers' letters): none is made again in
# that turn, since each would ping the opponent again.
SPENT = "spent"
# the headline of a called-off match's pictures (``Table.called_off``), in place of who acts
CALLED_OFF = N_("The match ended without a result")


@dataclass
class Table:
    hosted: Hosted
    terms: Terms
    names: dict[int, str] = field(default_factory=dict)
    match: Match | None = None
    # what was worked out for the last few states of the game (menus, actions, warnings),
    # by the game's key; and the version and staged count the present one was found for
    _memos: OrderedDict[object, dict[str, Any]] = field(default_factory=OrderedDict)
    _present: tuple[object, dict[str, Any]] = (None, {})
    # the turn each player last looked at their board in (no reminder after: ``play``)
    looked: dict[int, int] = field(default_factory=dict)

    @property
    def played(self) -> Match:
        """The match, once its game has started."""
        if self.match is None:
            raise RuntimeError(f"hosted match {self.hosted.id} has no game yet")
        return self.match

    @property
    def game(self) -> GameState:
        return self.played.game

    @property
    def versions(self) -> tuple[int, int | None]:
        """The versions of the hosted match and of its game this copy is at (as stored)."""
        return (self.hosted.version, None if self.match is None else self.match.version)

    @property
    def turn(self) -> int:
        """The public number of the running turn: finished turns plus one while the game is
        played (a series counts on across its games), 0 before it starts."""
        return 0 if self.match is None else len(self.game.turns) + 1

    def memo(self) -> dict[str, Any]:
        """A scratch dict for the game's present state, for what follows from that state
        alone (its legal actions, menus, warnings). The last ``MEMOS`` states' are kept by
        the game's key (equal keys, equal games), so that an action taken back finds its
        state's dict again; the key is worked out only when a save or a staged action may
        have changed the state."""
        quick = (self.hosted.version, None if self.match is None else len(self.game.staged()))
        if self._present[0] == quick:
            return self._present[1]
        key = ("before", self.hosted.version) if self.match is None else self.game.key()
        found = self._memos.pop(key, None)
        found = {} if found is None else found
        self._memos[key] = found
        while len(self._memos) > MEMOS:
            self._memos.popitem(last=False)
        self._present = (quick, found)
        return found

    @property
    def practice(self) -> bool:
        """An unrated match against an AI player that a player challenged it to: hints are
        given there, never in rated games, a competition's games (where the AI may fill an
        odd round) or between people."""
        hosted = self.hosted
        players = (hosted.challenger_id, hosted.opposition_id)
        return self.terms.casual and any(is_robot(user_id) for user_id in players)

    @property
    def stamp(self) -> Stamp:
        return Stamp(self.hosted.id, self.turn, self.rewinds)

    @property
    def rewinds(self) -> int:
        """How many finished turns have been taken back (public: each is announced)."""
        return 0 if self.match is None else self.match.rewinds

    @property
    def channel_id(self) -> int:
        return self.hosted.channel_id

    def name(self, user_id: int) -> str:
        """The user's name for a message: escaped, so it shows as written and pings nobody."""
        return escape(self.raw_name(user_id))

    def raw_name(self, user_id: int) -> str:
        """The name as its owner wrote it: for images and thread names, not for messages."""
        return self.names.get(user_id, f"player {user_id}")

    def side_name(self, side: Side) -> str:
        return self.name(self.hosted.player(side))

    def who(self, side: Side) -> str:
        """``ann (Challenger)``."""
        return f"{self.side_name(side)} ({TITLES[side]})"

    # ---- proposals (draw, reset, pause, takeback), each by one side at a time -------------
    def offers(self) -> dict[str, Side]:
        """The proposals standing, by kind: who made each."""
        stored = json.loads(self.hosted.offers)
        return {kind: Side.from_letter(by) for kind, by in stored.items() if kind != SPENT}

    def spent(self) -> set[tuple[str, Side]]:
        """The proposals (kind, proposer) declined or taken back in the running turn: not
        made again before it ends. A mark of an earlier turn (or of a turn since taken back)
        counts for nothing."""
        marks = json.loads(self.hosted.offers).get(SPENT)
        if marks is None or marks["at"] != [self.turn, self.rewinds]:
            return set()
        return {(kind, Side.from_letter(by)) for kind, bys in marks["by"].items() for by in bys}

    def may_propose(self, kind: str, side: Side) -> bool:
        """Whether ``side`` may make a proposal of ``kind`` now: none of theirs stands or
        was declined or taken back in the running turn."""
        return kind not in self.offers() and (kind, side) not in self.spent()

    def encode_offers(self, offers: dict[str, Side], spent: Iterable[tuple[str, Side]] = ()) -> str:
        """The offers JSON: the proposals standing (``offers``), and the running turn's
        declined or taken back (``spent``), added to the ones marked in it so far."""
        stored: dict[str, Any] = {kind: side.letter for kind, side in sorted(offers.items())}
        bys: dict[str, str] = {}
        for kind, side in sorted(self.spent() | set(spent)):
            bys[kind] = bys.get(kind, "") + side.letter
        if bys:
            stored[SPENT] = {"at": [self.turn, self.rewinds], "by": bys}
        return json.dumps(stored)

    # ---- the clock -------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return self.hosted.paused_left is not None

    def deadline_text(self, now: float, localized: bool = False) -> str:
        """For board images: how long the running turn has left (on a bank or increment
        clock, and the waiting player's time); in English unless ``localized`` (then in the
        current language: the image's, ``Context.board_file``)."""
        with speaking(current() if localized else SOURCE):
            return self._deadline_text(now)

    def _deadline_text(self, now: float) -> str:
        hosted = self.hosted
        if hosted.paused_left is not None:
            text = _("paused, {time} left", time=duration(hosted.paused_left, True))
        elif hosted.due_at is None:
            return ""
        else:
            text = _("due in {time}", time=duration(hosted.due_at - now, True))
        if self.match is None or hosted.clocks is None:
            return text
        waiting = self.game.side.other
        time = timing.left(self.terms, hosted, waiting, self.game.side, now)
        if time is None:
            return text
        name = self.raw_name(hosted.player(waiting))
        return f"{text} \u00b7 {name} {duration(time, True)}"

    @property
    def called_off(self) -> bool:
        """Whether the match ended with its game unfinished (aborted, cancelled), so with no
        outcome: its pictures, the channel's and the web board's, say so (``CALLED_OFF``)."""
        return self.hosted.phase == ENDED and self.match is not None and not self.game.is_over()

    def status(self, now: float, localized: bool = False) -> Status:
        """What an image shows beside the view (the deadline and the headline in the current
        language if ``localized``, as ``deadline_text``): a match called off says so in
        place of who is to act."""
        hosted = self.hosted
        over = self.match is not None and self.game.is_over()
        called_off = self.called_off
        with speaking(current() if localized else SOURCE):
            headline = _(CALLED_OFF) if called_off else ""
        return Status(
            self.raw_name(hosted.player(Side.CHALLENGER)),
            self.raw_name(hosted.player(Side.OPPOSITION)),
            "" if over or called_off else self.deadline_text(now, localized),
            headline,
        )


def player_side(table: Table, user: User) -> Side:
    """The side ``user`` plays; NotAllowed for anyone else."""
    side = table.hosted.side_of(user.id)
    if side is None:
        raise NotAllowed(
            _(
                "Only {challenger} and {opposition} play in this match; you are welcome to "
                "watch. {board} shows its board.",
                challenger=table.who(Side.CHALLENGER),
                opposition=table.who(Side.OPPOSITION),
                board=slash("tora board"),
            )
        )
    return side
