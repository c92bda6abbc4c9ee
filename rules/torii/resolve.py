"""Checking a written turn against the position, one choice at a time (TI5-TI17).

Each choice of a ``Spec`` is compared with what ``turn`` allows at that point; the first one
not allowed is refused with the ruling that forbids it and the allowed alternatives. A build
the player left out is filled in when exactly one choice can follow; otherwise the turn is
ambiguous and the refusal lists the complete turns it could mean.
"""

from __future__ import annotations

from rules.errors import AmbiguousAction, IllegalAction

from .board import (
    LINES,
    STEPS,
    Direction,
    Step,
    file_of,
    line_name,
    name,
    rank_of,
    same_lane,
)
from .building import (
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
            f"tile {work.tile} makes {work.tile} steps, {len(work.steps)} given",
            [f"next step to {sq}" for sq in allowed],
        )
    spread(work)
    return _builds(work, spec.builds, text)


def _power(work: Work, spirit: str, rule: str, what: str) -> None:
    if not work.setup.has(work.me, spirit):
        why = (
            "powers are off in this match"
            if not work.setup.powers
            else f"yours is the {work.setup.spirits[work.me]}"
        )
        raise IllegalAction(rule, f"only the {spirit} {what}; {why}")


def _fly(work: Work, sq: int) -> None:
    _power(work, CRANE, "TI14", "flies to a Torii")
    allowed = flight_options(work)
    if sq not in allowed:
        if sq == work.here:
            reason = f"your Spirit is already on {name(sq)}"
        elif not has_torii(work.cells[sq]):
            reason = f"{name(sq)} holds no Torii"
        elif same_lane(sq, work.spirits[work.them]):
            reason = f"{name(sq)} is in the opponent's lanes"
        else:
            reason = f"no tile has a path from {name(sq)}"
        raise IllegalAction(
            "TI14", f"cannot fly to {name(sq)}: {reason}", [f"fly {name(s)}" for s in allowed]
        )
    do_fly(work, sq)


def _tile(work: Work, tile: int) -> None:
    allowed = [f"tile {t}" for t in tile_options(work)]
    if tile not in (1, 2, 3):
        raise IllegalAction("TI5", f"a tile makes 1, 2 or 3 steps, not {tile}", allowed)
    if tile not in unused_tiles(work):
        raise IllegalAction("TI5", f"tile {tile} is already used", allowed)
    if f"tile {tile}" not in allowed:
        raise IllegalAction(
            "TI8", f"tile {tile} has no complete path from {name(work.here)}", allowed
        )
    do_tile(work, tile)


def _push(work: Work, token: int | Direction) -> None:
    _power(work, KITSUNE, "TI13", "moves the opponent's Spirit")
    if work.tile != 1:
        raise IllegalAction("TI13", "the Kitsune moves the opponent's Spirit only with tile 1")
    options = push_options(work)
    chosen = _match(options, token)
    if chosen is None:
        allowed = [f"push {name(s.landing)}" for s in options]
        raise IllegalAction(
            "TI13", f"the opponent's Spirit cannot be moved to {_what(token)}", allowed
        )
    do_push(work, chosen.landing)


def _torii(work: Work, origin: int, to: int) -> None:
    _power(work, BOAR, "TI17", "moves a Torii")
    if work.tile != 1:
        raise IllegalAction("TI17", "the Boar moves a Torii only with tile 1")
    options = torii_options(work)
    if (origin, to) not in options:
        if work.cells[origin] != gate(work.me):
            reason = f"{name(origin)} holds no Torii of yours"
        elif abs(file_of(origin) - file_of(to)) + abs(rank_of(origin) - rank_of(to)) != 1:
            reason = f"{name(to)} is not one orthogonal step from {name(origin)}"
        else:
            reason = f"{name(to)} already holds a Torii"
        allowed = [f"torii {name(a)}-{name(b)}" for a, b in options]
        raise IllegalAction(
            "TI17", f"cannot move a Torii {name(origin)}-{name(to)}: {reason}", allowed
        )
    do_torii(work, origin, to)


def _step(work: Work, token: int | Direction) -> None:
    options = step_options(work)
    chosen = _match(options, token)
    if chosen is None:
        if len(work.steps) >= work.tile:
            raise IllegalAction("TI5", f"tile {work.tile} makes {work.tile} steps, no more")
        rule, reason = _step_refusal(work, token)
        raise IllegalAction(rule, reason, [name(s.landing) for s in options])
    do_step(work, chosen)


def _match(options: list[Step], token: int | Direction) -> Step | None:
    for step in options:
        if token == step.landing or token == step.direction:
            return step
    return None


def _what(token: int | Direction) -> str:
    return token.name if isinstance(token, Direction) else name(token)


def _step_refusal(work: Work, token: int | Direction) -> tuple[str, str]:
    """Why the next step cannot go to a square or in a direction."""
    here, opponent = work.here, work.spirits[work.them]
    every = STEPS[here][opponent]
    if isinstance(token, Direction):
        step = next((s for s in every if s.direction == token), None)
        if step is None:
            return "TI6", f"a step {token.name} from {name(here)} would leave the board"
        return _landing_refusal(work, step)
    step = next((s for s in every if s.landing == token), None)
    if step is not None:
        return _landing_refusal(work, step)
    if same_lane(token, opponent):
        return "TI6", f"{name(token)} is in a lane of the opponent's Spirit: a step jumps over it"
    return "TI5", f"{name(token)} is not one step from {name(here)}"


def _landing_refusal(work: Work, step: Step) -> tuple[str, str]:
    sq = name(step.landing)
    if step.direction.diagonal and not work.setup.has(work.me, DEER):
        return "TI5", "steps are orthogonal; only the Deer steps diagonally (TI12)"
    if step.direction.diagonal:
        return "TI12", "only one step of a turn may be diagonal"
    if step.landing == work.start:
        return "TI7", f"{sq} is where the turn began"
    return "TI7", f"{sq} was already landed on this turn"


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
            raise IllegalAction(
                "TI18", f"the game is already won ({work.won}): nothing more is built"
            )
        raise IllegalAction("TI10", f"build {name(sq)}: no line of 4 of your Followers is formed")
    allowed = [f"build {name(option.square)}" for option in build_options(work)]
    cell = work.cells[sq]
    if cell == gate(work.me):
        raise IllegalAction("TI10", f"{name(sq)} already carries a Torii", allowed)
    if cell != follower(work.me):
        raise IllegalAction("TI10", f"{name(sq)} holds no Follower of yours", allowed)
    lines = [line for line in formed if sq in LINES[line]]
    if build.line is not None:
        if build.line not in lines:
            raise IllegalAction(
                "TI10", f"{line_name(build.line)} is not a formed line through {name(sq)}", allowed
            )
        return [build.line]
    if not lines:
        raise IllegalAction("TI10", f"{name(sq)} is on no formed line", allowed)
    return lines


def _build(work: Work, build: BuildSpec, line: int) -> None:
    options = build_options(work)
    do_build(work, next(o for o in options if o.line == line and o.square == build.square))
    if build.flip is None:
        return
    if not flip_options(work):
        _power(work, MONKEY, "TI15", "flips a tile 1 when a Torii is built")
        raise IllegalAction("TI15", "no flip after the winning Torii: the game is won")
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
