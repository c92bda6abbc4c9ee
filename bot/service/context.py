"""What every flow of the service works with: the store, the renderer, the clock, the
settings, and the one way to commit a change together with the posts announcing it."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.i18n import SOURCE, current, speaking
from rules import GameView, Side
from storage import Away, Hosted, Post, SetupChoice, Store, TurnStart

from . import timing
from .languages import KeptLanguages
from .models import is_robot
from .notify import Notify, notify_from, notify_of
from .offload import Offload
from .outbox import encode_buttons
from .phases import ENDED
from .ports import Attachment, Clock, Pointing, Renderer, Status
from .stops import Interval, away_users, merged, run_until, stops_by_side, stops_of
from .table import Table
from .terms import Settings, Terms


class Mail:
    """The posts and private messages one change sends, queued in the outbox with it."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        self.posts: list[Post] = []

    def public(
        self,
        text: str,
        *files: Attachment,
        mentions: tuple[int, ...] = (),
        buttons: tuple[str, ...] = (),
        turn: int = 0,
        notice: str = "",
        language: str = SOURCE,
        back: int | None = None,
    ) -> None:
        """A post in the channel; ``buttons`` (verbs) for the match's turn ``turn``, with
        ``back`` turns taken back before it (``Stamp.back``: a button from before a takeback
        is stale on the turn played again; None: not compared). AI
        players are never mentioned; ``notice`` says what the post is about (``notify``:
        its mentions go to those who want them); ``language``: the one ``text`` is written
        in (its buttons are labelled in it)."""
        coded = encode_buttons(buttons, turn, notice, language, back)
        people = tuple(user_id for user_id in mentions if not is_robot(user_id))
        self.posts.append(Post(self.channel_id, text, None, people, _pairs(files), coded))

    def private(
        self,
        user_id: int,
        text: str,
        *files: Attachment,
        buttons: tuple[str, ...] = (),
        turn: int = 0,
        notice: str = "",
        language: str = SOURCE,
        back: int | None = None,
    ) -> None:
        """A private message to ``user_id``; none to an AI player (it reads the game).
        ``notice``: what it is about (``notify``: the player may not want it, or not now);
        ``language`` and ``back`` as for ``public``."""
        if is_robot(user_id):
            return
        coded = encode_buttons(buttons, turn, notice, language, back)
        self.posts.append(Post(self.channel_id, text, user_id, (), _pairs(files), coded))


def timed(hosted: Hosted) -> tuple[float | None, float | None, str]:
    """What the timers read of a hosted match (``storage.hosting.claims``): a change that
    leaves it as it was (a staged action) has no timer to wake."""
    return hosted.due_at, hosted.remind_at, hosted.phase


def soonest(hosted: Hosted) -> float:
    """The soonest clock of a hosted match that the timers read (``timed``; inf: none)."""
    if hosted.phase == ENDED:
        return math.inf
    return min((at for at in (hosted.due_at, hosted.remind_at) if at is not None), default=math.inf)


def _pairs(files: tuple[Attachment, ...]) -> tuple[tuple[str, bytes], ...]:
    return tuple((file.name, file.data) for file in files)


