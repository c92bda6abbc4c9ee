"""The ToriShogi game object against the host's seam (rules.protocol): turn model, views,
menus, events, records, copies."""

from __future__ import annotations

import pickle
import random

import pytest

from render.drawings import drawing_of
from rules.errors import IllegalAction
from rules.protocol import FORFEIT, GameEvent, GameState, GameTurn, GameView
from rules.sides import Outcome, Side
from rules.torishogi import (
    START_FEN,
    TORISHOGI,
    RecordError,
    ReplayError,
    ToriShogiGame,
    read_record,
    write_record,
)
from rules.torishogi.board import SQUARE_OF
from rules.torishogi.pieces import SWALLOW

C, O = Side.CHALLENGER, Side.OPPOSITION
NAMES = ["ann", "bob"]


def play(game: ToriShogiGame, *moves: str) -> ToriShogiGame:
    for move in moves:
        game.apply(move)
        game.end_turn()
    return game


def test_the_seam_protocols() -> None:
    game = ToriShogiGame()
    assert isinstance(game, GameState) and game.game_type == "torishogi"
    assert isinstance(game.view_for(None), GameView)
    event = game.apply("c3c4")
    assert isinstance(event, GameEvent) and event.public() is event and not event.hidden
    assert isinstance(game.end_turn(), GameTurn)


def test_the_game_type() -> None:
    assert (TORISHOGI.id, TORISHOGI.title) == ("torishogi", "ToriShogi")
    assert TORISHOGI.check_options({}) == {}
    board = START_FEN.split("[")[0]
    assert TORISHOGI.check_options({"fen": f"{board}[] w"}) == {"fen": START_FEN}
    with pytest.raises(ValueError, match="no option board"):
        TORISHOGI.check_options({"board": "short"})
    with pytest.raises(ValueError):
        TORISHOGI.check_options({"fen": "nonsense"})
    assert TORISHOGI.setup_questions({}) == ()
    game = TORISHOGI.new_game({}, ({}, {}))
    assert game.fen() == START_FEN
    with pytest.raises(ValueError):
        TORISHOGI.new_game({}, ({"strategy": "x"}, {}))
    other = TORISHOGI.from_fen("k6/7/7/7/7/7/6K[Ss] b 3 9", {})
    assert other.side == O and other.fen() == "k6/7/7/7/7/7/6K[Ss] b 3 9"
    assert TORISHOGI.perft(game, 3) == 5430


def test_staging_shows_the_move_to_its_player_only() -> None:
    game = ToriShogiGame()
    event = game.apply("Falcon d2-c2")
    assert game.staged() == ["Falcon 4f-5f"] and game.actions_left == 0 and game.side == C
    mine, theirs, public = game.view_for(C), game.view_for(O), game.view_for(None)
    assert mine.staged == (event,) and theirs.staged == () and public.staged == ()
    assert mine.at(SQUARE_OF["c2"]) is not None and theirs.at(SQUARE_OF["c2"]) is None
    assert mine.last_move is not None and mine.last_move.target == SQUARE_OF["c2"]
    assert theirs.last_move is None and theirs.actions_left == 1
    assert game.fen() == START_FEN  # nothing is played before the turn ends
    assert game.undo() == "Falcon 4f-5f" and game.staged() == [] and game.actions_left == 1
    game.apply("c3c4")
    with pytest.raises(IllegalAction):
        game.take_back(1)
    assert game.take_back(0) == "Swallow 5ex5d"
    with pytest.raises(IllegalAction):
        game.undo()


def test_end_turn_needs_a_staged_move_even_at_the_deadline() -> None:
    game = ToriShogiGame()
    for deadline in (False, True):
        with pytest.raises(IllegalAction) as caught:
            game.end_turn(deadline=deadline)
        assert caught.value.rule == "TS1"
    game.apply("c3c4")
    turn = game.end_turn(deadline=True)
    assert (turn.side, turn.texts) == (C, ["c3c4"]) and game.side == O
    assert game.view_for(None).last_turn == tuple(turn.events)


def test_forfeit_drops_the_staged_move() -> None:
    game = play(ToriShogiGame(), "c3c4")
    game.apply("c5c4")
    event = game.forfeit(O)
    assert game.outcome() == Outcome(C, FORFEIT) and game.staged() == []
    assert event.words(NAMES) == "bob forfeits on missed turns"
    assert game.view_for(None).summary(NAMES) == "In hand: ann 1 Swallow; ann wins (forfeit)"


