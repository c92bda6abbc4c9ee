"""The terms of a match, agreed in the challenge, and the service's own settings."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from rules import GAMES, game_type
from rules.tora import CUSTOM, LONG, NONE, SHORT, TORA, Options, TerrainError, preset_names
from storage import MatchOptions, Spec

from .errors import Refused
from .texts import duration, quote

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
SHORTEST_TURN, LONGEST_TURN = 5 * MINUTE, 14 * DAY
ROLES = ("challenger", "random")
COMMAND_PATHS = {  # the commands that sit in a group of their own
    "pause": "match pause",
    "resume": "match resume",
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
    ``turn_seconds`` is each turn's deadline (also the time both players have to finish the
    setup); ``forfeit_after`` turns missed in a row without any action lose the match (0:
    never); ``board``, ``terrain``, ``assassins`` and ``target`` (a series to that many
    points, R28, 0: a single game) are TORA's."""

    board: str = SHORT
    terrain: str = NONE  # a preset of the board, or "custom" with terrain_map
    terrain_map: str = ""
    assassins: bool = False
    turn_seconds: float = DAY
    target: int = 0
    rated: bool = True
    roles: str = "challenger"
    forfeit_after: int = 3
    game: str = TORA.id
    powers: bool | None = None  # Torii's Spirit powers (None: the game's default, on)

    @classmethod
    def for_ladder(cls, board: str) -> Terms:
        """The terms of a rated match on a ladder (TORA's ``short`` or ``long`` board, or
        another game's id)."""
        return cls(board=board, rated=True) if board in (SHORT, LONG) else cls(game=board)

    @property
    def title(self) -> str:
        return game_type(self.game).title

    @property
    def ladder_board(self) -> str:
        """What the match is rated on: TORA's board (``short``, ``long``), else the game."""
        return self.board if self.game == TORA.id else self.game

    def check(self) -> None:
        """Refused, naming what is wrong and what is allowed, unless the terms are playable."""
        if self.game not in GAMES:
            *others, last = GAMES
            games = ", ".join(f"`{game}`" for game in others) + f" or `{last}`"
            raise Refused(f"The game is {games}, not {quote(self.game)}.")
        self._check_common()
        if self.game != TORA.id:
            self._check_no_tora_terms()
            self.game_rules()
            return
        if self.powers is not None:
            raise Refused("Only Torii has Spirit powers to turn on or off, not TORA.")
        if self.board not in (SHORT, LONG):
            raise Refused(f"The board is `short` or `long`, not {quote(self.board)}.")
        if self.assassins and self.board != LONG:
            raise Refused(
                "Assassins are played on the long board only: choose the long board, or play "
                "without Assassins."
            )
        self._check_terrain()
        if not 0 <= self.target <= 999:
            raise Refused("The point target is 0 (a single game) or a number up to 999.")

    def _check_common(self) -> None:
        if not SHORTEST_TURN <= self.turn_seconds <= LONGEST_TURN:
            raise Refused(
                f"The turn deadline must be between {duration(SHORTEST_TURN)} and "
                f"{duration(LONGEST_TURN)}; {duration(self.turn_seconds)} is not."
            )
        if self.roles not in ROLES:
            raise Refused(
                "The Challenger is the player who challenged (`challenger`) or drawn at "
                f"random (`random`), not {quote(self.roles)}."
            )
        if not 0 <= self.forfeit_after <= 99:
            raise Refused(
                "Forfeit after 1 to 99 turns missed in a row, or 0 never to forfeit, "
                f"not {self.forfeit_after}."
            )

    def _check_no_tora_terms(self) -> None:
        """A board, terrain, Assassins or a point target are TORA's alone."""
        tora_only = [
            words
            for words, given in (
                ("a choice of board", self.board != SHORT),
                ("terrain", self.terrain != NONE or bool(self.terrain_map)),
                ("Assassins", self.assassins),
                ("a point target", bool(self.target)),
            )
            if given
        ]
        if tora_only:
            one = len(tora_only) == 1
            named = ", ".join(tora_only[:-1]) + " or " * (not one) + tora_only[-1]
            raise Refused(
                f"{self.title} is played without {named}: {'that is' if one else 'those are'} "
                f"TORA's. Leave {'it' if one else 'them'} out of a challenge to {self.title}."
            )

    def game_rules(self) -> dict[str, object]:
        """The options of a game other than TORA, as its ``GameType`` takes them."""
        given = {} if self.powers is None else {"powers": self.powers}
        try:
            return game_type(self.game).check_options(given)
        except ValueError:
            raise Refused(
                f"Only Torii has Spirit powers to turn on or off, not {self.title}."
            ) from None

    def spec(self, answers: tuple[dict[str, str], dict[str, str]] = ({}, {})) -> MatchOptions:
        """The stored options of a game other than TORA, with the players' setup answers."""
        return Spec(self.game_rules(), answers)

    def _check_terrain(self) -> None:
        names = preset_names(self.board)
        if self.terrain == CUSTOM:
            if not self.terrain_map.strip():
                raise Refused(
                    "A custom terrain needs its map, e.g. `water v4h6 v5h6; forest v3h3`."
                )
        elif self.terrain_map:
            raise Refused("A terrain map goes with the terrain `custom`.")
        elif self.terrain not in names:
            raise Refused(
                f"The {self.board} board has no terrain {quote(self.terrain)}; choose one of "
                f"{', '.join(f'`{name}`' for name in names)}, or `custom` with a map."
            )
        try:
            self.options().make_terrain()
        except (TerrainError, ValueError) as exc:
            raise Refused(f"The terrain map cannot be used: {exc}.") from None

    def options(
        self,
        setups: tuple[str, str] = ("aggressive", "aggressive"),
        rulers: tuple[str, str] = ("K", "K"),
    ) -> Options:
        """The rules core's options, once the players' setup choices are known."""
        return Options(
            board=self.board,
            challenger_setup=setups[0],
            opposition_setup=setups[1],
            terrain=self.terrain if self.terrain != CUSTOM else NONE,
            terrain_map=self.terrain_map if self.terrain == CUSTOM else "",
            assassins=self.assassins,
            rulers=rulers,
            target=self.target,
        )

    def describe(self) -> str:
        """The terms in words, for the challenge post."""
        parts = [f"{self.board} board"] if self.game == TORA.id else []
        powers = self.game_rules().get("powers") if self.game != TORA.id else None
        if powers is not None:  # the game has powers to turn on or off (Torii)
            parts.append("with the Spirits' powers" if powers else "without powers")
        if self.terrain == CUSTOM:
            parts.append("custom terrain")
        elif self.terrain != NONE:
            parts.append(f"terrain {self.terrain}")
        if self.assassins:
            parts.append("with Assassins")
        parts.append(f"{duration(self.turn_seconds)} per turn")
        if self.target:
            parts.append(f"a series to {self.target} points")
        parts.append("rated" if self.rated else "casual")
        if self.roles == "random":
            parts.append("Challenger drawn at random")
        if self.forfeit_after:
            parts.append(f"forfeit after {self.forfeit_after} missed turns in a row")
        return ", ".join(parts)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Terms:
        """Terms stored before there were several games have no ``game``: TORA."""
        return cls(**json.loads(text))


