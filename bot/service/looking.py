"""What a page shows of a hosted match, found by its number rather than its channel (a web
board's address names the match): ``look`` reads one hosted match, live or ended, as a
spectator or as one of its players sees it, in one read under the match's lock. A player's
look holds what only they may know (their view, their staged actions, their legal actions
with the squares each touches, their setup form); a spectator's, only ``view_for(None)``.
Reads are not rate limited here: the front end that serves them limits its callers. An
ended match never changes, so the public looks of the last ``ENDED_LOOKS`` ended matches
read are kept rather than loaded (and their games rebuilt) from the store at each request."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from bot.i18n import N_, SOURCE, _, speaking
from rules import GameState, GameView, Outcome, Side, game_type
from rules.protocol import Choice, ChoiceGroup
from rules.words import Text
from storage import Hosted, HostedNotFound

from . import agreements, picking, plans, play, reminders, setup_phase, timing, typed
from .errors import NotAllowed, Refused
from .host import Host
from .models import User
from .phases import ENDED, PLAYING, SETUP
from .ports import Stamp, Status
from .questions import SetupForm
from .table import CALLED_OFF, Table
from .terms import BANK_CLOCK, INCREMENT_CLOCK, Terms
from .texts import duration

NO_SUCH_MATCH = N_("There is no such match.")
HAS_ENDED = N_("That match has ended; its public page stays.")
ENDED_LOOKS = 256  # ended matches whose public looks are kept
CHANNELS = 4096  # hosted matches whose channel is kept (it never changes)
CLOCKS = (BANK_CLOCK, INCREMENT_CLOCK)  # clocks whose waiting player's time a picture shows

V = TypeVar("V")
T = TypeVar("T")


@dataclass(frozen=True)
class Moves:
    """What a player may do now, for them alone: their staged actions, their legal actions
    by group and each action (with the squares it touches and the rules' warning)."""

    staged: tuple[str, ...] = ()
    groups: tuple[ChoiceGroup, ...] = ()
    choices: tuple[Choice, ...] = ()
    actions_left: int = 0
    prompt: str = ""
    one_move: bool = False
    # the turn asks no move but a decision (Torii's Monkey, TI15) or its forced pass (TI8)
    decision: bool = False
    undoable: bool = False  # Undo would take an action back (none past a search, R10)
    hints: tuple[str, ...] = ()  # what may be done now alone (TORA's free take, R43)


@dataclass(frozen=True)
class Look:
    """A hosted match as ``viewer`` (None: anyone) sees it now. ``view`` is the game's view
    for ``viewer`` (None before the game begins), ``names`` the players' names as written
    (the Challenger's first), ``versions`` those stored (they move on with hidden changes
    too: never show them). ``moves`` and ``setup`` are the viewer's own, when they may act;
    ``proposable`` the proposals they may make now (``agreements.proposable``), while the
    game is played. ``history`` names the game's finished turns (``_history``)."""

    hosted: Hosted
    terms: Terms
    viewer: Side | None
    names: tuple[str, str]
    stamp: Stamp
    versions: tuple[int, int | None]
    status: Status
    view: GameView | None = None
    outcome: Outcome | None = None
    offers: Mapping[str, Side] = field(default_factory=dict)
    history: str = ""
    moves: Moves | None = None
    setup: SetupForm | None = None
    proposable: tuple[str, ...] = ()
    unplannable: Text | None = None  # why the viewer may not plan a reply now (``plans``)

    @property
    def user_id(self) -> int | None:
        """The viewer's user id (None for anyone)."""
        return None if self.viewer is None else self.hosted.player(self.viewer)

    def worded_status(self) -> Status:
        """``status``, its time left (English there) worded in the current language: a
        picture's, which words are all in its reader's language; so is its headline (a
        called-off match's, ``_status``)."""
        status = self.status
        if status.headline:
            status = replace(status, headline=_(status.headline))
        if not status.deadline:
            return status
        waiting = None if self.view is None else self.view.side.other
        standing = standing_time(self.hosted, self.terms, waiting, self.names)
        return replace(status, deadline=standing)


class Recent(Generic[V]):
    """At most ``most`` values by key, the least recently read dropped first."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._values: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def keep(self, key: Hashable, value: V) -> V:
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.most:
            self._values.popitem(last=False)
        return value


class Looking(Host):
    """The match service's reads by match number (``MatchService`` inherits them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ended_looks: Recent[Look] = Recent(ENDED_LOOKS)
        self._channels: Recent[int] = Recent(CHANNELS)  # a hosted match's channel, by its id

    async def look(self, hosted_id: int, viewer: Side | None = None, *, seen: bool = True) -> Look:
        """Hosted match ``hosted_id`` as ``viewer`` sees it (Refused: there is none, or it
        has not begun to be played; a player's look of an ended match is refused too: its
        page is the public one). ``seen``: the player is looking (a page they load, an
        action), so their running turn needs no reminder; a live stream's checks after
        each change are not them looking, or a page left open would cancel reminders."""
        ended = self._ended_looks.get(hosted_id)
        if ended is not None:
            if viewer is not None:
                raise NotAllowed(_(HAS_ENDED))
            return ended
        channel_id = self._channels.get(hosted_id)
        if channel_id is None:
            channel_id = (await self._hosted(hosted_id)).channel_id
            self._channels.keep(hosted_id, channel_id)
        async with self._lock(channel_id):
            table = await self._loaded(channel_id)
            if table is not None and table.hosted.id == hosted_id:
                return await self._look_live(table, viewer, seen)
        return await self._look_stored(hosted_id, viewer, seen)

    async def _look_live(self, table: Table, viewer: Side | None, seen: bool) -> Look:
        hosted = table.hosted
        look = Look(
            hosted,
            table.terms,
            viewer,
            _names(table),
            table.stamp,
            table.versions,
            _status(table),
            offers=table.offers(),
        )
        if viewer is not None and hosted.phase == SETUP:
            user = User(hosted.player(viewer), table.raw_name(hosted.player(viewer)))
            look = replace(look, setup=await setup_phase.form(self._ctx, table, user))
        if table.match is None:
            return look
        game, view = table.game, table.game.view_for(viewer)
        look = replace(look, view=view, outcome=game.outcome(), history=_history(game))
        if viewer is not None and hosted.phase == PLAYING and not game.is_over():
            kinds = await agreements.proposable(self._ctx, table, viewer)
            why = plans.unplannable(table, viewer, view)
            look = replace(look, proposable=kinds, unplannable=why)
        acting = hosted.phase == PLAYING and not table.paused and not game.is_over()
        if viewer is not None and acting and game.side == viewer:
            if seen:
                await reminders.looked(self._ctx, table, viewer)  # no reminder of this turn
            look = replace(look, moves=await self._moves(table, view))
        return look

    async def _moves(self, table: Table, view: GameView) -> Moves:
        """The acting player's actions, without the rules' warnings (``warnings`` gives a
        group's: they may cost a search each), worked out once per state of the match;
        ``view`` is theirs (whether their turn is a decision)."""
        memo = table.memo()
        game = table.game
        base = typed.base_of(table)
        if "menu" not in memo or "choices:*" not in memo:
            memo["menu"], memo["choices:*"] = await self._ctx.offload.step(
                base, base.menu_and_choices
            )
        return Moves(
            tuple(game.staged()),
            memo["menu"],
            memo["choices:*"],
            game.actions_left,
            base.prompt(),
            game_type(game.game_type).one_move,
            picking.decides(view),
            game.can_undo(),
            tuple(game_type(game.game_type).turn_hints(game)),
        )

    async def warnings(self, hosted_id: int, viewer: Side, group: str) -> dict[str, str]:
        """What the rules will hold against each action of ``group`` of the player of
        ``viewer`` if staged now (only those with a warning), for them alone: worked out
        for one piece at a time, once per state of the match (a search each, on TORA's long
        board), with the match's lock let go meanwhile (``warning``). Refused when they may
        not act now."""
        channel_id = (await self._hosted(hosted_id)).channel_id

        def seated(table: Table) -> User:
            return User(table.hosted.player(viewer), "")

        async def loaded() -> Table:
            table = await self._loaded(channel_id)
            if table is None or table.hosted.id != hosted_id:
                raise NotAllowed(_(HAS_ENDED))
            play.acting_side(self._ctx, table, seated(table))
            return table

        async def ahead(table: Table) -> Awaitable[None] | None:
            return await picking.warnings_ahead(self._ctx, table, seated(table), group)

        async def answer(table: Table) -> dict[str, str]:
            base = typed.base_of(table)
            choices = await picking.group_choices(self._ctx, table, base, group)
            warned = await picking.warned(self._ctx, table, base, choices, None)
            return {c.notation: c.warning for c in warned if c.warning}

        return await self._warned_ahead(channel_id, loaded, ahead, answer)

    async def _warned_ahead(
        self,
        channel_id: int,
        loaded: Callable[[], Awaitable[Table]],
        ahead: Callable[[Table], Awaitable[Awaitable[None] | None]],
        answer: Callable[[Table], Awaitable[T]],
    ) -> T:
        """``answer`` of the channel's match (``loaded`` under its lock), with a picked
        piece's warnings it shows worked out first (``ahead``) with the lock let go
        (``warning``): then the lock is taken again to answer, by when they are kept (on a
        match moved on meanwhile, those still missing are worked out under it)."""
        async with self._lock(channel_id):
            table = await loaded()
            waiting = await ahead(table)
            if waiting is None:
                return await answer(table)
        await waiting
        async with self._lock(channel_id):
            return await answer(await loaded())

    async def _look_stored(self, hosted_id: int, viewer: Side | None, seen: bool) -> Look:
        """An ended match (or one another process just ended), from the store."""
        hosted = await self._hosted(hosted_id)
        if viewer is not None and hosted.phase == ENDED:
            raise NotAllowed(_(HAS_ENDED))
        table = Table(hosted, Terms.from_json(hosted.terms), await self._names(hosted))
        if hosted.match_id is not None:
            table.match = await self._ctx.store.load(hosted.match_id)
        if hosted.phase != ENDED:  # another process holds it now: read as it is stored
            return await self._look_live(table, viewer, seen)
        look = Look(
            hosted,
            table.terms,
            None,
            _names(table),
            table.stamp,
            table.versions,
            _status(table),
        )
        if table.match is not None:
            game = table.game
            look = replace(
                look, view=game.view_for(None), outcome=game.outcome(), history=_history(game)
            )
        self._ended_looks.keep(hosted_id, look)
        return look

    async def _hosted(self, hosted_id: int) -> Hosted:
        try:
            return await self._ctx.store.hosting.get(hosted_id)
        except HostedNotFound:
            raise Refused(_(NO_SUCH_MATCH)) from None

    async def watched_versions(self, hosted_ids: list[int]) -> dict[int, tuple[int, int | None]]:
        """The stored versions of these hosted matches, in one read: what a front end polls
        to learn of changes other processes made."""
        return await self._ctx.store.hosting.versions_of(hosted_ids)


def _history(game: GameState) -> str:
    """A digest of the game's finished turns: who played each, and its notations (hidden
    ones too: never show it). The public record is written from them; the turn number alone
    does not name it, as it comes back after a takeback with the turn taken back replaced.
    It moves on only when a turn ends or is taken back, both public."""
    turns = repr([(turn.side, turn.texts) for turn in game.turns])
    return hashlib.sha256(turns.encode()).hexdigest()[:32]


def _names(table: Table) -> tuple[str, str]:
    """The players' names as written, the Challenger's first; before the sides are drawn
    (a challenge), the challenger's and the one challenged ("anyone": an open challenge)."""
    hosted = table.hosted
    ids = (hosted.challenger_id, hosted.opposition_id)
    if hosted.challenger_id is None:
        ids = (hosted.issuer_id, hosted.invitee_id)
    first, second = ("anyone" if i is None else table.raw_name(i) for i in ids)
    return first, second


def _status(table: Table) -> Status:
    """What the board pictures show beside the view: the names, and of the time left only
    what the clock does not move (``_standing_time``). A page's state names its picture,
    so a text that moved with the clock ("due in 5 h 10 min") would move every state's
    version with it, and the first change after a minute, hidden ones too (the opponent's
    staged action), would send every audience a new state at that moment. The page counts
    the running deadline down itself, from the state's ``deadline``. A match called off
    says so in place of who is to act, as the channel's pictures do (``Table.status``): its
    headline in English, worded by ``Look.worded_status``."""
    over = table.match is not None and table.game.is_over()
    waiting = None if table.match is None else table.game.side.other
    with speaking(SOURCE):
        standing = standing_time(table.hosted, table.terms, waiting, _names(table))
    if table.called_off:
        return Status(*_names(table), "", CALLED_OFF)
    return Status(*_names(table), "" if over else standing)


def standing_time(
    hosted: Hosted, terms: Terms, waiting: Side | None, names: tuple[str, str]
) -> str:
    """A pause's time left and, on a bank or increment clock, the ``waiting`` player's next
    turn (neither runs while the turn does; None: no game yet), in the current language: a
    board image's deadline (``Look.worded_status``)."""
    parts: list[str] = []
    if hosted.paused_left is not None:
        parts.append(_("paused, {time} left", time=duration(hosted.paused_left, True)))
    if waiting is not None and hosted.clocks is not None and terms.clock in CLOCKS:
        time = timing.turn_time(terms, hosted, waiting)
        parts.append(f"{names[waiting]} {duration(time, True)}")
    return " \u00b7 ".join(parts)
