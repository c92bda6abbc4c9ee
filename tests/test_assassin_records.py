"""Records with Assassins (R50, R44): the judge's, the public and a player's, and the CLI."""

from __future__ import annotations

import subprocess
import sys

import pytest
from positions import C, O

from rules.tora import Game, Options
from rules.tora.record import RecordError, replay, write_record

OPTIONS = Options(board="long", assassins=True)


def scripted_game() -> Game:
    g = Game(OPTIONS, assassin_starts=("v1h17", "v17h1"))
    for turn in (
        ["X v1h17-v3h15", "H v2h13-v2h12"],
        ["X v17h1-v15h3"],
        ["X v3h15-v5h14"],
        ["H v16h5-v16h6", "X v15h3-v14h4"],
    ):
        for text in turn:
            g.apply(text)
        g.end_turn()
    return g


def test_r50_the_full_record_replays_the_game_exactly():
    g = scripted_game()
    full = write_record(g)
    assert '[ChallengerAssassin "v1h17"]' in full and '[OppositionAssassin "v17h1"]' in full
    again = replay(full)
    assert write_record(again) == full
    for viewer in (None, C, O):
        assert again.view_for(viewer) == g.view_for(viewer)


def test_r50_the_public_record_hides_assassin_actions_and_cannot_be_replayed():
    public = write_record(scripted_game(), audience=None)
    turns = [line for line in public.splitlines() if line[:2] in ("C:", "O:")]
    assert turns == ["C: X ? ; H v2h13-v2h12", "O: X ?", "C: X ?", "O: H v16h5-v16h6 ; X ?"]
    assert "ChallengerAssassin" not in public and "OppositionAssassin" not in public
    with pytest.raises(RecordError) as info:
        replay(public)
    assert "X ?" in str(info.value) and "full" in str(info.value)


def test_r50_a_players_record_shows_only_their_own_assassin():
    own = write_record(scripted_game(), audience=C)
    assert "C: X v1h17-v3h15 ; H v2h13-v2h12" in own and "O: X ?" in own
    assert '[ChallengerAssassin "v1h17"]' in own and "OppositionAssassin" not in own


def test_r50_a_declined_assassin_is_written_as_none():
    g = Game(OPTIONS, assassin_starts=(None, "v17h1"))
    g.end_turn()
    assert '[ChallengerAssassin "none"]' in write_record(g)
    assert replay(write_record(g)).assassin_starts[C] == 0


def run_cli(tmp_path, *args: str, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "game.tora"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "rules", *args[:1], str(path), *args[1:]],
        capture_output=True,
        text=True,
        check=False,
    )


def test_r40_cli_replay_shows_an_assassin_only_to_its_owner(tmp_path):
    full = write_record(scripted_game())
    public = run_cli(tmp_path, "replay", text=full).stdout.splitlines()
    as_c = run_cli(tmp_path, "replay", "--as", "C", text=full).stdout.splitlines()
    as_o = run_cli(tmp_path, "replay", "--as", "O", text=full).stdout.splitlines()
    assert not [line for line in public if " X " in line]
    assert [line for line in as_c if " X " in line] == ["C X v5h14"]
    assert [line for line in as_o if " X " in line] == ["O X v14h4"]
    assert set(as_c) - set(public) == {"C X v5h14"}
    legal = run_cli(tmp_path, "legal", text=full).stdout.splitlines()
    legal_c = run_cli(tmp_path, "legal", "--as", "C", text=full).stdout.splitlines()
    assert not [line for line in legal if line.startswith("X ")]
    assert [line for line in legal_c if line.startswith("X ")]
