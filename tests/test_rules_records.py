"""Game records and action notation: R50 (the PGN-like record, replay, the command line
``python -m rules replay|legal FILE``) and R51 (canonical action notation and the three kinds
of refusal).
"""

from __future__ import annotations

import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from positions import C, O, at, bare, begin, position, put, sq, with_assassins
from rules_helpers import end_the_turn

from rules.tora import (
    AmbiguousAction,
    Game,
    IllegalAction,
    MalformedAction,
    Side,
)
from rules.tora.record import RecordError, ReplayError, parse_record, replay, write_record

ROOT = Path(__file__).resolve().parents[1]
HEAD = '[Board "short"]\n[ChallengerSetup "aggressive"]\n[OppositionSetup "aggressive"]\n'


# ---- helpers ---------------------------------------------------------------------------------


def canonical(game: Game, text: str) -> str:
    return game.notation(game.parse_action(text))


def refused(game: Game, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.parse_action(text)
    return caught.value


def archer_duel(*extra: tuple[Side, str, str, bool]) -> Game:
    """Short board: the Challenger's Archer on v5h7, Generals far away in the corners."""
    g = bare()
    put(g, C, "G", "v9h9")
    put(g, O, "G", "v1h1")
    put(g, C, "A", "v5h7")
    for side, kind, where, defending in extra:
        put(g, side, kind, where, defending=defending)
    return begin(g)


def random_game(seed: int, turns: int, **options) -> Game:
    """A seeded game of legal actions, attacks preferred, undoing what R30 refuses."""
    rng = random.Random(seed)
    game = Game(**options)
    for _ in range(turns):
        if game.outcome() is not None:
            break
        for _ in range(game.actions_left):
            actions = game.legal_actions()
            if not actions:
                break
            attacks = [a for a in actions if a.target or a.kind == "fire"]
            game.apply(rng.choice(attacks if attacks and rng.random() < 0.7 else actions))
        end_the_turn(game)
    return game


def state(game: Game) -> tuple:
    """Everything a player can see of a game."""
    return (
        game.pieces(),
        game.scores(),
        game.pending(),
        game.side,
        game.round,
        game.actions_left,
        game.game_number,
        None if game.outcome() is None else str(game.outcome()),
        game.staged(),
    )


def run_cli(tmp_path: Path, command: str, record: str) -> subprocess.CompletedProcess:
    path = tmp_path / "game.tora"
    path.write_text(record, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "rules", command, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


# ---- R50 the record --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "turns", "options"),
    [
        (1, 40, {}),
        (2, 40, {"challenger_setup": "defensive", "terrain": "woods"}),
        (10, 60, {"target": 12}),  # a series: loss of command may start a second game
        (4, 30, {"terrain_map": "water v4h5 v6h5; forest v3h3 v7h7; hill v5h4 E; hill v5h6 W"}),
        (3, 8, {"board": "long", "rulers": ("Q", "K")}),
    ],
    ids=["short", "defensive-woods", "series", "custom-map", "long"],
)
def test_r50_write_then_replay_reproduces_the_game(seed, turns, options):
    game = random_game(seed, turns, **options)
    record = write_record(game)
    again = replay(record)
    assert state(again) == state(game)
    assert write_record(again) == record


def test_r50_record_layout():
    game = Game()
    game.apply("A v5h7-v4h6")
    game.apply("S v6h8 defend")
    game.end_turn()
    game.end_turn()  # a pass
    game.apply("C v5h8 fire NE")
    game.end_turn()
    record = write_record(game, {"Challenger": "ann", "Opposition": "bob"})
    assert record.splitlines() == [
        '[Board "short"]',
        '[ChallengerSetup "aggressive"]',
        '[OppositionSetup "aggressive"]',
        '[Challenger "ann"]',
        '[Opposition "bob"]',
        '[Result "*"]',
        "",
        "C: A v5h7-v4h6 ; S v6h8 defend",
        "O:",
        "C: C v5h8 fire NE",
    ]


def test_r50_finished_game_records_result_and_replays():
    game = Game()
    game.apply("A v5h7-v4h6")
    game.end_turn()
    game.apply("resign")
    record = write_record(game)
    assert '[Result "1-0"]' in record
    assert '[Termination "resignation"]' in record
    assert record.rstrip().endswith("O: resign")
    again = replay(record)
    assert str(again.outcome()) == "challenger wins (resignation)"


def test_r50_draw_and_resign_lines_end_the_game():
    again = replay(HEAD + "C: A v5h7-v4h6 ; draw\n")
    assert str(again.outcome()) == "tie (agreed draw)"
    again = replay(HEAD + "C: A v5h7-v4h6\nO: A v5h3-v4h4\nC: resign\n")
    assert str(again.outcome()) == "opposition wins (resignation)"
    with pytest.raises(ReplayError) as caught:
        replay(HEAD + "C: resign\nO: A v5h3-v4h4\n")
    assert "the game is over" in caught.value.reason


def test_r50_out_of_turn_resignation_after_staged_actions_replays():
    game = Game()
    game.apply("G v5h9-v3h8")
    game.apply("G v3h8-v3h6")  # within reach of the Opposition's Archers: the turn could not end
    game.resign(O)
    again = replay(write_record(game))
    assert str(again.outcome()) == str(game.outcome())
    assert again.pieces() == game.pieces()


def test_r50_out_of_turn_resignation_keeps_side_to_act():
    game = Game()
    game.apply("A v5h7-v4h6")
    game.resign(O)
    again = replay(write_record(game))
    assert again.pieces() == game.pieces()
    assert (again.side, again.actions_left) == (game.side, game.actions_left)


def test_r50_a_turn_cut_short_by_a_resignation_is_marked_unfinished():
    game = Game()
    game.apply("A v5h7-v4h6")
    game.resign(O)
    assert write_record(game).rstrip().endswith("C: A v5h7-v4h6 ; unfinished\nO: resign")
    with pytest.raises(RecordError, match="must be followed by the opponent's 'resign'"):
        replay(HEAD + "C: A v5h7-v4h6 ; unfinished\nO: A v5h3-v4h4\n")


def test_r50_an_old_unmarked_turn_before_a_resignation_reads_cut_short_if_it_could_not_end():
    """Records written before ``unfinished`` left a cut-short turn unmarked: one that could
    not have ended (R30) still reads as cut short; any other reads as ended."""
    old = replay(HEAD + "C: G v5h9-v3h8 ; G v3h8-v3h6\nO: resign\n")
    assert old.turns[0].texts == ["G v5h9-v3h8", "G v3h8-v3h6", "unfinished"]
    ended = replay(HEAD + "C: A v5h7-v4h6\nO: resign\n")
    assert ended.turns[0].texts == ["A v5h7-v4h6"] and ended.side == O


@pytest.mark.parametrize("missing", ["Board", "ChallengerSetup", "OppositionSetup"])
def test_r50_required_headers(missing):
    lines = [line for line in HEAD.splitlines() if not line.startswith(f"[{missing} ")]
    with pytest.raises(RecordError) as caught:
        replay("\n".join(lines) + "\nC: A v5h7-v4h6\n")
    assert caught.value.line == 1
    assert f'the header [{missing} "..."] is required' in caught.value.message
    assert str(caught.value).startswith("line 1: ")


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("[Board short]\n", 4, 'a header line looks like [Key "value"]'),
        ('C: A v5h7-v4h6\n[Date "2024"]\n', 5, "header lines must come before the turns"),
        ("C: A v5h7-v4h6 ;  ; A v3h9-v3h8\n", 4, "an empty action between ';' separators"),
        ("C: A v5h7-v4h6\nX: A v5h3-v4h4\n", 5, "a turn line starts with 'C:' or 'O:'"),
        ("C: A v5h7 hop\n", 4, "cannot read `A v5h7 hop`"),
        ("C: resign ; A v5h7-v4h6\n", 4, "'resign' must be the last action of its line"),
    ],
    ids=["bad-header", "late-header", "empty-action", "bad-side", "bad-notation", "after-resign"],
)
def test_r50_malformed_records_name_the_line(body, line, message):
    with pytest.raises(RecordError) as caught:
        replay(HEAD + body)
    assert caught.value.line == line
    assert message in caught.value.message


