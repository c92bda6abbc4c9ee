"""Actions as a player types them: a line of actions separated by ``;`` (as in a record's
turn line), tried on a copy of the game before any is staged, and the completion of the
last one while it is typed (autocomplete), on the game a player's actions are chosen on
(``base_of``: in a one-move game whose move is staged, the game without it)."""

from __future__ import annotations

from functools import partial

from bot.i18n import _, word
from rules import ActionError, GameState, Side, game_type
from storage.matches.log import GAME_LEVEL_WORDS

from . import finding
from .context import Context
from .errors import Refused
from .table import Table
from .texts import quote


def replaces(game: GameState) -> bool:
    """Whether a new action replaces the last one staged: a one-move game's move (or its
    last decision) is staged, and the player means another instead."""
    return game_type(game.game_type).one_move and not game.actions_left and bool(game.staged())


def before_last(game: GameState) -> GameState:
    """A copy of ``game`` without its last staged action: what a replacement is chosen on."""
    base = game.copy()
    base.undo()
    return base


def base_of(table: Table) -> GameState:
    """The game a player's actions are chosen on: in a one-move game whose move is staged,
    the game without it (a new move replaces it)."""
    memo = table.memo()
    if "base" not in memo:
        game = table.game
        memo["base"] = before_last(game) if replaces(game) else game
    base: GameState = memo["base"]
    return base


def parts(ctx: Context, text: str) -> list[str]:
    """The actions of ``text``, separated by ``;``; refused if one is empty or a word of
    its own command (``resign``)."""
    parts = [part.strip() for part in text.split(";")]
    if len(parts) > 1 and not all(parts):
        raise Refused(
            _("An empty action between `;` separators: write `A v5h7-v4h6; G v5h9-v4h9`.")
        )
    for part in parts:
        typed = part.lower()
        if typed in GAME_LEVEL_WORDS:
            raise Refused(
                _(
                    "`{word}` is not a move: use {command} for that.",
                    word=typed,
                    command=ctx.cmd(typed, localized=True),
                )
            )
    return parts


class Revealed(Exception):
    """A refused action after one that revealed what it found (TORA's search): its
    refusal, and how many of the actions before it are staged all the same."""

    def __init__(self, staged: int, said: str) -> None:
        super().__init__(said)
        self.staged, self.said = staged, said


def try_all(game: GameState, parts: list[str], *, typed: bool = False) -> list[str]:
    """Play ``parts`` on a copy, returning their notations: the refusal of the first that
    fails names it. ``typed``: the actions typed before the one autocomplete completes,
    which nothing stages yet."""
    notations: list[str] = []
    for part in parts:
        try:
            notations.append(game.apply(part).text)
        except ActionError as exc:
            raise _refusal(game, parts, len(notations), exc, typed) from None
    return notations


def _refusal(
    game: GameState, parts: list[str], tried: int, exc: ActionError, typed: bool
) -> Exception:
    """The refusal of ``parts``' action after the ``tried`` ones played on ``game``. One
    that follows an action never taken back (a search, R10) may tell what it found (R43:
    "found nothing"): ``Revealed`` has the actions before it staged, so that the player
    knows it only by making it."""
    words = {
        "number": tried + 1,
        "count": len(parts),
        "action": quote(parts[tried]),
        "reason": word(exc.message),
    }
    if typed:
        return Refused(_("Action {number} typed ({action}) would be refused: {reason}", **words))
    if _fixed(game, tried):
        said = _("Action {number} of {count} ({action}) is refused: {reason}", **words)
        why = _("A search is never taken back (R10): it and the actions before it stay staged.")
        return Revealed(tried, f"{said}\n{why}")
    return Refused(
        _("Action {number} of {count} ({action}) is refused, so none was staged: {reason}", **words)
    )


