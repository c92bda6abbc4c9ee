"""The web board in its readers' languages: a player's page (their private link says who
they are) in their own, its refusals too; a match page in its server's; the browser's
Accept-Language where nobody is known; the page words for each language; and the pages'
security headers the same in every language."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_web_live import ANN_STARTS, ANN_WALKS, seen_by_bob_and_anyone, twin
from web_world import ANN, BOB, HERE, World

from bot.app.page_words import page_text
from bot.i18n import slash, speaking
from bot.service import Place, Terms
from bot.web.guard import CSP, accepted_language
from bot.web.labels import LABELS, table
from bot.web.site import STATIC, build_of
from rules import Side

C, O = Side.CHALLENGER, Side.OPPOSITION
BLOCK = rb'<script type="application/json" id="words">.*?</script>\n'
WORDS = re.compile(rb'<script type="application/json" id="words">(.*?)</script>', re.DOTALL)
POLICY = (  # as it was before the pages spoke languages: no language needs more of it
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "languages.sqlite3") as world:
        yield world


async def shell(w: World, path: str, language: str | None = None) -> tuple[str, dict[str, Any]]:
    """A page's ``<html lang>`` and its page words, asked for with ``Accept-Language``."""
    lang, words, _page = await shell_page(w, path, language)
    return lang, words


async def shell_page(
    w: World, path: str, language: str | None = None
) -> tuple[str, dict[str, Any], bytes]:
    """``shell`` and the page itself."""
    assert w.client is not None
    headers = {} if language is None else {"Accept-Language": language}
    async with w.client.get(path, headers=headers) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Security-Policy"] == POLICY == CSP
        page = await answer.read()
    found = re.search(rb'<html lang="([^"]+)">', page)
    words = WORDS.search(page)
    assert found is not None and words is not None
    return found.group(1).decode(), json.loads(words.group(1)), page


async def refusal(w: World, token: str, body: Any, verb: str = "act") -> str:
    status, answer, headers = await w.post(verb, token, body)
    assert status >= 400 and headers["Content-Security-Policy"] == POLICY
    return str(answer["error"])


async def test_a_german_players_page_is_in_german(w: World) -> None:
    await w.service.records.choose_player_language(ANN, "de")
    match = await w.playing(Terms(game="torishogi"))
    ann, bob = await w.token(match, C), await w.token(match, O)
    mine = await w.me(match, C)
    assert mine["language"] == "de" and (await w.me(match, O))["language"] == "en"
    await w.service.records.choose_player_language(ANN, "en")
    english = await w.me(match, C)
    assert english["language"] == "en"
    for field in ("prompt", "summary"):
        assert mine[field] and english[field] and mine[field] != english[field], field
    ours, theirs = mine["choices"][0], english["choices"][0]
    assert (ours["description"], theirs["description"]) == ("1 Zug", "1 move")
    assert ours["actions"][0]["label"] != theirs["actions"][0]["label"]
    assert ours["actions"][0]["path"] != theirs["actions"][0]["path"]
    await w.service.records.choose_player_language(ANN, "de")
    status, words = await w.get("/api/words/de")
    assert status == 200 and words["language"] == "de"
    assert words["words"]["undo"] == "Rückgängig" and words["words"]["end"] == "Zug beenden"
    assert words["plurals"]["now-after"] == {
        "one": "Jetzt, nach {n} Zug",
        "other": "Jetzt, nach {n} Zügen",
    }
    assert await refusal(w, ann, {"notation": "c3c4"}) == (
        "'stamp' ist eine ganze Zahl mit höchstens 6 Ziffern."
    )
    assert await refusal(w, bob, {"notation": "c3c4"}) == (
        "'stamp' is a whole number of at most 6 digits."
    )


async def test_a_japanese_players_refusals_and_answers_are_in_japanese(w: World) -> None:
    await w.service.records.choose_player_language(BOB, "ja")
    match = await w.playing(Terms(game="torishogi"))
    bob = await w.token(match, O)
    assert (await w.me(match, O))["language"] == "ja"
    assert await refusal(w, bob, {"notation": "c3c4"}) == "'stamp' は 6 桁以内の整数です。"
    assert await refusal(w, bob, {"stamp": 1, "pick": "x", "step": "new"}, verb="plan") == (
        "pick、step、group、cancel のうち送れるのは一つまでです。"
    )
    status, words = await w.get("/api/words/ja")
    assert status == 200 and words["words"]["undo"] == "取り消し"
    assert set(words["plurals"]["now-after"]) == {"other"}


