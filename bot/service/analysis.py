"""The analysis of a finished match (``/tora analyse``): the hint's search (``ai.hint``: a
fixed amount of work, so the same match always gives the same analysis) run on the position
before every turn, each in its own turn for an AI worker (``fairness``: an analysis of a
hundred positions never holds up the AI players' turns for long), and each turn played
judged against the hint's by the player who made it (``ai.judge``, after either turn).

Only finished matches are analysed. Once a match has ended, nothing of it is hidden any
more (R44: TORA's Assassin moves are published at the end), so the posts show the players'
own boards. A running match is refused: between people, an analysis would be assistance;
in a practice game, the hint is the help on offer while it runs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from babel.numbers import format_decimal

import ai
from bot.i18n import _, current, ngettext, slash
from rules import UNFINISHED, ActionError, GameState, Side, game_type
from storage import MatchInfo

from .context import Context
from .errors import Refused
from .phases import CANCELLED
from .ports import Attachment, Status
from .texts import escape

WORST = 3  # the turns that lost the most, shown on their boards
WIN_GAP = 100_000.0  # a drop this large is a finished game's worth (``ai.evaluation.WIN``)
# The turns the analysis stops at: those that end the game rather than move, and a turn cut
# short by the opponent's resignation (it never ended, so it is not judged as played).
STOPS = frozenset({"resign", "forfeit", "draw", "reset", UNFINISHED})
Search = Callable[[GameState], Awaitable[list[str]]]  # the hint's turn for a position


@dataclass(frozen=True)
class Slip:
    """A turn that lost: ``number`` (the first turn is 1), who played it, what was played
    and what the hint's search would have played (in notation), and how much it lost by
    (``drop``, in the game's evaluation, from the mover's side); ``said``: the two turns as
    players read them (``GameState.staged``: ToriShogi's board coordinates, TS1), or the
    notation where none is given; ``lost``: the turn played lost the game on the spot (a
    position's fourth occurrence, TS10), which its drop alone would tell as a win missed."""

    number: int
    side: Side
    played: tuple[str, ...]
    better: tuple[str, ...]
    drop: float
    said: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    lost: bool = False


@dataclass(frozen=True)
class Analysis:
    """``values``: the evaluation after each turn from the Challenger's side; ``slips``: the
    turns that lost the most, the worst first; ``before``: the position before each."""

    values: tuple[float, ...]
    slips: tuple[Slip, ...]
    before: tuple[GameState, ...]


def positions(final: GameState) -> list[tuple[GameState, tuple[str, ...]]]:
    """The position before each turn of a finished game that moved (not a resignation, a
    draw or a forfeit, nor a turn the opponent's resignation cut short: it never ended) and
    the turn played there, replayed from the game's setup."""
    kind = game_type(final.game_type)
    options, answers = kind.setup_of(final)
    game: GameState = kind.new_game(options, answers)
    walked: list[tuple[GameState, tuple[str, ...]]] = []
    for turn in final.turns:
        if set(turn.texts) & STOPS:
            break
        walked.append((game.copy(), tuple(turn.texts)))
        try:
            kind.replay_turn(game, turn.texts)
        except ActionError:
            raise Refused(
                _(
                    "This match's turns do not play again from its setup (a secret setup), so "
                    "it cannot be analysed."
                )
            ) from None
    return walked


def after(game: GameState, texts: Sequence[str]) -> GameState:
    """``game`` once ``texts`` have been played and the turn ended."""
    played = game.copy()
    game_type(game.game_type).replay_turn(played, texts)
    return played


async def analyse(final: GameState, search: Search) -> Analysis:
    """The analysis of ``final`` (a finished game): the searches in the AI's workers, the
    replays and judgements off the event loop."""
    walked = await asyncio.to_thread(positions, final)
    if not walked:
        raise Refused(
            _("This match ended before a single move was played: there is nothing to analyse.")
        )
    slips: list[Slip] = []
    values: list[float] = []
    for number, (game, played) in enumerate(walked, 1):
        better = tuple(await search(game.for_player(game.side)))
        slip, value = await asyncio.to_thread(_judged, game, played, better, number)
        slips.append(slip)
        values.append(value)
    worst = sorted((s for s in slips if s.drop > 0), key=lambda s: (-s.drop, s.number))[:WORST]
    before = tuple(walked[s.number - 1][0] for s in worst)
    return Analysis(tuple(values), tuple(worst), before)


def _judged(
    game: GameState, played: tuple[str, ...], better: tuple[str, ...], number: int
) -> tuple[Slip, float]:
    """The turn ``played`` against ``better`` by its mover, and the Challenger's value after
    it."""
    side = game.side
    reached = after(game, played)
    mine = ai.judge(reached, side)
    drop = 0.0 if better == played else ai.judge(after(game, better), side) - mine
    challenger = mine if side == Side.CHALLENGER else ai.judge(reached, Side.CHALLENGER)
    said = (_said(game, played), _said(game, better))
    outcome = reached.outcome()
    lost = outcome is not None and outcome.winner == side.other
    return Slip(number, side, played, better, drop, said, lost), challenger


def _said(game: GameState, texts: tuple[str, ...]) -> tuple[str, ...]:
    """A turn as players read it, staged on ``game``; its notation if it cannot be staged (a
    Torii turn left to its deadline, recorded as ``pass``)."""
    staged = game.copy()
    try:
        for text in texts:
            staged.apply(text)
    except ActionError:
        return texts
    return tuple(staged.staged())


def summary(analysis: Analysis, match_id: int, title: str, names: Sequence[str]) -> str:
    """The analysis in words: who lost the most where, and what the AI would have played
    (in the current language)."""
    head = ngettext(
        "Analysis of match {number} ({game}), {n} turn, by the AI (hard).",
        "Analysis of match {number} ({game}), {n} turns, by the AI (hard).",
        len(analysis.values),
        number=match_id,
        game=title,
    )
    if not analysis.slips:
        return _("{head} No turn lost anything the AI could find.", head=head)
    lines = [head, _("The turns that lost the most (the better turn is drawn on each board):")]
    for rank, slip in enumerate(analysis.slips, 1):
        who = escape(names[0] if slip.side == Side.CHALLENGER else names[1])
        lines.append(f"{rank}. {_slip_line(slip, who)}")
    return "\n".join(lines)


def _slip_line(slip: Slip, who: str) -> str:
    """One of the turns that lost the most, in words: what it lost by the evaluation, or
    that it lost the game there and then."""
    played = _turn_words(slip.said[0] or slip.played, by_player=True)
    better = _turn_words(slip.said[1] or slip.better, by_player=False)
    if slip.lost:
        return _(
            "Turn {number}, {player}: played {played}, which lost the game at once; the AI "
            "prefers {better}.",
            number=slip.number,
            player=who,
            played=played,
            better=better,
        )
    if slip.drop >= WIN_GAP:
        # TRANSLATORS: {cost} in "the AI prefers ... ({cost}, by its evaluation)".
        cost = _("a win missed")
    else:
        # TRANSLATORS: {cost} in "the AI prefers ... ({cost}, by its evaluation)".
        cost = _("{value} lost", value=_amount(slip.drop))
    return _(
        "Turn {number}, {player}: played {played}; the AI prefers {better} ({cost}, by its "
        "evaluation).",
        number=slip.number,
        player=who,
        played=played,
        better=better,
        cost=cost,
    )


def _amount(value: float) -> str:
    """How much a turn lost, as the reader writes numbers: a whole number from a hundred up
    (ToriShogi's and Torii's evaluations run to thousands: never "1.23e+03"), three
    significant digits below."""
    return format_decimal(value, format="#,##0" if value >= 100 else "@##", locale=current())


def _turn_words(turn: Sequence[str], by_player: bool) -> str:
    """A turn as the summary quotes it: its actions in a code span; one without actions in
    words (an empty code span shows as two stray backticks), a player's said to be a pass
    or a turn left to its deadline."""
    if turn:
        return f"`{'; '.join(turn)}`"
    if by_player:
        # TRANSLATORS: {played} in "Turn 2, bob: played {played}; the AI prefers ...".
        return _("no action (a pass, or a turn left to its deadline)")
    # TRANSLATORS: {better} in "the AI prefers {better} (...)": it would pass.
    return _("no action")


def boards(
    analysis: Analysis, draw: Callable[[GameState, Side], Awaitable[bytes]]
) -> list[Awaitable[Attachment]]:
    """The board before each worst turn, the better turn staged on it (drawn as a staged
    turn is): the mover's own view, hiding nothing that the end of the match has not made
    public."""

    async def one(slip: Slip, game: GameState) -> Attachment:
        staged = game.copy()
        for text in slip.better:
            staged.apply(text)
        return Attachment(f"turn-{slip.number}-better.png", await draw(staged, slip.side))

    return [one(slip, game) for slip, game in zip(analysis.slips, analysis.before, strict=True)]


@dataclass(frozen=True)
class Report:
    """An analysis as posted: ``text`` in words, ``boards`` the board before each worst
    turn with the better turn on it; the front end draws the graph of ``values`` (the
    Challenger's evaluation after each turn) with the turns at indices ``marked`` ringed,
    titled ``title``."""

    text: str
    boards: tuple[Attachment, ...]
    values: tuple[float, ...]
    marked: tuple[int, ...]
    title: str


async def report(
    ctx: Context, info: MatchInfo, final: GameState, names: Sequence[str], search: Search
) -> Report:
    """The analysis of the finished match ``info`` (its game ``final``), for a public post."""
    title = game_type(info.game).title
    analysis = await analyse(final, search)
    status = Status(names[0], names[1])

    async def draw(game: GameState, side: Side) -> bytes:
        return (await ctx.private_file(game.view_for(side), status)).data

    pictures = tuple([await picture for picture in boards(analysis, draw)])
    return Report(
        summary(analysis, info.id, title, names),
        pictures,
        analysis.values,
        tuple(slip.number - 1 for slip in analysis.slips),
        _("Match {number} · {game}: evaluation", number=info.id, game=title),
    )


async def analysable(ctx: Context, info: MatchInfo) -> GameState:
    """The game of the match ``info`` to analyse. Refuse a match that is still running
    (see the module's docstring), and one whose turn ends cost the rules core much (TORA's
    long board): its replay and judgements would hold the bot's process for minutes, where
    a hosted turn end of it goes to a worker. A match aborted or cancelled ended without a
    result, and has nothing to analyse."""
    if info.closed == CANCELLED:
        raise Refused(
            _(
                "Match {number} was cancelled: it ended without a result, and there is "
                "nothing to analyse.",
                number=info.id,
            )
        )
    if info.closed is not None:
        raise Refused(
            _(
                "Match {number} was aborted: it ended without a result, and there is nothing "
                "to analyse.",
                number=info.id,
            )
        )
    if not info.state.over:
        raise Refused(
            _(
                "Match {number} is still being played: it can be analysed once it has ended. "
                "Until then, a practice game against the AI offers hints ({command}).",
                number=info.id,
                command=slash("tora hint"),
            )
        )
    game = (await ctx.store.load(info.id)).game
    if game_type(info.game).heavy(game):
        raise Refused(
            _(
                "Match {number} ({game}) has turns that cost the rules seconds each to end "
                "(TORA's long board): it cannot be analysed yet. Matches on TORA's short board, "
                "of ToriShogi and of Torii can.",
                number=info.id,
                game=game_type(info.game).title,
            )
        )
    return game
