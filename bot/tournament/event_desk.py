"""The desk of Swiss and round robin events: what a front end calls for ``/tora-tournament``
with a format other than chapter 10's.

Server admins create events (any game of the registry with its options, the format, rounds,
time control, rating, entry window, size); anyone joins while entries are open, and may
leave; a Swiss also takes late entries and withdrawals between rounds. The organiser or an
admin starts it (or it starts at its set time); admins replace a player who left, adjust a
result with a reason (logged), or cancel. Refusals are ``Refused`` with a message for that
user alone, and change nothing.
"""

from __future__ import annotations

import functools
import json

from bot.i18n import _, current, option, speaking
from bot.i18n.words import Language
from bot.service import (
    Attachment,
    Place,
    Refused,
    Reply,
    User,
    load_guild,
)
from bot.service.errors import NotAllowed
from bot.service.robots import robot
from bot.service.texts import escape, quote
from render.event_table import event_table_png
from rules.registry import ladder_of
from storage import Post
from storage.competitions.events import (
    CANCELLED,
    REGISTERING,
    RUNNING,
    EventButtons,
    EventRow,
    EventTx,
    NewEvent,
)
from storage.competitions.ladders import LadderKey

from . import event_texts as texts
from .common import Desk
from .event_buttons import EVENT_BUTTONS, Narrowed, applying, narrowed
from .event_flow import EventFlow, start
from .event_spec import EventSpec, check_spec, most_players
from .event_tables import pairings_text, standings_table
from .events import (
    BY_ADMIN,
    completed_rounds,
    current_round,
    is_robin,
    later_byes,
    order_of,
    record_outcome,
    standings_of,
    withdraw,
)
from .records import Outcome

START_RATING = 1500
RESULTS = {
    "win": Outcome.WIN,
    "draw": Outcome.DRAW,
    "loss": Outcome.LOSS,
    "forfeit-win": Outcome.FORFEIT_WIN,
    "forfeit-loss": Outcome.FORFEIT_LOSS,
}
LONGEST_REASON = 300


