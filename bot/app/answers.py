"""What the application layer answers a caller, as plain data any front end shows in its own
way: the text, the images, the buttons it offers (verbs and stamps), and whether it is for
the caller alone. Refusals are raised (the service's, or ``Unusable``), and ``explain``
words each for the caller."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import N_, _
from bot.ladder.errors import LadderError
from bot.service import UNAVAILABLE, Attachment, DatabaseUnavailable, Link, Refused, Reply

from .buttons import Press
from .parsing import BadDuration

# a pick in a panel's or a form's components made in a message others see too (a modified
# client sends any custom id from any message): refused, that message left as it is
NOT_YOURS = N_("Nothing was done: that works only in the message shown to you alone.")


class Unusable(Exception):
    """The command cannot be used as given (no match here, a bad option, no permission);
    the message, meant for the caller only, says why and what to do instead."""


@dataclass(frozen=True)
class Answer:
    """``text`` and ``files`` for the caller, ``private`` to them alone, with ``buttons``
    (each a verb on a match's turn: ``Press``) for them to press later, and ``links`` to
    open in a browser (the web board's)."""

    text: str
    files: tuple[Attachment, ...] = ()
    private: bool = True
    buttons: tuple[Press, ...] = ()
    links: tuple[Link, ...] = ()

    @classmethod
    def of(cls, reply: Reply, buttons: tuple[Press, ...] = ()) -> Answer:
        return cls(reply.text, reply.files, reply.private, buttons)


def explain(exc: BaseException) -> str | None:
    """What to tell the caller about an expected refusal (None: not one), as a sentence."""
    if isinstance(exc, Refused):
        return sentence(exc.message)
    if isinstance(exc, Unusable | BadDuration | LadderError):
        return sentence(str(exc))
    if isinstance(exc, DatabaseUnavailable):
        return _(UNAVAILABLE)
    return None


FIRST_WORD = re.compile(r"[a-z][a-z']*(?=[\s,;:.!?]|$)")
FULL_STOP = "。"  # the Japanese full stop


def sentence(text: str) -> str:
    """``text`` starting with a capital, as an answer of its own: the rules core words its
    refusals to be quoted within others ("cannot read ..."). A first word that is notation
    (``v4h2``, ``c3c4``) keeps its case."""
    if FIRST_WORD.match(text):
        return text[0].upper() + text[1:]
    return text


def first_sentence(text: str) -> str:
    """A refusal's first sentence, as a one-line hint (where a list of choices would be):
    up to its first ". ", or its first 「。」 (Japanese sentences end so, with no space)."""
    first = text.split(". ")[0]
    if FULL_STOP in first:
        return first.split(FULL_STOP)[0] + FULL_STOP
    return sentence(first.rstrip(".") + ".")


def failure_text(ref: str) -> str:
    return _(
        "Something went wrong on my side, and nothing was changed (ref `{ref}`). Please try "
        "again in a moment; if it keeps happening, give a server admin that ref.",
        ref=ref,
    )
