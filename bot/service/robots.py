"""The host's AI players (the engines of ``ai``): one per strength, each a player of its own
with a negative id (Discord's are positive), so that its results stand apart (the AI
ladders) and nothing is ever sent to it. They play through the same flows as people: they
choose their setup, play their turns (searched in a worker process on the game as they may
know it, ``for_player``), and answer proposals; the service asks ``Robots.consider`` after
every change of a match whether one of them has something to do.

Hints for people in practice games are ``hints``'."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import ai
from bot.i18n import _, ngettext
from rules import ActionError, GameState, Side
from rules.words import Text, msg
from storage import Hosted, Store

from . import agreements, play, setup_phase
from .backoff import Backoff
from .context import Context
from .errors import Refused, StaleRequest
from .fairness import Owner
from .guild import load_guild
from .models import AI_IDS, Reply, User, is_robot
from .offload import WorkerFailed
from .phases import PLAYING, SETUP
from .play import EngineRefused
from .ports import Stamp
from .table import DRAW, PAUSE, REWIND, Table
from .terms import Settings
from .texts import quote

log = logging.getLogger(__name__)
CHOOSE, TURN, ANSWER = "choose setup", "play a turn", "answer a proposal"
GIVE_UP_AFTER = 3  # commands failed in a row (a bug) before an AI leaves a match to its clock
FALLBACK = "random"  # plays the turn after the engine's was refused: legal, never searching
RATED_PAUSE = msg(
    "The AI agrees to a pause in practice games only: it never resumes a match itself, and no "
    "other match may wait paused for ever."
)  # said after its decline, worded in the post's language
FIRST_WAIT, LONGEST_WAIT = 0.5, 60.0  # seconds after another failure (the database away)

Flow = Callable[[Table], Awaitable[Reply]]
Peek = Callable[[int], Awaitable["Job | None"]]
Run = Callable[[int, Stamp, Flow], Awaitable[Reply]]


def robot(level: str) -> User:
    """The AI player of ``level``."""
    if level not in AI_IDS:
        raise Refused(
            _("The AI plays `easy`, `normal`, `hard` or `master`, not {level}.", level=quote(level))
        )
    return User(AI_IDS[level], f"AI ({level})")


def level_of(user_id: int | None) -> str | None:
    """The strength of the AI player ``user_id``; None for a person."""
    return next((level for level, uid in AI_IDS.items() if uid == user_id), None)


def robot_sides(hosted: Hosted) -> list[Side]:
    """The sides AI players play in ``hosted`` (none before the roles are settled)."""
    if hosted.challenger_id is None or hosted.opposition_id is None:
        return []
    return [side for side in Side if is_robot(hosted.player(side))]


@dataclass(frozen=True)
class Job:
    """What an AI of ``level`` playing ``side`` has to do in a match at ``stamp``: choose
    its setup, play its turn on ``game`` (as it may know it: ``with_game``), or answer
    proposal ``kind``."""

    kind: str
    side: Side
    level: str
    stamp: Stamp
    owner: Owner
    game: GameState | None = None
    proposal: str = ""
    offer_draw: bool = False


def owner_of(hosted: Hosted, side: Side) -> Owner:
    """Whom the AI playing ``side`` serves when it searches: the person it plays against
    (a match between two AI players: its channel)."""
    opponent = hosted.player(side.other)
    who = ("channel", hosted.channel_id) if is_robot(opponent) else opponent
    return Owner(hosted.guild_id, who)


def job_of(table: Table) -> Job | None:
    """What an AI in this match has to do now, if anything (a turn's game not yet copied:
    asked after every change, this only looks)."""
    hosted = table.hosted
    sides = robot_sides(hosted)
    if not sides:
        return None

    def job(kind: str, side: Side, proposal: str = "") -> Job:
        level = level_of(hosted.player(side)) or ""
        return Job(kind, side, level, table.stamp, owner_of(hosted, side), proposal=proposal)

    if hosted.phase == SETUP:
        waiting = [side for side in sides if side.letter not in hosted.ready]
        return job(CHOOSE, waiting[0]) if waiting else None
    if hosted.phase != PLAYING or table.match is None or table.game.is_over():
        return None
    for kind, proposer in sorted(table.offers().items()):
        if proposer.other in sides and not kept_back(table, kind):
            return job(ANSWER, proposer.other, kind)  # two AI players: the other answers
    side = table.game.side
    if table.paused or side not in sides:
        return None
    return job(TURN, side)


def kept_back(table: Table, kind: str) -> bool:
    """Whether the AI leaves proposal ``kind`` unanswered and plays on: a takeback its
    running turn could not accept, as it holds an action the rules never take back (TORA's
    search, R10, which it stages alone before thinking on: ``ai.plays_alone``). The request
    lapses when that turn ends, as when a player ends their turn over it; declining would
    say in public, before its turn shows it, that what it staged holds a search."""
    if kind != REWIND:
        return False
    try:
        table.game.check_discard()
    except ActionError:
        return True
    return False


def with_game(job: Job, table: Table) -> Job:
    """The job, with the game a turn is searched on (as the AI may know it), and whether
    the AI offers a draw first (a game going nowhere, ``ai.offers_draw``)."""
    if job.kind != TURN:
        return job
    offer = table.may_propose(DRAW, job.side) and ai.offers_draw(table.game, job.side)
    return replace(job, game=table.game.for_player(job.side), offer_draw=offer)


def flow_of(ctx: Context, job: Job, texts: list[str], ends: bool = True) -> Flow:
    """The command an AI gives for ``job`` (``texts``: the turn it searched; ``ends``: False
    for an action it plays alone, its turn going on, ``ai.plays_alone``)."""
    user = robot(job.level)

    async def flow(table: Table) -> Reply:
        if not still_to_do(table, job):  # a proposal came while it searched: answer it first
            raise StaleRequest(_("The AI's work in that match had changed, so nothing was done."))
        if job.kind == CHOOSE:
            answers = setup_phase.drawn_setup(table.terms, job.side, ctx.hidden)
            return await setup_phase.choose(ctx, table, user, answers)
        if job.kind == TURN:
            if job.offer_draw:
                await agreements.propose(ctx, table, user, DRAW)
            if not ends:  # staged alone: the next job asks for the rest of the turn
                return await play.play(ctx, table, user, texts[0], preview=False)
            return await play.whole_turn(ctx, table, user, texts)
        if agrees(table, job):
            return await agreements.propose(ctx, table, user, job.proposal)
        return await agreements.decline(ctx, table, user, only=job.proposal, why=why_not(job))

    return flow


def still_to_do(table: Table, job: Job) -> bool:
    """Whether ``job`` is still what the AI has to do in the match as it is now (under the
    lock): a proposal made while its turn was searched comes first, its stamp unchanged."""
    now = job_of(table)
    return now is not None and (now.kind, now.side, now.proposal) == (
        job.kind,
        job.side,
        job.proposal,
    )


def agrees(table: Table, job: Job) -> bool:
    """An AI agrees to a takeback (only ever asked in a casual match; one it cannot accept
    it never answers: ``kept_back``), to a pause in a practice game (it never resumes a match: a
    rated one would wait paused for ever, out of its ladder, docs/SERVICE.md's hostage, and
    a competition's would hold its round up), and
    to a draw (or a reset) only when it stands worse by its own judgement of what it may
    know, or when the game is going nowhere (``ai.takes_draw``); else it declines."""
    if job.proposal == PAUSE:
        return table.practice
    if job.proposal == REWIND:
        return True  # one it could not accept is left to lapse (``kept_back``)
    return ai.takes_draw(table.game, job.side)


def why_not(job: Job) -> Text | None:
    """What the AI says after declining ``job``'s proposal (None: nothing, a draw it does
    not want)."""
    return RATED_PAUSE if job.proposal == PAUSE else None


class Robots:
    """Runs the AI players' work, one task per match at a time. ``peek`` reads a match's
    job under its lock; ``run`` applies a flow as a player's command (under the lock, the
    stamp checked)."""

    def __init__(self, ctx: Context, peek: Peek, run: Run, first_wait: float = FIRST_WAIT) -> None:
        self._ctx = ctx
        self._peek = peek
        self._run = run
        self._first_wait = first_wait
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def consider(self, table: Table) -> None:
        """Called after every change of a match: start its AI's work if it has any."""
        if job_of(table) is not None or table.channel_id in self._tasks:
            self.look(table.channel_id)

    def look(self, channel: int) -> None:
        """Have the AI look at the match in ``channel`` as stored (``peek``), even with no
        copy in memory to say it has work: after a command failed whose write may have gone
        through (its answer lost), nothing else would look until the AI's deadline."""
        if channel in self._tasks:
            self._again.add(channel)  # the running task looks again before it stops
            return
        self._tasks[channel] = asyncio.create_task(self._work(channel), name=f"tora-ai-{channel}")

    def busy(self, channel: int) -> bool:
        """Whether this process's AI is at work in ``channel``."""
        return channel in self._tasks

    async def idle(self) -> None:
        """Wait until no AI has anything left to do (for tests and a clean stop)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks = {}

    async def _work(self, channel: int) -> None:
        """Do the match's AI work until it has none. A turn of the engine's the rules
        refused, or a search that failed, is followed by a random legal turn (``_do``), and
        ``GIVE_UP_AFTER`` of them (or of refusals of its commands) in a row leave the match
        to its clock (a bug). Any other failure (the database away, say) is tried again
        after a wait, longer after each one in a row, for as long as it lasts: nothing else
        would look at the match again until it changed, and the AI's missed turns count to
        a forfeit."""
        wrong = 0  # the engine's turns in a row refused, or whose search failed
        backoff = Backoff(self._first_wait, LONGEST_WAIT)
        try:
            while wrong < GIVE_UP_AFTER:
                self._again.discard(channel)
                try:
                    job = await self._peek(channel)
                    if job is None:
                        if channel in self._again:
                            continue
                        return
                    await self._do(channel, job, fallback=wrong > 0)
                except StaleRequest:  # a person's command came first: look again
                    continue
                except (EngineRefused, WorkerFailed, Refused):  # would fail again as it is
                    wrong += 1
                    log.exception("the AI in channel %d: its command failed", channel)
                    continue
                except Exception:
                    seconds = backoff.failed()
                    log.exception(
                        "the AI in channel %d: a failure; again in %.1f s", channel, seconds
                    )
                    await asyncio.sleep(seconds)
                    continue
                wrong = 0
                backoff.reset()
            log.error("the AI in channel %d gives up; the match's clock goes on", channel)
        finally:
            self._tasks.pop(channel, None)

    async def _do(self, channel: int, job: Job, fallback: bool = False) -> None:
        """``fallback``: the engine's last try failed (a bug of it); a random legal turn
        now, so that the match goes on."""
        texts: list[str] = []
        ends = True
        if job.kind == TURN and job.game is not None:
            level = FALLBACK if fallback else job.level
            texts = await self.search(job.game, level, job.owner)
            ends = not ai.plays_alone(job.game, texts)
        await self._run(channel, job.stamp, flow_of(self._ctx, job, texts, ends))

    async def search(self, game: GameState, level: str, owner: Owner) -> list[str]:
        """The turn ``level`` plays on ``game`` (as the side to act may know it), searched
        in ``owner``'s turn for a worker (``fairness``)."""
        settings = self._ctx.settings
        seconds = settings.ai_seconds or ai.turn_seconds(game, level)
        seed = self._ctx.rng.randrange(2**31)
        return await self._ctx.offload.ai_turn(game, level, seconds, seed, owner)


