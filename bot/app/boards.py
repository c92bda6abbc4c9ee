"""A match as a web board shows it, for any front end that draws its own board: the state
as plain JSON-ready data (players, phase, turn, deadline, the move list in words and
notation, the result, the board picture's size and the squares' rectangles on it) and the
pictures themselves (the public board now or after any turn of the replay, a player's own
board pointing out a picked piece's actions). Built from the match service's ``look``
alone: a spectator's state only from ``view_for(None)``, a player's from their own view.

Each state carries ``version``, a digest of the state itself: equal states have equal
versions, so a version says nothing the state does not say (a staged action the audience
cannot see never moves it). States and public records are kept (``board_memo``), so that a
page's many reads and its event stream's checks after each change of its match cost a look,
not a state.

A state and its pictures are in the language of their audience (``language``, a field of the
state): a player's own in that player's (``player_language``), the public one in the server's
(``server_language``; a match in a direct message has none: the page's reader's, which the web
layer gives as ``fallback``). The language is part of what a state is kept by, and it is the
same in worlds that differ only in what is hidden."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.i18n import SOURCE, _, speaking, word
from bot.service import Hosted, MatchService, Refused, Terms
from bot.service.looking import NO_SUCH_MATCH, Look, Recent
from bot.service.phases import ENDED, PLAYING, SETUP
from bot.service.pointing import pointing
from bot.service.ports import Status
from bot.service.questions import SetupForm
from bot.service.showing import result_words
from bot.service.texts import listing
from render.drawings import drawing_of
from render.pointing import Cell
from rules import GameView, Side, game_type
from rules.protocol import Choice, ChoiceGroup
from rules.records import RecordError, ReplayError

from .board_memo import RECORDS, STATES, Kept, States, fingerprint, record_key, versioned
from .listing import closing_words
from .page_words import page_text, setup_text
from .pictures import BytesCache, worded

PICTURES = 32 * 1024 * 1024  # bytes of board pictures kept
SEATED = 4096  # matches whose server and players ``page_language`` keeps
# The public views of replayed records kept, counted in views (a TORA view is some 50 kB,
# a long match's record hundreds of them: a count of records bounded nothing)
REPLAY_VIEWS = 2_000
LAYOUTS = 256  # pictures' sizes and cells kept, by game and where the squares are
# Replays worked out at once: a long match's is hundreds of milliseconds of Python in a
# thread, holding the interpreter, and anyone may ask for the pages of every ended match at
# once (their numbers follow each other): more together would only take the threads and the
# time the rest of the bot waits for
REPLAYS_AT_ONCE = 1


@dataclass(frozen=True)
class _Replayed:
    """A record's public views (None: it does not replay), counted as its views and one
    more for a cache bounded by that count (``REPLAY_VIEWS``)."""

    views: list[Any] | None

    def __len__(self) -> int:
        return 1 + len(self.views or ())


class NoSuchPicture(Refused):
    """A picture that cannot be drawn as asked (a turn the replay does not have)."""


@dataclass(frozen=True)
class Picture:
    png: bytes
    cells: dict[str, tuple[int, int, int]]

    @property
    def size(self) -> tuple[int, int]:
        """Width and height, from the PNG's header (IHDR: bytes 16 to 24)."""
        width, height = struct.unpack(">II", self.png[16:24])
        return width, height


def side_name(side: Side) -> str:
    return side.title.lower()


