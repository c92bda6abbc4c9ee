"""``python -m storage copy``: a populated database (every table has rows, written by the match
service, the ladders and the tournaments) copied SQLite to SQLite, and SQLite to PostgreSQL and
back, row for row and game for game; ids never handed out twice afterwards; a destination
that is not empty refused; the command line's arguments."""

from __future__ import annotations

import asyncio
import io
import random
import shutil
import sqlite3
from pathlib import Path

import backends
import pytest
from storage_workload import new_match, play_and_save
from tournament_helpers import ADMIN, HERE, desk_for, hunt, resign_at_once

from bot.ladder.queue import Matchmaking
from bot.ladder.results import Results
from bot.service import Place, User
from bot.service.testing import Harness
from bot.tournament.event_desk import EventDesk
from bot.tournament.event_spec import EventSpec
from rules.tora import Game, Options, Side
from rules.tora.assassin import start_squares
from rules.tora.geometry import name
from storage import Away, ButtonMessage, Config, RatingChange, Store
from storage.__main__ import main
from storage.backends.migrations import migrate
from storage.matches.log import fingerprint
from storage.tools import transfer
from storage.tools.maintenance import OK, PROBLEMS, UNUSABLE, check
from storage.tools.transfer import TABLES, copy

ANN, BOB, CARL, DORA = User(1, "ann"), User(2, "bob"), User(3, "carl"), User(4, "dora")
LADDER_GUILD = 10


async def populate(path: Path) -> None:
    """A database with rows in every table, written the way the bot writes them."""
    h = Harness(path)
    try:
        await h.open()
        service, store = h.service, h.store
        assert service is not None and store is not None
        # a tournament's four-game match: hosted matches, matches, logs, finished matches,
        # the tournament tables and rank history
        desk = await desk_for(h)
        await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
        for player in (ANN, BOB):
            await desk.register(HERE, player, "Cup")
        await desk.begin(HERE, ADMIN, "Cup", admin=True)
        await h.settle()
        [thread] = h.threads.opened
        place = Place(HERE.guild_id, thread)
        for play in (hunt, resign_at_once, hunt, hunt):
            await play(h, place)
        await h.settle()
        # a round robin of three: the events' tables, with an admin's adjustment logged
        events = EventDesk(store, service, h.threads, clock=h.clock, settings=h.settings)
        spec = EventSpec("League", "torishogi", "round-robin", {})
        await events.create(HERE, ADMIN, spec, admin=True)
        for player in (ANN, BOB, CARL):
            await events.join(HERE, player, "League")
        await events.begin(HERE, ADMIN, "League", admin=True)
        await events.adjust(HERE, ADMIN, "League", 1, BOB, "win", "no-show", admin=True)
        await h.settle()
        league = await events.event(HERE, "League")  # its announcement with Join and Leave
        await events.remember_buttons(league.id, HERE.channel_id, 77)
        # long random play (snapshots), a long-board match with secret Assassins
        await play_and_save(store, await new_match(store), random.Random(7), 150)
        long = Options(board="long", assassins=True)
        starts = tuple(name(start_squares(long, side)[0]) for side in Side)
        secret = await store.create_match(1, 1, 2, Game(long, assassin_starts=starts))
        secret.act(secret.game.notation(secret.game.legal_actions()[0]))
        await store.save(secret)
        # old-style ratings, the ladders: results, a removal, the queue, a pending pairing
        rated = await new_match(store)
        rated.resign(Side.OPPOSITION)
        await store.save(rated)
        await store.rate(rated.id, [RatingChange(1, None, 1510.5), RatingChange(2, None, 1490)])
        results = Results(store, h.clock.now)
        for user in (ANN, BOB, CARL, DORA):
            await store.save_player(user.id, user.name)
        for winner in ("C", "O", None):
            game = await store.create_match(LADDER_GUILD, 1, 2, Game(Options(board="short")))
            if winner is None:
                game.agree_draw()
            else:
                game.resign(Side.OPPOSITION if winner == "C" else Side.CHALLENGER)
            await store.save(game)
            await results.record_match(game.id)
        await results.remove_result(LADDER_GUILD, game.id, by=99, reason="smurf")
        queue = Matchmaking(store, h.clock.now)
        await queue.join(LADDER_GUILD, "long", 3, 77)
        await queue.join(LADDER_GUILD, "short", 3, 77)
        await queue.join(LADDER_GUILD, "short", 4, 78)  # paired, its match not opened yet
        await store.ladders.set_bot(4)
        await store.set_guild_setting(1, "turn", "3600")
        # a challenge set up halfway, then one whose start is not delivered yet (with images)
        await service.challenge(Place(1, 200), ANN, BOB)
        await service.accept(Place(1, 200), BOB)
        await service.setup(Place(1, 200), ANN, {"strategy": "aggressive"})
        await service.challenge(Place(1, 201), CARL, DORA)
        await service.accept(Place(1, 201), DORA)
        await service.setup(Place(1, 201), CARL, {"strategy": "aggressive"})
        await service.setup(Place(1, 201), DORA, {"strategy": "defensive"})
        hosted = await store.hosting.live_in_channel(201)
        assert hosted is not None
        await store.hosting.remember_buttons(ButtonMessage(201, 5, hosted.id, ("resign",), 1))
        await store.links.renew(hosted.id, Side.CHALLENGER)  # a replaced web board link
        await store.links.secret("kept for the web board's links")
        await store.set_player_setting(1, "timezone", "Europe/Paris")  # migration 16's tables
        await store.add_away(Away(1, 1, 1.8e9, 1.8e9 + 86400.0))
        await store.hosting.put_plans(hosted.id, Side.OPPOSITION, ['[[["c5c4"], ["a3a4"]]]'])
        await store.hosting.put_draft(hosted.id, Side.OPPOSITION, 1, '{"theirs": ["c5c4"]}')
        await store.hosting.put_look(hosted.id, Side.CHALLENGER, 1)  # migration 17's
        h.delivery.fail_next = 1000  # the start's posts wait for a retry...
        await service.deliver()
        h.delivery.fail_next = 0
        await service.challenge(Place(1, 202), User(5, "eve"))  # ...these go (and are deleted)
        while await service.deliver():
            pass
    finally:
        await h.close()
    conn = sqlite3.connect(path)  # nothing writes these yet but the processes' coordination
    with conn:
        conn.execute("INSERT INTO leases VALUES ('ladder', 'host-1', 1.8e9)")
        conn.execute("INSERT INTO interactions VALUES (123456789012345678, 1.8e9)")
        conn.execute("UPDATE hosted_matches SET claimed_by = 'host-1', claimed_until = 1")
    conn.close()


