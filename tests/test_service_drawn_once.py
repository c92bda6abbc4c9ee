"""Where and how often the service's board images are drawn (issue 26): a match's pictures in the
same drawing worker, so that its caches serve them; a picture drawn once for all it is for."""

from __future__ import annotations

import asyncio
import pickle
import random

import pytest

from bot.app.pictures import PillowRenderer
from bot.service import Pointing, Status
from bot.service.lanes import SPILL, Lanes, shown
from bot.service.offload import Kept, Offload, _draw, portable
from render import own_board_of
from render.drawings import drawing_of
from render.status import StatusInfo
from rules import GameState, GameView, IllegalAction, Side, game_type
from rules.tora import Game

STATUS = Status("ann", "bob", "due in 1 day")


def test_a_match_s_pictures_go_to_one_worker_unless_it_is_busy() -> None:
    lanes = Lanes(2)
    players = ("ann", "bob")
    lane = lanes.lane_for(players)
    assert {lanes.lane_for(players) for _ in range(5)} == {lane}
    pairs = {lanes.lane_for((f"player {n}", f"player {n + 1}")) for n in range(20)}
    assert pairs == {"draw", "draw1"}  # other matches use the other worker too
    lanes._queued[lane] = SPILL - 1
    assert lanes.lane_for(players) == lane
    lanes._queued[lane] = SPILL  # that many more waiting than the idle worker
    assert lanes.lane_for(players) != lane


def test_a_match_s_pictures_wait_behind_its_own_but_not_behind_another_match_s() -> None:
    """A turn end's two pictures go to the same worker, the second drawn from what the first
    left; another match's picture goes to the idle worker rather than wait behind them."""
    lanes = Lanes(2)
    players = ("ann", "bob")
    lane = lanes.lane_for(players)
    pairs = ((f"player {n}", f"player {n + 1}") for n in range(20))
    others = next(pair for pair in pairs if lanes.lane_for(pair) == lane)  # same worker
    lanes._queued[lane] = SPILL
    lanes._showing[lane][players] = SPILL
    assert lanes.lane_for(players) == lane
    assert lanes.lane_for(others) != lane


async def test_a_match_s_pictures_beyond_a_turn_end_s_pair_go_to_an_idle_worker() -> None:
    """A match's worker stuck on one of its pictures: the next waits behind it (a turn end's
    second picture, ``SPILL``), the ones after it go to the other worker."""
    offload = Offload(0, 0, draw_processes=2)
    players = ("ann", "bob")
    own = offload.lanes.lane_for(players)
    release = asyncio.Event()
    sent: list[str] = []

    async def run(lane: str, job: object, data: bytes) -> tuple[str, bytes]:
        sent.append(lane)
        await release.wait()
        return ("drawn", lane.encode())

    offload._run = run  # type: ignore[method-assign]
    try:
        drawings = []
        for _ in range(4):
            drawings.append(asyncio.ensure_future(offload._drawn(_draw, b"", bytes, players)))
            await asyncio.sleep(0)  # each is sent before the next is asked for
        other = next(lane for lane in offload.lanes.names if lane != own)
        assert sent == [own, own, other, other]
        release.set()
        await asyncio.gather(*drawings)
    finally:
        offload.close()


def test_a_drawing_is_routed_by_the_players_it_shows() -> None:
    view = Game(board="short").view_for(None)
    status = Status("ann", "bob", "due in 1 day")
    assert shown((view, status, "en")) == shown((view, status, None, "fr")) == ("ann", "bob")
    assert shown((view,)) is None


class Counting(PillowRenderer):
    """The real renderer, counting the images it draws (its cache kept out of the way)."""

    def __init__(self) -> None:
        super().__init__(cache_bytes=0)
        self.drawn = 0

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        self.drawn += 1
        return super().board(view, status, language)

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        self.drawn += 1
        return super().private(view, status, marks, language)


def turns_played(game_id: str, turns: int, seed: int = 1) -> GameState:
    """A game of ``game_id`` (its sample setup) after ``turns`` turns of random legal
    actions, each ended: at the end of a turn, as the service draws its images."""
    kind = game_type(game_id)
    game = kind.new_game(*kind.sample_setup({}))
    rng = random.Random(seed)
    for _turn in range(turns):
        while not _ended(game, rng):
            while game.staged():
                game.undo()
    return game


def _ended(game: GameState, rng: random.Random) -> bool:
    """Whether a turn of random actions (one at least, if there is any) ended the turn."""
    while game.actions_left and game.legal_actions():
        game.apply(rng.choice(game.legal_actions()))
        if rng.random() < 0.3:
            break
    try:
        game.end_turn()
    except IllegalAction:
        return False
    return True


