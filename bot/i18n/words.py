"""A language's texts as an object: what ``render`` draws an image's own words with
(``render.words.Words``). An image is drawn in a drawing worker, another process, where the
context variable of ``bot.i18n.current`` does not reach: the language travels with the job
as a ``Language``, which pickles as its code, and is part of the key of any cached image."""

from __future__ import annotations

from dataclasses import dataclass

from . import SOURCE, _, known, ngettext, speaking


@dataclass(frozen=True)
class Language:
    """The texts of language ``code`` (a shipped one; English for any other)."""

    code: str = SOURCE

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", known(self.code) or SOURCE)

    def _(self, message: str, /, **params: object) -> str:
        with speaking(self.code):
            return _(message, **params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        with speaking(self.code):
            return ngettext(singular, plural, n, **params)
