"""The Discord delivery's mapping of the service's messages onto discord.py calls, with fake
discord.py objects: nonces and mentions on posts, closed DMs remembered (no retry loop),
unknown channels undeliverable, the fallback only on a recent interaction of that user."""

from __future__ import annotations

import asyncio
import gc
import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.app.answers import Answer
from bot.discord import delivery as delivery_module
from bot.discord.client import RATE_LIMIT_WAIT, ToraBot
from bot.discord.delivery import DiscordDelivery, NoOpenInteraction, nonce
from bot.discord.respond import ANSWERED_KEY, Responder
from bot.discord.sweeper import Sweeper
from bot.i18n import current
from bot.service import (
    Attachment,
    Buttons,
    DirectMessagesClosed,
    Message,
    RetryAfter,
    Stamp,
    Undeliverable,
)
from storage import ButtonMessage


def http_error(kind: type[discord.HTTPException], status: int, code: int) -> Exception:
    return kind(SimpleNamespace(status=status, reason="no"), {"code": code, "message": "no"})


@dataclass
class FakeChannel:
    id: int
    sent: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    fail: Exception | None = None

    async def send(self, content: str, **kwargs: Any) -> None:
        if self.fail is not None:
            raise self.fail
        self.sent.append((content, kwargs))


@dataclass
class FakeClient:
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    dms: dict[int, FakeChannel] = field(default_factory=dict)
    refuse_dms: set[int] = field(default_factory=set)
    dm_attempts: int = 0
    threads: list[tuple[int, str]] = field(default_factory=list)
    thread_errors: dict[int, Exception] = field(default_factory=dict)  # channel -> refusal

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        for dm in self.dms.values():
            if dm.id == channel_id:
                return dm
        return self.channels.setdefault(channel_id, FakeChannel(channel_id))

    async def create_dm(self, user: discord.abc.Snowflake) -> FakeChannel:
        self.dm_attempts += 1
        channel = self.dms.setdefault(user.id, FakeChannel(9000 + user.id))
        if user.id in self.refuse_dms:
            channel.fail = http_error(discord.Forbidden, 403, 50007)
        return channel

    @property
    def http(self) -> Any:
        client = self

        class Http:
            async def start_thread_without_message(self, channel_id: int, **kw: Any) -> Any:
                if channel_id == 404:
                    raise http_error(discord.NotFound, 404, 10003)
                if channel_id in client.thread_errors:
                    raise client.thread_errors[channel_id]
                client.threads.append((channel_id, kw["name"]))
                return {"id": "5555"}

            async def delete_channel(self, channel_id: int) -> None:
                raise http_error(discord.Forbidden, 403, 50013)  # no Manage Threads

        return Http()


def delivery(client: FakeClient) -> DiscordDelivery:
    return DiscordDelivery(client, dm_rate=1000.0, dm_burst=100)  # type: ignore[arg-type]


async def test_a_post_carries_its_key_as_nonce_files_and_only_its_mentions() -> None:
    client = FakeClient()
    message = Message("bob, your turn", (Attachment("board.png", b"png"),), mentions=(2,))
    await delivery(client).post(100, message, "tora-outbox-1")
    [(content, kwargs)] = client.channels[100].sent
    assert content == "<@2> bob, your turn"
    assert kwargs["nonce"] == nonce("tora-outbox-1")
    assert [u.id for u in kwargs["allowed_mentions"].users] == [2]
    assert [f.filename for f in kwargs["files"]] == ["board.png"]


async def test_a_long_post_goes_in_pieces_with_the_files_on_the_last() -> None:
    client = FakeClient()
    text = "\n".join("x" * 99 for _ in range(50))
    await delivery(client).post(100, Message(text, (Attachment("a.png", b"1"),)), "k")
    sent = client.channels[100].sent
    assert len(sent) == 3
    assert ["files" in kwargs for _c, kwargs in sent] == [False, False, True]
    assert len({kwargs["nonce"] for _c, kwargs in sent}) == 3


