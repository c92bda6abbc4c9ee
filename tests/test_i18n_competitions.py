"""The ladders and the tournaments in every language (issue 30): their texts hold Discord's
limits in the longest language, with the longest names; a public post (a ladder match's
thread and introduction, a tournament's announcement) is in the server's language, a
private notice in its player's, an answer in its caller's."""

from __future__ import annotations

import json

import pytest
from ladder_fixtures import GUILD, desk_of, runner_of

from bot.i18n import LOCALES, speaking
from bot.ladder import texts as ladder_texts
from bot.ladder.boards import BoardProfile, HeadToHead, Line, Page, Recent
from bot.ladder.desk import LadderRefused
from bot.ladder.queue import EXPIRE_AFTER, HOUR
from bot.service import Place, Settings, User
from bot.service.testing import Harness
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
    await desk.join_queue(HERE, ANN, "short")
    with speaking("fr"):
        reply = await desk.join_queue(HERE, BOB, "short")
    assert reply.text.startswith("Vous êtes apparié avec ann pour une partie classée"), reply.text
    [(thread, (channel, name))] = h.threads.opened.items()
    assert (channel, name) in ((HERE.channel_id, "ann gegen bob (Rangliste)"),
                               (HERE.channel_id, "bob gegen ann (Rangliste)"))  # fmt: skip
    await h.settle()
    intro = h.delivery.texts(thread)[0]
    assert intro.startswith("Eine gewertete Partie der Rangliste short-board, aus der"), intro


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
    assert refused.value.message == "Du wartest schon auf eine Partie der Rangliste short-board."
