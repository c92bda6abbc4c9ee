"""Hidden information at rest (issue 4, R40-R44): public reads never return a hidden Assassin
action in full, a secret start square, or the staged actions of the running turn; a player's
private reads return their own hidden data and nothing of the opponent's."""

from __future__ import annotations

import pytest
from backends import raw_sql
from storage_workload import GUILD

from rules.tora import Game, Options, Side
from rules.tora.record import write_record
from storage import Config, Match, Store
from storage.matches.log import fingerprint

C, O = Side.CHALLENGER, Side.OPPOSITION
ASSASSINS = Options(board="long", assassins=True)
STARTS = ("v1h17", "v17h1")
C_MOVES = ("X v1h17-v2h16", "X v2h16-v3h15")  # the second one staged in the running turn
O_MOVE = "X v17h1-v16h2"
SECRETS = (*STARTS, *C_MOVES, O_MOVE)


@pytest.fixture
async def store(db: Config):
    async with await Store.open(db) as s:
        for user_id, name in ((1, "ann"), (2, "bob")):
            await s.save_player(user_id, name)
        yield s


async def assassin_match(store: Store) -> Match:
    """Both sides field an Assassin and move it; the Challenger has one more move staged."""
    match = await store.create_match(GUILD, 1, 2, Game(ASSASSINS, assassin_starts=STARTS))
    match.act(C_MOVES[0])
    match.end_turn()
    match.act(O_MOVE)
    match.end_turn()
    match.act(C_MOVES[1])
    await store.save(match)
    return match


async def public_reads(store: Store, match_id: int) -> str:
    """Everything the public read paths return about a match, as text."""
    return repr(
        [
            await store.public_log(match_id),
            await store.match_info(match_id),
            await store.active_matches(GUILD),
            await store.active_matches(),
            await store.due_matches(now=1e12),
            await store.finished_matches(GUILD),
            await store.export_record(match_id),
        ]
    )


async def test_public_reads_never_show_hidden_moves_or_secret_squares(store: Store) -> None:
    match = await assassin_match(store)
    public = await public_reads(store, match.id)
    assert [secret for secret in SECRETS if secret in public] == []
    assert [line.text for line in await store.public_log(match.id)] == [
        "X ?",
        "end turn",
        "X ?",
        "end turn",
    ]
    assert "C: X ?\nO: X ?\n" in await store.export_record(match.id)


async def test_each_player_reads_only_their_own_hidden_data(store: Store) -> None:
    match = await assassin_match(store)
    assert [line.text for line in await store.private_log(match.id, C) if line.kind == "act"] == [
        C_MOVES[0],
        "X ?",
        C_MOVES[1],
    ]
    assert [line.text for line in await store.private_log(match.id, O) if line.kind == "act"] == [
        "X ?",
        O_MOVE,
    ]
    assert (await store.private_secrets(match.id, C))["assassin"] == STARTS[0]
    assert (await store.private_secrets(match.id, O))["assassin"] == STARTS[1]
    mine = await store.private_export_record(match.id, C)
    assert f'[ChallengerAssassin "{STARTS[0]}"]' in mine and C_MOVES[0] in mine
    assert STARTS[1] not in mine and O_MOVE not in mine


async def test_the_hidden_state_survives_a_reload_from_snapshot_or_log(store: Store) -> None:
    match = await assassin_match(store)
    assert fingerprint((await store.load(match.id)).game) == fingerprint(match.game)
    await raw_sql(store.config, "DELETE FROM snapshots")
    assert fingerprint((await store.load(match.id)).game) == fingerprint(match.game)


async def test_staged_actions_are_seen_only_by_the_player_to_act(store: Store) -> None:
    match = await store.create_match(GUILD, 1, 2, Game(Options(board="short")))
    game = match.game
    staged = match.act(game.notation(game.legal_actions()[0])).text
    await store.save(match)
    assert await store.public_log(match.id) == []
    assert await store.private_log(match.id, O) == []
    assert [line.text for line in await store.private_log(match.id, C)] == [staged]
    match.end_turn()
    await store.save(match)
    assert [line.text for line in await store.public_log(match.id)] == [staged, "end turn"]


async def test_an_imported_record_keeps_its_secrets_private(store: Store) -> None:
    game = Game(ASSASSINS, assassin_starts=STARTS)
    game.apply(C_MOVES[0])
    game.end_turn()
    imported = await store.import_record(write_record(game), GUILD, 1, 2)  # the judge's record
    assert fingerprint((await store.load(imported.id)).game) == fingerprint(game)
    assert [s for s in SECRETS if s in await public_reads(store, imported.id)] == []
    assert (await store.private_secrets(imported.id, O))["assassin"] == STARTS[1]
