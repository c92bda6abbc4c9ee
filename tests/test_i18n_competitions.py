"""The ladders and the tournaments in every language (issue 30): their texts hold Discord's
limits in the longest language, with the longest names; a public post (a ladder match's
thread and introduction, a tournament's announcement) is in the server's language, a
private notice in its player's, an answer in its caller's."""

from __future__ import annotations

import json

import event_helpers
import pytest
import tournament_helpers
from ladder_fixtures import GUILD, desk_of, runner_of

from bot.i18n import LOCALES, speaking
from bot.ladder import texts as ladder_texts
from bot.ladder.boards import BoardProfile, HeadToHead, Line, Page, Recent
from bot.ladder.desk import LadderRefused
from bot.ladder.queue import EXPIRE_AFTER, HOUR
from bot.service import Place, Settings, User
from bot.service.testing import Harness
from bot.tournament.desk import LONGEST_NAME as CUP_NAME
from bot.tournament.event_spec import LONGEST_NAME as EVENT_NAME
from bot.tournament.event_spec import EventSpec
from storage.competitions.ladders import LadderKey, Season

CONTENT = 2000  # Discord's longest message
THREAD_NAME = 100
LONG_NAME = "_*" * 16  # 32 characters, each escaped: the longest a name shows
HERE = Place(GUILD, 100)
ANN, BOB = User(1, "ann"), User(2, "bob")
SETTINGS = Settings()


def _line(rank: int) -> Line:
    return Line(rank, rank, LONG_NAME, 2999.5, 350.0, True, 9999, 9999, 9999, 9999, -99, -999.0)


def _recent(score: float) -> Recent:
    return Recent(10**9, 7, LONG_NAME, score, 1.8e9, True)


@pytest.mark.parametrize("code", LOCALES)
def test_the_ladders_texts_hold_discords_limits_in_every_language(code: str) -> None:
    """A full leaderboard page, a profile of three ladders with their ten recent results,
    a head-to-head record and the seasons' list, all with the longest names and numbers:
    each line within a message (an answer longer than one is cut at its line ends), and
    a leaderboard page, a head-to-head record and the queue's answers within one."""
    key = LadderKey(GUILD, "ai-short", 999)
    profile = BoardProfile("ai-short", 999, _line(1), 99999, [], [_recent(s) for s in [0.5] * 10])
    record = HeadToHead(key, 1, 2, 999, 999, 999, list(range(10**9, 10**9 + 10)))
    standings = json.dumps([{"name": LONG_NAME, "rating": 2999.0}] * 3)
    seasons = [Season(key, 1.8e9, 1.9e9, 1, standings, 1) for _ in range(20)]
    with speaking(code):
        page = Page(key, 999, 999, [_line(r) for r in range(1, 11)]).text()
        board = ladder_texts.board_profile(profile, SETTINGS)
        shown = [
            page,
            "\n".join(board * 3),  # a profile shows each ladder the player played
            ladder_texts.head_to_head(record, {1: LONG_NAME, 2: LONG_NAME}, SETTINGS),
            ladder_texts.seasons("ai-short", seasons, SETTINGS),
            ladder_texts.waiting("ai-short", 999, SETTINGS),
            ladder_texts.expired("ai-short", SETTINGS),
        ]
    for text in shown:
        assert max(len(line) for line in text.split("\n")) <= CONTENT, (code, text[:80])
    assert all(len(text) <= CONTENT for text in (shown[0], *shown[2:3], *shown[4:])), code


async def test_a_ladder_match_is_opened_in_the_servers_language_and_the_answer_in_the_callers(
    h: Harness,
) -> None:
    """A German server: the thread and the match's introduction are German; the French
    player who completed the pair reads their answer in French."""
    await h.running.records.choose_server_language(GUILD, "de")
    desk = desk_of(h)
    with speaking("de"):
        waiting = await desk.join_queue(HERE, ANN, "short")
    assert waiting.text.startswith("Du stehst in der Warteschlange"), waiting.text
    assert "`/tora-rangliste " in waiting.text  # the command as German Discord names it
    with speaking("fr"):
        reply = await desk.join_queue(HERE, BOB, "short")
    assert reply.text.startswith("Vous êtes apparié avec ann pour une partie classée"), reply.text
    [(thread, (channel, name))] = h.threads.opened.items()
    assert (channel, name) in ((HERE.channel_id, "ann gegen bob (Rangliste)"),
                               (HERE.channel_id, "bob gegen ann (Rangliste)"))  # fmt: skip
    await h.settle()
    intro = h.delivery.texts(thread)[0]
    assert intro.startswith("Eine gewertete Partie der Rangliste kurzes Brett, aus der"), intro