def test_r50_bad_header_values_are_record_errors():
    with pytest.raises(RecordError, match="board must be short or long"):
        replay(HEAD.replace('"short"', '"medium"'))
    with pytest.raises(RecordError, match="`lava` is not a terrain kind"):
        replay(HEAD + '[TerrainMap "lava v1h1"]\n')
    with pytest.raises(RecordError, match="Target must be a whole number"):
        replay(HEAD + '[Target "many"]\n')


def test_r50_unknown_headers_are_kept_and_ignored():
    record = HEAD + '[Event "club night"]\n[Round "3"]\n\nC: A v5h7-v4h6\n'
    game = replay(record)
    assert at(game, "v4h6").kind == "A"
    assert parse_record(record).headers["Event"] == "club night"
    written = write_record(game)
    assert '[Event "club night"]' in written
    assert '[Round "3"]' in written
    assert state(replay(written)) == state(game)


def test_r50_comments_and_blank_lines_are_ignored():
    plain = replay(HEAD + "C: A v5h7-v4h6\nO: A v5h3-v4h4\n")
    noisy = replay(
        "# a friendly game\n\n"
        + HEAD
        + "\n# round 1\nC: A v5h7-v4h6\n\n   \n# the reply\nO: A v5h3-v4h4\n\n"
    )
    assert state(noisy) == state(plain)


