"""End to end, when things go wrong: the bot process is killed (SIGKILL) mid-match and
started again, and the match goes on (the staged turn kept, the old buttons still working);
Discord answers 429 with retry_after and a 500, drops the gateway (discord.py resumes), and a
user's DMs refuse the bot (the fallback only they see, and no retry loop). ``python -m bot
sync`` refused (a token, a server) or cut off from Discord, and ``python -m bot`` on a
database it cannot open, say what to fix in one line."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from emulator import Emulator, Msg
from harness.stage import Stage
from storage.backends.migrations import LATEST

ROOT = Path(__file__).resolve().parent.parent


async def start_match(stage: Stage) -> None:
    await stage.slash("ann", "challenge", opponent="bob")
    await stage.click("bob", "Accept")
    await stage.slash("ann", "setup", strategy="aggressive")
    await stage.slash("bob", "setup", strategy="defensive")
    await stage.posted("The game begins")


async def test_the_bot_is_killed_mid_match_and_the_match_goes_on(tmp_path: Path) -> None:
    async with Stage(tmp_path, process=True) as stage:
        await start_match(stage)
        staged = await stage.slash("ann", "act", action="A v5h7-v5h6")
        assert staged.text.startswith("Staged: A v5h7-v5h6")
        await stage.kill()
        await stage.launch()
        ended = await stage.click("ann", "End turn")  # the button from before the crash
        assert ended.error is None and ended.text == "Your turn is over."
        await stage.posted("`A v5h7-v5h6`")  # the action staged before the crash
        played = await stage.slash("bob", "act", action="A v5h3-v5h4")
        assert played.text.startswith("Staged: A v5h3-v5h4")
        await stage.click("bob", "End turn")
        await stage.posted("`A v5h3-v5h4`")
        before = len(stage.emu.public_messages(stage.channel))
        assert await stage.stop_bot() == 0  # SIGTERM: a clean, successful stop
        assert len(stage.emu.public_messages(stage.channel)) == before
        posts = [m.text() for m in stage.emu.public_messages(stage.channel)]
        assert len(posts) == len(set(posts))  # nothing posted twice around the crash


async def test_429_500_a_dropped_gateway_and_closed_dms(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        emu, channel = stage.emu, stage.channel

        def only_bob(needle: str) -> Callable[[Msg], bool]:
            return lambda m: m.ephemeral_to == stage.user["bob"] and needle in m.text()

        emu.fail_next("POST", rf"^/channels/{channel}/messages$", status=429, retry_after=0.3)
        await stage.slash("ann", "challenge", opponent="bob")
        await stage.posted("ann challenges bob")
        emu.refuse_dms(stage.user["bob"])
        await stage.click("bob", "Accept")
        fallback = await emu.wait_for_message(channel, only_bob("Choose your setup privately"))
        assert "direct messages are closed" in fallback.text()
        emu.fail_next("POST", rf"^/channels/{channel}/messages$", status=500)
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")
        await emu.drop_gateway(4000)
        await emu.wait_until(lambda: emu.resumes >= 1, 30, "a resume")
        await stage.slash("ann", "act", action="A v5h7-v5h6")
        await stage.click("ann", "End turn")  # bob's "your turn": DMs closed, remembered
        turn = await emu.wait_for_message(channel, only_bob("Your turn against"))
        assert turn.files  # his own board, shown to him alone
        await stage.quiet()
        bob_dm = rf"^/channels/{emu.dm_channel(stage.user['bob'])}/messages$"
        refused = [r for r in emu.requests if re.match(bob_dm, r.path) and r.status == 403]
        assert len(refused) == 1  # asked once; then straight to the fallback
        public = [m.text() for m in emu.public_messages(channel)]
        assert sum("ann challenges bob" in t for t in public) == 1  # the 429: once
        assert sum("The game begins" in t for t in public) == 1  # the 500: once
        assert not any(
            "Choose your setup privately" in t or "Your turn against" in t for t in public
        )


def _children(pid: int) -> list[int]:
    """Every process whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_a_kill_during_a_ladder_pairing_and_no_worker_outlives_the_bot(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann", "bob", "cid", "dee"), process=True, channels=2) as stage:
        emu, lobby = stage.emu, stage.channels[1]
        # a long-board turn end starts the rules worker process
        await stage.slash("cid", "challenge", opponent="dee", board="long", channel=lobby)
        await stage.click("dee", "Accept", channel=lobby)
        await stage.slash("cid", "setup", strategy="aggressive", ruler="K", channel=lobby)
        await stage.slash("dee", "setup", strategy="aggressive", ruler="K", channel=lobby)
        await stage.slash("cid", "end", channel=lobby)
        await stage.posted("cid (Challenger) ended their turn", channel=lobby)
        workers = _children(stage.bot_pid)
        assert workers  # the rules worker (and multiprocessing's helpers)
        # the pairing is taken off the queue; the bot dies opening its thread
        await stage.slash("ann", "ladder", "queue", board="short")
        held = emu.stall("POST", rf"^/channels/{stage.channel}/threads$")
        queued = await emu.slash(
            stage.user["bob"], stage.channel, "tora-ladder", "queue", board="short"
        )
        await asyncio.wait_for(held.reached.wait(), 30)
        # its answer held up with the thread, bob's command is deferred (in its first 0.25 s)
        await emu.wait_until(lambda: queued.acknowledged or None, 30, "bob's deferral")
        await stage.kill()
        held.release()  # nobody listens any more: the thread is never made
        until = asyncio.get_running_loop().time() + 10
        while any(_alive(pid) for pid in workers) and asyncio.get_running_loop().time() < until:
            await asyncio.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)
        await stage.launch()  # the start-up opens the pairing's match
        await emu.wait_until(lambda: emu.threads(stage.channel) or None, 30, "the match's thread")
        [thread] = emu.threads(stage.channel)  # one thread, one match
        intro = await stage.posted("ladder match, paired from the queue", channel=thread)
        assert "ann" in intro and "bob" in intro