async def test_a_players_refusals_of_what_no_page_sends_are_in_their_language(w: World) -> None:
    """Regression: the refusals of what no page sends (an empty notation, an answer to no
    proposal, no setup answers or too long ones: ``seats.check``) were English f-strings,
    whatever the player's language."""
    await w.service.records.choose_player_language(BOB, "de")
    match = await w.playing(Terms(game="torishogi"))
    bob = await w.token(match, O)
    long = "x" * 41
    bodies = {
        "act": {"stamp": 1, "notation": ""},
        "answer": {"stamp": 1, "kind": "tea", "yes": True},
        "setup": {"stamp": 1, "answers": {}},
    }
    said = [await refusal(w, bob, body, verb) for verb, body in bodies.items()]
    said.append(await refusal(w, bob, {"stamp": 1, "answers": {"ruler": long}}, "setup"))
    english = ("An action's", "An answer is", "A setup sends", "A setup answer")
    assert not [text for text in said if text.startswith(english)], said
    assert said[2] == "Eine Aufstellung sendet 1 bis 8 Antworten."


async def test_a_match_page_is_in_its_servers_language_a_player_page_shell_in_the_browsers(
    w: World,
) -> None:
    await w.service.records.choose_server_language(HERE.guild_id, "fr")
    match = await w.playing()
    lang, words, page = await shell_page(w, f"/m/{match}", "de-DE,de;q=0.9")
    assert lang == "fr" and words["words"]["moves"] == "Coups"
    assert b'<h2 id="moves-title" data-w="moves">Coups</h2>' in page
    assert "<title>Partie · tora-bot</title>".encode() in page
    assert 'aria-label="Tour précédent" data-w-label="back"'.encode() in page
    status, state = await w.get(f"/api/m/{match}")
    assert status == 200 and state["language"] == "fr"
    lang, words = await shell(w, "/play", "pt-BR,pt;q=0.8,en;q=0.5")
    assert lang == "pt-BR" and words["words"]["flip"] == "Girar"
    lang, words, page = await shell_page(w, "/play")
    assert lang == "en" and words == table("en")
    # the English shell is the file as written, but for its words block and the build in
    # its files' addresses
    built = f'="/static/{build_of(STATIC)}/'.encode()
    written = re.sub(BLOCK, b"", page).replace(built, b'="/static/')
    assert written == (STATIC / "play.html").read_bytes()
    assert words["words"]["undo"] == "Undo" and words["words"]["end"] == "End turn"
    status, none = await w.get("/api/words/xx")
    assert status == 404 and none["error"] == "There is no such language."


async def test_a_browser_opening_the_boards_address_gets_a_front_page_in_its_language(
    w: World,
) -> None:
    """Regression: ``/`` (the address the start-up log names) and any address mistyped in a
    browser answered a JSON 404; now the front page says what this is and where a match's
    address comes from, and a browser's 404 is a page, in the browser's language. The API
    and the pages' scripts still read JSON."""
    lang, words, page = await shell_page(w, "/", "fr-FR,fr;q=0.9")
    assert lang == "fr" and "« Page de la partie »".encode() in page
    assert f"<title>{words['words']['title-home']}</title>".encode() in page
    assert b"<script" not in page.replace(b'<script type="application/json"', b"")
    assert w.client is not None
    browser = {"Accept": "text/html,*/*;q=0.8", "Accept-Language": "de"}
    async with w.client.get("/m/1/nope", headers=browser) as answer:
        assert answer.status == 404 and answer.content_type == "text/html"
        assert answer.headers["Content-Security-Policy"] == POLICY
        assert b"Unter dieser Adresse gibt es nichts." in await answer.read()
    for path, headers in (("/api/nope", browser), ("/m/1/nope", {"Accept": "*/*"})):
        async with w.client.get(path, headers=headers) as answer:
            assert answer.status == 404 and answer.content_type == "application/json", path


async def test_a_match_address_mistyped_in_a_browser_is_answered_with_a_page(w: World) -> None:
    """Regression: a match's address cut short or mistyped (``/m/12x``) answered a browser
    with bare JSON, where one that names no match shows the match page saying so; it is now
    the page of an address with nothing, in the browser's language. The API keeps JSON."""
    assert w.client is not None
    browser = {"Accept": "text/html,*/*;q=0.8", "Accept-Language": "es"}
    for path in ("/m/12x", "/static/nope.js"):
        async with w.client.get(path, headers=browser) as answer:
            assert answer.status == 404 and answer.content_type == "text/html", path
            assert "No hay nada en esta dirección.".encode() in await answer.read()
    status, refused = await w.get("/api/m/12x")
    assert status == 404 and refused == {"error": "There is no such match."}


