"""End to end against the local Discord emulator (the unmodified discord.py client talks to
it over HTTP and the gateway): two users play a short game to its end with slash commands
and buttons, and every interaction is answered, none "failed"."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import pytest

from bot.service import Undeliverable
from emulator.models import ChannelType, Perm
from harness import demo
from harness.stage import Stage, free_port, planned_turn
from rules.tora import Game, Side

SEED = 54  # a game that ends (loss of command) in 10 turns with attacks preferred


async def test_two_users_play_a_short_game_to_its_end(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        challenge = await stage.slash("ann", "challenge", opponent="bob", deadline="2h")
        assert challenge.error is None and challenge.ephemeral
        await stage.posted("ann challenges bob to a match of TORA")
        accepted = await stage.click("bob", "Accept")
        assert "You accepted the challenge" in accepted.text
        for name in ("ann", "bob"):
            picked = await stage.emu.autocomplete(
                stage.user[name], stage.channel, "tora", "setup", focused="strategy", strategy="a"
            )
            assert [c["value"] for c in picked] == ["aggressive"]
            await stage.slash(name, "setup", strategy="aggressive")
        await stage.posted("The game begins")

        game = Game(board="short", challenger_setup="aggressive", opposition_setup="aggressive")
        rng = random.Random(SEED)
        interactions = [challenge, accepted]
        turn = 0
        while not game.is_over():
            name = "ann" if game.side == Side.CHALLENGER else "bob"
            texts = planned_turn(game, rng)
            for text in texts:
                offered = await stage.emu.autocomplete(
                    stage.user[name], stage.channel, "tora", "act", focused="action",
                    action=text[:6],
                )  # fmt: skip
                assert text in [c["value"] for c in offered] or len(offered) == 25
                staged = await stage.slash(name, "act", action=text)
                assert staged.text.startswith("Staged:"), staged.text
                assert staged.files and staged.ephemeral  # the preview, for them alone
                interactions.append(staged)
            if turn % 2:  # by the button on the last reply, or by the command
                ended = await stage.click(name, "End turn")
            else:
                ended = await stage.slash(name, "end")
            interactions.append(ended)
            turn += 1
            if not game.is_over():
                assert ended.text.endswith("Your turn is over."), ended.text
                await stage.posted(f"Score: ann {game.scores()[0]}, bob {game.scores()[1]}")

        winner = "bob" if game.outcome().winner == Side.OPPOSITION else "ann"
        final = await stage.posted("Final score")
        assert winner in final and "The full record is attached." in final
        last = stage.emu.public_messages(stage.channel)[-1]
        assert {f.name for f in last.files} == {"board.png", f"tora-match-{1}.tora"}
        assert all(i.error is None and i.latency is not None for i in interactions)
        assert max(i.latency for i in interactions) < 3.0  # Discord's limit to the first answer

        replay = await stage.slash("ann", "replay", number=1)
        assert replay.files and replay.files[0].name == "tora-match-1.gif"
        assert not replay.ephemeral  # a finished match's replay is public
        record = (await stage.slash("ann", "record", number=1)).files[0].data.decode()
        assert sum(line[:2] in ("C:", "O:") for line in record.splitlines()) == turn

        ladder = await stage.slash("ann", "ladder", "show")  # the game was rated
        assert f"1. {winner}" in ladder.text and ladder.files and not ladder.ephemeral
        profile = await stage.slash("bob", "ladder", "profile", player="ann")
        assert profile.text.startswith("ann on the ladders") and profile.error is None


async def test_threads_admin_settings_and_a_turn_played_from_a_dm(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        # /tora-admin is offered to Manage Server alone, and in servers alone
        with pytest.raises(ValueError, match="hidden from ann"):
            await stage.slash("ann", "admin settings", threads=True)
        admins_dm = stage.emu.dm_channel(stage.user["admin"])
        with pytest.raises(ValueError, match="not available in DMs"):
            await stage.slash("admin", "admin settings", channel=admins_dm)
        saved = await stage.slash("admin", "admin settings", threads=True, deadline="2h")
        assert saved.text.startswith("Saved.") and "2 h" in saved.text
        challenge = await stage.slash("ann", "challenge", opponent="bob")
        thread = stage.emu.thread_of(stage.channel)
        assert thread is not None and f"<#{thread}>" in challenge.text
        await stage.posted(f"is in <#{thread}>")  # the channel is told where it went
        await stage.posted("ann challenges bob", channel=thread)
        await stage.click("bob", "Accept", channel=thread)
        dm = stage.emu.dm_channel(stage.user["ann"])
        await stage.slash("ann", "setup", strategy="aggressive", channel=dm)
        await stage.slash("bob", "setup", strategy="defensive", channel=thread)
        await stage.posted("The game begins", channel=thread)
        offered = await stage.emu.autocomplete(
            stage.user["ann"], dm, "tora", "act", focused="action", action="A v5h7-v5"
        )
        staged = await stage.slash("ann", "act", action=offered[0]["value"], channel=dm)
        assert staged.text.startswith(
            "-# Match 1 \u00b7 TORA \u00b7 ann vs bob \u00b7 https://discord.com/"
        )
        assert "\nStaged:" in staged.text and staged.files
        ended = await stage.click("ann", "End turn", channel=dm)
        assert ended.text.startswith("-# Match 1 \u00b7 TORA \u00b7 ann vs bob \u00b7 https://")
        assert ended.text.endswith("\nYour turn is over.")  # named, as the command's answer
        await stage.posted("ann (Challenger) ended their turn", channel=thread)
        spectator = await stage.slash("admin", "board", channel=thread)
        assert not spectator.ephemeral and spectator.files  # the public board, in public
        own = await stage.slash("bob", "board", channel=thread)
        assert own.ephemeral and own.files  # a player's own board, for them alone
        cancelled = await stage.slash("admin", "admin cancel", channel=thread)
        assert cancelled.error is None
        await stage.posted("cancel", channel=thread)


async def test_the_demo_writes_a_readable_transcript_and_says_where_its_pages_are(
    tmp_path: Path,
) -> None:
    port = free_port()
    written, where = await demo.run(tmp_path / "demo-out", port=port)
    board, finished, rematch, bob, ann = where
    base = f"http://127.0.0.1:{port}"
    assert board == f"The web board is at {base}:"
    assert finished.endswith(f"{base}/m/1") and rematch.endswith(f"{base}/m/2")
    assert f"bob's own board (plays bob's turns): {base}/play#" in bob
    assert f"ann's own board (plays ann's turns): {base}/play#" in ann
    text = written.read_text()
    assert text.startswith("# A TORA match on Discord")
    assert "**bob** `[Accept]`" in text and "Final score" in text
    images = sorted((tmp_path / "demo-out" / "images").iterdir())
    assert any(p.name.endswith("-board.png") for p in images)
    assert all(f"(images/{p.name})" in text for p in images)


def test_the_demo_serves_its_board_on_the_port_asked_or_says_it_is_taken() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        served, note = demo.web_port(port)
        assert served == 0 and note is not None
        assert f"Port {port} is taken" in note and "TORA_WEB_PORT" in note
    free = free_port()
    assert demo.web_port(free) == (free, None)


async def test_a_tournament_is_organised_and_its_first_game_opens_in_a_thread(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        refused = await stage.slash("ann", "tournament create", name="Cup", board="short",
                                    target=60)  # fmt: skip
        # deferred in public, the refusal goes to ann alone, and the deferral away
        assert "Only a server admin" in refused.text
        assert all(m.ephemeral_to == stage.user["ann"] for m in refused.messages if not m.deleted)
        created = await stage.slash("admin", "tournament create", name="Cup", board="short",
                                    target=60)  # fmt: skip
        assert "open for registration" in created.text and not created.ephemeral
        offered = await stage.emu.autocomplete(
            stage.user["ann"], stage.channel, "tora-tournament", "register", focused="name",
            name="C",
        )  # fmt: skip
        assert [c["value"] for c in offered] == ["Cup"]
        for name in ("ann", "bob"):
            joined = await stage.slash(name, "tournament register", name="Cup")
            assert "You are registered for **Cup**" in joined.text
        started = await stage.slash("admin", "tournament start", name="Cup")
        assert started.error is None, started.text
        thread = await stage.emu.wait_until(lambda: stage.emu.thread_of(stage.channel), 30)
        await stage.posted("game 1", channel=thread)
        standings = await stage.slash("bob", "tournament standings", name="Cup")
        assert standings.files and "Cup" in standings.text


async def test_two_players_in_the_ladder_queue_get_a_rated_match_in_the_ladder_channel(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin"), channels=2) as stage:
        ladder_channel = stage.channels[1]
        await stage.slash("admin", "admin settings", ladder_channel=ladder_channel)
        waiting = await stage.slash("ann", "ladder", "queue", board="short")
        assert waiting.ephemeral and waiting.error is None
        left = await stage.slash("ann", "ladder", "leave")
        assert left.ephemeral and left.error is None
        await stage.slash("ann", "ladder", "queue", board="short")
        paired = await stage.slash("bob", "ladder", "queue", board="short")
        assert paired.ephemeral and paired.error is None
        thread = await stage.emu.wait_until(lambda: stage.emu.thread_of(ladder_channel), 30)
        opening = await stage.posted("ladder match, paired from the queue", channel=thread)
        assert "ann" in opening and "bob" in opening
        assert stage.emu.threads(stage.channel) == []  # not where they queued


async def test_with_the_ladder_channel_deleted_a_pairing_plays_where_they_queued(
    tmp_path: Path,
) -> None:
    """Regression: once the server's ladder channel was deleted, Discord's refusal of a
    thread there (404 Unknown Channel) was taken for a channel without threads: the match
    was hosted in the deleted channel itself, where nobody could see or play it. The
    pairing opens its thread where the longer waiter queued, as with no ladder channel."""
    async with Stage(tmp_path, ("ann", "bob", "admin"), channels=2) as stage:
        ladder_channel = stage.channels[1]
        await stage.slash("admin", "admin settings", ladder_channel=ladder_channel)
        del stage.emu.world.channels[ladder_channel]  # an admin deleted it
        await stage.slash("ann", "ladder", "queue", board="short")
        paired = await stage.slash("bob", "ladder", "queue", board="short")
        assert f"<#{ladder_channel}>" not in paired.text, paired.text
        assert paired.text.startswith("You are paired with ann"), paired.text
        thread = await stage.emu.wait_until(lambda: stage.emu.thread_of(stage.channel), 30)
        await stage.posted("ladder match, paired from the queue", channel=thread)


async def test_an_admin_clears_the_ladder_channel(tmp_path: Path) -> None:
    """``clear_ladder_channel:True`` takes the ladder channel back off: pairings open where
    the players queued again (with a ladder channel given too, refused)."""
    async with Stage(tmp_path, ("ann", "bob", "admin"), channels=2) as stage:
        ladder_channel = stage.channels[1]
        await stage.slash("admin", "admin settings", ladder_channel=ladder_channel)
        both = await stage.slash(
            "admin", "admin settings", ladder_channel=ladder_channel, clear_ladder_channel=True
        )
        assert "not both" in both.text, both.text
        cleared = await stage.slash("admin", "admin settings", clear_ladder_channel=True)
        assert cleared.text.startswith("Saved.") and "ladder channel: none" in cleared.text
        await stage.slash("ann", "ladder", "queue", board="short")
        await stage.slash("bob", "ladder", "queue", board="short")
        thread = await stage.emu.wait_until(lambda: stage.emu.thread_of(stage.channel), 30)
        await stage.posted("ladder match, paired from the queue", channel=thread)


async def test_with_threads_on_but_no_permission_to_open_one_the_challenge_goes_on_here(
    tmp_path: Path,
) -> None:
    """Regression: the server's threads setting was on but the bot could not open threads in
    the channel (403); every challenge failed with "Something went wrong". The challenge is
    made in the channel itself, and its author told which permission is missing and what
    an admin can do."""
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        await stage.slash("admin", "admin settings", threads=True)
        assert stage.bot is not None

        async def forbidden(channel_id: int, name: str) -> int:  # what a 403 becomes
            raise Undeliverable(f"no thread in channel {channel_id}: 403 Forbidden (50013)")

        stage.bot.app.actions.threads.open_thread = forbidden  # type: ignore[method-assign]
        made = await stage.slash("ann", "challenge", opponent="bob")
        assert "Something went wrong" not in made.text, made.text
        assert "Create Public Threads" in made.text and "threads:False" in made.text, made.text
        assert stage.emu.thread_of(stage.channel) is None
        await stage.posted("ann challenges bob")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")


async def test_the_ladder_queue_from_a_thread_without_a_ladder_channel_is_refused(
    tmp_path: Path,
) -> None:
    """A ladder match opens in a thread of the channel its longer waiter queued from, and
    Discord opens no thread inside a thread (400 50024): queueing from a thread, with no
    ladder channel set, is refused at once, naming a text channel and the ladder channel."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        world = stage.emu.world
        lobby = world.create_thread(
            world.channel(stage.channel), "lobby", ChannelType.PUBLIC_THREAD, world.ids.next()
        )
        refused = await stage.slash("ann", "ladder", "queue", board="short", channel=lobby.id)
        assert "text channel" in refused.text and "ladder channel" in refused.text, refused.text
        waiting = await stage.slash("bob", "ladder", "queue", board="short")
        assert waiting.error is None and "ann" not in waiting.text, waiting.text