class Boards:
    """The states and pictures of the web board's pages, for ``Seats`` and the web layer."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.records = service.records
        self._pictures: BytesCache[bytes] = BytesCache(PICTURES)
        self._layouts: Recent[dict[str, Any]] = Recent(LAYOUTS)  # a picture's size and cells
        self._replays: BytesCache[_Replayed] = BytesCache(REPLAY_VIEWS)
        self._replaying = asyncio.Semaphore(REPLAYS_AT_ONCE)
        self._states = States(STATES)
        self._records: Recent[str] = Recent(RECORDS)
        # Matches whose players are known, for ``page_language``, read at every request of
        # a page (only their server and players are read: neither changes any more).
        self._seated: Recent[Hosted] = Recent(SEATED)

    # ---- states ----------------------------------------------------------------------------
    async def public(self, match: int) -> dict[str, Any]:
        """The public state of hosted match ``match`` (Refused: there is none)."""
        return dict((await self.public_kept(match)).state)

    async def public_kept(self, match: int, fallback: str = SOURCE) -> Kept:
        """``public`` with its JSON; ``fallback``: its language if the match has no server."""
        look = await self.service.look(match)
        language = await self.language(look, fallback)
        key = f"{language}:{fingerprint(look, 'public')}"
        return await self._states.get(key, lambda: self._public(look, language))

    async def _public(self, look: Look, language: str) -> Kept:
        with speaking(language):
            url = f"/api/m/{look.hosted.id}/board.png"
            return versioned(await self._common(look, url, language))

    async def mine(self, match: int, side: Side) -> dict[str, Any]:
        """The state ``side``'s player sees: the public one's fields from their own view,
        with their side, staged actions, legal actions, setup form, the proposals open and
        those they may make (``proposable``)."""
        return dict((await self.mine_kept(match, side)).state)

    async def mine_kept(self, match: int, side: Side, seen: bool = True) -> Kept:
        """``mine`` with its JSON; ``seen``: the player is looking (``MatchService.look``)."""
        look = await self.service.look(match, side, seen=seen)
        language = await self.language(look)
        key = f"{language}:{fingerprint(look, 'mine')}"
        return await self._states.get(key, lambda: self._mine(look, side, language))

    async def language(self, look: Look, fallback: str = SOURCE) -> str:
        """The language ``look``'s audience reads: its player's for a player's own, the
        server's for anyone (``fallback`` where there is none)."""
        return await self._language_of(look.hosted, look.viewer, fallback)

    async def page_language(self, match: int, side: Side | None, fallback: str = SOURCE) -> str:
        """The language of a page of hosted match ``match`` for ``side``'s player, or for
        anyone (None); ``fallback`` when there is no such match."""
        hosted = await self._seated_match(match)
        if hosted is None:
            return fallback
        return await self._language_of(hosted, side, fallback)

    async def hosts(self, match: int) -> bool:
        """Whether there is a hosted match ``match`` (a page of one there is not is a 404)."""
        return await self._seated_match(match) is not None

    async def _seated_match(self, match: int) -> Hosted | None:
        """Hosted match ``match`` (None: there is none), kept once its players are known."""
        hosted = self._seated.get(match)
        if hosted is None:
            hosted = await self.records.hosted(match)
            if hosted is not None and hosted.challenger_id is not None:
                self._seated.keep(match, hosted)  # its server and players are settled now
        return hosted

    async def _language_of(self, hosted: Hosted, side: Side | None, fallback: str) -> str:
        """``side``'s player's language; for anyone (None) the server's. ``fallback`` where
        there is neither: no players yet, a match in a direct message."""
        if side is not None and hosted.challenger_id is not None:
            return (await self.records.player_language(hosted.player(side))).resolved()
        if side is not None or not hosted.guild_id:
            return fallback
        return (await self.records.server_language(hosted.guild_id)).resolved()

    async def _mine(self, look: Look, side: Side, language: str) -> Kept:
        with speaking(language):
            return await self._mine_state(look, side, language)

    async def _mine_state(self, look: Look, side: Side, language: str) -> Kept:
        state = await self._common(look, "/api/me/board.png", language)
        state["side"] = side_name(side)
        moves = look.moves
        state["staged"] = list(moves.staged) if moves else []
        state["choices"] = choices_json(moves.groups, moves.choices) if moves else []
        state["actions_left"] = moves.actions_left if moves else 0
        state["prompt"] = word(moves.prompt) if moves else ""
        state["one_move"] = moves.one_move if moves else False
        state["decision"] = moves.decision if moves else False
        state["undoable"] = moves.undoable if moves else False
        # in page words: a hint names the actions as Discord shows code (``A v3h5 x v3h6``)
        state["hints"] = [page_text(word(hint)) for hint in moves.hints] if moves else []
        state["setup"] = setup_json(look)
        state["proposals"] = [
            {"kind": kind, "by": side_name(by), "mine": by == side}
            for kind, by in sorted(look.offers.items())
        ]
        state["proposable"] = list(look.proposable)
        # in page words: the opponent's name is escaped for Discord's markdown there
        why = look.unplannable
        state["unplannable"] = None if why is None else page_text(word(why))
        return versioned(state, moves.choices if moves else None)

    async def warnings(self, match: int, side: Side, group: str) -> dict[str, Any]:
        """What the rules hold against the actions of ``side``'s piece ``group`` before
        they are staged (R30 for a command piece), by notation: the state's actions leave
        them empty, as working them out may cost a search each."""
        found = await self.service.warnings(match, side, group)
        return {"group": group, "warnings": found}

    async def _common(self, look: Look, url: str, language: str) -> dict[str, Any]:
        """The fields every state has, in ``language`` (the current one); ``url`` is where
        its board picture is drawn."""
        hosted, view = look.hosted, look.view
        board = await self._board_json(look, url, False, language)
        turnable = view is not None and drawing_of(look.terms.game).turned is not None
        board["turned"] = await self._board_json(look, url, True, language) if turnable else None
        return {
            "language": language,
            "match": hosted.id,
            "game": look.terms.game,
            "title": look.terms.title,
            "terms": look.terms.describe(),
            "players": self._players(look),
            "phase": hosted.phase,
            "turn": look.stamp.turn,
            "deadline": None if hosted.phase == ENDED else hosted.due_at,
            "paused": hosted.paused_left is not None,
            "summary": _summary(look),
            "moves": await self._moves(look),
            "replay": await self._replay_version(look, language),
            "result": self._result(look),
            "board": board,
            "squares": _squares(look),
        }

    async def _board_json(self, look: Look, url: str, flip: bool, language: str) -> dict[str, Any]:
        """The board picture's address, its size and where each square is on it. The
        address carries a digest of what the picture is drawn from, so a new picture has a
        new address; the picture itself is drawn when it is asked for, not here."""
        drawn = self._drawn(look, None, flip, language)
        return {"url": f"{url}?flip={int(flip)}&v={drawn.version}"} | await self._placed(
            look, drawn
        )

    async def _placed(self, look: Look, drawn: Drawn) -> dict[str, Any]:
        """The size of ``drawn``'s picture and where each square is on it, painted only for
        a layout not met yet."""
        layout = (look.terms.game, drawn.key[:2], tuple(drawn.cells(drawn.view).items()))
        known = self._layouts.get(layout)
        if known is None:
            width, height = (await self._paint(drawn)).size
            cells = {name: list(cell) for name, cell in sorted(layout[2])}
            known = self._layouts.keep(layout, {"width": width, "height": height, "cells": cells})
        return known

    @staticmethod
    def _players(look: Look) -> list[dict[str, Any]]:
        """Each player, whether they are to act, and during the setup (where both choose at
        once and nobody acts) whether they are still ``choosing`` or ``done`` (public: the
        channel is told when a player has finished setting up); ``setup`` is None after."""
        hosted, view = look.hosted, look.view
        acting = None
        if hosted.phase == PLAYING and view is not None and look.outcome is None:
            acting = view.side
        return [
            {
                "name": look.names[side],
                "side": side_name(side),
                "to_act": side == acting,
                "setup": _setting_up(hosted.phase, hosted.ready, side),
            }
            for side in Side
        ]

    @staticmethod
    def _result(look: Look) -> str | None:
        hosted = look.hosted
        if hosted.phase != ENDED:
            return None
        if look.outcome is not None:
            return result_words(look.outcome, look.names, localized=True)
        return closing_words(hosted, look.names)

    async def _moves(self, look: Look) -> list[dict[str, Any]]:
        """Every finished turn's actions in words and notation, from the public record's
        replay; while a record does not replay yet (TORA's hidden Assassin moves before the
        end), the last turn's alone, from the public view."""
        if look.view is None or look.hosted.match_id is None:
            return []
        names = look.names
        views = await self._replay(look)
        if views is None:
            return _turn_moves(look.stamp.turn - 1, look.view, names) if look.stamp.turn > 1 else []
        moves: list[dict[str, Any]] = []
        for turn, view in enumerate(views[1:], 1):
            moves += _turn_moves(turn, view, names)
        return moves

    async def _replay(self, look: Look) -> list[Any] | None:
        """The public views of the match's record, at the start and after each turn (None:
        it does not replay yet). Kept by the record's digest: public text only; worked out
        ``REPLAYS_AT_ONCE`` at a time."""
        record = await self._record_of(look)
        if record is None:
            return None
        key = hashlib.sha256(record.encode()).digest()
        kept = self._replays.get(key)
        if kept is None:
            async with self._replaying:
                kept = self._replays.get(key)  # worked out while this one waited its turn
                if kept is None:
                    kept = await _replayed(look.terms.game, record)
                    self._replays.put(key, kept)
        return kept.views

    async def _record_of(self, look: Look) -> str | None:
        """The match's public record, kept by ``record_key`` (None: its game has not begun)."""
        match_id = look.hosted.match_id
        if match_id is None:
            return None
        record = self._records.get(record_key(look))
        if record is None:
            record = self._records.keep(record_key(look), await self.records.record(match_id))
        return record

    async def _replay_version(self, look: Look, language: str) -> str | None:
        """A digest of what the replay's pictures are drawn from: the public record, the
        players' names and ``language``. The page's replay addresses carry it, so that one
        is cached for good only while it names what it shows: a takeback changes a finished
        turn's picture, and so this."""
        record = await self._record_of(look)
        if record is None:
            return None
        return hashlib.sha256(repr((record, look.names, language)).encode()).hexdigest()[:16]

    async def record(self, match: int) -> tuple[str, str]:
        """The public record of hosted match ``match`` to download: its file name and text
        (Refused: there is no such match, or its game has not begun or never will)."""
        hosted = await self.records.hosted(match)
        if hosted is None:
            raise Refused(_(NO_SUCH_MATCH))
        if hosted.match_id is None:
            if hosted.live:  # a challenge or a setup: the game is still to come
                raise Refused(_("There is no record of that match: its game has not begun."))
            raise Refused(_("There is no record of that match: its game never began."))
        game = Terms.from_json(hosted.terms).game
        return f"{game}-match-{hosted.id}.{game}", await self.records.record(hosted.match_id)

    # ---- pictures --------------------------------------------------------------------------
    async def public_png(self, match: int, flip: bool, fallback: str = SOURCE) -> tuple[bytes, str]:
        """The public board now, drawn from the other side with ``flip`` where the game's
        drawing can, its words in the server's language (``fallback`` without a server);
        and the version of what it is drawn from, which the state's address of it carries
        (``_board_json``)."""
        look = await self.service.look(match)
        drawn = self._drawn(look, None, flip, await self.language(look, fallback))
        return (await self._paint(drawn)).png, drawn.version

    async def replay_png(
        self, match: int, turn: int, flip: bool, fallback: str = SOURCE
    ) -> tuple[bytes, str | None]:
        """The public board after finished turn ``turn`` of the replay (0: the start), as
        ``public_png`` draws the board now but beside it the players' names alone (the time
        left is the running turn's, not that turn's); and the version of what it is drawn
        from (``_replay_version``)."""
        look, language, _view, drawn = await self._replay_drawn(match, turn, flip, fallback)
        return (await self._paint(drawn)).png, await self._replay_version(look, language)

    async def replay_squares(
        self, match: int, turn: int, flip: bool, fallback: str = SOURCE
    ) -> tuple[dict[str, Any], str | None]:
        """What a screen reader is told of ``replay_png``'s board: its size, where each
        square is on it (``cells``) and what stands there (``squares``, from that turn's
        public view alone), as the state tells them of the board now; and the version."""
        look, language, view, drawn = await self._replay_drawn(match, turn, flip, fallback)
        with speaking(language):
            squares = _words(view, look.names)
        placed = await self._placed(look, drawn) | {"squares": squares}
        return placed, await self._replay_version(look, language)

    async def _replay_drawn(
        self, match: int, turn: int, flip: bool, fallback: str
    ) -> tuple[Look, str, GameView, Drawn]:
        """The match, its language, its public view after finished turn ``turn`` and what
        its picture is drawn from (NoSuchPicture: no such turn, or no replay yet)."""
        look = await self.service.look(match)
        language = await self.language(look, fallback)
        views = await self._replay(look)
        if views is None:
            raise NoSuchPicture(
                _(
                    "This match's replay shows only what everyone may see, so it opens once "
                    "the match has ended (its hidden Assassin moves are public then)."
                )
            )
        if not 0 <= turn < len(views):
            raise NoSuchPicture(_("This match has turns 0 to {last} to show.", last=len(views) - 1))
        names = Status(look.status.challenger, look.status.opposition)
        drawn = drawn_view(views[turn], look, flip, None, language, names)
        return look, language, views[turn], drawn

    async def own_png(self, match: int, side: Side, pick: str | None, flip: bool) -> bytes:
        """``side``'s own board, the actions of their piece ``pick`` pointed out, its words
        in their language."""
        look = await self.service.look(match, side)
        return (await self._picture(look, pick, flip, await self.language(look))).png

    async def _picture(self, look: Look, pick: str | None, flip: bool, language: str) -> Picture:
        return await self._paint(self._drawn(look, pick, flip, language))

    @staticmethod
    def _drawn(look: Look, pick: str | None, flip: bool, language: str) -> Drawn:
        """What ``look``'s board picture is drawn from (``shown``), pointing out the actions
        of piece ``pick``; its words in ``language``."""
        with speaking(language):
            view, headline = shown(look)
            status = look.worded_status()  # the pause's time left in the picture's language
            if headline is not None:
                status = replace(status, headline=headline)
        marks = None
        moves = look.moves
        if pick is not None and moves is not None:
            group = next((g for g in moves.groups if g.key == pick), None)
            if group is not None:
                marks = pointing(group, [c for c in moves.choices if c.group == pick])
        return drawn_view(view, look, flip, marks, language, status)

    async def _paint(self, drawn: Drawn) -> Picture:
        png = self._pictures.get(drawn.key)
        if png is None:
            png = await self.service.paint(drawn.paint)
            self._pictures.put(drawn.key, png)
        return Picture(png, dict(drawn.cells(drawn.view)))


