"""The web board's API through aiohttp's test client: every route with good and bad input,
the private links (forged, replaced, of a finished match), stale stamps, bodies too large or
malformed, rate limits, and that an action on the web is an action like any other (the
channel's turn post, the opponent's notice)."""

from __future__ import annotations

import base64
import logging
import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web_world import ANN, BOB, HERE, World

from bot.app.boards import Boards
from bot.app.links import NOT_VALID, REPLACED
from bot.service import PROPOSAL_KINDS, Terms
from bot.service.texts import listing
from bot.web import Limits, WebBoard
from bot.web.guard import CSP, Allowance
from bot.web.site import STATIC, build_of
from render.drawings import drawing_of
from rules import Side
from rules.torii import SPIRITS

C, O = Side.CHALLENGER, Side.OPPOSITION
NO_RECORD = "There is no record of that match"


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "web.sqlite3") as world:
        yield world


def forged(token: str) -> str:
    """The same match, side and generation, signed with another key."""
    text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    head = text.rsplit(":", 1)[0]
    fake = base64.urlsafe_b64encode(b"x" * 32).decode().rstrip("=")
    return base64.urlsafe_b64encode(f"{head}:{fake}".encode()).decode().rstrip("=")


# ---- public routes ----------------------------------------------------------------------------
async def test_the_public_state_shows_the_match_to_anyone(w: World) -> None:
    match = await w.playing()
    status, state = await w.get(f"/api/m/{match}")
    assert status == 200
    assert state["match"] == match and state["game"] == "tora" and state["phase"] == "playing"
    assert [p["name"] for p in state["players"]] == ["ann", "bob"]
    assert [p["to_act"] for p in state["players"]] == [True, False]
    assert state["turn"] == 1 and state["moves"] == [] and state["result"] is None
    assert state["board"]["url"].startswith(f"/api/m/{match}/board.png?")
    assert len(state["board"]["cells"]) == 81  # the short board's squares
    assert "choices" not in state and "staged" not in state


async def test_every_answer_carries_the_security_headers(w: World) -> None:
    match = await w.playing()
    assert w.client is not None
    for path in (f"/m/{match}", f"/api/m/{match}", "/play", "/api/m/999", "/nowhere"):
        async with w.client.get(path) as answer:
            assert answer.headers["Content-Security-Policy"] == CSP, path
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
    async with w.client.get(f"/api/m/{match}") as answer:
        assert answer.headers["Cache-Control"] == "no-store"


async def test_no_answer_names_the_servers_software_and_its_versions(w: World) -> None:
    """Every answer said ``Server: Python/3.11 aiohttp/3.14.5``: which known flaws of which
    versions to try, to anyone who asked. It names the bot alone."""
    match = await w.playing()
    assert w.client is not None
    for path in (f"/m/{match}", f"/api/m/{match}", "/nowhere", f"/api/m/{match}/events"):
        async with w.client.get(path) as answer:
            assert answer.headers["Server"] == "tora-bot", path


@pytest.mark.parametrize("path", ["/api/m/999", "/api/m/0", "/api/m/abc", "/api/m/1" + "0" * 30])
async def test_an_unknown_match_is_refused_with_404(w: World, path: str) -> None:
    status, body = await w.get(path)
    assert status == 404 and body == {"error": "There is no such match."}


async def test_the_board_picture_now_and_after_each_turn(w: World) -> None:
    match = await w.playing()
    token, notation = await w.token(match, C), await w.first_action(match, C)
    await w.post("act", token, {"stamp": 1, "notation": notation})
    await w.post("end", token, {"stamp": 1})
    status, png = await w.get(f"/api/m/{match}/board.png")
    assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    start = await w.get(f"/api/m/{match}/board.png?turn=0")
    after = await w.get(f"/api/m/{match}/board.png?turn=1")
    assert start[0] == after[0] == 200 and start[1] != after[1]
    assert (await w.get(f"/api/m/{match}/board.png?turn=2"))[0] == 404
    assert (await w.get(f"/api/m/{match}/board.png?turn=-1"))[0] == 400
    assert (await w.get(f"/api/m/{match}/board.png?flip=2"))[0] == 400
    _status, state = await w.get(f"/api/m/{match}")
    assert [m["turn"] for m in state["moves"]] == [1] and state["moves"][0]["words"]


