"""Answering an interaction safely: at once when the answer is ready quickly, else defer
first and show the answer once it is (ephemeral when it is private), whatever happened in
between. A refusal is shown to the caller alone, as the service worded it; anything
unexpected is logged with a reference and the caller is told, privately, that nothing was
changed.

- An answer is waited for up to ``QUICK`` (from when Discord made the interaction, which
  allows 3 s): one ready by then is the interaction's response (one request); one that is
  not is deferred then ("thinking..."), and shown as the deferral's edit (two requests).
  The caller sees the same answer either way, only sooner or later.
- An interaction is acted on once: a second delivery of the same one (a replayed gateway
  event) is ignored.
- An interaction that reached the bot too late to be acknowledged in time is not acted on
  at all: the user sees Discord's "This interaction failed" and may simply try again, where
  acting anyway would apply a command nobody is told of (and a retry would apply it twice).
  One whose acknowledgement fails once its work has begun (Discord down for those seconds)
  is carried out all the same, and logged as such.
- Once acknowledged, the answer goes out however long the work took: an edit that fails
  with a server error is tried again a few times, then the answer goes as a follow-up, so
  that no "thinking..." is left forever."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import discord

from bot.app.answers import Answer, explain, failure_text
from bot.app.buttons import Press
from bot.app.languages import Languages
from bot.i18n import from_discord, speaking
from bot.service import Attachment

from .bounds import out_of_range
from .callers import caller_of
from .links import keeping, links_of, with_links

log = logging.getLogger(__name__)
LIMIT = 2000  # characters in one Discord message
PRIVATE_KEY = "tora_private"  # in Interaction.extras: whether the answer was asked private
ANSWERED_KEY = "tora_answered"  # in Interaction.extras: its own answer is complete
NOBODY = discord.AllowedMentions.none()  # answers ping nobody, whatever names they hold
EDIT_RETRIES = (0.5, 1.0, 2.0)  # seconds before each new try of an answer after a 5xx
QUICK = 0.25  # seconds after Discord made an interaction that its answer is waited for
SKEW = 0.5  # seconds this clock may be behind Discord's for ``time_left`` to trust it
T = TypeVar("T")
CARRIED_OUT = "an interaction was carried out, but Discord took no answer to it"

Views = Callable[[tuple[Press, ...]], "discord.ui.View | None"]  # an answer's buttons, shown


@dataclass(frozen=True)
class Outgoing:
    """An answer as Discord shows it: its components built."""

    text: str
    files: tuple[Attachment, ...] = ()
    private: bool = True
    view: discord.ui.View | None = None


@dataclass(frozen=True)
class Refusal:
    """A pick refused, to tell the one who picked (``tell``); ``over``: what the message
    picked in was for is over."""

    text: str
    over: bool = False


class Announcing(Protocol):
    """Who disables an event's buttons once they stop applying (the event sweeper)."""

    def watch(self, interaction: discord.Interaction[Any], view: discord.ui.View | None) -> None:
        """``interaction``'s answer went out with ``view``."""


class Watching(Protocol):
    """Who disables an answer's buttons once they stop applying (the sweeper)."""

    def watch(self, interaction: discord.Interaction[Any], view: discord.ui.View | None) -> None:
        """``interaction``'s answer went out with ``view``."""

    def claim(self, interaction: discord.Interaction[Any]) -> None:
        """``interaction``, a pick in a message's components, is about to edit that message."""

    def after(self, match_id: int | None) -> None:
        """Something happened to ``match_id`` that no message about it shows (a rematch
        was asked for): look at its buttons."""


