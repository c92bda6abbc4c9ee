"""Review rQ: the AI players (ai/ and bot/service/robots.py), failing tests of bugs found."""

from __future__ import annotations

import asyncio

import pytest

import ai
from bot.service import Place, Terms, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN = User(1, "ann")
HOUR = 3600.0


def texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


async def practice(h: Harness, level: str = "easy", **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "rated": False, **terms}
    await h.service.challenge_ai(HERE, ANN, level, Terms(**terms))
    await h.settle()


def test_an_ai_whose_last_action_found_the_assassin_takes_it_for_free() -> None:
    """What the player sees: on the long board with Assassins, the AI with one action left
    in its turn (its last command piece) searches, finds the enemy Assassin next to the
    searcher, and ends its turn without the free take R43 gives ("one that finds the
    Assassin and can still attack may take it as a free action"); the now revealed
    Assassin survives to strike. docs/AI.md: the search is played alone "so the rest of the
    turn is chosen knowing what it found: a found Assassin taken as a free action"; but
    ``plays_alone`` asks again only with two actions or more left, and the turn builder
    stops at no action left, where the free take is still legal.
    What it should do: take the found Assassin (the host asking again after the search)."""
    from positions import C, O, hidden, position

    game = position(
        (C, "G", "v9h12"), (O, "G", "v17h1"), hidden(O, "v9h11"),
        board="long", assassins=True, generals=False,
    )  # fmt: skip
    [assassin] = [p for p in game.pos.pieces.values() if p.hidden]
    game.assassin_starts = (0, assassin.sq)
    assert game.actions_left == 1
    texts = ["G v9h12 search"]  # the engine's choice (``worth_searching``), played alone
    alone = ai.plays_alone(game, texts)
    game.apply(texts[0])
    assert "G v9h12 x v9h11" in [game.notation(a) for a in game.legal_actions()]  # R43
    rest = ai.decide(game.for_player(game.side), "hard", 0.5, 0) if alone else []
    assert "G v9h12 x v9h11" in rest, (alone, rest)
