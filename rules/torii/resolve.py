"""Checking a written turn against the position, one choice at a time (TI5-TI17).

Each choice of a ``Spec`` is compared with what ``turn`` allows at that point; the first one
not allowed is refused with the ruling that forbids it and the allowed alternatives. A build
the player left out is filled in when exactly one choice can follow; otherwise the turn is
ambiguous and the refusal lists the complete turns it could mean.
"""

from __future__ import annotations

from rules.errors import AmbiguousAction, IllegalAction
from rules.words import Text, msg, msg_n

from .board import (
    DIRECTIONS,
    GRID,
    LINES,
    ORTHOGONAL,
    STEPS,
    Direction,
    Step,
    file_of,
    line_name,
    name,
    rank_of,
    same_lane,
    steps_from,
)
from .building import (
    WON_WORDS,
    build_options,
    do_build,
    do_flip,
    flip_options,
    formed_lines,
    spread,
)
from .generate import complete_builds
from .notation import BuildSpec, Spec, write
from .state import BOAR, CRANE, DEER, KITSUNE, MONKEY, Position, Setup, follower, gate, has_torii
from .turn import (
    Work,
    begin,
    deer,
    do_fly,
    do_push,
    do_step,
    do_tile,
    do_torii,
    flight_options,
    push_options,
    step_options,
    tile_options,
    torii_options,
    unused_tiles,
)

MAX_CANDIDATES = 12


def resolve(pos: Position, setup: Setup, spec: Spec, text: str) -> Work:
    """The finished turn ``spec`` writes, or the refusal naming the ruling."""
    work = begin(pos, setup)
    if spec.fly is not None:
        _fly(work, spec.fly)
    _tile(work, spec.tile if spec.tile is not None else len(spec.steps))
    if spec.push is not None:
        _push(work, spec.push)
    if spec.torii is not None:
        _torii(work, *spec.torii)
    for token in spec.steps:
        _step(work, token)
    if len(work.steps) < work.tile:
        allowed = [name(s.landing) for s in step_options(work)]
        raise IllegalAction(
            "TI5",
            msg_n(
                "tile {tile} makes {n} step, {given} given",
                "tile {tile} makes {n} steps, {given} given",
                work.tile,
                tile=work.tile,
                given=len(work.steps),
            ),
            [msg("next step to {square}", square=sq) for sq in allowed],
        )
    spread(work)
    return _builds(work, spec.builds, text)


def _power(work: Work, spirit: str, rule: str, only: Text) -> None:
    """Refused unless the player's Spirit has this power: ``only`` says whose it is."""
    if not work.setup.has(work.me, spirit):
        raise IllegalAction(rule, _not_yours(work, only))


def _not_yours(work: Work, only: Text) -> Text:
    """Why a power ``only`` names is not the player's: powers are off, or another Spirit."""
    if not work.setup.powers:
        return msg("{only}; powers are off in this match", only=only)
    mine = work.setup.spirits[work.me]
    return msg("{only}; yours is the {spirit}", only=only, spirit=mine)


def _fly(work: Work, sq: int) -> None:
    _power(work, CRANE, "TI14", msg("only the {spirit} flies to a Torii", spirit=CRANE))
    allowed = flight_options(work)
    if sq not in allowed:
        if sq == work.here:
            reason = msg("your Spirit is already on {square}", square=name(sq))
        elif not has_torii(work.cells[sq]):
            reason = msg("{square} holds no Torii", square=name(sq))
        elif same_lane(sq, work.spirits[work.them]):
            reason = msg("{square} is in the opponent's lanes", square=name(sq))
        else:
            reason = msg("no tile has a path from {square}", square=name(sq))
        said = msg("cannot fly to {square}: {reason}", square=name(sq), reason=reason)
        raise IllegalAction("TI14", said, [f"fly {name(s)}" for s in allowed])
    do_fly(work, sq)


def _tile(work: Work, tile: int) -> None:
    allowed = [f"tile {t}" for t in tile_options(work)]
    if tile not in (1, 2, 3):
        said = msg("a tile makes 1, 2 or 3 steps, not {tile}", tile=tile)
        raise IllegalAction("TI5", said, allowed)
    if tile not in unused_tiles(work):
        raise IllegalAction("TI5", msg("tile {tile} is already used", tile=tile), allowed)
    if f"tile {tile}" not in allowed:
        said = msg(
            "tile {tile} has no complete path from {square}", tile=tile, square=name(work.here)
        )
        raise IllegalAction("TI8", said, allowed)
    do_tile(work, tile)


