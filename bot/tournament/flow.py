"""A running tournament: scoring each game as it ends, deciding matches, updating ranks,
pairing the next tier or crowning the champion, and opening the next games.

Every change is one transaction (``record`` and ``open_tier`` run inside
``store.tournaments.transact``) with the posts announcing it, queued in the match service's
outbox. Opening threads and games happens after it (``advance``), from what is stored: a
match of the current tier without an open game gets its next one. So a crash anywhere leaves
a state that ``catch_up`` finishes on the next start: games that ended while the bot was
down are scored, missing threads and games are opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.i18n import _, current, speaking
from bot.i18n.words import Language
from bot.service import Place, Refused, Terms, Undeliverable, User
from bot.service.phases import FINISHED, FORFEIT, LAPSED
from bot.service.texts import escape
from render import BracketMatch, bracket_png
from storage import Hosted, Post
from storage.competitions.tournaments import (
    CANCELLED,
    OPEN,
    RUNNING,
    MatchRow,
    RankChange,
    RankRow,
    Snapshot,
    TournamentRow,
    TournamentTx,
)
from storage.hosting.sharing import LeaseLost

from . import texts
from .captures import game_result
from .common import Running
from .match import STARTING_RANK, GameResult, Seat
from .points import Board, Captures
from .progress import (
    Decision,
    MatchState,
    advancing,
    challenger_of,
    decide,
    encode,
    is_final,
    pair_next,
    standing_of,
    states,
    tier_rows,
)
from .scoring import game_terms
from .transition import PlayerRank, Transition, ranks_after

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Played:
    """How a tournament game ended: its result, or None when it is played again."""

    ending: str
    result: GameResult | None


def lapsed(ready: str, challenger: Seat) -> GameResult:
    """A setup that lapsed: whoever finished their setup wins the game, nothing captured;
    if neither did, a tie (T17)."""
    winner = None
    if ready == "C":
        winner = challenger
    elif ready == "O":
        winner = challenger.other
    return GameResult((Captures(), Captures()), winner)


# ---- inside one transaction ----------------------------------------------------------------
def rank_of(tx: TournamentTx, guild_id: int, board: str) -> Callable[[int], int]:
    def rank(player_id: int) -> int:
        row = tx.rank(guild_id, board, player_id)
        return STARTING_RANK if row is None else row.rank

    return rank


def open_tier(tx: TournamentTx, snapshot: Snapshot, players: list[int], tier: int) -> None:
    """Pair ``players`` as ``tier`` and announce it (NoSubstitute if an odd tier has nobody
    to play its odd one out)."""
    t = snapshot.tournament
    pairings = pair_next(snapshot, players, rank_of(tx, t.guild_id, t.board))
    for position, pairing in enumerate(pairings, start=1):
        players_ = (pairing.first.player_id, pairing.second.player_id)
        ranks = (pairing.first.rank, pairing.second.rank)
        tx.add_match(t.id, tier, position, players_, ranks, pairing.substitute)
    tx.set_tier(t.id, tier)
    rows = tier_rows(tx.snapshot(t.id), tier)
    names = tx.names(e.player_id for e in snapshot.entries)
    tx.post([Post(t.channel_id, texts.tier_opened(t, tier, rows, names))])


def record(tx: TournamentTx, tournament_id: int, game_id: int, played: Played) -> bool:
    """Score (or void) an open game and settle what follows from it. True if the tier
    changed or the tournament finished (the bracket is worth posting again)."""
    snapshot = tx.snapshot(tournament_id)
    game = next(g for g in snapshot.games if g.id == game_id)
    if game.state != OPEN:
        return False
    if snapshot.tournament.status == CANCELLED:  # its games count for nothing now
        tx.void_game(game_id, played.ending)
        return False
    names = tx.names(e.player_id for e in snapshot.entries)
    row = next(r for r in snapshot.matches if r.id == game.match_id)
    thread = row.thread_id or snapshot.tournament.channel_id
    if played.result is None:
        tx.void_game(game_id, played.ending)
        tx.post([Post(thread, texts.game_void(game.number, played.ending))])
        return False
    result = played.result
    captures = (encode(result.captures[0]), encode(result.captures[1]))
    winner = None if result.winner is None else int(result.winner)
    tx.score_game(game_id, played.ending, winner, captures)
    snapshot = tx.snapshot(tournament_id)
    state = next(s for s in states(snapshot) if s.row.id == row.id)
    tx.post([Post(thread, texts.game_scored(state, game.number, result, names))])
    return settle(tx, snapshot, names)


def settle(tx: TournamentTx, snapshot: Snapshot, names: Mapping[int, str]) -> bool:
    """Decide the current tier's matches that are over; once all are, open the next tier or
    name the champion."""
    t = snapshot.tournament
    for state in states(snapshot):
        if state.row.tier != t.tier or state.row.winner_id is not None:
            continue
        record_ = None
        if is_final(snapshot, state.row):
            record_ = (
                standing_of(snapshot, state.row.first_id),
                standing_of(snapshot, state.row.second_id),
            )
        decision = decide(state, record_)
        if decision is not None:
            close_match(tx, snapshot, state, decision, names)
    snapshot = tx.snapshot(t.id)
    rows = tier_rows(snapshot, t.tier)
    if any(row.winner_id is None for row in rows):
        return False
    winners = advancing(rows)
    if len(winners) == 1:
        tx.finish(t.id, winners[0])
        tx.post([Post(t.channel_id, texts.champion(t, winners[0], names))])
    else:
        open_tier(tx, snapshot, winners, t.tier + 1)
    return True


def close_match(
    tx: TournamentTx,
    snapshot: Snapshot,
    state: MatchState,
    decision: Decision,
    names: Mapping[int, str],
) -> None:
    t, row = snapshot.tournament, state.row
    winner = state.players()[decision.winner]
    tx.decide(row.id, winner, state.match.score.game_points, decision.how)
    ranks = update_ranks(tx, snapshot, state)
    text = texts.match_decided(t, state, decision, ranks, names)
    posts = [Post(t.channel_id, text)]
    if row.thread_id is not None:
        posts.insert(0, Post(row.thread_id, text))
    tx.post(posts)


def update_ranks(tx: TournamentTx, snapshot: Snapshot, state: MatchState) -> dict[int, PlayerRank]:
    """Both players' ranks after the match (``ranks_after``); a substitute's is not kept."""
    t, row = snapshot.tournament, state.row
    board = Board(t.board)
    stored = tx.rank(t.guild_id, t.board, row.first_id)
    first = PlayerRank(board) if stored is None else player_rank(board, stored)
    if row.substitute:
        second = PlayerRank(board, row.second_rank)
    else:
        stored = tx.rank(t.guild_id, t.board, row.second_id)
        second = PlayerRank(board) if stored is None else player_rank(board, stored)
    after = ranks_after(state.match, (first, second))
    kept = {row.first_id: (first, after[0])}
    if not row.substitute:
        kept[row.second_id] = (second, after[1])
    for player, (before, now) in kept.items():
        change = RankChange(player, before.rank, rank_row(now))
        tx.put_rank(t.guild_id, t.board, row.id, change)
    return {player: now for player, (_before, now) in kept.items()}


def player_rank(board: Board, row: RankRow) -> PlayerRank:
    transition = None
    if row.transition_rank is not None:
        transition = Transition(row.transition_rank, row.played_like)
    return PlayerRank(board, row.rank, transition)


def rank_row(rank: PlayerRank) -> RankRow:
    if rank.transition is None:
        return RankRow(rank.rank, None, ())
    return RankRow(rank.rank, rank.transition.rank, rank.transition.played_like)


# ---- the running tournaments ----------------------------------------------------------------
class Flow(Running):
    """Listens to the match service, and keeps every running tournament moving. One lock
    for all tournament changes: they are few, and a game's end must never be looked up
    before the game that ended is recorded."""

    kind = "tournament"

    async def ended(self, hosted: Hosted) -> None:
        """The match service's ``on_ended`` listener. A tournament changes in one process at
        a time (its lease): two of its games may end at once in two processes. While another
        process holds it, the ending is left to the catch-up (``_unless_held``)."""
        async with self.lock:
            found = await self.store.tournaments.game_of_hosted(hosted.id)
            if found is None or found[1].state != OPEN:
                return
            async with self._unless_held(found[0]) as held:
                if not held:
                    return
                found = await self.store.tournaments.game_of_hosted(hosted.id)
                if found is None or found[1].state != OPEN:  # scored by another meanwhile
                    return
                changed = await self._score(found[0], found[1].id, found[1].number, hosted)
                await self._move_on(found[0], changed)

    async def catch_up(self) -> None:
        """Score the games that ended while nobody listened, then open what is missing: on
        start, and every minute (``tick``), since an ending is heard once, and one whose
        recording failed (a database blip) would wait for a restart."""
        with self.service.at_work():
            await self._each(self.store.tournaments.running, self._catch_up, "catch up")

    async def call_off_strays(self) -> None:
        """On start: call off each live game of a cancelled tournament, which a crash
        between cancelling and calling its games off left running (nothing else looks at a
        cancelled tournament again). Not under the lock: each end is heard by ``ended``."""
        for hosted_id in await self.store.tournaments.live_games_cancelled():
            hosted = await self.store.hosting.get(hosted_id)
            found = await self.store.tournaments.game_of_hosted(hosted_id)
            if found is None or not hosted.live:
                continue
            t = (await self.store.tournaments.snapshot(found[0])).tournament
            names = await self.store.tournaments.names((t.organiser_id,))
            referee = User(t.organiser_id, names.get(t.organiser_id, "?"))
            place = Place(hosted.guild_id, hosted.channel_id)
            with contextlib.suppress(Refused):  # it ended meanwhile
                await self.service.cancel(place, referee, admin=True, one_of_many=True)

    async def _catch_up(self, tournament_id: int) -> None:
        snapshot = await self.store.tournaments.snapshot(tournament_id)
        changed = False
        for game in snapshot.games:
            if game.state != OPEN:
                continue
            hosted = await self.store.hosting.get(game.hosted_id)
            if not hosted.live:
                changed |= await self._score(tournament_id, game.id, game.number, hosted)
        await self._move_on(tournament_id, changed)

    async def _move_on(self, tournament_id: int, changed: bool) -> None:
        """Open the games due, then post the bracket if a tier changed: the picture after
        the games, so that its failure keeps no player from their game."""
        await self.advance(tournament_id)
        if changed:
            await self.post_bracket(tournament_id)
        await self.service.deliver_written()

    async def _score(self, tournament_id: int, game_id: int, number: int, hosted: Hosted) -> bool:
        """Record a game that ended; True if a tier changed (the bracket is worth posting)."""
        played = await self._played(hosted, challenger_of(number))
        guild_id = (await self.store.tournaments.snapshot(tournament_id)).tournament.guild_id
        with speaking(await self.language(guild_id)):  # what the game settles is posted
            return await self.store.tournaments.transact(
                lambda tx: record(tx, tournament_id, game_id, played), self.clock.now()
            )

    async def _played(self, hosted: Hosted, challenger: Seat) -> Played:
        ending = hosted.ending or ""
        if ending in (FINISHED, FORFEIT) and hosted.match_id is not None:
            stored = await self.store.load(hosted.match_id)
            return Played(ending, await asyncio.to_thread(game_result, stored.game, challenger))
        if ending == LAPSED:
            return Played(ending, lapsed(hosted.ready, challenger))
        return Played(ending, None)

    async def post_bracket(self, tournament_id: int) -> None:
        """The bracket image, posted after a tier changed (its own transaction: a crash
        right before it loses only this picture, which ``standings`` draws again)."""
        snapshot = await self.store.tournaments.snapshot(tournament_id)
        names = await self.names(snapshot)
        t = snapshot.tournament
        with speaking(await self.language(t.guild_id)):
            png = await self.service.paint(bracket_drawing(snapshot, names))
            text = _("The bracket of **{name}**:", name=escape(t.name))
        post = Post(t.channel_id, text, files=(("bracket.png", png),))
        await self.store.tournaments.transact(lambda tx: tx.post([post]), self.clock.now())

    async def names(self, snapshot: Snapshot) -> dict[int, str]:
        return await self.store.tournaments.names(e.player_id for e in snapshot.entries)

    async def advance(self, tournament_id: int) -> None:
        """Open a thread and the next game for every match of the current tier that needs
        one. Call with the lock held."""
        snapshot = await self.store.tournaments.snapshot(tournament_id)
        if snapshot.tournament.status != RUNNING:
            return
        names = await self.names(snapshot)
        unthreaded: list[MatchRow] = []  # matches Discord opened no thread for just now
        for state in states(snapshot):
            row = state.row
            if row.tier != snapshot.tournament.tier or row.winner_id is not None:
                continue
            if state.open_game is not None:
                continue
            try:
                await self._open_game(snapshot, state, names, unthreaded)
            except LeaseLost:
                raise  # another process goes on from what is stored
            except Exception:  # tried again at the next step; the others go on
                log.exception("tournament match %d: its next game could not be opened", row.id)
        if unthreaded:
            await self._tell_unthreaded(snapshot.tournament, unthreaded, names)

    async def _tell_unthreaded(
        self, t: TournamentRow, rows: list[MatchRow], names: Mapping[int, str]
    ) -> None:
        """The tier's post said each match has a thread of its own: where Discord opened
        none, the channel is told, in one post, and so are those matches' players (a crash
        before it loses only this post)."""
        with speaking(await self.language(t.guild_id)):
            text = texts.matches_here(t, rows, names)
        players = dict.fromkeys(p for row in rows for p in (row.first_id, row.second_id))
        post = Post(t.channel_id, text, mentions=(*players,))
        await self.store.tournaments.transact(lambda tx: tx.post([post]), self.clock.now())

    async def _open_game(
        self,
        snapshot: Snapshot,
        state: MatchState,
        names: Mapping[int, str],
        unthreaded: list[MatchRow],
    ) -> None:
        """Open the match's next game, in a thread opened first (``unthreaded`` gets the
        match when Discord opens none, and its games are played in the channel)."""
        self.check_lease()
        t, row = snapshot.tournament, state.row
        number = state.next_number
        with speaking(await self.language(t.guild_id)):
            name, intro = texts.thread_name(t, row, names), texts.game_intro(t, row, number, names)
        thread = row.thread_id
        if thread is None:
            opened = await self._match_channel(t.channel_id, name)
            await self.store.tournaments.transact(
                lambda tx: tx.set_thread(row.id, opened), self.clock.now()
            )
            thread = opened
            if opened == t.channel_id:
                unthreaded.append(row)
        own_thread = thread != t.channel_id
        if not own_thread and await self.store.hosting.live_in_channel(thread) is not None:
            log.info("tournament match %d waits for channel %d's game to end", row.id, thread)
            return
        seat = challenger_of(number)
        players = state.players()
        challenger, opposition = players[seat], players[seat.other]
        hosted = await self._host(
            Place(t.guild_id, thread),
            User(challenger, names[challenger]),
            User(opposition, names[opposition]),
            game_terms(t.board, t.turn_seconds, rated=False, away_days=t.away_days),
            intro,
            own_thread,
        )
        await self.store.tournaments.transact(
            lambda tx: tx.add_game(row.id, number, hosted.id), self.clock.now()
        )

    async def _match_channel(self, channel_id: int, name: str) -> int:
        """A new thread of the tournament's channel for a match's games, or the channel
        itself when Discord opens no thread there (a thread, the server's 1,000 active
        threads): such matches then play there one game after another."""
        try:
            return await self.threads.open_thread(channel_id, name)
        except Undeliverable as exc:
            log.warning("a tournament match is played in channel %d: %s", channel_id, exc)
            return channel_id

    async def _host(
        self,
        place: Place,
        challenger: User,
        opposition: User,
        terms: Terms,
        intro: str,
        own_thread: bool,
    ) -> Hosted:
        """``open_match``; after a crash between opening a game and recording it, the game
        already live in the thread is adopted instead, or the one that has ended there since
        (resigned while no process moved the tournament on: the catch-up scores it), so that
        its result is kept and no second game opened. Only in the match's ``own_thread``:
        in the tournament's channel (no thread opened) the two may play or have played a
        casual match, which is not the tournament's (the match waits for it to end)."""
        latest = await self.store.hosting.latest_in_channel(place.channel_id)
        if (
            own_thread
            and latest is not None
            and not latest.live
            and (latest.challenger_id, latest.opposition_id) == (challenger.id, opposition.id)
            and await self.store.tournaments.game_of_hosted(latest.id) is None
        ):
            log.info("tournament game %d, ended unrecorded, adopted", latest.id)
            return latest
        try:
            return await self.service.open_match(place, challenger, opposition, terms, intro)
        except Refused:
            live = await self.store.hosting.live_in_channel(place.channel_id)
            if (
                not own_thread
                or live is None
                or (live.challenger_id, live.opposition_id) != (challenger.id, opposition.id)
                or await self.store.tournaments.game_of_hosted(live.id) is not None
            ):
                raise
            return live


def bracket_drawing(snapshot: Snapshot, names: Mapping[int, str]) -> Callable[[], bytes]:
    """The bracket to draw (a call of plain data, for a drawing worker): every tier's
    matches with their Game Points and winners, its words in the current language (chosen
    here, where the language is known)."""
    tiers: dict[int, list[BracketMatch]] = {}
    for state in states(snapshot):
        row = state.row
        points = state.match.score.game_points
        winner = None
        if row.winner_id is not None:
            winner = 0 if row.winner_id == row.first_id else 1
        first, second = names[row.first_id], names[row.second_id]
        shown = _("{player} (sub)", player=second) if row.substitute else second
        tiers.setdefault(row.tier, []).append(
            BracketMatch(first, shown, points, winner, len(state.match.games), (first, second))
        )
    t = snapshot.tournament
    champion = None if t.champion_id is None else names[t.champion_id]
    title = _(
        "{name} - {board}, matches to {target}",
        name=t.name,
        board=texts.board_words(t.board),
        target=t.target,
    )
    ordered = [tiers[n] for n in sorted(tiers)]
    return functools.partial(bracket_png, title, ordered, champion, Language(current()))
