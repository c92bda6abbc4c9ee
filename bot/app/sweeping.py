"""Which buttons stopped applying, for any front end that shows them: a challenge's Accept and
Decline once it is answered or gone, a turn's Play, End turn and Undo once that turn has
ended, a proposal's once it no longer stands (answered, taken back or lapsed, whatever the
turn), a setup form once the setup is over, every button once the match is over but the
end post's Rematch, which holds while the match is its channel's latest. The
messages a front end sent with buttons are kept through the service (``remember``), so this
works after a restart; what to do with a stale message (disable it) is the front end's."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service import ButtonMessage, Hosted, MatchService, Stamp, open_proposals
from bot.service.phases import CHALLENGE, ENDED, PLAYING, SETUP

from .setup_form import VERB as SETUP_FORM

CHALLENGE_VERBS = frozenset({"accept", "decline", "takeback"})
PROPOSAL_VERBS = frozenset({"draw", "reset", "pause", "rewind"})  # beside a Decline, on a proposal
REMATCH = "rematch"  # on the end post: holds after the end, until another match is started
PANEL = ("panel",)  # the verbs of a Play panel: its menus go once its turn is over


def stale(verbs: tuple[str, ...], turn: int, hosted: Hosted, latest: bool = True) -> bool:
    """Whether buttons made for ``turn`` of ``hosted`` no longer apply (``latest``: whether
    ``hosted`` is its channel's latest match, for a Rematch)."""
    if REMATCH in verbs:
        return hosted.phase != ENDED or not latest
    if hosted.phase == ENDED:
        return True
    if SETUP_FORM in verbs:
        return hosted.phase != SETUP
    proposed = PROPOSAL_VERBS.intersection(verbs)
    if proposed:
        return hosted.phase != PLAYING or not proposed & open_proposals(hosted)
    if CHALLENGE_VERBS.intersection(verbs):
        return hosted.phase != CHALLENGE
    return hosted.phase != PLAYING or turn != hosted.turn


@dataclass(frozen=True)
class Sweep:
    """A match as it is now, and the messages kept with its buttons that no longer apply."""

    hosted: Hosted
    stale: tuple[ButtonMessage, ...]


class Sweeping:
    def __init__(self, service: MatchService) -> None:
        self.records = service.records

    async def remember(
        self, channel_id: int, message_id: int, verbs: tuple[str, ...], stamp: Stamp
    ) -> None:
        """A message went out with buttons (``verbs``) for ``stamp``'s match and turn."""
        sent = ButtonMessage(channel_id, message_id, stamp.match, verbs, stamp.turn)
        await self.records.remember_buttons(sent)

    async def sweep(self, match_id: int) -> Sweep | None:
        """The match's kept messages whose buttons stopped applying (None: no such match)."""
        hosted = await self.records.hosted(match_id)
        if hosted is None:
            return None
        kept = await self.records.button_messages(match_id)
        newest = await self.records.latest_in_channel(hosted.channel_id)
        latest = newest is None or newest.id == hosted.id
        found = [m for m in kept if stale(m.verbs, m.turn, hosted, latest)]
        if latest and hosted.live and hosted.turn <= 1:
            found += await self._overtaken_rematches(hosted)
        return Sweep(hosted, tuple(found))

    async def _overtaken_rematches(self, hosted: Hosted) -> list[ButtonMessage]:
        """The Rematch posts of the channel's earlier matches: a new match there (looked at
        while it is new, so that the channel's buttons are read once or twice per match,
        not at every turn) is the channel's latest, so theirs no longer holds."""
        kept = await self.records.channel_button_messages(hosted.channel_id)
        return [m for m in kept if m.hosted_id != hosted.id and REMATCH in m.verbs]

    async def forget(self, channel_id: int, message_id: int) -> None:
        """A kept message was dealt with (disabled, or found gone)."""
        await self.records.forget_buttons(channel_id, message_id)