# ---- challenging the AI, and hints ----------------------------------------------------------
def _at_own_cap(most: int, playing: int, pending: int) -> str:
    """The refusal of a player who has ``most`` matches against the AI, ``playing`` of them
    under way and ``pending`` ladder pairings whose match has yet to open (nothing to finish
    or resign there yet: with none under way, they are told to wait)."""
    if pending and not playing:
        return ngettext(
            "You already have {n} match against the AI, the most one player may have at once, "
            "counting your ladder pairing with the AI whose match has yet to open: once it is "
            "open, finish or resign one first.",
            "You already have {n} matches against the AI, the most one player may have at "
            "once, counting your ladder pairing with the AI whose match has yet to open: once "
            "it is open, finish or resign one first.",
            most,
        )
    return ngettext(
        "You already play {n} match against the AI, the most one player may have at once. "
        "Finish or resign one of them first.",
        "You already play {n} matches against the AI, the most one player may have at once. "
        "Finish or resign one of them first.",
        most,
    )


async def check_challenge(
    ctx: Context, level: str, user_id: int, live: list[Hosted], guild_id: int
) -> User:
    """The AI player a challenge names, unless the player ``user_id`` already has as many
    matches against the AI as one may have (``live``: the live matches they are in, and
    their ladder pairings with the AI not open yet), or the server as many as its cap
    allows."""
    opponent = robot(level)
    unopened = await _unopened_with_ai(ctx.store)
    against = [hosted for hosted in live if robot_sides(hosted)]
    most = ctx.settings.ai_matches
    pending = sum(user_id in players for _guild, *players in unopened)
    if len(against) + pending >= most:
        raise Refused(_at_own_cap(most, len(against), pending))
    cap = await guild_ai_cap(ctx.store, ctx.settings, guild_id)
    if cap == 0:
        raise Refused(_("This server's admins have turned matches against the AI off here."))
    if await _ai_taken(ctx.store, guild_id, unopened) >= cap:
        raise Refused(
            ngettext(
                "This server already has {n} match against the AI going, the most its admins "
                "allow at once. Try again once one of them has ended.",
                "This server already has {n} matches against the AI going, the most its admins "
                "allow at once. Try again once one of them has ended.",
                cap,
            )
        )
    return opponent


