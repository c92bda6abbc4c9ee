"""Hidden information through the service (issue 6, R40-R44): a long game with Assassins, and
twin worlds: two matches that differ only in the Challenger's hidden Assassin (its start
square and its moves) give identical channel transcripts, texts and image bytes, and an
identical transcript for the Opposition; only the Challenger's own differs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import NotAllowed, Place, Refused, Terms, User
from bot.service.testing import Harness
from rules.tora import Game, Options, Side

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB, CARL = User(1, "ann"), User(2, "bob"), User(3, "carl")
TERMS = Terms(options={"board": "long", "assassins": True})
OPTIONS = Options(
    board="long",
    assassins=True,
    challenger_setup="aggressive",
    opposition_setup="defensive",
    rulers=("Q", "K"),
)
BOB_START = "v17h1"


class World:
    """One match, with a rules-core shadow of it to pick the public actions from (hidden
    means absent: what is legal for the public pieces is the same in every twin)."""

    def __init__(self, h: Harness, ann_start: str, terms: Terms = TERMS) -> None:
        self.h = h
        self.ann_start = ann_start
        self.terms = terms
        self.shadow = Game(OPTIONS, assassin_starts=(ann_start, BOB_START))
        self.replies: dict[int, list[tuple[str, list[bytes]]]] = {
            ANN.id: [],
            BOB.id: [],
            CARL.id: [],
        }

    async def start(self) -> None:
        service = self.h.service
        await service.challenge(HERE, ANN, BOB, self.terms)
        await service.accept(HERE, BOB)
        await self.answer(ANN, service.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "Q"}))
        await self.answer(ANN, service.setup(HERE, ANN, {"assassin": self.ann_start}))
        await self.answer(
            BOB,
            service.setup(
                HERE, BOB, {"strategy": "defensive", "ruler": "K", "assassin": BOB_START}
            ),
        )

    async def answer(self, user: User, call) -> None:
        reply = await call
        self.replies[user.id].append((reply.text, [f.data for f in reply.files]))

    async def attempt(self, user: User, call) -> None:
        """What ``user`` is answered, a refusal's words included."""
        try:
            await self.answer(user, call)
        except Refused as exc:
            self.replies[user.id].append((f"{type(exc).__name__}: {exc.message}", []))

    async def act(self, user: User, text: str) -> None:
        self.shadow.apply(text)
        await self.answer(user, self.h.service.play(HERE, user, text))

    async def end(self, user: User) -> None:
        self.shadow.end_turn()
        await self.answer(user, self.h.service.end_turn(HERE, user))

    def public_choices(self) -> list[str]:
        game = self.shadow
        return sorted(game.notation(a) for a in game.legal_actions() if a.letter != "X")

    def channel(self) -> list[tuple[str, tuple[int, ...], list[bytes]]]:
        return [
            (m.text, m.mentions, [f.data for f in m.files])
            for m in self.h.delivery.channel(HERE.channel_id)
        ]

    def private(self, user: User) -> list[tuple[str, str, list[bytes]]]:
        return [
            (d.kind, d.message.text, [f.data for f in d.message.files])
            for d in self.h.delivery.user(user.id)
        ]


ANN_WALKS = {
    "v3h17": ["X v3h17-v4h16", "X v4h16-v5h16"],
    "v14h17": ["X v14h17-v14h16", "X v14h16-v12h16"],
}


