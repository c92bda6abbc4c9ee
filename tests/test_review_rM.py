"""Review rM: the pictures (render/, bot/app/pictures.py, board_memo.py, the drawing
workers). One failing test per bug found."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from PIL import Image

from bot.app import guide
from bot.app.pictures import PillowRenderer
from bot.i18n import speaking
from bot.service import Place, Status, Terms, User
from bot.service.testing import DigestRenderer, Harness
from storage import Config


async def test_the_quick_start_picture_is_drawn_in_the_readers_language() -> None:
    """/tora help in a Japanese (or German...) channel: the quick start's text is Japanese,
    but its coordinates picture's status strip still says "Round 1", "Challenger (...) to
    act", "3 of 3 actions left" in English (render.coordinates.coordinates_of takes no
    language, and is cached once per game). It should be drawn in the reader's language, as
    every other status strip is (docs/RENDER.md: every image's own words are converted)."""
    for game in ("tora", "torishogi", "torii"):
        with speaking("en"):
            english = await guide.quick_start(None, None, game)  # type: ignore[arg-type]
        with speaking("ja"):
            japanese = await guide.quick_start(None, None, game)  # type: ignore[arg-type]
        assert japanese.text != english.text  # the quick start's words are Japanese
        assert japanese.files[0].data != english.files[0].data, f"{game}: the English picture"


async def test_the_web_boards_paused_clock_is_worded_in_the_pictures_language(h) -> None:
    """A paused match of a Japanese server, on its web page: the board picture's strip is
    Japanese ("ann の手番"...) but its time reads "paused, 10 h left" in English, because
    the look words its standing time in English (bot/service/looking.py, _standing_time:
    speaking(SOURCE)) and the web board draws it as it is. On Discord the same board says
    "一時停止中・残り10時間" (Context.board_file words the deadline in the image's
    language); the web picture should too."""
    from test_service_takebacks import ANN, BOB, HERE, started

    from bot.app.boards import Boards

    await started(h)  # a ToriShogi match, ann against bob
    await h.running.records.choose_server_language(HERE.guild_id, "ja")
    await h.running.pause(HERE, ANN)
    await h.running.pause(HERE, BOB)
    await h.settle()
    boards = Boards(h.running)
    look = await h.running.look(1)
    language = await boards.language(look)
    assert language == "ja"
    info = Boards._drawn(look, None, False, language).paint.args[1]  # what the picture shows
    assert info.deadline, "the pause is shown"
    assert "paused" not in info.deadline, f"English on a Japanese picture: {info.deadline!r}"


HERE = Place(guild_id=1, channel_id=100)
LONGEST = "Bartholomew Montgomery-Whitfield"  # 32 characters: Discord's longest name
HOUR = 3600.0


def _strip(png: bytes, height: int) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.crop((0, 0, image.width, height)).tobytes()


class _Recording(DigestRenderer):
    """The harness's renderer, keeping what each public board is drawn from."""

    def __init__(self) -> None:
        self.boards: list[tuple[object, object]] = []

    def board(self, view, status, language="en"):  # type: ignore[no-untyped-def]
        self.boards.append((view, status))
        return super().board(view, status, language)


async def test_the_waiting_players_time_left_shows_on_the_board_whatever_their_name(
    tmp_path: Path,
) -> None:
    """A bank clock, the waiting player named with Discord's longest name: the turn post's
    board picture should show that player's time left ("... · Bartholomew ... 15 h"), as
    the README promises ("each player's time left is ... on the board picture"). The
    status's deadline carries the waiting player's whole name (bot/service/table.py,
    ``_deadline_text``), so the strip's sentence is cut with an ellipsis before the time:
    15 h left and 3 h left give the very same picture."""
    recording = _Recording()
    harness = Harness(Config(path=tmp_path / "db.sqlite"), renderer=recording)
    await harness.open()
    try:
        ann, bob = User(1, "ann"), User(2, LONGEST)
        terms = Terms(turn_seconds=10 * HOUR, game="torishogi", clock="bank", bank_seconds=5 * HOUR)
        await harness.running.challenge(HERE, ann, bob, terms)
        await harness.running.accept(HERE, bob)
        await harness.settle()
        for user, move in ((ann, "e4e5"), (bob, "d6e5")):
            await harness.running.play(HERE, user, move)
            await harness.running.end_turn(HERE, user)
            await harness.settle()
        view, status = recording.boards[-1]
    finally:
        await harness.close()
    deadline = status.deadline  # type: ignore[attr-defined]
    assert deadline.endswith(f"{LONGEST} 15 h"), deadline  # bob waits with 15 h left
    fewer = replace(status, deadline=deadline[: -len("15 h")] + "3 h")  # type: ignore[type-var]
    drawn = PillowRenderer(0)
    same = _strip(drawn.board(view, status), 62) == _strip(drawn.board(view, fewer), 62)
    assert not same, "15 h and 3 h left give the same board: the time left is cut off"


def test_a_provisional_rating_stays_marked_on_the_ladder_picture_whatever_the_name() -> None:
    """/tora-ladder show: a provisional rating is marked "?" (the text says "1500?" and "?
    provisional: too few recent games..."); the ladder picture puts the "?" after the name
    (bot/ladder/boards.py, ``Page.rows``: ``f"{line.name} ?"``) and then cuts the name to its
    column (render/ladder.py, ``_row``: ``fit``), so with a long name the "?" is cut off and
    the picture shows the provisional rating as a settled one. It should stay marked."""
    from bot.ladder.boards import Line, Page
    from storage.competitions.ladders import LadderKey

    def picture(provisional: bool) -> bytes:
        line = Line(1, 7, LONGEST, 1500.0, 300.0, provisional, 3, 2, 1, 0, streak=1, trend=12.0)
        return Page(LadderKey(1, "short", 1), 1, 1, [line]).drawing()()

    assert picture(True) != picture(False), "the provisional mark is cut off with the name"


async def test_a_plans_picture_shows_the_opponents_expected_actions_picked_so_far(h) -> None:
    """Plan a reply (the Plan button, /tora-match plan) in TORA: ann picks bob's expected
    turn action by action, but the panel's picture stays the board as it is now, the same
    bytes after every pick: the picked actions are never drawn (bot/service/drafting.py,
    _shown: ``game.view_for(side)`` of a position where bob is to act shows nothing of
    his staged actions), and the letters of a piece's next action point at a square where
    the picture shows no piece (it moved in the pick before). The picture should show the
    expected actions picked so far, as the Play panel's preview shows one's own."""
    from test_service_plans import ANN, HERE, tora_turns_to_plan

    theirs, _mine = await tora_turns_to_plan(h)
    assert len(theirs) >= 2
    before = (await h.running.draft_plan(HERE, ANN)).menu.picture
    picked = await h.running.draft_plan(HERE, ANN, pick=theirs[0])
    assert picked.theirs == (theirs[0],) and not picked.replying
    assert picked.menu.picture is not None and before is not None
    assert picked.menu.picture.data != before.data, f"{theirs[0]} picked, not drawn"


async def test_a_withdrawn_player_stays_marked_on_the_standings_picture_whatever_the_name(
    h: Harness,
) -> None:
    """/tora-tournament standings of a Swiss: a player who left is "(withdrawn)" only on the
    standings picture (its text leaves it to the image: tests/test_tournament_e2e.py). The
    mark is put after the name (bot/tournament/event_tables.py, ``standings_table.shown``)
    and the cell is then cut to the player column (render/event_table.py, ``_cells``:
    ``fit(cell, face, 182 px)``), so a long name loses it: the picture shows the withdrawn
    player as still playing. The mark should survive the cut."""
    from dataclasses import replace as changed

    from event_helpers import ADMIN, create, desk_of, snapshot, user
    from event_helpers import HERE as HERE_EVENTS

    from bot.tournament.event_tables import standings_table
    from render.event_table import event_table_png

    desk = await desk_of(h)
    await create(desk, "Spring", "torishogi", "swiss", rounds=3)
    leaver = User(4, LONGEST)
    for player in (user(1), user(2), user(3), leaver):
        await desk.join(HERE_EVENTS, player, "Spring")
    await desk.begin(HERE_EVENTS, ADMIN, "Spring", admin=True)
    await h.settle()
    await desk.leave(HERE_EVENTS, leaver, "Spring")
    await h.settle()
    snap = await snapshot(h, "Spring")
    assert h.store is not None
    names = await h.store.events.names(e.player_id for e in snap.entries)
    table = standings_table(snap, names)
    marked = [row for row in table.rows if LONGEST in row[1]]
    assert marked and "(withdrawn)" in marked[0][1]  # the table marks them
    bare = tuple((row[0], LONGEST, *row[2:]) if LONGEST in row[1] else row for row in table.rows)
    assert event_table_png(table) != event_table_png(changed(table, rows=bare)), (
        "the withdrawn player looks as if still playing: the mark is cut off with the name"
    )


async def test_an_aborted_matchs_final_board_does_not_read_as_a_running_turn(
    tmp_path: Path,
) -> None:
    """/tora-match abort (or an admin's cancel) of a running match: the end post says "bob
    (Opposition) aborted the match..." with "its final board", but that picture's strip
    still reads "bob (Opposition) to move · due in 10 h", as a running turn's board does:
    the game has no outcome, so the status keeps its deadline (bot/service/table.py,
    ``Table.status``: ``over`` is ``game.is_over()`` alone) and the strip says who is to
    move. The final board should say the match ended (no one to move, no deadline)."""
    recording = _Recording()
    harness = Harness(Config(path=tmp_path / "db.sqlite"), renderer=recording)
    await harness.open()
    try:
        ann, bob = User(1, "ann"), User(2, "bob")
        await harness.running.challenge(
            HERE, ann, bob, Terms(game="torishogi", turn_seconds=10 * HOUR)
        )
        await harness.running.accept(HERE, bob)
        await harness.settle()
        await harness.running.play(HERE, ann, "c3c4")
        await harness.running.end_turn(HERE, ann)
        await harness.settle()
        await harness.running.abort(HERE, bob)
        await harness.settle()
        assert "aborted the match" in harness.delivery.texts(HERE.channel_id)[-1]
        view, status = recording.boards[-1]  # the end post's final board
    finally:
        await harness.close()
    drawn = PillowRenderer(0)
    final = _strip(drawn.board(view, status), 62)  # type: ignore[arg-type]
    for deadline in ("due in 10 h", ""):
        running = Status("ann", "bob", deadline)  # the board of bob's running turn
        assert final != _strip(drawn.board(view, running), 62), (  # type: ignore[arg-type]
            f"the aborted match's final board reads as a running turn: {status}"
        )


async def test_the_board_now_is_not_kept_under_an_address_naming_another_picture(
    tmp_path: Path,
) -> None:
    """The web page's board picture is fetched at ``board.png?flip=0&v=<digest of what it is
    drawn from>`` and answered "public, max-age=60" (bot/web/public.py, ``_png``: NOW)
    without looking at ``v``: a page still holding the last state (or any late fetch) gets
    the new position under the old address, and caches keep it there for a minute. After a
    takeback the state names that old address again, and a reader is shown the move that
    was taken back. A picture at an address that does not name it should not be kept
    (no-store), as the replay's pictures already are (FINISHED_TURN only for the right
    ``v``)."""
    from web_world import ANN as WEB_ANN
    from web_world import BOB as WEB_BOB
    from web_world import HERE as WEB_HERE
    from web_world import World

    async with World(tmp_path / "web.sqlite3") as w:
        match = await w.playing(Terms(game="torishogi", turn_seconds=36000, rated=False))
        assert w.client is not None
        start_url = (await w.get(f"/api/m/{match}"))[1]["board"]["url"]
        async with w.client.get(start_url) as answer:
            start_picture = await answer.read()
        await w.service.play(WEB_HERE, WEB_ANN, "c3c4")
        await w.service.end_turn(WEB_HERE, WEB_ANN)
        async with w.client.get(start_url) as answer:  # a page a moment behind
            late_picture, caching = await answer.read(), answer.headers["Cache-Control"]
        await w.service.takeback(WEB_HERE, WEB_ANN)
        await w.service.takeback(WEB_HERE, WEB_BOB)
        again_url = (await w.get(f"/api/m/{match}"))[1]["board"]["url"]
    assert again_url == start_url  # the takeback's state names the start's address again
    assert late_picture != start_picture  # ...where c3c4's picture was answered
    assert "no-store" in caching, f"c3c4's picture kept under the start's address: {caching}"


async def test_the_match_pages_picture_during_a_long_board_setup_is_the_long_board(h) -> None:
    """A TORA match on the long board (17 x 17), both players choosing their setup: the
    public match page (/m/<match>) shows a short 9 x 9 board with both armies in the
    quick start's formation and "Challenger to act · 3 of 3 actions left" under it (the
    quick start's coordinates picture: bot/app/boards.py, ``Boards._drawn``, whose key
    names the game alone, ("start", False, "tora")), though the match is on the long board
    and nobody is to act. It should show the match's own board (its size, its terrain),
    and not a made-up position."""
    from bot.app.boards import Boards
    from render.tora.layout import layout_for

    ann, bob = User(1, "ann"), User(2, "bob")
    terms = Terms(options={"board": "long"}, turn_seconds=10 * HOUR)
    await h.running.challenge(HERE, ann, bob, terms)
    await h.running.accept(HERE, bob)
    await h.settle()
    look = await h.running.look(1)  # a spectator's
    assert look.hosted.phase == "setup"
    png = Boards._drawn(look, None, False, "en").paint()
    width, _height = Image.open(io.BytesIO(png)).size
    assert width == layout_for(17).width, f"a {width} px wide picture: the short board's"


def test_a_series_next_games_first_board_carries_no_marks_of_the_game_before() -> None:
    """A TORA series to a point target: the Opposition's General falls, round 1 ends, game 2
    begins on a fresh board (R28) and the turn post shows it. That fresh board still
    carries game 1's last turn: a numbered badge and a blue arrow starting on ann's own
    Archer at v5h7 (bob's Archer moved v5h7-v6h7 in game 1; v6h7 is empty now) and a red
    cross with a struck General on the empty v5h4, as if they happened on this board
    (rules/tora/view.py, ``build_view``: ``last = game.turns[-1]`` whatever its game;
    render draws it). A new game's board should show no last turn (so too after an agreed
    reset on the long board)."""
    from test_rules_outcomes import general_falls

    from render import StatusInfo, board_of

    game = general_falls(target=20)
    view = game.view_for(None)
    assert view.game_number == 2 and view.round == 1  # a fresh board
    info = StatusInfo("ann", "bob", "due in 5 h")
    fresh = replace(view, last_turn=(), last_turn_side=None, round_end=())
    assert board_of(view, info) == board_of(fresh, info), (
        f"game 1's marks on game 2's board: {view.last_turn} {view.round_end}"
    )
