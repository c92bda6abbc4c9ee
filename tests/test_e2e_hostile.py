"""End to end, hostile input through the emulator: the longest texts Discord lets through,
regular-expression bombs, markdown and mention syntax in every free-text option, numbers at
the edge of Discord's integers. Each is refused with a specific message, pings nobody,
changes nothing, and is answered about as fast as a plain refusal (a ratio measured in the
same test, not a time: the machine's speed cancels out)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from test_e2e_resilience import start_match

from bot.i18n import own_command
from emulator import Interaction
from emulator.interactions import COMPONENT
from harness.stage import Stage

RATIO = 10  # a hostile request may take at most this many times a plain refusal
SPACES = " " * 128
BOMB = f"A v{SPACES}5{SPACES}h{SPACES}z"  # once 17 s at 606 characters
MARKUP = "@everyone @here <@&1> <@1> **bold** __u__ `x` ||s|| <#1> [l](https://x.y)"
HUGE = 2**53 - 1  # Discord's largest integer option


async def state(stage: Stage) -> tuple[Any, ...]:
    """Everything a command could change: the hosted matches (their versions move on any
    write), the matches' logs, the outbox, and what every channel shows."""
    assert stage.bot is not None and stage.bot.store is not None
    store = stage.bot.store
    live = await store.hosting.live()
    logs = [await store.public_log(h.match_id) for h in live if h.match_id is not None]
    posts = {  # messages of the bot's own, not answers to the commands
        c: len([m for m in stage.emu.messages(c) if m.interaction_id is None])
        for c in stage.emu.world.channels
    }
    return (live, logs, await store.hosting.private_queue(), posts)


async def timed(
    stage: Stage, who: str, path: tuple[str, ...], wanted: str = "", **values: Any
) -> tuple[Interaction, float]:
    """The answer, once it holds ``wanted`` (a refusal to a publicly deferred command comes
    privately, after a neutral public note), and how long it took."""
    start = time.perf_counter()
    done = await stage.slash(who, *path, **values)
    await stage.emu.wait_until(lambda: wanted in done.text, 10, f"{wanted!r} in the answer")
    return done, time.perf_counter() - start


async def test_hostile_inputs_are_refused_quickly_changing_nothing(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "carl", "admin")) as stage:
        await start_match(stage)
        await stage.quiet()
        ann_dm = stage.emu.dm_channel(stage.user["ann"])
        plain = [(await timed(stage, "ann", ("act",), action="hello"))[1] for _ in range(5)]
        baseline = statistics.median(plain)
        cases: list[tuple[str, tuple[str, ...], dict[str, Any], str]] = [
            ("ann", ("act",), {"action": BOMB}, "and an action is at most 160"),
            ("ann", ("act",), {"action": "x" * 400}, "400 characters long"),
            ("ann", ("act",), {"action": MARKUP[:150]}, "Cannot read `@everyone @here"),
            ("ann", ("undo",), {"number": 99}, "nothing to take back"),
            ("carl", ("act",), {"action": MARKUP[:150]}, "Only ann (Challenger) and bob"),
            ("carl", ("record",), {"number": HUGE}, f"There is no match {HUGE} in this"),
            ("carl", ("replay",), {"number": HUGE}, f"There is no match {HUGE} in this"),
            ("carl", ("rules",), {"topic": "r" + "9" * 99}, "There is no ruling `r999"),
            ("carl", ("rules",), {"topic": MARKUP}, "No ruling of any game mentions `@every"),
            ("carl", ("challenge",), {"deadline": "9" * 39 + "h"}, "number too large"),
            ("carl", ("challenge",), {"expires": "inf"}, "`inf` is not a duration"),
            ("carl", ("challenge",), {"terrain": MARKUP[:20]}, "board has no terrain `@every"),
            (
                "carl",
                ("challenge",),
                {"terrain": "custom", "terrain_map": "water " + "v 1 " * 497},
                "The terrain map cannot be used",
            ),
            ("admin", ("admin", "settings"), {"deadline": "1e999h"}, "is not a duration"),
            ("carl", ("tournament", "register"), {"name": MARKUP[:60]}, "no tournament called `@"),
            ("bob", ("setup",), {"strategy": MARKUP[:20]}, "The game has begun"),
            ("ann", ("board",), {"match": "9" * 20, "channel": ann_dm}, "no live match `999"),
        ]
        before = await state(stage)
        for who, path, values, refusal in cases:
            times = []
            for _ in range(3):
                done, took = await timed(stage, who, path, refusal, **values)
                times.append(took)
                assert done.error is None, (path, values, done.error)
                assert refusal in done.text, (path, done.text)
                assert len(done.text) < 1000  # never the whole input echoed back
                assert all(not m.pinged for m in done.messages), (path, done.messages)
            # the quickest of three: a cost of the input shows in each, a stall of the
            # machine under the suite's load (a fresh-clone CI met an 18x median) in few
            ratio = min(times) / baseline
            assert ratio <= RATIO, f"{path} {str(values)[:60]}: {ratio:.1f} times a plain refusal"
        await stage.quiet()
        assert await state(stage) == before


