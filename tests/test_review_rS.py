"""Review rS: the Discord Activity (the board inside Discord), its sign-in, its proxies and
its rate limits. One failing test per bug found; each docstring says what the user (a player
or a server admin) sees and what they should see."""

from __future__ import annotations

import contextlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


async def test_play_with_the_activity_on_still_answers_while_the_database_is_away(
    tmp_path: Path,
) -> None:
    """With ``TORA_ACTIVITY=on``, Play first reads which match the Activity would show
    (``Activities.launches``, bot/discord/panel.py ``play``) outside any of the handlers'
    failure handling. While the database does not answer (a restart, a failover), that read
    raises: the Play button of ann's "your turn" DM gets no callback at all (Discord says
    "This interaction failed"), and ``/tora play`` the generic "Something went wrong on my
    side (ref ...)". With the Activity off the same moment gives the Play panel, and
    ``/tora play`` "The match database is not answering just now...". Turning the Activity
    on should not turn a database blip into a dead Play button: a failed read should fall
    back to the Play panel (or say what is wrong), as the Activity's other refusals do."""
    from typing import Any

    from test_e2e_activity import started

    from harness.stage import Stage
    from storage import DatabaseUnavailable

    async with Stage(tmp_path, ("ann", "bob"), activity=True) as stage:
        await started(stage)
        assert stage.bot is not None
        records = stage.bot.service.records

        async def away(*args: Any, **kwargs: Any) -> Any:
            raise DatabaseUnavailable("the database is away (simulated)")

        records.live_in_channel = away  # type: ignore[method-assign]
        records.of_user = away  # type: ignore[method-assign]
        user = stage.user["ann"]
        message, custom_id = stage.emu.find_button(stage.emu.dm_channel(user), "Play", user=user)
        pressed = await stage.emu.click(user, message, custom_id)
        with contextlib.suppress(TimeoutError):
            await pressed.done(8)
        assert pressed.acknowledged, "the Play button got no answer at all"
        typed = await stage.slash("ann", "play")
        assert "Something went wrong" not in typed.text, typed.text