async def test_a_challenge_where_the_bot_may_not_post_is_refused_naming_the_permission(
    tmp_path: Path,
) -> None:
    """Slash commands work in a channel where the bot lacks Send Messages (an admin's
    overwrite; the interaction's ``app_permissions`` shows it), but its posts there are
    refused (403 50013). A challenge answered "Your challenge is posted" while its post was
    dropped, unseen by the opponent. Every command that would host a match or a tournament
    there is refused at once, naming what the bot lacks and who can grant it; nothing is
    made."""
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        stage.emu.revoke(stage.guild, Perm.SEND_MESSAGES)
        asked = [
            await stage.slash("ann", "challenge", opponent="bob"),
            await stage.slash("ann", "challenge", ai="easy"),
            await stage.slash("ann", "ladder", "queue", board="short"),
            await stage.slash(
                "admin", "tournament create", name="Shrine", format="round-robin", game="torii"
            ),
        ]
        for answer in asked:
            assert answer.error is None and answer.ephemeral, answer.text
            assert "**Send Messages**" in answer.text and "server admin" in answer.text
        assert stage.bot is not None
        assert await stage.bot.app.actions.service.matches_of(stage.user["ann"]) == []
        assert await stage.bot.store.ladders.queue(stage.guild, "short") == []
        assert await stage.bot.store.events.named(stage.guild, "Shrine") is None
        assert stage.emu.public_messages(stage.channel) == []


