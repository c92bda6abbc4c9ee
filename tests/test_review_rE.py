"""Review rE: what a finished game leaves behind (records, replays, analysis) for the three
games: each test asserts what a player should see and fails today."""

from __future__ import annotations

from bot.service import User

ANN, BOB = User(1, "ann"), User(2, "bob")
GUILD = 1


async def test_the_record_of_a_declined_challenge_says_its_game_never_began(tmp_path) -> None:
    """``/tora games`` lists "Match 1 · ToriShogi: ann vs bob, the challenge was declined";
    ``/tora record number:1`` then answers "There is no match 1 in this server", as for a
    number that never existed. It should say that match 1's game never began, so it has
    no record (as the web page's record download says)."""
    from harness.stage import Stage

    async with Stage(tmp_path, ("ann", "bob")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.slash("bob", "decline")
        games = await stage.slash("ann", "games")
        assert "Match 1 " in games.text and "declined" in games.text, games.text
        record = await stage.slash("ann", "record", number=1)
        assert "There is no match 1" not in record.text, record.text
        assert "never began" in record.text or "not begun" in record.text, record.text
