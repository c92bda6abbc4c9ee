"""The web board's words. The match service words its replies for Discord: they name its
commands (`/tora end`), use its markdown (``**bold**``, code spans, ``-#`` small print,
backslash escapes) and its timestamps (``<t:1700000000:R>``). A page has buttons of its own
and shows plain text, so ``page_text`` rewrites a reply for it: each command the page has a
control for becomes that control's name, a sentence naming any other command goes (the page
has no use for it), markdown becomes its text and a timestamp a UTC time. ``said`` words the
answer to a page's action: what happened, then what the page offers next.

Everything here is in the current language (``bot.i18n.speaking``): the reply it rewrites was
made in it, so the commands it names are as that language's Discord names them
(``bot.i18n.slash``), and the controls it names instead are the page's in that language."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.i18n import N_, _, current, ngettext, option, own_command
from bot.service.texts import MARKDOWN
from rules import Side

from .answers import sentence

# A command the service's texts name (by its English names) -> the page's control that
# does the same. The page's buttons are named the same in ``bot.web.labels``.
CONTROLS = {
    "act": N_("the board (a piece, then where it goes)"),
    "undo": N_("Undo"),
    "end": N_("End turn"),
    "draw": N_("Offer a draw"),
    "resign": N_("Resign"),
    "match pause": N_("Propose a pause"),
    "match resume": N_("Resume the clock"),
    "match reset": N_("Propose a reset"),
    "match takeback": N_("Ask to take back your turn"),
    "decline": N_("Decline"),
    "setup": N_("the setup on this page"),
}
# A command in backticks: its name, one to three words as the reader's Discord names them
# (any letters: ``/tora undo``, ``/tora-match resume``), then its options (``name:value``).
COMMAND = re.compile(r"`/([\w-]+(?: [\w-]+){0,2})(?: [^`]*)?`")
TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")
MENTION = re.compile(r"<(?:@!?|@&|#)\d{1,20}>")
SMALL_PRINT = re.compile(r"^(?:-#|>) ", re.MULTILINE)
MARKS = re.compile(r"\*\*|__|~~|\|\||`")
# What ``texts.escape`` escapes for Discord, shown as written.
ESCAPED = re.compile(r"\\([" + re.escape("".join(sorted(MARKDOWN))) + "])")
# Where one sentence ends and the next begins: after a full stop and a space, before a
# capital (Latin scripts), or right after a Japanese full stop.
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Þ`(¿¡])|(?<=。)\s*(?=\S)")


def page_text(text: str) -> str:
    """``text`` as a page shows it: no command the page has no control for, no markdown."""
    lines = []
    for line in text.splitlines():
        kept = [_sentence(part) for part in SENTENCE.split(line)]
        joined = sentences(*kept)
        if joined or not line.strip():
            lines.append(joined)
    words = "\n".join(lines).strip()
    words = TIMESTAMP.sub(_utc, words)
    words = MENTION.sub("", SMALL_PRINT.sub("", words))
    return ESCAPED.sub(r"\1", _unmarked(words))


def unmarked(text: str) -> str:
    """``text`` without its markdown but with every command it names, as written: for words
    read inside Discord (the Activity's frame), where the user can type the command."""
    return ESCAPED.sub(r"\1", _unmarked(text))


def _sentence(part: str) -> str:
    """One sentence with its commands named as the page's controls ("" if one has none)."""
    named = [found.group(1) for found in COMMAND.finditer(part)]
    if any(_control(command) is None for command in named):
        return ""
    return COMMAND.sub(lambda found: _("“{control}”", control=_control(found.group(1))), part)


def _control(command: str) -> str | None:
    """The page's control for ``command`` (its name, as the current language names it: the
    whole of it, or its first two words), if it has one, in the current language."""
    named = _named_controls(current())
    found = named.get(command) or named.get(" ".join(command.split(" ")[:2]))
    return None if found is None else _(found)


@cache
def _named_controls(language: str) -> dict[str, str]:
    """``CONTROLS`` by the commands' names as ``language`` (the current one: ``option``
    names them in it) shows them from ``/tora`` down (``own_command``: ``match pause`` is
    ``/tora-match pause``), made once per language."""
    return {
        " ".join(option(w) for w in own_command(["tora", *name.split()])): text
        for name, text in CONTROLS.items()
    }


def sentences(*parts: str) -> str:
    """Sentences one after the other: a space between them, none after a Japanese full
    stop; empty ones left out."""
    text = ""
    for part in parts:
        if part:
            text += part if not text or text.endswith("。") else " " + part
    return text


def _unmarked(text: str) -> str:
    """Markdown's marks taken out, those escaped with a backslash kept as written."""
    kept = []
    at = 0
    for found in MARKS.finditer(text):
        start = found.start()
        if start > 0 and text[start - 1] == "\\":
            continue
        kept.append(text[at:start])
        at = found.end()
    kept.append(text[at:])
    return "".join(kept)


def _utc(found: re.Match[str]) -> str:
    try:
        when = datetime.datetime.fromtimestamp(int(found.group(1)), datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return _("(a time)")
    return when.strftime("%Y-%m-%d %H:%M UTC")


def said(verb: str, reply: str, state: Mapping[str, Any]) -> str:
    """The answer to a page's ``verb``: what the service ``reply`` says happened, in page
    words; after staging or taking back an action, what the page offers next, from the
    player's new ``state``."""
    if verb not in ("act", "undo") or state.get("phase") != "playing":
        return sentence(page_text(reply))
    head = sentence(page_text(reply.splitlines()[0] if reply else ""))
    return sentences(head, next_step(state))


def next_step(state: Mapping[str, Any]) -> str:
    """What the player may do next on the page, from their state."""
    staged = len(state.get("staged") or ())
    left = int(state.get("actions_left") or 0)
    if state.get("decision"):  # Torii's Monkey (TI15) or a forced pass (TI8): no move
        if not staged:
            return _("Choose with the buttons under the board.")
        return _("Your decision is staged: End turn plays it, or Undo takes it back.")
    if state.get("one_move"):
        if not staged:
            return _("Click a piece, then where it goes.")
        return _("End turn plays it; another move replaces it, Undo takes it back.")
    undoable = bool(state.get("undoable"))  # something staged, and no search holds it (R10)
    if left and staged and undoable:
        return ngettext(
            "{n} action left: click the next piece, Undo the last one, or End turn.",
            "{n} actions left: click the next piece, Undo the last one, or End turn.",
            left,
        )
    if left and staged:
        return ngettext(
            "{n} action left: click the next piece, or End turn.",
            "{n} actions left: click the next piece, or End turn.",
            left,
        )
    if left:
        return _("Click a piece, then where it goes.")
    if state.get("hints"):  # none left, but one that costs none (TORA's free take, R43)
        return _("No actions left but the free one: click its piece, or End turn.")
    if undoable:
        return _("No actions left: End turn, or Undo the last one.")
    return _("No actions left: End turn.")


def setup_text(side: Side | None, pictured: bool = True) -> str:
    """What a player's page says above their setup questions; ``pictured``: the board shows
    their choices so far (else the game's start, nobody's choices)."""
    you = ""
    if side == Side.CHALLENGER:
        you = _("You play the {side} and move first.", side=side.term)
    elif side is not None:
        you = _("You play the {side}.", side=side.term)
    choose = _(
        "Choose your setup below; your opponent sees your choices only when the game starts."
    )
    board = (
        _(
            "The board shows your side as your choices so far set it up, and nothing of your "
            "opponent's: their choices stay secret until the game starts."
        )
        if pictured
        else _(
            "The board shows the game's start, not the other side's choices: they stay "
            "secret until the game starts."
        )
    )
    return sentences(you, choose, board)
