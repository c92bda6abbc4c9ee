"""What the bot must be allowed in a channel to host a match or a tournament there, and the
refusal naming what it lacks. Slash commands work where the bot may not post (an admin's
overwrite), but every post there is refused (on Discord: 403) and dropped, so a challenge
nobody sees, or games that never open, would be all it made. The front end says what the
bot may do in the caller's channel (``Caller.may``: on Discord the interaction's
``app_permissions``), by these names, which are Discord's own."""

from __future__ import annotations

from bot.i18n import N_, _, ngettext

from .answers import Unusable
from .callers import Caller

VIEW = N_("View Channel")
SEND = N_("Send Messages")
ATTACH = N_("Attach Files")  # board pictures
CREATE_THREADS = N_("Create Public Threads")
SEND_IN_THREADS = N_("Send Messages in Threads")
THREADS = (CREATE_THREADS, SEND_IN_THREADS)  # a match or a game in a thread of the channel


def lacking(caller: Caller, *needed: str) -> list[str]:
    """Which of ``needed`` the bot lacks in the caller's channel (none where the front end
    knows no such limits, as on the web)."""
    if caller.may is None:
        return []
    return [name for name in dict.fromkeys(needed) if name not in caller.may]


def posting(caller: Caller) -> tuple[str, ...]:
    """What a match's posts in the caller's channel take: in a thread, Send Messages in
    Threads rather than Send Messages."""
    return VIEW, SEND_IN_THREADS if caller.thread else SEND, ATTACH


def check_match(caller: Caller, *also: str) -> None:
    """Refused, naming what the bot lacks, unless it may post a match in the caller's
    channel (and ``also``)."""
    missing = lacking(caller, *posting(caller), *also)
    if missing:
        raise Unusable(
            ngettext(
                "I cannot host a match in this channel: I lack the {permissions} permission "
                "here, so nobody would see its messages. A server admin can grant it to me "
                "(in this channel's settings or my role's), then try again.",
                "I cannot host a match in this channel: I lack the {permissions} permissions "
                "here, so nobody would see its messages. A server admin can grant them to me "
                "(in this channel's settings or my role's), then try again.",
                len(missing),
                permissions=_listed(missing),
            )
        )


def check_tournament(caller: Caller) -> None:
    """Refused, naming what the bot lacks, unless it may post in the caller's channel and
    open its games' threads there."""
    missing = lacking(caller, *posting(caller), *THREADS)
    if missing:
        raise Unusable(
            ngettext(
                "I cannot host a tournament in this channel: I lack the {permissions} "
                "permission here, where it is announced and its games get their threads. A "
                "server admin can grant it to me (in this channel's settings or my role's), "
                "then try again.",
                "I cannot host a tournament in this channel: I lack the {permissions} "
                "permissions here, where it is announced and its games get their threads. A "
                "server admin can grant them to me (in this channel's settings or my role's), "
                "then try again.",
                len(missing),
                permissions=_listed(missing),
            )
        )


def _listed(names: list[str]) -> str:
    return ", ".join(f"**{_(name)}**" for name in names)