def split(text: str, limit: int = LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible."""
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind("\n", 0, limit)
        cut = limit if cut <= 0 else cut
        pieces.append(text[:cut])
        text = text[cut:].lstrip("\n")
    pieces.append(text)
    return pieces


def files_of(attachments: tuple[Attachment, ...]) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=a.name) for a in attachments]


def time_left(interaction: discord.Interaction[Any]) -> float:
    """How much longer an answer may be waited for before the interaction is deferred: until
    ``QUICK`` after Discord made it (its id's time), so that one that reached the bot late is
    deferred at once, well inside Discord's 3 s. A local clock ahead of Discord's defers
    sooner; one behind by more than ``SKEW`` cannot tell a late interaction (one replayed
    after a reconnection, say) from a new one, so it defers at once."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return 0.0 if age < -SKEW else min(QUICK, QUICK - age)


async def in_time(
    interaction: discord.Interaction[Any],
    job: Coroutine[Any, Any, T],
    acknowledge: Callable[[], Awaitable[bool]],
) -> T | None:
    """``job``'s result: ready within ``time_left``, to go out as the interaction's response
    (not yet done); else once ``acknowledge`` has deferred it (done). None when it could not
    be acknowledged: before the job began (the interaction came too late: it is not acted
    on), or while it ran (it is carried out, and nobody told: logged)."""
    left = time_left(interaction)
    if left <= 0:
        try:
            acknowledged = await acknowledge()
        except BaseException:
            job.close()
            raise
        if acknowledged:
            return await job
        job.close()
        log.warning("an interaction came too late; not acted on", extra={"id": interaction.id})
        return None
    task = asyncio.ensure_future(job)
    try:
        await asyncio.wait((task,), timeout=left)
        acknowledged = task.done() or await acknowledge()
    except asyncio.CancelledError:
        task.cancel()
        raise
    except Exception:  # not Discord's refusal (``acknowledge`` says that): the network's
        log.exception("could not acknowledge an interaction", extra={"id": interaction.id})
        acknowledged = False
    if acknowledged:
        return await task
    await task
    log.error(CARRIED_OUT, extra={"id": interaction.id})
    return None


async def defer(interaction: discord.Interaction[Any], *, private: bool) -> bool:
    """Acknowledge now, showing "thinking" to the caller or to all (Discord allows 3 s);
    whether it is acknowledged."""
    if interaction.response.is_done():
        return True
    try:
        await interaction.response.defer(ephemeral=private, thinking=True)
    except discord.HTTPException as exc:
        log.warning(
            "could not acknowledge an interaction",
            extra={"interaction": interaction.id, "status": exc.status},
        )
        return False
    return True


async def acknowledge_pick(interaction: discord.Interaction[Any], what: str) -> bool:
    """Acknowledge a pick in a message's components now, the message to be edited after
    (Discord allows 3 s); whether it is acknowledged."""
    try:
        await interaction.response.defer()
    except discord.HTTPException:
        log.warning(f"could not acknowledge {what}", extra={"id": interaction.id})
        return False
    return True


async def edit_picked(interaction: discord.Interaction[Any], **shown: Any) -> None:
    """Edit the message a pick was made in: as the pick's response, or once it is deferred,
    as its original response (the same message)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**shown)
    else:
        await interaction.response.edit_message(**shown)


def own_message(interaction: discord.Interaction[Any]) -> bool:
    """Whether a pick was made in a message its caller alone sees: an ephemeral answer to
    them, or any message of a DM. A panel's and a form's components act there only: a
    modified client sends any custom id from any message it sees, a public post's too,
    which the pick's answer would edit."""
    if interaction.guild_id is None:
        return True
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def privately(interaction: discord.Interaction[Any], text: str) -> None:
    """``text`` to the one who made ``interaction`` alone: as its response, or once it is
    deferred or answered, as a follow-up."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NOBODY)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NOBODY)


async def send(interaction: discord.Interaction[Any], answer: Outgoing) -> None:
    """Show ``answer``: as the response, or once deferred as its edit and follow-ups. A
    private answer to a command asked public goes to the caller alone (a public deferral is
    deleted: nothing is left in the channel); a public one to a command asked private stays
    private."""
    pieces = split(answer.text)
    last = len(pieces) - 1
    files = files_of(answer.files)
    extra: dict[str, Any] = {}

    def finals(i: int) -> dict[str, Any]:
        if i != last:
            return {}
        out: dict[str, Any] = {"files": files} if files else {}
        if answer.view is not None:
            out["view"] = answer.view
        return out

    response = interaction.response
    asked_private = interaction.extras.get(PRIVATE_KEY, True)
    private = answer.private or asked_private
    if not response.is_done():
        await response.send_message(
            pieces[0], ephemeral=private, allowed_mentions=NOBODY, **finals(0)
        )
    elif answer.private and not asked_private:
        await _withdraw_public_deferral(interaction)
        for i, piece in enumerate(pieces):
            await interaction.followup.send(
                piece, ephemeral=True, allowed_mentions=NOBODY, **finals(i)
            )
        return
    else:
        first = finals(0)
        if "files" in first:
            extra["attachments"] = first.pop("files")
        await interaction.edit_original_response(
            content=pieces[0], allowed_mentions=NOBODY, **first, **extra
        )
    for i, piece in enumerate(pieces[1:], 1):
        await interaction.followup.send(
            piece, ephemeral=private, allowed_mentions=NOBODY, **finals(i)
        )


async def _withdraw_public_deferral(interaction: discord.Interaction[Any]) -> None:
    """Delete the public "thinking" of a deferral whose answer turned out private, so that
    the channel keeps no trace of it; the answer then goes as ephemeral follow-ups (while
    the deferral stands, Discord would put the first follow-up in its place, public)."""
    with contextlib.suppress(discord.NotFound):  # already gone: a retry after a 5xx
        await interaction.delete_original_response()


TOKEN_GONE = 401  # Discord's answer to a follow-up past its interaction's 15 minutes


def _files(answer: Answer, last: bool) -> list[discord.File]:
    """The answer's files, on its last piece (made afresh for each send: one closes them)."""
    return files_of(answer.files) if last else []


def _in_channel(interaction: discord.Interaction[Any]) -> Callable[..., Awaitable[Any]]:
    """How a public later answer whose token has run out goes out: a message in the
    interaction's channel (not through the outbox: it is informational, as a notice is)."""
    channel = interaction.channel
    if channel is None or not hasattr(channel, "send"):
        raise RuntimeError("the interaction's channel is not known")
    sending: Callable[..., Awaitable[Any]] = channel.send
    return sending


def _may_post(interaction: discord.Interaction[Any], answer: Answer) -> bool:
    """Whether ``answer`` may go out as a message in ``interaction``'s channel: a public
    one, or any in a DM with the bot (its channel is the caller's alone already)."""
    return not answer.private or interaction.guild_id is None


class Responder:
    """Answers interactions: each acted on once (``handled``), ``views`` shows an answer's
    buttons, and ``watching`` (the sweeper) and ``announcing`` (the event sweeper) are told of
    every answer that went out with components, to disable them once they stop applying.
    Every answer is made in the caller's language (``languages``; without it, the one their
    Discord client shows)."""

    def __init__(
        self,
        views: Views,
        handled: Handled | None = None,
        watching: Watching | None = None,
        languages: Languages | None = None,
        announcing: Announcing | None = None,
    ) -> None:
        self.views = views
        self.handled = handled or Handled()
        self.watching = watching
        self.languages = languages
        self.announcing = announcing

    async def language(self, interaction: discord.Interaction[Any], public: bool = False) -> str:
        """The language to answer ``interaction`` in: the caller's, or for an answer all
        the channel sees (``public``) the server's; Discord's if the stored choice cannot
        be read (the answer still goes out)."""
        if self.languages is not None:
            caller = caller_of(interaction)
            try:
                if public:
                    return await self.languages.of_server(caller)
                return await self.languages.of(caller)
            except Exception:
                log.exception("could not read a language", extra={"interaction": interaction.id})
        if public and interaction.guild_locale is not None:
            return from_discord(interaction.guild_locale.value)
        return from_discord(interaction.locale.value)

    async def run(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[Answer]],
        *,
        private: bool,
    ) -> None:
        """Do ``work`` and show its answer, deferred if it takes long; refusals and failures
        as described above."""

        async def shown() -> Outgoing:
            answer = await work()
            view = self.views(answer.buttons) if answer.buttons else None
            view = with_links(view, answer.links)
            return Outgoing(answer.text, answer.files, answer.private, view)

        await self.show(interaction, shown, private=private)

    async def show(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[Outgoing]],
        *,
        private: bool,
        claimed: bool = False,
    ) -> None:
        """``run`` for work that builds its own components (the Play panel); ``claimed``:
        the caller already took the interaction as its own (``handled``)."""
        taken = claimed or await self.handled.first(interaction)
        if not taken:
            log.info(
                "an interaction delivered again is ignored", extra={"interaction": interaction.id}
            )
            return
        interaction.extras[PRIVATE_KEY] = private
        answer = await in_time(
            interaction,
            self._outgoing(interaction, work, private),
            lambda: defer(interaction, private=private),
        )
        if answer is None:
            return
        try:
            await send_surely(interaction, answer)
        except discord.HTTPException:
            if not interaction.response.is_done():  # the work was done, nobody told
                log.exception(CARRIED_OUT, extra={"id": interaction.id})
            else:
                log.exception("could not answer an interaction", extra={"id": interaction.id})
        else:
            mark_answered(interaction)
            self.watch(interaction, answer.view)

    async def _outgoing(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[Outgoing]],
        private: bool,
    ) -> Outgoing:
        """``work``'s answer, or the refusal or failure to show instead, in the language of
        those it is for."""
        with speaking(await self.language(interaction, public=not private)):
            try:
                refusal = out_of_range(interaction)
                return Outgoing(refusal) if refusal else await work()
            except Exception as exc:
                return Outgoing(explain(exc) or report(interaction, exc))

    async def later(
        self, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[Answer]]
    ) -> None:
        """A second answer to an interaction already answered (``run``), once ``work`` is
        done: follow-ups, public unless the answer is private; a refusal or failure goes to
        the caller alone. Discord takes follow-ups for 15 minutes after the command: an
        answer ready later is posted in the channel instead, if it may be (``_may_post``;
        else it is lost, logged).
        Made in the server's language: such answers are for the channel."""
        with speaking(await self.language(interaction, public=True)):
            try:
                answer = await work()
            except Exception as exc:
                answer = Answer(explain(exc) or report(interaction, exc))
        pieces = split(answer.text)
        send: Callable[..., Awaitable[Any]]
        send = functools.partial(interaction.followup.send, ephemeral=answer.private)
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            try:
                try:
                    await send(piece, allowed_mentions=NOBODY, files=_files(answer, last))
                except discord.HTTPException as exc:
                    if i or exc.status != TOKEN_GONE or not _may_post(interaction, answer):
                        raise
                    send = _in_channel(interaction)  # past the token's 15 minutes
                    await send(piece, allowed_mentions=NOBODY, files=_files(answer, last))
            except (discord.HTTPException, RuntimeError):
                log.exception(
                    "could not post a later answer", extra={"interaction": interaction.id}
                )
                return

    def watch(self, interaction: discord.Interaction[Any], view: discord.ui.View | None) -> None:
        """Have the sweepers disable ``view``'s buttons once they stop applying."""
        if self.watching is not None:
            self.watching.watch(interaction, view)
        if self.announcing is not None:
            self.announcing.watch(interaction, view)

    def claim(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the sweeper from editing the message ``interaction`` is about to edit through
        an earlier answer's token (it would show that answer's state over the new one)."""
        if self.watching is not None:
            self.watching.claim(interaction)

    def sweep(self, match_id: int) -> None:
        """Have the sweeper look at ``match_id``'s buttons now."""
        if self.watching is not None:
            self.watching.after(match_id)


