"""Hidden information through the service (issue 6, R40-R44): a long game with Assassins, and
twin worlds: two matches that differ only in the Challenger's hidden Assassin (its start
square and its moves) give identical channel transcripts, texts and image bytes, and an
identical transcript for the Opposition; only the Challenger's own differs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import Caller
from bot.app.actions import Actions
from bot.app.boards import Boards
from bot.app.menus import ACT, Nav
from bot.app.page_words import next_step, setup_text
from bot.app.playing import Playing
from bot.i18n import speaking, word
from bot.service import NotAllowed, Place, Refused, Terms, User
from bot.service.testing import Harness, RecordingThreads
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


async def test_r43_after_a_search_nothing_offers_to_take_it_back(h: Harness) -> None:
    """bob searched with an Archer (R43): his reply said "take one back with `/tora undo`"
    beside an Undo button, and his Play panel and web page offered Undo too, each refused
    (R10: nothing is taken back past a search); with nothing staged ``/tora board`` offered
    it as well. Now Undo is offered only while it takes an action back: the move staged
    after the search."""
    world = World(h, "v3h17")
    await world.start()
    service = h.service
    await world.end(ANN)
    idle = await service.board(HERE, BOB)
    assert "Nothing staged this turn yet." in idle.text and "/tora undo" not in idle.text
    searched = await service.play(HERE, BOB, "A v3h4 search", menu=True)
    assert "2 actions left: play another with `/tora act`, or end your turn" in searched.text
    assert searched.buttons == ("play", "end", "preview")
    assert searched.menu is not None and not searched.menu.undoable
    assert not (await service.look(1, Side.OPPOSITION)).moves.undoable  # the web page's
    moved = await service.play(HERE, BOB, "S v9h5-v9h6", menu=True)
    assert "take one back with `/tora undo`" in moved.text
    assert moved.buttons == ("play", "end", "undo", "preview")
    assert moved.menu is not None and moved.menu.undoable
    assert (await service.look(1, Side.OPPOSITION)).moves.undoable


async def test_r41_a_setup_command_without_answers_shows_the_choices_so_far(h: Harness) -> None:
    """ann had chosen her strategy and her Assassin's secret square, then typed
    ``/tora setup`` alone to see where she stood: she was told to choose everything again
    ("Tell me what you choose (your strategy, your Ruler and your Assassin's start square")
    as if nothing were chosen. Now she is shown what she chose and what is left."""
    service = h.service
    await service.challenge(HERE, ANN, BOB, TERMS)
    await service.accept(HERE, BOB)
    with pytest.raises(Refused, match=r"Tell me what you choose \(your strategy, your Ruler"):
        await service.setup(HERE, ANN, {})
    await service.setup(HERE, ANN, {"strategy": "aggressive", "assassin": "v3h17"})
    with pytest.raises(Refused) as asked:
        await service.setup(HERE, ANN, {})
    said = str(asked.value)
    assert "strategy aggressive and Assassin starts on v3h17" in said
    assert "Still to choose: your Ruler." in said and "your strategy" not in said
    await service.setup(HERE, ANN, {"ruler": "Q"})
    with pytest.raises(Refused, match="That is all; the game starts when bob"):
        await service.setup(HERE, ANN, {})


async def test_r44_the_end_post_publishes_the_records_of_the_assassins_still_hidden(
    h: Harness,
) -> None:
    """bob resigned while both Assassins were hidden: the end post said only "The full record
    is attached", so the channel never learnt where they had been unless someone opened the
    file, where a reveal during the game says the record in the post (R44). Now the end post
    says the record of each Assassin that stayed hidden."""
    world = World(h, "v3h17")
    await world.start()
    await world.act(ANN, "X v3h17-v4h16")
    await world.end(ANN)
    await h.service.resign(HERE, BOB)
    await h.settle()
    final = h.delivery.channel(HERE.channel_id)[-1].text
    assert final.startswith("bob (Opposition) resigns.")
    assert (
        "\nann's Assassin stayed hidden; its record is public now (R44): start v3h17; "
        "round 1: X v3h17-v4h16.\nbob's Assassin stayed hidden; its record is public now "
        "(R44): start v17h1." in final
    )


async def beside_bobs_archer(h: Harness) -> World:
    """ann's hidden Assassin walked from v3h17 to v3h6, beside bob's Archer on v3h4's
    file, taking the piece on v3h5: bob to act, a search from v3h5 would find it (R43)."""
    world = World(h, "v3h17")
    await world.start()
    for walk in ("X v3h17-v3h14", "X v3h14-v3h11", "X v3h11-v3h8"):
        await world.act(ANN, walk)
    await world.end(ANN)
    await world.end(BOB)
    await world.act(ANN, "X v3h8-v3h6 x v3h5")
    await world.end(ANN)
    return world


async def test_r43_a_search_that_finds_the_assassin_says_it_may_be_taken_for_free(
    h: Harness,
) -> None:
    """bob's Archer searched and revealed ann's Assassin next to it: the reply said only
    "(the Assassin is revealed on v3h6)" and "2 actions left", never that the Archer could
    take it at once at no cost (R43), which only the very next action may do. Now the reply
    says so, with the actions that do it, and says it no more once the chance is gone."""
    await beside_bobs_archer(h)
    found = await h.service.play(HERE, BOB, "A v3h4-v3h5 search")
    assert "(R43), with one of: `A v3h5 x v3h6`; `A v3h5-v3h6`." in found.text, found.text
    taken = await h.service.play(HERE, BOB, "A v3h5 x v3h6")
    assert "R43" not in taken.text


async def test_r43_the_play_panel_and_web_page_say_the_found_assassin_may_be_taken_for_free(
    h: Harness,
) -> None:
    """The free take of the Assassin a search revealed (R43) was said in the reply of
    ``/tora act`` alone: the Play panel showed the staged search and the menus, the web page
    its prompt, and neither said the searching piece could take it at no cost now."""
    world = await beside_bobs_archer(h)
    playing = Playing(Actions(h.service, RecordingThreads()))
    opened = await playing.open(Caller(BOB, HERE.guild_id, HERE.channel_id), None)
    assert opened.stamp is not None
    search = "A v3h4-v3h5 search"
    group = next(c.group for c in world.shadow.choices() if c.notation == search)
    panel = await playing.act(
        Caller(BOB, HERE.guild_id, HERE.channel_id),
        HERE.channel_id,
        opened.stamp,
        Nav(group=group),
        ACT + search,
    )
    hint = "may take it now at no cost, as your very next action (R43), with one of: `A v3h5 x"
    assert hint in panel.text, panel.text
    moves = (await h.service.look(1, Side.OPPOSITION)).moves
    assert moves is not None and any(hint in word(said) for said in moves.hints)


async def test_r41_a_setup_answer_after_the_start_says_the_setup_is_settled(h: Harness) -> None:
    """ann tried to move her Assassin's start square once the game had begun: she was told
    only "The game is under way, so that cannot be done now.", as any command out of its
    phase is. Now she is told the setup can no longer change, and where to see her board."""
    world = World(h, "v3h17")
    await world.start()
    with pytest.raises(Refused) as late:
        await h.service.setup(HERE, ANN, {"assassin": "v4h17"})
    assert str(late.value) == (
        "The game has begun, so the setup can no longer change: `/tora board` shows your own board."
    )


async def test_r43_the_pages_next_step_after_a_search_offers_no_undo(h: Harness) -> None:
    """bob searched on his web page (R43): the page said "2 actions left: click the next
    piece, Undo the last one, or End turn." though its Undo was off (R10: nothing is taken
    back past a search). Now it offers Undo only while it takes an action back."""
    world = World(h, "v3h17")
    await world.start()
    await world.end(ANN)
    boards = Boards(h.service)
    await h.service.play(HERE, BOB, "A v3h4 search")
    state = await boards.mine(1, Side.OPPOSITION)
    assert next_step(state) == "2 actions left: click the next piece, or End turn."
    await h.service.play(HERE, BOB, "S v9h5-v9h6")
    state = await boards.mine(1, Side.OPPOSITION)
    assert (
        next_step(state) == "1 action left: click the next piece, Undo the last one, or End turn."
    )
    await h.service.play(HERE, BOB, "A v8h4 search")
    state = await boards.mine(1, Side.OPPOSITION)
    assert next_step(state) == "No actions left: End turn."


async def test_r41_the_setup_page_names_the_side_as_the_game_does(h: Harness) -> None:
    """ann's setup page said "You play the challenger and move first." (in German "Du
    spielst die Seite challenger"): the side in lower-case English, where every other text
    names it as the rule book does, "Challenger", a game term in every language."""
    await h.service.challenge(HERE, ANN, BOB, TERMS)
    await h.service.accept(HERE, BOB)
    state = await Boards(h.service).mine(1, Side.CHALLENGER)
    assert state["setup"]["text"].startswith("You play the Challenger and move first.")
    with speaking("de"):
        assert "die Seite Opposition." in setup_text(Side.OPPOSITION)


async def test_r43_the_web_pages_free_take_hint_shows_no_markdown(h: Harness) -> None:
    """bob's search revealed ann's Assassin: his web page (and Activity) said under the board
    "... with one of: `A v3h5 x v3h6`; `A v3h5-v3h6`.", Discord's code marks shown as
    backticks, where every other text of the page has them taken out (``page_text``). Now
    the page's hint reads as its other texts do."""
    await beside_bobs_archer(h)
    await h.service.play(HERE, BOB, "A v3h4-v3h5 search")
    state = await Boards(h.service).mine(1, Side.OPPOSITION)
    [hint] = state["hints"]
    assert hint.endswith("(R43), with one of: A v3h5 x v3h6; A v3h5-v3h6."), hint