def test_events_in_words() -> None:
    game = ToriShogiGame()
    assert game.apply("d2c2").words(NAMES) == "ann's Falcon moves 4f-5f"
    game.undo()
    capture = game.apply("e4e5")
    assert capture.words(NAMES) == "ann's Swallow moves 3d-3c and captures bob's Swallow"
    game.end_turn()
    play(game, "c4c3")
    assert game.apply("e5e6").words(NAMES) == "ann's Swallow moves 3c-3b and promotes to Goose"
    game.undo()
    assert game.apply("S@d4").words(NAMES) == "ann drops a Swallow on 4d"
    check = ToriShogiGame("k6/7/1F5/7/7/7/6K[S] w 0 1").apply("S@a6")
    assert check.words(NAMES) == "ann drops a Swallow on 7b, check"
    mate = ToriShogiGame("k6/7/1F5/7/7/7/6K[C] w 0 1").apply("C@b6")
    assert mate.words(NAMES) == "ann drops a Crane on 6b, checkmate"
    both = ToriShogiGame("k1c4/2S4/7/7/7/7/6K[-] w 0 1").apply("c6c7")
    assert both.words(NAMES) == (
        "ann's Swallow moves 5b-5a, captures bob's Crane and promotes to Goose"
    )


def test_views_and_summaries() -> None:
    game = play(ToriShogiGame(), "e4e5", "c4c3")
    view = game.view_for(None)
    assert view.game == "torishogi" and view.viewer is None and view.side == C
    assert view.hand(C) == [(SWALLOW, 1)] and view.hand(O) == [(SWALLOW, 1)]
    assert view.summary(NAMES) == "In hand: ann 1 Swallow; bob 1 Swallow; ann to move"
    assert view.last_move is not None and view.last_move.origin == SQUARE_OF["c4"]
    checked = ToriShogiGame("k6/7/1F5/7/7/7/6K[SS] w 0 1")
    checked.apply("S@a6")
    preview = checked.view_for(C)
    assert preview.check_square == SQUARE_OF["a7"] and not preview.in_check
    assert preview.last_move is not None and preview.last_move.dropped == SWALLOW
    checked.end_turn()
    after = checked.view_for(None)
    assert after.in_check and after.check_square == SQUARE_OF["a7"]
    assert after.summary(NAMES) == "In hand: ann 1 Swallow; bob to move, in check"
    assert ToriShogiGame().view_for(C).summary(NAMES) == "Nothing in hand; ann to move"
    checked.resign(O)  # the last move stays marked after a resignation
    assert checked.view_for(None).last_move == after.last_move


def test_hands_are_listed_as_a_sentence_lists_them() -> None:
    """ "10 Swallows, 2 Cranes and 2 Pheasants", not "10 Swallows and 2 Cranes and ...", each
    player's hand apart from the other's."""
    game = ToriShogiGame("k6/7/7/7/7/7/6K[SSSSSSSSSSCCPPf] b 0 1")
    assert game.view_for(None).summary(NAMES) == (
        "In hand: ann 10 Swallows, 2 Cranes and 2 Pheasants; bob 1 Falcon; bob to move"
    )
    game.resign(O)
    assert game.view_for(None).summary(NAMES) == (
        "In hand: ann 10 Swallows, 2 Cranes and 2 Pheasants; bob 1 Falcon; ann wins (resignation)"
    )


def test_menu_groups_every_legal_move_once() -> None:
    game = play(ToriShogiGame(), "e4e5", "c4c3")
    groups = game.menu()
    notations = [choice.notation for choice in game.choices()]
    assert sorted(notations) == sorted(m.uci for m in game.legal_actions())
    assert len({group.key for group in groups}) == len(groups)
    assert all(len(group.key) <= 20 and len(group.category) <= 20 for group in groups)
    assert all(group.size == len(game.choices(group.key)) for group in groups)
    assert all(c.group == group.key for group in groups for c in game.choices(group.key))
    assert game.choices("z9") == ()
    falcon = next(group for group in groups if group.key == "d2")
    assert (falcon.label, falcon.category) == ("Falcon (Fa) 4f", "Falcon")
    falcon_moves = game.choices("d2")
    assert falcon_moves[0].notation[:2] == "d2"
    assert falcon.description == f"{len(falcon_moves)} moves"
    assert "to 5e, capturing the Swallow" in [c.label for c in falcon_moves]
    drops = next(group for group in groups if group.key == "drop-S")
    assert (drops.label, drops.category) == ("Swallow (Sw), 1 in hand", "drops")
    assert all(len(c.path) == 1 and c.path == (c.label,) for c in falcon_moves)
    wide = ToriShogiGame("k6/7/7/7/7/7/6K[F] w 0 1")
    falcon_drops = wide.choices("drop-F")
    assert len(falcon_drops) == 47
    first = falcon_drops[0]
    assert first.path == ("file 7", "7g") and first.label == "drop on 7g"
    files = [c.path[0] for c in falcon_drops]
    assert files == sorted(files, reverse=True)  # one file together, 7 to 1 as on the board
    promote = ToriShogiGame("k6/7/2S4/7/7/7/6K[-] w 0 1")
    assert [c.label for c in promote.choices("c5")] == ["to 5b, promoting to Goose"]
    assert ToriShogiGame("k6/2C4/1F5/7/7/7/6K[-] b 0 1").menu() == ()


