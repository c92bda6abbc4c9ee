"""A player's matches in words, for any front end: ``/tora games`` (the live ones with whose
turn it is, the clocks and who is away; the last ended ones with how they ended) and the
one-line labels of a match in menus and in a heading."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence

from bot.i18n import N_, _, ngettext, option, pgettext, slash
from bot.service import Hosted, MatchInfo, MatchService, Terms, timing
from bot.service.phases import (
    ABORTED,
    CANCELLED,
    CHALLENGE,
    DECLINED,
    ENDED,
    EXPIRED,
    FINISHED,
    FORFEIT,
    LAPSED,
    PLAYING,
    SETUP,
    WITHDRAWN,
)
from bot.service.showing import game_title, result_words, stored_outcome
from bot.service.texts import escape
from rules import Side

RECENT = 5  # the ended matches /tora games lists
KEPT_TURNS = 4096  # matches whose side to act is kept (``Listing._to_act``)
LIVE_SHOWN = 20  # the live ones it lists, the soonest deadlines first: one message's worth


class Listing:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.records = service.records
        self._acting: OrderedDict[tuple[int, int], Side] = OrderedDict()  # ``_to_act``'s

    async def label(self, hosted: Hosted) -> str:
        """``ToriShogi · ann vs bob (playing)``: names as written (for menus)."""
        return (await self.labels([hosted]))[0]

    async def labels(self, matches: Sequence[Hosted]) -> list[str]:
        """``label`` of each of ``matches``, their players' names read at once."""
        seats = [(hosted.issuer_id, hosted.invitee_id) for hosted in matches]
        known = await self._known([user for seat in seats for user in seat])
        return [
            _(
                "{game} \u00b7 {player} vs {opponent} ({phase})",
                game=game_title(hosted),
                player=_named(known, first),
                opponent=_named(known, second),
                phase=_phase(hosted.phase),
            )
            for hosted, (first, second) in zip(matches, seats, strict=True)
        ]

    async def waits_for(self, hosted: Hosted, user_id: int) -> bool:
        """Whether ``hosted`` is being played and it is ``user_id``'s turn ("your turn" in
        ``/tora games``)."""
        if hosted.phase != PLAYING or hosted.match_id is None:
            return False
        return hosted.side_of(user_id) == await self._to_act(hosted, hosted.match_id)

    async def _to_act(self, hosted: Hosted, match_id: int) -> Side:
        """The side to act in a match being played, read once per version of its hosted
        match (every write makes a new one, a turn's end too): the match autocomplete asks
        at every keystroke, for every match of its caller."""
        key = (hosted.id, hosted.version)
        side = self._acting.get(key)
        if side is None:
            side = self._acting[key] = (await self._info(match_id)).side_to_act
            while len(self._acting) > KEPT_TURNS:
                self._acting.popitem(last=False)
        return side

    async def names(self, *user_ids: int | None) -> list[str]:
        """The players' names as written (escape them in texts); "anyone" for an open seat."""
        known = await self._known(user_ids)
        return [_named(known, user) for user in user_ids]

    async def _known(self, user_ids: Iterable[int | None]) -> dict[int, str]:
        """The names of ``user_ids`` (open seats: None) that were ever seen, in one read."""
        return await self.records.player_names({user for user in user_ids if user is not None})

    async def players(self, hosted: Hosted) -> str:
        """``ann vs bob`` for a message: escaped."""
        first, second = map(escape, await self.names(hosted.issuer_id, hosted.invitee_id))
        return _("{player} vs {opponent}", player=first, opponent=second)

    async def games(self, user_id: int) -> str:
        """``user_id``'s matches: the live ones (whose turn, the deadline, where; the
        ``LIVE_SHOWN`` soonest deadlines, then how many more) and the last finished ones (how
        they ended), each with its number and a link."""
        mine = await self.records.of_user(user_id, RECENT)  # every live one
        live = [h for h in mine if h.phase != ENDED]
        ended = [h for h in mine if h.phase == ENDED]
        if not mine:
            return _(
                "You have no matches yet. Challenge someone with {challenge} in a server "
                "channel, or wait for a rated one with {queue}.",
                challenge=slash("tora challenge"),
                queue=slash("tora ladder queue"),
            )
        lines = [_("**Your matches**")] if live else [_("You have no match going on now.")]
        live.sort(key=lambda h: (h.due_at is None, h.due_at or 0.0))  # the most urgent first
        lines += [f"- {await self._game_line(h, user_id)}" for h in live[:LIVE_SHOWN]]
        if len(live) > LIVE_SHOWN:
            lines.append(
                ngettext(
                    "...and {n} more match going on, with a later deadline: {board} with "
                    "`{match}` and its number shows it.",
                    "...and {n} more matches going on, with later deadlines: {board} with "
                    "`{match}` and its number shows one.",
                    len(live) - LIVE_SHOWN,
                    board=slash("tora board"),
                    match=option("match"),
                )
            )
        if ended:
            lines.append(
                _(
                    "**Recently ended** (see them with {board}, {record} or {replay}, N being "
                    "the match's number)",
                    board=slash("tora board", "number:N"),
                    record=slash("tora record", "number:N"),
                    replay=slash("tora replay", "number:N"),
                )
            )
            lines += [f"- {await self._game_line(h, user_id)}" for h in ended]
        return "\n".join(lines)

    async def _game_line(self, hosted: Hosted, user_id: int) -> str:
        return _(
            "Match {number} \u00b7 {game}: {players}, {state} \u00b7 {link}",
            number=hosted.id,
            game=game_title(hosted),
            players=await self.players(hosted),
            state=await self._state_of(hosted, user_id),
            link=self.service.settings.link(hosted.guild_id, hosted.channel_id),
        )

    async def _state_of(self, hosted: Hosted, user_id: int) -> str:
        due = ""
        if hosted.due_at is not None:
            due = _(", due {when}", when=_timestamp(hosted.due_at, "R"))
        if hosted.phase == CHALLENGE:
            return _("waiting for an answer to the challenge{due}", due=due)
        if hosted.phase == SETUP:
            return _("choosing the setups{due}", due=due)
        if hosted.phase == ENDED or hosted.match_id is None:
            return await self._ending_of(hosted)
        to_act = await self._to_act(hosted, hosted.match_id)
        clocks = _clocks_of(hosted, user_id, to_act, self.records.now())
        clocks += await self._away_of(hosted)
        if hosted.side_of(user_id) == to_act:
            return _("**your turn**{due}{clocks}", due=due, clocks=clocks)
        if hosted.paused_left is not None:
            return _("paused{clocks}", clocks=clocks)
        return _("your opponent's turn{due}{clocks}", due=due, clocks=clocks)

    async def _away_of(self, hosted: Hosted) -> str:
        """``; bob away until <t>`` for each player of the match away now."""
        players = [p for p in (hosted.challenger_id, hosted.opposition_id) if p is not None]
        away = await self.records.away_now(hosted.guild_id, players)
        lines = []
        for p, until in away.items():
            name = await self.records.player_name(p) or _("player {id}", id=p)
            when = _timestamp(until, "f")
            lines.append(_("; {player} away until {when}", player=escape(name), when=when))
        return "".join(lines)

    async def _ending_of(self, hosted: Hosted) -> str:
        """How a match ended: its result with the winner's name, or why it has none."""
        outcome = None
        if hosted.match_id is not None and hosted.ending in (FINISHED, FORFEIT):
            outcome = stored_outcome((await self._info(hosted.match_id)).result)
        names = await self.names(hosted.challenger_id, hosted.opposition_id)
        if outcome is None:
            return closing_words(hosted, [escape(n) for n in names])
        result = result_words(outcome, [escape(n) for n in names], localized=True)
        return _("ended: {result}", result=result)

    async def _info(self, match_id: int) -> MatchInfo:
        """A hosted match's game, which exists once the game has begun."""
        info = await self.records.match_info(match_id)
        if info is None:
            raise LookupError(f"match {match_id} of a hosted match is missing")
        return info


