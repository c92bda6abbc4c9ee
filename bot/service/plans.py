"""Planned replies (conditional moves): while the opponent's turn runs, a player leaves
lines of "if they play X, I play Y", several alternatives, each several turns deep
(``X > Y | X2 > Y2``); in TORA a whole turn in reply to a whole turn. A trigger is the
opponent's turn as the planner sees it (its public form: a plan never depends on what the
planner may not know), so a turn with a hidden action cannot be a trigger; and a reply may
end with an action that shows what the planner cannot know yet (TORA's search, R43) but not
go on after it (``stage_reply``): what it finds would decide whether the rest can be
played, and so tell the planner, without the search being seen, where an enemy Assassin
stands.

When the opponent's turn ends and matches the first step of a line, its reply is played at
once, checked by the rules like any turn, and the lines of that branch go on one step
shorter; the lines it does not match are dropped, and so is the branch whose reply is no
longer legal (nothing is played then). The planner is told in a DM (when nothing was
played, in the "your turn" DM: ``turns.after_turn``). Plans are PRIVATE (``plans`` rows,
read only for their side), survive restarts and go with the match's end; the opponent's
view is the same whether plans exist or not."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from bot.i18n import SOURCE, _, ngettext, speaking, word
from rules import ActionError, GameState, GameView, Side, game_type
from rules.words import Text, msg

from .context import Context
from .errors import Refused
from .models import Reply, User, is_robot
from .phases import PLAYING
from .table import Table, player_side
from .texts import quote

STEP, THEN = ">", "|"  # "their turn > my reply | their next turn > my next reply"
MOST_TEXT = 400  # characters of a line as typed
MOST_LINES, MOST_DEPTH = 10, 8
Line = list[tuple[list[str], list[str]]]  # (their turn's actions, my reply's actions)


def encode(line: Line) -> str:
    return json.dumps([[theirs, mine] for theirs, mine in line])


def decode(text: str) -> Line:
    return [(list(theirs), list(mine)) for theirs, mine in json.loads(text)]


def words(line: Line, them: str) -> str:
    """``if bob plays c5c4, you play a3a4; then if bob plays ...``, in the current language."""
    said = ""
    for theirs, mine in line:
        step = _step(them, theirs, mine)
        said = _("{plan}; then {step}", plan=said, step=step) if said else step
    return said


def _step(them: str, theirs: list[str], mine: list[str]) -> str:
    if not theirs:
        return _("if {player} plays nothing, you play {reply}", player=them, reply="; ".join(mine))
    return _(
        "if {player} plays {turn}, you play {reply}",
        player=them,
        turn="; ".join(theirs),
        reply="; ".join(mine),
    )


def parse(text: str) -> list[tuple[str, str]]:
    """A line as typed, in steps (their turn, my reply); Refused, saying how to write one."""
    how = _(
        "Write a plan as `their turn > your reply`, steps deeper after `|`: "
        "`c5c4 > a3a4 | b5b4 > c3c4` (in TORA a turn's actions separated by `;`)."
    )
    if len(text) > MOST_TEXT:
        raise Refused(
            _(
                "A plan is at most {most} characters; this one is {length}. {how}",
                most=MOST_TEXT,
                length=len(text),
                how=how,
            )
        )
    steps = []
    for part in text.split(THEN):
        theirs, arrow, mine = part.partition(STEP)
        if not arrow or not theirs.strip() or not mine.strip() or STEP in mine:
            raise Refused(
                _("Cannot read the step {step}. {how}", step=quote(part.strip()), how=how)
            )
        steps.append((theirs.strip(), mine.strip()))
    if len(steps) > MOST_DEPTH:
        raise Refused(
            _(
                "A plan goes at most {most} steps deep, not {depth}.",
                most=MOST_DEPTH,
                depth=len(steps),
            )
        )
    return steps


# why a line gets ``Stuck``
OVER, ILLEGAL, AFTER_SEARCH, PLAYS_ON = "over", "illegal", "after search", "plays on"
NEXT_GAME = "next game"


@dataclass(frozen=True)
class Stuck:
    """Where a line, or a reply, cannot be played: at step ``number``, the game ``OVER``
    after the opponent's turn ``detail``, or the opponent to act again after it (it
    ``PLAYS_ON``: their answer in the planner's turn, TI15, is followed by their own), an
    ``ILLEGAL`` action (``detail``: the rules' reason, a ``Text``), the game of a series
    over after it (``NEXT_GAME``, R28) or an action going on
    ``AFTER_SEARCH`` (``detail``: the search).
    Plain data, in no language: it comes back from a rules worker (``Offload.rules_work``)
    and is worded in the reader's (``refusal``)."""

    number: int
    why: str
    detail: str


def refusal(stuck: Stuck) -> Refused:
    """Why the line cannot be played, in the current language."""
    if stuck.why == AFTER_SEARCH:
        return AfterSearch(stuck.detail)
    if stuck.why == OVER:
        return Refused(
            _(
                "Step {number}: after {turn} the game is over.",
                number=stuck.number,
                turn=quote(stuck.detail),
            )
        )
    if stuck.why == NEXT_GAME:
        return Refused(
            _(
                "Step {number}: after {turn} this game of the series is over, and a plan "
                "answers turns of its own game: plan your replies in the next once it begins.",
                number=stuck.number,
                turn=quote(stuck.detail),
            )
        )
    if stuck.why == PLAYS_ON:
        return Refused(
            _(
                "Step {number}: after {turn} it is still your opponent's turn, so no reply of "
                "yours comes next: plan it once their own turn runs.",
                number=stuck.number,
                turn=quote(stuck.detail),
            )
        )
    return Refused(
        _(
            "Step {number} cannot be played: {reason}",
            number=stuck.number,
            reason=word(stuck.detail),
        )
    )


def played_out(game: GameState, side: Side, steps: list[tuple[str, str]]) -> Line | Stuck:
    """The line of ``steps`` played out on ``game`` (``side``'s own copy, the opponent to
    act), in the rules' own notation, or the step where it gets stuck; within the game of
    a series (R28) it begins in: a reply in the next would answer a turn of another board.
    Two turn ends a step (TORA's search): run in a rules worker (``Offload.rules_work``)."""
    series = game_type(game.game_type).series_number
    first = series(game)
    line: Line = []
    for number, (theirs, mine) in enumerate(steps, 1):
        try:
            _turn(game, theirs)
            seen = [event.text for event in game.view_for(side).last_turn]
            stuck = no_reply(game, side, first, Stuck(number, "", theirs))
            if stuck is not None:
                return stuck
            stage_reply(game, mine)
            game.end_turn()
            played = list(game.turns[-1].texts)
            _host_pass(game, side)
        except AfterSearch as refused:
            return Stuck(number, AFTER_SEARCH, refused.action)
        except ActionError as exc:
            return Stuck(number, ILLEGAL, exc.message)
        line.append((seen, played))
        if game.is_over() or series(game) != first:
            break
    return line


def no_reply(game: GameState, side: Side, series: int, step: Stuck) -> Stuck | None:
    """Why no reply of ``side``'s may follow the opponent's turn just ended on ``game``
    (``step`` with its ``why``): the game over, the game ``series`` of a series (R28) over,
    or the opponent to act again; None when the reply comes next."""
    if game.is_over():
        return replace(step, why=OVER)
    if game_type(game.game_type).series_number(game) != series:
        return replace(step, why=NEXT_GAME)
    if game.side != side:
        return replace(step, why=PLAYS_ON)
    return None


def _host_pass(game: GameState, side: Side) -> None:
    """The pass the host plays at once when it is ``side``'s only action (TI8: their
    decision in the opponent's turn, TI15, left their own turn one), played on the
    planner's copy too, so that the line's next step is the opponent's turn after it."""
    if game.side == side and game.view_for(side).forced_pass:
        (only,) = game.legal_actions()
        game.apply(only)
        game.end_turn()


def _line(outcome: Line | Stuck) -> Line:
    """The line played out, or its refusal raised."""
    if isinstance(outcome, Stuck):
        raise refusal(outcome)
    return outcome


def _turn(game: GameState, text: str) -> list[str]:
    """Play a whole turn (actions separated by ``;``) on ``game``: its actions' notation."""
    for part in text.split(";"):
        if part.strip():
            game.apply(part.strip())
    game.end_turn()
    return list(game.turns[-1].texts)


class AfterSearch(Refused):
    """A planned reply goes on after ``action``, which shows hidden information."""

    def __init__(self, action: str) -> None:
        super().__init__(after_search(action))
        self.action = action


def after_search(action: str) -> str:
    """Why a reply may not go on after ``action`` (a search), in the current language."""
    return _(
        "A planned reply may end with a search but not go on after it: what {action} finds "
        "decides what can follow, which a plan may not depend on. End the reply with the "
        "search, and plan the rest once you know what it found.",
        action=quote(action),
    )


def stage_reply(game: GameState, text: str) -> None:
    """Stage a planned reply's actions (``text``, separated by ``;``) on ``game``, the
    planner's own copy: ActionError if one cannot be played, ``AfterSearch`` (Refused) if
    one comes after an action that showed what the planner cannot know (one that cannot be
    taken back, R10: TORA's search, R43). A reply may end with such an action."""
    actions = [part.strip() for part in text.split(";") if part.strip()]
    for number, action in enumerate(actions, 1):
        game.apply(action)
        if number < len(actions) and _reveals(game):
            raise AfterSearch(action)


def _reveals(game: GameState) -> bool:
    """Whether the action just staged on ``game`` has shown hidden information: the rules
    keep it from being taken back (R10)."""
    probe = game.copy()
    try:
        probe.undo()
    except ActionError:
        return True
    return False


def _conflict(old: Line, new: Line) -> bool:
    """Whether two lines answer the same turns differently (which reply would be played?)."""
    for (theirs_a, mine_a), (theirs_b, mine_b) in zip(old, new, strict=False):
        if theirs_a != theirs_b:
            return False
        if mine_a != mine_b:
            return True
    return False


async def plans_of(ctx: Context, table: Table, side: Side) -> list[Line]:
    return [decode(text) for text in await ctx.store.hosting.private_plans(table.hosted.id, side)]


async def keep(ctx: Context, table: Table, side: Side, lines: list[Line]) -> None:
    await ctx.store.hosting.put_plans(table.hosted.id, side, [encode(line) for line in lines])


async def manage(
    ctx: Context, table: Table, user: User, add: str | None, cancel: str | None
) -> Reply:
    """``/tora plans``: add a line, cancel one (its number) or ``all``, and list them."""
    if table.hosted.phase != PLAYING:
        raise Refused(_("The game has not started yet, so there is nothing to plan."))
    side = player_side(table, user)
    lines = await plans_of(ctx, table, side)
    them = table.side_name(side.other)
    said = ""
    if cancel is not None:
        lines, said = _cancelled(lines, cancel)
    if add is not None:
        refuse_acting(ctx, table, side)
        refuse_unplannable(table, side)
        if len(lines) >= MOST_LINES:
            raise Refused(_("You have {most} plans, the most; cancel one first.", most=MOST_LINES))
        copy = table.game.for_player(side)
        line = _line(await ctx.offload.rules_work(copy, played_out, copy, side, parse(add)))
        clash = next((n for n, old in enumerate(lines, 1) if _conflict(old, line)), None)
        if clash is not None:
            raise Refused(
                _(
                    "Plan {number} answers the same turn with another reply: cancel it first.",
                    number=clash,
                )
            )
        lines.append(line)
        said = _("Plan {number} saved.", number=len(lines))
    if add is not None or cancel is not None:
        await keep(ctx, table, side, lines)
    listed = [f"{n}. {words(line, them)}" for n, line in enumerate(lines, 1)]
    head = (
        ngettext(
            "Your plans against {player} ({n} line):",
            "Your plans against {player} ({n} lines):",
            len(lines),
            player=them,
        )
        if lines
        else _("No plans.")
    )
    return Reply("\n".join([x for x in (said, head) if x] + listed), stamp=table.stamp)


def against_robot(table: Table, side: Side) -> Text | None:
    """Why no plan when ``side``'s opponent is an AI, however the plan is made (None: a
    person): it answers at once, so no turn of its runs long enough to plan a reply to."""
    if not is_robot(table.hosted.player(side.other)):
        return None
    return msg("The AI answers at once: there is no time to plan a reply against it.")


def refuse_acting(ctx: Context, table: Table, side: Side) -> None:
    """Refused while ``side``'s player acts: in their own turn, or deciding in the
    opponent's (TI15: Torii's Monkey), their own turn to follow; a plan answers the
    opponent's turn after it, so it is made once that one runs."""
    if table.game.side != side:
        return
    command = ctx.cmd("play", localized=True)
    view = table.game.view_for(side)
    if view.deciding:
        raise Refused(
            _(
                "You have a decision to make in {player}'s turn, {decision}, and then your own "
                "turn to play: a plan answers their next turn, so make both ({command}), then "
                "plan your reply while theirs runs.",
                player=table.side_name(side.other),
                decision=word(view.decision),
                command=command,
            )
        )
    raise Refused(
        _(
            "It is your turn: a plan answers your opponent's turn. Play yours, then plan your "
            "reply while theirs runs ({command}).",
            command=command,
        )
    )


def unplannable(table: Table, side: Side, view: GameView | None = None) -> Text | None:
    """Why ``side``'s player may not plan a reply while the opponent acts (None: they
    may), worded where it is shown (``word``): a page offers no plan mode then. Their own
    turn aside (``refuse_acting``): nothing is offered to plan in it. ``view``: theirs,
    where the caller has it already (a look builds it: not again for every look)."""
    return _deciding(table, side, view) or against_robot(table, side)


def refuse_unplannable(table: Table, side: Side) -> None:
    """Refused while ``side`` may not plan (``unplannable``), in the panel as with
    ``/tora plans``, which would otherwise try the line and refuse it with a rules error."""
    why = unplannable(table, side)
    if why is not None:
        raise Refused(word(why))


def _deciding(table: Table, side: Side, view: GameView | None = None) -> Text | None:
    """Why no plan while the opponent decides in ``side``'s turn (TI15): their own turn
    follows, and a plan answers that turn, whose position the decision has not made yet."""
    view = table.game.view_for(side) if view is None else view
    if not view.deciding or view.side != side.other:
        return None
    return msg(
        "{player} has a decision to make in your turn, {decision}, and then plays their own "
        "turn: a plan answers that turn, so plan your reply once it runs.",
        player=table.side_name(side.other),
        decision=view.decision,
    )


def _cancelled(lines: list[Line], cancel: str) -> tuple[list[Line], str]:
    typed = cancel.strip().lower()
    if typed == "all":
        return [], _("Every plan cancelled.")
    if not lines:  # no range of numbers to offer
        raise Refused(_("You have no plans to cancel."))
    # ASCII digits only: ``isdigit`` takes "²", which ``int`` does not, and ``int`` takes
    # other scripts' digits, which nobody reading the list would type for its numbers
    if not (typed.isascii() and typed.isdecimal()) or not 1 <= int(typed) <= len(lines):
        raise Refused(
            _(
                "Cancel a plan by its number, 1 to {most}, or `all`; not {given}.",
                most=len(lines),
                given=quote(cancel),
            )
        )
    number = int(typed)
    return lines[: number - 1] + lines[number:], _("Plan {number} cancelled.", number=number)


@dataclass(frozen=True)
class Answer:
    """What the planner's plans make of the turn that has just ended: the ``reply`` to play
    (None: nothing is played), their lines from now on (``kept``, encoded), and the DM
    telling them (``told``, in their ``language``). Nothing is written: the caller saves it
    with the turn it answers."""

    planner: Side
    reply: list[str] | None
    kept: list[str]
    told: str
    language: str = SOURCE


def planner_of(table: Table) -> Side | None:
    """Whose plans the end of the turn just ended may answer: the player whose turn begins,
    unless the game is over, the match paused, that player an AI or the turn just ended
    their own (their answer in the opponent's turn, TI15: their plans answer only the
    opponent's turns)."""
    game = table.game
    if game.is_over() or table.paused or is_robot(table.hosted.player(game.side)):
        return None
    if game.turns and game.turns[-1].side == game.side:
        return None
    return game.side


async def answer(
    ctx: Context, table: Table, planner: Side, texts: list[str], lapsed: bool = False
) -> Answer | None:
    """The opponent's turn has just ended: ``planner``'s (``planner_of``) matching reply
    from their plans (``texts``, as stored), checked on their own copy of the game and then
    on a copy of the game itself, or their plans dropped when the turn matched none, the
    reply is no longer legal or it goes on after a search (a line kept before that was
    refused); None when they have no plans to answer with. A turn ``lapsed`` at its
    deadline is told as nothing played, whatever the game shows of it (Torii: a pass)."""
    if not texts:
        return None
    game, hosted = table.game, table.hosted
    lines = [decode(text) for text in texts]
    seen = [event.text for event in game.view_for(planner).last_turn]
    them = table.side_name(planner.other)
    matching = [line for line in lines if line[0][0] == seen]
    language = await ctx.player_language(hosted.player(planner))
    if not matching:
        with speaking(language):
            told = _unanswered(them, [] if lapsed else seen, len(lines))
            return Answer(planner, None, [], told, language)
    reply = matching[0][0][1]
    mine, real = game.for_player(planner), game.copy()
    stuck = await ctx.offload.rules_work(game, _reply_stuck, mine, real, reply)
    if stuck is not None and stuck.why == AFTER_SEARCH:
        # going on after a search: kept before that was refused
        with speaking(language):
            told = ngettext(
                "Your planned reply {reply} to {player}'s turn was not played, and {n} plan "
                "was dropped: {reason} It is your turn.",
                "Your planned reply {reply} to {player}'s turn was not played, and {n} plans "
                "were dropped: {reason} It is your turn.",
                len(lines),
                reply="; ".join(reply),
                player=them,
                reason=after_search(stuck.detail),
            )
        return Answer(planner, None, [], told, language)
    if stuck is not None:
        with speaking(language):
            told = ngettext(
                "Your planned reply {reply} to {player}'s turn can no longer be played "
                "({reason}); nothing was played, and {n} plan was dropped. It is your turn.",
                "Your planned reply {reply} to {player}'s turn can no longer be played "
                "({reason}); nothing was played, and {n} plans were dropped. It is your turn.",
                len(lines),
                reply="; ".join(reply),
                player=them,
                reason=word(stuck.detail),
            )
        return Answer(planner, None, [], told, language)
    deeper = [line[1:] for line in matching if line[0][1] == reply and len(line) > 1]
    with speaking(language):
        told = ngettext(
            "{player} played {turn}: your planned reply {reply} was played. {n} plan left.",
            "{player} played {turn}: your planned reply {reply} was played. {n} plans left.",
            len(deeper),
            player=them,
            turn="; ".join(seen),
            reply="; ".join(reply),
        )
    return Answer(planner, reply, [encode(line) for line in deeper], told, language)


def dropped_at_pass(table: Table, planned: Answer, plans: int) -> Answer:
    """``planned``, which played nothing, told as what the turn that may only be a pass
    (TI8, played by the host) did to the ``plans`` lines: no turn of theirs follows."""
    with speaking(planned.language):
        told = ngettext(
            "{player}'s turn left you only a pass, which the host played at once; none of "
            "your plans answered that turn with it: {n} plan dropped.",
            "{player}'s turn left you only a pass, which the host played at once; none of "
            "your plans answered that turn with it: {n} plans dropped.",
            plans,
            player=table.side_name(planned.planner.other),
        )
    return replace(planned, told=told)


def _reply_stuck(mine: GameState, real: GameState, reply: list[str]) -> Stuck | None:
    """Where ``reply`` cannot be played as a whole turn: on the planner's own copy of the
    game first (``mine``: what they are told never depends on hidden state), with
    ``stage_reply``'s checks, then on a copy of the game itself (``real``); None where it
    can. Two turn ends: run in a rules worker (``Offload.rules_work``)."""
    try:
        stage_reply(mine, "; ".join(reply))
        mine.end_turn()
        _turn(real, "; ".join(reply))
    except AfterSearch as refused:
        return Stuck(1, AFTER_SEARCH, refused.action)
    except ActionError as exc:
        return Stuck(1, ILLEGAL, exc.message)
    return None


def _unanswered(them: str, seen: list[str], plans: int) -> str:
    """The DM of a planner whose plans answer none of the turn ``seen``: all dropped."""
    if not seen:
        return ngettext(
            "{player} played nothing, which none of your plans answers: {n} plan dropped. It "
            "is your turn.",
            "{player} played nothing, which none of your plans answers: {n} plans dropped. It "
            "is your turn.",
            plans,
            player=them,
        )
    return ngettext(
        "{player} played {turn}, which none of your plans answers: {n} plan dropped. It is "
        "your turn.",
        "{player} played {turn}, which none of your plans answers: {n} plans dropped. It is "
        "your turn.",
        plans,
        player=them,
        turn="; ".join(seen),
    )


def emptied() -> dict[Side, list[str]]:
    """Both sides' plans emptied, to save with a takeback or an agreed reset (with their
    drafts, ``Context.save``'s ``forget``): they answered turns of another game, and a
    draft is kept by a turn number such a game may bring back."""
    return {side: [] for side in Side}