def test_a_menu_label_says_when_its_move_gives_check() -> None:
    """The Play panel's option of a move that checks the opponent's Phoenix says so, as the
    staged line and the turn post then do ("to 4d, check", "drop on 4d, checkmate"); the
    others do not. Regression: a checking move read only "to 4d"."""
    rng = random.Random(7)
    game = ToriShogiGame()
    seen = 0
    for _ply in range(60):
        if game.is_over():
            break
        for choice in game.choices():
            twin = game.copy()
            twin.apply(choice.notation)
            twin.end_turn()
            note = twin.turns[-1].events[0].note
            assert str(choice.label).partition(", ")[2].endswith(note), str(choice.label)
            assert str(choice.label).endswith((", check", ", checkmate")) == bool(note)
            seen += twin.in_check()
        game.apply(rng.choice(game.legal_actions()))
        game.end_turn()
    assert seen


def test_ts9_a_move_option_that_mates_says_checkmate_not_check() -> None:
    """The menus', the Play panel's and autocomplete's option of a move that mates reads
    "checkmate" (TS9), as its staged line and its turn's post then do; a check that leaves
    the opponent a move still reads "check". Regression: a mating move read "check"."""
    game = ToriShogiGame("k6/7/1F5/7/7/7/6K[C] w 0 1")
    labels = {choice.notation: str(choice.label) for choice in game.choices()}
    assert labels["C@b6"] == "drop on 6b, checkmate"
    assert labels["b5b6+"] == "to 6b, promoting to Eagle, check"


def test_copy_and_pickle_are_independent() -> None:
    game = play(ToriShogiGame(), "e4e5", "c4c3")
    game.apply("S@d4")
    twin = game.copy()
    twin.end_turn()
    assert game.staged() == ["Swallow drop 4d"] and twin.staged() == [] and len(twin.turns) == 3
    assert game.fen() != twin.fen()
    restored = pickle.loads(pickle.dumps(game))
    assert restored.fen() == game.fen() and restored.staged() == ["Swallow drop 4d"]
    restored.end_turn()
    assert restored.fen() == twin.fen()


def test_record_with_fen_and_game_words() -> None:
    fen = "k6/7/1F5/7/7/7/6K[C] w 0 1"
    game = play(ToriShogiGame(fen), "C@b6")
    text = write_record(game)
    assert '[FEN "k6/7/1F5/7/7/7/6K[C] w 0 1"]' in text
    assert '[Result "1-0"]' in text and '[Termination "checkmate"]' in text
    assert read_record(text).outcome() == Outcome(C, "checkmate")
    for word, outcome in (
        ("resign", Outcome(O, "resignation")),
        ("forfeit", Outcome(O, FORFEIT)),
    ):
        ended = read_record(f'[Game "torishogi"]\n\nC: c3c4\nC: {word}\n')
        assert ended.outcome() == outcome and ended.turns[-1].texts == [word]
    out_of_turn = read_record("C: c3c4\nC: resign\n")
    assert out_of_turn.outcome() == Outcome(O, "resignation")
    draw = read_record("C: c3c4\nO: draw\n")
    assert draw.outcome() == Outcome(None, "agreed draw")
    assert write_record(draw).endswith("C: c3c4\nO: draw\n")


def _torishogi_played(moves: int, seed: int = 1) -> ToriShogiGame:
    game = ToriShogiGame()
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
        game.end_turn()
    return game


@pytest.mark.parametrize("ending", ["resign", "draw"])
def test_a_torishogi_replay_ends_on_its_resignation_or_agreed_draw(ending: str) -> None:
    """TORA's and Torii's replays end on a frame of the result (the record's last line);
    ToriShogi's stopped at the last move: the GIF's last frame said whose move it was, and
    the web page's replay and move list never reached the resignation or the draw."""
    game = _torishogi_played(6)
    if ending == "resign":
        game.resign(game.side)
    else:
        game.agree("draw")
    text = write_record(game)
    views = drawing_of("torishogi").views(text)
    assert len(views) == len(game.turns) + 1  # the start, then one view per record line
    assert views[-1].outcome is not None


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[Game "tora"]\n\nC: c3c4\n', 1),
        ('[Game "torishogi"\n', 1),
        ('[FEN "nonsense"]\n', 1),
        ('C: c3c4\n[Game "torishogi"]\n', 2),
        ("C: c3c4\nO: banana\n", 2),
        ("X: c3c4\n", 1),
        ("C: c3c4 ; d2c2\n", 1),
        ("C: resign\nO: c5c4\n", 1),
        ("C: c3c4\nO: " + "c5c4 " * 80 + "\n", 2),
        ('[Key "a"b"]\n', 1),
    ],
)
def test_malformed_records(text: str, line: int) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("text", "turn"),
    [("C: c3c4\nC: d2c2\n", 2), ("C: c3c5\n", 1), ("O: c5c4\n", 1)],
)
def test_illegal_records(text: str, turn: int) -> None:
    with pytest.raises(ReplayError) as caught:
        read_record(text)
    assert caught.value.turn == turn


def test_moves_after_the_end_are_refused() -> None:
    with pytest.raises(ReplayError, match="game is over"):
        read_record('[FEN "k6/7/1F5/7/7/7/6K[C] w 0 1"]\nC: C@b6\nO: a7a6\n')