@pytest.mark.parametrize(
    ("error", "for_good"),
    [
        (http_error(discord.NotFound, 404, 10003), True),  # an unknown channel
        (http_error(discord.Forbidden, 403, 50001), True),  # no access to it
        (http_error(discord.HTTPException, 400, 50035), True),  # an invalid form body
        (http_error(discord.HTTPException, 413, 40005), True),  # a file too large
        (http_error(discord.HTTPException, 401, 0), False),  # the bot's token: every post
        (discord.DiscordServerError(SimpleNamespace(status=500, reason="boom"), "boom"), False),
    ],
)
async def test_a_post_discord_would_refuse_again_is_undeliverable_the_rest_retried(
    error: Exception, for_good: bool
) -> None:
    """A refusal that sending the same post again would meet again (a 4xx) drops it, logged
    (Undeliverable), instead of holding up the channel's later posts for ever; anything
    else is raised as it is, for the service to retry."""
    client = FakeClient()
    client.channels[7] = FakeChannel(7, fail=error)
    with pytest.raises(Undeliverable if for_good else type(error)):
        await delivery(client).post(7, Message("hi"), "k")


async def test_a_rate_limit_longer_than_discord_py_waits_goes_back_with_its_wait() -> None:
    """discord.py waits out a rate limit up to ``RATE_LIMIT_WAIT`` itself and raises
    RateLimited past it: a post, a private message and a fallback's piece then go back to
    the outbox with Discord's wait (RetryAfter), a fallback's piece unmarked (Discord
    showed nothing), rather than one worker sleeping for it with its destination's lease."""
    client = FakeClient()
    client.channels[7] = FakeChannel(7, fail=discord.RateLimited(600.0))
    with pytest.raises(RetryAfter) as posted:
        await delivery(client).post(7, Message("hi"), "k")
    client.dms[2] = FakeChannel(9002, fail=discord.RateLimited(900.0))
    with pytest.raises(RetryAfter) as private:
        await delivery(client).send_private(2, 7, Message("psst"), "k2")
    dd = delivery(client)

    async def followup_send(content: str, **kwargs: Any) -> None:
        raise discord.RateLimited(120.0)

    dd.seen(
        SimpleNamespace(  # type: ignore[arg-type]
            channel_id=7,
            guild_id=1,
            user=SimpleNamespace(id=2),
            followup=SimpleNamespace(send=followup_send),
            extras={ANSWERED_KEY: True},
        )
    )
    progress = Progress()
    with pytest.raises(RetryAfter) as fallback:
        await dd.send_ephemeral(7, 2, Message("private"), "k3", progress)
    assert (posted.value.seconds, private.value.seconds) == (600.0, 900.0)
    assert fallback.value.seconds == 120.0 and progress.pieces == 0


def test_the_bot_waits_out_rate_limits_of_half_a_minute_at_most() -> None:
    bot = ToraBot()
    assert bot.http.max_ratelimit_timeout == RATE_LIMIT_WAIT == 30.0


async def test_closed_dms_fall_back_at_once_and_are_not_asked_again() -> None:
    client = FakeClient(refuse_dms={2})
    dd = delivery(client)
    await dd.send_private(1, 100, Message("your turn"), "k1")
    await dd.send_private(1, 100, Message("again"), "k1b")
    assert [text for text, _kw in client.dms[1].sent] == ["your turn", "again"]
    assert client.dm_attempts == 1  # the DM channel is opened once, then known
    with pytest.raises(DirectMessagesClosed):
        await dd.send_private(2, 100, Message("your turn"), "k2")
    attempts = client.dm_attempts
    for key in ("k3", "k4", "k5"):
        with pytest.raises(DirectMessagesClosed):
            await dd.send_private(2, 100, Message("more"), key)
    assert client.dm_attempts == attempts  # remembered: Discord is not asked again
    interaction = SimpleNamespace(
        channel_id=555, guild_id=None, user=SimpleNamespace(id=2), extras={}
    )
    dd.seen(interaction)  # bob writes to the bot in a DM: his DMs are open after all
    client.refuse_dms.clear()
    client.dms[2].fail = None
    await dd.send_private(2, 100, Message("again"), "k6")
    assert client.dms[2].sent[-1][0] == "again"


