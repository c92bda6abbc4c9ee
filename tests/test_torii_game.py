"""Torii's protocol object: staging, views, menus, events, game-level acts, records."""

from __future__ import annotations

import pickle

import pytest
from test_torii_positions import BEFORE_THE_WIN, LINES_GAME, TWO_TORII, C, O, make, play, sq

from bot.i18n import speaking, word
from rules.errors import IllegalAction
from rules.protocol import Choice, GameEvent, GameState, GameTurn, GameView
from rules.torii import TORII, RecordError, ReplayError, ToriiGame
from rules.torii.board import name
from rules.torii.menu import MENU_LIMIT
from rules.words import Text

NAMES = ("ann", "bob")


def new(c: str = "Kitsune", o: str = "Deer", powers: bool = True) -> ToriiGame:
    return TORII.new_game({"powers": powers}, ({"spirit": c}, {"spirit": o}))


def test_the_game_implements_the_protocols() -> None:
    game = new()
    assert isinstance(game, GameState)
    event = game.apply("3 c3 c4 c6")
    assert isinstance(event, GameEvent) and event.public() is event
    assert isinstance(game.view_for(None), GameView)
    assert isinstance(game.end_turn(), GameTurn)
    assert game.game_type == TORII.id == "torii" and TORII.title == "Torii"


def test_a_turn_is_one_staged_action() -> None:
    game = new()
    assert game.actions_left == 1
    game.apply("3 c3 c4 c6")
    assert (game.actions_left, game.staged(), game.legal_actions(), game.menu()) == (
        0,
        ["3 c3 c4 c6"],
        [],
        (),
    )
    with pytest.raises(IllegalAction, match="staged in full"):
        game.apply("1 c3")
    assert game.undo() == "3 c3 c4 c6"
    game.apply("1 b2")
    assert game.take_back(0) == "1 b2" and game.staged() == []
    with pytest.raises(IllegalAction, match="stage a turn"):
        game.end_turn()


def test_views_show_the_staged_turn_to_the_actor_only() -> None:
    game = new()
    game.apply("3 c3 c4 c6")
    mine, theirs, public = (game.view_for(side) for side in (C, O, None))
    assert mine.followers[C] == (sq("c3"), sq("c4"), sq("c6"))
    assert theirs.followers[C] == () and public.followers[C] == ()
    assert len(mine.staged) == 1 and theirs.staged == () and public.staged == ()
    assert mine.path == (sq("c3"), sq("c4"), sq("c6")) and mine.path_start == sq("c2")
    assert public.move is None
    game.end_turn()
    after = game.view_for(None)
    assert after.path == (sq("c3"), sq("c4"), sq("c6")) and after.last_turn[0].jumped == (sq("c5"),)
    assert after.side == O and set(after.lanes) == {
        s for s in range(36) if s % 6 == 2 or s // 6 == 5
    }
    assert after.grid()[0] == "6 . . @ . . ." and after.grid()[-1] == "  a b c d e f"


def test_spectators_and_the_opponent_cannot_tell_a_turn_is_staged() -> None:
    """A staged turn is private until it ends (rules.turn: "A turn is built out of sight";
    ToriShogi's view hides it alike): anyone but the actor sees the count of actions the
    turn began with, not the actor's own, which drops from 1 to 0 when they stage a move."""
    game = TORII.new_game({"powers": True}, ({"spirit": "Deer"}, {"spirit": "Kitsune"}))
    before = [game.view_for(viewer).actions_left for viewer in (None, O)]
    game.apply("3 c3 c4 c6")
    after = [game.view_for(viewer).actions_left for viewer in (None, O)]
    assert after == before == [1, 1] and game.view_for(C).actions_left == 0


def test_a_lapsed_turn_is_a_pass() -> None:
    game = new()
    turn = game.end_turn(deadline=True)
    assert turn.texts == ["pass"] and turn.events[0].kind == "lapse"
    assert game.side == O and game.fen().split()[4] == "13,123"
    assert turn.events[0].words(NAMES) == "ann's turn lapsed: a pass"
    record = TORII.write_record(game, None)
    assert record.rstrip().endswith("C: pass")
    assert TORII.read_record(record).fen() == game.fen()