def test_r50_terrain_map_header_shapes_the_board():
    moves = "C: A v5h7-v3h6\n"  # 2 steps, through v4h6 or v4h7
    dry = replay(HEAD + moves)
    assert at(dry, "v3h6").kind == "A"
    with pytest.raises(ReplayError) as caught:
        replay(HEAD + '[TerrainMap "water v4h6 v3h6 v4h7"]\n' + moves)
    assert (caught.value.turn, caught.value.action) == (1, 1)
    assert "water" in caught.value.reason
    game = Game(terrain_map="water v4h6 v3h6; forest v3h3; hill v7h2 NE")
    record = write_record(game)
    assert '[TerrainMap "water v3h6 v4h6; forest v3h3; hill v7h2 NE"]' in record
    assert replay(record).terrain.text() == game.terrain.text()


def test_r50_terrain_preset_and_rulers_headers():
    game = Game(board="long", terrain="river", rulers=("Q", "K"))
    record = write_record(game)
    assert '[Terrain "river"]' in record
    assert '[ChallengerRuler "Q"]' in record
    again = replay(record)
    assert again.terrain.text() == game.terrain.text()
    assert again.rulers == ("Q", "K")


def test_r50_turn_out_of_order_is_illegal():
    with pytest.raises(ReplayError) as caught:
        replay(HEAD + "O: A v5h3-v4h4\n")
    assert (caught.value.turn, caught.value.action) == (1, 1)
    assert "it is the challenger's turn, not the opposition's (R7)" in caught.value.reason


# ---- R50 the command line --------------------------------------------------------------------
CLI_GAME = HEAD + "\nC: A v5h7-v5h5 ; S v6h8 defend\nO: A v5h3 x v5h5\nC: C v5h8 fire NE\n"


def test_r50_cli_replay_prints_position_and_status(tmp_path):
    done = run_cli(tmp_path, "replay", CLI_GAME)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "C A v3h9",
        "C A v7h9",
        "C C v5h8 unready",
        "C G v5h9",
        "C S v4h8",
        "C S v6h8 defend",
        "O A v3h1",
        "O A v5h3",
        "O A v7h1",
        "O C v5h2",
        "O G v5h1",
        "O S v4h2",
        "O S v6h2",
        "status: ongoing",
        "score: C 0 O 1",
        "to act: O, actions left 2",
    ]


def test_r50_cli_replay_of_a_finished_game(tmp_path):
    done = run_cli(tmp_path, "replay", HEAD + "C: A v5h7-v4h6 ; draw\n")
    assert done.returncode == 0
    assert "status: tie (agreed draw)" in done.stdout.splitlines()
    legal = run_cli(tmp_path, "legal", HEAD + "C: A v5h7-v4h6 ; draw\n")
    assert legal.returncode == 0
    assert legal.stdout == ""


