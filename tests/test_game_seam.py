"""The game seam: the registry of games, the protocol each game implements, the shared record
reading, and ``python -m rules`` for every game (replay, legal, perft)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules import GAMES, GameState, Side, game_type
from rules.records import RecordError, game_of, headers_of
from rules.tora import TORA
from rules.torii import TORII
from rules.torishogi import TORISHOGI

ROOT = Path(__file__).resolve().parent.parent

STARTS = {
    "tora": ({"board": "short"}, ({"strategy": "aggressive"}, {"strategy": "defensive"})),
    "torishogi": ({}, ({}, {})),
    "torii": ({"powers": True}, ({"spirit": "Deer"}, {"spirit": "Kitsune"})),
}


def new(game_id: str) -> GameState:
    options, answers = STARTS[game_id]
    return game_type(game_id).new_game(options, answers)


def play_randomly(game: GameState, turns: int, seed: int) -> GameState:
    """End ``turns`` turns with random legal actions (never ending a turn early)."""
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over():
            break
        while game.actions_left and game.legal_actions():
            game.apply(rng.choice(game.legal_actions()))
        game.end_turn(deadline=True)
    return game


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_registry_holds_the_three_games_by_id():
    assert list(GAMES) == ["tora", "torishogi", "torii"]
    assert game_type("ToriShogi") is TORISHOGI
    with pytest.raises(ValueError, match="the games are tora, torishogi, torii"):
        game_type("chess")


@pytest.mark.parametrize("game_id", list(STARTS))
def test_every_game_implements_the_protocol(game_id):
    game = new(game_id)
    assert isinstance(game, GameState)
    assert game.game_type == game_id
    assert game.side == Side.CHALLENGER
    assert "draw" in game.agreements()
    groups = game.menu()
    assert sum(group.size for group in groups) == len(game.legal_actions())


@pytest.mark.parametrize("game_id", list(STARTS))
def test_a_record_replays_to_the_same_position_in_every_game(game_id):
    kind = game_type(game_id)
    game = play_randomly(new(game_id), turns=6, seed=3)
    replayed = kind.read_record(kind.write_record(game, "judge"))
    assert replayed.fen() == game.fen()
    assert kind.from_fen(game.fen(), {}).fen() == game.fen()


@pytest.mark.parametrize("game_id", list(STARTS))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copy_plays_on_by_itself_in_every_game(game_id, seed):
    """A copy taken with actions staged (what a trial, a hint or an engine plays on) shares
    nothing that changes: ending its turn and playing on leaves the game as it was, which then
    ends its own turn to the same position."""
    rng = random.Random(seed)
    game = play_randomly(new(game_id), turns=3, seed=seed)
    while game.actions_left and game.legal_actions():
        game.apply(rng.choice(game.legal_actions()))
    before = (game.key(), game.view_for(game.side), game.view_for(None), game.staged())
    trial = game.copy()
    trial.end_turn(deadline=True)
    after_one = trial.fen()
    play_randomly(trial, turns=3, seed=seed + 10)
    assert (game.key(), game.view_for(game.side), game.view_for(None), game.staged()) == before
    game.end_turn(deadline=True)
    assert game.fen() == after_one


def test_a_records_game_is_named_by_its_game_header_and_tora_without_one():
    assert game_of('[Game "torishogi"]\n[Result "*"]\n\nC: c3c4\n', "tora") == "torishogi"
    assert game_of('[Board "short"]\n\nC: resign\n', "tora") == "tora"
    assert game_of("", "tora") == "tora"
    # only the header block is read: a [Game] in a turn line names nothing
    assert game_of('[Board "short"]\n\nC: x\n[Game "torii"]\n', "tora") == "tora"


def test_the_record_errors_are_shared_by_every_game():
    for kind in (TORA, TORISHOGI, TORII):
        bad = '[Game "torii"]\n\nQ: nonsense\n' if kind is TORII else "C: nonsense\n"
        with pytest.raises(RecordError):
            kind.read_record(bad)


NAMES = [
    "ann\u2028bob",
    "ann\x85",
    "an\x0cn",
    "a\rb\nc\vd\x1ce\x1df\x1eg\u2029",
    "tab\there\x00\x7f",
    'say "hi" \\ \\u2028 \\',
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("game_id", list(STARTS))
def test_a_record_whose_player_name_has_a_line_break_reads_back(game_id, name):
    """A record the bot wrote (an export, the replay of a finished match) reads back into
    the same game whatever the players' names hold: a line break of any kind (U+2028,
    U+0085, form feed, a carriage return...) or a control character is written as an escape,
    and the readers split lines at "\n" alone (they once split with ``str.splitlines()``,
    which also breaks at those, and refused the bot's own record)."""
    kind = game_type(game_id)
    game = play_randomly(new(game_id), turns=2, seed=5)
    text = kind.write_record(game, "judge", {"Challenger": name})
    assert all(line.isprintable() for line in text.split("\n"))
    replayed = kind.read_record(text)
    assert replayed.key() == game.key() and replayed.headers["Challenger"] == name
    assert headers_of(text)["Challenger"] == name


@pytest.mark.parametrize("game_id", list(STARTS))
def test_records_written_before_the_escapes_still_read(game_id):
    """Older records: ``\\"`` and ``\\\\`` the only escapes, a name's line separator written
    raw, lines ended with "\r\n" by a copy saved on Windows."""
    kind = game_type(game_id)
    game = new(game_id)
    head = kind.write_record(game, "judge").split("\n\n")[0]
    text = head + '\n[Challenger "say \\"hi\\" \\\\ ann\u2028bob\x85"]\n\n'
    replayed = kind.read_record(text.replace("\n", "\r\n"))
    assert replayed.headers["Challenger"] == 'say "hi" \\ ann\u2028bob\x85'
    assert headers_of(text)["Challenger"] == 'say "hi" \\ ann\u2028bob\x85'


@pytest.mark.parametrize("value", ['a"b', "a\\", "a\\n", "a\\u12", "a\\u0041", "a\\ud800"])
@pytest.mark.parametrize("game_id", list(STARTS))
def test_a_header_value_escapes_only_what_the_writer_escapes(game_id, value):
    """A bare quote, a lone backslash, an unknown escape, or ``\\u`` of a character the
    writer never escapes (a letter, half a surrogate pair) is a malformed record."""
    kind = game_type(game_id)
    head = kind.write_record(new(game_id), "judge").split("\n\n")[0]
    with pytest.raises(RecordError):
        kind.read_record(f'{head}\n[Challenger "{value}"]\n\n')


def test_tora_agreements_follow_the_series_rules():
    game = new("tora")
    assert game.agreements() == ("draw",)
    event = game.agree("draw")
    assert event.text == "draw"
    assert str(game.outcome()) == "tie (agreed draw)"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("perft", "torishogi", "1"), "17"),
        (("perft", "torishogi", "2"), "288"),
        (("perft", "torii", "1"), "31"),
        (("perft", "torii", "2"), "1215"),
        (("perft", "torii", "1", "--spirits", "deer,KITSUNE"), "118"),
        (("perft", "tora", "1"), "58"),
        (("perft", "tora", "1", "--board", "long"), "352"),
    ],
)
def test_cli_perft_prints_one_number(args, expected):
    result = cli(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"


def test_cli_perft_from_a_fen():
    fen = "rpckcpl/3f3/sssssss/7/SSSSSSS/3F3/LPCKCPR[-] w 0 1"
    assert cli("perft", "torishogi", "1", "--fen", fen).stdout == "17\n"
    bad = cli("perft", "torishogi", "1", "--fen", "not a fen")
    assert bad.returncode == 2 and "cannot set up ToriShogi" in bad.stderr


@pytest.mark.parametrize("game_id", ["torishogi", "torii"])
def test_cli_replay_and_legal_read_the_game_from_the_record(game_id):
    kind = game_type(game_id)
    game = play_randomly(new(game_id), turns=4, seed=5)
    record = kind.write_record(game, None)
    replay = cli("replay", "-", stdin=record)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.splitlines()[0] == f"position: {game.fen()}"
    legal = cli("legal", "-", stdin=record)
    assert legal.stdout.splitlines() == [game.notation(a) for a in game.legal_actions()]


def test_cli_refuses_a_record_of_an_unknown_game():
    result = cli("replay", "-", stdin='[Game "chess"]\n\n')
    assert result.returncode == 2
    assert "no game 'chess'" in result.stderr
