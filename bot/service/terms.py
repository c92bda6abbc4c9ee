"""The terms of a match, agreed in the challenge, and the service's own settings."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from bot.i18n import SOURCE, _, current, ngettext, slash, speaking, word
from rules import DEFAULT, GAMES, GameType, game_type
from rules.registry import ladder_game, ladder_of

from .errors import Refused
from .texts import alternatives, duration, quote

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
SHORTEST_TURN, LONGEST_TURN = 5 * MINUTE, 14 * DAY
LONGEST_BANK = 60 * DAY  # a bank's reserve, an increment clock's cap
# who plays the Challenger: the one who challenged, chance, or the one challenged (a
# rematch with the colours swapped)
ROLES = ("challenger", "random", "opposition")
# a fixed time per turn; a time per turn plus a reserve (bank); an allowance that grows by an
# increment with every turn, up to a cap (``timing`` runs them)
TURN_CLOCK, BANK_CLOCK, INCREMENT_CLOCK = "turn", "bank", "increment"
CLOCKS = (TURN_CLOCK, BANK_CLOCK, INCREMENT_CLOCK)
COMMAND_PATHS = {  # the commands that sit in a group of their own
    "pause": "match pause",
    "resume": "match resume",
    "give": "match give",
    "rewind": "match takeback",
    "reset": "match reset",
    "abort": "match abort",
    "ladder": "ladder show",
    "profile": "ladder profile",
    "seasons": "ladder seasons",
    "queue": "ladder queue",
    "leave-queue": "ladder leave",
}  # who plays the Challenger: the one who challenged, or chance


@dataclass(frozen=True)
class Terms:
    """Everything a challenge sets. ``game`` is the game's id (``rules.registry``);
    ``options`` are the game's own options as the challenge gave them (TORA's board, terrain,
    Assassins and a series' point target, R28; Torii's Spirit powers), which the game checks
    (``GameType.check_options``: ``checked`` is what they come to); ``turn_seconds`` is each
    turn's deadline (also the time both players have to finish the setup); ``forfeit_after``
    turns missed in a row without any action lose the match (0: never). ``clock`` is how
    time is kept: ``turn`` (``turn_seconds`` for every turn), ``bank`` (``turn_seconds`` per
    turn and each player's reserve of ``bank_seconds`` for the turns that overrun) or
    ``increment`` (``turn_seconds`` to start with, ``increment_seconds`` added after each
    turn, at most ``cap_seconds``). With ``weekends_off`` a player's clock stands still on
    their own Saturdays and Sundays (their time zone, ``people``). Without ``away_days`` (a
    tournament's choice) the players' away days do not stop its clocks, and no automatic
    away day is given. ``competition``: a tournament's or an event's game, which counts in
    its standings: never a practice game with hints, rated or not (``Table.practice``), and
    a setup that lapses is scored by the competition (T17, E5: lost by whoever had not
    finished it), where a challenge's match is called off without a result; its end offers
    no rematch (the competition pairs what its players play next). ``lapse_tied``: a setup
    that neither player finished is a tie (a chapter 10 tournament, T17), where an event
    plays the game again (E5)."""

    game: str = DEFAULT
    options: Mapping[str, Any] = field(default_factory=dict)
    turn_seconds: float = DAY
    rated: bool = True
    roles: str = "challenger"
    forfeit_after: int = 3
    clock: str = TURN_CLOCK
    bank_seconds: float = 0.0
    increment_seconds: float = 0.0
    cap_seconds: float = 0.0
    weekends_off: bool = False  # no clock runs on the Saturdays and Sundays of its player
    away_days: bool = True  # the players' away days stop its clocks
    competition: bool = False  # a tournament's or an event's game
    lapse_tied: bool = False  # a setup lapsed by both is a tie (T17), not played again (E5)

    @classmethod
    def for_ladder(cls, ladder: str) -> Terms:
        """The terms of a rated match on a ladder (``rules.registry``: TORA's ``short`` or
        ``long`` board, another game's id): its game, with the ladder's options."""
        found = ladder_game(ladder)
        if found is None:
            return cls(game=ladder)
        kind, on = found
        return cls(game=kind.id, options=dict(on.options), rated=True)

    @property
    def kind(self) -> GameType:
        return game_type(self.game)

    @property
    def casual(self) -> bool:
        """A match that counts for nothing: neither rated nor a competition's game. Only
        there is a turn taken back by agreement, and against the AI are hints given: in
        a game that counts, either would be help the other players never had."""
        return not self.rated and not self.competition

    @property
    def title(self) -> str:
        return self.kind.title

    @cached_property
    def checked(self) -> dict[str, Any]:
        """The game's options made complete and checked (Refused says what is wrong)."""
        try:
            return self.kind.check_options(self.options)
        except ValueError as exc:  # the game's words (a rules text) in the reader's language
            raise Refused(word(exc.args[0]) if exc.args else str(exc)) from None

    @property
    def ladder_board(self) -> str:
        """The ladder the match is rated on: TORA's board (``short``, ``long``), else the
        game (``rules.registry.ladder_of``)."""
        return ladder_of(self.game, self.checked).id

    def check(self, *, new: bool = True) -> None:
        """Refused, naming what is wrong and what is allowed, unless the terms are playable;
        unless ``new`` is False (a match already agreed to: an event's game), also unless
        they are offered to a new match (``check_new``)."""
        if self.game not in GAMES:
            games = alternatives([f"`{game}`" for game in GAMES], localized=True)
            raise Refused(_("The game is {games}, not {game}.", games=games, game=quote(self.game)))
        self._check_common()
        self._check_clock()
        self._check_foreign()
        self.checked  # noqa: B018 (checking is the point)
        if new:
            self.check_new()

    def check_new(self) -> None:
        """Refused unless the game offers its checked options to a new match
        (``GameType.refuse_new``: TORA's series to a target with Assassins is not), the one
        check of every challenge, AI challenge and event, whatever front end made it."""
        try:
            self.kind.refuse_new(self.checked)
        except ValueError as exc:
            raise Refused(word(exc.args[0]) if exc.args else str(exc)) from None

    def _check_common(self) -> None:
        if not SHORTEST_TURN <= self.turn_seconds <= LONGEST_TURN:
            raise Refused(
                _(
                    "The turn deadline must be between {shortest} and {longest}; {given} is not.",
                    shortest=duration(SHORTEST_TURN, localized=True),
                    longest=duration(LONGEST_TURN, localized=True),
                    given=duration(self.turn_seconds, localized=True),
                )
            )
        if self.roles not in ROLES:
            raise Refused(
                _(
                    "The Challenger is the player who challenged (`challenger`), drawn at random "
                    "(`random`) or the player challenged (`opposition`), not {given}.",
                    given=quote(self.roles),
                )
            )
        if not 0 <= self.forfeit_after <= 99:
            raise Refused(
                _(
                    "Forfeit after 1 to 99 turns missed in a row, or 0 never to forfeit, not "
                    "{given}.",
                    given=self.forfeit_after,
                )
            )

    def _check_clock(self) -> None:
        """The clock's own times: each only with its clock, each within its range."""
        if self.clock not in CLOCKS:
            raise Refused(
                _(
                    "The clock is `turn` (a fixed time per turn), `bank` (a time per turn and a "
                    "reserve) or `increment` (an allowance that grows with each turn), not "
                    "{given}.",
                    given=quote(self.clock),
                )
            )
        given = {
            "bank": (self.bank_seconds, BANK_CLOCK),
            "increment": (self.increment_seconds, INCREMENT_CLOCK),
            "cap": (self.cap_seconds, INCREMENT_CLOCK),
        }
        for name, (seconds, owner) in given.items():
            if seconds and self.clock != owner:
                raise Refused(
                    _(
                        "`{name}` is a time of the `{owner}` clock: add `clock:{owner}`.",
                        name=name,
                        owner=owner,
                    )
                )
        if self.clock == BANK_CLOCK and not 0 < self.bank_seconds <= LONGEST_BANK:
            raise Refused(
                _(
                    "A bank holds more than nothing and at most {longest}; {given} is not.",
                    longest=duration(LONGEST_BANK, localized=True),
                    given=duration(self.bank_seconds, localized=True),
                )
            )
        if self.clock == INCREMENT_CLOCK:
            if not SHORTEST_TURN <= self.increment_seconds <= LONGEST_TURN:
                raise Refused(
                    _(
                        "The increment must be between {shortest} and {longest}; {given} is not.",
                        shortest=duration(SHORTEST_TURN, localized=True),
                        longest=duration(LONGEST_TURN, localized=True),
                        given=duration(self.increment_seconds, localized=True),
                    )
                )
            if not self.turn_seconds <= self.cap_seconds <= LONGEST_BANK:
                raise Refused(
                    _(
                        "The cap must be at least the starting time ({start}) and at most "
                        "{longest}; {given} is not.",
                        start=duration(self.turn_seconds, localized=True),
                        longest=duration(LONGEST_BANK, localized=True),
                        given=duration(self.cap_seconds, localized=True),
                    )
                )

    def with_clock_defaults(self) -> Terms:
        """The terms with the clock's times that were not given filled in: a bank of 7 days,
        an increment of a day, a cap of twice the starting time."""
        if self.clock == BANK_CLOCK and not self.bank_seconds:
            return dataclasses.replace(self, bank_seconds=7 * DAY)
        if self.clock == INCREMENT_CLOCK:
            increment = self.increment_seconds or DAY
            cap = self.cap_seconds or min(LONGEST_BANK, 2 * self.turn_seconds)
            return dataclasses.replace(self, increment_seconds=increment, cap_seconds=cap)
        return self

    def with_clock(self, clock: str, bank: float, increment: float, cap: float) -> Terms:
        """The terms on another clock (a server's choice, ``GuildSettings.clock``), its
        times left out filled in (``with_clock_defaults``)."""
        return dataclasses.replace(
            self, clock=clock, bank_seconds=bank, increment_seconds=increment, cap_seconds=cap
        ).with_clock_defaults()

    def clock_words(self, localized: bool = False) -> str:
        """The clock in words: ``3 days per turn``, ``3 days per turn and a bank of 7 days``,
        ``3 days to start, 1 day more per turn, at most 7 days``; in English unless
        ``localized`` (as ``texts.duration``)."""
        with speaking(current() if localized else SOURCE):
            turn = duration(self.turn_seconds, localized=True)
            if self.clock == BANK_CLOCK:
                return _(
                    "{turn} per turn and a bank of {bank} each",
                    turn=turn,
                    bank=duration(self.bank_seconds, localized=True),
                )
            if self.clock == INCREMENT_CLOCK:
                return _(
                    "{turn} to start, {more} more per turn, at most {cap}",
                    turn=turn,
                    more=duration(self.increment_seconds, localized=True),
                    cap=duration(self.cap_seconds, localized=True),
                )
            return _("{turn} per turn", turn=turn)

    def _check_foreign(self) -> None:
        """Options that are another game's (a board, Assassins or a point target in a
        challenge to ToriShogi), named by the game they belong to."""
        kind = self.kind
        given = [name for name in self.options if name not in kind.option_nouns]
        for owner in GAMES.values():
            if owner is kind:
                continue
            named: list[str] = []
            for name, noun in owner.option_nouns.items():
                if name in given and noun not in named:
                    named.append(noun)
            if not named:
                continue
            raise Refused(
                ngettext(
                    "{game} is played without {options}: that is {owner}'s. Leave it out of a "
                    "challenge to {game}.",
                    "{game} is played without {options}: those are {owner}'s. Leave them out of "
                    "a challenge to {game}.",
                    len(named),
                    game=self.title,
                    options=alternatives([word(noun) for noun in named], localized=True),
                    owner=owner.title,
                )
            )

    def describe(self, localized: bool = False) -> str:
        """The terms in words, for the challenge post; in English unless ``localized`` (as
        ``texts.duration``)."""
        with speaking(current() if localized else SOURCE):
            return ", ".join(self._described())

    def _described(self) -> list[str]:
        checked = self.checked
        parts = [word(part) for part in self.kind.option_words(checked)]
        parts.append(self.clock_words(localized=True))
        if self.weekends_off:
            parts.append(_("weekends off"))
        if not self.away_days:
            parts.append(_("away days do not stop the clock"))
        series = self.kind.series_words(checked)
        parts += [word(series)] if series else []
        parts.append(_("rated") if self.rated else _("casual") if self.casual else _("unrated"))
        if self.roles == "random":
            parts.append(_("Challenger drawn at random"))
        if self.roles == "opposition":
            parts.append(_("the challenged player moves first"))
        if self.forfeit_after:
            parts.append(_("forfeit after {count} missed turns in a row", count=self.forfeit_after))
        return parts

    def to_json(self) -> str:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return json.dumps(fields | {"options": dict(self.options)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Terms:
        """Terms stored before there were several games have no ``game``: TORA."""
        return cls(**json.loads(text))


@dataclass(frozen=True)
class Settings:
    """The service's own knobs. ``command`` prefixes command names in the texts players read
    (the front end's, e.g. ``/tora``); the rate limit allows ``burst`` commands at once per
    user, then one every ``every`` seconds; ``rules_processes`` run the turn ends that
    search (TORA's; see ``offload``) and ``draw_processes`` the board images (0: worker
    threads; None: one per core, ``offload.default_rules_workers``, ``default_draw_workers``);
    ``user_challenges`` and ``guild_challenges`` cap the challenges
    waiting for an answer, per player and per server. ``ai_processes`` search the AI
    players' turns (None: one per core but one, at least two), each within ``ai_seconds``
    (None: the engines' own time, 2 s a turn, 8 s on TORA's long board); one player may have
    ``ai_matches`` matches against the AI at once, a server ``guild_ai_matches`` unless its
    admins set their own cap; ``fairy_stockfish``, the path of a Fairy-Stockfish binary, plays
    ToriShogi's ``master`` (``fairy``; None: our engine does).
    Several processes on one database: a process claims a clock or the outbox rows of a
    destination for ``claim_seconds`` (another takes them over once that has run out after it
    died); with ``poll_seconds`` the clock and outbox loops look at the database at least that
    often, for work another process left (None: one process, woken by its own changes)."""

    command: str = "/tora"
    challenge_seconds: float = DAY
    remind_at: float = 0.8  # of a challenge's or a setup's deadline
    auto_away: bool = True  # servers' default: an away day given before a missed turn
    burst: int = 8
    every: float = 1.5
    retry_first: float = 2.0  # seconds before a failed delivery is retried, doubling...
    retry_most: float = 300.0  # ...up to this
    rules_processes: int | None = None  # workers for searching turn ends (0: threads only)
    draw_processes: int | None = None  # workers drawing images (None: one per core)
    user_challenges: int = 3  # challenges one player may have waiting in a server
    guild_challenges: int = 50  # challenges a server may have waiting at once
    ai_processes: int | None = None
    ai_seconds: float | None = None
    ai_matches: int = 3
    guild_ai_matches: int = 20
    fairy_stockfish: str | None = None
    claim_seconds: float = 60.0
    poll_seconds: float | None = None
    channel_link: str = "https://discord.com/channels/{guild}/{channel}"

    @property
    def shared(self) -> bool:
        """Whether other processes may share the database (see ``poll_seconds``)."""
        return self.poll_seconds is not None

    def cmd(self, name: str, localized: bool = False) -> str:
        """A command as players type it: ``cmd("queue board:long")`` is
        ``/tora-ladder queue board:long`` (the rarer commands sit in groups); with
        ``localized``, its names as the reader's Discord shows them in the current language
        (``bot.i18n.slash``), else in English (as ``texts.duration``)."""
        return _command(self.command, name, current() if localized else SOURCE)

    def link(self, guild_id: int, channel_id: int) -> str:
        """Where a match is played, as a link its players can follow from anywhere."""
        return self.channel_link.format(guild=guild_id, channel=channel_id)


@lru_cache(maxsize=1024)
def _command(prefix: str, name: str, code: str) -> str:
    """``Settings.cmd`` of ``name`` in language ``code``, after the front end's ``prefix``:
    made once (a turn's texts name three or four commands, and a catalog never changes once
    read), not at every answer."""
    head, _space, rest = name.partition(" ")
    path = " ".join(part for part in (COMMAND_PATHS.get(head, head), rest) if part)
    with speaking(code):
        return slash(f"{prefix.lstrip('/')} {path}")