async def play_twins(worlds: list[World], turns: int, rng: random.Random) -> None:
    """Both worlds get the same public actions; ann's Assassin walks its own way in each."""
    for turn in range(turns):
        side = Side.CHALLENGER if turn % 2 == 0 else Side.OPPOSITION
        user = ANN if side == Side.CHALLENGER else BOB
        if side == Side.CHALLENGER:
            for world in worlds:
                await world.act(ANN, ANN_WALKS[world.ann_start][turn // 2])
        elif turn == 1:
            for world in worlds:
                await world.act(BOB, "X v17h1-v16h2")  # bob's hidden move: the same in both
        choices = worlds[0].public_choices()
        assert all(w.public_choices() == choices for w in worlds[1:])
        text = rng.choice([c for c in choices if " x " not in c])
        for world in worlds:
            await world.act(user, text)
        for world in worlds:
            await world.end(user)
            await world.h.settle()


async def test_twin_worlds_look_the_same_to_everyone_but_the_owner(tmp_path: Path) -> None:
    async with (
        Harness(tmp_path / "world-a.sqlite3") as first,
        Harness(tmp_path / "world-b.sqlite3") as second,
    ):
        await twins([World(first, "v3h17"), World(second, "v14h17")])


async def twins(worlds: list[World]) -> None:
    for world in worlds:
        await world.start()
        await world.h.settle()
    await play_twins(worlds, 4, random.Random(7))
    for world in worlds:
        await world.answer(ANN, world.h.service.board(HERE, ANN))
        await world.answer(BOB, world.h.service.board(HERE, BOB))
    a, b = worlds
    assert a.channel() == b.channel()
    assert any("X ?" in text for text, _m, _f in a.channel())
    assert a.private(BOB) == b.private(BOB)
    assert a.replies[BOB.id] == b.replies[BOB.id]
    assert a.private(ANN) != b.private(ANN)
    assert a.replies[ANN.id] != b.replies[ANN.id]
    for world, secrets in ((a, ("v3h17", "v4h16", "v5h16")), (b, ("v14h17", "v14h16", "v12h16"))):
        seen_by_others = repr((world.channel(), world.private(BOB), world.replies[BOB.id]))
        assert not any(square in seen_by_others for square in secrets)
        assert "v16h2" not in repr((world.channel(), world.private(ANN), world.replies[ANN.id]))


async def test_twin_worlds_agree_on_proposals_takebacks_plans_and_deadlines(
    tmp_path: Path,
) -> None:
    """Casual twins (ann's Assassin starts and walks its own way in each) through what the
    twin transcripts above leave out: bob acts out of turn, offers a draw while ann has
    staged her hidden move, asks to take back his turn, which ann accepts with her hidden
    move staged; he plays it again and plans a reply to her next turn, which ends at its
    deadline with only a hidden move staged (his plan answers none of it); carl looks at
    the board between. The channel, bob and carl see the same."""
    casual = Terms(options={"board": "long", "assassins": True}, rated=False)
    async with (
        Harness(tmp_path / "world-a.sqlite3") as first,
        Harness(tmp_path / "world-b.sqlite3") as second,
    ):
        worlds = [World(first, "v3h17", casual), World(second, "v14h17", casual)]
        for world in worlds:
            await world.start()
        await play_twins(worlds, 2, random.Random(7))
        for world in worlds:
            await out_of_turn(world, ANN_WALKS[world.ann_start][1])
        a, b = worlds
        assert [m.text for m in a.h.delivery.channel(HERE.channel_id)][-1].startswith(
            "ann's turn ended at its deadline:\n- ann's hidden Assassin acts, unseen"
        )
        assert any("none of your plans answers" in text for _k, text, _f in a.private(BOB))
        assert a.channel() == b.channel()
        assert a.private(BOB) == b.private(BOB)
        assert a.private(CARL) == b.private(CARL)
        for user in (BOB, CARL):
            assert a.replies[user.id] == b.replies[user.id]


async def out_of_turn(world: World, walk: str) -> None:
    """ann's second turn, her hidden ``walk`` staged, with bob's and carl's requests around
    it, and its end at the deadline."""
    service, h = world.h.service, world.h
    await world.answer(ANN, service.play(HERE, ANN, walk))
    for call in (service.play(HERE, BOB, "S v6h5-v6h6"), service.end_turn(HERE, BOB)):
        await world.attempt(BOB, call)
    await world.attempt(BOB, service.draw(HERE, BOB))
    await world.attempt(BOB, service.takeback(HERE, BOB))
    await world.attempt(CARL, service.board(HERE, CARL))
    await world.attempt(ANN, service.takeback(HERE, ANN))  # accepted: her walk is dropped
    await h.settle()
    await world.answer(BOB, service.play(HERE, BOB, "S v6h5-v6h6"))
    await world.answer(BOB, service.end_turn(HERE, BOB))
    await world.answer(BOB, service.plans(HERE, BOB, "H v2h13-v2h12 > S v6h6-v6h7"))
    await world.answer(ANN, service.play(HERE, ANN, walk))
    await world.attempt(CARL, service.board(HERE, CARL))
    await h.advance(world.terms.turn_seconds + 1)  # past its deadline
    await world.attempt(CARL, service.board(HERE, CARL))


async def test_a_long_game_with_assassins_to_its_end(tmp_path: Path) -> None:
    async with Harness(tmp_path / "long.sqlite3") as h:
        await long_game(World(h, "v3h17"))


async def long_game(world: World) -> None:
    await world.start()
    await world.h.settle()
    await play_twins([world], 4, random.Random(3))
    reply = await world.h.service.board(HERE, ANN)
    assert (
        "Your Assassin's record: start v3h17; round 1: X v3h17-v4h16; round 2: X v4h16-v5h16."
        in (reply.text)
    )
    assert any("X v4h16-v5h16" in text for text, _files in world.replies[ANN.id])
    await world.h.service.resign(HERE, BOB)
    await world.h.settle()
    final = world.h.delivery.channel(HERE.channel_id)[-1]
    assert final.text.startswith("bob (Opposition) resigns. ann (Challenger) wins (resignation).")
    record = final.files[1].data.decode()
    assert '[ChallengerAssassin "v3h17"]' in record and '[OppositionAssassin "v17h1"]' in record
    assert "X v3h17-v4h16" in record and "X v17h1-v16h2" in record  # published at the end (R44)


async def test_r41_each_player_is_offered_only_their_own_free_start_squares(h: Harness) -> None:
    service = h.service
    await service.challenge(HERE, ANN, BOB, TERMS)
    await service.accept(HERE, BOB)
    assert await service.offered(HERE, ANN, "assassin") == ["none"]  # no strategy chosen yet
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.setup(HERE, BOB, {"strategy": "defensive"})
    ann = await service.offered(HERE, ANN, "assassin")
    assert ann[0] == "v1h17" and "v9h17" not in ann and ann[-1] == "none"  # the Ruler's
    assert await service.offered(HERE, BOB, "assassin", "v17") == ["v17h1"]


async def test_r41_the_assassin_autocomplete_says_why_it_offers_nothing(h: Harness) -> None:
    """Regression: ``/tora setup assassin:`` offered nothing at all, with no word why, to a
    spectator, once the game had begun, and where no match is, where ``strategy:`` says
    why in a hint; it now gives the same refusals as the setup form."""
    service = h.service
    with pytest.raises(Refused, match="There is no match here"):
        await service.offered(HERE, ANN, "assassin")
    await service.challenge(HERE, ANN, BOB, TERMS)
    await service.accept(HERE, BOB)
    with pytest.raises(NotAllowed, match="you are welcome to watch"):
        await service.offered(HERE, User(3, "carl"), "assassin")
    await service.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "Q", "assassin": "v3h17"})
    await service.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K", "assassin": "none"})
    with pytest.raises(Refused, match="The setup is over"):
        await service.offered(HERE, ANN, "assassin")


async def test_r43_a_search_in_a_refused_command_stays_staged_and_its_result_is_not_free(
    h: Harness,
) -> None:
    """`/tora act "H v2h13 search; H v2h13-v2h14"` was refused as a whole, "none was
    staged", saying why: "your Cavalry ... searched this turn and found nothing". The
    player learnt what the search found without making it, and could play otherwise. A
    search that tells the refusal of an action after it is staged (R10: it is not taken
    back), with the actions before it, and the reply says so."""
    await World(h, "v3h17").start()
    searches = [v for _s, v in await h.service.choices(HERE, ANN, "search") if "-" not in v]
    letter, square, _word = searches[0].split()
    moves = await h.service.choices(HERE, ANN, f"{letter} {square}-")
    move = next(v for _s, v in moves if "search" not in v and "x" not in v.split())
    reply = await h.service.play(HERE, ANN, f"{searches[0]}; {move}")
    assert reply.text.startswith(f"Staged: {searches[0]}"), reply.text
    assert f"Action 2 of 2 (`{move}`) is refused: " in reply.text
    assert "found nothing" in reply.text and "A search is never taken back (R10)" in reply.text
    assert (await h.store.load(1)).game.staged() == [searches[0]]