async def test_a_dm_fallback_cut_off_before_discord_read_it_is_never_shown_twice(
    tmp_path: Path,
) -> None:
    """The other side of showing a fallback at most once (Discord takes no idempotency key
    for it, and a bot that dies while sending it cannot tell whether Discord got it): one
    cut off before Discord read it is not shown after the restart either. The player loses
    nothing he needs: he sets up with /tora setup all the same."""
    async with Stage(tmp_path, process=True) as stage:
        emu, channel, bob = stage.emu, stage.channel, stage.user["bob"]
        emu.refuse_dms(bob)
        await stage.slash("ann", "challenge", opponent="bob")
        held = emu.stall("POST", r"^/webhooks/")  # bob's setup prompt, never carried out
        await stage.click("bob", "Accept")
        await asyncio.wait_for(held.reached.wait(), 30)
        await stage.kill()
        held.release()
        await stage.launch()
        await stage.slash("bob", "board")  # an interaction the bot could show it on
        await asyncio.sleep(2.5)  # past the outbox's first retry
        prompts = [
            m
            for m in emu.messages(channel)
            if m.ephemeral_to == bob and "Choose your setup privately" in m.text()
        ]
        assert prompts == []
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")


async def test_a_kill_inside_a_dm_fallback_that_discord_showed_does_not_show_it_again(
    tmp_path: Path,
) -> None:
    """Regression: the bot died after Discord had shown bob's setup prompt (his DMs closed)
    and before it had noted so in the outbox row; after the restart it showed it again."""
    async with Stage(tmp_path, process=True) as stage:
        emu, channel, bob = stage.emu, stage.channel, stage.user["bob"]
        emu.refuse_dms(bob)
        await stage.slash("ann", "challenge", opponent="bob")
        held = emu.stall("POST", r"^/webhooks/", carried=True)  # shown; the answer held
        await stage.click("bob", "Accept")
        await asyncio.wait_for(held.reached.wait(), 30)
        await stage.kill()
        held.release()
        await stage.launch()

        def prompts() -> list[Msg]:
            return [
                m
                for m in emu.messages(channel)
                if m.ephemeral_to == bob and "Choose your setup privately" in m.text()
            ]

        assert len(prompts()) == 1  # shown before the kill
        for _ in range(2):
            await stage.slash("bob", "board")  # an interaction the bot could show it on
            await asyncio.sleep(2.5)  # past the outbox's first retry
        assert len(prompts()) == 1  # and never again


