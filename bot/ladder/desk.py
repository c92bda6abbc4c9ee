"""The ladder's front desk: what a front end calls for the ladder commands (leaderboards,
profiles, head-to-head, the matchmaking queue, seasons, and the admins' season close and
result removal). Every method returns a ``bot.service.Reply`` (text, and PNG images as
attachments) or raises ``LadderRefused`` (a ``Refused``) with a message for the user who
asked. Reads are public replies (``private=False``); the queue and removals are private.

Queue rule beyond the matchmaking's own: a player who is playing a rated match that counts
on a ladder in a server (in its setup or under way) cannot queue for that ladder there until
it ends, so that they are paired on a rating that is not about to move and play one match
per ladder at a time. Casual matches, other ladders and rated matches against the AI (they
count on the AI ladder, ``queue.rated_on``) do not stop them. A queued player
who begins such a match meanwhile (a rated challenge) stays queued but is not paired until
it has ended (the pairing's transaction looks, ``queue.pairs``): they are not dropped,
since the queue's own expiry tells them when they have waited too long. Only a match begun
in the moment between a pairing's transaction and the opening of its match escapes it."""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Iterator

from bot.i18n import _, current, ngettext
from bot.i18n.words import Language
from bot.service import (
    Attachment,
    Clock,
    MatchService,
    NotAllowed,
    Place,
    Refused,
    Reply,
    Settings,
    SystemClock,
    Terms,
    Threads,
    User,
)
from bot.service.models import is_robot
from bot.service.setup_phase import asks_setup
from bot.service.texts import escape
from render import ChartPoint, rating_chart_png
from storage import Store

from . import texts
from .boards import PROVISIONAL_NOTE, BoardProfile, Boards
from .errors import LadderError
from .opening import Opened, Opener, Unopened
from .queue import PLAYED, Matchmaking, rated_on
from .results import Results, check_board, ladder_name


class LadderRefused(Refused):
    """A ladder request turned down: the message says what was wrong and what is allowed."""


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """The ladder's own errors, as the service's refusals."""
    try:
        yield
    except LadderError as exc:
        raise LadderRefused(str(exc)) from None