@dataclass(frozen=True)
class Settings:
    """The service's own knobs. ``command`` prefixes command names in the texts players read
    (the front end's, e.g. ``/tora``); the rate limit allows ``burst`` commands at once per
    user, then one every ``every`` seconds; ``rules_processes`` run long-board turn ends
    (see ``offload``); ``user_challenges`` and ``guild_challenges`` cap the challenges
    waiting for an answer, per player and per server. ``ai_processes`` search the AI
    players' turns (None: one per core but one, at least two), each within ``ai_seconds``
    (None: the engines' own time, 2 s a turn, 8 s on TORA's long board); one player may have
    ``ai_matches`` matches against the AI at once, a server ``guild_ai_matches`` unless its
    admins set their own cap.
    Several processes on one database: a process claims a clock or the outbox rows of a
    destination for ``claim_seconds`` (another takes them over once that has run out after it
    died); with ``poll_seconds`` the clock and outbox loops look at the database at least that
    often, for work another process left (None: one process, woken by its own changes)."""

    command: str = "/tora"
    challenge_seconds: float = DAY
    remind_at: float = 0.8  # of a deadline
    burst: int = 8
    every: float = 1.5
    retry_first: float = 2.0  # seconds before a failed delivery is retried, doubling...
    retry_most: float = 300.0  # ...up to this
    rules_processes: int = 1  # workers for long-board turn ends (0: worker threads only)
    user_challenges: int = 3  # challenges one player may have waiting in a server
    guild_challenges: int = 50  # challenges a server may have waiting at once
    ai_processes: int | None = None
    ai_seconds: float | None = None
    ai_matches: int = 3
    guild_ai_matches: int = 20
    claim_seconds: float = 60.0
    poll_seconds: float | None = None
    channel_link: str = "https://discord.com/channels/{guild}/{channel}"

    @property
    def shared(self) -> bool:
        """Whether other processes may share the database (see ``poll_seconds``)."""
        return self.poll_seconds is not None

    def cmd(self, name: str) -> str:
        """A command as players type it: ``cmd("queue board:long")`` is
        ``/tora ladder queue board:long`` (the rarer commands sit in groups)."""
        head, _space, rest = name.partition(" ")
        path = " ".join(part for part in (COMMAND_PATHS.get(head, head), rest) if part)
        return f"`{self.command} {path}`"

    def link(self, guild_id: int, channel_id: int) -> str:
        """Where a match is played, as a link its players can follow from anywhere."""
        return self.channel_link.format(guild=guild_id, channel=channel_id)