async def test_after_a_takeback_the_match_page_shows_the_turn_as_played_again(w: World) -> None:
    """A takeback brings the turn number back, so a move list or a replay picture kept by
    the turn alone showed the move taken back. The move list names the move played again,
    and a finished turn's replay picture is cached for good only under the address of the
    record it was drawn from (the state's ``replay``), so no browser keeps the old one."""
    match = await w.playing(Terms(game="torishogi", turn_seconds=36000, rated=False))
    assert w.client is not None
    service = w.service

    async def replay(version: str) -> tuple[bytes, str]:
        path = f"/api/m/{match}/board.png?turn=1&flip=0&v={version}"
        async with w.client.get(path) as answer:  # type: ignore[union-attr]
            assert answer.status == 200
            return await answer.read(), answer.headers["Cache-Control"]

    await service.play(HERE, ANN, "c3c4")
    await service.end_turn(HERE, ANN)
    before = (await w.get(f"/api/m/{match}"))[1]
    assert [m["notation"] for m in before["moves"]] == ["c3c4"]
    old_picture, caching = await replay(before["replay"])
    assert "immutable" in caching
    await service.takeback(HERE, ANN)
    await service.takeback(HERE, BOB)
    await service.play(HERE, ANN, "g3g4")
    await service.end_turn(HERE, ANN)
    after = (await w.get(f"/api/m/{match}"))[1]
    assert [m["notation"] for m in after["moves"]] == ["g3g4"]
    assert after["replay"] != before["replay"]
    new_picture, caching = await replay(after["replay"])
    assert new_picture != old_picture and "immutable" in caching
    assert (await replay(before["replay"]))[1] == "no-store"  # an old address: not kept


@pytest.mark.parametrize("game", ["tora", "torishogi"])
async def test_a_finished_match_page_lists_the_last_move_and_the_resignation(
    w: World, game: str
) -> None:
    """ann moves, bob resigns on his turn. The web page of the finished match lists ann's
    move as turn 1 and bob's resignation as turn 2 (as Torii's page does). TORA's listed
    turn 1 as "no action" and no resignation; ToriShogi's listed no resignation."""
    match = await w.playing(Terms(game=game, turn_seconds=36000, rated=False))
    action = await w.first_action(match, Side.CHALLENGER)
    await w.service.play(HERE, ANN, action)
    await w.service.end_turn(HERE, ANN)
    await w.service.resign(HERE, BOB)
    _status, state = await w.get(f"/api/m/{match}")
    moves = state["moves"]
    assert [m["notation"] for m in moves if m["turn"] == 1] == [action]
    assert [m["turn"] for m in moves][-1] == 2
    assert "resign" in moves[-1]["words"]


@pytest.mark.parametrize("game", ["torishogi", "torii"])
async def test_a_match_called_off_names_nobody_to_move(w: World, game: str) -> None:
    """ann plays a turn, then calls the match off (/tora-match abort): its page shows the
    result "aborted, without a result" and a summary naming nobody to move (it said "bob to
    move" of a match that was over), as a resigned match's names its winner; so does the
    channel's post of the end."""
    reply = await w.service.challenge(HERE, ANN, BOB, Terms(game=game, rated=False))
    assert reply.stamp is not None
    match = reply.stamp.match
    await w.service.accept(HERE, BOB)
    if game == "torii":  # a Spirit each
        for user, spirit in zip((ANN, BOB), SPIRITS, strict=False):
            await w.service.setup(HERE, user, {"spirit": spirit})
    await w.service.play(HERE, ANN, await w.first_action(match, C))
    await w.service.end_turn(HERE, ANN)
    playing = (await w.get(f"/api/m/{match}"))[1]["summary"]
    assert "bob to " in playing  # "to move", "to play"
    await w.service.abort(HERE, ANN)
    _status, state = await w.get(f"/api/m/{match}")
    assert state["phase"] == "ended" and state["result"]
    final = playing.rpartition(" · " if game == "torii" else "; ")[0] + "."
    assert state["summary"] == final
    await w.quiet()
    assert f"\n{final} It counts for nothing" in w.h.delivery.channel(HERE.channel_id)[-1].text