def test_words_say_the_turn_plainly() -> None:
    game = make("..o...\n......\n......", spirits="Kc2,Dd5")
    words = game.apply("3 c3 c4 c6").words(NAMES)
    assert words == "ann's Kitsune uses tile 3: c3, c4, c6; places 3 Followers, returns 1 of bob's"
    push = new().apply("1 push d4 c3").words(NAMES)
    assert push == "ann's Kitsune moves bob's Spirit to d4, uses tile 1: c3; places 1 Follower"
    built = make(LINES_GAME, spirits="Ta2,Mf6", tiles="1,123").apply("1 a3 build b3")
    assert built.words(NAMES).endswith("builds a Torii on b3 (a3-d3), 3 Followers go home"), (
        built.words(NAMES)
    )


def test_the_monkeys_pause_in_views_and_menus() -> None:
    game = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    play(game, "1 a3 build a3 a3-d3 build a5")
    view = game.view_for(None)
    assert view.monkey_decision and view.side == O and view.actions_left == 2
    assert view.builds == (sq("a3"), sq("a5")) and view.path == (sq("a3"),)
    assert "bob decides for the Monkey" in view.summary(NAMES)
    (group,) = game.menu()
    monkey = game.choices("monkey")
    assert group.key == "monkey" and [c.notation for c in monkey] == [
        "flip C",
        "flip O",
        "flip none",
    ]
    assert monkey[0].label == (
        "Flip the opponent's tile 1 (used -> unused): no reset, tiles 2 and 3 stay used"
    )
    game.apply("flip O")
    assert game.view_for(O).tiles[O][0] and not game.view_for(None).tiles[O][0]
    game.apply("flip none")
    assert game.take_back(0) == "flip O" and game.staged() == ["flip none"]
    game.end_turn(deadline=True)
    assert game.turns[-1].texts == ["flip none", "flip none"]
    assert game.view_for(None).builds == (sq("a3"), sq("a5"))  # the move behind the decision


def test_ti15_a_monkey_flip_that_decides_the_builders_reset_says_so() -> None:
    """ann used her last unused tile and built: flipping her tile 1 back (used -> unused)
    leaves her with tile 1 only, where no flip lets TI11 reset all three; the label says so.
    Flipped back again, the next label says the reset then happens."""
    game = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    play(game, "1 a3 build b3")
    labels = {c.notation: str(c.label) for c in game.choices()}
    assert labels["flip C"].endswith("no reset, tiles 2 and 3 stay used"), labels
    assert labels["flip O"] == "Flip your tile 1 (unused -> used)"
    flipped, unflipped = game.copy(), game.copy()
    play(flipped, "flip C")
    play(unflipped, "flip none")
    assert flipped.fen().split()[4] == "1,123" and unflipped.fen().split()[4] == "123,123"
    twice = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    play(twice, "1 a3 build a3 a3-d3 build a5")
    twice.apply("flip C")
    label = next(str(c.label) for c in twice.choices() if c.notation == "flip C")
    assert label.endswith("(unused -> used): then all three reset to unused"), label


def test_the_public_board_does_not_count_down_staged_monkey_decisions() -> None:
    """The public board says "Waiting for X's Monkey (n decisions)" from the spectator's
    view's ``actions_left`` (render/torii/panels.py): with two decisions owed, staging one
    (not yet ended) leaves 2 in the spectator's and the builder's view; the Monkey's owner
    alone sees their progress."""
    game = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    play(game, "1 a3 build a3 a3-d3 build a5")
    assert game.deciding and game.view_for(None).actions_left == 2
    game.apply("flip O")
    assert [game.view_for(viewer).actions_left for viewer in (None, C)] == [2, 2]
    assert game.view_for(O).actions_left == 1


def test_ti15_the_monkey_menu_after_a_winning_turn_counts_the_torii_before_the_win() -> None:
    """ann's turn builds a Torii on e4, then her winning 4th on d4: bob owes one decision, and
    his menu does not say "one per Torii just built" with two just built."""
    game = TORII.from_fen(BEFORE_THE_WIN.format("B"), {})
    play(game, TWO_TORII)
    (group,) = game.menu()
    assert str(group.description) == (
        "1 decision to make: one per Torii built before the winning one"
    )
    plain = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    play(plain, "1 a3 build a3 a3-d3 build a5")
    (group,) = plain.menu()
    assert str(group.description) == "2 decisions to make: one per Torii just built"


