"""A player's actions from a seat (a match and a side, as a web board's private link names
them) rather than from a channel: each is the match service's command of the same name for
that player, with the turn stamp the page showed, so that a page left open on an earlier
turn is refused ("That turn has already ended") and an action taken here is an action like
any other (the turn post, the opponent's notice, the buttons of a finished turn disabled).
Each answers the player's new state (``Boards.mine``) and what the service said, in the
page's words (``page_words``); once the match has ended, the public state."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import _
from bot.service import (
    PROPOSAL_KINDS,
    MatchService,
    NotAllowed,
    Place,
    Refused,
    Reply,
    Stamp,
    User,
)
from bot.service.agreements import DECLINE
from bot.service.phases import ENDED
from rules import Side

from .board_memo import Kept
from .boards import Boards
from .page_words import page_text, said
from .planning import plan_state

VERBS = (
    "act",
    "undo",
    "end",
    "draw",
    "resign",
    "pause",
    "resume",
    "reset",
    "rewind",
    "answer",
    "setup",
)
MOST_NOTATION = 200  # characters of an action's notation (several actions: ``;`` between)
MOST_ANSWERS = 8  # setup answers in one request
MOST_ANSWER = 40  # characters of one setup answer or question name


@dataclass(frozen=True)
class Seat:
    """Who acts: the player of ``side`` in hosted match ``match``."""

    match: int
    side: Side


@dataclass(frozen=True)
class Request:
    """An action as a page sends it: the verb, the turn stamp it showed, and what the verb
    takes (``notation`` for act; ``kind`` and ``yes`` for answer; ``answers`` for setup)."""

    verb: str
    stamp: int
    notation: str = ""
    kind: str = ""
    yes: bool = False
    answers: Mapping[str, str] | None = None


class Seats:
    def __init__(self, service: MatchService, boards: Boards) -> None:
        self.service = service
        self.boards = boards

    async def act(self, seat: Seat, request: Request) -> Kept:
        """Do ``request`` for ``seat``'s player; their new state with ``said``. Refusals are
        the service's (``StaleRequest`` for a stamp of another turn), or ``Refused`` for a
        request the page should never send."""
        check(request)
        place, user = await self._player(seat)
        stamp = Stamp(seat.match, request.stamp)
        try:
            reply = await self._command(request, place, user, stamp)()
        except Refused as refusal:
            _for_the_page(refusal)
            raise
        try:
            kept = await self.boards.mine_kept(seat.match, seat.side)
        except NotAllowed:  # the action ended the match: its page is the public one now
            kept = await self.boards.public_kept(seat.match)
        return kept.adding("said", said(request.verb, reply.text, kept.state))

    async def plan(self, seat: Seat, stamp: int, request: Mapping[str, str]) -> dict[str, Any]:
        """The plan mode of ``seat``'s player (``planning.plan_state``), while their
        opponent's turn ``stamp`` runs."""
        place, user = await self._player(seat)
        try:
            return await plan_state(self.service, place, user, Stamp(seat.match, stamp), request)
        except Refused as refusal:
            _for_the_page(refusal)
            raise

    async def _player(self, seat: Seat) -> tuple[Place, User]:
        """Where ``seat``'s match is played and its player; refused once it has ended."""
        hosted = await self.service.records.hosted(seat.match)
        if hosted is None:
            raise Refused(_("There is no such match."))
        if hosted.phase == ENDED:
            raise NotAllowed(_("That match has ended, so nothing was done."))
        if hosted.challenger_id is None:
            raise NotAllowed(_("The challenge has not been accepted yet, so nothing was done."))
        user_id = hosted.player(seat.side)
        name = await self.service.records.player_name(user_id)
        return Place(hosted.guild_id, hosted.channel_id), User(user_id, name or f"player {user_id}")

    def _command(
        self, request: Request, place: Place, user: User, stamp: Stamp
    ) -> Callable[[], Awaitable[Reply]]:
        service, verb = self.service, request.verb
        if verb == "act":
            return lambda: service.play(place, user, request.notation, expect=stamp, preview=False)
        if verb == "answer":
            verb = request.kind if request.yes else DECLINE + request.kind
            return lambda: service.answer(place, user, verb, stamp)
        if verb == "setup":
            answers = request.answers or {}
            return lambda: service.setup(place, user, answers, expect=stamp)
        if verb == "undo":
            return lambda: service.undo(place, user, expect=stamp, preview=False)
        simple: dict[str, Callable[..., Awaitable[Reply]]] = {
            "end": service.end_turn,
            "draw": service.draw,
            "resign": service.resign,
            "pause": service.pause,
            "resume": service.resume,
            "reset": service.reset,
            "rewind": service.takeback,  # ask to take back the turn just ended
        }
        command = simple[verb]
        return lambda: command(place, user, expect=stamp)


def _for_the_page(refusal: Refused) -> None:
    """A refusal worded for the page, as its answers are."""
    refusal.message = page_text(refusal.message)
    refusal.args = (refusal.message,)


def check(request: Request) -> None:
    """Refuse what no page sends: an unknown verb, a notation too long, answers to no
    proposal, too many or too long setup answers (in the player's language, as every
    refusal)."""
    if request.verb not in VERBS:
        raise Refused(
            _(
                "There is no action {verb}; the actions are {verbs}.",
                verb=repr(request.verb[:20]),
                verbs=", ".join(VERBS),
            )
        )
    if request.verb == "act" and not 0 < len(request.notation) <= MOST_NOTATION:
        raise Refused(_("An action's notation is 1 to {most} characters.", most=MOST_NOTATION))
    if request.verb == "answer" and request.kind not in PROPOSAL_KINDS:
        kinds, last = ", ".join(PROPOSAL_KINDS[:-1]), PROPOSAL_KINDS[-1]
        raise Refused(_("An answer is to a proposal: {kinds} or {last}.", kinds=kinds, last=last))
    if request.verb == "setup":
        answers = request.answers or {}
        if not 0 < len(answers) <= MOST_ANSWERS:
            raise Refused(_("A setup sends 1 to {most} answers.", most=MOST_ANSWERS))
        if any(len(k) > MOST_ANSWER or len(v) > MOST_ANSWER for k, v in answers.items()):
            raise Refused(
                _(
                    "A setup answer and its question's name are at most {most} characters.",
                    most=MOST_ANSWER,
                )
            )