def _fixed(game: GameState, last: int) -> bool:
    """Whether one of the ``last`` actions staged on ``game`` is never taken back (a
    search, R10): they are taken back on a copy, the latest first."""
    probe = game.copy()
    try:
        for _each in range(last):
            probe.undo()
    except ActionError:
        return True
    return False


LONGEST_CHOICE = 100  # characters of a choice's name and of its value, Discord's most


async def completions(
    ctx: Context, table: Table, side: Side, typed: str, limit: int
) -> list[tuple[str, str]]:
    """Up to ``limit`` of the legal actions of ``side``, the player to act, that best match
    ``typed`` anywhere (a destination, ``x``, ``fire``, a piece's name or letter), best
    first, each as
    (what a list shows: the action in words, its canonical notation); their hidden
    Assassin's included: this goes to them alone. After a ``;`` the last action is
    completed among those legal after the ones before (refused as the command would refuse
    them), which are written in notation: the shortest, as a choice's value holds 100
    characters."""
    head, _sep, last = typed.rpartition(";")
    if head.strip():
        prefix, entries = await _after_typed(ctx, table, side, parts(ctx, head))
    else:
        prefix, entries = "", await _legal_texts(ctx, table)
    if prefix and not entries:
        return _typed_alone(prefix)
    found = finding.best(last, entries, limit)
    return [
        (label(prefix, finding.shown(entry)), f"{prefix}{entry.notation}")
        for entry in found
        if len(prefix) + len(entry.notation) <= LONGEST_CHOICE
    ]


def _typed_alone(prefix: str) -> list[tuple[str, str]]:
    """The one choice after typed actions that leave the turn none: those actions, which
    the command stages, saying so (nothing, or the list would look broken)."""
    actions = prefix.removesuffix("; ")
    if len(actions) > LONGEST_CHOICE:
        return []
    shown = _("{actions} (the turn holds no more actions)", actions=actions)
    return [(label("", shown), actions)]


def label(prefix: str, shown: str) -> str:
    """What a list shows of an action completed after ``prefix`` (the actions typed
    before): within ``LONGEST_CHOICE``, the new action's words kept whole and the typed
    actions shortened from their start ("…; Archer v3h9: move to v4h9"), so that the
    choices stay apart."""
    label = prefix + shown
    if len(label) <= LONGEST_CHOICE:
        return label
    room = LONGEST_CHOICE - len(shown) - 1  # 1: the "…"
    if room <= 0:
        return shown[:LONGEST_CHOICE]
    return "…" + label[len(label) - LONGEST_CHOICE + 1 :]


async def _legal_texts(ctx: Context, table: Table) -> list[finding.Entry]:
    """Every legal action of the running state (in a one-move game whose move is staged,
    those that replace it) and the words to find it by, worked out once per state of the
    match (autocomplete asks at every keystroke)."""
    memo = table.memo()
    if "entries" not in memo:
        base = base_of(table)
        memo["entries"] = await ctx.offload.step(base, partial(finding.entries, base))
    entries: list[finding.Entry] = memo["entries"]
    return entries


async def _after_typed(
    ctx: Context, table: Table, side: Side, parts: list[str]
) -> tuple[str, list[finding.Entry]]:
    """Actions ``parts`` typed before the one being completed, in notation and ended by
    ``; ``, and the legal actions after them with their words: played on the player's own
    copy (``for_player``), so that what follows a search typed says nothing of what it
    would find. Kept for the state while the same actions stay typed (every keystroke of
    the next one asks)."""
    memo = table.memo()
    kept = memo.get("typed")
    if kept is not None and kept[0] == parts:
        return kept[1], kept[2]

    def work() -> tuple[str, list[finding.Entry]]:
        game = table.game.for_player(side)
        notations = try_all(game, parts, typed=True)
        return "".join(f"{notation}; " for notation in notations), finding.entries(game)

    prefix, entries = await ctx.offload.step(table.game, work)
    memo["typed"] = (parts, prefix, entries)
    return prefix, entries