def _push(work: Work, token: int | Direction) -> None:
    _power(
        work, KITSUNE, "TI13", msg("only the {spirit} moves the opponent's Spirit", spirit=KITSUNE)
    )
    if work.tile != 1:
        said = msg("the Kitsune moves the opponent's Spirit only with tile 1")
        raise IllegalAction("TI13", said)
    options = push_options(work)
    chosen = _match(options, token)
    if chosen is None:
        allowed = [f"push {name(s.landing)}" for s in options]
        raise IllegalAction("TI13", _push_refusal(work, token), allowed)
    do_push(work, chosen.landing)


def _push_refusal(work: Work, token: int | Direction) -> Text:
    """Why the opponent's Spirit cannot be pushed to a square or in a direction (TI13: one
    orthogonal step that jumps the Kitsune's lanes, with a tile-1 path after it)."""
    origin = work.spirits[work.them]
    every = steps_from(origin, work.here, diagonal=False)
    if isinstance(token, Direction):
        if token.diagonal:
            return msg("the opponent's Spirit moves one orthogonal step")
        step = next((s for s in every if s.direction == token), None)
        if step is None:
            return _off_the_board(token, origin)
        token = step.landing
    over = _passing_over(origin, work.here, token, diagonal=False)
    if over is None and not any(s.landing == token for s in every):
        reason = msg(
            "{square} is not one orthogonal step from {origin}",
            square=name(token),
            origin=name(origin),
        )
    elif over is None:
        reason = msg("no tile-1 path would follow")
    else:
        step = next((s for s in every if s.direction == over), None)
        if step is None:
            return _off_the_board(over, origin)
        reason = msg(
            "{square} is in your Spirit's lanes, so the push jumps over it to {landing}",
            square=name(token),
            landing=name(step.landing),
        )
    return msg(
        "the opponent's Spirit cannot be moved to {square}: {reason}",
        square=name(token),
        reason=reason,
    )


def _off_the_board(direction: Direction, origin: int) -> Text:
    return msg(
        "a step {direction} from {square} would leave the board",
        direction=direction.name,
        square=name(origin),
    )


def _torii(work: Work, origin: int, to: int) -> None:
    _power(work, BOAR, "TI17", msg("only the {spirit} moves a Torii", spirit=BOAR))
    if work.tile != 1:
        raise IllegalAction("TI17", msg("the Boar moves a Torii only with tile 1"))
    options = torii_options(work)
    if (origin, to) not in options:
        if work.cells[origin] != gate(work.me):
            reason = msg("{square} holds no Torii of yours", square=name(origin))
        elif abs(file_of(origin) - file_of(to)) + abs(rank_of(origin) - rank_of(to)) != 1:
            reason = msg(
                "{square} is not one orthogonal step from {origin}",
                square=name(to),
                origin=name(origin),
            )
        else:
            reason = msg("{square} already holds a Torii", square=name(to))
        allowed = [f"torii {name(a)}-{name(b)}" for a, b in options]
        said = msg(
            "cannot move a Torii {origin}-{target}: {reason}",
            origin=name(origin),
            target=name(to),
            reason=reason,
        )
        raise IllegalAction("TI17", said, allowed)
    do_torii(work, origin, to)


def _step(work: Work, token: int | Direction) -> None:
    options = step_options(work)
    chosen = _match(options, token)
    if chosen is None:
        if len(work.steps) >= work.tile:
            said = msg_n(
                "tile {tile} makes {n} step, no more",
                "tile {tile} makes {n} steps, no more",
                work.tile,
                tile=work.tile,
            )
            raise IllegalAction("TI5", said)
        rule, reason = _step_refusal(work, token)
        raise IllegalAction(rule, reason, [name(s.landing) for s in options])
    do_step(work, chosen)


def _match(options: list[Step], token: int | Direction) -> Step | None:
    for step in options:
        if token == step.landing or token == step.direction:
            return step
    return None


def _step_refusal(work: Work, token: int | Direction) -> tuple[str, Text]:
    """Why the next step cannot go to a square or in a direction: a square in the opponent's
    lanes is "jumped over" only when a step of this Spirit passes over it, any other square
    that no step reaches is simply not one step away."""
    here, opponent = work.here, work.spirits[work.them]
    every = STEPS[here][opponent]
    if isinstance(token, Direction):
        step = next((s for s in every if s.direction == token), None)
        if step is None:
            return "TI6", _off_the_board(token, here)
        return _landing_refusal(work, step)
    step = next((s for s in every if s.landing == token), None)
    if step is not None:
        return _landing_refusal(work, step)
    over = _passing_over(here, opponent, token, deer(work))
    if over is not None and any(s.direction == over for s in every):
        return "TI6", msg(
            "{square} is in a lane of the opponent's Spirit: a step jumps over it",
            square=name(token),
        )
    if over is not None:
        return _step_refusal(work, over)  # off the board before leaving the lanes
    return "TI5", msg(
        "{square} is not one step from {origin}", square=name(token), origin=name(here)
    )


