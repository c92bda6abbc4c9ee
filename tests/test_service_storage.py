"""The match service's storage: migration 3 on a database of schema 2, hosted
matches with versions and one per channel, private setup choices, the outbox written in the
same transaction as the change it announces, and matches closed without a result; the
service's phases kept as text, the ended one the schema's."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from storage_workload import GUILD, new_match

from bot.service import phases
from rules.tora import Game, Options, Side
from storage import (
    Away,
    ChannelBusy,
    Config,
    Hosted,
    HostedNotFound,
    MatchClosed,
    NewMatch,
    Post,
    SetupChoice,
    StaleHosted,
    StaleMatch,
    Store,
    UnknownPlayer,
)
from storage.backends.migrations import LATEST, migrate
from storage.hosting import hosted as hosted_rows
from storage.matches.games import spec_of
from storage.matches.log import ACT, END, Step, fingerprint, play

C, O = Side.CHALLENGER, Side.OPPOSITION


@pytest.fixture
async def store(db: Config):
    async with await Store.open(db) as s:
        for user_id, name in ((1, "ann"), (2, "bob")):
            await s.save_player(user_id, name)
        yield s


def challenge(channel: int = 100) -> Hosted:
    return Hosted(0, GUILD, channel, 1, 2, "{}", phases.CHALLENGE, due_at=50.0)


def test_a_hosted_match_ends_in_the_phase_the_schema_leaves_out_of_the_live_ones() -> None:
    assert phases.ENDED == hosted_rows.ENDED


async def test_a_clock_is_claimed_by_one_process_and_taken_over_when_the_claim_runs_out(
    store: Store,
) -> None:
    async with await Store.open(store.config) as other:  # a second process
        hosted = await store.hosting.create(challenge())  # due at 50
        assert await store.hosting.claim_due(50.0, 30) == [hosted]
        assert await other.hosting.claim_due(51.0, 30) == []  # held: fired once
        assert await other.hosting.claim_due(80.0, 30) == [hosted]  # the first died
        await store.hosting.let_go(hosted.id)  # too late: not its claim any more
        assert await store.hosting.claim_due(81.0, 30) == []
        await other.hosting.let_go(hosted.id, until=200.0)  # failed: retried at 200
        assert await store.hosting.claim_due(199.0, 30) == []
        assert await store.hosting.claim_due(200.0, 30) == [hosted]


async def test_a_lease_is_held_by_one_process_until_it_runs_out(store: Store) -> None:
    async with await Store.open(store.config) as other:  # a second process
        mine, theirs = store.sharing, other.sharing
        assert await mine.claim("ladder", 0.0, 30) and await mine.claim("ladder", 10.0, 30)
        assert not await theirs.claim("ladder", 39.0, 30)  # renewed at 10: held until 40
        assert await theirs.claim("ladder", 40.0, 30)  # the first died: taken over
        await mine.release("ladder")  # too late: not its lease any more
        assert not await mine.claim("ladder", 41.0, 30)
        await theirs.release("ladder")
        assert await mine.claim("ladder", 41.0, 30)
        assert await theirs.claim("tick", 41.0, 30)
    assert await store.sharing.claim("tick", 42.0, 30)  # given back as the other closed


async def test_a_delivered_row_goes_with_its_lease_renewed_or_given_back(store: Store) -> None:
    await store.hosting.create(challenge(), [Post(100, "first"), Post(100, "second")])
    first, second = await store.hosting.private_queue()
    async with await Store.open(store.config) as other:  # a second process
        assert await store.sharing.claim("outbox:channel:100", 0.0, 30)
        await store.hosting.delivered(first.id, "outbox:channel:100", (20.0, 30))
        assert [row.id for row in await store.hosting.private_queue()] == [second.id]
        assert not await other.sharing.claim("outbox:channel:100", 49.0, 30)  # renewed at 20
        await store.hosting.delivered(second.id, "outbox:channel:100")  # the last: given back
        assert await store.hosting.private_queue() == []
        assert await other.sharing.claim("outbox:channel:100", 21.0, 30)


async def test_an_interaction_is_taken_by_one_process(store: Store) -> None:
    async with await Store.open(store.config) as other:
        assert await store.sharing.first_seen(77, 0.0)
        assert not await other.sharing.first_seen(77, 0.0)
        assert not await store.sharing.first_seen(77, 5.0)
        assert await other.sharing.first_seen(78, 5.0)


async def test_a_database_of_schema_2_migrates_forward(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, upto=2) == [1, 2]
    from rules.tora import Game

    game = Game(Options(board="short"))
    entries = [play(game, Step(ACT, game.notation(game.legal_actions()[0])))[0]]
    entries.append(play(game, Step(END))[0])
    conn.execute("BEGIN")
    conn.execute("INSERT INTO players VALUES (1, 'ann', 0), (2, 'bob', 0)")
    conn.execute(
        "INSERT INTO matches (id, guild_id, challenger_id, opposition_id, options, status,"
        " side_to_act, round, version, last_seq, turn_deadline, created_at, updated_at) VALUES"
        " (1, 1, 1, 2, '{\"board\": \"short\"}', 'active', 'O', 1, 2, 2, 10, 0, 0)"
    )
    for seq, entry in enumerate(entries, start=1):
        conn.execute(
            "INSERT INTO actions (match_id, seq, turn, side, kind, arg, public, hidden, at)"
            " VALUES (1, ?, ?, ?, ?, ?, ?, 0, 0)",
            (seq, entry.turn, entry.side.letter, entry.kind, entry.arg, entry.public),
        )
    conn.execute("COMMIT")
    conn.close()
    async with await Store.open(Config(path=path)) as store:
        match = await store.load(1)
        assert fingerprint(match.game) == fingerprint(game)
        assert [info.id for info in await store.active_matches()] == [1]
        assert [info.id for info in await store.due_matches(now=20)] == [1]
        hosted = await store.hosting.create(challenge())
        hosted = await store.save_hosted(match, hosted, [Post(100, "on with the game")])
        assert [row.post.text for row in await store.hosting.private_queue()] == [
            "on with the game"
        ]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    conn.close()


async def test_hosted_matches_have_versions_and_one_live_per_channel(store: Store) -> None:
    hosted = await store.hosting.create(challenge(), [Post(100, "a challenge")])
    assert hosted.id == 1 and hosted.version == 1
    with pytest.raises(ChannelBusy):
        await store.hosting.create(challenge())
    moved = await store.hosting.update(hosted.__class__(**{**hosted.__dict__, "due_at": 60.0}))
    assert moved.version == 2
    with pytest.raises(StaleHosted, match="read at version 1, now at version 2"):
        await store.hosting.update(hosted, [Post(100, "never")])
    assert [row.post.text for row in await store.hosting.private_queue()] == ["a challenge"]
    assert await store.hosting.live_in_channel(100) == moved
    assert await store.hosting.next_due(0.0) == 60.0
    assert await store.hosting.claim_due(59.0, 30) == []
    assert await store.hosting.claim_due(60.0, 30) == [moved]
    assert await store.hosting.next_due(60.0) == 90.0  # held until its claim runs out
    await store.hosting.let_go(moved.id)
    ended = await store.hosting.update(moved.__class__(**{**moved.__dict__, "phase": "ended"}))
    assert await store.hosting.live() == [] and ended.version == 3
    await store.hosting.create(challenge())  # the channel is free again


async def test_a_players_live_matches_are_read_however_many_ended_since(store: Store) -> None:
    """Regression: a player's matches were their newest 50 hosted ones, live or ended, so a
    match still played with 50 challenges declined or matches ended since was left out
    (``/tora games`` did not list it, nor did ``/tora board`` in a DM find it). Every live
    one is read, and the newest ``limit`` ended ones, the newest first."""
    live = await store.hosting.create(challenge(100))
    for n in range(60):
        made = await store.hosting.create(challenge(1000 + n))
        await store.hosting.update(replace(made, phase=phases.ENDED))
    mine = await store.hosting.of_user(2, 50)
    assert [h.id for h in mine] == [*range(61, 11, -1), live.id]
    assert [h.id for h in await store.hosting.of_user(1, 0)] == [live.id]


@pytest.mark.parametrize(
    "statement, values",
    [(hosted_rows.USERS_LIVE, ("ended",)), (hosted_rows.USERS_ENDED, ("ended", 50))],
)
async def test_a_players_matches_are_found_without_reading_every_match_ever_hosted(
    tmp_path: Path, statement: str, values: tuple[object, ...]
) -> None:
    """``/tora games``, the Activity and a DM's ``/tora board`` read a player's matches:
    each read scanned the whole history of hosted matches, a cost that grew with every match
    the bot ever hosted. The columns naming a player have their own indexes (migration 20)."""
    path = tmp_path / "tora.db"
    async with await Store.open(Config(path=path)):
        pass
    conn = sqlite3.connect(path)
    plan = conn.execute(f"EXPLAIN QUERY PLAN {statement}", (2, 2, 2, 2, *values))
    steps = [row[3] for row in plan.fetchall()]
    conn.close()
    assert not [step for step in steps if step.startswith("SCAN hosted_matches")], steps
    assert sum("USING INDEX hosted_by_" in step for step in steps) == 4, steps


async def test_a_hosted_match_with_a_player_the_store_does_not_know_is_refused(
    store: Store,
) -> None:
    with pytest.raises(UnknownPlayer, match="player 7 is not registered"):
        await store.hosting.create(replace(challenge(), invitee_id=7))
    hosted = await store.hosting.create(challenge())
    accepted = replace(hosted, challenger_id=2, opposition_id=1)
    with pytest.raises(UnknownPlayer, match="player 8 is not registered"):
        await store.hosting.update(replace(accepted, issuer_id=8, invitee_id=9))
    assert (await store.hosting.update(accepted)).version == hosted.version + 1


async def test_setup_choices_are_private_and_go_when_the_game_starts(store: Store) -> None:
    hosted = await store.hosting.create(challenge())
    chosen = SetupChoice.of({"strategy": "aggressive", "ruler": "Q", "assassin": "v3h17"})
    hosted = await store.hosting.update(hosted, choice=(C, chosen))
    assert await store.hosting.private_setup_choice(hosted.id, C) == chosen
    assert await store.hosting.private_setup_choice(hosted.id, O) is None
    options = Options(board="long", assassins=True, rulers=("Q", "K"))
    spec = spec_of(Game(options, assassin_starts=("v3h17", None)))
    new = NewMatch(GUILD, 100, 1, 2, spec, deadline=99.0)
    hosted, match = await store.hosting.start(hosted, new, [Post(100, "the game begins")])
    assert hosted.match_id == match.id and match.deadline == 99.0
    assert await store.hosting.private_setup_choice(hosted.id, C) is None
    assert (await store.private_secrets(match.id, C))["assassin"] == "v3h17"
    everything_public = repr(
        [await store.hosting.live(), await store.public_log(match.id), await store.active_matches()]
    )
    assert "v3h17" not in everything_public


async def test_the_outbox_is_written_with_the_match_or_not_at_all(store: Store) -> None:
    match = await new_match(store)
    hosted = await store.hosting.create(challenge())
    stale = await store.load(match.id)
    match.act(match.game.notation(match.game.legal_actions()[0]))
    image = ("board.png", b"\x89PNG...")
    hosted = await store.save_hosted(match, hosted, [Post(100, "staged", 1, (2,), (image,))])
    queued = await store.hosting.private_queue()
    assert [(q.post.text, q.post.user_id, q.post.mentions) for q in queued] == [("staged", 1, (2,))]
    assert await store.hosting.private_files(queued[0].id) == (image,)
    stale.act(stale.game.notation(stale.game.legal_actions()[1]))
    with pytest.raises(StaleMatch):
        await store.save_hosted(stale, hosted, [Post(100, "lost")])
    behind = hosted.__class__(**{**hosted.__dict__, "version": 1})
    match.act(match.game.notation(match.game.legal_actions()[0]))
    with pytest.raises(StaleHosted):
        await store.save_hosted(match, behind, [Post(100, "lost too")])
    assert len(await store.hosting.private_queue()) == 1
    assert (await store.load(match.id)).seq == 1  # neither failed save wrote an action
    await store.hosting.delivered(queued[0].id)
    assert await store.hosting.private_queue() == []
    await store.hosting.create(challenge(101), [Post(101, "next")])
    assert (await store.hosting.private_queue())[0].id == queued[0].id + 1  # ids never reused


async def test_a_closed_match_is_no_longer_active_and_takes_no_more(store: Store) -> None:
    match = await new_match(store)
    match.deadline = 10.0
    hosted = await store.hosting.create(challenge())
    await store.save_hosted(match, hosted, close="aborted")
    assert await store.active_matches() == [] and await store.due_matches(now=1e12) == []
    assert await store.finished_matches(GUILD) == []
    match.act(match.game.notation(match.game.legal_actions()[0]))
    with pytest.raises(MatchClosed, match="was aborted; nothing more"):
        await store.save(match)


async def test_names_and_settings_are_read_together(store: Store) -> None:
    """What a message's heading and its player's notifications need, one read each."""
    assert await store.names([2, 1, 2, 99]) == {1: "ann", 2: "bob"}
    assert await store.names([]) == {}
    await store.set_player_setting(1, "notify_dm_turn", "off")
    await store.set_guild_setting(GUILD, "notify_dm_turn", "on")
    await store.set_guild_setting(GUILD + 1, "notify_mention", "off")
    mine, server = await store.settings_in(1, GUILD)
    assert (mine, server) == ({"notify_dm_turn": "off"}, {"notify_dm_turn": "on"})
    assert await store.settings_in(1, None) == ({"notify_dm_turn": "off"}, {})
    assert await store.settings_in(2, GUILD) == ({}, {"notify_dm_turn": "on"})


async def test_a_turn_s_start_reads_the_planner_s_plans_the_aways_and_the_settings_at_once(
    store: Store,
) -> None:
    """What a turn's beginning needs, in one read: only the planner's own plans (PRIVATE),
    the times away that end after then, each player's earliest first, and the notified
    player's settings with their server's."""
    hosted = await store.hosting.create(challenge())
    await store.hosting.put_plans(hosted.id, O, ["bob's first", "bob's second"])
    await store.hosting.put_plans(hosted.id, C, ["ann's"])
    await store.add_away(Away(GUILD, 1, 500.0, 600.0))
    await store.add_away(Away(GUILD, 1, 100.0, 200.0, automatic=True))
    await store.add_away(Away(GUILD, 2, 50.0, 150.0))
    await store.add_away(Away(GUILD, 2, 10.0, 90.0))  # over by then
    await store.add_away(Away(GUILD + 1, 1, 100.0, 900.0))  # in another server
    await store.set_player_setting(2, "notify_dm_turn", "off")
    await store.set_guild_setting(GUILD, "notify_mention", "on")

    start = await store.hosting.private_turn_start(
        hosted.id, GUILD, planner=O, away=[1, 2], since=95.0, notified=2
    )
    assert start.since == 95.0
    assert start.plans == ["bob's first", "bob's second"]
    assert start.aways == [
        Away(GUILD, 1, 100.0, 200.0, automatic=True),
        Away(GUILD, 1, 500.0, 600.0),
        Away(GUILD, 2, 50.0, 150.0),
    ]
    assert (start.own, start.guild) == ({"notify_dm_turn": "off"}, {"notify_mention": "on"})

    mine = await store.hosting.private_turn_start(
        hosted.id, GUILD, planner=C, away=[], since=95.0, notified=None
    )
    assert (mine.plans, mine.aways, mine.own, mine.guild) == (["ann's"], [], {}, {})
    await store.set_player_setting(1, "notify_mention", "off")
    in_dms = await store.hosting.private_turn_start(
        hosted.id, None, planner=None, away=[1], since=95.0, notified=1
    )  # a DM channel's match: no server to be away from, the player's own settings read
    assert (in_dms.plans, in_dms.aways, in_dms.guild) == ([], [], {})
    assert in_dms.own == {"notify_mention": "off"}


async def test_a_post_s_files_are_queued_with_it_in_order(store: Store) -> None:
    hosted = await store.hosting.create(challenge())
    pictures = (("board.png", b"\x89PNG one"), ("record.tora", b"\x00\xffrecord"))
    await store.hosting.update(
        replace(hosted, due_at=60.0),
        [Post(100, "with files", files=pictures), Post(100, "without", user_id=2)],
    )
    rows = await store.hosting.private_queue()
    assert [(row.post.text, row.post.user_id) for row in rows] == [
        ("with files", None),
        ("without", 2),
    ]
    assert await store.hosting.private_files(rows[0].id) == pictures
    assert await store.hosting.private_files(rows[1].id) == ()


async def test_the_deliverer_reads_each_destination_s_first_row_and_rows_with_their_files(
    store: Store,
) -> None:
    """What the deliverer reads (issue 26: fewer reads a row): the oldest row of each
    destination, and a destination's next rows with their own files, in order, none of
    another destination's."""
    one, two = await store.hosting.create(challenge()), await store.hosting.create(challenge(101))
    board, record = ("board.png", b"\x89PNG one"), ("record.tora", b"\x00\xffrecord")
    await store.hosting.update(
        replace(one, due_at=60.0),
        [
            Post(100, "post 1", files=(board, record)),
            Post(100, "to ann", user_id=1, files=(board,)),
            Post(100, "post 2"),
            Post(100, "to ann again", user_id=1),
        ],
    )
    await store.hosting.update(replace(two, due_at=60.0), [Post(101, "elsewhere")])
    firsts = await store.hosting.private_firsts()
    assert [(row.post.text, row.destination) for row in firsts] == [
        ("post 1", ("channel", 100)),
        ("to ann", ("user", 1)),
        ("elsewhere", ("channel", 101)),
    ]
    assert all(row.post.files == () for row in firsts)  # the images stay in the database
    assert [row.waiting for row in firsts] == [2, 2, 1]  # the rows behind them are counted
    channel = await store.hosting.private_outgoing(("channel", 100), 16)
    assert [(row.post.text, row.post.files) for row in channel] == [
        ("post 1", (board, record)),
        ("post 2", ()),
    ]
    assert [row.id for row in channel] == [row.id for row in firsts[:1]] + [channel[1].id]
    ann = await store.hosting.private_outgoing(("user", 1), 1)
    assert [(row.post.text, row.post.files) for row in ann] == [("to ann", (board,))]
    await store.hosting.delivered(ann[0].id)
    ann = await store.hosting.private_outgoing(("user", 1), 16)
    assert [(row.post.text, row.post.files) for row in ann] == [("to ann again", ())]
    assert await store.hosting.private_outgoing(("user", 2), 16) == []


async def test_a_hosted_match_is_read_with_its_players_names_at_once(store: Store) -> None:
    """An outbox message's heading: the match and the names of its two players, one read;
    an open challenge has no invitee."""
    hosted = await store.hosting.create(challenge())
    assert await store.hosting.with_names(hosted.id) == (hosted, {1: "ann", 2: "bob"})
    open_one = await store.hosting.create(replace(challenge(101), invitee_id=None))
    assert await store.hosting.with_names(open_one.id) == (open_one, {1: "ann"})
    with pytest.raises(HostedNotFound):
        await store.hosting.with_names(open_one.id + 1000)