async def test_the_fallback_needs_a_recent_interaction_of_that_user_there() -> None:
    client = FakeClient()
    dd = delivery(client)
    with pytest.raises(NoOpenInteraction):
        await dd.send_ephemeral(100, 2, Message("private"), "k-only-you", Progress())
    shown: list[tuple[str, dict[str, Any]]] = []

    async def followup_send(content: str, **kwargs: Any) -> None:
        shown.append((content, kwargs))

    interaction = SimpleNamespace(
        channel_id=100,
        guild_id=1,
        user=SimpleNamespace(id=2),
        followup=SimpleNamespace(send=followup_send),
        extras={},
    )
    dd.seen(interaction)
    with pytest.raises(NoOpenInteraction):  # not answered yet: it would replace "thinking"
        await dd.send_ephemeral(100, 2, Message("private"), "k-only-you", Progress())
    interaction.extras[ANSWERED_KEY] = True
    with pytest.raises(NoOpenInteraction):  # another user's interaction does not do
        await dd.send_ephemeral(100, 3, Message("private"), "k3", Progress())
    message = Message("private", (Attachment("b.png", b"1"),))
    progress = Progress()
    await dd.send_ephemeral(100, 2, message, "k-only-you", progress)
    assert progress.marks == [1]  # marked (in the outbox row) before it was sent
    await dd.send_ephemeral(100, 2, message, "k-only-you", progress)  # a retry: not again
    assert len(shown) == 1 and shown[0][1]["ephemeral"] is True
    assert [f.filename for f in shown[0][1]["files"]] == ["b.png"]
    long = Message("x" * 2500)  # two pieces; the first was shown before a crash
    await dd.send_ephemeral(100, 2, long, "k-long", Progress(pieces=1))
    assert [len(text) for text, _kw in shown[1:]] == [500]


async def test_a_fallback_piece_is_marked_before_it_goes_and_unmarked_only_if_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Regression: a piece was marked once Discord had answered, so a bot that died while
    Discord showed it showed it again after the restart. Now marked before it is sent: a
    refusal from Discord (it showed nothing) takes the mark back; no answer leaves it."""
    dd = delivery(FakeClient())
    marks_when_sent: list[list[int]] = []
    outcome: list[Exception] = []
    progress = Progress()

    async def followup_send(content: str, **kwargs: Any) -> None:
        marks_when_sent.append(list(progress.marks))
        if outcome:
            raise outcome.pop()

    interaction = SimpleNamespace(
        channel_id=100,
        guild_id=1,
        user=SimpleNamespace(id=2),
        followup=SimpleNamespace(send=followup_send),
        extras={ANSWERED_KEY: True},
    )
    dd.seen(interaction)
    outcome.append(http_error(discord.HTTPException, 500, 0))
    with pytest.raises(discord.HTTPException):
        await dd.send_ephemeral(100, 2, Message("private"), "k-only-you", progress)
    assert marks_when_sent == [[1]] and progress.pieces == 0  # refused: sent again later
    outcome.append(TimeoutError("no answer"))
    with pytest.raises(TimeoutError):
        await dd.send_ephemeral(100, 2, Message("private"), "k-only-you", progress)
    assert progress.pieces == 1  # perhaps shown: never sent again
    await dd.send_ephemeral(100, 2, Message("private"), "k-only-you", progress)
    assert len(marks_when_sent) == 2
    assert "counted as shown" in caplog.text
    outcome.append(http_error(discord.NotFound, 404, 10015))
    with pytest.raises(NoOpenInteraction):
        await dd.send_ephemeral(100, 2, Message("private"), "k-2", Progress())


@dataclass
class Progress:
    """The outbox row's record of how many pieces of a fallback were shown."""

    pieces: int = 0
    marks: list[int] = field(default_factory=list)

    async def mark(self, pieces: int) -> None:
        self.pieces = pieces
        self.marks.append(pieces)


async def test_threads_are_opened_in_the_channel_or_undeliverable() -> None:
    client = FakeClient()
    dd = delivery(client)
    assert await dd.open_thread(100, "ann vs bob") == 5555
    assert client.threads == [(100, "ann vs bob")]
    with pytest.raises(Undeliverable):
        await dd.open_thread(404, "nowhere")