async def send_surely(interaction: discord.Interaction[Any], answer: Outgoing) -> None:
    """``send``, trying again after a server error (Discord's 5xx), then as a follow-up in
    place of the "thinking" message (the answer's own visibility, as the deferral's). A
    failed response (no deferral) is not tried again: discord.py did, its 3 s are over."""
    for wait in (*EDIT_RETRIES, None):
        try:
            await send(interaction, answer)
            return
        except discord.HTTPException as exc:
            if exc.status < 500 or not interaction.response.is_done():
                raise
            log.warning(
                "answering an interaction failed (%d); %s",
                exc.status,
                "retrying" if wait is not None else "sending it as a follow-up",
                extra={"interaction": interaction.id},
            )
            if wait is None:
                break
            await asyncio.sleep(wait)
    asked_private = interaction.extras.get(PRIVATE_KEY, True)
    if answer.private and not asked_private:
        await _withdraw_public_deferral(interaction)
    private = answer.private or asked_private
    pieces = split(answer.text)
    for i, piece in enumerate(pieces):
        extra: dict[str, Any] = {}
        if i == len(pieces) - 1:
            extra["files"] = files_of(answer.files)
            if answer.view is not None:
                extra["view"] = answer.view
        await interaction.followup.send(piece, ephemeral=private, allowed_mentions=NOBODY, **extra)


