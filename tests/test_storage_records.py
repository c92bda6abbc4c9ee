"""Export and import of a match as its game record (R50)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from storage_workload import GUILD, new_match, play_and_save

from rules.tora.record import RecordError, ReplayError, replay
from storage import Config, Store
from storage.matches.log import fingerprint

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def store(db: Config):
    async with await Store.open(replace(db, snapshot_every=8)) as s:
        yield s


async def test_export_then_import_gives_the_same_game(store: Store) -> None:
    match = await play_and_save(store, await new_match(store), random.Random(11), 80)
    match.end_turn_by_deadline()  # a record holds finished turns only
    await store.save(match)
    record = await store.export_record(match.id)
    assert '[Challenger "ann"]' in record and '[Opposition "bob"]' in record
    assert fingerprint(replay(record)) == fingerprint(match.game)
    imported = await store.import_record(record, GUILD, 1, 2)
    assert imported.id != match.id
    assert fingerprint((await store.load(imported.id)).game) == fingerprint(match.game)
    assert await store.export_record(imported.id) == record


async def test_an_imported_finished_game_is_a_finished_match(store: Store) -> None:
    await new_match(store)  # saves the players
    text = (ROOT / "docs" / "examples" / "short-game.tora").read_text()
    text += "O: resign\n" if replay(text).side.letter == "O" else "C: resign\n"
    imported = await store.import_record(text, GUILD, 1, 2, channel_id=77)
    loaded = await store.load(imported.id)
    assert loaded.channel_id == 77 and loaded.game.is_over()
    (finished,) = await store.finished_matches(GUILD)
    assert finished.match_id == imported.id and finished.reason == "resignation"
    assert await store.active_matches(GUILD) == [await store.match_info(1)]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[Board "short"]\nC: A v3h9-v4h9\n', RecordError),
        (
            '[Board "short"]\n[ChallengerSetup "aggressive"]\n[OppositionSetup "aggressive"]\n'
            "C: A v5h5-v1h1\n",
            ReplayError,
        ),
    ],
    ids=["malformed", "illegal"],
)
async def test_a_bad_record_is_refused_and_stores_nothing(
    store: Store, text: str, error: type[Exception]
) -> None:
    await new_match(store)
    with pytest.raises(error):
        await store.import_record(text, GUILD, 1, 2)
    assert [info.id for info in await store.active_matches()] == [1]