def test_r50_cli_illegal_action_exits_1(tmp_path):
    record = HEAD + "C: A v5h7-v4h6\nO: A v5h3-v4h4\nC: A v4h6-v4h5 ; A v3h9-v3h5\n"
    done = run_cli(tmp_path, "replay", record)
    assert done.returncode == 1
    first = done.stdout.splitlines()[0]
    assert first.startswith("illegal: turn 3 action 2: ")
    assert "this piece moves at most 2 (R15)" in first


def test_r50_cli_r30_refusal_is_reported_at_the_turn_end(tmp_path):
    record = HEAD + "C: G v5h9-v3h8 ; G v3h8-v3h6\n"
    done = run_cli(tmp_path, "replay", record)
    assert done.returncode == 1
    assert done.stdout.startswith("illegal: turn 1 action 3: the turn cannot end: G v3h6")
    assert "(R30)" in done.stdout


@pytest.mark.parametrize("command", ["replay", "legal"])
def test_r50_cli_malformed_record_exits_2(tmp_path, command):
    done = run_cli(tmp_path, command, HEAD + "C: A v5h7-v4h6\nthis is not a turn\n")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "line 5" in done.stderr
    assert "malformed record" in done.stderr


def test_r50_cli_missing_file_exits_2(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(tmp_path / "nowhere.tora")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def test_r50_cli_reads_standard_input():
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", "-"],
        cwd=ROOT,
        input=CLI_GAME,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "score: C 0 O 1" in done.stdout.splitlines()


def test_r50_cli_legal_prints_one_canonical_action_per_line(tmp_path):
    done = run_cli(tmp_path, "legal", CLI_GAME)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    game = replay(CLI_GAME)
    assert lines == [game.notation(action) for action in game.legal_actions()]
    assert len(lines) == len(set(lines))
    for line in lines:
        assert canonical(game, line) == line
    for expected in ("G v5h1-v4h1", "S v4h2 defend", "A v5h3-v4h4"):
        assert expected in lines


def test_r50_the_readmes_legal_commands_print_legal_actions():
    """Every ``python -m rules legal`` command in the README prints some legal actions, as it
    says. Regression: ``legal docs/examples/short-game.tora`` printed nothing (the example's
    game is over: no legal action is left), and a reader took the command for broken."""
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^(.*-m rules legal .*?)\s*(?:#.*)?$", readme, re.M)
    assert any("short-game.tora" in command for command in commands), commands
    for command in commands:
        command = command.replace(".venv/bin/python", shlex.quote(sys.executable))
        done = subprocess.run(
            ["sh", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and done.stdout.strip(), (command, done.stderr)


# ---- R51 notation: canonical forms -----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A v5h7-v4h6", "A v5h7-v4h6"),
        ("A. v.5, h.7, to A. v.4, h.6", "A v5h7-v4h6"),
        ("archer h7v5 - h6v4", "A v5h7-v4h6"),
        ("a V5H7-V4H6", "A v5h7-v4h6"),
        ("A v5h7-v3h5 via v4h6", "A v5h7-v3h5"),  # the only path: via is not needed
        ("A v5h7-v5h5 via v4h6", "A v5h7-v5h5"),  # one of several paths to the same square
        ("S v4h8 defend", "S v4h8 defend"),
        ("S v4h8 defence", "S v4h8 defend"),
        ("G v5h9-v3h8", "G v5h9-v3h8"),
        ("C v5h8-v4h7", "C v5h8-v4h7"),
        ("C v5h8-v4h7 with v4h8 v5h7", "C v5h8-v4h7"),  # the default supporters
        ("C v5h8-v4h7 with v4h8 v6h8", "C v5h8-v4h7 with v4h8 v6h8"),
        ("C v5h8 fire NE with v5h7 v4h8", "C v5h8 fire NE"),
        ("C v5h8 fire NE with v5h9 v6h8", "C v5h8 fire NE with v5h9 v6h8"),
    ],
)
def test_r51_canonical_forms_from_the_start(text, expected):
    assert canonical(Game(), text) == expected


def test_r51_move_then_attack_and_attack_in_place():
    g = archer_duel((O, "A", "v3h6", False), (O, "S", "v5h5", False))
    assert canonical(g, "A v5h7-v4h6 x v3h6") == "A v5h7-v4h6 x v3h6"
    assert canonical(g, "A v5h7 x v5h5") == "A v5h7 x v5h5"
    assert canonical(g, "A v5h7 x v5h5 via v5h6") == "A v5h7 x v5h5"  # R51's own example
    assert canonical(g, "archer v5h7 takes v3h6") == "A v5h7 x v3h6"
    event = g.apply("A v5h7-v4h6 x v3h6")
    assert event.text == "A v5h7-v4h6 x v3h6"
    assert event.rest == sq(g, "v4h6")
    assert event.removed == ((O, "A", sq(g, "v3h6")),)


def test_r51_attack_without_via_uses_the_unblocked_middle_square():
    # A knight-step shot has two middle squares; a defending Soldier holds one of them.
    g = archer_duel((O, "A", "v4h5", False), (O, "S", "v5h6", True))
    action = g.parse_action("A v5h7 x v4h5")
    assert g.notation(action) == "A v5h7 x v4h5"
    assert action.via == sq(g, "v4h6")
    event = g.apply(action)
    assert event.removed == ((O, "A", sq(g, "v4h5")),)
    assert at(g, "v5h6") is not None  # the defending Soldier was passed by


def test_r51_via_written_only_when_it_changes_the_attack():
    g = archer_duel((O, "A", "v4h5", False), (O, "S", "v5h6", True))
    # Naming the blocked square: the Soldier takes the arrow (R17); the text keeps the via.
    assert canonical(g, "A v5h7 x v4h5 via v5h6") == "A v5h7 x v4h5 via v5h6"
    event = g.apply("A v5h7 x v4h5 via v5h6")
    assert event.removed == ((O, "S", sq(g, "v5h6")),)
    assert at(g, "v4h5") is not None


def test_r51_defending_soldier_in_a_straight_line_takes_the_arrow():
    g = archer_duel((O, "S", "v5h6", True), (O, "A", "v5h5", False))
    event = g.apply("A v5h7 x v5h5")
    assert event.removed == ((O, "S", sq(g, "v5h6")),)
    assert at(g, "v5h5") is not None


def test_r51_attack_an_adjacent_defending_soldier_by_its_square():
    g = archer_duel((O, "S", "v4h6", True), (O, "A", "v4h5", False))
    assert canonical(g, "A v5h7 x v4h6") == "A v5h7 x v4h6"


def test_r51_soldier_and_general_strike_a_command_piece_from_the_square_before():
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, O, "G", "v5h7")
    put(g, C, "S", "v4h8")
    begin(g)
    assert canonical(g, "S v4h8-v5h7") == "S v4h8-v5h7"
    assert canonical(g, "G v5h9-v5h8 x v5h7") == "G v5h9-v5h8 x v5h7"
    event = g.apply("S v4h8-v5h7")
    assert event.rest == sq(g, "v4h8")  # stays put: the General stays until the round ends
    assert event.doomed == (sq(g, "v5h7"),)


def test_r51_cannon_default_supporters_prefer_pieces_already_operated():
    g = Game()
    g.apply("S v6h8 defend")
    action = g.parse_action("C v5h8 fire NE")
    assert action.supporters == (sq(g, "v4h8"), sq(g, "v6h8"))
    assert g.notation(action) == "C v5h8 fire NE"
    assert canonical(g, "C v5h8 fire NE with v4h8 v5h7") == "C v5h8 fire NE with v4h8 v5h7"


def test_r51_cannon_fire_hit_and_ready():
    g = bare()
    put(g, C, "G", "v9h9")
    put(g, C, "C", "v5h8")
    for where in ("v4h8", "v6h8"):
        put(g, C, "S", where)
    for where in ("v4h9", "v6h9"):
        put(g, C, "A", where)
    put(g, O, "G", "v1h1")
    put(g, O, "S", "v5h3")
    begin(g)
    event = g.apply("C v5h8 fire W")
    assert event.text == "C v5h8 fire W"
    assert event.removed == ((O, "S", sq(g, "v5h3")),)
    assert not at(g, "v5h8").ready
    event = g.apply("cannon v5h8 ready")
    assert event.text == "C v5h8 ready"  # the remaining two supporters, the default
    assert at(g, "v5h8").ready


def test_r51_ruler_letter_and_crown():
    g = bare("long", rulers=("Q", "K"))
    put(g, C, "R", "v9h17")
    put(g, O, "R", "v9h1")
    begin(g)
    assert canonical(g, "queen v9h17 to v9h15") == "Q v9h17-v9h15"
    assert canonical(g, "Q v9h17-v9h16") == "Q v9h17-v9h16"
    assert canonical(g, "R v9h17-v9h16") == "Q v9h17-v9h16"  # R is accepted too
    exc = refused(g, "K v9h17-v9h16")  # the Challenger's Ruler is a Queen
    assert exc.rule == "R51"
    assert "the letter must match the piece" in exc.reason
    # a crown is written with the General's square
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, C, "G", "v4h14")
    put(g, C, "G", "v14h13")
    put(g, O, "R", "v9h1")
    put(g, O, "A", "v9h15")
    begin(g)
    g.end_turn()
    g.apply("A v9h15 x v9h17")
    g.end_turn()  # the King is removed: a crown is due
    assert [g.notation(a) for a in g.legal_actions()] == ["crown v4h14", "crown v14h13"]
    assert canonical(g, "crown v.4, h.14") == "crown v4h14"