async def turn_end_images(
    game: GameState, languages: tuple[str, str] = ("en", "en")
) -> tuple[tuple[bytes, bytes], int]:
    """The public board and the next player's own, asked for at once as a turn's end asks
    (``announce.turn_end``), drawn in threads: (the images, how many were drawn)."""
    renderer = Counting()
    offload = Offload(0, 0, draw_processes=0, renderer=renderer)
    public, own = await asyncio.gather(
        offload.draw("board", game.view_for(None), STATUS, languages[0]),
        offload.draw("private", game.view_for(game.side), STATUS, None, languages[1]),
    )
    assert not offload._drawing  # nothing kept once drawn
    return (public, own), renderer.drawn


async def test_a_torii_turn_end_draws_its_one_picture_once() -> None:
    game = turns_played("torii", 3)
    (public, own), drawn = await turn_end_images(game)
    assert drawn == 1 and public == own
    alone = PillowRenderer(cache_bytes=0)  # the very image each would be alone
    assert own == alone.private(game.view_for(game.side), STATUS)
    assert public == alone.board(game.view_for(None), STATUS)


async def test_torishogi_shares_the_challenger_s_picture_not_the_turned_one() -> None:
    for turns in (2, 3):
        game = turns_played("torishogi", turns)
        (public, own), drawn = await turn_end_images(game)
        if game.side == Side.CHALLENGER:
            assert (drawn, public == own) == (1, True)
        else:  # the Opposition sees the board turned: another picture
            assert (drawn, public == own) == (2, False)


@pytest.mark.parametrize("game_id", ["tora", "torii", "torishogi"])
async def test_pictures_that_differ_are_never_shared(game_id: str) -> None:
    game = turns_played(game_id, 2)
    assert game.side == Side.CHALLENGER
    (public, own), drawn = await turn_end_images(game, ("en", "fr"))  # the status's words
    assert drawn == 2 and public != own


async def test_a_tora_player_s_own_picture_is_never_the_public_one() -> None:
    """TORA's own picture says PRIVATE (and shows the player's hidden Assassin): two images
    at every turn's end, the public one drawn from the public view alone."""
    game = turns_played("tora", 3)
    (public, own), drawn = await turn_end_images(game)
    assert drawn == 2 and public != own


@pytest.mark.parametrize("game_id", ["torii", "torishogi"])
def test_the_view_a_drawing_sees_draws_what_the_view_itself_draws(game_id: str) -> None:
    """``Drawing.seen`` leaves out only what the pictures never draw."""
    drawing = drawing_of(game_id)
    assert drawing.seen is not None
    info = StatusInfo("ann", "bob", "due in 1 day")
    for turns in range(4):
        game = turns_played(game_id, turns, seed=turns)
        for viewer in (None, Side.CHALLENGER, Side.OPPOSITION):
            view = game.view_for(viewer)
            assert drawing.own(view, info, None) == own_board_of(view, info)
            assert drawing.board(view, info) == drawing.board(drawing.seen(view), info)


class Tally(PillowRenderer):
    """A renderer that counts, in its class, the boards it draws (a copy is unpickled in
    each worker)."""

    drawn = 0

    def __reduce__(self) -> tuple[type[Tally], tuple[()]]:
        return Tally, ()

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        Tally.drawn += 1
        return super().board(view, status, language)


def test_a_worker_keeps_what_it_drew_by_the_job_s_bytes() -> None:
    view = Game(board="short").view_for(None)
    renderer = portable(Tally())
    assert renderer is not None
    job = pickle.dumps((renderer, "board", (view, STATUS, "en")), pickle.HIGHEST_PROTOCOL)
    other = pickle.dumps((renderer, "board", (view, STATUS, "fr")), pickle.HIGHEST_PROTOCOL)
    before = Tally.drawn
    first, again, french = _draw(job), _draw(job), _draw(other)
    assert Tally.drawn - before == 2 and first == again != french
    assert pickle.loads(first) == ("drawn", PillowRenderer(0).board(view, STATUS, "en"))


def test_the_kept_answers_stay_within_their_bytes() -> None:
    kept = Kept(100)
    for n in range(5):
        kept.put(bytes([n]) * 10, b"x" * 30)  # 40 bytes each: two fit
    assert [kept.get(bytes([n]) * 10) for n in range(5)] == [None] * 3 + [b"x" * 30] * 2
    kept.put(b"big", b"x" * 100)
    assert kept.get(b"big") is None


async def test_two_equal_drawings_at_once_are_drawn_once() -> None:
    renderer = Counting()
    offload = Offload(0, 0, draw_processes=0, renderer=renderer)
    view = turns_played("tora", 2).view_for(None)
    first, second = await asyncio.gather(
        offload.draw("board", view, STATUS, "en"), offload.draw("board", view, STATUS, "en")
    )
    assert renderer.drawn == 1 and first == second
    await offload.draw("board", view, STATUS, "en")  # once drawn, asked again: drawn again
    assert renderer.drawn == 2 and not offload._drawing
