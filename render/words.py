"""The words an image shows, in its reader's language. ``render`` keeps no catalog and
knows nothing of the bot: whoever asks for an image hands it a ``Words``, any object with
gettext's ``_`` and ``ngettext`` (placeholders filled), such as the bot's
``bot.i18n.words.Language``; without one an image speaks English (``ENGLISH``).

A ``Words`` is part of what an image is drawn from: it travels with a drawing job to a
drawing worker (so it must pickle), and it is part of the key of any cached image (so it
must be hashable and equal for the same language). The texts are written in English here
and extracted into the bot's catalogs from ``render/`` as from ``bot/`` (``babel.cfg``):
``words._("Round {round}", round=n)``, ``words.ngettext("{n} point", "{n} points", n)``,
``N_`` for a constant translated where it is drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Words(Protocol):
    """The texts of one language: ``_`` one text, ``ngettext`` the form for ``n`` (which
    is given to the text as ``{n}``), each with its ``{placeholders}`` filled."""

    def _(self, message: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...


@dataclass(frozen=True)
class English:
    """The texts as written (English's plural rule: one, other)."""

    def _(self, message: str, /, **params: object) -> str:
        return message.format_map(params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return (singular if n == 1 else plural).format_map({"n": n, **params})


ENGLISH = English()


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for the marker
    """Mark a constant for extraction; it is translated where it is drawn (``words._``)."""
    return message