async def test_with_threads_on_but_no_thread_permission_the_challenge_is_played_here(
    tmp_path: Path,
) -> None:
    """The interaction shows the bot may not open threads: no thread is asked of Discord;
    the challenge is posted in the channel itself and its author told what an admin can do."""
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        await stage.slash("admin", "admin settings", threads=True)
        stage.emu.revoke(stage.guild, Perm.CREATE_PUBLIC_THREADS)
        made = await stage.slash("ann", "challenge", opponent="bob")
        assert "Create Public Threads" in made.text and "threads:False" in made.text, made.text
        await stage.posted("ann challenges bob")
        assert stage.emu.thread_of(stage.channel) is None
        assert not [r for r in stage.emu.requests if r.path.endswith("/threads")]


async def test_an_older_ended_match_s_final_board_can_be_seen_as_tora_games_says(
    tmp_path: Path,
) -> None:
    """``/tora games`` lists ann's recently ended matches and says to see them with
    ``/tora board``, ``record``, ``replay``; but ``/tora board`` had no match number: it
    showed only the last match of the channel, and ``match:1`` answered "You play in no live
    match 1". ``/tora board number:1`` shows the final board of any ended match listed."""
    async with Stage(tmp_path, ("ann",)) as stage:
        for _ in range(2):
            await stage.slash("ann", "challenge", game="torishogi", ai="easy")
            await stage.posted("ann starts a practice match of ToriShogi against AI (easy).")
            await stage.slash("ann", "resign")
            await stage.click("ann", "Resign")
            await stage.posted("AI (easy) (Opposition) wins")
        games = await stage.slash("ann", "games")
        assert "**Recently ended** (see them with `/tora board number:N`" in games.text, games.text
        assert "`/tora record number:N`" in games.text, games.text
        assert "Match 1 " in games.text, games.text
        older = await stage.slash("ann", "board", number=1)
        assert older.files, older.text
        assert older.text.startswith("Match 1 (ToriShogi) ended"), older.text