async def _replayed(game: str, record: str) -> _Replayed:
    """The public views of ``game``'s ``record``, worked out in a thread."""
    try:
        return _Replayed(list(await asyncio.to_thread(drawing_of(game).views, record)))
    except (RecordError, ReplayError):
        return _Replayed(None)  # kept too: the same record never replays


@dataclass(frozen=True)
class Drawn:
    """A picture before it is drawn: ``key`` names it (equal keys, equal pictures: it holds
    everything the picture is drawn from), ``paint`` draws it, ``cells`` says where each
    square of ``view`` is on it."""

    key: tuple[Any, ...]
    view: GameView | None
    paint: Callable[[], bytes]
    cells: Callable[[Any], dict[str, Cell]]

    @property
    def version(self) -> str:
        """A digest of ``key``: what a picture's address carries, so that a new picture has
        a new address."""
        return hashlib.sha256(repr(self.key).encode()).hexdigest()[:12]


def drawn_view(
    view: GameView,
    look: Look,
    flip: bool,
    marks: Any,
    language: str,
    status: Status | None = None,
) -> Drawn:
    """``view`` drawn with ``status`` beside it (the look's own when None), its words in
    ``language``, turned half round with ``flip`` where the game's drawing can."""
    info = worded(status or look.status, language)
    drawing = drawing_of(look.terms.game)
    turned = drawing.turned if flip else None
    own = view.viewer is not None
    if turned is not None:
        board, mine, cells = turned.board, turned.own, turned.cells
    else:
        board, mine, cells = drawing.board, drawing.own, drawing.cells
    key = ("own" if own else "board", turned is not None, repr(view), info, marks)
    if own:
        return Drawn(key, view, functools.partial(mine, view, info, marks), cells)
    return Drawn(key, view, functools.partial(board, view, info), cells)