def _passing_over(here: int, opponent: int, sq: int, diagonal: bool) -> Direction | None:
    """The direction in which a step from ``here`` passes over ``sq`` while jumping the
    opponent's lanes (TI6), whether it lands or falls off the board; None if none does."""
    for direction in DIRECTIONS if diagonal else ORTHOGONAL:
        at = GRID.shift(here, direction.df, direction.dr)
        while at is not None and same_lane(at, opponent):
            if at == sq:
                return direction
            at = GRID.shift(at, direction.df, direction.dr)
    return None


def _landing_refusal(work: Work, step: Step) -> tuple[str, Text]:
    sq = name(step.landing)
    if step.direction.diagonal and not work.setup.has(work.me, DEER):
        only = msg("steps are orthogonal; only the Deer steps diagonally (TI12)")
        return "TI5", _not_yours(work, only)
    if step.direction.diagonal and any(s.direction.diagonal for s in work.steps):
        return "TI12", msg("only one step of a turn may be diagonal")
    if step.landing == work.start:
        return "TI7", msg("{square} is where the turn began", square=sq)
    return "TI7", msg("{square} was already landed on this turn", square=sq)


def _builds(work: Work, builds: list[BuildSpec], text: str) -> Work:
    for index, build in enumerate(builds):
        lines = _lines_for(work, build)
        if len(lines) > 1:
            return _choose(work, build, lines, builds[index + 1 :], text)
        _build(work, build, lines[0])
    missing = complete_builds(work)
    if len(missing) > 1:
        candidates = [write(w) for w in missing]
        raise AmbiguousAction(text, candidates[:MAX_CANDIDATES])
    return missing[0]


def _lines_for(work: Work, build: BuildSpec) -> list[int]:
    """The formed lines ``build`` may mean; refused when there is none."""
    sq = build.square
    formed = formed_lines(work)
    if not formed:
        if work.won:
            said = msg(
                "the game is already won ({result}): nothing more is built",
                result=WON_WORDS.get(work.won, work.won),
            )
            raise IllegalAction("TI18", said)
        said = msg("build {square}: no line of 4 of your Followers is formed", square=name(sq))
        raise IllegalAction("TI10", said)
    allowed = [f"build {name(option.square)}" for option in build_options(work)]
    cell = work.cells[sq]
    if cell == gate(work.me):
        said = msg("{square} already carries a Torii", square=name(sq))
        raise IllegalAction("TI10", said, allowed)
    if cell != follower(work.me):
        said = msg("{square} holds no Follower of yours", square=name(sq))
        raise IllegalAction("TI10", said, allowed)
    lines = [line for line in formed if sq in LINES[line]]
    if build.line is not None:
        if build.line not in lines:
            said = msg(
                "{line} is not a formed line through {square}",
                line=line_name(build.line),
                square=name(sq),
            )
            raise IllegalAction("TI10", said, allowed)
        return [build.line]
    if not lines:
        raise IllegalAction("TI10", msg("{square} is on no formed line", square=name(sq)), allowed)
    return lines


def _build(work: Work, build: BuildSpec, line: int) -> None:
    options = build_options(work)
    do_build(work, next(o for o in options if o.line == line and o.square == build.square))
    if build.flip is None:
        return
    if not flip_options(work):
        _power(
            work,
            MONKEY,
            "TI15",
            msg("only the {spirit} flips a tile 1 when a Torii is built", spirit=MONKEY),
        )
        raise IllegalAction("TI15", msg("no flip after the winning Torii: the game is won"))
    do_flip(work, build.flip)


def _choose(
    work: Work, build: BuildSpec, lines: list[int], rest: list[BuildSpec], text: str
) -> Work:
    """A Follower on several formed lines, the line not named: the turn is the one line
    that lets the rest of the text be played, or ambiguous."""
    finished: list[str] = []
    found: list[Work] = []
    refusal: IllegalAction | None = None
    for line in lines:
        trial = work.copy()
        try:
            _build(trial, build, line)
            found.append(_builds(trial, rest, text))
            finished.append(write(found[-1]))
        except IllegalAction as exc:
            refusal = refusal or exc
        except AmbiguousAction as exc:
            finished += exc.candidates
    if len(finished) == 1 and found:
        return found[0]
    if not finished and refusal is not None:
        raise refusal
    raise AmbiguousAction(text, finished[:MAX_CANDIDATES])
