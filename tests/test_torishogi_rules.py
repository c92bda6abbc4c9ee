"""One test (at least) per ruling TS1-TS12, named after it, on positions built for it."""

from __future__ import annotations

import re

import pytest

from rules.errors import ECHO, ActionError, AmbiguousAction, IllegalAction, MalformedAction
from rules.sides import Outcome, Side
from rules.torishogi import START_FEN, TORISHOGI, ToriShogiGame, parse_fen, write_fen
from rules.torishogi.board import NAMES, SQUARE_OF
from rules.torishogi.pieces import EAGLE, FALCON, GOOSE, SWALLOW
from rules.torishogi.rulings import repetition_outcome

C, O = Side.CHALLENGER, Side.OPPOSITION


def play(game: ToriShogiGame, *moves: str) -> ToriShogiGame:
    for move in moves:
        game.apply(move)
        game.end_turn()
    return game


def targets(game: ToriShogiGame, square: str) -> set[str]:
    origin = SQUARE_OF[square]
    return {NAMES[m.target] for m in game.legal_actions() if m.origin == origin}


def refusal(game: ToriShogiGame, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.parse_action(text)
    return caught.value


def test_ts1_board_and_sides() -> None:
    game = ToriShogiGame()
    assert game.side == C and game.fen().split()[1] == "w"
    assert NAMES[0] == "a1" and NAMES[6] == "g1" and NAMES[48] == "g7"
    view = game.view_for(None)
    assert {p.sq for p in view.pieces if p.side == C} >= set(range(7))  # rank 1 is the Challenger's
    assert {p.sq for p in view.pieces if p.side == O} >= set(range(42, 49))
    play(game, "c3c4")
    assert game.side == O and game.fen().split()[1] == "b"


def test_ts1_one_move_a_turn() -> None:
    game = ToriShogiGame()
    game.apply("c3c4")
    assert game.actions_left == 0 and game.legal_actions() == []
    with pytest.raises(IllegalAction) as caught:
        game.apply("d2c2")
    assert caught.value.rule == "TS1"


def test_ts2_start_position_and_fen_forms() -> None:
    assert write_fen(parse_fen(START_FEN)) == START_FEN
    assert ToriShogiGame().fen() == START_FEN
    board = START_FEN.split("[")[0]
    for form in (
        f"{board}[] w 0 1",
        f"{board} w 0 1",
        f"{board}[-] w - - 0 1",
        f"{board}[] w",
        f"{board}[-] w - -",
    ):
        assert write_fen(parse_fen(form)) == START_FEN, form
    fen = "rpckcpl/3f3/s1sssss/2s1S2/SSSSS1S/3F3/LPCKCPR[Ss] w - - 8 28"
    assert write_fen(parse_fen(fen)) == "rpckcpl/3f3/s1sssss/2s1S2/SSSSS1S/3F3/LPCKCPR[Ss] w 8 28"


# Each piece alone on d4 (the Phoenixes on b1 and f1, off every line through d4), TS3.
CHALLENGER_MOVES = {
    "S": {"d5"},
    "F": {"c5", "d5", "e5", "c4", "e4", "c3", "e3"},
    "C": {"c5", "e5", "c3", "e3", "d5", "d3"},
    "P": {"d6", "c3", "e3"},
    "L": {"d5", "d6", "d7", "e3", "f2", "g1", "c3"},
    "R": {"d5", "d6", "d7", "c3", "b2", "a1", "e3"},
    "+S": {"b6", "f6", "d2"},
    "+F": {"c4", "e4", "d5", "d3", "d2", "d1", "c5", "b6", "a7", "e5", "f6", "g7"}
    | {"c3", "b2", "e3", "f2"},
}


def _turned(square: str) -> str:
    return "abcdefg"[6 - "abcdefg".index(square[0])] + str(8 - int(square[1]))


@pytest.mark.parametrize("letter", sorted(CHALLENGER_MOVES))
def test_ts3_piece_moves(letter: str) -> None:
    game = ToriShogiGame(f"7/7/7/3{letter}3/7/7/1K3k1[-] w 0 1")
    assert targets(game, "d4") == CHALLENGER_MOVES[letter]
    turned = ToriShogiGame(f"7/7/7/3{letter.lower()}3/7/7/1K3k1[-] b 0 1")
    assert targets(turned, "d4") == {_turned(sq) for sq in CHALLENGER_MOVES[letter]}


def test_ts3_phoenix_and_blocking() -> None:
    game = ToriShogiGame("7/7/7/3K3/7/7/5k1[-] w 0 1")
    assert targets(game, "d4") == {"c5", "d5", "e5", "c4", "e4", "c3", "d3", "e3"}
    # A Left Quail's slide stops at the first piece, and takes it if it is the opponent's.
    blocked = ToriShogiGame("3s3/7/3S3/7/3L3/7/K5k[-] w 0 1")
    assert targets(blocked, "d3") == {"d4", "e2", "f1", "c2"}
    taking = ToriShogiGame("3s3/7/7/7/3L3/7/K5k[-] w 0 1")
    assert "d7" in targets(taking, "d3")
    with pytest.raises(IllegalAction) as caught:
        ToriShogiGame().parse_action("b1b3")
    assert caught.value.rule in ("TS3", "TS4")


def test_ts3_refusals_about_an_eagle_read_an_eagle_not_a_eagle() -> None:
    """Regression: a refused Eagle move read "a Eagle on 4f cannot move to 6f" (and so did an
    Eagle drop, and a move naming an Eagle that is not there)."""
    game = ToriShogiGame("k6/7/7/7/7/3+F3/6K[S] w 0 1")
    moved = refusal(game, "d2b2")
    assert moved.rule == "TS3" and moved.reason == "an Eagle on 4f cannot move to 6f"
    dropped = refusal(game, "Eagle drop 4d")
    assert dropped.rule == "TS4"
    assert dropped.reason == "an Eagle is never in hand: captures go to hand unpromoted"
    named = refusal(game, "Eagle 1g-2g")
    assert named.rule == "TS3" and named.reason == "1g holds your Phoenix, not an Eagle"
    assert refusal(game, "Falcon 4f-5f").reason == "4f holds your Eagle, not a Falcon"


def test_ts4_captures_go_to_hand_unpromoted_and_drop_anywhere_empty() -> None:
    game = ToriShogiGame("6k/7/7/3+f3/3C3/7/K6[-] w 0 1")
    event = game.apply("d3d4")
    assert event.captured == EAGLE
    game.end_turn()
    assert game.pos.hands[C][FALCON] == 1 and sum(game.pos.hands[C]) == 1
    play(game, "g7g6")
    drops = {NAMES[m.target] for m in game.legal_actions() if m.origin is None}
    assert len(drops) == 49 - 3 and "d4" not in drops
    assert refusal(game, "F@g6").rule == "TS4"
    assert refusal(game, "C@b2").rule == "TS4"


def test_ts5_promotion_is_compulsory_into_within_and_out_of_the_zone() -> None:
    game = ToriShogiGame("6k/7/2S4/7/7/7/K6[F] w 0 1")
    moves = [m.uci for m in game.legal_actions() if m.origin == SQUARE_OF["c5"]]
    assert moves == ["c5c6+"]
    play(game, "c5c6", "g7f7")  # '+' may be left out
    assert game.pos.board[SQUARE_OF["c6"]] & 15 == GOOSE
    play(game, "F@e6", "f7g7")  # dropped in the zone: stays a Falcon
    assert game.pos.board[SQUARE_OF["e6"]] & 15 == FALCON
    assert {m.uci for m in game.legal_actions() if m.origin == SQUARE_OF["e6"]} >= {
        "e6d5+",
        "e6e7+",
        "e6d6+",
    }
    play(game, "e6d5+")  # moving out of the zone promotes too
    assert game.pos.board[SQUARE_OF["d5"]] & 15 == EAGLE
    # Only the Falcon and the Swallow promote.
    crane = ToriShogiGame("6k/7/2C4/7/7/7/K6[-] w 0 1")
    assert all(not m.promotes for m in crane.legal_actions())


def test_ts6_no_swallow_drop_where_it_could_never_move() -> None:
    game = ToriShogiGame("k6/7/7/7/7/7/6K[Ss] w 0 1")
    challenger = {NAMES[m.target] for m in game.legal_actions() if m.kind == SWALLOW}
    assert not any(sq.endswith("7") for sq in challenger) and "d1" in challenger
    assert refusal(game, "S@d7").rule == "TS6"
    play(game, "g1g2")
    opposition = {NAMES[m.target] for m in game.legal_actions() if m.kind == SWALLOW}
    assert not any(sq.endswith("1") for sq in opposition) and "d7" in opposition
    assert refusal(game, "S@d1").rule == "TS6"
    with pytest.raises(ValueError, match="TS6"):
        parse_fen("k2S3/7/7/7/7/7/6K[-] w 0 1")


def test_ts7_two_swallows_per_file() -> None:
    game = ToriShogiGame("k6/7/2S4/7/2S4/7/6K[S] w 0 1")
    assert refusal(game, "S@c2").rule == "TS7"
    assert "S@d2" in {m.uci for m in game.legal_actions()}
    # A Goose is not an unpromoted Swallow: it does not count.
    goose = ToriShogiGame("k6/2+S4/7/7/2S4/7/6K[S] w 0 1")
    assert "S@c2" in {m.uci for m in goose.legal_actions()}
    # The opponent's Swallows do not count either.
    theirs = ToriShogiGame("k6/7/2s4/7/2s4/7/6K[S] w 0 1")
    assert "S@c2" in {m.uci for m in theirs.legal_actions()}


def test_ts7_no_swallow_drop_mate() -> None:
    # S@a6 would mate: b6 and b7 are covered, a6 is guarded by the Falcon.
    game = ToriShogiGame("k6/2C4/1F5/7/7/7/6K[SC] w 0 1")
    error = refusal(game, "S@a6")
    assert error.rule == "TS7" and "checkmate" in error.reason
    # Any other piece may be dropped to mate.
    assert "C@b6" in {m.uci for m in game.legal_actions()}
    # A Swallow drop that checks without mating is fine.
    open_game = ToriShogiGame("k6/7/1F5/7/7/7/6K[S] w 0 1")
    event = open_game.apply("S@a6")
    assert event.note == "check"


def test_ts8_no_move_leaves_the_phoenix_attacked() -> None:
    # The Crane on d2 is pinned by the Opposition's Left Quail on d7.
    game = ToriShogiGame("3l2k/7/7/7/4s2/3C3/3K3[-] w 0 1")
    error = refusal(game, "d2c3")
    assert error.rule == "TS8" and error.allowed == ["Crane 4f-4e"]
    assert targets(game, "d2") == {"d3"}
    # The Phoenix may not step onto an attacked square.
    assert refusal(game, "Phoenix d1-e2").rule == "TS8"
    in_check = ToriShogiGame("3l2k/7/7/7/7/7/3K3[C] w 0 1")
    assert refusal(in_check, "C@a4").rule == "TS8"
    assert {m.uci for m in in_check.legal_actions() if m.origin is None} == {
        f"C@d{rank}" for rank in range(2, 7)
    }


def test_ts8_a_move_typed_by_piece_and_destination_is_refused_for_the_check_not_ts3() -> None:
    """Regression: a pinned Crane typed 'Crane to 5e' (or a Phoenix stepping along the line of
    its check, 'Phoenix to 4f') was refused with "no Crane of yours can go to 5e now (TS3)",
    though the piece moves there by its pattern; typed with both squares, the same move was
    rightly refused with TS8. Now both forms say why the Phoenix forbids it."""
    pinned = ToriShogiGame("3l2k/7/7/7/4s2/3C3/3K3[-] w 0 1")  # the Quail on 4a pins the Crane
    assert refusal(pinned, "d2c3").reason == "Crane 4f-5e would leave your Phoenix attacked"
    for typed in ("Crane to 5e", "Crane c3"):
        error = refusal(pinned, typed)
        assert error.rule == "TS8", typed
        assert error.reason == "Crane 4f-5e would leave your Phoenix attacked", typed
        assert error.allowed == ["Crane 4f-4e"]  # every move of a Crane
    checked = ToriShogiGame("3l2k/7/7/7/7/7/3K3[C] w 0 1")  # the Quail on 4a checks
    error = refusal(checked, "Phoenix to 4f")
    assert error.rule == "TS8"
    assert error.reason == "your Phoenix would be attacked on 4f"
    assert refusal(checked, "d1d2").reason == error.reason
    assert refusal(checked, "Swallow to 4f").rule == "TS3"  # no Swallow at all: TS3 still


def test_ts8_a_drop_in_double_check_is_told_only_the_phoenix_may_move() -> None:
    """Regression: in double check (the Quail on 4a down the file, the Crane on 5f beside the
    Phoenix), 'C@d4' was refused as "a drop on 4d does not block it", though 4d blocks the
    Quail, and listed no move. Only a Phoenix move answers two checkers: the refusal says so
    and lists the Phoenix's moves, for a drop and for another piece's move alike."""
    game = ToriShogiGame("k2l3/7/7/7/7/S1c4/3K3[C] w 0 1")
    phoenix_moves = {m.readable for m in game.legal_actions()}
    assert phoenix_moves == {"Phoenix 4gx5f", "Phoenix 4g-3g", "Phoenix 4g-3f"}
    error = refusal(game, "C@d4")
    assert error.rule == "TS8"
    assert error.reason == "your Phoenix is in double check: only a Phoenix move answers it"
    assert set(error.allowed) == phoenix_moves
    moved = refusal(game, "a2a3")  # the Swallow's step
    assert (moved.rule, moved.reason) == ("TS8", error.reason)
    assert set(moved.allowed) == phoenix_moves
    single = ToriShogiGame("k2l3/7/7/7/7/7/3K3[C] w 0 1")  # the Quail alone
    assert refusal(single, "C@a4").reason == (
        "your Phoenix is in check and a drop on 7d does not block it"
    )


def test_ts9_checkmate_loses() -> None:
    game = ToriShogiGame("k6/7/1F5/7/7/7/6K[C] w 0 1")
    event = game.apply("C@b6")
    assert event.note == "checkmate"
    game.end_turn()
    assert game.outcome() == Outcome(C, "checkmate") and game.is_over()
    assert game.legal_actions() == [] and game.agreements() == ()
    with pytest.raises(IllegalAction) as caught:
        game.apply("a7b7")
    assert caught.value.rule == "TS9"


def test_ts9_stalemate_loses_too() -> None:
    game = play(ToriShogiGame("k6/2C4/1F5/7/7/7/6K[-] w 0 1"), "g1g2")
    assert game.outcome() == Outcome(C, "stalemate")


def test_ts9_a_fen_that_starts_lost_is_over() -> None:
    mated = ToriShogiGame("k6/1C5/1F5/7/7/7/6K[-] b 0 1")
    assert mated.outcome() == Outcome(C, "checkmate") and mated.actions_left == 0
    assert ToriShogiGame("k6/2C4/1F5/7/7/7/5K1[-] b 0 1").outcome() == Outcome(C, "stalemate")


def test_ts10_fourth_repetition_loses() -> None:
    game = ToriShogiGame()
    shuffle = ("d2c2", "d6c6", "c2d2", "c6d6")
    play(game, *shuffle, *shuffle)
    assert not game.is_over()  # the start position has occurred three times
    play(game, *shuffle[:3])
    game.apply(shuffle[3])
    game.end_turn()
    assert game.outcome() == Outcome(C, "fourfold repetition")  # the Opposition made it


# The Opposition's Phoenix shuttles a7-b7, the Challenger's Eagle c5-d5 checks it each time.
CHASE = "1k5/7/2+F4/7/7/7/6K[-] w 0 1"
CYCLE = ("c5d5", "b7a7", "d5c5", "a7b7")


def test_ts10_perpetual_check_loses_for_the_checking_side() -> None:
    # The start occurs for the fourth time after the Opposition's Phoenix move (a non-check):
    # the Opposition made the repetition, but the Challenger gave every check and loses.
    game = play(ToriShogiGame(CHASE), *CYCLE, *CYCLE)
    assert not game.is_over()
    play(game, *CYCLE)
    assert game.outcome() == Outcome(O, "perpetual check")


def test_ts10_perpetual_check_when_the_checker_repeats() -> None:
    # Start one ply later: now the Challenger's checking move makes the fourth occurrence.
    game = play(ToriShogiGame("k6/7/2+F4/7/7/7/6K[-] b 0 1"), "a7b7", *CYCLE, *CYCLE)
    assert not game.is_over()
    play(game, *CYCLE[:3])
    assert game.outcome() == Outcome(O, "perpetual check")


def test_ts10_mutual_perpetual_check_is_a_draw() -> None:
    key_a, key_b = (b"a", b"", 1), (b"b", b"", 0)
    history = [(key_a, True), (key_b, True)] * 3 + [(key_a, True)]
    assert repetition_outcome(history) == Outcome(None, "mutual perpetual check")
    assert repetition_outcome(history[:-2]) is None


def test_ts10_a_move_that_loses_by_repetition_is_warned_of_before_it_is_played() -> None:
    """Regression: the Falcon move that made the start position a fourth time, and lost at
    once, was offered in the menus as a plain "to 4b": ``warnings`` said nothing of any move.
    Now a move that would lose (or draw) by TS10 is warned of; one that wins by it is not."""
    game = ToriShogiGame()
    shuffle = ("d2c2", "d6c6", "c2d2", "c6d6")
    play(game, *shuffle, *shuffle, *shuffle[:3])
    assert game.warnings(["c6d6", "a7a6"]) == (
        "it would repeat a position a fourth time: you would lose by fourfold repetition (TS10)",
        "",
    )
    assert play(game.copy(), "c6d6").outcome() == Outcome(C, "fourfold repetition")
    assert not any(ToriShogiGame().warnings([m.uci for m in ToriShogiGame().legal_moves()]))
    # The checker's move that repeats loses by perpetual check; the checked side's wins.
    checker = play(ToriShogiGame("k6/7/2+F4/7/7/7/6K[-] b 0 1"), "a7b7", *CYCLE, *CYCLE)
    play(checker, *CYCLE[:2])
    assert checker.warnings(["d5c5"]) == (
        "it would repeat a position a fourth time: you would lose by perpetual check (TS10)",
    )
    checked = play(ToriShogiGame(CHASE), *CYCLE, *CYCLE, *CYCLE[:3])
    assert checked.warnings(["a7b7"]) == ("",)
    assert play(checked, "a7b7").outcome() == Outcome(O, "perpetual check")


def test_ts11_resign_and_agreed_draw() -> None:
    game = ToriShogiGame()
    game.apply("c3c4")
    event = game.resign(O)  # out of turn, dropping the Challenger's staged move
    assert game.outcome() == Outcome(C, "resignation") and game.staged() == []
    assert event.words(["ann", "bob"]) == "bob resigns"
    assert [t.texts for t in game.turns] == [["resign"]]
    draw = ToriShogiGame()
    assert draw.agreements() == ("draw",)
    draw.apply("c3c4")
    draw.agree("draw")
    assert draw.outcome() == Outcome(None, "agreed draw") and draw.turns[-1].side == C
    with pytest.raises(IllegalAction) as caught:
        ToriShogiGame().agree("reset")
    assert caught.value.rule == "TS11"
    with pytest.raises(IllegalAction):
        draw.resign(C)


def test_ts12_notation_forms() -> None:
    game = ToriShogiGame()
    for text in ("c3c4", "C3C4+", " c3 c4 ", "Swallow c3-c4", "swallow C3 - C4", "Sw c3c4"):
        assert game.parse_action(text).uci == "c3c4", text
    assert game.parse_action("Falcon d2-c2").uci == "d2c2"
    assert game.parse_action("Left Quail a1-a2").uci == "a1a2"
    captured = play(ToriShogiGame(), "e4e5", "c4c3", "Swallow e5-e6")
    assert captured.turns[-1].texts == ["e5e6+"]
    dropper = play(ToriShogiGame(), "e4e5", "c4c3")  # both sides now hold a Swallow
    for text in ("S@d4", "s@d4", "Swallow drop d4", "swallow drop on D4", "swallow@d4"):
        assert dropper.parse_action(text).uci == "S@d4", text
    with pytest.raises(IllegalAction) as caught:
        dropper.parse_action("Swallow d3xd4")
    assert caught.value.rule in ("TS3", "TS4")


def test_ts12_refusals_name_their_kind() -> None:
    game = ToriShogiGame()
    for text in ("", "hello", "z9z9", "c3c", "Falcon", "S@", "S@z1", "Q@d4", "x" * 61):
        with pytest.raises(MalformedAction) as caught:
            game.parse_action(text)
        assert "Falcon 4f-5f" in str(caught.value)  # the ToriShogi hint, not TORA's
    long = "c3c4 " * 20
    with pytest.raises(MalformedAction, match="100 characters long, the limit is 60"):
        game.parse_action(long)
    error = refusal(game, "Falcon d2-d4")
    assert error.rule == "TS3" and set(error.allowed) == {
        m.readable for m in game.legal_actions() if m.origin == SQUARE_OF["d2"]
    }
    assert refusal(game, "Crane d2-c2").rule == "TS3"
    assert refusal(game, "a7a6").rule == "TS3"
    assert refusal(game, "S@d4").rule == "TS4"
    two = ToriShogiGame("k6/7/7/7/7/2C1C2/6K[-] w 0 1")
    with pytest.raises(AmbiguousAction) as ambiguous:
        two.parse_action("Crane d3")
    assert sorted(ambiguous.value.candidates) == ["Crane 3f-4e", "Crane 5f-4e"]
    assert two.parse_action("Crane to c3").uci == "c2c3"


def test_ts12_record_round_trip() -> None:
    game = play(ToriShogiGame(), "e4e5", "c4c3", "e5e6+", "d6e6", "S@d4")
    game.headers["Challenger"] = "ann"
    text = TORISHOGI.write_record(game, None)
    assert text.splitlines()[:2] == ['[Game "torishogi"]', '[Challenger "ann"]']
    assert "C: e5e6+" in text and "C: S@d4" in text
    again = TORISHOGI.read_record(text)
    assert again.fen() == game.fen() and again.headers == {"Challenger": "ann"}


def test_ts1_people_read_the_seed_coordinates() -> None:
    """Players read the seed's diagram: files 7..1 from the Challenger's left, ranks a..g from
    the Opposition's side. Machines (notation, records, FEN) keep Fairy-Stockfish's."""
    game = ToriShogiGame()
    falcon = game.parse_action("d2c2")
    assert (falcon.uci, falcon.readable) == ("d2c2", "Falcon 4f-5f")
    groups = {group.key: group.label for group in game.menu()}
    assert groups["d2"] == "Falcon (Fa) 4f"
    assert (groups["a1"], groups["g1"]) == ("Left Quail (LQ) 7g", "Right Quail (RQ) 1g")
    assert [(c.notation, c.label) for c in game.choices("d2")] == [
        ("d2c2", "to 5f"),
        ("d2e2", "to 3f"),
    ]
    event = game.apply("Falcon 4f-5f")
    assert event.text == "d2c2" and event.words(["ann", "bob"]) == "ann's Falcon moves 4f-5f"
    assert game.staged() == ["Falcon 4f-5f"] and game.undo() == "Falcon 4f-5f"
    assert refusal(game, "d4d5").reason == "there is no piece of yours on 4d"
    assert play(game, "4f5f").turns[-1].texts == ["d2c2"]  # records keep the machines' form
    assert play(game, "c4c3").turns[-1].events[0].words(["ann", "bob"]) == (
        "bob's Swallow moves 5d-5e and captures ann's Swallow"
    )


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("[site](https://evil.example)@d4", "[site](https://evil.example)"),
        ("Falcon to ||spoil||", "||spoil||"),
        ("**S**@d4", "**s**"),
        ("Falcon to <@1234>", "<@1234>"),
        ("x" * 61, "x" * (ECHO + 1)),
    ],
)
def test_ts12_a_refusal_quotes_the_typed_text_only_code_styled_and_cut(
    text: str, token: str
) -> None:
    """A refusal quotes what was typed as ``rules.errors.echo`` does (TORA's reader alike):
    in code style, where no spoiler, masked link or mention takes effect, and cut to
    ``ECHO`` characters. (A bad piece or square was once repeated with ``repr()``, markdown
    live.)"""
    with pytest.raises(MalformedAction) as caught:
        ToriShogiGame().parse_action(text)
    message = str(caught.value)
    assert token not in re.sub(r"`[^`]*`", "", message)
    assert "x" * (ECHO + 1) not in message