def shown(look: Look) -> tuple[GameView, str | None]:
    """The view ``look``'s board shows, and the headline of the status beside it where it
    is not the look's own (in the current language): its player's setup preview, the
    match's board before the game (``setup_board``; a match that ended there says so), else
    the look's view."""
    view = look.view
    if view is not None:
        return view, None
    if look.setup is not None and look.setup.preview is not None:
        # a player's setup: the start as their choices make it
        return look.setup.preview, setup_headline(look, look.setup)
    # before the game, for anyone: the match's board, no setup on it
    board = look.terms.kind.setup_board(look.terms.checked)
    return board, _before_the_game(look.hosted.phase)


def _squares(look: Look) -> dict[str, str]:
    """What stands on each square of the board shown, in words of the current language, by
    square name: the view's alone, through its game (a screen reader's board)."""
    view, _headline = shown(look)
    return _words(view, look.names)


def _words(view: GameView, names: Sequence[str]) -> dict[str, str]:
    """What stands on each square of ``view`` in words of the current language."""
    return {
        square: word(said)
        for square, said in game_type(view.game).square_words(view, names).items()
    }


def _summary(look: Look) -> str:
    """The position in a sentence (none before the game); once the match has ended, the
    line the game ended with, which names nobody to move (not even in a match called off,
    whose game its rules did not end)."""
    view = look.view
    if view is None:
        return ""
    if look.hosted.phase == ENDED:
        said = game_type(view.game).final_summary(view, look.names)
    else:
        said = view.summary(look.names)
    return _("{summary}.", summary=word(said))