async def test_the_board_of_an_aborted_match_does_not_say_it_is_being_played(
    tmp_path: Path,
) -> None:
    """After a match is aborted, ``/tora board`` in its channel showed its last board as
    "Match 1 (ToriShogi) is being played:": an aborted match has no outcome, and the
    answer took every match without one for a running one. It says it was aborted
    (without a result)."""
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", game="torishogi", ai="easy")
        await stage.posted("ann starts a practice match of ToriShogi against AI (easy).")
        await stage.slash("ann", "match", "abort")
        await stage.click("ann", "Abort")
        await stage.posted("aborted")
        board = await stage.slash("ann", "board")
        assert board.files, board.text
        assert "is being played" not in board.text, board.text
        assert "aborted" in board.text, board.text


async def test_the_record_of_a_declined_challenge_says_its_game_never_began(
    tmp_path: Path,
) -> None:
    """``/tora games`` lists "Match 1 · ToriShogi: ann vs bob, the challenge was declined";
    ``/tora record number:1`` then answered "There is no match 1 in this server", as for a
    number that never existed. It says that match 1's game never began, so it has no
    record (as the web page's record download says)."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.slash("bob", "decline")
        games = await stage.slash("ann", "games")
        assert "Match 1 " in games.text and "declined" in games.text, games.text
        record = await stage.slash("ann", "record", number=1)
        assert "There is no match 1" not in record.text, record.text
        assert "never began" in record.text or "not begun" in record.text, record.text


async def test_a_pending_challenge_is_not_said_to_have_never_begun(tmp_path: Path) -> None:
    """``_check_begun`` (a54c317) answers for every hosted match without a game, live or
    not: bob, asked to accept ann's challenge right now, runs ``/tora record number:1`` and
    is told "Match 1's game never began, so it has no record, board or replay", as if the
    challenge were declined or expired; it has not begun yet (it will once he accepts).
    The same in the setup, before both players have chosen theirs."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="tora")
        record = await stage.slash("bob", "record", number=1)
        assert "never began" not in record.text, record.text
        assert "not begun yet" in record.text and "/tora accept" in record.text, record.text
        board = await stage.slash("bob", "board", number=1)
        assert "never began" not in board.text, board.text
        await stage.slash("bob", "accept")
        record = await stage.slash("ann", "record", number=1)
        assert "never began" not in record.text, record.text
        assert "not begun yet" in record.text and "/tora setup" in record.text, record.text