async def test_r43_the_play_panel_offers_the_free_take_after_a_last_action_search(
    h: Harness,
) -> None:
    """bob's last action of the turn was a search that revealed ann's Assassin: his Play
    panel said the Archer "may take it now at no cost" (R43: even with no action left), then
    "Nothing more to stage this turn", with no menu to pick the take from, so only a typed
    ``/tora act`` could make it. Now the panel offers it in its menus."""
    await beside_bobs_archer(h)
    for action in ("S v9h5-v9h6", "S v10h5-v10h6", "A v3h4-v3h5 search"):
        await h.service.play(HERE, BOB, action)
    playing = Playing(Actions(h.service, RecordingThreads()))
    panel = await playing.open(Caller(BOB, HERE.guild_id, HERE.channel_id), None)
    assert "may take it now at no cost" in panel.text
    assert "Nothing more to stage this turn" not in panel.text, panel.text
    assert panel.selects and panel.stamp is not None, panel.text
    bob = Caller(BOB, HERE.guild_id, HERE.channel_id)
    take = "A v3h5 x v3h6"
    taken = await playing.act(bob, HERE.channel_id, panel.stamp, Nav(group="Av3h5"), ACT + take)
    assert f"4. {take}" in taken.text, taken.text


async def test_r43_a_last_action_search_that_found_the_assassin_is_not_told_no_action_is_left(
    h: Harness,
) -> None:
    """bob's last action of the turn was a search that revealed ann's Assassin: his reply
    hinted the free take (R43), then said "No actions left: end your turn with `/tora
    end`.", and his web page "No actions left: End turn.", as if nothing more could be
    done. Now both say the free one is left."""
    await beside_bobs_archer(h)
    for action in ("S v9h5-v9h6", "S v10h5-v10h6"):
        await h.service.play(HERE, BOB, action)
    found = await h.service.play(HERE, BOB, "A v3h4-v3h5 search")
    assert found.text.endswith(
        "No actions left but the free one: play it with `/tora act`, or end your turn with "
        "`/tora end`."
    ), found.text
    state = await Boards(h.service).mine(1, Side.OPPOSITION)
    assert next_step(state) == "No actions left but the free one: click its piece, or End turn."
    taken = await h.service.play(HERE, BOB, "A v3h5 x v3h6")
    assert "No actions left: end your turn with `/tora end`, or take" in taken.text, taken.text


