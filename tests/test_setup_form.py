"""The setup form's components, built from any game's setup questions: a question with a
few options is a row of buttons, one with more a select menu that shows what each option
means, a free-text question a select of what the host offers, in parts of 25 when there are
more; every custom id fits Discord's 100 characters and names its match and question."""

from __future__ import annotations

import discord

from bot.discord.setup_form import SetupButton, SetupSelect, view_of
from bot.service import Stamp
from bot.service.questions import Field, SetupForm

CHANNEL = 10**19  # a snowflake of Discord's largest length
STAMP = Stamp(10**12, 0)


def form(*fields: Field) -> SetupForm:
    return SetupForm(STAMP, "Choose.", fields, False)


async def test_few_options_are_buttons_and_more_a_select_with_their_meanings() -> None:
    strategy = Field("strategy", "Your deployment", ("aggressive", "defensive"), ("a", "d"), None)
    spirits = tuple(f"Spirit{n}" for n in range(6))
    spirit = Field("spirit", "Pick", spirits, tuple(f"power {n}" for n in range(6)), "Spirit2")
    view = view_of(CHANNEL, form(strategy, spirit))
    buttons = [item for item in view.children if isinstance(item, SetupButton)]
    assert [b.item.label for b in buttons] == ["Strategy: aggressive", "Strategy: defensive"]
    (select,) = [item for item in view.children if isinstance(item, SetupSelect)]
    options = select.item.options
    assert [o.description for o in options] == [f"power {n}" for n in range(6)]
    assert [o.value for o in options if o.default] == ["Spirit2"]
    assert all(len(item.item.custom_id or "") <= 100 for item in view.children)
    assert select.item.custom_id == f"tora:ss:{CHANNEL}:m{STAMP.match}t0:spirit:0"


async def test_a_free_text_question_offers_its_squares_in_parts_of_25() -> None:
    squares = (*(f"v{n}h17" for n in range(1, 31)), "none")
    assassin = Field("assassin", "Where", squares, ("",) * 31, None, free=True)
    view = view_of(CHANNEL, form(assassin))
    selects = [item.item for item in view.children if isinstance(item, SetupSelect)]
    assert [len(s.options) for s in selects] == [25, 6]
    assert [o.value for s in selects for o in s.options] == list(squares)
    assert "v1h17 to v25h17" in (selects[0].placeholder or "")
    assert all(o.description is None for s in selects for o in s.options)
    few = Field("assassin", "Where", ("v3h17", "none"), ("", ""), None, free=True)
    (only,) = view_of(CHANNEL, form(few)).children
    assert isinstance(only.item, discord.ui.Select)  # free text: a select even when few


async def test_a_question_waiting_for_another_says_so_in_its_menu() -> None:
    waiting = "choose your strategy first: it decides the squares"
    assassin = Field("assassin", "Where", ("none",), ("",), None, free=True, waiting=waiting)
    (only,) = view_of(CHANNEL, form(assassin)).children
    assert only.item.placeholder == f"Assassin: {waiting}"