async def test_a_players_wait_ends_with_a_notice_in_their_own_language(h: Harness) -> None:
    await h.running.records.choose_server_language(GUILD, "de")
    await h.running.records.choose_player_language(ANN, "ja")
    await desk_of(h).join_queue(HERE, ANN, "short")
    h.clock.advance(EXPIRE_AFTER + HOUR)
    await runner_of(h).tick()
    [notice] = h.delivery.user(ANN.id)
    assert notice.message.text.startswith("24時間以内に、レーティングの近い人が"), (
        notice.message.text
    )


async def test_a_refusal_made_inside_a_transaction_is_in_the_callers_language(
    h: Harness,
) -> None:
    """The queue's refusals are made on the storage's writer thread, in the caller's
    language all the same."""
    desk = desk_of(h)
    await desk.join_queue(HERE, ANN, "short")
    with speaking("de"), pytest.raises(LadderRefused) as refused:
        await desk.join_queue(HERE, ANN, "short")
    assert refused.value.message == "Du wartest schon auf eine Partie der Rangliste kurzes Brett."


# ---- tournaments ---------------------------------------------------------------------------
def _long(n: int) -> User:
    """A player whose name is as long as a Discord name gets, every character escaped."""
    return User(n, f"{n:02d}" + "_*" * 15)


def _lines_fit(texts: list[str]) -> None:
    """Every line within one Discord message (delivery and answers cut longer texts at
    their line ends)."""
    for text in texts:
        assert text.strip(), texts
        assert max(len(line) for line in text.split("\n")) <= CONTENT, text[:120]


@pytest.mark.parametrize("code", LOCALES)
async def test_a_swiss_holds_discords_limits_in_every_language(h: Harness, code: str) -> None:
    """Sixteen players with the longest names in a Swiss with every option shown: the
    announcement, the answers, the round's post, each player's notice, the threads' names,
    the standings and the pairings, in a server and for players speaking ``code``."""
    await h.running.records.choose_server_language(event_helpers.GUILD, code)
    desk = await event_helpers.desk_of(h)
    players = [_long(n) for n in range(10, 26)]
    for player in players:
        await h.running.records.choose_player_language(player, code)
    name = "N" * EVENT_NAME
    with speaking(code):
        spec = EventSpec(
            name, "tora", "swiss", {}, rounds=9, round_seconds=7 * 86400.0,
            entry_seconds=86400.0, max_players=64, ai_fill="master", away_days=False, rated=True,
        )  # fmt: skip
        answers = [
            (await desk.create(event_helpers.HERE, event_helpers.ADMIN, spec, admin=True)).text
        ]
        for player in players:
            answers.append((await desk.join(event_helpers.HERE, player, name)).text)
        answers.append(
            (await desk.begin(event_helpers.HERE, event_helpers.ADMIN, name, admin=True)).text
        )
        answers.append((await desk.standings(event_helpers.HERE, name)).text)
        answers.append((await desk.pairings(event_helpers.HERE, name)).text)
        answers.append((await desk.leave(event_helpers.HERE, players[0], name)).text)
    await h.settle()
    posts = h.delivery.texts(event_helpers.HERE.channel_id)
    notices = [d.message.text for p in players for d in h.delivery.user(p.id)]
    _lines_fit(answers + posts + notices)
    assert all(len(text) <= CONTENT for text in answers[:-3] + notices)  # one paragraph each
    assert len(notices) >= 14
    assert all(len(thread) <= THREAD_NAME for _, thread in h.threads.opened.values())


@pytest.mark.parametrize("code", LOCALES)
async def test_a_chapter_10_tournament_holds_discords_limits_in_every_language(
    h: Harness, code: str
) -> None:
    await h.running.records.choose_server_language(tournament_helpers.HERE.guild_id, code)
    desk = await tournament_helpers.desk_for(h)
    name, here = "N" * CUP_NAME, tournament_helpers.HERE
    players = [_long(n) for n in range(10, 25)]  # fifteen players and a substitute
    with speaking(code):
        answers = [
            (await desk.create(here, tournament_helpers.ADMIN, name, "long", 240, admin=True)).text
        ]
        for player in players:
            answers.append((await desk.register(here, player, name)).text)
        answers.append((await desk.register(here, _long(99), name, substitute=True)).text)
        answers.append((await desk.begin(here, tournament_helpers.ADMIN, name, admin=True)).text)
        answers.append((await desk.standings(here, name)).text)
        answers.append((await desk.rank(here, players[0])).text)
        answers.append((await desk.tournaments(here)).text)
    await h.settle()
    posts = h.delivery.texts(here.channel_id)
    _lines_fit(answers + posts)
    assert all(len(text) <= CONTENT for text in answers + posts)
    assert all(len(thread) <= THREAD_NAME for _, thread in h.threads.opened.values())


