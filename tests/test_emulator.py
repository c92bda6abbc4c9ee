"""End to end: an unmodified discord.py client against the emulator.

The client below is a minimal bot with what tora-bot's front end uses: a ``/tora``
command group (subcommands, a nested group, typed options, autocomplete), ephemeral
and deferred replies with files, a persistent view and a DynamicItem button, DMs
and threads."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
from discord import app_commands

from emulator import Emulator
from emulator.models import Perm

PNG = b"\x89PNG\r\n\x1a\n fake board"
RECORD = b'[Board "short"]\nC: G v5h9-v4h9\n'
ACTIONS = ["G v9h1-v9h9", "G v5h5-v5h4", "A v1h1-v2h2"]


class Refresh(discord.ui.View):
    """Persistent: registered once at start-up, answers on any message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="tora:refresh")
    async def refresh(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="board v2", view=self)

    @discord.ui.select(
        custom_id="tora:size",
        options=[discord.SelectOption(label="short"), discord.SelectOption(label="long")],
    )
    async def size(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"size {select.values[0]}", ephemeral=True)


class Move(discord.ui.DynamicItem[discord.ui.Button], template=r"tora:move:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Move {n}", custom_id=f"tora:move:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> Move:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"moved {self.n}", ephemeral=True)


class Rename(discord.ui.Modal, title="Rename the match"):
    name: discord.ui.TextInput = discord.ui.TextInput(label="New name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


def tora_commands() -> list[app_commands.Group | app_commands.Command]:
    tora = app_commands.Group(name="tora", description="Play TORA")
    settings = app_commands.Group(name="settings", description="Match settings", parent=tora)

    @tora.command(description="Echo a word")
    async def ping(
        interaction: discord.Interaction,
        word: str,
        times: app_commands.Range[int, 1, 5] = 1,
        who: discord.Member | None = None,
    ) -> None:
        admin = isinstance(interaction.user, discord.Member) and (
            interaction.user.guild_permissions.manage_guild
        )
        target = who.display_name if who else "-"
        await interaction.response.send_message(f"pong {word * times} to {target}; admin={admin}")

    @ping.autocomplete("word")
    async def words(_: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=a, value=a) for a in ACTIONS if a.startswith(current)]

    @tora.command(description="Only you see this")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Assassin at v3h17", ephemeral=True)

    @tora.command(description="Deferred, then the record as a file")
    async def record(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        file = discord.File(io.BytesIO(RECORD), filename="game.tora")
        await interaction.followup.send("the record", file=file)

    @tora.command(description="Thinks, and never answers")
    async def stall(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.1)  # the test is already waiting when the deferral comes
        await interaction.response.defer(thinking=True)

    @tora.command(description="The board with buttons")
    async def board(interaction: discord.Interaction) -> None:
        view = Refresh()
        view.add_item(Move(3))
        file = discord.File(io.BytesIO(PNG), filename="board.png")
        await interaction.response.send_message("board v1", view=view, file=file)

    @tora.command(description="DM me")
    async def dm(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("your turn")
        except discord.Forbidden as refused:
            await interaction.response.send_message(f"closed {refused.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @tora.command(description="Start threads")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"match {name}")
        started = await (await interaction.original_response()).create_thread(name=name)
        await started.send("in the thread")
        private = await interaction.channel.create_thread(name=f"{name} (private)")
        await private.add_user(interaction.user)
        await private.send("in the private thread")

    @tora.command(description="Rename the match")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Rename())

    @settings.command(description="Turn deadline")
    async def deadline(interaction: discord.Interaction, hours: int) -> None:
        await interaction.response.send_message(f"deadline {hours}h")

    @app_commands.command(description="Cancel a match (admins)")
    @app_commands.default_permissions(manage_guild=True)
    async def cancel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("cancelled")

    return [tora, cancel]


class MiniBot(discord.Client):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        for command in tora_commands():
            self.tree.add_command(command)

    async def setup_hook(self) -> None:
        self.add_view(Refresh())
        self.add_dynamic_items(Move)
        await self.tree.sync()


@dataclass
class Scene:
    emu: Emulator
    client: MiniBot
    guild: int
    channel: int
    ann: int
    bob: int
    boss: int


@pytest.fixture
async def scene() -> AsyncIterator[Scene]:
    emu = Emulator(heartbeat_interval=0.25)
    await emu.start()
    guild = emu.add_guild("Test server")
    channel = emu.add_channel(guild, "general")
    ann, bob, boss = emu.add_user("ann"), emu.add_user("bob"), emu.add_user("boss", admin=True)
    restore = emu.point_discord()
    client = MiniBot()
    task = asyncio.create_task(client.start(emu.token))
    try:
        await emu.wait_ready()
        await emu.wait_until(client.is_ready, what="on_ready")
        yield Scene(emu, client, guild, channel, ann, bob, boss)
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)
        restore()
        await emu.stop()


async def test_connects_and_sees_guild_members_and_permissions(scene: Scene) -> None:
    guild = scene.client.get_guild(scene.guild)
    assert guild is not None and guild.chunked
    assert {m.name for m in guild.members} >= {"ann", "bob", "boss", "TORA"}
    assert guild.me.id == scene.emu.bot_id
    assert guild.get_member(scene.boss).guild_permissions.administrator
    assert not guild.get_member(scene.ann).guild_permissions.manage_guild
    assert scene.client.get_channel(scene.channel).name == "general"
    assert scene.emu.identifies == 1
    # zlib-stream, or zstd-stream where zstandard is installed: what discord.py asks for
    asked = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
    assert scene.emu.gateway.compressions == [asked]


async def test_command_sync_is_stored_with_ids(scene: Scene) -> None:
    stored = {c["name"]: c for c in scene.emu.commands()}
    assert set(stored) == {"tora", "cancel"}
    subcommands = {o["name"]: o for o in stored["tora"]["options"]}
    assert subcommands["settings"]["type"] == 2
    assert stored["cancel"]["default_member_permissions"] == str(1 << 5)
    fetched = await scene.client.tree.fetch_commands()
    assert {c.id for c in fetched} == {int(c["id"]) for c in stored.values()}


async def test_slash_options_are_typed_and_users_resolved(scene: Scene) -> None:
    emu = scene.emu
    r = await emu.slash(scene.ann, scene.channel, "tora", "ping", word="hi", times=2, who=scene.bob)
    await r.done()
    assert r.text == "pong hihi to bob; admin=False"
    assert r.latency is not None and 0 <= r.latency < 1
    assert emu.public_messages(scene.channel)[-1] is r.response
    r = await emu.slash(scene.boss, scene.channel, "tora ping", word="x")
    assert (await r.done()).text == "pong x to -; admin=True"
    with pytest.raises(ValueError, match="out of range"):
        await emu.slash(scene.ann, scene.channel, "tora", "ping", word="hi", times=9)


async def test_nested_group_by_path_or_group_argument(scene: Scene) -> None:
    emu = scene.emu
    r = await emu.slash(scene.ann, scene.channel, "tora settings deadline", hours=2)
    assert (await r.done()).text == "deadline 2h"
    r = await emu.slash(scene.ann, scene.channel, "tora", "deadline", group="settings", hours=5)
    assert (await r.done()).text == "deadline 5h"


async def test_admin_only_command_is_hidden_from_members(scene: Scene) -> None:
    with pytest.raises(ValueError, match="hidden from ann"):
        await scene.emu.slash(scene.ann, scene.channel, "cancel")
    r = await scene.emu.slash(scene.boss, scene.channel, "cancel")
    assert (await r.done()).text == "cancelled"


async def test_autocomplete_returns_the_bots_choices(scene: Scene) -> None:
    choices = await scene.emu.autocomplete(
        scene.ann, scene.channel, "tora", "ping", focused="word", word="G v"
    )
    assert [c["value"] for c in choices] == ACTIONS[:2]


async def test_ephemeral_reply_is_only_for_the_user(scene: Scene) -> None:
    emu = scene.emu
    r = await (await emu.slash(scene.ann, scene.channel, "tora", "secret")).done()
    assert [m.content for m in r.ephemeral] == ["Assassin at v3h17"]
    assert r.response.ephemeral_to == scene.ann
    assert emu.public_messages(scene.channel) == []
    assert b"v3h17" not in emu.everything_public(scene.channel)


async def test_deferred_reply_filled_by_a_follow_up_with_a_file(scene: Scene) -> None:
    r = await (await scene.emu.slash(scene.ann, scene.channel, "tora", "record")).done()
    assert r.callback_type == 5
    assert r.text == "the record"
    assert [(f.name, f.data) for f in r.files] == [("game.tora", RECORD)]
    assert not r.response.loading
    assert RECORD in scene.emu.everything_public(scene.channel)


async def test_a_deferral_that_is_never_followed_up_is_named_as_such(scene: Scene) -> None:
    """Regression: done() said "no callback at all" though a deferral had come."""
    stalled = await scene.emu.slash(scene.ann, scene.channel, "tora", "stall")
    with pytest.raises(TimeoutError, match=r"deferred \(5\), never edited or followed up"):
        await stalled.done(1.0)
    assert stalled.error is not None and "no callback" not in stalled.error


async def test_components_persistent_view_and_dynamic_item(scene: Scene) -> None:
    emu = scene.emu
    r = await (await emu.slash(scene.ann, scene.channel, "tora", "board")).done()
    assert [(f.name, f.data) for f in r.files] == [("board.png", PNG)]
    message_id, custom_id = emu.find_button(scene.channel, "Refresh")
    assert (message_id, custom_id) == (r.response.id, "tora:refresh")
    click = await (await emu.click(scene.bob, message_id, custom_id)).done()
    assert click.callback_type == 7 and emu.last_message(scene.channel).content == "board v2"
    assert emu.last_message(scene.channel).files[0].data == PNG
    move = await (await emu.click(scene.bob, *emu.find_button(scene.channel, "Move 3"))).done()
    assert move.text == "moved 3" and move.response.ephemeral_to == scene.bob
    picked = await (await emu.select(scene.ann, message_id, "tora:size", ["long"])).done()
    assert picked.text == "size long"
    with pytest.raises(ValueError, match="not among"):
        await emu.select(scene.ann, message_id, "tora:size", ["huge"])


async def test_modal_opened_and_submitted(scene: Scene) -> None:
    emu = scene.emu
    opened = await (await emu.slash(scene.ann, scene.channel, "tora", "rename")).done()
    assert opened.callback_type == 9 and opened.modal["title"] == "Rename the match"
    submitted = await emu.submit_modal(scene.ann, opened, {"name": "final"})
    assert (await submitted.done()).text == "renamed to final"


async def test_dm_and_refused_dm(scene: Scene) -> None:
    emu = scene.emu
    r = await (await emu.slash(scene.ann, scene.channel, "tora", "dm")).done()
    assert r.text == "sent"
    assert [m.content for m in emu.dms(scene.ann)] == ["your turn"]
    emu.refuse_dms(scene.bob)
    r = await (await emu.slash(scene.bob, scene.channel, "tora", "dm")).done()
    assert r.text == "closed 50007"
    user = await scene.client.fetch_user(scene.bob)
    with pytest.raises(discord.Forbidden) as refused:
        await user.send("hello")
    assert refused.value.code == 50007 and refused.value.status == 403


async def test_command_in_dms_has_a_user_and_a_dm_channel(scene: Scene) -> None:
    emu = scene.emu
    dm = emu.dm_channel(scene.ann)
    r = await (await emu.slash(scene.ann, dm, "tora", "ping", word="dm")).done()
    assert r.text == "pong dm to -; admin=False"
    assert emu.dms(scene.ann)[-1] is r.response


async def test_threads_become_channels_the_bot_posts_in(scene: Scene) -> None:
    emu = scene.emu
    r = await (await emu.slash(scene.ann, scene.channel, "tora", "thread", name="ann-bob")).done()
    await emu.wait_until(lambda: len(emu.threads(scene.channel)) == 2, what="two threads")
    public, private = emu.threads(scene.channel)
    assert public == r.response.id  # a thread from a message takes its id
    assert emu.thread_of(scene.channel) == private
    await emu.wait_for_message(private, lambda m: m.content == "in the private thread")
    assert [m.content for m in emu.messages(public)] == ["in the thread"]
    assert scene.ann in emu.channel(private).member_ids
    assert isinstance(scene.client.get_channel(private), discord.Thread)
    assert b"ann-bob (private)" in emu.everything_public(scene.channel)


async def test_the_bot_posts_and_opens_threads_only_where_its_permissions_allow(
    scene: Scene,
) -> None:
    """As Discord: 403 50013 without Send Messages (Send Messages in Threads in a thread),
    Attach Files for a file, Create Public Threads for a thread; 50001 without View
    Channel. Interactions are still answered, and show what the bot may do."""
    emu, channel = scene.emu, scene.client.get_channel(scene.channel)
    thread = await channel.create_thread(name="kept", type=discord.ChannelType.public_thread)
    emu.revoke(scene.guild, Perm.SEND_MESSAGES | Perm.ATTACH_FILES | Perm.CREATE_PUBLIC_THREADS)
    for refused in (
        channel.send("hello"),
        thread.send("in a thread", file=discord.File(io.BytesIO(PNG), "board.png")),
        channel.create_thread(name="new", type=discord.ChannelType.public_thread),
    ):
        with pytest.raises(discord.Forbidden) as error:
            await refused
        assert error.value.code == 50013
    await thread.send("in a thread")  # Send Messages in Threads
    r = await (await emu.slash(scene.ann, scene.channel, "tora", "ping", word="hi")).done()
    assert r.text.startswith("pong hi")
    assert not discord.Permissions(int(r.payload["app_permissions"])).send_messages
    emu.revoke(scene.guild, Perm.VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as error:
        await thread.send("unseen")
    assert error.value.code == 50001


async def test_nonce_posts_once(scene: Scene) -> None:
    channel = scene.client.get_channel(scene.channel)
    first = await channel.send("turn 3", nonce="tora-outbox-7")
    again = await channel.send("turn 3", nonce="tora-outbox-7")
    assert again.id == first.id
    assert [m.content for m in scene.emu.messages(scene.channel)] == ["turn 3"]


async def test_429_and_500_are_retried_by_discord_py(scene: Scene) -> None:
    emu = scene.emu
    emu.fail_next("POST", r"/callback$", status=429, retry_after=0.2)
    emu.fail_next("POST", r"^/channels/\d+/messages$", status=500)
    r = await (await emu.slash(scene.ann, scene.channel, "tora", "dm")).done(timeout=5)
    assert r.text == "sent" and [m.content for m in emu.dms(scene.ann)] == ["your turn"]
    statuses = [(q.path.split("/")[-1], q.status) for q in emu.requests if q.method == "POST"]
    assert ("callback", 429) in statuses and ("messages", 500) in statuses
    assert statuses[-1] == ("callback", 200)


async def test_dropped_gateway_resumes_and_delivers_what_was_missed(scene: Scene) -> None:
    emu = scene.emu
    await emu.drop_gateway()  # no close frame at all
    assert not emu.gateway.live_sessions  # sent while the bot is away: replayed on RESUME
    r = await emu.slash(scene.ann, scene.channel, "tora", "ping", word="missed")
    assert (await r.done()).text == "pong missed to -; admin=False"
    assert emu.resumes == 1
    await emu.drop_gateway(4000)
    await emu.wait_until(lambda: emu.resumes == 2, what="the second resume")
    r = await emu.slash(scene.ann, scene.channel, "tora", "ping", word="after")
    assert (await r.done()).text == "pong after to -; admin=False"
    assert emu.identifies == 1


async def test_the_bot_reads_a_message_only_where_it_may_read_the_history(scene: Scene) -> None:
    """Discord's Get Channel Message needs View Channel and Read Message History: without
    the latter, 403. The bot reads a message it posted to disable its stale buttons (after a
    restart, and an event's Join and Leave). Regression: the emulator answered it anyway."""
    emu, channel = scene.emu, scene.client.get_channel(scene.channel)
    posted = await channel.send("with buttons")
    assert (await channel.fetch_message(posted.id)).content == "with buttons"
    emu.revoke(scene.guild, Perm.READ_MESSAGE_HISTORY)
    with pytest.raises(discord.Forbidden) as error:
        await channel.fetch_message(posted.id)
    assert error.value.code == 50013
    await posted.edit(content="edited")  # its own message: no history needed