async def test_r41_the_assassin_autocomplete_says_a_match_without_assassins_has_none(
    h: Harness,
) -> None:
    """Regression: in a TORA match played without Assassins, ``/tora setup assassin:``
    offered nothing with no word why, where ``strategy:`` in a match whose setup asks for
    no strategy says so; it now says the same of the Assassin."""
    await h.service.challenge(HERE, ANN, BOB, Terms(options={"board": "long"}))
    await h.service.accept(HERE, BOB)
    with pytest.raises(Refused, match="This match's setup asks for no assassin"):
        await h.service.offered(HERE, ANN, "assassin")


async def test_r41_the_assassin_autocomplete_before_the_strategy_says_to_choose_it_first(
    h: Harness,
) -> None:
    """Regression: before a strategy was chosen, ``/tora setup assassin:v3`` offered nothing
    with no word why (only ``none`` is offered then, as the strategy decides the free
    squares), where the setup form says to choose the strategy first; the hint says so."""
    await h.service.challenge(HERE, ANN, BOB, TERMS)
    await h.service.accept(HERE, BOB)
    assert await h.service.offered(HERE, ANN, "assassin", "n") == ["none"]
    with pytest.raises(Refused, match="choose your strategy first: it decides the squares"):
        await h.service.offered(HERE, ANN, "assassin", "v3")