def _setting_up(phase: str, ready: str, side: Side) -> str | None:
    if phase != SETUP:
        return None
    return "done" if side.letter in ready else "choosing"


def _turn_moves(turn: int, view: GameView, names: Sequence[str]) -> list[dict[str, Any]]:
    events = list(view.last_turn)
    if not events:
        return [{"turn": turn, "words": _("no action"), "notation": ""}]
    return [{"turn": turn, "words": word(e.words(names)), "notation": e.text} for e in events]


def choices_json(groups: Sequence[ChoiceGroup], choices: Sequence[Choice]) -> list[dict[str, Any]]:
    """The legal actions by group, each with the square a player points at (``spot``),
    every square it touches, by role, and whether it is never taken back (``final``)."""
    by_group: dict[str, list[Choice]] = {}
    for choice in choices:
        by_group.setdefault(choice.group, []).append(choice)
    return [
        {
            "key": group.key,
            "label": word(group.label),
            "description": word(group.description),
            "origin": group.origin,
            "actions": [
                {
                    "notation": c.notation,
                    "label": word(c.label),
                    "path": [word(step) for step in c.path],
                    "spot": c.spot,
                    "touches": [{"square": t.square, "role": t.role} for t in c.touches],
                    "warning": word(c.warning),
                    "final": c.final,  # never taken back once staged: the page asks first (R10)
                }
                for c in by_group.get(group.key, [])
            ],
        }
        for group in groups
    ]


