"""What the menus keep of one state for the next is what that state would have said: a
group's header and choices are found again only where they read the same (``menu._kept``),
and so are an autocomplete entry's words (``finding._found_by``)."""

from __future__ import annotations

import random

import pytest
from choices_oracle import menu as oracle_menu
from positions import C, O, begin, put, sq
from test_autocomplete_exact import fresh, states

from bot.i18n import speaking
from bot.service import finding
from rules.protocol import Choice, ChoiceGroup
from rules.tora import Game
from rules.tora import menu as menus
from rules.tora.actions import FIRE, MOVE, Action
from rules.words import Text, msg


@pytest.mark.parametrize("start", ["tora-short", "tora-long"])
def test_each_state_of_a_match_has_its_own_headers(start: str) -> None:
    """Played one action at a time (where kept groups are found again most), each state's
    headers, counts and summaries included, are those worked out afresh."""
    for game in states(start, 8, 40 if start == "tora-short" else 16):
        assert isinstance(game, Game)
        other = fresh(game)
        assert isinstance(other, Game)
        assert game.menu_and_choices() == (oracle_menu(other), other.choices())


def _ruler_game(rulers: tuple[str, str]) -> Game:
    game = Game(board="short", rulers=rulers)
    for pid in list(game.pos.pieces):
        game.pos.remove(pid)
    put(game, C, "R", "v5h5")
    put(game, C, "S", "v5h4")
    put(game, O, "R", "v5h1")
    return begin(game, C)


def test_a_ruler_is_named_as_its_side_writes_it_in_every_match() -> None:
    """Two matches alike but for how the Challenger's Ruler is written: each names it its
    own way, though the first's menus are kept when the second asks."""
    for rulers, name in ((("K", "Q"), "King"), (("Q", "K"), "Queen"), (("K", "K"), "King")):
        headers, choices = _ruler_game(rulers).menu_and_choices()
        ruler = next(group for group in headers if group.key == "Rv5h5")
        assert ruler.label == f"{name} v5h5"
        assert {c.notation[0] for c in choices if c.group == "Rv5h5"} == {rulers[0]}


class _Menus:
    """A state that offers ``choices`` under ``groups``, for ``finding.entries``."""

    def __init__(self, groups: tuple[ChoiceGroup, ...], choices: tuple[Choice, ...]) -> None:
        self._answer = groups, choices

    def menu_and_choices(self) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
        return self._answer


def test_an_action_is_found_by_the_words_of_the_group_and_the_path_it_is_under() -> None:
    """The same action in the same words, under another piece's name or another menu
    path: each is found by its own."""
    move = Choice("Fa 4f-5f", "to 5f", ("to 5f",), "Fa4f")
    falcon = ChoiceGroup("Fa4f", "Falcon 4f", "1 move", "Falcon", 1, "4f", ("hawk",))
    eagle = ChoiceGroup("Fa4f", "Eagle 4f", "1 move", "Eagle", 1, "4f", ("bird",))
    states = [
        ((falcon,), move),
        ((eagle,), move),
        ((falcon,), Choice("Fa 4f-5f", "to 5f", ("north", "to 5f"), "Fa4f")),
        ((), move),  # a choice of no group shown
    ]
    random.Random(1).shuffle(states)
    for groups, choice in states * 2:
        (entry,) = finding.entries(_Menus(groups, (choice,)))  # type: ignore[arg-type]
        words = entry.spaced.split()
        assert entry.group == (groups[0].label if groups else None)
        assert ("eagle" in words) == ("bird" in words) == (groups == (eagle,))
        assert ("falcon" in words) == ("hawk" in words) == (groups == (falcon,))
        assert ("north" in words) == (len(choice.path) > 1)
        assert words[:3] == ["fa", "4f", "5f"]


def test_an_action_said_alike_in_english_is_shown_in_its_own_words() -> None:
    """Two messages that say the same in English: each entry is worded from its own."""
    group = ChoiceGroup("Gv5h7", "General v5h7", "1 move", "Generals", 1, "v5h7")
    worded = msg("move to {square}", square="v4h6")
    plain = Text("move to v4h6", {})  # a message no catalog holds: English in every language
    for label in (worded, plain, worded):
        menus = _Menus((group,), (Choice("G v5h7-v4h6", label, (label,), "Gv5h7"),))
        (entry,) = finding.entries(menus)  # type: ignore[arg-type]
        with speaking("de"):
            assert finding.shown(entry).endswith(
                "nach v4h6 ziehen" if label is worded else "move to v4h6"
            )


def test_a_choice_is_found_again_only_where_it_says_the_same() -> None:
    """A choice kept for later states (``menu._choice``) comes back only for what it says:
    the same action said twice in its group, in a long menu, onto an enemy or attacking
    one, in another group or along another line of fire reads differently each time."""
    game = Game(board="short")
    v5h7, v4h6, v3h6 = (sq(game, s) for s in ("v5h7", "v4h6", "v3h6"))
    move = Action(MOVE, "G", v5h7, (v4h6,))
    attack = Action(MOVE, "G", v5h7, (v4h6,), v3h6)
    fire = Action(FIRE, "C", v5h7, direction=0)
    asked = [
        (move, "G v5h7-v4h6", ("", "", ""), False, True, "Gv5h7", ()),
        (move, "G v5h7-v4h6", ("", "", ""), True, True, "Gv5h7", ()),
        (move, "G v5h7-v4h6", ("", "", ""), False, False, "Gv5h7", ()),
        (move, "G v5h7-v4h6", ("Soldier", "", menus.TAKE), False, True, "Gv5h7", ()),
        (move, "G v5h7-v4h6", ("General", "", menus.STRIKE), False, True, "Gv5h7", ()),
        (move, "G v5h7-v4h6", ("Soldier", "", menus.TRADE), False, True, "Gv5h7", ()),
        (move, "G v5h7-v4h6", ("", "", ""), False, True, "Xv5h7", ()),
        (attack, "G v5h7-v4h6 x v3h6", ("", "", ""), False, True, "Gv5h7", ()),
        (attack, "G v5h7-v4h6 x v3h6", ("", "Soldier", ""), False, True, "Gv5h7", ()),
        (fire, "C v5h7 fire n", ("", "", ""), False, True, "Cv5h7", (v4h6,)),
        (fire, "C v5h7 fire n", ("", "", ""), False, True, "Cv5h7", (v4h6, v3h6)),
    ]
    for _ in range(2):  # the second time, each is found kept
        made = [menus._choice(*args) for args in asked]
        assert len({(c.label, c.path, c.group, c.touches) for c in made}) == len(asked)


def _facing(enemy: str) -> Game:
    """A Challenger's General beside one enemy piece of kind ``enemy``, nothing else near."""
    game = Game(board="short")
    for pid in list(game.pos.pieces):
        game.pos.remove(pid)
    put(game, C, "R", "v1h1")
    put(game, O, "R", "v9h9")
    put(game, C, "G", "v5h5")
    put(game, O, enemy, "v4h5")
    return begin(game, C)


def test_a_piece_with_the_same_actions_names_the_enemy_it_faces() -> None:
    """Two states where a General has the same actions onto the same square, facing a
    Soldier in one and an Archer in the other: the second, asked after the first's menus
    were kept, names its own enemy."""
    for first, second in (("S", "A"), ("A", "S"), ("S", "A")):
        kept, asked = _facing(first), _facing(second)
        kept.menu_and_choices()
        assert kept.legal_actions() == asked.legal_actions()
        assert asked.menu_and_choices() == (oracle_menu(fresh(asked)), fresh(asked).choices())
        assert asked.menu_and_choices() != kept.menu_and_choices()