async def test_a_match_called_off_in_its_setup_is_not_drawn_as_before_the_game(w: World) -> None:
    """ann and bob's TORA match is aborted during the setup: its page says "aborted, without
    a result", but the board picture beside it was headed "Before the game", as if the game
    were still to come. It says the match ended before its game began."""
    reply = await w.service.challenge(HERE, ANN, BOB, Terms())
    assert reply.stamp is not None
    match = reply.stamp.match
    await w.service.accept(HERE, BOB)
    await w.service.abort(HERE, ANN)
    state = (await w.get(f"/api/m/{match}"))[1]
    assert state["phase"] == "ended" and state["result"] == "aborted, without a result"
    look = await w.service.look(match)
    info = Boards._drawn(look, None, False, "en").paint.args[1]  # what the picture shows
    assert info.headline == "The match ended before its game began", info


async def test_the_record_downloads_as_text(w: World) -> None:
    match = await w.playing()
    assert w.client is not None
    async with w.client.get(f"/api/m/{match}/record") as answer:
        assert answer.status == 200
        assert "attachment" in answer.headers["Content-Disposition"]
        assert "Challenger" in await answer.text()
    assert (await w.get("/api/m/77/record"))[0] == 404


async def test_the_record_of_a_match_whose_game_never_began_says_so(w: World) -> None:
    """A TORA match called off during its setup has a page (its link shown on the players'
    setup pages becomes it), but no record: the download says its game never began, not
    that there is no such match, and so does the record of a setup under way."""
    reply = await w.service.challenge(HERE, ANN, BOB, Terms())
    assert reply.stamp is not None
    match = reply.stamp.match
    await w.service.accept(HERE, BOB)
    status, body = await w.get(f"/api/m/{match}/record")
    assert (status, body["error"]) == (404, f"{NO_RECORD}: its game has not begun.")
    await w.service.abort(HERE, ANN)
    assert (await w.get(f"/api/m/{match}"))[1]["phase"] == "ended"
    status, body = await w.get(f"/api/m/{match}/record")
    assert (status, body["error"]) == (404, f"{NO_RECORD}: its game never began.")


async def test_the_pages_and_their_files_are_served_and_nothing_else(w: World) -> None:
    match = await w.playing()
    for path in (f"/m/{match}", "/play"):
        status, body = await w.get(path)
        assert status == 200 and b"<script" in body and b"<script>" not in body
    assert (await w.get("/static/board.css"))[0] == 200
    for path in ("/static/..%2Fserver.py", "/static/server.py", "/static/nothing.js"):
        assert (await w.get(path))[0] == 404, path


async def test_the_pages_name_their_files_by_build_and_those_are_kept_for_good(
    w: World, tmp_path: Path
) -> None:
    """The shells named their files by a fixed address kept 5 minutes, so right after an
    upgrade a browser could mix the new shell with the old modules it kept. They name them
    by the build now (a digest of the files: any file changed changes every address), the
    scripts import each other by relative addresses (which carry the build too), and a
    file at its build's address is kept for good; at an older build's it is kept nowhere."""
    match = await w.playing()
    build = build_of(STATIC)
    for page in (f"/m/{match}", "/play"):
        body = (await w.get(page))[1]
        files = re.findall(rb'(?:src|href)="(/static/[^"]*)"', body)
        assert files and all(f.startswith(f"/static/{build}/".encode()) for f in files), files
    assert w.client is not None
    for path, caching in (
        (f"/static/{build}/board.js", "public, max-age=31536000, immutable"),
        ("/static/0123456789abcdef/board.js", "no-store"),  # a page of an older build
        ("/static/board.js", "public, max-age=300"),
    ):
        async with w.client.get(path) as answer:
            assert (answer.status, answer.headers["Cache-Control"]) == (200, caching), path
    assert (await w.get(f"/static/{build}/nothing.js"))[0] == 404
    for script in STATIC.glob("*.js"):
        assert '"/static/' not in script.read_text(), script.name  # imports are relative
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    assert build_of(copy) == build
    (copy / "board.css").write_text((copy / "board.css").read_text() + "\n")
    assert build_of.__wrapped__(copy) != build


