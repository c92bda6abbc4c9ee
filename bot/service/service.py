"""The match service: the one object a front end drives. It owns the life of every match it
hosts, one per channel or thread, from the challenge to the end, and knows nothing about
Discord: commands come in as method calls and answers go back as Replies; everything else
it says goes through the outbox to a Delivery.

Every command is rate limited per user, then serialised per channel: a match sees one
request at a time, and a request made for an earlier state (``expect``) is refused. The
rules core's heavy work (a long-board turn end), the AI players' searches and the images run
in worker processes (``offload``). How commands run is ``host``'s; the commands are
here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from bot.i18n import _
from rules.words import msg
from storage import CorruptMatch, Hosted

from . import (
    agreements,
    courtesy,
    endings,
    lobby,
    picking,
    plans,
    play,
    robots,
    setup_phase,
)
from .away import Absences
from .coaching import Coaching
from .drafting import Drafting
from .errors import Refused, StaleRequest
from .host import OVER, EndedListener, wrong_phase
from .looking import Looking
from .models import Menu, Place, Reply, User
from .offload import Painted, Worked
from .phases import CHALLENGE, PLAYING, SETUP
from .picking import ShownChoices
from .ports import Stamp
from .questions import SetupForm
from .table import DRAW, PAUSE, RESET, REWIND, Table, player_side
from .terms import Settings, Terms
from .texts import escape

log = logging.getLogger(__name__)


class MatchService(Looking, Absences, Drafting, Coaching):
    # ---- life ----------------------------------------------------------------------------
    async def start(self, background: bool = True) -> None:
        """Reload every live match (its staged turn and clock), handle what fell due while
        the service was down, deliver the undelivered outbox; with ``background``, keep
        doing the last two as time passes (else call ``run_due`` and ``deliver``). A service
        alone on its database (no ``poll_seconds``) first drops the claims its earlier life
        left, rather than wait for them to run out; one of several loads a match when it is
        used (the others hold matches too), and at once only the AI matches that wait for
        their AI. The drawing workers start at once (the first image does not wait)."""
        self._ctx.offload.warm()
        if self._ctx.settings.shared:
            await self.look_after_robots()
        else:
            await self._ctx.store.hosting.forget_claims()
            await self._reload_all()
        await self.run_due()
        await self.deliver()
        if background:
            self._tasks = [
                asyncio.create_task(self._timer_loop(), name="tora-timers"),
                asyncio.create_task(self._delivery_loop(), name="tora-outbox"),
            ]

    async def _reload_all(self) -> None:
        for hosted in await self._ctx.store.hosting.live():
            async with self._lock(hosted.channel_id):
                try:
                    table = await self._table(hosted.channel_id)
                except CorruptMatch:  # that match alone is out of play; the rest go on
                    log.exception("hosted match %d cannot be reloaded", hosted.id)
                else:
                    if table is not None:
                        self._robots.consider(table)

    async def paint(self, draw: Callable[[], Painted]) -> Painted:
        """A front end's picture (``draw()`` answers its PNG, or plain data holding an
        image: a replay), drawn off the event loop by the service's drawing workers
        (``offload``)."""
        return await self._ctx.offload.paint(draw)

    async def work_off(self, work: Callable[..., Worked], *args: Any) -> Worked:
        """A front end's pure work of seconds of Python (``work(*args)``: a module's
        function, pickled with its ``args``), off the event loop in the service's rules
        workers (``offload``)."""
        return await self._ctx.offload.rules_job(work, *args)

    async def stop(self) -> None:
        """Stop the background tasks, the AI players and the workers (the store stays
        open)."""
        await self._robots.stop()
        await self._ctx.offload.aclose()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await self._deliverer.stop()

    @property
    def settings(self) -> Settings:
        return self._ctx.settings

    def on_ended(self, listener: EndedListener) -> None:
        """Call ``listener`` with every hosted match that ends, however it ends, once its
        end is saved, outside the match's lock (it may open the next match in the same
        channel). A listener's failure is logged; it is not called again for that match, so
        a listener that must not miss one also looks for them on start."""
        self._listeners.append(listener)

    # ---- challenges and setup ------------------------------------------------------------
    async def challenge(
        self,
        place: Place,
        user: User,
        opponent: User | None = None,
        terms: Terms | None = None,
        expires_in: float | None = None,
        *,
        where: Callable[[], Awaitable[Place]] | None = None,
    ) -> Reply:
        """Challenge ``opponent``, or anyone in the channel (an open challenge). ``where``
        gives the challenge a place of its own (a new thread), asked for only once every
        check has passed, so that a refused challenge never opens one. The server's lock is
        held from the check of its caps on waiting challenges to the challenge's save, so
        challenges sent together cannot all pass the check before any is saved."""
        self._limit.take(user.id, self._ctx.now())
        terms = (terms or Terms()).with_clock_defaults()
        async with self._server_lock(place.guild_id):
            expiry = await lobby.check_challenge(
                self._ctx, place, user, opponent, terms, expires_in
            )
            if where is not None:
                place = await where()
            async with self._lock(place.channel_id):
                if await self._table(place.channel_id) is not None:
                    raise Refused(lobby.busy_text())
                table, reply = await lobby.challenge(
                    self._ctx, place, user, opponent, terms, expiry
                )
                self._tables[place.channel_id] = table
                return reply

    async def open_match(
        self,
        place: Place,
        challenger: User,
        opposition: User,
        terms: Terms | None = None,
        intro: str | None = None,
    ) -> Hosted:
        """Host a match both players already agreed to (a ladder pairing, a tournament
        game): no challenge, straight to the setup. ``intro`` opens its announcement (in
        the server's language, or a rules text worded in it; "A new match." if None)."""
        intro = msg("A new match.") if intro is None else intro
        async with self._lock(place.channel_id):
            if await self._table(place.channel_id) is not None:
                raise Refused(lobby.busy_text())
            table = await lobby.open_agreed(
                self._ctx,
                place,
                challenger,
                opposition,
                (terms or Terms()).with_clock_defaults(),
                intro,
            )
            self._tables[place.channel_id] = table
            self._robots.consider(table)
            return table.hosted

    async def challenge_ai(
        self,
        place: Place,
        user: User,
        level: str,
        terms: Terms | None = None,
        *,
        where: Callable[[], Awaitable[Place]] | None = None,
    ) -> Reply:
        """Challenge the AI player of ``level``: it accepts at once, so the match begins
        (its setup first, where the game has one). ``where`` as for ``challenge``."""
        self._limit.take(user.id, self._ctx.now())
        terms = (terms or Terms()).with_clock_defaults()
        terms.check()
        # the player's and the server's locks from the caps' check to the opening, so that
        # challenges sent together cannot all pass the check before any is opened
        async with self.ai_caps(place.guild_id, (user.id,)):
            live = await self.matches_of(user.id)
            opponent = await robots.check_challenge(self._ctx, level, user.id, live, place.guild_id)
            if where is not None:
                place = await where()
            first, second = user, opponent
            if terms.roles == "random" and self._ctx.rng.random() < 0.5:
                first, second = opponent, user
            names = {"player": escape(user.name), "game": terms.title, "robot": opponent.name}
            if terms.rated:  # worded in the server's language where it is shown
                intro = msg("{player} starts a rated match of {game} against {robot}.", **names)
            else:
                intro = msg("{player} starts a practice match of {game} against {robot}.", **names)
            hosted = await self.open_match(place, first, second, terms, intro)
        return Reply(
            _(
                "Your match of {game} against {robot} has begun: {terms}. It plays its turns "
                "within seconds of yours.",
                game=terms.title,
                robot=opponent.name,
                terms=terms.describe(localized=True),
            ),
            stamp=Stamp(hosted.id, 0),
        )

    @contextlib.asynccontextmanager
    async def ai_caps(self, guild_id: int, user_ids: Iterable[int]) -> AsyncIterator[None]:
        """Held from a check of the caps on matches against the AI (of the players
        ``user_ids``, of the server ``guild_id``) to the openings it allows, in every
        process sharing the database: the players' locks in their ids' order (two holders
        never wait on each other), then the server's."""
        async with contextlib.AsyncExitStack() as held:
            for user_id in sorted(set(user_ids)):
                await held.enter_async_context(self._player_lock(user_id))
            await held.enter_async_context(self._server_lock(guild_id))
            yield

    async def robots_idle(self) -> None:
        """Wait until the AI players have nothing left to do (tests, demos)."""
        await self._robots.idle()

    async def matches_of(self, user_id: int) -> list[Hosted]:
        """The live hosted matches (challenges included) ``user_id`` takes part in: for
        commands given away from the match's channel, e.g. in a private message. The oldest
        first; read on the indexes naming the user, not from every live match."""
        theirs = await self._ctx.store.hosting.of_user(user_id, 0)
        return sorted(theirs, key=lambda hosted: hosted.id)

    async def stamp_of(self, place: Place) -> Stamp:
        """The channel's live match and its turn now (for buttons that act later)."""
        async with self._lock(place.channel_id):
            table = await self._loaded(place.channel_id)
            if table is None:
                raise Refused(self._no_match())
            return table.stamp

    async def hosted_of(self, place: Place, user: User) -> Hosted:
        """The channel's live match, if ``user`` plays in it (NotAllowed otherwise)."""
        async with self._lock(place.channel_id):
            table = await self._loaded(place.channel_id)
            if table is None:
                raise Refused(self._no_match())
            if table.hosted.phase in (SETUP, PLAYING):
                player_side(table, user)
            return table.hosted

    async def abortable(self, place: Place, user: User) -> Hosted:
        """The channel's live match if ``user`` may abort it now; Refused otherwise, in the
        words ``abort`` would answer (a confirmation is asked only for an abort it will do)."""
        async with self._lock(place.channel_id):
            table = await self._loaded(place.channel_id)
            if table is None:
                raise Refused(self._no_match())
            endings.abortable(self._ctx, table, user)
            return table.hosted

    async def accept(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        return await self._command(
            place,
            user,
            expect,
            (CHALLENGE, SETUP, PLAYING),
            lambda t: lobby.accept(self._ctx, t, user),
        )

    async def decline(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Decline (or take back) a challenge, or a proposal in a running match (during the
        setup: refused, saying how to call the match off)."""

        async def flow(table: Table) -> Reply:
            if table.hosted.phase in (CHALLENGE, SETUP):
                return await lobby.decline(self._ctx, table, user)
            return await agreements.decline(self._ctx, table, user)

        return await self._command(place, user, expect, (CHALLENGE, SETUP, PLAYING), flow)

    async def setup(
        self,
        place: Place,
        user: User,
        answers: Mapping[str, str],
        expect: Stamp | None = None,
    ) -> Reply:
        """A player's private setup answers by question name, any of them at a time (the
        reply is private): TORA's ``strategy``, ``ruler`` and ``assassin``, Torii's
        ``spirit``. Answers the match does not ask are set aside and named (none that it
        asks: refused)."""
        given = dict(answers)
        # A command's answer once the game is on is told the setup is settled, and one in a
        # game without a setup (ToriShogi) that it has none, even before the challenge is
        # accepted (``choose``); a form's pick (``expect``: the setup's stamp) is refused as
        # out of its phase before its stamp is judged, which would call it a turn that has
        # ended.
        phases = (SETUP,) if expect is not None else (CHALLENGE, SETUP, PLAYING)

        async def flow(table: Table) -> Reply:
            if table.hosted.phase == CHALLENGE and setup_phase.asks_setup(table.terms):
                raise Refused(wrong_phase(table.hosted))
            return await setup_phase.choose(self._ctx, table, user, given)

        return await self._command(place, user, expect, phases, flow)

    async def setup_form(self, place: Place, user: User) -> SetupForm:
        """The player's setup as a form (each question, what may be picked now, what they
        chose), for them alone: a front end's setup components. Not rate limited."""
        async with self._lock(place.channel_id):
            table = await self._in_setup(place)
            return await setup_phase.form(self._ctx, table, user)

    async def offered(self, place: Place, user: User, name: str, typed: str = "") -> list[str]:
        """The answers the user's own free-text setup question ``name`` may take now (TORA's
        Assassin: the free squares of their home edge, R41) that start with ``typed``, for
        them alone: to autocomplete ``setup``, refused as the setup form is (no match, the
        setup over, a spectator), or saying why none is offered yet. Not rate limited, like
        ``choices``."""
        async with self._lock(place.channel_id):
            table = await self._in_setup(place)
            return await setup_phase.offered(self._ctx, table, user, name, typed)

    async def _in_setup(self, place: Place) -> Table:
        """The match here, refused unless its players are choosing their setups (under the
        channel's lock)."""
        table = await self._loaded(place.channel_id)
        if table is None:
            raise Refused(self._no_match())
        if table.hosted.phase != SETUP:
            raise Refused(
                _(
                    "The setup is over: the game has begun, or the match has ended. "
                    "{command} shows it.",
                    command=self._ctx.cmd("board", localized=True),
                )
            )
        return table

    # ---- turns ---------------------------------------------------------------------------
    async def play(
        self,
        place: Place,
        user: User,
        action: str,
        expect: Stamp | None = None,
        *,
        menu: bool = False,
        preview: bool = True,
    ) -> Reply:
        """Stage one action of the player's turn (validated at once). With ``menu``, the
        reply holds the Play panel's menu of what is left to stage (``Reply.menu``), worked
        out in the same command; without ``preview``, no picture of the staged turn (for a
        front end that draws its own)."""

        async def flow(table: Table) -> Reply:
            reply = await play.play(self._ctx, table, user, action, preview=preview)
            return await self._with_menu(table, user, reply) if menu else reply

        return await self._command(place, user, expect, (PLAYING,), flow, saves=True)

    async def choices(
        self, place: Place, user: User, typed: str = "", limit: int = 25
    ) -> list[tuple[str, str]]:
        """Legal actions of the player to act that match ``typed``, for them alone, as (the
        action in words, its notation): to autocomplete ``play``. Not rate limited: a front
        end may ask at every keystroke."""
        async with self._lock(place.channel_id):
            table = await self._loaded(place.channel_id)
            if table is None or table.hosted.phase != PLAYING:
                return []
            return await play.choices(self._ctx, table, user, typed, limit)

    async def menu(
        self,
        place: Place,
        user: User,
        group: str | None = None,
        expect: Stamp | None = None,
        shown: ShownChoices | None = None,
        *,
        board: bool = False,
    ) -> Menu:
        """The Play panel of the player to act: their legal actions by piece, and those of
        ``group`` with the picture pointing them out and the warnings of those ``shown``
        (private; rate limited like any command). With ``board`` (and no group), the picture
        is the player's own board, as ``board`` shows it them."""
        self._limit.take(user.id, self._ctx.now())

        async def ahead(table: Table) -> Awaitable[None] | None:
            if group is None:
                return None
            return await picking.warnings_ahead(self._ctx, table, user, group, shown)

        async def answer(table: Table) -> Menu:
            found = await picking.menu(self._ctx, table, user, group, shown)
            if board and group is None:
                return replace(found, picture=await play.own_board(self._ctx, table, user))
            return found

        loaded = functools.partial(self._expected, place, expect)
        return await self._warned_ahead(place.channel_id, loaded, ahead, answer)

    async def undo(
        self,
        place: Place,
        user: User,
        number: int | None = None,
        expect: Stamp | None = None,
        *,
        menu: bool = False,
        preview: bool = True,
    ) -> Reply:
        """Take back the last staged action, or action ``number`` (from 1) of the turn. With
        ``menu``, the reply holds the Play panel's menu after it, as ``play``'s does; without
        ``preview``, no picture."""

        async def flow(table: Table) -> Reply:
            reply = await play.undo(self._ctx, table, user, number, preview=preview)
            return await self._with_menu(table, user, reply) if menu else reply

        return await self._command(place, user, expect, (PLAYING,), flow, saves=True)

    async def _with_menu(self, table: Table, user: User, reply: Reply) -> Reply:
        """``reply`` with the Play panel's menu of the state it left (its pieces)."""
        return replace(reply, menu=await picking.menu(self._ctx, table, user, None))

    async def board(self, place: Place, user: User) -> Reply:
        """The user's own view of the match: a player's private board and preview, or the
        public board for anyone else."""
        return await self._command(
            place, user, None, (CHALLENGE, SETUP, PLAYING), lambda t: play.board(self._ctx, t, user)
        )

    async def end_turn(
        self, place: Place, user: User, expect: Stamp | None = None, *, titled: bool = False
    ) -> Reply:
        """End the player's turn. With ``titled``, the reply names the match as their panels
        do (``Reply.title``: the Play panel's End turn)."""

        async def flow(table: Table) -> Reply:
            reply = await play.end_turn(self._ctx, table, user)
            if not titled:
                return reply
            return replace(reply, title=picking.title(table, player_side(table, user)))

        return await self._command(place, user, expect, (PLAYING,), flow, saves=True)

    # ---- agreements and endings ----------------------------------------------------------
    async def draw(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Offer a draw, or accept the opponent's offer."""
        return await self._propose(place, user, expect, DRAW)

    async def reset(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Propose a reset of a series (R28), or accept the opponent's."""
        return await self._propose(place, user, expect, RESET)

    async def pause(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Propose to stop the clock, or agree to the opponent's proposal."""
        return await self._propose(place, user, expect, PAUSE)

    async def takeback(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Ask to take back the turn one has just ended (unrated matches), or accept the
        opponent's request."""
        return await self._propose(place, user, expect, REWIND)

    async def _propose(self, place: Place, user: User, expect: Stamp | None, kind: str) -> Reply:
        return await self._command(
            place, user, expect, (PLAYING,), lambda t: agreements.propose(self._ctx, t, user, kind)
        )

    async def answer(self, place: Place, user: User, kind: str, made: Stamp) -> Reply:
        """A proposal's button: accept the opponent's ``kind`` (``draw``, ``reset``,
        ``pause``) or ``decline`` the proposals, in the match ``made`` names, whichever turn
        it is now: a proposal outlives the turn it was made in. An Accept whose proposal is
        no longer open is refused, never taken as a proposal of one's own."""

        async def flow(table: Table) -> Reply:
            if table.hosted.id != made.match or table.hosted.phase != PLAYING:
                raise StaleRequest(_(OVER))
            return await agreements.answer(self._ctx, table, user, kind)

        return await self._command(place, user, None, (CHALLENGE, SETUP, PLAYING), flow)

    async def plans(
        self, place: Place, user: User, add: str | None = None, cancel: str | None = None
    ) -> Reply:
        """A player's planned replies (``plans``), for them alone: add a line, cancel one
        (its number) or ``all``, and list them."""
        return await self._command(
            place, user, None, (PLAYING,), lambda t: plans.manage(self._ctx, t, user, add, cancel)
        )

    async def give_time(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Give the opponent a day (``courtesy.give_time``)."""
        return await self._command(
            place, user, expect, (PLAYING,), lambda t: courtesy.give_time(self._ctx, t, user)
        )

    async def rematch(self, place: Place, user: User, made: Stamp) -> Reply:
        """A rematch of the ended match ``made`` names, by one of its players: a challenge
        to the other, in the same channel, on the same terms, the colours swapped. Only
        while that match is the channel's latest (nothing was started there since)."""
        where, opponent, terms = await courtesy.rematch(self._ctx, place, user, made)
        return await self.challenge(where, user, opponent, terms)

    async def resume(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        return await self._command(
            place, user, expect, (PLAYING,), lambda t: agreements.resume(self._ctx, t, user)
        )

    async def resign(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        return await self._command(
            place, user, expect, (SETUP, PLAYING), lambda t: endings.resign(self._ctx, t, user)
        )

    async def abort(self, place: Place, user: User, expect: Stamp | None = None) -> Reply:
        """Call the match off before its first round is complete (unrated)."""
        return await self._command(
            place,
            user,
            expect,
            (CHALLENGE, SETUP, PLAYING),
            lambda t: endings.abort(self._ctx, t, user),
        )

    async def cancel(
        self, place: Place, user: User, *, admin: bool, one_of_many: bool = False
    ) -> Reply:
        """A server admin calls off the channel's match, in any phase, even one whose stored
        data is damaged (its game cannot be loaded). ``admin`` is the front end's judgement
        of the user's permissions. ``one_of_many``: one of the matches a single command of
        theirs calls off (a tournament's), so not rate limited."""
        return await self._command(
            place,
            user,
            None,
            (CHALLENGE, SETUP, PLAYING),
            lambda t: endings.cancel(self._ctx, t, user, admin),
            limited=not one_of_many,
            unloaded=True,
        )