def test_r51_cavalry_default_path_avoids_a_trade():
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, O, "R", "v9h1")
    put(g, C, "H", "v9h15")
    put(g, O, "S", "v9h14", defending=True)
    begin(g)
    assert canonical(g, "H v9h15-v9h12") == "H v9h15-v9h12"
    event = g.apply("H v9h15-v9h12")
    assert event.removed == ()
    assert at(g, "v9h12").kind == "H" and at(g, "v9h14").kind == "S"
    g.undo()
    event = g.apply("H v9h15-v9h14")  # landing on the defending Soldier: both go (R18)
    assert {(side, letter) for side, letter, _sq in event.removed} == {(O, "S"), (C, "H")}
    g.undo()
    event = g.apply("H v9h15-v9h12 via v9h14 v9h13")  # a named path over it trades too
    assert {(side, letter) for side, letter, _sq in event.removed} == {(O, "S"), (C, "H")}


@pytest.mark.parametrize("direction", ["NE", "SE", "SW", "NW"])
def test_r51_cannon_fire_into_an_empty_line_in_any_free_direction(direction):
    g = Game()
    assert canonical(g, f"C v5h8 fire {direction}") == f"C v5h8 fire {direction}"
    event = g.apply(f"C v5h8 fire {direction}")
    assert event.removed == ()
    assert not at(g, "v5h8").ready