# ---- private links ----------------------------------------------------------------------------
async def test_a_player_state_holds_their_choices_with_the_squares_they_touch(w: World) -> None:
    match = await w.playing()
    mine = await w.me(match, C)
    assert mine["side"] == "challenger" and mine["staged"] == [] and mine["setup"] is None
    action = mine["choices"][0]["actions"][0]
    assert action["spot"] and action["touches"][0]["role"] in ("from", "to", "hit", "via")
    theirs = await w.me(match, O)
    assert theirs["choices"] == []  # not their turn


@pytest.mark.parametrize(
    "header",
    ["", "Bearer", "Bearer not a token", "Basic abc", "Bearer " + "a" * 300, "Bearer abc"],
)
async def test_a_missing_or_malformed_token_is_refused_with_401(w: World, header: str) -> None:
    await w.playing()
    assert w.client is not None
    async with w.client.get("/api/me", headers={"Authorization": header}) as answer:
        assert answer.status == 401
        assert (await answer.json())["error"]


async def test_a_forged_token_is_refused(w: World) -> None:
    match = await w.playing()
    status, body = await w.get("/api/me", forged(await w.token(match, C)))
    assert status == 401 and body["error"] == NOT_VALID


async def test_a_replaced_link_is_refused_and_the_new_one_works(w: World) -> None:
    match = await w.playing()
    old = await w.token(match, C)
    new = await w.links.renew(match, C)
    status, body = await w.get("/api/me", old)
    assert status == 401 and body["error"] == REPLACED
    assert (await w.get("/api/me", new))[0] == 200
    status, _body, _headers = await w.post("undo", old, {"stamp": 1})
    assert status == 401