async def test_refusals_before_anyone_is_known_are_in_the_browsers_language(w: World) -> None:
    assert w.client is not None
    async with w.client.get("/api/me", headers={"Accept-Language": "es"}) as answer:
        assert answer.status == 401
        assert (await answer.json())["error"].startswith("Esta página necesita tu enlace privado")
    async with w.client.get("/api/m/0", headers={"Accept-Language": "ja"}) as answer:
        assert answer.status == 404 and (await answer.json())["error"] == "その対局はありません。"
    async with w.client.get("/api/me") as answer:
        assert (await answer.json())["error"].startswith("This page needs your private link")


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("de", "de"),
        ("en-GB,de;q=0.9", "en"),
        ("xx, ja;q=0.2", "ja"),
        ("de;q=0.5, fr;q=0.8", "fr"),
        ("pt", "pt_BR"),
        ("es-419", "es"),
        ("*", "en"),
        ("de;q=nope, ja;q=0", "en"),
        ("x" * 5000, "en"),
    ],
)
def test_the_browsers_language_is_its_most_wanted_shipped_one(
    header: str | None, language: str
) -> None:
    assert accepted_language(header) == language


def test_every_language_has_every_page_word() -> None:
    english = table("en")
    for code in ("de", "fr", "es", "ja", "pt_BR"):
        words = table(code)
        assert set(words["words"]) == set(english["words"]) >= set(LABELS)
        assert "other" in words["plurals"]["now-after"]
        changed = [key for key, text in words["words"].items() if text != english["words"][key]]
        assert len(changed) > len(LABELS) * 0.8, code


async def test_twin_worlds_look_the_same_in_every_language_to_all_but_the_owner(
    tmp_path: Path,
) -> None:
    async with World(tmp_path / "a.sqlite3") as a, World(tmp_path / "b.sqlite3") as b:
        worlds = (a, b)
        for world in worlds:
            await world.service.records.choose_server_language(HERE.guild_id, "fr")
            await world.service.records.choose_player_language(ANN, "de")
            await world.service.records.choose_player_language(BOB, "ja")
        matches = [await twin(world, at) for world, at in zip(worlds, ANN_STARTS, strict=True)]
        seen = [
            await seen_by_bob_and_anyone(w, m, []) for w, m in zip(worlds, matches, strict=True)
        ]
        assert seen[0] == seen[1]
        assert json.loads(seen[0][0][2])["language"] == "fr"  # the public state
        assert json.loads(seen[0][3][2])["language"] == "ja"  # bob's own
        for world, match, start in zip(worlds, matches, ANN_STARTS, strict=True):
            token = await world.token(match, C)
            said = await world.post("act", token, {"stamp": 1, "notation": ANN_WALKS[start]})
            assert said[0] == 200 and said[1]["language"] == "de"
        seen = [
            await seen_by_bob_and_anyone(w, m, []) for w, m in zip(worlds, matches, strict=True)
        ]
        assert seen[0] == seen[1]


@pytest.mark.parametrize(
    ("code", "control"),
    [
        ("en", "“End turn”"),
        ("de", "„Zug beenden“"),
        ("ja", "「手番終了」"),
        ("fr", "« Terminer le tour »"),
    ],
)
def test_a_reply_names_the_pages_controls_in_its_language(code: str, control: str) -> None:
    with speaking(code):
        reply = f"**{slash('tora end')}**. {slash('tora settings')}."
        assert page_text(reply) == f"{control}."
        if code == "ja":
            assert page_text("一つ目です。二つ目です。") == "一つ目です。二つ目です。"


async def test_a_public_picture_in_the_readers_language_tells_caches_it_varies(w: World) -> None:
    """A match in a direct message has no server, so its public pictures are in the reader's
    language (``Accept-Language``); they were cacheable by anyone without saying so, and a
    shared cache could give one reader's picture to all. Each says it varies by it."""
    match = await w.playing(place=Place(guild_id=0, channel_id=300))
    token = await w.token(match, C)
    await w.post("act", token, {"stamp": 1, "notation": await w.first_action(match, C)})
    await w.post("end", token, {"stamp": 1})
    assert w.client is not None
    for path in (f"/api/m/{match}/board.png", f"/api/m/{match}/board.png?turn=1"):
        pictures = []
        for language in ("de", "ja"):
            async with w.client.get(path, headers={"Accept-Language": language}) as answer:
                assert answer.status == 200
                assert "Accept-Language" in answer.headers.get("Vary", ""), path
                pictures.append(await answer.read())
        assert pictures[0] != pictures[1], path


async def test_the_board_pictures_paused_clock_is_worded_in_the_pictures_language(
    w: World,
) -> None:
    """A paused match of a Japanese server, on its web page: the picture's strip is Japanese,
    and so is its pause's time left ("paused, 10 h left" was in English), as on Discord."""
    from bot.app.boards import Boards

    match = await w.playing(Terms(game="torishogi", turn_seconds=36000))
    await w.service.records.choose_server_language(HERE.guild_id, "ja")
    await w.service.pause(HERE, ANN)
    await w.service.pause(HERE, BOB)
    look = await w.service.look(match)
    assert "paused" in look.status.deadline  # the look's, in English
    language = await Boards(w.service).language(look)
    assert language == "ja"
    info = Boards._drawn(look, None, False, language).paint.args[1]  # what the picture shows
    assert info.deadline and "paused" not in info.deadline, info.deadline
