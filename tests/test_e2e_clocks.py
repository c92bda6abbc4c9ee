"""End to end, the clocks that fit (issue 27): a bank clock chosen with the challenge's
options, each player's time on the turn posts and in ``/tora games``, the turn post's
"Give +1 day" pressed by the waiting player, and the end post's Rematch, which makes a
challenge with the colours swapped and then greys out."""

from __future__ import annotations

from pathlib import Path

from emulator import Msg
from harness.stage import Stage


def newest(stage: Stage, needle: str) -> Msg:
    return next(m for m in reversed(stage.emu.messages(stage.channel)) if needle in m.text())


def live(message: Msg) -> bool:
    buttons = [b for b in message.buttons() if "url" not in b]
    return bool(buttons) and not any(b.get("disabled") for b in buttons)


async def test_a_bank_clock_a_gift_of_time_and_a_rematch(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash(
            "ann", "challenge", opponent="bob", game="torishogi", deadline="2d", clock="bank",
            bank="5d",
        )  # fmt: skip
        await stage.posted("2 days per turn and a bank of 5 days each")
        await stage.click("bob", "Accept")
        begun = await stage.posted("The game begins")
        assert "Time left: ann 7 days (bank 5 days), running \u00b7 bob 7 days" in begun
        games = await stage.slash("bob", "games")
        assert "you 7 days (bank 5 days), they 7 days (bank 5 days), running" in games.text
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        turn = await stage.posted("ann (Challenger) ended their turn")
        assert "bob 7 days (bank 5 days), running" in turn
        await stage.quiet()
        gift = newest(stage, "ann (Challenger) ended their turn")
        assert [b["label"] for b in gift.buttons() if "url" not in b] == ["Give +1 day"]
        given = await stage.click("ann", "Give +1 day")
        assert given.error is None and given.text == "You gave bob 1 day.", given.text
        await stage.posted("ann (Challenger) gave bob 1 day: their turn now ends")
        refused = await stage.click("bob", "Give +1 day")  # on his own turn's post
        assert "Your turn is running" not in refused.text  # a bank: ann's next turn grows
        await stage.posted("bob (Opposition) gave ann 1 day: their next turn lasts 8 days")
        await stage.slash("bob", "resign")
        await stage.click("bob", "Resign")
        end = await stage.posted("bob (Opposition) resigns")
        assert "ask for a rematch with the button (colours swapped)" in end
        await stage.quiet()
        ended = newest(stage, "bob (Opposition) resigns")
        assert live(ended)  # the Rematch holds after the end
        asked = await stage.click("bob", "Rematch")
        assert asked.error is None and asked.text.startswith("Your challenge is posted"), asked.text
        challenge = await stage.posted("bob challenges ann to a match of ToriShogi")
        assert "2 days per turn and a bank of 5 days each" in challenge
        assert "the challenged player moves first" not in challenge  # bob played second
        await stage.quiet()
        assert not live(newest(stage, "bob (Opposition) resigns"))
        await stage.click("ann", "Accept")
        begun = await stage.posted("The game begins: bob (Challenger)")
        assert "bob (Challenger) to act" in begun