def _before_the_game(phase: str) -> str:
    """The headline of a match's board before its game: a game to come, or none if the
    match ended there (called off, lapsed)."""
    if phase == ENDED:
        return _("The match ended before its game began")
    return _("Before the game")


def setup_headline(look: Look, form: SetupForm) -> str:
    """What a player's setup picture says in place of who is to act (nobody is yet): what
    they still have to choose, or that they wait for their opponent."""
    if form.done:
        assert look.viewer is not None  # a setup form is a player's own
        return _("Setup · done; waiting for {opponent}", opponent=look.names[look.viewer.other])
    left = [f.name.capitalize() for f in form.fields if not f.chosen]
    return _("Setup · still to choose: {fields}", fields=listing(left, localized=True))


def setup_json(look: Look) -> dict[str, Any] | None:
    """The player's setup form: each question, its options (described), what they chose."""
    form = look.setup
    if form is None:
        return None
    return {
        "text": setup_text(look.viewer, form.preview is not None),
        "done": form.done,
        "fields": [
            {
                "name": f.name,
                "prompt": page_text(word(f.prompt)),
                "options": list(f.options),
                "descriptions": [page_text(word(text)) for text in f.descriptions],
                "chosen": f.chosen,
                "free": f.free,
                "waiting": page_text(word(f.waiting)),
            }
            for f in form.fields
        ],
    }