def test_ti18_a_turn_option_that_wins_says_so() -> None:
    """The menus', the Play panel's and autocomplete's option of a turn that wins read
    only its steps and builds ("e2, e4, d4, then build on e4 ..."), while its turn's post
    says "and wins: all 4 Torii built". The option now says it wins, as the post does; the
    others do not."""
    game = TORII.from_fen(BEFORE_THE_WIN.format("B"), {})
    wins = []
    for choice in game.choices():
        twin = game.copy()
        twin.apply(choice.notation)
        won = any(event.won for event in twin.staged_events(C))
        assert str(choice.label).endswith(", wins: all 4 Torii built") == won, choice.label
        assert str(choice.path[-1]).endswith(", wins: all 4 Torii built") == won, choice.path
        wins += [choice.notation] if won else []
    assert TWO_TORII in wins


# a Kitsune-Monkey game whose Challenger then wins with two Torii built after a flip
TO_A_LONG_WIN = [
    "1 push b5 d2", "3 c5 e5 e4", "3 c2 b2 a2 build d2", "flip none", "2 e3 f3", "1 push f4 a1",
    "1 e4", "3 b1 c1 d1 build d1", "flip O", "3 e5 e6 c6 build e4", "2 d2 b2", "2 d6 e6",
    "3 b3 b4 b5 build b5", "flip O", "2 f6 f4 build f6 flip C", "2 b3 a3",
]  # fmt: skip


def test_ti18_a_long_winning_option_stays_worded_and_says_it_wins() -> None:
    """A winning turn with two builds and a flip read "..., then build on f3, wins: all 4
    Tor…": the win's words took it past a menu's 100 characters, so it was cut, and cut
    into plain English (de, es, fr, ja, pt_BR read it untranslated). It says it wins in
    fewer words then, whole and worded."""
    game = TORII.new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Monkey"}))
    for turn in TO_A_LONG_WIN:
        play(game, turn)
    (choice,) = (c for c in game.choices() if c.notation.endswith("flip C build f3"))
    assert isinstance(choice.label, Text), choice.label
    assert str(choice.label).endswith("then build on f3, wins"), choice.label
    with speaking("de"):
        assert word(choice.label).endswith("Sieg"), word(choice.label)


def test_a_won_turn_waits_in_views_for_the_monkeys_answer() -> None:
    game = TORII.from_fen(BEFORE_THE_WIN.format("B"), {})
    play(game, TWO_TORII)
    assert game.turns[-1].events[0].words(NAMES).endswith("and wins: all 4 Torii built")
    view = game.view_for(None)
    assert (view.outcome, view.winner, view.monkey_decision) == (None, None, True)
    assert view.torii_left[C] == 0 and view.side == O and view.actions_left == 1
    summary = view.summary(NAMES)
    assert summary.endswith("bob decides for the Monkey, then ann wins (all 4 Torii built)")
    assert [c.notation for c in game.choices("monkey")] == ["flip C", "flip O", "flip none"]
    game.apply("flip O")
    assert game.view_for(O).outcome is None  # the answer is staged, not played
    resigned = game.copy()
    resigned.resign(O)  # the game is not over until the answer: TI18 still allows it
    assert str(resigned.outcome()) == "challenger wins (resignation)"
    game.end_turn()
    final = game.view_for(None)
    assert final.winner == C and final.outcome == "challenger wins (all 4 Torii built)"
    assert final.tiles[O][0] and not final.monkey_decision and final.lanes == ()
    assert final.builds == (sq("e4"), sq("d4"))  # the move behind the answer


def test_menus_reach_every_turn_in_small_steps() -> None:
    game = new("Deer", "Crane")
    groups = game.menu()
    assert [g.key for g in groups] == ["tile-1", "tile-3"]
    assert groups[1].label == "Tile 3 (3 steps)" and groups[1].category == "tiles"
    notations = [c.notation for c in game.choices()]
    assert sorted(notations) == sorted(game.notation(a) for a in game.legal_actions())
    for group in groups:
        _check_tree(game.choices(group.key))
    three = game.choices("tile-3")
    assert len(three) == groups[1].size > MENU_LIMIT
    assert three[0].path == ("first step to c3", "then c4", "then c6")
    assert three[-1].path == ("first step to b1", "then c1, e1")


def _check_tree(choices: tuple[Choice, ...]) -> None:
    paths = [c.path for c in choices]
    assert len(set(paths)) == len(paths)
    children: dict[tuple[str, ...], set[str]] = {}
    for path in paths:
        assert all(0 < len(step) <= 100 for step in path)
        for depth in range(len(path)):
            children.setdefault(path[:depth], set()).add(path[depth])
    assert all(len(options) <= MENU_LIMIT for options in children.values())
    leaves = set(paths)
    assert not any(path[:-1] in leaves for path in paths)