@pytest.mark.parametrize(
    ("error", "for_good"),
    [
        (http_error(discord.HTTPException, 400, 50024), True),  # a thread's own thread
        (http_error(discord.HTTPException, 400, 160006), True),  # 1,000 active threads
        (http_error(discord.Forbidden, 403, 50013), True),  # no Create Public Threads
        (http_error(discord.HTTPException, 401, 0), False),  # the bot's token
        (discord.DiscordServerError(SimpleNamespace(status=500, reason="boom"), "boom"), False),
    ],
)
async def test_a_thread_discord_would_refuse_again_is_undeliverable(
    error: Exception, for_good: bool
) -> None:
    """Regression: only 404 and 403 were Undeliverable, so a tournament made in a thread
    (400 50024) or a server at Discord's thread cap (400 160006) raised the 400 through the
    start of its games instead of playing them in the channel."""
    client = FakeClient()
    client.thread_errors[7] = error
    with pytest.raises(Undeliverable if for_good else type(error)):
        await delivery(client).open_thread(7, "ann vs bob")


async def test_a_thread_that_cannot_be_deleted_is_logged_not_raised(caplog) -> None:
    """Regression: the log call's field clashed with logging's own 'thread' (KeyError), so
    a refused challenge whose thread could not be deleted answered "Something went wrong"."""
    dd = delivery(FakeClient())
    with caplog.at_level(logging.WARNING):
        await dd.drop_thread(5555)
    [record] = caplog.records
    assert record.getMessage() == "could not delete an unused thread"
    assert record.thread_id == 5555  # type: ignore[attr-defined]