def test_r51_legal_actions_list_every_empty_line_shot():
    g = Game()
    texts = [g.notation(a) for a in g.legal_actions()]
    for direction in ("NE", "SE", "SW", "NW"):
        assert f"C v5h8 fire {direction}" in texts


@pytest.mark.parametrize("word", ["resign", "draw"])
def test_r51_game_level_actions_have_a_notation(word):
    g = Game()
    assert canonical(g, word) == word


# ---- R51 notation: the three refusals --------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "it is empty"),
        ("hello", "`hello` is not a piece letter"),
        ("A v5h7", "say what the piece does"),
        ("C v5h8 fire Q", "`Q` is not a direction"),
        ("A v12h1-v1h1", "v12h1 is off the board"),
        ("A v5h7-v4h6 defend", "'defend' cannot be combined with a move or attack"),
        ("S v4h8 defend attack", "'attack' after 'defend': one operation per action"),
        ("A v5h7-v4h6 ???", "unexpected"),
        ("via v4h6", "`via` is not a piece letter"),
    ],
)
def test_r51_malformed_notation(text, reason):
    with pytest.raises(MalformedAction) as caught:
        Game().parse_action(text)
    assert reason in caught.value.reason
    assert not isinstance(caught.value, IllegalAction | AmbiguousAction)


def test_r43_r51_a_search_cannot_follow_an_attack():
    """R51 has no form for an attack and a search in one action: a search follows at most a
    move (R43). The text is refused as such, never read as a search whose attack is then
    judged (a forest on a board without one, an attack the Archer may make)."""
    g = with_assassins((C, "A", "v9h12"), (O, "A", "v9h10"), (O, "A", "v9h11"))
    for text in (
        "A v9h12 x v9h10 search",
        "A v9h12 x v9h11 search",
        "A v9h12-v9h13 x v9h11 search",
    ):
        with pytest.raises(MalformedAction) as caught:
            g.parse_action(text)
        assert "'search' cannot follow an attack" in caught.value.reason


