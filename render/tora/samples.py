"""Canonical positions, drawn for the golden-image tests and the README examples.

The mid-game is a fixed record, so it stays the same whatever the rules core's move order.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.tora import Game, Side, View, replay

from ..showcase import PLAYERS as PLAYERS

MID_GAME = """\
[Board "long"]
[ChallengerSetup "aggressive"]
[OppositionSetup "defensive"]
[Terrain "river"]
[ChallengerRuler "K"]
[OppositionRuler "Q"]

C: H v16h13-v14h15 ; S v10h16-v10h15 ; H v8h14-v10h17
O: A v8h2-v10h1 ; H v6h3-v5h3 ; A v3h4-v5h2
C: A v3h14-v4h15 ; A v8h13-v7h15 ; A v13h13-v12h12
O: Q v9h1-v11h3 ; A v5h5-v6h3 ; A v10h4-v8h3
C: H v10h14-v10h12 ; A v6h13-v4h12 ; S v7h14-v8h13
O: A v6h3-v7h1 ; H v12h3-v15h3 ; A v3h5-v2h7
C: H v14h15-v15h14 ; S v12h13-v13h12 ; H v15h14-v13h16
O: C v5h4 fire NW ; A v2h7-v3h8 ; C v13h4 fire NW
"""
MID_GAME_LAST_TURN = ("C v5h14 fire NW", "A v12h12-v14h14", "C v13h14 fire SW")


@dataclass(frozen=True)
class Sample:
    name: str
    kind: str  # "public" or "private"
    view: View


def short_start() -> View:
    game = Game(board="short", challenger_setup="defensive", opposition_setup="aggressive")
    return game.view_for(None)


def long_start() -> View:
    game = Game(
        board="long",
        terrain="highlands",
        challenger_setup="aggressive",
        opposition_setup="defensive",
        rulers=("K", "Q"),
    )
    return game.view_for(None)


def mid_game() -> View:
    """Round 5 of a long game: two cannon shots (an Archer removed, a General doomed) and an
    Archer's move, seen by a spectator."""
    game = _mid_game_staged()
    game.end_turn()
    return game.view_for(None)


def private_preview() -> View:
    """The same turn with Assassins on, as the Challenger sees it before ending the turn."""
    return assassin_turn().view_for(Side.CHALLENGER)


def assassin_turn(route: str = "X v5h17-v8h16") -> Game:
    """Round 5 of the mid-game with Assassins on: the Challenger has staged a cannon shot, a
    secret move of its hidden Assassin (by default onto the square of a friendly Soldier,
    R40) and an Archer's move."""
    text = MID_GAME.replace(
        '[Terrain "river"]\n', '[Terrain "river"]\n[Assassins "on"]\n[ChallengerAssassin "v5h17"]\n'
    )
    game = replay(text)
    for action in ("C v5h14 fire NW", route, "A v12h12-v14h14"):
        game.apply(action)
    return game


def _mid_game_staged() -> Game:
    game = replay(MID_GAME)
    for text in MID_GAME_LAST_TURN:
        game.apply(text)
    return game


def samples() -> list[Sample]:
    return [
        Sample("short-start", "public", short_start()),
        Sample("long-start-highlands", "public", long_start()),
        Sample("long-mid-game", "public", mid_game()),
        Sample("long-private-assassin", "private", private_preview()),
    ]