async def test_an_events_announcement_and_rounds_are_in_the_servers_language(
    h: Harness,
) -> None:
    """A German server, a French organiser, a Japanese player: the announcement and the
    round's post are German, the organiser's answers French, the player's notice of their
    game Japanese."""
    here, admin = event_helpers.HERE, event_helpers.ADMIN
    await h.running.records.choose_server_language(event_helpers.GUILD, "de")
    await h.running.records.choose_player_language(event_helpers.user(1), "ja")
    desk = await event_helpers.desk_of(h)
    with speaking("fr"):
        spec = EventSpec("Open", "torishogi", "swiss", {}, rounds=3)
        created = await desk.create(here, admin, spec, admin=True)
        for n in (1, 2, 3, 4):
            await desk.join(here, event_helpers.user(n), "Open")
        began = await desk.begin(here, admin, "Open", admin=True)
    assert created.text.startswith(
        "**Open** (ToriShogi, Schweizer System) ist zur Anmeldung offen: 3 Runden, bis zu 64"
    ), created.text
    assert began.text.startswith("**Open** (ToriShogi, système suisse) a commencé avec 4 joueurs")
    await h.settle()
    [round_post] = [t for t in h.delivery.texts(here.channel_id) if "__Runde 1 von 3__" in t]
    assert round_post.startswith("**Open** (ToriShogi, Schweizer System): Jede Partie wird")
    japanese = "**Open**（ToriShogi スイス式） ラウンド1：<#"  # noqa: RUF001
    [notice] = [d.message.text for d in h.delivery.user(1) if d.message.text.startswith(japanese)]
    assert "と対局します" in notice, notice
    assert any(name.startswith("Open R1: p") for _, name in h.threads.opened.values())


async def test_a_chapter_10_tier_is_announced_in_the_servers_language(h: Harness) -> None:
    here, admin = tournament_helpers.HERE, tournament_helpers.ADMIN
    await h.running.records.choose_server_language(here.guild_id, "pt_BR")
    desk = await tournament_helpers.desk_for(h)
    with speaking("es"):
        created = await desk.create(here, admin, "Cup", "short", 60, admin=True)
        for n, name in ((1, "ann"), (2, "bob")):
            await desk.register(here, User(n, name), "Cup")
        began = await desk.begin(here, admin, "Cup", admin=True)
    assert created.text.startswith("El torneo **Cup** está abierto a inscripciones")
    assert began.text.startswith("**Cup** ha comenzado con 2 jugadores")
    await h.settle()
    posted = h.delivery.texts(here.channel_id)
    assert any(t.startswith("**Cup**, fase 1: ann x bob. Cada confronto") for t in posted), posted
    assert "A chave de **Cup**:" in posted
    threads = [name for _, name in h.threads.opened.values()]
    assert threads == ["Cup – fase 1: ann x bob"]  # noqa: RUF001


async def test_a_closed_dms_fallback_of_a_ladder_notice_is_in_the_players_language(
    h: Harness,
) -> None:
    """Regression: a ladder's private notice (made outside any match) went to the outbox
    with no language, so what the outbox adds to it (why it shows in the channel when the
    player's DMs are closed) was English around a Japanese notice."""
    await h.running.records.choose_player_language(ANN, "ja")
    await desk_of(h).join_queue(HERE, ANN, "short")
    h.delivery.closed_dms.add(ANN.id)
    h.clock.advance(EXPIRE_AFTER + HOUR)
    await runner_of(h).tick()
    await h.settle()
    said = [d.message for d in h.delivery.user(ANN.id)]
    said += [m for m in h.delivery.channel(HERE.channel_id) if ANN.id in m.mentions]
    assert said, h.delivery.log
    assert all(m.language == "ja" for m in said), [(m.language, m.text) for m in said]