@pytest.mark.parametrize(
    ("text", "rule", "reason"),
    [
        ("A v5h3-v5h4", "R8", "v5h3 holds a piece of the Opposition; it is the Challenger's turn"),
        ("A v4h5-v4h4", "R8", "there is no piece of yours on v4h5"),
        ("A v5h7-v5h4", "R15", "that path is 3 steps; this piece moves at most 2"),
        ("G v5h9-v5h7", "R23", "the path is blocked at"),
        ("S v4h8 x v4h7", "R16", "a Soldier attacks only by landing on the enemy"),
        ("S v4h8 attack", "R16", "already in attack stance"),
        ("A v5h7 defend", "R16", "only Soldiers change stance"),
        ("C v5h8 fire W", "R21", "your own piece on v5h7 is in the line of fire W"),
        ("C v5h8-v5h7", "R20", "a Cannon moves only into an empty square"),
        ("C v5h8 ready", "R22", "is already ready"),
        ("C v5h8 fire NE with v5h7", "R19", "this needs exactly 2 supporters; 1 were named"),
        ("A v5h7 x v5h5", "R23", "there is no enemy piece to attack on v5h5"),
        ("G v5h9 search", "R43", "which this game does not use"),
        ("crown v5h9", "R24", "no crown is due"),
        ("reset", "R28", "a reset needs a series to a point target"),
    ],
)
def test_r51_illegal_actions_name_their_rule(text, rule, reason):
    with pytest.raises(IllegalAction) as caught:
        Game().parse_action(text)
    assert caught.value.rule == rule
    assert reason in caught.value.reason
    assert f"({rule})" in str(caught.value)


def test_r21_a_cannon_told_to_attack_a_square_is_told_it_attacks_by_firing():
    """A ready, supported Cannon told to attack an enemy (`x`) is told, as a Soldier is told
    it attacks by landing, that a Cannon attacks only by firing in a direction (R21)."""
    g = position((C, "C", "v5h5"), (C, "S", "v4h5"), (C, "S", "v6h5"), (O, "A", "v5h3"))
    assert "C v5h5 fire W" in [g.notation(a) for a in g.legal_actions()]
    for text in ("C v5h5 x v5h3", "C v5h5-v5h4 x v5h3"):
        exc = refused(g, text)
        assert exc.rule == "R21"
        assert "a Cannon attacks only by firing in a direction (write C v5h5 fire <direction>)" in (
            exc.reason
        )


def test_r51_via_must_be_a_middle_square_of_the_shot():
    g = archer_duel((O, "A", "v4h5", False))
    exc = refused(g, "A v5h7 x v4h5 via v3h6")
    assert exc.rule == "R17"
    assert "v3h6 is not a square this attack passes over" in exc.reason


@pytest.mark.parametrize(
    ("text", "holds", "written"),
    [
        ("G v5h7-v4h6", "Archer", "General"),
        ("A v5h9-v4h9", "General", "Archer"),
        ("S v5h8 ready", "Cannon", "Soldier"),
        ("C v4h8 defend", "Soldier", "Cannon"),
        ("H v5h7-v4h6", "Archer", "Cavalry"),
    ],
)
def test_r51_the_letter_must_match_the_piece(text, holds, written):
    g = Game()
    with pytest.raises(IllegalAction) as caught:
        g.parse_action(text)
    assert caught.value.rule == "R51"
    article = "an" if written[0] in "AEIOU" else "a"
    assert f"holds your {holds}, not {article} {written}" in caught.value.reason
    assert "the letter must match the piece" in caught.value.reason
    origin = text.split()[1].split("-")[0]
    assert caught.value.allowed  # what that piece may do instead
    assert all(allowed.split()[1].split("-")[0] == origin for allowed in caught.value.allowed)


def test_r51_refusals_list_allowed_actions():
    exc = refused(Game(), "A v5h7-v5h4")
    assert "A v5h7-v4h6" in exc.allowed
    assert "Allowed: " in str(exc)


