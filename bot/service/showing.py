"""What the service's texts say of a game's state, for every game. TORA's views carry rounds,
points, series and Assassins, and the service words them; every other game's view says its
state in one line (``GameView.summary``). Also the line naming a hosted match and its game,
and a result with the winner by name."""

from __future__ import annotations

from collections.abc import Sequence

from rules import GameState, GameView, Outcome, Side, game_type
from rules.protocol import FORFEIT
from rules.tora import Event as ToraEvent
from rules.tora import Game as ToraGame
from rules.tora import Options
from rules.tora import View as ToraView
from storage import Hosted

from .terms import Terms
from .texts import listing, plural


def series_number(game: GameState) -> int:
    """The game of a TORA series (R28) being played; 1 in every other game."""
    return game.game_number if isinstance(game, ToraGame) else 1


def to_act(view: GameView) -> str:
    """What the side to act has to do: "2 actions in round 3", "a move", or a decision in
    the opponent's turn and what it is (the view words it: Torii's Monkey flip)."""
    if isinstance(view, ToraView):
        return f"{plural(view.actions_left, 'action')} in round {view.round}"
    if view.deciding:
        return f"{plural(view.actions_left, 'decision')} in the opponent's turn, {view.decision}"
    return "a move"


def standing(view: GameView, names: Sequence[str]) -> str:
    """The state in a line (TORA: the score, and this round's points so far)."""
    return view.summary(names) + "."


def final_standing(view: GameView, names: Sequence[str]) -> str:
    text = standing(view, names)
    return text.replace("Score:", "Final score:", 1) if isinstance(view, ToraView) else text


def turn_notes(view: GameView, names: Sequence[str], series_before: int) -> list[str]:
    """What a finished turn did besides its actions (TORA: Assassins revealed, doomed pieces
    removed at the end of a round, a new game of a series)."""
    if not isinstance(view, ToraView):
        return []
    lines = []
    revealed = {_assassin_owner(event) for event in view.last_turn if event.revealed}
    for side, record in view.published:
        if side in revealed and record:
            lines.append(
                f"{names[side]}'s Assassin is revealed, so its record is public now "
                f"(R44): {'; '.join(record)}."
            )
    if view.round_end:
        removed = listing(view.removed_at_round_end(names))
        lines.append(f"At the end of the round, doomed pieces are removed: {removed}.")
    if view.game_number != series_before:
        lines.append(
            f"Game {series_before} of the series is over: a new board is set up for game "
            f"{view.game_number}, and the points carry over."
        )
    return lines


def _assassin_owner(event: ToraEvent) -> Side:
    """Whose Assassin an action revealed: the searched side's, else the actor's own (it
    showed itself by attacking or by moving onto an enemy, R42)."""
    return event.side.other if event.searched else event.side


def setup_words(game: GameState, side: Side) -> str:
    """A player's public setup choices once the game starts (TORA: strategy and Ruler;
    Torii: the Spirit)."""
    if not isinstance(game, ToraGame):
        _options, answers = game_type(game.game_type).setup_of(game)
        return ", ".join(answers[side].values())
    options: Options = game.options
    strategy = options.challenger_setup if side == Side.CHALLENGER else options.opposition_setup
    if options.board == "long":
        return f"{strategy}, Ruler {options.rulers[side]}"
    return strategy


def game_title(hosted: Hosted) -> str:
    """The name of the game a hosted match plays (``rules.registry``): "ToriShogi"."""
    return Terms.from_json(hosted.terms).title


def match_heading(hosted: Hosted, players: str) -> str:
    """``Match 12 · ToriShogi · ann vs bob``: the line that names a match wherever its
    messages meet others' (DMs); ``players`` as a message shows them (escaped)."""
    return f"Match {hosted.id} \u00b7 {game_title(hosted)} \u00b7 {players}"


def result_words(outcome: Outcome, names: Sequence[str]) -> str:
    """A result with the winner by name (``names``: the Challenger's first, escaped):
    "ann wins (checkmate)", "bob wins by forfeit", "a tie (agreed draw)"."""
    if outcome.winner is None:
        return f"a tie ({outcome.reason})"
    if outcome.reason == FORFEIT:
        return f"{names[outcome.winner]} wins by forfeit"
    return f"{names[outcome.winner]} wins ({outcome.reason})"


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