def _named(known: dict[int, str], user_id: int | None) -> str:
    """A player's name among those ``known`` by id; "anyone" for an open seat."""
    name = None if user_id is None else known.get(user_id)
    return _("anyone") if name is None else name


def closing_words(hosted: Hosted, names: Sequence[str]) -> str:
    """How a match that ended with no result of its game ended (``names``: the Challenger's
    first, escaped): a competition's game whose setup lapsed is scored by its competition
    (T17, E5): a forfeit win for the one player ready; with neither ready, a tournament's tie
    or an event's game played again."""
    terms = Terms.from_json(hosted.terms)
    if hosted.ending != LAPSED or not terms.competition:
        return ending_words(hosted.ending)
    if hosted.ready in (Side.CHALLENGER.letter, Side.OPPOSITION.letter):
        winner = names[Side.from_letter(hosted.ready)]
        return _("the setup lapsed: {player} wins by forfeit", player=winner)
    if terms.lapse_tied:
        return _("the setup lapsed: a tie, nothing captured")
    return _("the setup lapsed: the game is played again")


def ending_words(ending: str | None) -> str:
    """How a match ended without a result (``ENDINGS``), in the current language."""
    known = ENDINGS.get(ending or "")
    return _(known) if known else _("ended ({ending})", ending=ending)


ENDINGS = {  # the endings without a result (``bot.service.phases``)
    ABORTED: N_("aborted, without a result"),
    CANCELLED: N_("cancelled by an admin, without a result"),
    DECLINED: N_("the challenge was declined"),
    WITHDRAWN: N_("the challenge was taken back"),
    EXPIRED: N_("the challenge expired"),
    LAPSED: N_("the setup lapsed, without a result"),
}


def _phase(phase: str) -> str:
    """A live match's phase, as its line in a menu names it."""
    if phase == CHALLENGE:
        return pgettext("match phase", "challenge")
    if phase == SETUP:
        return pgettext("match phase", "setup")
    if phase == PLAYING:
        return pgettext("match phase", "playing")
    return phase


def _clocks_of(hosted: Hosted, user_id: int, to_act: Side, now: float) -> str:
    """A bank or increment clock's times in a match line: ``; you 2 days, running (bank 5
    days), they 3 days`` ("" on a fixed time per turn)."""
    mine = hosted.side_of(user_id)
    if mine is None:
        return ""
    terms = Terms.from_json(hosted.terms)
    you = timing.side_words(terms, hosted, mine, to_act, now, localized=True)
    they = timing.side_words(terms, hosted, mine.other, to_act, now, localized=True)
    return _("; you {you}, they {they}", you=you, they=they) if you and they else ""


def _timestamp(when: float, style: str) -> str:
    """A moment as Discord shows it in each reader's own time and language."""
    return f"<t:{int(when)}:{style}>"