@dataclass
class Context:
    store: Store
    renderer: Renderer
    clock: Clock
    settings: Settings
    rng: random.Random  # public draws: who challenges, the AI's search seeds
    # after a commit: wakes the deliverer's workers of the posts it queued (the first
    # argument), and the timers unless told that none changed (the second) or that the
    # soonest clock it set (the third, ``soonest``) comes after the one they wait for
    changed: Callable[[Sequence[Post], bool, float], None]
    offload: Offload
    languages: KeptLanguages  # the players' and servers' languages, kept (``Records``'s too)
    touched: Callable[[int], None] = lambda hosted_id: None  # a hosted match's state was saved
    ended: list[Hosted] = field(default_factory=list)  # ended, not yet told to on_ended's listeners
    # whether an automatic away day may have been given whose player's other matches have
    # yet to stand still through it (``Absences``, which reads them from the store: a day
    # given before a crash too, so True at start)
    unmoved: bool = True
    # hidden draws (an AI's secret setup), apart from ``rng``: they take as many values as
    # what they choose needs, which would otherwise shift every public draw after them
    hidden: random.Random = field(kw_only=True)

    def now(self) -> float:
        return self.clock.now()

    def cmd(self, name: str, localized: bool = False) -> str:
        return self.settings.cmd(name, localized)

    async def server_language(self, guild_id: int | None) -> str:
        """The language of a public post in ``guild_id`` (English in a DM channel: None)."""
        return await self.languages.server(guild_id)

    async def player_language(self, user_id: int) -> str:
        """The language of a DM to ``user_id``."""
        return await self.languages.player(user_id)

    # ---- images (drawn off the event loop, ``offload.draw``) ----------------------------------
    async def board_file(
        self,
        view: GameView,
        beside: Status | Table,
        name: str = "board.png",
        *,
        guild: int | None,
        language: str | None = None,
    ) -> Attachment:
        """The public board: ``view`` must be a spectator's (``view_for(None)``), its words
        in the language of the server ``guild`` (English in a DM channel: None), or in
        ``language`` where the caller has read it already. ``beside`` is the status shown
        with it, or the table whose status it is (made in that language, the deadline too)."""
        if language is None:
            language = await self.server_language(guild)
        status = self._status(beside, language)
        return Attachment(name, await self.offload.draw("board", view, status, language))

    async def private_file(
        self,
        view: GameView,
        beside: Status | Table,
        name: str = "your-board.png",
        marks: Pointing | None = None,
        *,
        reader: int | None = None,
        language: str | None = None,
    ) -> Attachment:
        """A player's own board, pointing out ``marks``: only ever sent to that player, in
        their language: ``language`` where the caller has read it already, else ``reader``'s
        for a DM the service sends, else the language of the answer being made
        (``bot.i18n.current``: the caller's own); ``beside`` as for ``board_file``."""
        if language is None:
            language = current() if reader is None else await self.player_language(reader)
        status = self._status(beside, language)
        data = await self.offload.draw("private", view, status, marks, language)
        return Attachment(name, data)

    def _status(self, beside: Status | Table, language: str) -> Status:
        """The status beside an image: a table's, made now in the image's language."""
        if isinstance(beside, Status):
            return beside
        with speaking(language):
            return beside.status(self.now(), localized=True)

    # ---- clocks ----------------------------------------------------------------------------
    async def turn_clock(self, terms: Terms, hosted: Hosted, side: Side) -> Hosted:
        """``side``'s turn begins now, with the time the match's clock gives it (standing
        still while they are away, and on their weekends if the match has them off)."""
        now = self.now()
        stops = await stops_of(self.store, terms, hosted, side, now)
        return await self._begun(terms, hosted, side, now, stops)

    async def turn_start(
        self, terms: Terms, hosted: Hosted, ran: Side, side: Side, planner: Side | None = None
    ) -> TurnStart:
        """What ``turn_passes`` reads, read now in one read: the times away of the players
        of ``ran`` and ``side``, ``side``'s player's notifications, and ``planner``'s
        planned replies (PRIVATE to them: ``plans``; none read without one)."""
        user = hosted.player(side)
        return await self.store.hosting.private_turn_start(
            hosted.id,
            hosted.guild_id,
            planner=planner,
            away=away_users(terms, hosted, (ran, side)),
            since=self.now(),
            notified=None if is_robot(user) else user,
        )

    async def turn_passes(
        self,
        terms: Terms,
        hosted: Hosted,
        ran: Side,
        side: Side,
        start: TurnStart | None = None,
        earned: bool = True,
    ) -> Hosted:
        """``ran``'s turn is over (``settled``, with an increment unless not ``earned``)
        and ``side``'s begins (``turn_clock``), as of when ``start`` (``turn_start``'s) was
        read, or now, read here."""
        if start is None:
            start = await self.turn_start(terms, hosted, ran, side)
        now = start.since
        stops = await stops_by_side(self.store, terms, hosted, (ran, side), now, start.aways)
        settled = timing.settled(terms, hosted, ran, now, stops[ran], earned)
        begun = timing.started(now, terms, settled, side, stops[side])
        wants = notify_from(start.own, start.guild)
        return replace(begun, remind_at=self._reminder(wants, terms, begun, side, now))

    async def _begun(
        self, terms: Terms, hosted: Hosted, side: Side, now: float, stops: list[Interval]
    ) -> Hosted:
        begun = timing.started(now, terms, hosted, side, stops)
        return replace(begun, remind_at=await self.next_reminder(terms, begun, side, now))

    async def next_reminder(
        self, terms: Terms, hosted: Hosted, side: Side, after: float
    ) -> float | None:
        """The next reminder after ``after`` of ``side``'s running turn, as its player
        wants them (``notify``: none, at 50 % and/or 80 % of the turn's time, or hours
        before the deadline)."""
        user = hosted.player(side)
        if hosted.due_at is None or is_robot(user):
            return None
        wants = await notify_of(self.store, user, hosted.guild_id)
        return self._reminder(wants, terms, hosted, side, after)

    async def wants_reminder(self, terms: Terms, hosted: Hosted, side: Side, now: float) -> bool:
        """Whether ``side``'s player, as they want reminders now, wants the one of their
        running turn that is due (``hosted.remind_at``, scheduled from their choice when
        the turn began): one they have turned off or moved since is not sent."""
        scheduled = hosted.remind_at
        if scheduled is None or hosted.due_at is None:
            return False
        wants = await notify_of(self.store, hosted.player(side), hosted.guild_id)
        times = wants.reminders(hosted.due_at, timing.turn_time(terms, hosted, side))
        return any(scheduled - 1 <= when <= now for when in times)

    @staticmethod
    def _reminder(
        wants: Notify, terms: Terms, hosted: Hosted, side: Side, after: float
    ) -> float | None:
        """``next_reminder`` with the player's notifications read (``wants``)."""
        due = hosted.due_at
        if due is None or is_robot(hosted.player(side)):
            return None
        times = wants.reminders(due, timing.turn_time(terms, hosted, side))
        return min((when for when in times if when > after), default=None)

    async def stops(self, terms: Terms, hosted: Hosted, side: Side) -> list[Interval]:
        """When ``side``'s clock stands still from now on."""
        return await stops_of(self.store, terms, hosted, side, self.now())

    async def setup_clock(self, terms: Terms, hosted: Hosted) -> Hosted:
        """The setup's deadline, a turn's time from now, with its reminder: that time runs
        while neither player's clock stands still (their time away where the match's away
        days apply, their weekends off), so that a player away is not called off (in a
        tournament: scored a forfeit) before they are back."""
        now, seconds = self.now(), terms.turn_seconds
        stops = await self.setup_stops(terms, hosted, now)
        return replace(
            hosted,
            due_at=run_until(now, seconds, stops),
            remind_at=run_until(now, self.settings.remind_at * seconds, stops),
            paused_left=None,
        )

    async def setup_stops(
        self,
        terms: Terms,
        hosted: Hosted,
        since: float,
        given: tuple[Side, Sequence[Away]] | None = None,
    ) -> list[Interval]:
        """When a setup's time stands still from ``since`` on: whenever either player's
        clock does (``setup_clock``). ``given``: one side's times away as they were before,
        or are after, a change of them (``stops_by_side``'s ``aways``), the other's read."""
        found = await stops_by_side(self.store, terms, hosted, tuple(Side), since)
        if given is not None:
            side, aways = given
            found |= await stops_by_side(self.store, terms, hosted, (side,), since, aways)
        return merged([*found[Side.CHALLENGER], *found[Side.OPPOSITION]])

    # ---- commits: state and posts in one transaction ---------------------------------------
    async def update(
        self,
        table: Table,
        hosted: Hosted,
        mail: Mail | None = None,
        *,
        choice: tuple[Side, SetupChoice] | None = None,
        drop_choices: bool = False,
        unlook: Side | None = None,
    ) -> None:
        """Save the hosted match's new state with its posts, a player's setup choice (or
        all of them gone) and, for ``unlook``, that side's look at its board forgotten: its
        turn's clock started again, and the new deadline reminds them."""
        posts = mail.posts if mail else []
        saved = await self.store.hosting.update(
            hosted, posts, choice=choice, drop_choices=drop_choices, unlook=unlook
        )
        if unlook is not None:
            table.looked.pop(hosted.player(unlook), None)
        self.committed(table, saved, posts)

    async def close_unloaded(self, table: Table, hosted: Hosted, mail: Mail, close: str) -> None:
        """End ``table``'s match, whose game cannot be loaded, without a result (``close``):
        the hosted match's new state ``hosted``, its match closed, ``mail``'s posts."""
        saved = await self.store.hosting.close_unloaded(hosted, close, mail.posts)
        self.committed(table, saved, mail.posts)

    def committed(self, table: Table, saved: Hosted, posts: Sequence[Post]) -> None:
        """After a commit of ``table``'s match, ``saved`` as stored, with ``posts``: the
        table holds it, the loops look again if it set a sooner clock or queued posts, the
        watchers are told, and an ended match waits to be announced."""
        before = table.hosted
        table.hosted = saved
        self.changed(posts, timed(before) != timed(saved), soonest(saved))
        self.touched(saved.id)
        if saved.phase == ENDED:
            self.ended.append(saved)

    async def save(
        self,
        table: Table,
        hosted: Hosted,
        mail: Mail | None = None,
        *,
        close: str | None = None,
        plans: Mapping[Side, Sequence[str]] | None = None,
        forget: bool = False,
    ) -> None:
        """Save what was played on the match with the hosted match's new state, posts and
        the sides' planned replies (``plans``); with ``forget``, both sides' plan drafts and
        looks go (the game they were of is gone: a takeback, a reset). The match's deadline
        follows the hosted one."""
        match = table.match
        if match is None:
            raise RuntimeError(f"hosted match {hosted.id} has no game to save")
        match.deadline = hosted.due_at
        hosted = replace(hosted, turn=table.turn)
        posts = mail.posts if mail else []
        saved = await self.store.save_hosted(
            match, hosted, posts, close=close, plans=plans, forget=forget
        )
        if forget:  # the turn numbers come back in another game: its turns remind again
            table.looked.clear()
        self.committed(table, saved, posts)
