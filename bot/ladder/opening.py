"""Ladder pairings opened as matches.

A pairing's match is rated, on the pairing's board, with the server's turn deadline. Since a
channel hosts one match at a time, each gets a thread of its own, in the server's ladder
channel (``GuildSettings.ladder_channel``) or, when none is set or it is gone (deleted), in
the channel the longer waiter joined the queue from. The lower-rated player plays the
Challenger, who moves first: a small edge for the underdog (equal ratings, e.g. two
newcomers: drawn at random).

When Discord opens no thread there (no permission, its 1,000 active threads), the match is
played in that channel itself. If it cannot be opened (another match is played there, the
deadline setting refused...), or keeps failing for an hour (Discord away), both players are
off the queue already; they are told why privately, through the match service's outbox, and
may join again."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.i18n import _, speaking
from bot.service import MatchService, Place, Refused, Settings, Terms, Threads, User, load_guild
from bot.service.languages import player_language, server_language
from bot.service.models import is_robot
from bot.service.outbox import private_post
from bot.service.ports import ChannelGone, Undeliverable
from bot.service.texts import clipped, escape
from storage import Hosted, Post, Store
from storage.competitions.ladders import LadderTx

from .queue import OPENING, Pairing, claimant
from .results import AI_PREFIX, ladder_name

log = logging.getLogger(__name__)
THREAD_NAME = 100  # characters: Discord's longest thread name
# Seconds after its pairing that a match failing to open otherwise than by a refusal (Discord
# or the database away, tried again every tick) is given up, its players told.
GIVE_UP_AFTER = 3600.0


@dataclass(frozen=True)
class Opened:
    pairing: Pairing
    hosted: Hosted
    thread_id: int
    thread_name: str | None  # None: no thread, the match is played in the channel itself
    parent: int  # the channel the thread is in (where it is pointed at)
    challenger: User
    opposition: User


@dataclass(frozen=True)
class Unopened:
    """A pairing whose match could not be opened, and what each player is told of it."""

    pairing: Pairing
    texts: dict[int, str]


class Opener:
    def __init__(
        self,
        service: MatchService,
        store: Store,
        threads: Threads,
        clock: Callable[[], float],
        settings: Settings,
        rng: random.Random,
    ) -> None:
        self._service = service
        self._store = store
        self._threads = threads
        self._clock = clock
        self._settings = settings
        self._rng = rng

    async def resume(self, pairing: Pairing) -> Opened | Unopened | None:
        """Open the match of a stored pairing whose opener died: claimed first, so that it
        is opened once (None: it is gone, another opener holds its claim, or it is left for
        the next tick again)."""
        owner = claimant(self._store)
        found = await self._store.ladders.transact(
            lambda tx: tx.claim_pairing(pairing.id, owner, OPENING), self._clock()
        )
        return None if found is None else await self.open(found)

    async def open(
        self, pairing: Pairing, replying_to: int | None = None
    ) -> Opened | Unopened | None:
        """Open the match of a pairing claimed for this opener (``pairing.claimed_by``) in
        a new thread (the one opened before a crash, if any), then let the pairing go. If
        it cannot be opened (refused, or nowhere to play it), both players are told why
        privately, but for ``replying_to``, whose reply says it. Any other failure may
        pass (Discord or the database away for a moment): the pairing is kept, its claim
        let go, for the next tick to open (None); once ``GIVE_UP_AFTER`` has passed since
        the pairing, it is given up as a refusal is."""
        guild = await load_guild(self._store, pairing.guild_id)
        parent = guild.ladder_channel or pairing.channel_id
        challenger, opposition = await self._roles(pairing)
        with speaking(await server_language(self._store, pairing.guild_id)):
            name = _(
                "{challenger} vs {opposition} (ladder)",
                challenger=challenger.name,
                opposition=opposition.name,
            )[:THREAD_NAME]
            introduction = intro(pairing, challenger, opposition)
        terms = Terms.for_ladder(pairing.board)
        if guild.turn_seconds is not None:
            terms = replace(terms, turn_seconds=guild.turn_seconds)
        chosen = guild.clock  # the server's clock, if its admins chose one
        terms = terms.with_clock(
            chosen.clock, chosen.bank_seconds, chosen.increment_seconds, chosen.cap_seconds
        )
        try:
            thread = pairing.thread_id
            if thread is None:
                try:
                    thread = await self._thread(parent, name)
                except ChannelGone:
                    if parent == pairing.channel_id:
                        raise
                    log.warning("the ladder channel %d is gone: playing where they queued", parent)
                    parent = pairing.channel_id  # as with no ladder channel set
                    thread = await self._thread(parent, name)
                await self._transact(lambda tx: tx.pairing_thread(pairing.id, thread))
            shared = thread in (parent, pairing.channel_id)  # no thread of its own
            hosted = await self._opened_before(pairing, thread, shared)
            if hosted is None:
                hosted = await self._service.open_match(
                    Place(pairing.guild_id, thread),
                    challenger,
                    opposition,
                    terms,
                    intro=introduction,
                )
        except (Refused, Undeliverable) as exc:
            log.exception("ladder pairing %s could not be opened in channel %d", pairing, parent)
            return await self._give_up(pairing, parent, (challenger, opposition), exc, replying_to)
        except Exception as exc:
            if self._clock() - pairing.created_at >= GIVE_UP_AFTER:
                log.exception("ladder pairing %s: opening failed for an hour; given up", pairing)
                players = (challenger, opposition)
                return await self._give_up(pairing, parent, players, exc, replying_to)
            log.exception("ladder pairing %s: opening failed; the next tick tries again", pairing)
            owner = pairing.claimed_by or ""
            await self._transact(lambda tx: tx.let_go_pairing(pairing.id, owner))
            return None
        await self._transact(lambda tx: tx.drop_pairing(pairing.id))
        shown = None if thread in (parent, pairing.channel_id) else name
        return Opened(pairing, hosted, thread, shown, parent, challenger, opposition)

    async def point(self, opened: Sequence[Opened]) -> None:
        """Point at the matches just opened in threads of their own, in the channels the
        threads are in: a spectator there would not learn otherwise that they began (as a
        challenge opened in a thread says where it is). One post a channel for all of them,
        however many a tick opened at once, not one a match."""
        threaded: dict[int, list[Opened]] = {}
        for one in opened:
            if one.thread_name is not None:
                threaded.setdefault(one.parent, []).append(one)
        posts = []
        for parent, group in threaded.items():
            with speaking(await server_language(self._store, group[0].pairing.guild_id)):
                posts.append(Post(parent, pointer(group)))
        if posts:
            await self._transact(lambda tx: tx.post(posts))
            await self._service.deliver_written()

    async def _give_up(
        self,
        pairing: Pairing,
        parent: int,
        players: tuple[User, User],
        exc: Exception,
        replying_to: int | None,
    ) -> Unopened:
        """Drop the pairing whose match cannot be opened, each player told why."""
        told = {}
        for user, other in (players, players[::-1]):
            with speaking(await player_language(self._store, user.id)):
                told[user.id] = unopened_text(pairing, other, exc, self._settings)
        await self._tell(parent, told, replying_to, pairing.id)
        return Unopened(pairing, told)

    async def _thread(self, parent: int, name: str) -> int:
        """A new thread of ``parent``, or ``parent`` itself when Discord opens no thread
        there (the server's 1,000 active threads, no permission): the match is played there
        if no other is. ChannelGone when ``parent`` itself is (deleted)."""
        try:
            return await self._threads.open_thread(parent, name)
        except ChannelGone:
            raise
        except Undeliverable as exc:
            log.warning("a ladder match is played in channel %d itself: %s", parent, exc)
            return parent

    async def _opened_before(self, pairing: Pairing, thread: int, shared: bool) -> Hosted | None:
        """The pairing's match, if it was opened before a crash: a thread opened for this
        pairing alone holds no other match of its two players. A ``shared`` channel (no
        thread opened: the ladder's, or the one they queued in) may hold an earlier match
        of theirs, ended: only a live one there is taken for this pairing's."""
        if pairing.thread_id is None:
            return None
        hosted = await self._store.hosting.latest_in_channel(thread)
        players = {pairing.first_id, pairing.second_id}
        if hosted is None or {hosted.challenger_id, hosted.opposition_id} != players:
            return None
        return None if shared and not hosted.live else hosted

    async def _transact(self, work: Callable[[LadderTx], None]) -> None:
        await self._store.ladders.transact(work, self._clock())

    async def _roles(self, pairing: Pairing) -> tuple[User, User]:
        """(Challenger, Opposition): the lower rating first, a tie drawn."""
        ids = (pairing.first_id, pairing.second_id)
        names = await self._store.ladders.names(ids)
        first, second = (User(i, names.get(i, _("player {id}", id=i))) for i in ids)
        if pairing.first_rating == pairing.second_rating:
            swap = self._rng.random() < 0.5
        else:
            swap = pairing.second_rating < pairing.first_rating
        return (second, first) if swap else (first, second)

    async def _tell(
        self, channel_id: int, told: dict[int, str], replying_to: int | None, pairing_id: int
    ) -> None:
        """Tell the players, and let the pairing go, in one transaction."""
        posts = [
            private_post(channel_id, text, user, await player_language(self._store, user))
            for user, text in told.items()
            if user != replying_to
        ]

        def work(tx: LadderTx) -> None:
            tx.post(posts)
            tx.drop_pairing(pairing_id)

        await self._transact(work)
        await self._service.deliver_written()


def pointer(group: Sequence[Opened]) -> str:
    """The post pointing at the ladder matches ``group`` just opened in threads of one
    channel, a line each (as many as fit)."""
    if len(group) == 1:
        head = _("A rated ladder match has begun in its own thread:")
    else:
        head = _("Rated ladder matches have begun, each in its own thread:")
    return clipped(head, [(_pointed(one), True) for one in group])


def _pointed(one: Opened) -> str:
    thread = f"<#{one.thread_id}>"
    return _(
        "{challenger} v {opposition}, {ladder} ladder: {thread}",
        challenger=escape(one.challenger.name),
        opposition=escape(one.opposition.name),
        ladder=ladder_name(one.pairing.board),
        thread=thread,
    )


def intro(pairing: Pairing, challenger: User, opposition: User) -> str:
    ratings = {pairing.first_id: pairing.first_rating, pairing.second_id: pairing.second_rating}
    if is_robot(pairing.second_id):
        person = challenger if challenger.id == pairing.first_id else opposition
        return _(
            "Nobody else came for a {ladder} ladder match, so {player} plays the AI: a rated "
            "match on the {ai_ladder} ladder, {challenger} ({challenger_rating}) against "
            "{opposition} ({opposition_rating}); the lower rating plays the Challenger.",
            ladder=ladder_name(pairing.board),
            player=escape(person.name),
            ai_ladder=ladder_name(AI_PREFIX + pairing.board),
            challenger=escape(challenger.name),
            challenger_rating=round(ratings[challenger.id]),
            opposition=escape(opposition.name),
            opposition_rating=round(ratings[opposition.id]),
        )
    return _(
        "A rated {ladder} ladder match, paired from the queue: {challenger} "
        "({challenger_rating}) against {opposition} ({opposition_rating}); the lower rating "
        "plays the Challenger.",
        ladder=ladder_name(pairing.board),
        challenger=escape(challenger.name),
        challenger_rating=round(ratings[challenger.id]),
        opposition=escape(opposition.name),
        opposition_rating=round(ratings[opposition.id]),
    )


def unopened_text(pairing: Pairing, opponent: User, exc: Exception, settings: Settings) -> str:
    why = exc.message if isinstance(exc, Refused) else _("something went wrong on my side.")
    return _(
        "You were paired with {opponent} for a rated {ladder} ladder match, but I could not "
        "open it: {why} You have both left the queue; please tell a server admin, and join "
        "again with {command} when it is sorted out.",
        opponent=escape(opponent.name),
        ladder=ladder_name(pairing.board),
        why=why,
        command=settings.cmd("queue", localized=True),
    )