async def test_a_finished_match_refuses_its_links_and_keeps_its_page(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    status, state, _ = await w.post("resign", token, {"stamp": 1})
    assert status == 200 and state["phase"] == "ended" and "said" in state
    status, body = await w.get("/api/me", token)
    assert status == 401 and body["ended"] is True and f"/m/{match}" in body["error"]
    status, public = await w.get(f"/api/m/{match}")
    assert status == 200 and public["result"] == "bob wins (resignation)"


# ---- actions ----------------------------------------------------------------------------------
async def test_an_action_on_the_web_is_an_action_like_any_other(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    notation = await w.first_action(match, C)
    status, state, _ = await w.post("act", token, {"stamp": 1, "notation": notation})
    assert status == 200 and state["staged"] and state["said"].startswith("Staged")
    status, state, _ = await w.post("end", token, {"stamp": 1})
    assert status == 200 and state["turn"] == 2 and state["said"] == "Your turn is over."
    await w.quiet()
    posts = w.h.delivery.texts(HERE.channel_id)
    assert any("ann (Challenger) ended their turn" in text for text in posts)
    assert any("Your turn against" in d.message.text for d in w.h.delivery.user(BOB.id))
    assert (await w.me(match, O))["choices"]


async def test_a_stale_stamp_is_refused_and_changes_nothing(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    notation = await w.first_action(match, C)
    status, body, _ = await w.post("act", token, {"stamp": 7, "notation": notation})
    assert status == 409 and body["stale"] is True and "turn has already ended" in body["error"]
    assert (await w.me(match, C))["staged"] == []


async def test_acting_out_of_turn_is_refused_by_name(w: World) -> None:
    match = await w.playing()
    status, body, _ = await w.post("undo", await w.token(match, O), {"stamp": 1})
    assert status == 409 and body["error"].startswith("It is ann's turn")


async def test_an_illegal_action_is_refused_in_the_rules_words(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    status, body, _ = await w.post("act", token, {"stamp": 1, "notation": "S v1h1-v9h9"})
    assert status == 409 and body["error"] and "stale" not in body
    assert (await w.me(match, C))["staged"] == []


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"not json", 400),
        (b"[1, 2]", 400),
        (b'{"stamp": "one"}', 400),
        (b'{"stamp": 1.5}', 400),
        (b'{"stamp": 10000000}', 400),
        (b'{"stamp": 1}', 400),  # act without notation
        (b'{"stamp": 1, "notation": "' + b"a" * 201 + b'"}', 400),
        (b"[" * 2000 + b"]" * 2000, 400),
        (b'{"stamp": 1, "notation": "' + b"a" * 5000 + b'"}', 413),
        (b"\xff\xfe", 400),
    ],
)
async def test_malformed_and_oversized_bodies_are_refused(
    w: World, raw: bytes, status: int
) -> None:
    match = await w.playing()
    got, body, _ = await w.post("act", await w.token(match, C), None, raw=raw)
    assert got == status and body["error"]
    assert (await w.me(match, C))["staged"] == []


async def test_an_unknown_action_is_404_and_answers_need_a_proposal_kind(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    assert (await w.post("fly", token, {"stamp": 1}))[0] == 404
    status, body, _ = await w.post("answer", token, {"stamp": 1, "kind": "fly", "yes": True})
    assert status == 400 and "proposal" in body["error"]


async def test_proposals_are_made_and_answered_on_the_web(w: World) -> None:
    match = await w.playing()
    ann, bob = await w.token(match, C), await w.token(match, O)
    status, state, _ = await w.post("pause", ann, {"stamp": 1})
    assert status == 200 and state["proposals"] == [
        {"kind": "pause", "by": "challenger", "mine": True}
    ]
    status, state, _ = await w.post("answer", bob, {"stamp": 1, "kind": "pause", "yes": True})
    assert status == 200 and state["paused"] is True
    status, state, _ = await w.post("resume", ann, {"stamp": 1})
    assert status == 200 and state["paused"] is False


async def test_every_proposal_the_service_takes_is_answered_on_the_web(w: World) -> None:
    match = await w.playing()
    ann, bob = await w.token(match, C), await w.token(match, O)
    for kind in PROPOSAL_KINDS:  # none open: refused by the service, not by the page's check
        status, body, _ = await w.post("answer", bob, {"stamp": 1, "kind": kind, "yes": True})
        assert status == 409 and "no longer open" in body["error"], kind
    status, body, _ = await w.post("answer", bob, {"stamp": 1, "kind": "resume", "yes": True})
    # a resume is not answered: either player resumes
    assert status == 400 and "draw, reset, pause or rewind" in body["error"]
    await w.post("draw", ann, {"stamp": 1})
    status, state, _ = await w.post("answer", bob, {"stamp": 1, "kind": "draw", "yes": False})
    assert status == 200 and state["proposals"] == []
    assert state["said"] == "You declined ann's draw offer: the game goes on."


async def test_declining_one_proposal_leaves_the_others_standing(w: World) -> None:
    """A Decline beside the opponent's draw offer declined every proposal, the player's own
    pause too, and a Decline of a proposal no longer standing declined whatever stood then.
    It declines the proposal it names alone, and is refused when that one has gone."""
    match = await w.playing()
    ann, bob = await w.token(match, C), await w.token(match, O)
    assert (await w.post("pause", ann, {"stamp": 1}))[0] == 200
    assert (await w.post("draw", bob, {"stamp": 1}))[0] == 200
    no = {"stamp": 1, "kind": "draw", "yes": False}
    status, state, _ = await w.post("answer", ann, no)
    assert status == 200 and state["said"] == "You declined bob's draw offer: the game goes on."
    assert state["proposals"] == [{"kind": "pause", "by": "challenger", "mine": True}]
    # bob's draw offer is not made again this turn (declined): ann's own stands instead
    assert (await w.post("draw", ann, {"stamp": 1}))[0] == 200
    stale = {"stamp": 1, "kind": "reset", "yes": False}  # a Decline of no standing proposal
    status, body, _ = await w.post("answer", ann, stale)
    assert status == 409 and "reset proposal is no longer open" in body["error"]
    assert {p["kind"] for p in (await w.me(match, C))["proposals"]} == {"pause", "draw"}


async def test_the_setup_is_chosen_on_the_web(w: World) -> None:
    service = w.service
    reply = await service.challenge(HERE, ANN, BOB, Terms())
    await service.accept(HERE, BOB)
    match = reply.stamp.match
    mine = await w.me(match, C)
    assert mine["phase"] == "setup" and mine["setup"]["fields"][0]["name"] == "strategy"
    token = await w.token(match, C)
    status, state, _ = await w.post(
        "setup", token, {"stamp": 0, "answers": {"strategy": "defensive"}}
    )
    assert status == 200 and state["setup"]["done"] is True
    status, _body, _ = await w.post("setup", token, {"stamp": 0, "answers": ["defensive"]})
    assert status == 400


async def test_during_the_setup_nobody_is_to_act_and_each_is_shown_choosing_or_done(
    w: World,
) -> None:
    service = w.service
    long = Terms(options={"board": "long", "assassins": True})
    reply = await service.challenge(HERE, ANN, BOB, long)
    await service.accept(HERE, BOB)
    match = reply.stamp.match
    ann = await w.token(match, C)
    drawing = drawing_of("tora")
    last = {"ruler": "Q", "assassin": "none"}
    for answers, done in (({"strategy": "defensive"}, False), (last, True)):
        mine = await w.me(match, C)
        look = await service.look(match, C)
        wanted = replace(look.status, headline=setup_headline(mine))
        png = (await w.get(mine["board"]["url"], ann))[1]
        # the setup said in the picture, not "ann (Challenger) to act · 3 of 3 actions left"
        assert png == drawing.own(look.setup.preview, wanted, None)
        assert png != drawing.own(look.setup.preview, look.status, None)
        assert (await w.post("setup", ann, {"stamp": 0, "answers": answers}))[0] == 200
        public = (await w.get(f"/api/m/{match}"))[1]
        setup = ["done" if done else "choosing", "choosing"]
        assert [(p["to_act"], p["setup"]) for p in public["players"]] == [(False, s) for s in setup]
    assert setup_headline(await w.me(match, C)) == "Setup · done; waiting for bob"
    await service.setup(HERE, BOB, {"strategy": "aggressive"} | last)
    public = (await w.get(f"/api/m/{match}"))[1]
    assert [(p["to_act"], p["setup"]) for p in public["players"]] == [(True, None), (False, None)]


def setup_headline(mine: dict[str, Any]) -> str:
    """What a player's setup picture says in place of who is to act."""
    if mine["setup"]["done"]:
        return "Setup · done; waiting for bob"
    left = [f["name"].capitalize() for f in mine["setup"]["fields"] if not f["chosen"]]
    return "Setup · still to choose: " + listing(left)


async def test_a_setup_that_asks_no_square_shows_no_made_up_answer_of_the_opponent(
    w: World,
) -> None:
    service = w.service
    reply = await service.challenge(HERE, ANN, BOB, Terms(game="torii"))
    await service.accept(HERE, BOB)
    match = reply.stamp.match
    token = await w.token(match, C)
    status, state, _ = await w.post("setup", token, {"stamp": 0, "answers": {"spirit": "Boar"}})
    assert status == 200 and "not the other side" in state["setup"]["text"]
    mine = await w.client.get(state["board"]["url"], headers={"Authorization": f"Bearer {token}"})
    public = await w.client.get(f"/api/m/{match}/board.png")
    # the start anyone sees before the game: no Spirit drawn as bob's (nor ann's own)
    assert await mine.read() == await public.read()


# ---- rate limits ------------------------------------------------------------------------------
async def test_actions_beyond_the_allowance_are_refused_with_retry_after(tmp_path: Path) -> None:
    limits = Limits(actions=Allowance(2, 60.0))
    async with World(tmp_path / "limits.sqlite3", limits=limits) as w:
        match = await w.playing()
        token = await w.token(match, C)
        for _ in range(2):
            assert (await w.post("undo", token, {"stamp": 1}))[0] == 409  # nothing to undo
        status, body, headers = await w.post("undo", token, {"stamp": 1})
        assert status == 429 and int(headers["Retry-After"]) >= 1 and "wait" in body["error"]


async def test_reads_beyond_the_allowance_are_refused(tmp_path: Path) -> None:
    limits = Limits(reads=Allowance(3, 60.0))
    async with World(tmp_path / "reads.sqlite3", limits=limits) as w:
        match = await w.playing()
        statuses = [(await w.get(f"/api/m/{match}"))[0] for _ in range(4)]
        assert statuses == [200, 200, 200, 429]


async def test_a_picked_pieces_warnings_are_asked_for_apart(w: World) -> None:
    match = await w.playing()
    mine = await w.me(match, C)
    assert all(a["warning"] == "" for g in mine["choices"] for a in g["actions"])
    token = await w.token(match, C)
    group = mine["choices"][0]["key"]
    status, found = await w.get(f"/api/me/warnings?group={group}", token)
    assert status == 200 and found["group"] == group and isinstance(found["warnings"], dict)
    assert (await w.get("/api/me/warnings?group=", token))[0] == 400
    status, body = await w.get(f"/api/me/warnings?group={group}", await w.token(match, O))
    assert status == 409 and body["error"].startswith("It is ann's turn")


async def test_a_challenge_not_yet_accepted_has_a_page_with_the_games_start(w: World) -> None:
    reply = await w.service.challenge(HERE, ANN, BOB, Terms(game="torishogi"))
    match = reply.stamp.match
    status, state = await w.get(f"/api/m/{match}")
    assert status == 200 and state["phase"] == "challenge" and state["moves"] == []
    assert state["board"]["turned"] is None and state["summary"] == ""
    assert (await w.get(f"/api/m/{match}/board.png"))[0] == 200
    assert (await w.get(f"/api/m/{match}/record"))[0] == 404


async def test_a_served_board_logs_no_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The real server (``start``: its own port and access log), and the log it keeps."""
    async with World(tmp_path / "served.sqlite3") as w:
        match = await w.playing()
        token = await w.token(match, C)
        board = WebBoard(w.service, w.links, "127.0.0.1", 0)
        await board.start()
        try:
            caplog.set_level(logging.DEBUG)
            async with aiohttp.ClientSession() as session:
                auth = {"Authorization": f"Bearer {token}", "Referer": f"/play#{token}"}
                for path in ("/play", "/api/me", f"/api/m/{match}"):
                    async with session.get(board.url + path, headers=auth) as answer:
                        assert answer.status == 200
        finally:
            await board.stop()
        lines = [record.getMessage() for record in caplog.records]
        assert any(line.startswith("GET /api/me 200") for line in lines)
        assert not any(token in line for line in lines)


async def test_the_own_board_points_out_a_picked_pieces_actions(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    group = (await w.me(match, C))["choices"][0]["key"]
    status, plain = await w.get("/api/me/board.png", token)
    assert status == 200 and plain[:4] == b"\x89PNG"
    status, picked = await w.get(f"/api/me/board.png?pick={group}", token)
    assert status == 200 and picked != plain
    assert (await w.get("/api/me/board.png?pick=nothing", token))[1] == plain
    assert (await w.get("/api/me/board.png?flip=x", token))[0] == 400
    assert (await w.get("/api/me/board.png?pick=" + "a" * 21, token))[0] == 400
    assert (await w.get("/api/me/board.png"))[0] == 401


async def test_a_board_drawn_from_the_other_side_where_the_game_can(w: World) -> None:
    match = await w.playing(Terms(game="torishogi"))
    _status, state = await w.get(f"/api/m/{match}")
    turned = state["board"]["turned"]
    assert turned is not None and turned["cells"] != state["board"]["cells"]
    assert "flip=1" in turned["url"]
    front = (await w.get(f"/api/m/{match}/board.png"))[1]
    back = (await w.get(f"/api/m/{match}/board.png?flip=1"))[1]
    assert front != back and back[:4] == b"\x89PNG"


async def test_the_board_now_is_kept_only_under_the_address_naming_it(w: World) -> None:
    """The board now is fetched at the address the state names (``v``: a digest of what it
    is drawn from); a page a moment behind asks the old address after a turn, and a
    takeback names that address again: the newer picture answered there is kept nowhere,
    or a reader would be shown the move taken back."""
    match = await w.playing(Terms(game="torishogi", turn_seconds=36000, rated=False))
    assert w.client is not None
    start_url = (await w.get(f"/api/m/{match}"))[1]["board"]["url"]
    async with w.client.get(start_url) as answer:
        start_picture, caching = await answer.read(), answer.headers["Cache-Control"]
    assert "max-age" in caching  # at its own address
    await w.service.play(HERE, ANN, "c3c4")
    await w.service.end_turn(HERE, ANN)
    async with w.client.get(start_url) as answer:  # a page a moment behind
        late_picture, caching = await answer.read(), answer.headers["Cache-Control"]
    await w.service.takeback(HERE, ANN)
    await w.service.takeback(HERE, BOB)
    assert (await w.get(f"/api/m/{match}"))[1]["board"]["url"] == start_url
    assert late_picture != start_picture
    assert caching == "no-store"


async def test_the_match_pages_picture_during_a_long_board_setup_is_the_long_board(
    w: World,
) -> None:
    """A TORA match on the long board, both players choosing their setup: the public page
    showed the quick start's picture (a short board, both armies in a made-up formation,
    "Challenger to act · 3 of 3 actions left"). It shows the match's own board, no army on
    it, and nobody to act."""
    import io

    from PIL import Image

    from render.tora.layout import layout_for

    reply = await w.service.challenge(HERE, ANN, BOB, Terms(options={"board": "long"}))
    await w.service.accept(HERE, BOB)
    assert reply.stamp is not None
    state = (await w.get(f"/api/m/{reply.stamp.match}"))[1]
    assert state["phase"] == "setup"
    async with w.client.get(state["board"]["url"]) as answer:  # type: ignore[union-attr]
        picture = Image.open(io.BytesIO(await answer.read()))
    assert picture.width == layout_for(17).width
    assert state["board"]["width"] == picture.width


@pytest.mark.parametrize("rated", [False, True])
async def test_a_takeback_is_asked_on_the_web_and_offered_only_where_it_is_taken(
    w: World, rated: bool
) -> None:
    """A player's state lists the proposals they may make (``proposable``): the takeback
    only in a casual match, once their turn has ended by End turn and until the opponent
    ends theirs; the page's ``rewind`` asks it."""
    match = await w.playing(Terms(rated=rated))
    ann = await w.token(match, C)
    assert "rewind" not in (await w.me(match, C))["proposable"]
    notation = await w.first_action(match, C)
    assert (await w.post("act", ann, {"stamp": 1, "notation": notation}))[0] == 200
    status, state, _ = await w.post("end", ann, {"stamp": 1})
    assert status == 200
    assert ("rewind" in state["proposable"]) is not rated
    assert "rewind" not in (await w.me(match, O))["proposable"]  # bob ended no turn
    status, state, _ = await w.post("rewind", ann, {"stamp": 2})
    if rated:
        assert status == 409 and "rated" in state["error"]
        return
    assert status == 200 and "rewind" not in state["proposable"]
    assert state["proposals"] == [{"kind": "rewind", "by": "challenger", "mine": True}]