async def guild_ai_cap(store: Store, settings: Settings, guild_id: int) -> int:
    """How many matches against the AI may be live in a server at once: its admins' cap,
    else the service's."""
    cap = (await load_guild(store, guild_id)).ai_matches
    return settings.guild_ai_matches if cap is None else cap


async def at_ai_cap(store: Store, settings: Settings) -> frozenset[int]:
    """The people who already have as many matches against the AI as one may have at
    once (``Settings.ai_matches``, in every server: live, or ladder pairings not open
    yet): the AI filling a ladder queue leaves them out, as a challenge of theirs would be
    refused."""
    matches = [
        [hosted.player(side) for side in Side]
        for hosted in await store.hosting.live()
        if robot_sides(hosted)
    ]
    matches += [players for _guild, *players in await _unopened_with_ai(store)]
    counts = Counter(
        person
        for players in matches
        for person in players
        if person is not None and not is_robot(person)
    )
    return frozenset(user_id for user_id, n in counts.items() if n >= settings.ai_matches)


async def ai_room(store: Store, settings: Settings, guild_id: int) -> int:
    """How many more matches against the AI may begin in a server now (its cap less those
    taken, ``_ai_taken``): the AI filling the ladder queue keeps within it too."""
    cap = await guild_ai_cap(store, settings, guild_id)
    return max(0, cap - await _ai_taken(store, guild_id, await _unopened_with_ai(store)))


async def _ai_taken(store: Store, guild_id: int, unopened: list[tuple[int, int, int]]) -> int:
    """How much of a server's cap on matches against the AI is taken: its live ones, and
    its ladder pairings with the AI whose match is not open yet (``unopened``)."""
    waiting = sum(guild == guild_id for guild, *_players in unopened)
    return await store.live_ai_matches(guild_id) + waiting


async def _unopened_with_ai(store: Store) -> list[tuple[int, int, int]]:
    """The server and the two players of each ladder pairing with the AI whose match is
    not open yet: an opening that failed is kept for the next tick, which opens it
    whatever the room then, so it takes the room of a match against the AI."""
    return [
        (p.guild_id, p.first_id, p.second_id)
        for p in await store.ladders.pairings()
        if is_robot(p.first_id) or is_robot(p.second_id)
    ]