class LadderDesk:
    def __init__(
        self,
        service: MatchService,
        store: Store,
        threads: Threads,
        *,
        clock: Clock | None = None,
        settings: Settings | None = None,
        rng: random.Random | None = None,
    ) -> None:
        clock = clock or SystemClock()
        self._service = service
        self._store = store
        self._settings = settings or Settings()
        self._results = Results(store, clock.now)
        self._boards = Boards(store, clock.now)
        self._queue = Matchmaking(store, clock.now)
        self._opener = Opener(
            service, store, threads, clock.now, self._settings, rng or random.Random()
        )

    # ---- reads -------------------------------------------------------------------------------
    async def leaderboard(
        self, guild_id: int, board: str = "short", page: int = 1, season: int | None = None
    ) -> Reply:
        """A page (10 players) of the open season's leaderboard, or of a closed season's
        final standings: text, and the same as an image (``ladder.png``)."""
        with refusals():
            found = await self._boards.page(guild_id, board, page, season)
            closed = (await self._boards.season(guild_id, board, found.key.season)).closed_at
        text = found.text()
        if closed is not None:
            ended = _("Final standings: this season closed on {day}.", day=texts.day(closed))
            text += "\n" + ended
        image = await self._service.paint(found.drawing())
        return Reply(text, (Attachment("ladder.png", image),), private=False)

    async def profile(
        self, guild_id: int, player_id: int, board: str | None = None, name: str | None = None
    ) -> Reply:
        """A player's rating (with its history as a chart per board), record, streak and
        recent matches on this server's ladders: every ladder, or ``board``. ``name``, when
        the caller knows it, names one who never played."""
        with refusals():
            if board is not None:
                check_board(board)
            found = await self._boards.profile(guild_id, player_id, name)
        boards = [b for b in found.boards if board in (None, b.board)]
        if not any(b.line or b.recent for b in boards):
            raise LadderRefused(self._no_games(escape(found.name), board))
        lines = [_("{player} on the ladders:", player=escape(found.name))]
        for one in boards:
            lines.extend(texts.board_profile(one, self._settings))
        if any(b.line and b.line.provisional for b in boards):
            lines.append(_(PROVISIONAL_NOTE))
        charts = [await self._chart(found.name, b) for b in boards if b.history]
        return Reply("\n".join(lines), tuple(charts), private=False)

    def _no_games(self, player: str, board: str | None) -> str:
        command = self._settings.cmd("queue", localized=True)
        if board is None:
            return _(
                "{player} has no rated games on this server's ladders yet. Rated matches count "
                "once they finish; anyone can find one with {command}.",
                player=player,
                command=command,
            )
        return _(
            "{player} has no rated games on the {ladder} ladder here yet. Rated matches count "
            "once they finish; anyone can find one with {command}.",
            player=player,
            ladder=ladder_name(board),
            command=command,
        )

    async def _chart(self, name: str, profile: BoardProfile) -> Attachment:
        points = [ChartPoint(p.rating, p.deviation) for p in profile.history]
        title = _(
            "{player} - {ladder} ladder, season {season}",
            player=name,
            ladder=ladder_name(profile.board),
            season=profile.season,
        )
        data = await self._service.paint(
            functools.partial(rating_chart_png, points, title, Language(current()))
        )
        return Attachment(f"rating-{profile.board}.png", data)

    async def head_to_head(self, guild_id: int, a: int, b: int, board: str = "short") -> Reply:
        """The counted results between players ``a`` and ``b`` in the open season."""
        if a == b:
            raise LadderRefused(_("Name two different players to compare."))
        with refusals():
            record = await self._boards.head_to_head(guild_id, board, a, b)
        names = await self._store.ladders.names((a, b))
        names = {i: names.get(i, _("player {id}", id=i)) for i in (a, b)}
        return Reply(texts.head_to_head(record, names, self._settings), private=False)

    async def seasons(self, guild_id: int, board: str = "short") -> Reply:
        """The ladder's seasons: when each ran, and who won the closed ones."""
        with refusals():
            check_board(board)
        found = await self._store.ladders.seasons(guild_id, board)
        if not found:
            raise LadderRefused(
                _(
                    "The {ladder} ladder of this server has had no rated games yet.",
                    ladder=ladder_name(board),
                )
            )
        return Reply(texts.seasons(board, found, self._settings), private=False)

    # ---- the queue ---------------------------------------------------------------------------
    async def join_queue(self, place: Place, user: User, board: str = "short") -> Reply:
        """Wait for a rated match on ``board``; pairs made now are opened at once (in a
        thread of the ladder channel), the user's own too."""
        self._service.pace(user)
        with refusals():
            check_board(board)
        await self._refuse_if_playing(place.guild_id, user, board)
        await self._store.save_player(user.id, user.name)
        with refusals():
            pairs = await self._queue.join(place.guild_id, board, user.id, place.channel_id)
        paired, mine, done = False, None, []
        for pairing in pairs:
            own = user.id in (pairing.first_id, pairing.second_id)
            opened = await self._opener.open(pairing, user.id if own else None)
            if isinstance(opened, Opened):
                done.append(opened)
            if own:
                paired, mine = True, opened
        await self._opener.point(done)
        if not paired:
            others = len(await self._queue.waiting(place.guild_id, board)) - 1
            return Reply(texts.waiting(board, others, self._settings))
        if mine is None:  # left for the next tick
            return Reply(texts.opening_later(board))
        if isinstance(mine, Unopened):
            raise LadderRefused(mine.texts[user.id])
        return Reply(self._paired_text(mine, user))

    def _paired_text(self, opened: Opened, user: User) -> str:
        if opened.challenger.id == user.id:
            them, role = opened.opposition, _("the Challenger (you move first)")
        else:
            them, role = opened.challenger, _("the Opposition")
        board = opened.pairing.board
        then = (
            _("choose your setup from the private message I have sent you.")
            if asks_setup(Terms.for_ladder(board))
            else _("the game has begun.")
        )
        if opened.thread_name is None:
            channel = f"<#{opened.thread_id}>"
            return _(
                "You are paired with {opponent} for a rated {ladder} ladder match, in {channel} "
                "(Discord would not open a thread for it). You play {role}; {then}",
                opponent=escape(them.name),
                ladder=ladder_name(board),
                channel=channel,
                role=role,
                then=then,
            )
        return _(
            "You are paired with {opponent} for a rated {ladder} ladder match, in the new thread "
            '"{thread}". You play {role}; {then}',
            opponent=escape(them.name),
            ladder=ladder_name(board),
            thread=escape(opened.thread_name),
            role=role,
            then=then,
        )

    async def _refuse_if_playing(self, guild_id: int, user: User, board: str) -> None:
        for hosted in await self._service.matches_of(user.id):
            against_ai = is_robot(hosted.challenger_id) or is_robot(hosted.opposition_id)
            if (
                hosted.guild_id == guild_id
                and hosted.phase in PLAYED
                and rated_on(hosted.terms, against_ai, board)
            ):
                raise LadderRefused(
                    _(
                        "You are playing a rated {ladder} ladder match here already; finish it "
                        "before you queue for another. You may queue for another ladder, or play "
                        "casual matches meanwhile.",
                        ladder=ladder_name(board),
                    )
                )

    async def leave_queue(self, guild_id: int, user: User, board: str | None = None) -> Reply:
        """Stop waiting on ``board``, or on every ladder the user waits for (None)."""
        self._service.pace(user)
        with refusals():
            left = await self._queue.leave(guild_id, board, user.id)
        return Reply(
            ngettext(
                "You have left the {ladders} ladder queue. Join again with {command}.",
                "You have left the {n} ladder queues ({ladders}). Join again with {command}.",
                len(left),
                ladders=", ".join(ladder_name(b) for b in left),
                command=self._settings.cmd("queue", localized=True),
            )
        )

    # ---- admins ------------------------------------------------------------------------------
    async def close_season(self, guild_id: int, board: str, by: User, admin: bool) -> Reply:
        """Close the open season (its standings are archived as they are now) and start the
        next with fresh ratings. ``admin`` is the front end's judgement of ``by``."""
        if not admin:
            raise NotAllowed(_("Only server admins can close a ladder season."))
        with refusals():
            check_board(board)
            if not await self._store.ladders.seasons(guild_id, board):
                raise LadderRefused(
                    _(
                        "The {ladder} ladder has had no rated games yet, so there is no season "
                        "to close.",
                        ladder=ladder_name(board),
                    )
                )
            started = await self._results.close_season(guild_id, board, by.id)
        closed = started.key.season - 1
        return Reply(
            _(
                "{admin} closed season {season} of the {ladder} ladder; its final standings are "
                "kept ({command}). Season {next} starts now, with fresh ratings for everyone.",
                admin=escape(by.name),
                season=closed,
                ladder=ladder_name(board),
                command=self._settings.cmd(f"ladder board:{board} season:{closed}", localized=True),
                next=started.key.season,
            ),
            private=False,
        )

    async def remove_result(
        self, guild_id: int, match_id: int, by: User, reason: str, admin: bool
    ) -> Reply:
        """Take a match's result off the ladder with a reason (kept with who and when); the
        season's ratings are recomputed without it."""
        if not admin:
            raise NotAllowed(_("Only server admins can remove a result from the ladder."))
        with refusals():
            counted = await self._results.remove_result(guild_id, match_id, by.id, reason)
        return Reply(
            ngettext(
                "The result of match {match} is off the ladder, with your reason logged. The "
                "season's ratings were recomputed from the {n} result that still counts.",
                "The result of match {match} is off the ladder, with your reason logged. The "
                "season's ratings were recomputed from the {n} results that still count.",
                counted,
                match=match_id,
            )
        )