async def test_a_player_with_closed_dms_still_gets_his_turn_after_picking_in_the_setup_form(
    tmp_path: Path,
) -> None:
    """Regression: bob's DMs are closed and he picks his strategy in the setup form shown to
    him in the channel; his "your turn" never came (his latest interaction, the pick, was
    never counted as answered, so nothing could follow it up) until he typed a command."""
    async with Stage(tmp_path) as stage:
        emu, channel, bob = stage.emu, stage.channel, stage.user["bob"]

        def only_bob(needle: str) -> Callable[[Msg], bool]:
            return lambda m: m.ephemeral_to == bob and needle in m.text()

        await stage.slash("ann", "challenge", opponent="bob")
        await stage.posted("ann challenges bob")
        emu.refuse_dms(bob)
        await stage.click("bob", "Accept")
        await emu.wait_for_message(channel, only_bob("direct messages are closed"))
        found = await emu.wait_until(
            lambda: _button(stage, "Strategy: defensive", bob), 30, "the form's button"
        )
        picked = await (await emu.click(bob, *found)).done(30)
        assert not picked.errors, picked.errors
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="A v5h7-v5h6")
        await stage.click("ann", "End turn")
        turn = await emu.wait_for_message(channel, only_bob("Your turn against"), 15)
        assert turn.files  # his own board, shown to him alone
        assert not any("Your turn against" in m.text() for m in emu.public_messages(channel))


def _button(stage: Stage, label: str, user: int) -> tuple[int, str] | None:
    """The message and custom id of an enabled button ``user`` sees, once there is one."""
    try:
        return stage.emu.find_button(stage.channel, label, user=user)
    except LookupError:
        return None


async def test_the_setup_form_shown_to_a_player_with_closed_dms_turns_off_once_the_game_begins(
    tmp_path: Path,
) -> None:
    """Regression: bob's DMs are closed, so his setup form is shown to him alone in the
    channel; once the game began its buttons stayed live (only posts and DMs were swept).
    It is disabled like his DM's would be, what he chose still marked."""
    async with Stage(tmp_path) as stage:
        emu, channel, bob = stage.emu, stage.channel, stage.user["bob"]
        await stage.slash("ann", "challenge", opponent="bob")
        await stage.posted("ann challenges bob")
        emu.refuse_dms(bob)
        await stage.click("bob", "Accept")
        form = await emu.wait_for_message(
            channel, lambda m: m.ephemeral_to == bob and "Choose your setup privately" in m.text()
        )
        found = await emu.wait_until(
            lambda: _button(stage, "Strategy: defensive", bob), 30, "the form's button"
        )
        await (await emu.click(bob, *found)).done(30)
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.posted("The game begins")
        await stage.quiet()
        shown = next(m for m in emu.messages(channel) if m.id == form.id)
        strategies = [b for b in shown.buttons() if b.get("label", "").startswith("Strategy")]
        assert strategies and all(b.get("disabled") for b in strategies), shown.components
        assert [b["label"] for b in strategies if b.get("style") == 3] == ["Strategy: defensive"]


async def _python_m_bot(*args: str, **env: str) -> tuple[int, str]:
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        "TORA_RULES": "pure",
        **env,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=environ,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, (out + err).decode()


async def test_sync_with_a_refused_token_says_so_without_a_traceback(tmp_path) -> None:
    """README step 2: ``DISCORD_TOKEN=... python -m bot sync --guild <id>``. A mistyped
    token (the commonest first-run mistake) ends in discord.py's raw traceback
    (``LoginFailure: Improper token has been passed.``), where ``python -m bot`` itself
    logs "Discord refused the token: check DISCORD_TOKEN". Regression: sync let it out."""
    async with Emulator(bot_name="TORA") as emu:
        env = {
            "DISCORD_TOKEN": "not-the-token",
            "TORA_DISCORD_API": emu.api_base,
            "TORA_DB": str(tmp_path / "tora.sqlite3"),
        }
        guild = str(emu.add_guild("Test server"))
        status, output = await _python_m_bot("sync", "--guild", guild, **env)
    assert status != 0
    assert "Traceback" not in output, output[-600:]
    assert "DISCORD_TOKEN" in output


async def test_sync_to_a_server_the_bot_is_not_in_says_so_without_a_traceback(tmp_path) -> None:
    """``python -m bot sync --guild <a server the bot is not in>`` (a mistyped id): a raw
    ``discord.errors.NotFound`` traceback instead of a line naming the server and saying to
    invite the bot there or check the id. Regression: sync let it out."""
    async with Emulator(bot_name="TORA") as emu:
        env = {
            "DISCORD_TOKEN": emu.token,
            "TORA_DISCORD_API": emu.api_base,
            "TORA_DB": str(tmp_path / "tora.sqlite3"),
        }
        status, output = await _python_m_bot("sync", "--guild", "12345", **env)
    assert status != 0
    assert "Traceback" not in output, output[-600:]
    assert "12345" in output