async def test_a_sweep_that_fails_is_logged_not_left_unretrieved(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Regression: a sweep of stale buttons whose read failed (the database away) died
    with "Task exception was never retrieved"."""

    async def sweep(hosted_id: int) -> None:
        raise ConnectionError("the database went away (simulated)")

    sweeping = SimpleNamespace(sweep=sweep)
    sweeper = Sweeper(sweeping, FakeClient())  # type: ignore[arg-type]
    unretrieved: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: unretrieved.append(context))
    try:
        sweeper.after(7)
        await sweeper.idle()
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert not unretrieved
    assert "sweeping stale buttons failed" in caplog.text


async def test_a_stale_button_message_behind_a_long_rate_limit_is_swept_next_time() -> None:
    """Disabling one message's buttons meets a rate limit longer than discord.py waits out:
    that message stays remembered (the match's next sweep tries it again), the others are
    disabled and forgotten."""
    limited = {11}
    edited: list[int] = []
    forgotten: list[int] = []

    class Shown:
        def __init__(self, message_id: int) -> None:
            self.id = message_id

        async def fetch(self) -> discord.Message:
            return cast(discord.Message, SimpleNamespace(components=[]))

        async def edit(self, **kwargs: Any) -> None:
            if self.id in limited:
                raise discord.RateLimited(600.0)
            edited.append(self.id)

    client = SimpleNamespace(
        get_partial_messageable=lambda _channel: SimpleNamespace(get_partial_message=Shown)
    )
    records = [ButtonMessage(5, n, 7, ("end",), 1) for n in (10, 11, 12)]

    async def sweep(hosted_id: int) -> SimpleNamespace:
        return SimpleNamespace(stale=records, hosted=SimpleNamespace(id=hosted_id))

    async def forget(channel_id: int, message_id: int) -> None:
        forgotten.append(message_id)

    sweeper = Sweeper(SimpleNamespace(sweep=sweep, forget=forget), client)  # type: ignore[arg-type]
    await sweeper.sweep(7)
    assert edited == [10, 12] and forgotten == [10, 12]


@dataclass
class FakeInteraction:
    """A pick in the components of message ``message``; records its edits of that message."""

    id: int
    message: SimpleNamespace | None
    edits: list[dict[str, Any]] = field(default_factory=list)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)


@pytest.mark.parametrize("shown_by", ["a pick", "the command"])
async def test_a_sweep_does_not_overwrite_a_panel_a_newer_pick_is_editing(shown_by: str) -> None:
    """Regression (CI): a turn's end swept the Play panel of that turn after the player had
    already turned it into the plan panel (Plan a reply): the sweep, decided before the
    newer pick, edited the message through an older token and took its menus away. The
    older token is a pick's on the panel, or the ``/tora play`` that showed it (its answer
    known by the command's interaction, as a command's message is not known to it)."""
    from bot.app.buttons import presses
    from bot.discord.buttons import buttons
    from bot.service import Stamp
    from bot.service.phases import PLAYING

    panel = SimpleNamespace(id=42, interaction_metadata=SimpleNamespace(id=1))
    older = FakeInteraction(1, panel if shown_by == "a pick" else None)  # type: ignore[arg-type]
    newer = FakeInteraction(2, panel)  # Plan a reply, on the same message
    hosted = SimpleNamespace(id=7, phase=PLAYING, turn=2, channel_id=100)
    decided = asyncio.Event()
    resume = asyncio.Event()

    async def sweep(match_id: int) -> SimpleNamespace:
        decided.set()
        await resume.wait()  # the sweep's read is under way when the newer pick comes
        return SimpleNamespace(hosted=hosted, stale=())

    sweeper = Sweeper(SimpleNamespace(sweep=sweep), FakeClient())  # type: ignore[arg-type]
    sweeper.watch(older, buttons(presses(("end",), 100, Stamp(7, 1))))  # type: ignore[arg-type]
    sweeper.after(7)
    await decided.wait()
    sweeper.claim(newer)  # type: ignore[arg-type]
    resume.set()
    await sweeper.idle()
    assert older.edits == []  # the newer pick's panel stands


async def test_the_button_sweeper_forgets_a_match_once_its_answers_are_swept() -> None:
    """Each match whose answers had buttons kept an entry in the sweeper for as long as the
    bot ran, once every answer was swept (an empty list), and its lock too; and every pick in
    any panel (``claim``) walks every one of those entries, on the event loop: a pick cost
    more with every match the bot had hosted since it started."""
    from bot.app.buttons import presses
    from bot.discord.buttons import buttons
    from bot.service.phases import ENDED

    async def sweep(match_id: int) -> SimpleNamespace:  # each match has ended
        hosted = SimpleNamespace(id=match_id, phase=ENDED, turn=9, channel_id=100)
        return SimpleNamespace(hosted=hosted, stale=())

    sweeper = Sweeper(SimpleNamespace(sweep=sweep), FakeClient())  # type: ignore[arg-type]
    for match in range(1, 301):
        answer = FakeInteraction(match, SimpleNamespace(id=10_000 + match))
        sweeper.watch(answer, buttons(presses(("end",), 100, Stamp(match, 1))))  # type: ignore[arg-type]
        await sweeper.sweep(match)  # its end post swept its answer's buttons
        assert answer.edits, "the ended match's answer was greyed"
    await sweeper.idle()
    assert len(sweeper._answers) == 0, f"{len(sweeper._answers)} ended matches kept"
    assert len(sweeper._locks) == 0, f"{len(sweeper._locks)} ended matches' locks kept"


async def test_a_messages_buttons_are_labelled_in_the_language_it_is_written_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A post in a German server and a DM to a Japanese player: their buttons are made in
    German and in Japanese (``bot.app.buttons`` words its labels in the current language),
    and the language around the delivery is left as it was."""
    made: list[str] = []
    real = delivery_module.presses

    def spying(*args: Any) -> Any:
        made.append(current())
        return real(*args)

    monkeypatch.setattr(delivery_module, "presses", spying)
    client = FakeClient()
    offered = Buttons(("play", "end"), Stamp(1, 2))
    await delivery(client).post(100, Message("Zug", buttons=offered, language="de"), "k1")
    await delivery(client).send_private(
        2, 100, Message("手番", buttons=offered, language="ja"), "k2"
    )
    assert made == ["de", "ja"]
    assert current() == "en"
    assert "view" in client.channels[100].sent[0][1] and "view" in client.dms[2].sent[0][1]


async def test_a_swept_answer_keeps_the_words_its_buttons_went_out_with() -> None:
    """Regression: a stale answer's buttons were made again to be greyed, in the sweep's
    language (English) rather than the one the player read them in."""
    from bot.app.buttons import presses
    from bot.discord.buttons import ToraButton, buttons
    from bot.service import Stamp
    from bot.service.phases import PLAYING

    answer = FakeInteraction(1, SimpleNamespace(id=42))
    view = buttons(presses(("end", "undo"), 100, Stamp(7, 1)))
    german = ["Zug beenden", "Rückgängig"]  # as a German player's answer showed them
    for item, label in zip(view.children, german, strict=True):
        assert isinstance(item, ToraButton)
        item.item.label = label
    hosted = SimpleNamespace(id=7, phase=PLAYING, turn=2, channel_id=100)

    async def sweep(match_id: int) -> SimpleNamespace:
        return SimpleNamespace(hosted=hosted, stale=())

    sweeper = Sweeper(SimpleNamespace(sweep=sweep), FakeClient())  # type: ignore[arg-type]
    sweeper.watch(answer, view)  # type: ignore[arg-type]
    await sweeper.sweep(7)
    [edit] = answer.edits
    shown = [(i.item.label, i.item.disabled) for i in edit["view"].children]
    assert shown == [("Zug beenden", True), ("Rückgängig", True)]


async def test_a_later_answer_ready_after_its_token_is_posted_in_the_channel() -> None:
    """A command's second answer (``/tora-match analyse``'s analysis, for the channel) that
    is ready after Discord's 15 minutes for follow-ups was lost, logged only: it is posted
    in the channel instead, pinging nobody. A private one is not (it would be public)."""
    posted: list[tuple[str, dict[str, Any]]] = []

    async def followup_send(content: str, **kwargs: Any) -> None:
        raise http_error(discord.HTTPException, 401, 50027)  # Invalid Webhook Token

    async def channel_send(content: str, **kwargs: Any) -> None:
        posted.append((content, kwargs))

    interaction = SimpleNamespace(
        id=1,
        guild_id=5,  # in a server's channel
        followup=SimpleNamespace(send=followup_send),
        channel=SimpleNamespace(send=channel_send),
        guild_locale=None,
        locale=SimpleNamespace(value="en-US"),
    )
    responder = Responder(lambda presses: None)

    async def analysis() -> Answer:
        return Answer("Analysis of match 7 (ToriShogi), 2 turns", private=False)

    async def mine() -> Answer:
        return Answer("Only for you", private=True)

    await responder.later(interaction, analysis)  # type: ignore[arg-type]
    await responder.later(interaction, mine)  # type: ignore[arg-type]
    assert [content for content, _kwargs in posted] == ["Analysis of match 7 (ToriShogi), 2 turns"]
    assert posted[0][1]["allowed_mentions"].users is False


async def test_a_private_later_answer_in_a_dm_is_sent_there_after_its_token() -> None:
    """A private second answer ready after the token's 15 minutes was lost (logged) even
    in a DM with the bot, where the channel is private already: it is sent there."""
    posted: list[str] = []

    async def followup_send(content: str, **kwargs: Any) -> None:
        raise http_error(discord.HTTPException, 401, 50027)  # Invalid Webhook Token

    async def channel_send(content: str, **kwargs: Any) -> None:
        posted.append(content)

    interaction = SimpleNamespace(
        id=1,
        guild_id=None,  # a DM with the bot
        followup=SimpleNamespace(send=followup_send),
        channel=SimpleNamespace(send=channel_send),
        guild_locale=None,
        locale=SimpleNamespace(value="en-US"),
    )

    async def mine() -> Answer:
        return Answer("Only for you", private=True)

    await Responder(lambda presses: None).later(interaction, mine)  # type: ignore[arg-type]
    assert posted == ["Only for you"]


def test_the_guide_says_a_private_later_answer_in_a_dm_is_posted() -> None:
    """e7b2aab posts a private later answer in a DM once its token has run out (the DM is
    the caller's alone); docs/DISCORD.md still says every private one is only logged."""
    guide = (Path(__file__).parent.parent / "docs" / "DISCORD.md").read_text()
    assert "a private one is logged" not in guide
