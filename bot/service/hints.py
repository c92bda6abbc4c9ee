"""Hints in practice games (an unrated match against an AI, ``Table.practice``): the turn the
``hard`` AI suggests for the player to act, searched by a fixed amount of work on the game as
they may know it (``ai.hint``), so that the same position always gives the same hint. The
hint is told in words, drawn on the player's own board (as a preview of that turn), and
staged for them with one click ("Play this", ``stage``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import _, ngettext, option
from rules import ActionError, GameState, Side

from .context import Context
from .errors import Refused, StaleRequest
from .ports import Attachment
from .table import Table

LEVEL = "hard"  # the strength whose player suggests the hint
MEMO = "hint"  # the hint of the match's present state, in its memo (``Table.memo``)
PLAY = "hinted"  # the verb of the "Play this" button


@dataclass(frozen=True)
class Hint:
    """What a hint is searched on: the player's own view of the game (``for_player``) with
    what they staged taken back, all that can be (a search cannot, R43: the hint goes on
    from it), so that the hint is a whole turn that can end. ``staged`` is what they had
    staged as they read it, ``notations`` the same in the engines' notation (what a hint
    is compared with), of which the first ``kept`` stayed."""

    game: GameState
    staged: tuple[str, ...]
    notations: tuple[str, ...]
    kept: int

    @property
    def back(self) -> int:
        """How many staged actions the hint takes back."""
        return len(self.notations) - self.kept


def hint_game(table: Table, side: Side) -> Hint:
    """What the AI may know to suggest ``side``'s turn (see ``Hint``)."""
    if not table.practice:
        casual = f"`{option('rated')}:False`"  # the option as the reader's Discord names it
        raise Refused(
            _(
                "Hints are given in practice games only: an unrated match you challenge the AI to "
                "({rated}). In rated games, tournaments, events and between people you play on "
                "your own.",
                rated=casual,
            )
        )
    game = table.game.for_player(side)
    staged = tuple(game.staged())
    notations = tuple(event.text for event in game.view_for(side).staged)
    while game.staged():
        try:
            game.undo()
        except ActionError:  # a search stays (R10, R43)
            break
    return Hint(game, staged, notations, len(game.staged()))


def played(hint: Hint, texts: list[str]) -> GameState:
    """The player's own game with the hinted turn staged (what its picture shows)."""
    game = hint.game.copy()
    for text in texts:
        game.apply(text)
    return game


def to_stage(hint: Hint, texts: list[str]) -> bool:
    """Whether "Play this" has anything to do: the hint differs from what is staged."""
    return [*hint.notations[: hint.kept], *texts] != list(hint.notations)


async def picture(
    ctx: Context, table: Table, side: Side, hint: Hint, texts: list[str]
) -> Attachment:
    """The hinted turn drawn on the player's own board, as the preview of that turn."""
    view = played(hint, texts).view_for(side)
    return await ctx.private_file(view, table, "hint.png")


def stage(table: Table, hint: Hint, texts: list[str]) -> None:
    """Stage the hinted turn for the player: take back what it does not keep, then play
    its actions (tried on a copy first: all or nothing). Run off the event loop."""
    trial = table.game.copy()
    try:
        for _ in range(hint.back):
            trial.undo()
        for text in texts:
            trial.apply(text)
    except ActionError:
        raise StaleRequest(
            _("That hint no longer fits your turn: ask for a new one with the Hint button.")
        ) from None
    match = table.played
    for _ in range(hint.back):
        match.undo()
    for text in texts:
        match.act(text)


def hint_text(ctx: Context, hint: Hint, texts: list[str], said: list[str]) -> str:
    """The hint in words: the turn ``texts`` (after what was kept; ``said``: the whole turn
    as the player reads it), and how to get there from what the player has staged, by the
    "Play this" button or typed; in the current language."""
    staged = list(hint.notations)
    turn = [*staged[: hint.kept], *texts]
    words = {
        "level": LEVEL,
        "act": ctx.cmd("act", localized=True),
        "end": ctx.cmd("end", localized=True),
        "undo": ctx.cmd("undo", localized=True),
        "mine": f"`{'; '.join(hint.staged)}`",
        "typed": f"`{'; '.join(texts)}`",
    }
    if not texts and staged == turn:
        return _("The AI ({level}) would end the turn as it stands: {end}.", **words)
    if not texts:
        return _(
            "The AI ({level}) would end this turn without another action; you have staged "
            "{mine}: take back what can be with {undo}, then {end}, or find your own move.",
            **words,
        )
    head = _(
        "The AI ({level}) would play: {turn}.\nThe picture shows it on your board.",
        turn="; ".join(said),
        **words,
    )
    # TRANSLATORS: the AI's turn ("The AI would play: ...") and how to play it ("Play this
    # stages it..."), two sentences: join them as the language does (Japanese: no space).
    return _("{hint} {how}", hint=head, how=_how_to_play(hint, staged, turn, words))


def _how_to_play(hint: Hint, staged: list[str], turn: list[str], words: dict[str, str]) -> str:
    """How the player gets from what they staged to the hinted ``turn``."""
    if turn == staged:
        return _("That is what you have staged: end your turn with {end}.", **words)
    if not staged:
        return _(
            "Play this stages it (or {act} {typed}), then {end}; or find your own move.", **words
        )
    if turn[: len(staged)] == staged:
        rest = f"`{'; '.join(turn[len(staged) :])}`"
        return _(
            "It starts with what you have staged ({mine}): Play this adds the rest (or {act} "
            "{rest}), then {end}; or find your own move.",
            rest=rest,
            **words,
        )
    if hint.kept:
        return ngettext(
            "It differs from what you have staged ({mine}): Play this stages it in its place "
            "(or take back what you staged after your search with {undo}, then {act} "
            "{typed}), then {end}; or find your own move.",
            "It differs from what you have staged ({mine}): Play this stages it in its place "
            "(or take back what you staged after your search with {undo} {n} times, then "
            "{act} {typed}), then {end}; or find your own move.",
            hint.back,
            **words,
        )
    return ngettext(
        "It differs from what you have staged ({mine}): Play this stages it in its place (or "
        "take back what you staged with {undo}, then {act} {typed}), then {end}; or find your "
        "own move.",
        "It differs from what you have staged ({mine}): Play this stages it in its place (or "
        "take back what you staged with {undo} {n} times, then {act} {typed}), then {end}; or "
        "find your own move.",
        hint.back,
        **words,
    )