def test_ts12_moves_are_read_in_either_coordinates() -> None:
    """A square starting with a letter is Fairy-Stockfish's (d2), one starting with a digit the
    board's (4f): the two never collide, so every form takes either, even mixed."""
    game = ToriShogiGame()
    for text in ("5e5d", "5E5D+", "Swallow 5e-5d", "Sw 5e 5d", "5ex5d", "Swallow 5d", "c35d"):
        assert game.parse_action(text).uci == "c3c4", text
    dropper = play(ToriShogiGame(), "e4e5", "c4c3")
    for text in ("S@4d", "S*4d", "s*d4", "Swallow drop 4d", "swallow drop on 4D"):
        assert dropper.parse_action(text).uci == "S@d4", text
    with pytest.raises(MalformedAction) as caught:
        game.parse_action("Falcon 4h-5f")
    assert "Falcon 4f-5f" in str(caught.value)  # the hint writes the board's coordinates
    assert "files 7-1" in str(caught.value)
    error = refusal(game, "Falcon 4f-4d")
    assert error.reason == "a Falcon on 4f cannot move to 4d"
    assert error.allowed == ["Falcon 4f-5f", "Falcon 4f-3f"]
    two = ToriShogiGame("k6/7/7/7/7/2C1C2/6K[-] w 0 1")
    with pytest.raises(AmbiguousAction) as ambiguous:
        two.parse_action("Crane 4e")
    assert sorted(ambiguous.value.candidates) == ["Crane 3f-4e", "Crane 5f-4e"]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Ql 7g-7f", "Left Quail 7g-7f"),  # the seed diagram's own label of the Left Quail
        ("Qr 1g-1f", "Right Quail 1g-1f"),  # ... and of the Right Quail
        ("King 4g-5f", "Phoenix 4g-5f"),  # "The Phoenix is the King in ToriShogi"
    ],
)
def test_ts12_a_move_naming_its_piece_as_the_rule_text_does_is_read(typed: str, meant: str) -> None:
    """The seed's diagram labels the Quails `Ql` and `Qr` and says the Phoenix is the King; the
    bot's own rule book (`/tora rules`) answers to `ql`, `qr` and `king`. A player who types
    the move with those names is told the text is not a move at all ("no move found")."""
    game = ToriShogiGame()
    try:
        move = game.parse_action(typed)
    except ActionError as exc:
        pytest.fail(f"{typed!r} was refused: {exc}")
    assert move.readable == meant


