"""What the store's reads of matches return: plain frozen records, none of them holding
hidden data unless its name says private."""

from __future__ import annotations

from dataclasses import dataclass

from rules import GameState, Side

from .games import DEFAULT_GAME, Spec


def side_of(user_id: int, challenger_id: int | None, opposition_id: int | None) -> Side | None:
    """The side ``user_id`` plays in a match between these two players, if any."""
    if user_id == challenger_id:
        return Side.CHALLENGER
    if user_id == opposition_id:
        return Side.OPPOSITION
    return None


ACTIVE, FINISHED = "active", "finished"


@dataclass(frozen=True)
class State:
    """A match's state as its row summarises it (checked against the game on every load)."""

    over: bool
    side: Side  # to act
    round: int
    score: tuple[int, int]
    result: str | None

    @classmethod
    def of(cls, game: GameState) -> State:
        outcome = game.outcome()
        result = None if outcome is None else str(outcome)
        return cls(outcome is not None, game.side, game.round, game.scores(), result)

    def __str__(self) -> str:
        now = f"result {self.result}" if self.over else f"{self.side.letter} to act"
        return f"(round {self.round}, {now}, score {self.score[0]}-{self.score[1]})"


@dataclass(frozen=True)
class MatchInfo:
    """A match's public summary, as stored (no game is rebuilt to answer it).

    ``game`` is the id of its game (``rules.registry``); ``options`` are its checked options
    and the setup answers that are not secret, None only if they are unreadable (loading that
    match then raises CorruptMatch); ``actions`` counts the entries of its log; ``closed``
    says how a match that ended without a result ended."""

    id: int
    guild_id: int
    channel_id: int | None
    challenger_id: int
    opposition_id: int
    options: Spec | None
    status: str
    side_to_act: Side
    round: int
    score: tuple[int, int]
    result: str | None
    version: int
    actions: int
    turn_deadline: float | None
    created_at: float
    updated_at: float
    game: str = DEFAULT_GAME
    closed: str | None = None  # "aborted" or "cancelled": it ended without a result

    @property
    def state(self) -> State:
        return State(self.status == FINISHED, self.side_to_act, self.round, self.score, self.result)

    def side_of(self, user_id: int) -> Side | None:
        """The side ``user_id`` plays in this match, if any."""
        return side_of(user_id, self.challenger_id, self.opposition_id)


@dataclass(frozen=True)
class LogLine:
    """One action as a reader may see it: ``text`` is the public form, except in a player's
    private log, where that player's own hidden actions are shown in full."""

    seq: int
    turn: int
    side: Side
    kind: str
    text: str
    hidden: bool
    at: float


@dataclass(frozen=True)
class FinishedMatch:
    match_id: int
    guild_id: int
    challenger_id: int
    opposition_id: int
    winner: Side | None
    reason: str
    score: tuple[int, int]
    record: str
    finished_at: float
