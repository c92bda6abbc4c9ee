"""Review rS: the Discord Activity (the board inside Discord), its sign-in, its proxies and
its rate limits. One failing test per bug found; each docstring says what the user (a player
or a server admin) sees and what they should see."""

from __future__ import annotations

import re
from pathlib import Path

from bot.web.guard import Limits

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_sign_in_allowance_per_address_is_the_one_enforced() -> None:
    """docs/WEB.md ("In Discord", Refusals) tells an admin the Activity's sign-ins are
    limited "to 30 at once, then one per 2 s, per client address", while the board enforces
    300 at once, then one per 0.2 s (``Limits.sign_ins``, and docs/DEPLOY.md says 300 and
    five a second). An admin sizing the deployment (or reading why a crowd got "busy")
    reads a limit ten times lower than the real one: WEB.md should state the enforced one."""
    enforced = Limits().sign_ins
    text = " ".join((ROOT / "docs" / "WEB.md").read_text(encoding="utf-8").split())
    said = re.search(r"and to (\d+) at once, then one per ([\d.]+) s, per client address", text)
    assert said is not None, "WEB.md no longer states the per-address sign-in allowance"
    assert (int(said.group(1)), float(said.group(2))) == (enforced.burst, enforced.every)


async def test_a_player_whose_match_is_in_a_thread_is_not_told_to_challenge_someone(
    tmp_path: Path,
) -> None:
    """With a thread per match (the server's setting), ann and bob play in a thread of the
    channel; ann opens the board from the App Launcher (the Entry Point command) in the
    channel itself. The Activity answers "There is no match in this channel yet: challenge
    someone with /tora challenge, ...": it sends a player with a live match off to start
    another, while the same situation in a command (``Actions._point_to_thread``) says
    "yours (match N) is in #thread". The refusal should say where her match is (its number),
    as the commands do (the instance's location names its guild)."""
    from test_web_activity import Signing, session
    from web_world import HERE, World

    from bot.service import Place, Terms
    from emulator import Emulator

    thread = Place(guild_id=HERE.guild_id, channel_id=HERE.channel_id + 50)
    async with Emulator(bot_name="TORA") as emu:
        signing = Signing(emu)  # its Activity runs in HERE's channel, the thread's parent
        async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
            ann, bob = signing.users["ann"], signing.users["bob"]
            reply = await w.service.challenge(thread, ann, bob, Terms())
            await w.service.accept(thread, bob)
            assert reply.stamp is not None
            match = reply.stamp.match
            body = {"code": signing.code("ann"), "instance": signing.instance}
            status, answer, _ = await session(w, body)
            assert status == 404, answer
            error = answer["error"]
            assert "challenge someone" not in error and str(match) in error, error