def test_power_groups_in_the_menu() -> None:
    crane = make(".O.O..\n......\n......", spirits="Ca1,Kd5")
    keys = [g.key for g in crane.menu()]
    assert keys == ["tile-1", "tile-2", "tile-3", "fly-b3"]
    fly = next(g for g in crane.menu() if g.key == "fly-b3")
    flights = crane.choices("fly-b3")
    assert fly.category == "powers" and all(c.notation.startswith("fly b3 ") for c in flights)
    assert new().choices("push")[0].label == "push to d6, tile 1: c3"
    boar = make(".C....\n......", spirits="Be1,Kd5")
    assert "torii-move" in [g.key for g in boar.menu()]
    passing = make(tiles="-,123")
    (only,) = passing.menu()
    assert only.key == "pass" and passing.choices("pass")[0].notation == "pass"


def test_game_level_acts_drop_staged_actions() -> None:
    game = new()
    game.apply("1 c3")
    event = game.agree("draw")
    assert event.words(NAMES) == "ann and bob agree a draw"
    assert game.turns[-1].texts == ["draw"] and game.outcome().reason == "agreed draw"
    with pytest.raises(IllegalAction):
        game.resign(C)
    with pytest.raises(IllegalAction):
        new().agree("reset")


def test_copies_are_independent_and_games_pickle() -> None:
    game = new()
    play(game, "3 c3 c4 c6")
    twin = game.copy()
    twin.apply("3 d4 d3 e3")
    twin.end_turn()
    assert len(game.turns) == 1 and len(twin.turns) == 2
    game.legal_actions()
    back = pickle.loads(pickle.dumps(game))
    assert back.fen() == game.fen() and back.turns == game.turns
    assert [back.notation(a) for a in back.legal_actions()] == [
        game.notation(a) for a in game.legal_actions()
    ]


def test_records_round_trip_with_every_kind_of_line() -> None:
    game = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    game.headers["Challenger"] = 'ann "the bold"'
    play(game, "1 a3 build b3", "flip C", "3 e6 e5 e4")
    game.resign(C)
    record = TORII.write_record(game, "judge")
    assert '[FEN "c5/c5/c5/1ccc2/6/6 Ka2,Mf6 3,9 4,4 1,123 C on"]' in record
    assert '[Challenger "ann \\"the bold\\""]' in record
    assert '[Result "0-1"]' in record and '[Termination "resignation"]' in record
    assert record.rstrip().endswith("C: 1 a3 build b3\nO: flip C\nO: 3 e6 e5 e4\nC: resign")
    again = TORII.read_record(record)
    assert TORII.write_record(again, None) == record
    assert again.headers["Challenger"] == 'ann "the bold"'


@pytest.mark.parametrize(
    ("text", "error", "where"),
    [
        ('[Game "chess"]\n', RecordError, "torii"),
        ('[Game "torii"]\n[ChallengerSpirit "Deer"]\n', RecordError, "OppositionSpirit"),
        (
            '[Game "torii"]\n[ChallengerSpirit "Deer"]\n[OppositionSpirit "Cat"]\n',
            RecordError,
            "Spirit",
        ),
        ("[Game torii]\n", RecordError, "looks like"),
        ('[Game "tor"ii"]\n', RecordError, "quote"),
        ("x" * (1 << 20 + 1), RecordError, "limit"),
    ],
)
def test_record_errors(text: str, error: type, where: str) -> None:
    with pytest.raises(error, match=where):
        TORII.read_record(text)


HEAD = '[Game "torii"]\n[ChallengerSpirit "Deer"]\n[OppositionSpirit "Boar"]\n[Powers "off"]\n\n'


def test_replay_errors_name_the_turn() -> None:
    with pytest.raises(ReplayError) as info:
        TORII.read_record(HEAD + "C: 3 c3 c4 c6\nO: 3 c4\n")
    assert (info.value.turn, info.value.action) == (2, 1)
    with pytest.raises(ReplayError, match="opposition's turn"):
        TORII.read_record(HEAD + "C: 3 c3 c4 c6\nC: 1 b6\n")
    with pytest.raises(RecordError, match="line 6"):
        TORII.read_record(HEAD + "C: 3 c3 c4 %\n")
    with pytest.raises(RecordError, match="starts with"):
        TORII.read_record(HEAD + "X: 3 c3 c4 c6\n")
    with pytest.raises(ReplayError, match="game is over"):
        TORII.read_record(HEAD + "C: resign\nO: 3 d4 d3 e3\n")
    assert name(TORII.read_record(HEAD + "C: 3 c3 c4 c6\n").pos.spirits[C]) == "c6"