async def test_a_match_number_out_of_range_is_refused_saying_which_are_allowed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a record or replay number past 2**63 (from a client that skips Discord's
    own check of the option's range) answered "Something went wrong" and logged an error."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await start_match(stage)
        for command in ("record", "replay"):
            for number in (2**63, 2**64, 10**40, HUGE + 1, 0, -5, -(2**64)):
                option = {"type": 4, "name": "number", "value": number}
                sent = await stage.emu.slash(
                    stage.user["carl"],
                    stage.channel,
                    "tora",
                    options=[{"type": 1, "name": command, "options": [option]}],
                )
                done = await sent.done(30)
                assert done.error is None
                assert done.text == (f"`number` takes a whole number from 1 to {HUGE}."), (
                    command,
                    number,
                )
        answered = await stage.slash("carl", "record", number=HUGE)
        assert answered.text == f"There is no match {HUGE} in this server."
    assert "command failed" not in caplog.text


async def test_every_number_out_of_its_range_is_refused_by_name(tmp_path: Path) -> None:
    """Regression: a tournament's target of 2**64 (from a client that skips Discord's own
    check) answered "Something went wrong"; every numeric option is checked against the
    range it declares before its command runs, and nothing changes."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        cases = [
            (("tournament", "create"), {"name": "Cup", "board": "short", "target": 2**64}),
            (("ladder", "show"), {"page": 10**30}),
            (("undo",), {"number": -(2**70)}),
            (("challenge",), {"target": 2**64}),
            (("challenge",), {"forfeit_after": 100}),
        ]
        for path, values in cases:
            options = [
                {"type": 4 if isinstance(v, int) else 3, "name": k, "value": v}
                for k, v in values.items()
            ]
            command, *groups, leaf = own_command(["tora", *path])
            tree: list[dict] = [{"type": 1, "name": leaf, "options": options}]
            for group in reversed(groups):
                tree = [{"type": 2, "name": group, "options": tree}]
            sent = await stage.emu.slash(stage.user["carl"], stage.channel, command, options=tree)
            done = await sent.done(30)
            assert done.error is None
            number = next(k for k, v in values.items() if isinstance(v, int))
            assert done.text.startswith(f"`{number}` takes a whole number from "), done.text
        assert "Something went wrong" not in " ".join(
            m.text() for m in stage.emu.messages(stage.channel)
        )


def forge(
    stage: Stage, who: str, message_id: int, custom_id: str, values: list[str] | None = None
) -> Interaction:
    """What a modified client sends: a click (or a pick) of ``custom_id`` on a message the
    user can see, whatever that message really shows."""
    emu = stage.emu
    msg = emu.world.messages[message_id]
    saved = msg.components
    if values is None:
        item: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    else:
        options = [{"label": v[:100], "value": v} for v in values]
        item = {"type": 3, "custom_id": custom_id, "options": options}
    msg.components = [{"type": 1, "components": [item]}]
    try:
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": item["type"]}
        if values is not None:
            data["values"] = values
        return emu._send(COMPONENT, stage.user[who], msg.channel_id, data, msg.id)
    finally:
        msg.components = saved


async def other_server(stage: Stage) -> tuple[int, int]:
    """A second server with its own channel, and eve, a member of it alone: the first
    server's channels are nothing she can see."""
    emu = stage.emu
    guild = emu.add_guild("elsewhere")
    channel = emu.add_channel(guild, "lobby")
    eve = emu.add_user("eve")
    emu.world.guild(stage.guild).members.pop(eve)
    stage.user["eve"] = eve
    await emu.wait_until(lambda: stage.bot is not None, 5)
    return guild, channel


async def test_a_forged_accept_from_another_server_joins_nothing(tmp_path: Path) -> None:
    """Regression: eve, who is not in the server, accepted ann's open challenge there with
    a forged ``tora:accept:<that channel>:-`` pressed on a message of her own server, and
    the match started with her as ann's opponent (a button's match was taken from its
    custom id, never checked against where it was pressed)."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        _, lobby = await other_server(stage)
        await stage.slash("ann", "challenge")
        await stage.posted("challenge")
        mine = await stage.slash("eve", "games", channel=lobby)  # any message eve can see
        forged = forge(stage, "eve", mine.response.id, f"tora:accept:{stage.channel}:-")
        done = await forged.done(30)
        assert stage.bot is not None
        live = await stage.bot.store.hosting.live()
        eve = stage.user["eve"]
        joined = [h for h in live if eve in (h.challenger_id, h.opposition_id, h.invitee_id)]
        assert not joined, f"eve joined a match of a server she is not in: {done.text!r}"


async def test_a_forged_preview_or_play_shows_no_match_of_another_server(tmp_path: Path) -> None:
    """Regression: eve, who is not in the server, forged ``tora:preview:<its channel>:-``
    (or the Play button's id) and was shown that server's match, its players and board,
    though the bot's commands refuse another server's matches to anyone but their players;
    and the answer differed from a channel where no match is played, so it told her a match
    was there. Both are answered as where there is none."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        _, lobby = await other_server(stage)
        await stage.slash("ann", "challenge", opponent="bob")
        await stage.click("bob", "Accept")
        await stage.posted("accept")
        mine = await stage.slash("eve", "games", channel=lobby)
        for verb, stamp in (("preview", "-"), ("play", "m1t0")):
            forged = forge(stage, "eve", mine.response.id, f"tora:{verb}:{stage.channel}:{stamp}")
            seen = await forged.done(30)
            nothing = forge(stage, "eve", mine.response.id, f"tora:{verb}:{lobby}:{stamp}")
            empty = await nothing.done(30)
            assert "ann" not in seen.text and not seen.files, seen.text
            assert seen.text == empty.text, (seen.text, empty.text)


async def test_a_forged_panel_pick_on_a_public_post_leaves_it_as_it_is(
    tmp_path: Path,
) -> None:
    """Regression: carl, a bystander, forged a Play panel pick for a match that is over
    (``m99``) on ann's public challenge post, and the stale refusal "turned the panel off"
    by editing the message the pick came from: the challenge post lost its Accept and
    Decline buttons for bob and everyone (as would any public post with buttons). A panel's
    or a setup form's pick acts only in the caller's own message; elsewhere it is refused to
    them alone."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await stage.slash("ann", "challenge", opponent="bob")
        message_id, _ = await stage.emu.wait_until(
            lambda: _button(stage, "Accept"), 30, "the Accept button"
        )
        post = stage.emu.world.messages[message_id]
        assert post.ephemeral_to is None
        custom_id = f"tora:pb:refresh:{stage.channel}:m99t0"
        done = await forge(stage, "carl", message_id, custom_id).done(15)
        labels = [b.get("label") for b in post.buttons() if not b.get("disabled")]
        assert "Accept" in labels, (labels, done.text)
        assert "shown to you alone" in done.text, done.text
        setup = f"tora:su:{stage.channel}:m99t0:strategy:0"
        done = await forge(stage, "carl", message_id, setup).done(15)
        labels = [b.get("label") for b in post.buttons() if not b.get("disabled")]
        assert "Accept" in labels and "shown to you alone" in done.text, (labels, done.text)


def _button(stage: Stage, label: str) -> tuple[int, str] | None:
    try:
        return stage.emu.find_button(stage.channel, label)
    except LookupError:
        return None


async def test_a_forged_settings_pick_on_a_public_post_leaves_it_as_it_is(tmp_path: Path) -> None:
    """Regression: carl forged a notifications toggle (``tora:nt:me:dm_turn:off``) on ann's
    public challenge post, and the pick was answered by editing the message it came from:
    the challenge post showed carl's settings form to the whole channel, its challenge text
    and its Accept and Decline buttons gone. Now refused to carl alone."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await stage.slash("ann", "challenge", opponent="bob")
        message_id, _ = await stage.emu.wait_until(
            lambda: _button(stage, "Accept"), 30, "the Accept button"
        )
        post = stage.emu.world.messages[message_id]
        done = await forge(stage, "carl", message_id, "tora:nt:me:dm_turn:off").done(15)
        assert "challenges bob" in post.text(), (post.text(), done.text)
        labels = [b.get("label") for b in post.buttons() if not b.get("disabled")]
        assert "Accept" in labels, labels
        assert "shown to you alone" in done.text, done.text


async def test_a_custom_id_with_a_number_past_any_id_is_refused_as_stale(
    tmp_path: Path,
) -> None:
    """Regression: every component template takes a channel of up to 20 digits, past
    SQLite's 2**63: the lookup of the channel's match raised OverflowError and the user was
    told "Something went wrong" (logged as a failure) instead of a refusal, for every kind
    of component."""
    big = "9" * 20
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        mine = await stage.slash("ann", "games")
        forged = [
            (f"tora:preview:{big}:-", None),
            (f"tora:end:{big}:m1t1", None),
            (f"tora:end:{stage.channel}:m{big}t1", None),
            (f"tora:enter:{big}:-", None),
            (f"tora:play:{big}:m1t1", None),
            (f"tora:pb:end:{big}:m1t1", None),
            (f"tora:pn:{big}:m1t1:c:::", ["a"]),
            (f"tora:su:{big}:m1t0:strategy:0", None),
        ]
        failed = []
        for custom_id, values in forged:
            done = await forge(stage, "ann", mine.response.id, custom_id, values).done(15)
            if done.error is not None or "Something went wrong" in done.text:
                failed.append(custom_id)
        assert not failed, failed


async def test_a_panel_step_pick_of_a_superscript_digit_is_answered(
    tmp_path: Path,
) -> None:
    """Regression: a pick in a Play panel's step menu whose value is ``²`` (``str.isdigit``
    is true, ``int`` refuses it) raised in ``panel._deeper`` before the pick was answered:
    the user saw "This interaction failed" instead of an answer."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        mine = await stage.slash("ann", "games")
        custom_id = f"tora:pn:{stage.channel}:m1t1:s:::"
        forged = forge(stage, "ann", mine.response.id, custom_id, values=["\u00b2"])
        done = await forged.done(10)
        assert done.error is None and done.text
        assert "Something went wrong" not in done.text, done.text


async def test_a_forged_join_tells_no_other_servers_tournament_apart(tmp_path: Path) -> None:
    """Regression: eve's forged ``tora:enter:<id>:-`` from her own server was refused "That
    tournament belongs to another server." for an event of another server, and "no longer
    exists" for an id no event has, so counting through the ids told her which servers hold
    events; both are answered alike now."""
    async with Stage(tmp_path, ("admin", "ann")) as stage:
        _, lobby = await other_server(stage)
        await stage.slash("admin", "tournament create", name="Spring", format="swiss")
        _, join = await stage.emu.wait_until(lambda: _button(stage, "Join"), 30, "the Join button")
        mine = await stage.slash("eve", "games", channel=lobby)
        there = await forge(stage, "eve", mine.response.id, join).done(15)
        event = int(join.split(":")[2])
        gone = await forge(stage, "eve", mine.response.id, f"tora:enter:{event + 99}:-").done(15)
        assert there.text == gone.text, (there.text, gone.text)