def test_r51_general_landing_on_a_command_piece_is_ambiguous_without_the_strike_square():
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, O, "G", "v5h7")
    begin(g)
    with pytest.raises(AmbiguousAction) as caught:
        g.parse_action("G v5h9-v5h7")
    candidates = caught.value.candidates
    assert "could mean several actions" in str(caught.value)
    # one candidate per square the General can strike from; each is legal on its own and
    # its canonical form is the move+attack form
    assert sorted(canonical(g, text) for text in candidates) == [
        "G v5h9-v4h7 x v5h7",
        "G v5h9-v4h8 x v5h7",
        "G v5h9-v5h8 x v5h7",
        "G v5h9-v6h7 x v5h7",
        "G v5h9-v6h8 x v5h7",
    ]


@pytest.mark.parametrize("mover", ["soldier-downhill", "cavalry"])
def test_r51_landing_on_a_command_piece_from_two_squares_is_ambiguous(mover):
    if mover == "cavalry":
        g = bare("long")
        put(g, C, "R", "v9h17")
        put(g, O, "R", "v1h1")
        put(g, C, "H", "v9h15")
        put(g, O, "G", "v9h13")
        text, origin, victim = "H v9h15-v9h13", "v9h15", "v9h13"
    else:  # downhill steps give the Soldier a reach of 2 (R33)
        g = bare(terrain_map="hill v4h7 W; hill v5h7 W; hill v6h7 W")
        put(g, C, "G", "v9h9")
        put(g, O, "G", "v5h6")
        put(g, C, "S", "v5h8")
        text, origin, victim = "S v5h8-v5h6", "v5h8", "v5h6"
    begin(g)
    with pytest.raises(AmbiguousAction) as caught:
        g.parse_action(text)
    candidates = caught.value.candidates
    assert len(candidates) >= 2
    assert all(c.startswith(f"{text} via ") for c in candidates)
    # each candidate strikes from its own square, and each is legal on its own
    strikes = set()
    for candidate in candidates:
        action = g.parse_action(candidate)
        assert action.origin == sq(g, origin) and action.dest == sq(g, victim)
        assert g.notation(action) == candidate
        strikes.add(action.path[-2])
    assert len(strikes) == len(candidates)


def test_r51_every_legal_action_has_a_notation_near_an_enemy_general():
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, O, "R", "v1h1")
    put(g, C, "H", "v9h15")
    put(g, O, "G", "v9h12")
    begin(g)
    actions = g.legal_actions()
    texts = [g.notation(action) for action in actions]
    assert len(texts) == len(set(texts))
    for action, text in zip(actions, texts, strict=True):
        assert g.notation(g.parse_action(text)) == text
        assert g.parse_action(text).dest == action.dest


def test_r51_knight_shot_with_two_blocked_middle_squares_is_ambiguous():
    g = archer_duel((O, "A", "v4h5", False), (O, "S", "v5h6", True), (O, "S", "v4h6", True))
    with pytest.raises(AmbiguousAction) as caught:
        g.parse_action("A v5h7 x v4h5")
    candidates = caught.value.candidates
    assert candidates == ["A v5h7 x v4h5 via v4h6", "A v5h7 x v4h5 via v5h6"]
    for candidate, soldier in zip(candidates, ("v4h6", "v5h6"), strict=True):
        trial = g.copy()
        assert trial.apply(candidate).removed == ((O, "S", sq(g, soldier)),)


def test_r51_every_path_of_a_cavalry_strike_on_a_command_piece_has_its_own_notation():
    """Regression (found by the engines): the Cavalry's direct step onto a command piece rests
    where it stood, a longer path rests on the square before; the direct one was written
    without ``via``, which named every path at once and was refused as ambiguous."""
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, O, "R", "v5h14")
    put(g, C, "H", "v5h15")
    begin(g)
    strikes = [a for a in g.legal_actions() if a.letter == "H" and a.dest == sq(g, "v5h14")]
    assert len(strikes) > 1
    for action in strikes:
        text = g.notation(action)
        named, written = g.copy(), g.copy()
        named.apply(action)
        written.apply(text)  # raised AmbiguousAction for the direct step
        assert at(written, "v5h15") == at(named, "v5h15"), text
        assert written.fen() == named.fen(), text
    assert g.notation(strikes[0]) == "H v5h15-v5h14"
