"""Review rC3: typed input to the slash commands (durations, dates, ruling ids, autocomplete).
Each test fails on the bug it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import rulebook
from bot.app.callers import Caller
from bot.app.parsing import BadDuration, parse_duration
from bot.app.time_off import TimeOff
from bot.service import Place, Refused, User
from bot.service.people import checked_zone
from bot.service.testing import Harness
from harness.stage import Stage
from test_service_away import started as started_away
from test_service_flows import started

HERE = Place(guild_id=1, channel_id=100)
ANN = User(1, "ann")


async def test_a_bank_of_0s_is_refused_not_silently_made_a_bank_of_7_days(tmp_path: Path) -> None:
    """`/tora challenge clock:bank bank:0s` posts a challenge "with a bank of 7 days each":
    the 0s typed is taken for "not given" and replaced by the default. The player should be
    refused as `Terms.check` refuses a bank of nothing ("A bank holds more than nothing and
    at most 60 days; 0 s is not."), not be bound to terms they did not ask for. (The same
    cause makes `/tora-admin settings bank:0s` answer "Saved." and keep the old bank, and
    `increment:0s` become a day.)"""
    async with Stage(tmp_path, ("carl",)) as stage:
        done = await stage.slash("carl", "challenge", clock="bank", bank="0s")
        await stage.quiet()
        posted = "\n".join(m.text() for m in stage.emu.messages(stage.channel))
        assert "a bank of 7 days" not in posted, posted
        assert "bank" in done.text.lower() and "challenge is posted" not in done.text, done.text


async def test_away_until_a_date_in_another_form_is_told_how_to_write_a_date(
    h: Harness,
) -> None:
    """`/tora away until:2027/03/01` (or `01.03.2027`) answers "`2027/03/01` is not a
    duration: write a number and a unit, e.g. `90m`, `24h`...": the option takes a date, but
    the refusal never says so, nor how to write one. It should name the date form too (as
    `until:2027-02-30` is told "write it as `2027-03-01`")."""
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    for typed in ("2027/03/01", "01.03.2027"):
        with pytest.raises(ValueError) as refused:
            await TimeOff(h.running).away(caller, until=typed)
        assert "2027-03-01" in str(refused.value), str(refused.value)


def test_rules_autocomplete_offers_a_ruling_id_typed_with_a_space() -> None:
    """`/tora rules topic:r 25` finds R25 (the command reads the id with a space), but its
    autocomplete offers nothing while it is typed (Discord shows "no options match"): the
    suggestions compare the raw text with "R25 Trapped · TORA". They should offer R25 as the
    command finds it."""
    assert "**R25 Trapped.**" in rulebook.lookup("r 25")
    assert any(name.startswith("R25 ") for name in rulebook.topics("r 25"))


def test_a_ruling_id_in_full_width_characters_is_found() -> None:
    """A player typing with a Japanese input method (the bot speaks 日本語) asks
    `/tora rules topic:Ｒ２５` and is told "No ruling of any game mentions `Ｒ２５`. Try a
    ruling id (`R25`...)" -- what looks like the very id suggested. Full-width letters and
    digits should be read as their ASCII forms (NFKC), as the away date already reads
    full-width digits."""
    assert "**R25 Trapped.**" in rulebook.lookup("Ｒ２５")


def test_full_width_digits_in_a_duration_are_read() -> None:
    """`/tora challenge deadline:３d` (full-width 3, as a Japanese input method types it) is
    refused: "`３d` is not a duration: write a number and a unit, e.g. ... `3d`" -- the
    example looks like what was typed. The digits should be read (`/tora away
    until:２０２７-０３-０１` already is), or the refusal should say the digits are not ASCII."""
    try:
        seconds = parse_duration("３d")
    except BadDuration as refused:
        pytest.fail(f"full-width digits refused: {refused}")
    assert seconds == 3 * 86400


def test_a_time_zone_typed_in_lowercase_is_taken() -> None:
    """`/tora settings timezone:utc` answers "`utc` is not a time zone I know: write one as
    ... or `UTC`" (and `europe/paris` likewise): the zone is matched case-sensitively, so the
    refusal offers what looks like the very text typed. The IANA name should be found
    whatever its case and stored as spelled (`UTC`, `Europe/Paris`)."""
    for typed, zone in (("utc", "UTC"), ("europe/paris", "Europe/Paris")):
        try:
            assert checked_zone(typed) == zone
        except Refused as refused:
            pytest.fail(f"{typed!r} refused: {refused}")


async def test_action_autocomplete_after_several_typed_actions_keeps_the_choices_apart(
    h: Harness,
) -> None:
    """`/tora act` after six actions typed with `;` (a turn may hold one action per command
    piece, as the rule book says) then `archer`: Discord shows 25 suggestions of which only two labels
    differ, each cut at 100 characters to "G v5h9-v4h9; ... ; Archer v3h9: move to v": the
    player cannot tell which square each stands for. (One action more, and there is no
    suggestion at all, with no hint why.) The label should keep the new action's words whole
    (shortening what was already typed, e.g. "…; Archer v3h9: move to v4h9")."""
    await started(h)
    prefix = "; ".join(["G v5h9-v4h9"] * 6)
    offered = await h.service.choices(HERE, ANN, prefix + "; archer")
    names = [shown for shown, _value in offered]
    assert offered and len(set(names)) == len(names), names[:4]


async def test_away_with_start_and_until_both_past_is_refused_not_stored_backwards(
    h: Harness,
) -> None:
    """`/tora away start:2027-01-01 until:2027-01-05` typed on 15 January answers "You are
    away from <now> until <10 days ago> (4 days; 10 of 14 left this year) ... 1 match was
    told": the start is moved to now after the days were counted and `until` checked against
    the typed start, so a time away ending before it begins is stored and the opponent told
    of it (and the next `/tora away` starting now fails with a database error: "Something
    went wrong"). It should be refused: the time away would end in the past."""
    await started_away(h)
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    with pytest.raises((Refused, ValueError)):
        await TimeOff(h.running).away(caller, start="2027-01-01", until="2027-01-05")
    stored = await h.running._ctx.store.aways(HERE.guild_id, [ANN.id], 0)
    assert all(a.starts_at < a.ends_at for a in stored), stored


async def test_away_from_a_past_start_says_the_days_it_really_counts(h: Harness) -> None:
    """`/tora away start:2027-01-10 until:2027-01-16` on Friday 15 January answers "(6 days;
    8 of 14 left this year)", but the time away stored runs from now to the 16th and
    `/tora away` then says 13 of 14 left: the answer counts from the typed past start. It
    should count the days from when the time away really begins (1 day; 13 of 14 left), or
    refuse a start in the past."""
    await started_away(h)
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    answer = await TimeOff(h.running).away(caller, start="2027-01-10", until="2027-01-16")
    status = await h.running.away_days(HERE.guild_id, ANN)
    assert "13 away days left" in status.text
    assert "13 of 14 left" in answer.text, answer.text
