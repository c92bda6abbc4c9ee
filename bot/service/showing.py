"""What the service's texts say of a game's state, for every game: its view's line
(``GameView.summary``) and what its game type adds (``GameType.to_act``, ``turn_notes``:
TORA's rounds, series and Assassins). Also the line naming a hosted match and its game, and
a result with the winner by name."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import SOURCE, _, current, kept, speaking, word
from rules import GameState, GameView, Outcome, Side, game_type
from rules.protocol import FORFEIT
from storage import Hosted

from .terms import Terms


def series_number(game: GameState) -> int:
    """The game of a series (TORA, R28) being played; 1 in a game without series."""
    return game_type(game.game_type).series_number(game)


def to_act(view: GameView) -> str:
    """What the side to act has to do, in the game's words: "2 actions in round 3", "a
    move", or a decision in the opponent's turn and what it is (Torii's Monkey flip)."""
    return game_type(view.game).to_act(view)


def standing(view: GameView, names: Sequence[str]) -> str:
    """The state in a line (TORA: the score, and this round's points so far), in the current
    language."""
    # TRANSLATORS: the state of a game in a line (a sentence of the game's rules), then a stop
    return _("{standing}.", standing=word(view.summary(names)))


def turn_notes(view: GameView, names: Sequence[str], series_before: int) -> list[str]:
    """What a finished turn did besides its actions (TORA: Assassins revealed, doomed pieces
    removed at the end of a round, a new game of a series)."""
    return game_type(view.game).turn_notes(view, names, series_before)


def setup_words(game: GameState, side: Side) -> str:
    """A player's public setup once the game starts (TORA: strategy and Ruler; Torii: the
    Spirit)."""
    return game_type(game.game_type).setup_words(game, side)


def private_notes(view: GameView) -> list[str]:
    """What a player's own board adds for them (TORA: their hidden Assassin's record)."""
    return game_type(view.game).private_notes(view)


def game_title(hosted: Hosted) -> str:
    """The name of the game a hosted match plays (``rules.registry``): "ToriShogi"."""
    return Terms.from_json(hosted.terms).title


def match_heading(hosted: Hosted, players: str, localized: bool = False) -> str:
    """``Match 12 · ToriShogi · ann vs bob``: the line that names a match wherever its
    messages meet others' (DMs); ``players`` as a message shows them (escaped). In English
    unless ``localized`` (as ``texts.duration``)."""
    with speaking(current() if localized else SOURCE):
        return _(
            "Match {number} · {game} · {players}",
            number=hosted.id,
            game=game_title(hosted),
            players=players,
        )


def result_words(outcome: Outcome, names: Sequence[str], localized: bool = False) -> str:
    """A result with the winner by name (``names``: the Challenger's first, escaped):
    "ann wins (checkmate)", "bob wins by forfeit", "a tie (agreed draw)". In English unless
    ``localized`` (as ``texts.duration``), the reason too when the catalogs hold it."""
    with speaking(current() if localized else SOURCE):
        reason = kept(outcome.reason)
        if outcome.winner is None:
            return _("a tie ({reason})", reason=reason)
        if outcome.reason == FORFEIT:
            return _("{player} wins by forfeit", player=names[outcome.winner])
        return _("{player} wins ({reason})", player=names[outcome.winner], reason=reason)


def stored_outcome(result: str | None) -> Outcome | None:
    """The outcome a match's stored ``result`` holds (``str(Outcome)``: "challenger wins
    (checkmate)", "tie (agreed draw)"); None when there is none or it does not read."""
    if not result or not result.endswith(")"):
        return None
    head, _bracket, reason = result[:-1].partition(" (")
    winners = {f"{side.title} wins": side for side in Side} | {"tie": None}
    if not reason or head not in winners:
        return None
    return Outcome(winners[head], reason)