class EventDesk(Desk[EventFlow]):
    flow_type = EventFlow

    async def start_listening(self) -> None:
        """Listen to the match service's endings and catch up (call after its start)."""
        self.flow.service.on_ended(self.flow.ended)
        await self.flow.catch_up()

    async def event(self, place: Place, name: str) -> EventRow:
        return await self._event(place, name)

    async def name_of(self, place: Place, event_id: int) -> str:
        """The name of this server's event ``event_id`` (a button names it by id, which a
        modified client may forge): another server's is refused as one that is gone, so
        that which ids are events elsewhere is never told."""
        try:
            event = (await self._store.events.snapshot(event_id)).event
        except LookupError:
            event = None
        if event is None or event.guild_id != place.guild_id:
            raise Refused(_("That tournament no longer exists."))
        return event.name

    async def _event(self, place: Place, name: str) -> EventRow:
        found = await self._store.events.named(place.guild_id, " ".join(name.split())[:80])
        if found is None:
            raise Refused(
                _(
                    "This server has no Swiss or round robin event called {name}.",
                    name=quote(name[:80]),
                )
            )
        return found

    # ---- organising ----------------------------------------------------------------------
    async def create(self, place: Place, user: User, spec: EventSpec, *, admin: bool) -> Reply:
        self.flow.service.pace(user)
        if not admin:
            raise NotAllowed(_("Only a server admin can organise a tournament."))
        parts = check_spec(spec, (await load_guild(self._store, place.guild_id)).turn_seconds)
        if spec.ai_fill is not None and not await self.flow.ai_allowed(place.guild_id):
            raise Refused(
                _(
                    "This server's admins have turned matches against the AI off here "
                    "({setting}), so the AI cannot fill an event's odd slot. Create the event "
                    "without `{ai_fill}`, or ask them to allow matches against the AI.",
                    setting=self._settings.cmd("admin settings ai_matches:0", localized=True),
                    ai_fill=option("ai_fill"),
                )
            )
        if await self._store.tournaments.named(place.guild_id, parts.name) is not None:
            raise Refused(
                _(
                    "This server already has a tournament called **{name}**.",
                    name=escape(parts.name),
                )
            )
        await self._store.save_player(user.id, user.name)
        if spec.ai_fill is not None:
            ai = robot(spec.ai_fill)
            await self._store.save_player(ai.id, ai.name)
        now = self._now()
        new = NewEvent(
            place.guild_id, place.channel_id, parts.name, spec.game, parts.options,
            spec.format, parts.rounds, parts.turn_seconds, parts.round_seconds, spec.rated,
            parts.bye_points, parts.tiebreaks, parts.max_players, spec.ai_fill, user.id,
            None if spec.entry_seconds is None else now + spec.entry_seconds,
            None if spec.starts_in is None else now + spec.starts_in, spec.away_days,
        )  # fmt: skip

        def work(tx: EventTx) -> EventRow:
            if tx.named(place.guild_id, parts.name) is not None:
                raise Refused(
                    _(
                        "This server already has an event called **{name}**.",
                        name=escape(parts.name),
                    )
                )
            return tx.snapshot(tx.create(new)).event

        event = await self._store.events.transact(work, now)
        with speaking(await self.flow.language(place.guild_id)):  # the event's announcement
            text = texts.created(event, self._cmd("register"), self._cmd("start"))
        return Reply(text, private=False)

    async def join(self, place: Place, user: User, name: str) -> Reply:
        """Enter an event: before its start, or as a late entry into a Swiss's next round."""
        self.flow.service.pace(user)
        event = await self._event(place, name)
        rating = await self._rating(event, user.id)
        await self._store.save_player(user.id, user.name)
        now = self._now()

        def work(tx: EventTx) -> str:
            snapshot = tx.snapshot(event.id)
            e = snapshot.event
            title = texts.title(e)
            entry = next((x for x in snapshot.entries if x.player_id == user.id), None)
            if entry is not None and entry.left_round is not None:
                raise Refused(
                    _("You withdrew from {event}; you cannot enter it again.", event=title)
                )
            if entry is not None:
                raise Refused(_("You are in {event} already.", event=title))
            if e.status not in (REGISTERING, RUNNING):
                raise Refused(_("{event} is over; it takes no more entries.", event=title))
            if e.entry_closes is not None and now > e.entry_closes:
                raise Refused(_("Entries to {event} have closed.", event=title))
            most = min(e.max_players, most_players(e.format))  # one created before the cap too
            if len(snapshot.entries) >= most:
                raise Refused(_("{event} is full ({most} players).", event=title, most=most))
            if e.status == RUNNING and is_robin(e):
                raise Refused(
                    _("{event} has started; a round robin's schedule is fixed.", event=title)
                )
            if e.status == RUNNING and e.round >= e.rounds:
                raise Refused(_("{event} has started; its last round is paired.", event=title))
            joined = e.round + 1 if e.status == RUNNING else 1
            tx.add_entry(e.id, user.id, rating, joined)
            if e.status == RUNNING:
                return _(
                    "You are in {event} as a late entry: you are paired from round {round}.",
                    event=title,
                    round=joined,
                )
            return _(
                "You are in {event}. You will be told your games privately once it starts.",
                event=title,
            )

        text = await self._store.events.transact(work, now)
        return Reply(text)

    async def leave(self, place: Place, user: User, name: str) -> Reply:
        """Leave before the start, or withdraw from a running event: you are paired no more,
        and your games not yet decided are lost by forfeit in every format (a round robin's
        are all open from its start), those being played called off."""
        self.flow.service.pace(user)
        event = await self._event(place, name)
        public = await self.flow.language(event.guild_id)
        async with self.flow.guarded(event.id, event.name):
            text, live = await self.flow.transact(
                lambda tx: withdraw(tx, event.id, user.id, user.id, public)
            )
            await self.flow.call_off(event, live, user)
            await self.flow.step(event.id)
        return Reply(text)

    async def begin(self, place: Place, user: User, name: str, *, admin: bool) -> Reply:
        event = await self._event(place, name)
        if not admin and user.id != event.organiser_id:
            raise NotAllowed(_("Only the organiser or a server admin can start an event."))
        async with self.flow.guarded(event.id, event.name):
            why = await self.flow.transact(lambda tx: start(tx, event.id, user.id))
            if why is not None:
                raise Refused(why)
            await self.flow.step(event.id)
        snapshot = await self._store.events.snapshot(event.id)
        return Reply(
            _(
                "{event} has started with {players} players; the pairings are posted here, and "
                "every player is told theirs privately. {command} shows the standings.",
                event=texts.title(snapshot.event),
                players=len(snapshot.entries),
                command=self._cmd("standings"),
            ),
            private=False,
        )

    # ---- admins --------------------------------------------------------------------------
    async def replace(
        self, place: Place, user: User, name: str, old: User, new: User, *, admin: bool
    ) -> Reply:
        """``new`` takes over the undecided games of ``old``, who leaves (their decided
        results stand)."""
        if not admin:
            raise NotAllowed(_("Only a server admin can replace a player."))
        event = await self._event(place, name)
        public = await self.flow.language(event.guild_id)
        rating = await self._rating(event, new.id)
        await self._store.save_player(new.id, new.name)

        def work(tx: EventTx) -> list[int]:
            snapshot = tx.snapshot(event.id)
            e = snapshot.event
            if e.status != RUNNING:
                raise Refused(
                    _(
                        "{event} is not running; players join or leave instead.",
                        event=texts.title(e),
                    )
                )
            entries = {x.player_id: x for x in snapshot.entries}
            if old.id not in entries:
                raise Refused(
                    _("{player} is not in {event}.", player=escape(old.name), event=texts.title(e))
                )
            if new.id in entries:
                raise Refused(
                    _(
                        "{player} is in {event} already.",
                        player=escape(new.name),
                        event=texts.title(e),
                    )
                )
            tx.leave(e.id, old.id, e.round if e.round else 1)
            tx.add_entry(e.id, new.id, rating, max(e.round, 1))
            live = []
            for row in snapshot.pairings:
                if row.outcome is None and old.id in (row.first_id, row.second_id):
                    if row.hosted_id is not None:
                        live.append(row.hosted_id)
                    tx.swap_player(e.id, row.id, old.id, new.id)
            for bye in later_byes(snapshot, old.id):
                tx.move_bye(e.id, bye.id, old.id, new.id)
            detail = f"{old.id} -> {new.id}"
            tx.log(e.id, user.id, "replace", detail)
            with speaking(public):
                tx.post([Post(e.channel_id, texts.replaced(e, old.name, new.name, user.name))])
            return live

        async with self.flow.guarded(event.id, event.name):
            live = await self.flow.transact(work)
            await self.flow.call_off(event, live, user)
            await self.flow.step(event.id)
        return Reply(
            _(
                "{new} has taken {old}'s place.",
                new=escape(new.name),
                old=escape(old.name),
            ),
            private=False,
        )

    async def adjust(
        self,
        place: Place,
        user: User,
        name: str,
        round_: int,
        player: User,
        result: str,
        reason: str,
        *,
        admin: bool,
    ) -> Reply:
        """Set ``player``'s result of ``round_`` (``win``, ``draw``, ``loss``,
        ``forfeit-win``, ``forfeit-loss``), with a reason kept in the event's log. A game
        still running there is called off."""
        if not admin:
            raise NotAllowed(_("Only a server admin can adjust a result."))
        reason = " ".join(reason.split())
        if not 0 < len(reason) <= LONGEST_REASON:
            raise Refused(
                _(
                    "Give a reason (1 to {most} characters); it is kept in the log.",
                    most=LONGEST_REASON,
                )
            )
        if result not in RESULTS:
            allowed = ", ".join(f"`{r}`" for r in RESULTS)
            raise Refused(
                _(
                    "The result is one of {allowed}, not {result}.",
                    allowed=allowed,
                    result=quote(result[:20]),
                )
            )
        event = await self._event(place, name)
        public = await self.flow.language(event.guild_id)

        def work(tx: EventTx) -> int | None:
            snapshot = tx.snapshot(event.id)
            e = snapshot.event
            if e.status not in (RUNNING, "finished"):
                raise Refused(_("{event} has no results to adjust.", event=texts.title(e)))
            row = next(
                (
                    p
                    for p in snapshot.pairings
                    if p.round == round_ and player.id in (p.first_id, p.second_id)
                ),
                None,
            )
            if row is None or row.second_id is None:
                raise Refused(
                    _(
                        "{player} played no game in round {round} of {event}.",
                        player=escape(player.name),
                        round=round_,
                        event=texts.title(e),
                    )
                )
            outcome = RESULTS[result]
            first = outcome if player.id == row.first_id else outcome.opposite
            before = row.outcome or "undecided"
            with speaking(public):  # the result's post
                if row.outcome is None:
                    record_outcome(tx, e.id, row.id, first, BY_ADMIN)
                else:
                    tx.adjust(row.id, first.value)
                    names = tx.names((row.first_id, row.second_id or 0))
                    tx.post([Post(e.channel_id, texts.decided(e, row, first, BY_ADMIN, names))])
            tx.log(
                e.id,
                user.id,
                "adjust",
                f"round {round_} board {row.board}: {before} -> {first.value}; {reason}",
            )
            return row.hosted_id if row.outcome is None else None

        async with self.flow.guarded(event.id, event.name):
            live = await self.flow.transact(work)
            await self.flow.call_off(event, [] if live is None else [live], user)
            await self.flow.step(event.id)
        return Reply(
            _(
                "Round {round} of {event}: {player}'s result is now {result} (logged with your "
                "reason).",
                round=round_,
                event=texts.title(event),
                player=escape(player.name),
                result="`" + result + "`",
            ),
            private=False,
        )

    async def cancel(self, place: Place, user: User, name: str, *, admin: bool) -> Reply:
        if not admin:
            raise NotAllowed(_("Only a server admin can cancel an event."))
        event = await self._event(place, name)
        public = await self.flow.language(event.guild_id)

        def work(tx: EventTx) -> list[int]:
            snapshot = tx.snapshot(event.id)
            e = snapshot.event
            if e.status not in (REGISTERING, RUNNING):
                raise Refused(
                    _(
                        "{event} is over already; there is nothing to cancel.",
                        event=texts.title(e),
                    )
                )
            tx.set_status(e.id, CANCELLED)
            tx.log(e.id, user.id, "cancel", "")
            with speaking(public):
                tx.post([Post(e.channel_id, texts.cancelled(e, user.name))])
            return [p.hosted_id for p in snapshot.pairings if p.outcome is None and p.hosted_id]

        async with self.flow.guarded(event.id, event.name):
            live = await self.flow.transact(work)
        await self.flow.call_off(event, live, user)  # heard as ended: not inside the guard
        await self.flow.service.deliver_written()
        self.flow.changed(event.id)
        return Reply(_("{event} is cancelled.", event=texts.title(event)), private=False)

    # ---- the messages showing an event's buttons (a front end's: ``event_buttons``) ------
    async def remember_buttons(self, event_id: int, channel_id: int, message_id: int) -> None:
        """A message went out with the event's Join and Leave."""
        kept = EventButtons(channel_id, message_id, event_id, EVENT_BUTTONS)
        await self._store.events.keep_buttons(kept)

    async def stale_buttons(self, event_id: int) -> list[Narrowed]:
        """The event's kept messages with buttons that stopped applying."""
        kept = await self._store.events.buttons_of(event_id)
        if not kept:
            return []
        event = await self._store.events.event(event_id)
        return narrowed(kept, applying(event, self._now()))

    async def swept_buttons(self, done: Narrowed) -> None:
        """A front end disabled ``done.stale`` (or never can: the message is gone)."""
        await self._store.events.narrow_buttons(done.kept)

    # ---- reading -------------------------------------------------------------------------
    async def standings_text(self, place: Place, name: str) -> str:
        event = await self._event(place, name)
        snapshot = await self._store.events.snapshot(event.id)
        lines = standings_of(snapshot)
        names = await self._store.events.names(e.player_id for e in snapshot.entries)
        labels = [t.label for t in order_of(snapshot.event)]
        head = texts.standings_head(event, completed_rounds(snapshot))
        return texts.standings_text(head, lines, names, labels)

    async def standings(self, place: Place, name: str) -> Reply:
        """The standings image (a Swiss table, or a round robin's crosstable) with its
        text."""
        event = await self._event(place, name)
        snapshot = await self._store.events.snapshot(event.id)
        names = await self._store.events.names(e.player_id for e in snapshot.entries)
        table = standings_table(snapshot, names)
        png = await self.flow.service.paint(
            functools.partial(event_table_png, table, Language(current()))
        )
        text = await self.standings_text(place, name)
        return Reply(text, (Attachment("standings.png", png),), private=False)

    async def pairings(self, place: Place, name: str, round_: int | None = None) -> Reply:
        """A round's boards (the current one by default), with links to their games."""
        event = await self._event(place, name)
        snapshot = await self._store.events.snapshot(event.id)
        names = await self._store.events.names(
            p for row in snapshot.pairings for p in (row.first_id, row.second_id) if p
        )
        return Reply(
            pairings_text(snapshot, names, round_ or current_round(snapshot)), private=False
        )

    async def described(self, event: EventRow) -> str:
        """``event``'s line in the server's list of tournaments."""
        snapshot = await self._store.events.snapshot(event.id)
        return texts.described(event, len(snapshot.entries), current_round(snapshot))

    async def has(self, guild_id: int, name: str) -> bool:
        return await self._store.events.named(guild_id, " ".join(name.split())[:80]) is not None

    async def _rating(self, event: EventRow, player_id: int) -> int:
        """A player's seed (E9): their rating on the game's ladder in the latest season
        they have one in (a closed season's final rating until they play in the open one,
        as their profile shows it), else the ladder's starting rating."""
        try:
            ladder = ladder_of(event.game, json.loads(event.options))
        except ValueError:
            return START_RATING
        seasons = await self._store.ladders.seasons(event.guild_id, ladder.id)
        for season in reversed(seasons):
            key: LadderKey = season.key
            for standing in await self._store.ladders.standings(key):
                if standing.player_id == player_id:
                    return round(standing.rating)
        return START_RATING