def test_ts12_a_piece_is_read_by_its_letter_and_the_rule_texts_promoted_label() -> None:
    """Every alias the menus' search finds a piece by is read in a typed move too: the FEN
    letter (the rule book's) and the rule text's diagram label of a promoted piece."""
    game = ToriShogiGame("k6/7/7/7/7/3+F3/6K[-] w 0 1")
    for typed in ("+Fa 4f-4e", "+F 4f-4e", "Eagle 4f-4e"):
        assert game.parse_action(typed).readable == "Eagle 4f-4e", typed
    assert game.parse_action("K 1g-2g").readable == "Phoenix 1g-2g"


def test_ts12_a_drop_written_drop_first_is_read_not_refused_for_naming_no_piece() -> None:
    """ "drop Swallow 4d" names its piece; it was refused with "a drop names its piece, like
    'Swallow drop 4d'", which is untrue of the text typed."""
    game = ToriShogiGame("k6/7/7/7/7/7/6K[S] w 0 1")
    try:
        move = game.parse_action("drop Swallow 4d")
    except ActionError as exc:
        pytest.fail(f"refused: {exc}")
    assert move.readable == "Swallow drop 4d"


def test_ts12_the_half_move_counter_resets_as_in_fairy_stockfish() -> None:
    """Fairy-Stockfish resets the counter on every capture, drop and promotion (its
    irreversible moves), so that the FEN we export is the one other ToriShogi programs write."""
    game = ToriShogiGame("k6/7/2S4/7/7/3s3/6K[Ss] w 5 10")
    counters = []
    for move in ("g1g2", "a7b7", "S@d4", "b7a7", "c5c6+", "s@c4", "g2f1", "d2d1+", "c6c4"):
        play(game, move)
        counters.append(int(game.fen().split()[-2]))
    # a drop, a promotion, a drop, a promotion, a capture: each starts the count again
    assert counters == [6, 7, 0, 1, 0, 0, 1, 0, 0]
    assert game.fen() == "k6/7/7/2+SS3/7/7/3+s1K1[S] b 0 14"
    assert write_fen(parse_fen(game.fen())) == game.fen()
