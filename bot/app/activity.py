"""Which match the web board shows as a Discord Activity (docs/WEB.md, "In Discord"), for
the bot that launches it and the web board that serves it alike. An Activity runs in a
channel, not on a match: in a server's channel (a match's thread) it is that channel's live
match, else the channel's latest one (its page stays once it has ended; without any, a player
of a match elsewhere in the server is pointed to it); in a direct message, the user's own live
match, if they play exactly one. A match has its board (the players' setup page, then the
game) once its challenge is accepted. The bot launches the Activity only where this finds the
very match a Play button or ``/tora play`` is about, and opens the Play panel (with its web
link) everywhere else. Its refusals are in the current language (the signed-in user's)."""

from __future__ import annotations

import logging

from bot.i18n import N_, _, slash
from bot.service import Hosted, Records
from bot.service.phases import CHALLENGE

from .answers import Unusable
from .callers import Caller

log = logging.getLogger(__name__)
NOTHING_HERE = N_(
    "There is no match in this channel yet: challenge someone with {challenge}, then "
    "open the board from the match's Play button."
)
NONE_OF_YOURS = N_(
    "You play no match at the moment, so there is no board to open in a direct message: "
    "open it in the channel of the match you want to watch."
)
SEVERAL = N_(
    "You play several matches, so a direct message does not say which: open the board with "
    "the Play button in the match's own channel (or its thread)."
)
NO_GAME = N_("This match has no board yet: its game starts once the challenge is accepted.")
ELSEWHERE = N_(
    "No match is played in this channel; yours (match {number}) is played elsewhere in this "
    "server: open the board with the Play button in the match's own channel (or its thread)."
)
CHALLENGED_ELSEWHERE = N_(
    "No match is played in this channel, and yours in this server have no board yet: a "
    "match's game starts once its challenge is accepted."
)
ELSEWHERE_SEVERAL = N_(
    "No match is played in this channel; yours are played elsewhere in this server: open the "
    "board with the Play button in the match's own channel (or its thread)."
)


async def match_for(
    records: Records, channel_id: int, user_id: int, guild_id: int | None
) -> Hosted:
    """The match an Activity in ``channel_id`` of server ``guild_id`` (None: a direct
    message) shows ``user_id`` (Unusable: none, saying why and where to open it instead):
    one with a board, its challenge accepted (its setup page until its game starts)."""
    if guild_id is None:
        hosted = await _yours(records, user_id)
    else:
        hosted = await _channels(records, channel_id, user_id, guild_id)
    if hosted.phase == CHALLENGE:
        raise Unusable(_(NO_GAME))
    return hosted


async def _channels(records: Records, channel_id: int, user_id: int, guild_id: int) -> Hosted:
    """The channel's live match, else its latest that had a game; without any, the
    refusal points a player of matches elsewhere in the server to those with a board (with
    a thread per match, the Activity is often opened in the threads' channel), as the
    commands do; a challenge not yet accepted has none to open."""
    hosted = await records.live_in_channel(channel_id)
    hosted = hosted or await records.latest_in_channel(channel_id, with_game=True)
    if hosted is not None:
        return hosted
    theirs = [h for h in await records.of_user(user_id, 0) if h.live and h.guild_id == guild_id]
    boards = [h for h in theirs if h.phase != CHALLENGE]
    if len(boards) == 1:
        raise Unusable(_(ELSEWHERE, number=boards[0].id))
    if boards:
        raise Unusable(_(ELSEWHERE_SEVERAL))
    if theirs:
        raise Unusable(_(CHALLENGED_ELSEWHERE))
    raise Unusable(_(NOTHING_HERE, challenge=slash("tora challenge")))


async def _yours(records: Records, user_id: int) -> Hosted:
    """In a direct message: the user's one live match with a board."""
    live = [hosted for hosted in await records.of_user(user_id, 0) if hosted.live]
    mine = [hosted for hosted in live if hosted.phase != CHALLENGE]  # those with a board
    if not mine:
        raise Unusable(_(NO_GAME) if live else _(NONE_OF_YOURS))
    if len(mine) > 1:
        raise Unusable(_(SEVERAL))
    return mine[0]


class Activities:
    """Whether a Play button or ``/tora play`` launches the Activity (``enabled``: the
    operator set ``TORA_ACTIVITY=on``) rather than the Play panel."""

    def __init__(self, records: Records, enabled: bool) -> None:
        self.records = records
        self.enabled = enabled

    async def launches(self, caller: Caller, match: int | None) -> bool:
        """Whether the Activity, launched where ``caller`` is, shows them their own side
        of their live match ``match`` (None: whichever match it finds, if theirs). A read
        that fails (the database away) says no: the Play panel then says what is wrong, as
        with the Activity off, where the launch would have no answer at all."""
        if not self.enabled:
            return False
        try:
            hosted = await match_for(
                self.records, caller.channel_id, caller.user.id, caller.guild_id
            )
        except Unusable:
            return False
        except Exception:  # the Play panel instead: it answers whatever failed here
            log.exception("could not find the Activity's match", extra={"user": caller.user.id})
            return False
        theirs = hosted.live and hosted.side_of(caller.user.id) is not None
        return theirs and (match is None or hosted.id == match)