Shared = Callable[[int], Awaitable[bool]]  # whether no other process took an interaction


class Handled:
    """Interaction ids acted on in the last ``seconds`` (a token's life): each is acted on
    once, however often it is delivered. With ``sharing`` (the service's ``first_seen``),
    also across the processes that share the database (one of them takes it).

    The shared look, a database write, is waited for only as long as the interaction may
    wait before its acknowledgement (``time_left``): a database slower than that
    would cost the interaction (Discord's 3 s). Past it the interaction is taken, and
    Discord decides: it takes one acknowledgement per interaction, and one that comes that
    late is acknowledged before anything is done (``in_time``), so a copy another process
    already answered is not acted on. (Two processes given the same interaction within
    that quarter second would both act; Discord delivers it again only after a
    reconnection, seconds later.) The write goes on in the background."""

    def __init__(self, seconds: float = 15 * 60.0, most: int = 50_000) -> None:
        self.seconds, self.most = seconds, most
        self._seen: dict[int, float] = {}
        self._sweep_at = most
        self._writes: set[asyncio.Task[bool]] = set()
        self.sharing: Shared | None = None

    async def first(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether ``interaction`` is seen for the first time (the shared look waited for as
        long as it may wait before its acknowledgement, ``time_left``)."""
        interaction_id, now = interaction.id, time.monotonic()
        if len(self._seen) >= self._sweep_at:
            self._seen = {i: t for i, t in self._seen.items() if now - t < self.seconds}
            # the next sweep once as many again have come (as ``RateLimit``'s): a busy
            # quarter hour costs one look through it per as many interactions, not per one
            self._sweep_at = max(self.most, 2 * len(self._seen))
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = now
        if self.sharing is None:
            return True
        write = asyncio.ensure_future(self.sharing(interaction_id))
        done, _ = await asyncio.wait((write,), timeout=max(time_left(interaction), 0.0))
        if write in done:
            return write.result()
        self._writes.add(write)
        write.add_done_callback(_shared_look_done)
        write.add_done_callback(self._writes.discard)
        log.warning(
            "the shared look at an interaction is slow; taken", extra={"id": interaction_id}
        )
        return True


def _shared_look_done(write: asyncio.Task[bool]) -> None:
    """A shared look that failed after its interaction was taken: logged."""
    if not write.cancelled() and (exc := write.exception()) is not None:
        log.error("recording an interaction as taken failed", exc_info=exc)


async def within(interaction: discord.Interaction[Any], read: Awaitable[T], otherwise: T) -> T:
    """``read``'s result if it comes before ``interaction`` must be acknowledged
    (``time_left``), else ``otherwise`` (the read given up): for a read that decides how to
    acknowledge it (in public or not), which cannot wait for the acknowledgement."""
    try:
        return await asyncio.wait_for(read, timeout=max(time_left(interaction), 0.0))
    except TimeoutError:
        log.warning("a read before acknowledging was slow", extra={"id": interaction.id})
        return otherwise


def mark_answered(interaction: discord.Interaction[Any]) -> None:
    """``interaction``'s own answer is complete: a private message may follow it up."""
    interaction.extras[ANSWERED_KEY] = True


def answered(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's own answer is complete: only then may another message follow
    it up. Before, Discord would put a follow-up in place of the "thinking" message, public
    if the deferral was."""
    return bool(interaction.extras.get(ANSWERED_KEY))


def report(interaction: discord.Interaction[Any], exc: BaseException) -> str:
    """Log an unexpected failure under a new reference, and the words for the caller."""
    ref = secrets.token_hex(4)
    command = interaction.command.qualified_name if interaction.command else "component"
    log.error(
        "command failed",
        exc_info=exc,
        extra={"ref": ref, "command": command, "user": interaction.user.id},
    )
    return failure_text(ref)


async def _refusing(
    interaction: discord.Interaction[Any], job: Coroutine[Any, Any, dict[str, Any] | Refusal]
) -> dict[str, Any] | Refusal:
    """``job``'s answer, or its failure as a refusal (``report``: logged with a reference):
    answered at once, a pick whose work failed would otherwise get no response at all."""
    try:
        return await job
    except Exception as exc:
        return Refusal(report(interaction, exc))


async def answer_pick(
    interaction: discord.Interaction[Any],
    job: Coroutine[Any, Any, dict[str, Any] | Refusal],
    what: str,
) -> dict[str, Any] | None:
    """Answer a pick in a message's components (``what``: "a panel pick") with ``job``'s
    edit of that message (``edit_picked``'s keywords), or its refusal (``tell``): as the
    pick's response when it is ready quickly, else once the pick is deferred. The edit, once
    made: the pick is then answered (``mark_answered``), as a follow-up of a deferred update
    takes the place of nothing, and one sent ephemeral goes to the one who picked alone."""
    acknowledge = functools.partial(acknowledge_pick, interaction, what)
    reply = await in_time(interaction, _refusing(interaction, job), acknowledge)
    if reply is None:
        return None
    if isinstance(reply, Refusal):
        await tell(interaction, reply.text, over=reply.over, what=what)
        return None
    try:
        await edit_picked(interaction, **reply)
    except discord.HTTPException:
        log.exception("could not answer %s", what, extra={"interaction": interaction.id})
        return None
    mark_answered(interaction)
    return reply


async def tell(interaction: discord.Interaction[Any], text: str, *, over: bool, what: str) -> None:
    """A refusal of a pick in a message's menus (``what``: "a panel pick"), to the one who
    picked alone; ``over``: what the message was for is over, so its components go (its
    links stay)."""
    try:
        if over:
            shown = interaction.message
            links = () if shown is None else links_of(discord.ui.View.from_message(shown))
            await edit_picked(interaction, view=keeping(None, links))
        await privately(interaction, text)
        mark_answered(interaction)
    except discord.HTTPException:
        log.exception("could not answer %s", what, extra={"interaction": interaction.id})
