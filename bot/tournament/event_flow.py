"""Running Swiss and round robin events: recording each game as it ends, pairing the next
round once every board of the round is decided, adjudicating a round at its deadline,
starting events at their set time, and opening each board's game in a thread of its own.

Every change is one transaction with the posts that tell of it; threads and games are opened
afterwards from what is stored (a decided-less board without a game gets one). So a crash
anywhere leaves a state ``catch_up`` finishes: games that ended unheard are recorded, a
round whose boards are all decided is paired, missing games are opened. Each event changes
in one process at a time (its lease), under one lock in this one.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from typing import TypeVar, cast

from bot.i18n import _, speaking
from bot.service import Place, Refused, Terms, User
from bot.service.languages import player_language
from bot.service.outbox import private_post
from bot.service.phases import FINISHED, FORFEIT, LAPSED
from bot.service.ports import Undeliverable
from bot.service.robots import guild_ai_cap
from storage import Hosted, Post
from storage.competitions.events import (
    REGISTERING,
    RUNNING,
    EventRow,
    EventSnapshot,
    EventTx,
    PairingRow,
)
from storage.hosting.sharing import LeaseLost

from . import event_texts as texts
from .common import Running
from .events import (
    BY_DEADLINE,
    BY_GAME,
    finish,
    next_rounds,
    overrule,
    record_outcome,
    round_done,
    wants_pairing,
    write_rounds,
)
from .records import Outcome

log = logging.getLogger(__name__)
T = TypeVar("T")


def started(hosted: Hosted) -> bool:
    """Whether a game was played over the board: its first round is over, each player has
    had a turn (what ends the players' right to abort it). One that ends later by missed
    turns, or is adjudicated, is a game the two have played: a win and a loss, and they do
    not meet again; before that, nobody played it: a forfeit (FIDE C.04.1)."""
    return hosted.turn > 2


def game_outcome(hosted: Hosted, finished: bool, winner: str | None) -> Outcome | None:
    """The first player's (the Challenger's) outcome of a game that ended, or None when it
    ended without a result and is played again."""
    ending = hosted.ending or ""
    if ending in (FINISHED, FORFEIT) and finished:
        if winner is None:
            return Outcome.DRAW
        won = winner == "C"
        if ending == FORFEIT and not started(hosted):
            return Outcome.FORFEIT_WIN if won else Outcome.FORFEIT_LOSS
        return Outcome.WIN if won else Outcome.LOSS
    if ending == LAPSED and hosted.ready in ("C", "O"):  # only one finished the setup
        return Outcome.FORFEIT_WIN if hosted.ready == "C" else Outcome.FORFEIT_LOSS
    return None


def result_of(tx: EventTx, hosted: Hosted) -> Outcome | None:
    """``game_outcome`` of a game that ended, read from its stored match."""
    finished, winner = (False, None)
    if hosted.match_id is not None:
        finished, winner = tx.winner_of(hosted.match_id)
    return game_outcome(hosted, finished, winner)


def adjudicated(hosted: Hosted | None) -> Outcome:
    """A game still running at the round's deadline: whoever missed more turns loses (by
    forfeit if the game was never ``started``); otherwise a draw (docs/TOURNAMENTS.md, E4)."""
    if hosted is None:
        return Outcome.DRAW
    first, second = hosted.missed
    if first == second:
        return Outcome.DRAW
    if started(hosted):
        return Outcome.LOSS if first > second else Outcome.WIN
    return Outcome.FORFEIT_LOSS if first > second else Outcome.FORFEIT_WIN


class EventFlow(Running):
    kind = "event"

    async def transact(self, work: Callable[[EventTx], T]) -> T:
        return await self.store.events.transact(work, self.clock.now())

    async def public(self, event_id: int) -> str:
        """The language of the event's posts: its server's."""
        return await self.language((await self.store.events.snapshot(event_id)).event.guild_id)

    # ---- listening -----------------------------------------------------------------------
    async def ended(self, hosted: Hosted) -> None:
        """The match service's ``on_ended`` listener (left to the tick's catch-up while
        another process holds the event: ``_unless_held``)."""
        found = await self.store.events.pairing_of_hosted(hosted.id)
        if found is None or found[1].outcome is not None:
            return
        async with self.lock, self._unless_held(found[0]) as held:
            if held:
                await self._record(found[0], found[1], hosted)
                await self.step(found[0])

    async def _record(self, event_id: int, row: PairingRow, hosted: Hosted) -> None:
        def work(tx: EventTx) -> None:
            if tx.snapshot(event_id).event.status != RUNNING:  # cancelled: nothing counts
                return
            outcome = result_of(tx, hosted)
            if outcome is None:  # no result: the board gets a new game
                tx.reopen(row.id)
            else:
                record_outcome(tx, event_id, row.id, outcome, BY_GAME)

        with speaking(await self.public(event_id)):
            await self.transact(work)

    # ---- moving on -----------------------------------------------------------------------
    async def step(self, event_id: int) -> None:
        """Pair the next round if the event is due one, finish it if it is over, and open
        the games it lacks. Call with the lock and the lease held."""
        snapshot = await self.store.events.snapshot(event_id)
        with speaking(await self.language(snapshot.event.guild_id)):  # its posts and threads
            await self._step(snapshot)

    async def _step(self, snapshot: EventSnapshot) -> None:
        event_id = snapshot.event.id
        if wants_pairing(snapshot):
            while wants_pairing(snapshot):  # again while entries come in as it pairs
                await self._pair(snapshot)
                snapshot = await self.store.events.snapshot(event_id)
        elif snapshot.event.status == RUNNING and round_done(snapshot):
            await self.transact(lambda tx: finish(tx, event_id))
        await self.open_games(snapshot)
        await self.service.deliver_written()
        self.changed(event_id)

    async def _pair(self, snapshot: EventSnapshot) -> None:
        """Pair the next round(s) from ``snapshot`` and write them (nothing is written if
        the event changed meanwhile), or finish the event if none can be paired."""
        event = snapshot.event
        paired = await self.service.work_off(next_rounds, snapshot)  # seconds of Python
        if paired.refusal is not None:
            await self.transact(lambda tx: finish(tx, event.id, paired.refusal))
            return
        deadline = self.clock.now() + event.round_seconds
        # the AI fills the odd slot unless the server's admins turned it off since (E11)
        ai = event.ai_fill if await self.ai_allowed(event.guild_id) else None
        await self.transact(lambda tx: write_rounds(tx, event.id, paired, deadline, ai))

    async def ai_allowed(self, guild_id: int) -> bool:
        """Whether the server allows matches against the AI (its cap is not 0): an event's
        AI fill keeps to that, not to the cap's number (its organiser pairs, E11)."""
        return await guild_ai_cap(self.store, self.service.settings, guild_id) > 0

    async def open_games(self, snapshot: EventSnapshot) -> None:
        if snapshot.event.status != RUNNING:
            return
        names = await self.store.events.names(
            p for row in snapshot.pairings for p in (row.first_id, row.second_id) if p
        )
        unthreaded: list[PairingRow] = []  # boards Discord opened no thread for just now
        for row in snapshot.pairings:
            if row.outcome is None and row.hosted_id is None and row.second_id is not None:
                try:
                    await self._open_game(snapshot.event, row, names, unthreaded)
                except LeaseLost:
                    raise  # another process goes on from what is stored
                except Exception:  # tried again at the next step; the others go on
                    log.exception("event board %d: its game could not be opened", row.id)
        if unthreaded:
            await self._tell_unthreaded(snapshot.event, unthreaded, names)

    async def _tell_unthreaded(
        self, event: EventRow, rows: list[PairingRow], names: dict[int, str]
    ) -> None:
        """The round's post said each game has a thread of its own: where Discord opened
        none, the channel is told, in one post, and so are the players of the boards left
        waiting their turn there (a crash before it loses only this post)."""
        players = dict.fromkeys(p for row in rows for p in (row.first_id, row.second_id) if p)
        post = Post(event.channel_id, texts.boards_here(event, rows, names), mentions=(*players,))
        await self.transact(lambda tx: tx.post([post]))

    async def _open_game(
        self, event: EventRow, row: PairingRow, names: dict[int, str], unthreaded: list[PairingRow]
    ) -> None:
        """Open the board's game, in a thread opened first (``unthreaded`` gets the board
        when Discord opens none, and its game is played in the event's channel)."""
        assert row.second_id is not None
        self.check_lease()
        thread = row.thread_id
        if thread is None:
            thread = await self._board_channel(event, row, names)
            opened = thread
            await self.transact(lambda tx: tx.set_thread(row.id, opened))
            if opened == event.channel_id:
                unthreaded.append(row)
        first = User(row.first_id, names.get(row.first_id, "?"))
        second = User(row.second_id, names.get(row.second_id, "?"))
        players = {first.id, second.id}
        # a game found in the board's own thread is the board's, opened before a crash; in
        # the event's channel (no thread opened) the two may play or have played a casual one
        own_thread = thread != event.channel_id
        hosted = await self.store.hosting.live_in_channel(thread)
        if hosted is not None and not (own_thread and await self._unrecorded(hosted, players)):
            log.info("event board %d waits for channel %d's game to end", row.id, thread)
            return
        adoptable = own_thread and row.thread_id is not None
        if hosted is None and adoptable and await self._adopt_ended(event, row, players):
            return
        if hosted is None:
            terms = Terms(
                event.game,
                json.loads(event.options),
                turn_seconds=event.turn_seconds,
                rated=event.rated,
                away_days=event.away_days,
                competition=True,
            )
            intro = texts.game_intro(event, row, names)
            hosted = await self.service.open_match(
                Place(event.guild_id, thread), first, second, terms, intro
            )
        at = hosted.id
        now = self.clock.now()
        posts = []
        for player in (first.id, second.id):  # each told privately, in their own language
            language = await player_language(self.store, player)
            with speaking(language):
                text = texts.paired_notice(
                    event, row, player, thread, event.round_deadline, now, names
                )
            posts.append(private_post(event.channel_id, text, player, language))

        def work(tx: EventTx) -> None:
            tx.set_hosted(row.id, at)
            tx.post(posts)

        await self.transact(work)

    async def _adopt_ended(self, event: EventRow, row: PairingRow, players: set[int]) -> bool:
        """Whether the board's game was opened before a crash, before the board was told,
        and has ended with a result since (resigned while no process moved the event on):
        then it is recorded on the board with its result, rather than a second game opened.
        One that ended without a result is left (the board gets a new game, as ``_record``
        reopens it). Asked only of a thread of the board's own (see ``_open_game``)."""
        assert row.thread_id is not None
        hosted = await self.store.hosting.latest_in_channel(row.thread_id)
        if hosted is None or hosted.live or not await self._unrecorded(hosted, players):
            return False
        ended = hosted

        def work(tx: EventTx) -> bool:
            if tx.snapshot(event.id).event.status != RUNNING:
                return False
            outcome = result_of(tx, ended)
            if outcome is None:
                return False
            tx.set_hosted(row.id, ended.id)
            record_outcome(tx, event.id, row.id, outcome, BY_GAME)
            return True

        with speaking(await self.public(event.id)):
            adopted = await self.transact(work)
        if adopted:
            log.info("event board %d: its game %d, ended unrecorded, adopted", row.id, ended.id)
        return adopted

    async def _unrecorded(self, hosted: Hosted, players: set[int]) -> bool:
        """Whether ``hosted`` is a game of ``players`` opened before a crash, before its
        board was told (else a board has recorded it already)."""
        if {hosted.challenger_id, hosted.opposition_id} != players:
            return False
        return await self.store.events.pairing_of_hosted(hosted.id) is None

    async def _board_channel(self, event: EventRow, row: PairingRow, names: dict[int, str]) -> int:
        """A new thread of the event's channel for the board's game, or the channel itself
        when Discord opens no thread there (the channel is a thread, the server has its
        1,000 active threads): such boards then play there one after another."""
        try:
            return await self.threads.open_thread(
                event.channel_id, texts.thread_name(event, row, names)
            )
        except Undeliverable as exc:
            log.warning("event board %d is played in its event's channel: %s", row.id, exc)
            return event.channel_id

    # ---- the clock -----------------------------------------------------------------------
    async def tick(self) -> None:
        """Start the events whose time has come, adjudicate the rounds whose deadline has
        passed, and move every event on (counted in the service's ``busy`` meanwhile)."""
        with self.service.at_work():
            await self._each(self.store.events.active, self._tick, "move on")

    async def _tick(self, event_id: int) -> None:
        snapshot = await self.store.events.snapshot(event_id)
        event, now = snapshot.event, self.clock.now()
        if event.status == REGISTERING:
            if event.starts_at is not None and event.starts_at <= now:
                with speaking(await self.language(event.guild_id)):
                    await self.transact(lambda tx: start(tx, event_id, None))
                await self.step(event_id)
            elif event.entry_closes is not None and event.entry_closes < now:
                self.changed(event_id)  # its Join no longer applies
            return
        await self._catch_up(snapshot)
        if event.round_deadline is not None and event.round_deadline <= now:
            await self._adjudicate(event_id)
        await self.step(event_id)

    async def _catch_up(self, snapshot: EventSnapshot) -> None:
        """Record the games that ended while nobody listened."""
        for row in snapshot.pairings:
            if row.outcome is None and row.hosted_id is not None:
                hosted = await self.store.hosting.get(row.hosted_id)
                if not hosted.live:
                    await self._record(snapshot.event.id, row, hosted)

    async def _adjudicate(self, event_id: int) -> None:
        """Decide every board still undecided at the deadline, then call its game off."""
        snapshot = await self.store.events.snapshot(event_id)
        event = snapshot.event
        with speaking(await self.language(event.guild_id)):
            await self._adjudicate_all(snapshot)

    async def _adjudicate_all(self, snapshot: EventSnapshot) -> None:
        for row in snapshot.pairings:
            if row.outcome is None:
                await self._adjudicate_board(snapshot.event, row)

    async def _adjudicate_board(self, event: EventRow, row: PairingRow) -> None:
        """A game that ended by now keeps its result (one without a result is adjudicated:
        the round is over); a live one is adjudicated, then called off. Its end may land
        between the two (a resignation): then the game's result replaces the adjudication."""
        hosted = None if row.hosted_id is None else await self.store.hosting.get(row.hosted_id)
        if (
            hosted is not None
            and not hosted.live
            and await self._settle_by_game(event, row, hosted)
        ):
            return
        await self.transact(
            lambda tx: record_outcome(tx, event.id, row.id, adjudicated(hosted), BY_DEADLINE)
        )
        if hosted is None or not hosted.live:
            return
        self.check_lease()
        referee = User(event.organiser_id, _("the round's deadline"))
        try:
            await self.service.cancel(
                Place(event.guild_id, hosted.channel_id), referee, admin=True, one_of_many=True
            )
        except Refused:  # it ended meanwhile
            await self._settle_by_game(event, row, await self.store.hosting.get(hosted.id))

    async def _settle_by_game(self, event: EventRow, row: PairingRow, hosted: Hosted) -> bool:
        """Decide the board by its ended game's result, over an adjudication if there is one;
        False if the game gave no result."""

        def work(tx: EventTx) -> bool:
            outcome = result_of(tx, hosted)
            if outcome is None:
                return False
            overrule(tx, event.id, row.id, outcome)
            return True

        return await self.transact(work)

    async def catch_up(self) -> None:
        """On start: what ``tick`` does, for every event (games that ended while the bot was
        down, rounds left unpaired or unopened by a crash), after calling off the games a
        crash left running."""
        await self.call_off_strays()
        await self.tick()

    async def call_off_strays(self) -> None:
        """Call off each live game of a decided board, of a board whose player was replaced,
        or of an event no longer running: a crash between deciding (a deadline, an admin, a
        withdrawal, a cancel) or replacing and calling the game off left it running, and
        nothing else looks at it again. Not under the lock: each end is heard by
        ``ended`` (a replaced player's board then gets its new game)."""
        events: dict[int, EventRow] = {}
        for event_id, row in await self.store.events.live_boards():
            if event_id not in events:
                events[event_id] = (await self.store.events.snapshot(event_id)).event
            event = events[event_id]
            hosted = await self.store.hosting.get(cast(int, row.hosted_id))
            replaced = {hosted.challenger_id, hosted.opposition_id} != {row.first_id, row.second_id}
            if row.outcome is not None or event.status != RUNNING or replaced:
                names = await self.store.events.names((event.organiser_id,))
                referee = User(event.organiser_id, names.get(event.organiser_id, "?"))
                await self.call_off(event, [hosted.id], referee)

    async def call_off(self, event: EventRow, hosted_ids: list[int], user: User) -> None:
        """Cancel the event's live games ``hosted_ids`` in ``user``'s name (one that ended
        meanwhile is left as it is)."""
        for hosted_id in hosted_ids:
            hosted = await self.store.hosting.get(hosted_id)
            if hosted.live:
                place = Place(event.guild_id, hosted.channel_id)
                with contextlib.suppress(Refused):  # it ended meanwhile
                    await self.service.cancel(place, user, admin=True, one_of_many=True)


def start(tx: EventTx, event_id: int, refusal_to: int | None) -> str | None:
    """Start a registering event (the pairing follows outside the transaction). Returns
    why it cannot start, or None."""
    snapshot = tx.snapshot(event_id)
    event = snapshot.event
    if event.status != REGISTERING:
        return _("{event} has started already.", event=texts.title(event))
    if len(snapshot.entries) < 2:
        if refusal_to is None:  # its set time came: it waits for players, and says so once
            waits = _(
                "{event} needs at least two players to start. It starts once the organiser "
                "starts it.",
                event=texts.title(event),
            )
            tx.post([Post(event.channel_id, waits)])
            tx.clear_start(event_id)
        return _("{event} needs at least two players to start.", event=texts.title(event))
    tx.set_status(event_id, RUNNING)
    return None
