"""The web board's squares as a screen reader says them: the state's ``squares`` names what
stands on each square (and what each hand holds) from the page's own view, in the page's
language, for every game; the public page and the opponent's never name a hidden Assassin
(twin worlds differing only there read the same)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_web_live import ANN_STARTS, ANN_WALKS, torii_playing, twin
from web_world import ANN, HERE, World

from bot.service import Terms
from rules import Side, game_type

C, O = Side.CHALLENGER, Side.OPPOSITION


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "squares.sqlite3") as world:
        yield world


async def test_r40_the_public_and_opponents_squares_never_name_the_hidden_assassin(
    tmp_path: Path,
) -> None:
    async with (
        World(tmp_path / "a.sqlite3") as a,
        World(tmp_path / "b.sqlite3") as b,
    ):
        worlds = (a, b)
        matches = [await twin(world, at) for world, at in zip(worlds, ANN_STARTS, strict=True)]
        public, bobs, anns = [], [], []
        for world, match in zip(worlds, matches, strict=True):
            public.append((await world.get(f"/api/m/{match}"))[1]["squares"])
            bobs.append((await world.me(match, O))["squares"])
            anns.append((await world.me(match, C))["squares"])
    assert public[0] == public[1] and bobs[0] == bobs[1]
    assert bobs[0].pop("v17h1") == "bob's Assassin, hidden"  # his own, on his page alone
    assert bobs[0] == public[0]
    assert "ann's Queen" in public[0].values() and "bob's King" in public[0].values()
    assert not any("Assassin" in said for said in public[0].values())
    for start, squares in zip(ANN_STARTS, anns, strict=True):
        assert squares[start] == "ann's Assassin, hidden"  # on her own page alone
        assert [s for s, said in squares.items() if "Assassin" in said] == [start]


async def test_every_square_of_a_torishogi_board_says_its_piece_and_the_hands(w: World) -> None:
    match = await w.playing(Terms(game="torishogi"))
    state = (await w.get(f"/api/m/{match}"))[1]
    squares = state["squares"]
    assert squares["d1"] == "ann's Phoenix" and squares["d7"] == "bob's Phoenix"
    assert len(squares) == 32 and set(squares) <= set(state["board"]["cells"])
    view = game_type("torishogi").from_fen("k6/7/7/7/7/+s6/6K[SSf] b 3 9", {}).view_for(None)
    said = game_type("torishogi").square_words(view, ("ann", "bob"))
    assert said["a2"] == "bob's Goose, a promoted Swallow"
    assert said["S@"] == "Swallows in hand: ann 2" and said["F@O"] == "Falcons in hand: bob 1"


async def test_every_square_of_a_torii_board_says_its_spirit_followers_and_torii(
    w: World,
) -> None:
    match = await torii_playing(w)
    squares = (await w.get(f"/api/m/{match}"))[1]["squares"]
    assert sorted(squares.values()) == ["ann's Spirit, the Deer", "bob's Spirit, the Kitsune"]
    view = (
        game_type("torii").from_fen("6/6/6/6/6/C5 Dc2,Kd5 8,9 3,4 13,123 O on", {}).view_for(None)
    )
    said = game_type("torii").square_words(view, ("ann", "bob"))
    assert said["a1"] == "ann's Follower; ann's Torii"


async def test_a_tora_square_says_its_ground(w: World) -> None:
    terms = Terms(options={"terrain": "custom", "terrain_map": "water v5h5; hill v4h4 N"})
    match = await w.playing(terms)
    squares = (await w.get(f"/api/m/{match}"))[1]["squares"]
    assert squares["v5h5"] == "water" and squares["v4h4"] == "hill, downhill to the north"


async def test_the_squares_speak_the_pages_language(w: World) -> None:
    await w.service.records.choose_player_language(ANN, "de")
    match = await w.playing()
    mine = (await w.me(match, C))["squares"]
    theirs = (await w.me(match, O))["squares"]
    assert theirs["v5h9"] == "ann's General" and mine["v5h9"] != "ann's General"
    assert "ann" in mine["v5h9"] and "General" in mine["v5h9"]


async def test_r40_a_replayed_turns_squares_are_the_same_whatever_the_hidden_assassin_did(
    tmp_path: Path,
) -> None:
    """A replayed turn's squares come from its public view alone: two worlds that differ only
    by ann's hidden Assassin (its start, its hidden walk) answer alike, a refusal while it
    is hidden."""
    async with (
        World(tmp_path / "a.sqlite3") as a,
        World(tmp_path / "b.sqlite3") as b,
    ):
        answers = []
        for world, start in zip((a, b), ANN_STARTS, strict=True):
            match = await twin(world, start)
            await world.service.play(HERE, ANN, ANN_WALKS[start])
            await world.service.end_turn(HERE, ANN)
            answers.append([await world.get(f"/api/m/{match}/squares?turn={n}") for n in (0, 1)])
    assert answers[0] == answers[1]
    assert [status for status, _body in answers[0]] == [404, 404]
    assert "once the match has ended" in answers[0][0][1]["error"]