@pytest.fixture(scope="module")
def populated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("source") / "src.sqlite3"
    asyncio.run(populate(path))
    return path


@pytest.fixture
def source(populated: Path, tmp_path: Path) -> Config:
    path = tmp_path / "src.sqlite3"
    shutil.copy(populated, path)
    return Config(path=path)


async def dump(config: Config, names: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """Every table's rows, in one column order, sorted."""
    out = {}
    for table, cols in names.items():
        rows = await backends.raw_sql(config, f"SELECT {', '.join(cols)} FROM {table}")
        out[table] = sorted((tuple(row) for row in rows), key=repr)
    return out


def column_names(config: Config) -> dict[str, list[str]]:
    conn = sqlite3.connect(config.path)
    try:
        return {t: sorted(r[1] for r in conn.execute(f"PRAGMA table_info({t})")) for t in TABLES}
    finally:
        conn.close()


async def games(config: Config) -> dict[int, tuple[object, ...]]:
    async with await Store.open(config) as store:
        ids = [row[0] for row in await backends.raw_sql(config, "SELECT id FROM matches")]
        return {match_id: fingerprint((await store.load(match_id)).game) for match_id in ids}


async def run_copy(source: Config, dest: Config) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = await copy(source, dest, out, err)
    return code, out.getvalue(), err.getvalue()


def sequence(config: Config, table: str) -> int:
    conn = sqlite3.connect(config.path)
    try:
        [(seq,)] = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        return seq
    finally:
        conn.close()


# ---- the tests -----------------------------------------------------------------------------
async def test_every_table_has_rows_to_copy(source: Config) -> None:
    counts = {
        t: (await backends.raw_sql(source, f"SELECT count(*) FROM {t}"))[0][0] for t in TABLES
    }
    assert [t for t, n in counts.items() if n == 0] == []
    assert {"leases", "interactions", "web_links", "web_secret"} <= set(TABLES)
    [(largest,)] = await backends.raw_sql(source, "SELECT max(id) FROM outbox")
    assert sequence(source, "outbox") > largest  # delivered rows are gone, their ids too


async def test_sqlite_to_sqlite_copies_every_row_and_every_game(
    source: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer, "BATCH", 7)  # many batches per table
    dest = Config(path=tmp_path / "copy" / "dest.sqlite3")
    code, out, err = await run_copy(source, dest)
    assert (code, err) == (OK, "")
    assert "matches: " in out and "outbox_files: " in out
    matches = len(await games(source))
    assert out.endswith(f"copied {matches} matches, every one replays the same\n")
    names = column_names(source)
    assert await dump(dest, names) == await dump(source, names)
    assert await games(dest) == await games(source)
    for table in ("outbox", "ladder_pairings"):
        assert sequence(dest, table) == sequence(source, table)


@pytest.mark.postgres
async def test_sqlite_to_postgresql_and_back_keeps_every_row_and_advances_the_ids(
    source: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer, "BATCH", 7)
    if reason := backends.postgres_missing():
        pytest.skip(reason)
    middle = backends.config("postgres", tmp_path)
    back = Config(path=tmp_path / "back.sqlite3")
    try:
        code, _out, err = await run_copy(source, middle)
        assert (code, err) == (OK, "")
        code, out, err = await run_copy(middle, back)
        assert (code, err) == (OK, ""), out
        names = column_names(source)
        before = await dump(source, names)
        assert await dump(middle, names) == before
        assert await dump(back, names) == before
        played = await games(source)
        assert await games(middle) == played and await games(back) == played
        for table in ("outbox", "ladder_pairings"):
            assert sequence(back, table) == sequence(source, table)
        # new rows on PostgreSQL take ids past every id the source ever gave
        async with await Store.open(middle) as store:
            match = await store.create_match(1, 1, 2, Game(Options(board="short")))
            assert match.id == max(played) + 1
        for table, values in (
            ("outbox", "(channel_id, text, created_at) VALUES (300, 'hi', 0)"),
            (
                "ladder_pairings",
                "(guild_id, board, channel_id, first_id, second_id, gap,"
                " first_rating, second_rating, created_at) VALUES (1, 'long', 3, 1, 2, 0, 0, 0, 0)",
            ),
        ):
            [(fresh,)] = await backends.raw_sql(
                middle, f"INSERT INTO {table} {values} RETURNING id"
            )
            assert fresh == sequence(source, table) + 1
    finally:
        await backends.drop(middle)


async def test_a_destination_that_is_not_empty_is_refused(source: Config, tmp_path: Path) -> None:
    dest = Config(path=tmp_path / "dest.sqlite3")
    async with await Store.open(dest) as store:
        await store.save_player(1, "ann")
    code, out, err = await run_copy(source, dest)
    assert code == UNUSABLE and out == ""
    assert "is not empty (rows in players)" in err
    assert await backends.raw_sql(dest, "SELECT count(*) FROM matches") == [(0,)]
    code, _out, err = await run_copy(source, source)
    assert code == UNUSABLE and "the same database" in err
    code, _out, err = await run_copy(Config(path=tmp_path / "none.sqlite3"), dest)
    assert code == UNUSABLE and "no database at" in err


@pytest.mark.postgres
async def test_copy_from_a_mistyped_postgresql_schema_is_refused_not_reported_as_copied(
    tmp_path: Path,
) -> None:
    """A source schema nobody made (a typo of the real one) is refused as a missing SQLite
    file is, exit status 2, and not created: copying its nothing "successfully" would tell
    the operator the move worked."""
    if reason := backends.postgres_missing():
        pytest.skip(reason)
    source = backends.config("postgres", tmp_path)  # a schema nobody made
    dest = Config(path=tmp_path / "dest.sqlite3")
    try:
        code, out, err = await run_copy(source, dest)
        made = await backends.raw_sql(
            Config(url=source.url),
            "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?",
            source.schema,
        )
    finally:
        await backends.drop(source)
    assert (code, out, made) == (UNUSABLE, "", [(0,)])
    assert err == f"no tora-bot schema at {source.url} (schema {source.schema})\n"
    assert not dest.path.exists()


@pytest.mark.postgres
async def test_check_of_a_mistyped_schema_names_the_schema_it_looked_in(tmp_path: Path) -> None:
    """``python -m storage --schema S check`` with S mistyped (or TORA_DB_SCHEMA unset in
    the admin's shell): refused naming the schema it looked in, as ``copy`` does, not as
    if the whole database held no tora-bot data."""
    if reason := backends.postgres_missing():
        pytest.skip(reason)
    config = backends.config("postgres", tmp_path)  # a schema nobody made
    out, err = io.StringIO(), io.StringIO()
    try:
        assert await check(config, out, err) == UNUSABLE
    finally:
        await backends.drop(config)
    said = f"no tora-bot schema at {config.url} (schema {config.schema})\n"
    assert err.getvalue() == said


@pytest.mark.postgres
async def test_a_sqlite_server_with_two_events_named_alike_can_be_moved_to_postgresql(
    tmp_path: Path,
) -> None:
    """An older SQLite database told names apart by ASCII case only: "Été" and "été" could
    be two tournaments (or events) there, which PostgreSQL's index refused, so `copy` to
    PostgreSQL failed. The source is migrated first (migration 19 renames the later one)
    and the copy goes through."""
    if reason := backends.postgres_missing():
        pytest.skip(reason)
    source = Config(path=tmp_path / "src.sqlite3")
    conn = sqlite3.connect(source.path, isolation_level=None)
    migrate(conn, upto=18)
    conn.execute("INSERT INTO players (user_id, name, created_at) VALUES (1, 'ann', 0)")
    for n, called in enumerate(("Été", "été"), start=1):
        conn.execute(
            "INSERT INTO tournaments (id, guild_id, channel_id, name, board, target,"
            " turn_seconds, organiser_id, status, created_at)"
            " VALUES (?, 10, 20, ?, 'short', 49, 86400, 1, 'registering', ?)",
            (n, called, n),
        )
    conn.close()
    dest = backends.config("postgres", tmp_path)
    try:
        code, _out, err = await run_copy(source, dest)
        names = await backends.raw_sql(dest, "SELECT name FROM tournaments ORDER BY id")
    finally:
        await backends.drop(dest)
    assert (code, err) == (OK, "")
    assert names == [("Été",), ("été (2)",)]


async def test_a_failed_copy_writes_nothing(source: Config, tmp_path: Path) -> None:
    conn = sqlite3.connect(source.path)  # a row the destination's constraints refuse
    with conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE tournament_ranks SET rank = 0")  # copied late
    conn.close()
    dest = Config(path=tmp_path / "dest.sqlite3")
    code, _out, err = await run_copy(source, dest)
    assert code == PROBLEMS and "nothing was written" in err
    assert await backends.raw_sql(dest, "SELECT count(*) FROM players") == [(0,)]


def test_the_command_line(
    populated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "dest.sqlite3"
    assert main(["copy", str(populated), str(dest)]) == OK
    assert "every one replays the same" in capsys.readouterr().out
    assert main(["copy", str(populated), str(dest)]) == UNUSABLE
    assert "is not empty" in capsys.readouterr().err
    assert main(["copy", str(populated), str(tmp_path / "x"), "--dest-schema", "s"]) == UNUSABLE
    assert "a schema is for a postgresql:// URL" in capsys.readouterr().err
    url = "postgresql://nobody@127.0.0.1:1/none"
    assert main(["copy", str(populated), url, "--dest-schema", "Bad-Name"]) == UNUSABLE
    assert "a schema name is" in capsys.readouterr().err
    assert main(["copy", str(populated), url]) == UNUSABLE
    assert "cannot open postgresql://nobody@127.0.0.1:1/none" in capsys.readouterr().err
    # a URL of another kind, once taken for a file's path (a new database under "sqlite:")
    sqlalchemy = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    assert main(["copy", str(populated), sqlalchemy]) == UNUSABLE
    assert "not a sqlite:// URL" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["copy", "--help"])
    assert "--source-schema" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["copy", str(populated)])
    assert "DST" in capsys.readouterr().err


