"""Review rM: the pictures (render/, bot/app/pictures.py, board_memo.py, the drawing
workers). One failing test per bug found."""

from __future__ import annotations

from bot.app import guide
from bot.i18n import speaking


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