async def test_sync_cut_off_from_discord_says_so_without_a_traceback(tmp_path) -> None:
    """Discord unreachable (no network, a wrong TORA_DISCORD_API): aiohttp's raw
    ``ClientConnectorError`` traceback, where one line should say Discord could not be
    reached and where the bot looked for it. Regression: sync let it out."""
    env = {
        "DISCORD_TOKEN": "t",
        "TORA_DISCORD_API": "http://127.0.0.1:9/api/v10",
        "TORA_DB": str(tmp_path / "tora.sqlite3"),
    }
    status, output = await _python_m_bot("sync", "--guild", "12345", **env)
    assert status == 1
    assert "Traceback" not in output, output[-600:]
    assert "cannot reach Discord" in output and "127.0.0.1:9" in output


async def test_the_bot_cut_off_from_discord_at_start_says_so_without_a_traceback(
    tmp_path,
) -> None:
    """``python -m bot`` with Discord unreachable (no network, a mistyped TORA_DISCORD_API):
    "the bot stopped on an error" with aiohttp's ``ClientConnectorError`` traceback, where
    ``python -m bot sync`` says in one line that Discord could not be reached and where the
    bot looked for it. Regression: only sync said so."""
    env = {
        "DISCORD_TOKEN": "t",
        "TORA_DISCORD_API": "http://127.0.0.1:9/api/v10",
        "TORA_DB": str(tmp_path / "tora.sqlite3"),
        "TORA_WEB": "off",
    }
    status, output = await _python_m_bot(**env)
    assert status == 1
    assert "Traceback" not in output, output[-600:]
    assert "cannot reach Discord at http://127.0.0.1:9/api/v10" in output


@pytest.mark.parametrize("kind", ["not-a-database", "unreachable-postgresql"])
async def test_an_unusable_database_is_named_at_start_without_a_traceback(tmp_path, kind) -> None:
    """``python -m bot`` with TORA_DB naming a file that is no database, or a PostgreSQL
    server that cannot be reached: one JSON log line "the bot stopped on an error" holding a
    Python traceback, where ``python -m storage check`` says "cannot open <db>: <why>". The
    admin is not told that TORA_DB is what to fix. Regression: build's error was logged with
    its traceback."""
    if kind == "not-a-database":
        where = tmp_path / "tora.sqlite3"
        where.write_text("not a database\n")
        db = str(where)
    else:
        db = "postgresql://tora@127.0.0.1:1/tora"
    status, output = await _python_m_bot(
        DISCORD_TOKEN="t",
        TORA_DB=db,
        TORA_AI_PROCESSES="0",
        TORA_WEB_PORT="0",
        TORA_DISCORD_API="http://127.0.0.1:9/api/v10",
    )
    assert status == 2  # as the other settings refused
    assert "Traceback" not in output, output[-600:]
    assert f"cannot open {db}" in output and "TORA_DB" in output


async def test_a_database_url_whose_password_holds_a_slash_is_refused_at_start() -> None:
    """TORA_DB=postgresql://tora:s3/cret@db/tora (a password with an unencoded '/', so that
    the URL's port reads "s3"): refused in one line naming TORA_DB, exit 2, as an
    unreachable server is, without a traceback and without a piece of the password.
    Regression: asyncpg's ValueError ("invalid literal for int() ...: 's3'") was logged
    with its traceback."""
    status, output = await _python_m_bot(
        DISCORD_TOKEN="t",
        TORA_DB="postgresql://tora:s3/cret@127.0.0.1/tora",
        TORA_AI_PROCESSES="0",
        TORA_WEB_PORT="0",
        TORA_DISCORD_API="http://127.0.0.1:9/api/v10",
    )
    assert "Traceback" not in output, output[-600:]
    assert status == 2 and "TORA_DB" in output, output[-600:]
    assert "s3" not in output and "cret" not in output, output[-600:]


async def test_a_database_of_a_newer_bot_is_refused_at_start_without_a_traceback(
    tmp_path: Path,
) -> None:
    """A deploy rolled back to the previous image meets a database a newer bot migrated: one
    line saying the schema is newer (run a newer bot), exit 2 as for a database it cannot
    open. Regression: "the bot stopped on an error" with SchemaTooNew's traceback, exit 1."""
    db = tmp_path / "tora.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.commit()
    conn.close()
    status, output = await _python_m_bot(
        DISCORD_TOKEN="t",
        TORA_DB=str(db),
        TORA_AI_PROCESSES="0",
        TORA_WEB_PORT="0",
        TORA_DISCORD_API="http://127.0.0.1:9/api/v10",
    )
    assert "Traceback" not in output, output[-600:]
    assert status == 2, output[-600:]
    assert f"schema version {LATEST + 1}" in output and str(db) in output, output[-600:]