def test_check_with_schema_checks_that_schema_of_the_database_in_tora_db(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--schema`` overrides TORA_DB_SCHEMA whether the database is named by ``--db`` or by
    TORA_DB (the operator read "every match replays" about another schema than the one
    asked), and is refused for a SQLite database either way."""
    import storage.__main__ as cli

    seen: list[Config] = []

    async def fake_check(config: Config) -> int:
        seen.append(config)
        return OK

    monkeypatch.setattr(cli, "check", fake_check)
    monkeypatch.setenv("TORA_DB", "postgresql://127.0.0.1/test")
    monkeypatch.setenv("TORA_DB_SCHEMA", "tenant_a")
    assert main(["--schema", "tenant_b", "check"]) == OK
    assert main(["check"]) == OK
    assert [config.schema for config in seen] == ["tenant_b", "tenant_a"]
    monkeypatch.setenv("TORA_DB", "data/x.sqlite3")
    monkeypatch.delenv("TORA_DB_SCHEMA")
    for named in ([], ["--db", "data/x.sqlite3"]):
        assert main([*named, "--schema", "tenant_b", "check"]) == UNUSABLE
        said = "data/x.sqlite3 is a SQLite file: a schema is for a postgresql:// URL"
        assert said in capsys.readouterr().err
    assert len(seen) == 2