async def test_aborting_a_challenge_is_refused_at_once_without_a_confirmation(
    tmp_path: Path,
) -> None:
    """While a challenge waits for an answer, ``/tora-match abort`` (by the invitee, or by
    a bystander) asked "Abort match 1 against your opponent? ..." with an Abort button, and
    only the click said there was nothing to abort yet. It says so at once, with nothing to
    click, as ``/tora resign`` before the game does."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await stage.slash("ann", "challenge", opponent="bob")
        for who in ("bob", "carl"):
            answer = await stage.slash(who, "match abort")
            assert "Nothing to abort yet" in answer.text, (who, answer.text)
            assert not any(m.buttons() for m in answer.messages), (who, answer.text)


def test_the_demo_without_serve_says_its_pages_are_gone_and_how_to_keep_them() -> None:
    """``python -m harness.demo`` (no ``--serve``) printed "The web board is at ..." and the
    pages' addresses after the bot and its board had stopped: each address refused to
    connect. Now it says they were served while it ran, and that ``--serve`` keeps them."""
    where = ["The web board is at http://127.0.0.1:8080:", "- a page: http://127.0.0.1:8080/m/1"]
    ended = demo.closing_lines(Path("demo-out/transcript.md"), where, serving=False)
    assert ended[0] == "The transcript is in demo-out/transcript.md (open it in a Markdown viewer)."
    assert ended[1:3] == where
    assert "--serve" in ended[-1] and "make demo" in ended[-1]
    served = demo.closing_lines(Path("demo-out/transcript.md"), where, serving=True)
    assert served[-1] == "Serving until Ctrl-C."
