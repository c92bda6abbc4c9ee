"""Reading action notation (R2, R51) into a ``Spec``: what the player asked for.

Accepted: the canonical short form (``A v5h7-v4h6 x v3h6``), the rule book's official form
(``A. v.5, h.7, to A. v.4, h.6``), any case, extra spaces, dots and commas, ``h7v5`` squares,
and full piece names. Resolving a Spec against the legal actions happens in ``game``.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..errors import MalformedAction, echo
from ..words import Text, msg
from .actions import CROWN, DRAW, FIRE, MOVE, READY, RESET, RESIGN, SEARCH, STANCE
from .geometry import DIRECTIONS, SQUARE_PATTERN, parse_square

PIECE_WORDS = {
    "g": "G", "general": "G",
    "k": "K", "king": "K",
    "q": "Q", "queen": "Q",
    "r": "R", "ruler": "R",
    "a": "A", "archer": "A",
    "s": "S", "soldier": "S",
    "c": "C", "cannon": "C", "catapult": "C",
    "h": "H", "cavalry": "H", "horse": "H", "horseman": "H",
    "x": "X", "assassin": "X",
}  # fmt: skip
STANCE_WORDS = {"defend": "defend", "defense": "defend", "defence": "defend", "attack": "attack"}
ATTACK_WORDS = {"x", "takes", "attacks", "\u00d7"}
MAX_ACTION = 160  # characters; the longest real action (a Cavalry's named path) is about 40

_TOKEN = re.compile(
    rf"\s*(?:(?P<sq>{SQUARE_PATTERN.pattern})|(?P<dash>-|\u2013|\u2014|to\b)|(?P<word>[a-z\u00d7]+)\.?|(?P<punct>[,;:.]))",
    re.IGNORECASE,
)


class Spec(NamedTuple):
    """A parsed action: everything the text said, nothing it did not. A named tuple: the
    menus write one for every legal action of every state (``Resolver.written``), and a
    tuple is made several times faster than a frozen dataclass."""

    text: str
    kind: str
    letter: str = ""
    origin: int = 0
    dest: int = 0
    path_via: tuple[int, ...] = ()
    target: int = 0
    attack_via: int = 0
    stance: str = ""
    direction: int = -1
    supporters: tuple[int, ...] | None = None


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    stripped = text.strip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m or m.end() == pos:
            bad = stripped[pos:].split()[0] if stripped[pos:].split() else stripped[pos:]
            raise MalformedAction(text, msg("unexpected {text}", text=echo(bad)))
        pos = m.end()
        kind = m.lastgroup
        if kind is None or kind == "punct":
            continue
        value = m.group(kind)
        if kind == "sq":
            # the named groups of the square pattern are unnamed; keep the raw text
            kind = "sq"
        tokens.append((kind, value.lower() if kind != "sq" else value))
    return tokens


def parse(text: str, size: int) -> Spec:
    """Parse notation for a board of ``size``; raises MalformedAction."""
    if len(text) > MAX_ACTION:
        raise MalformedAction(
            text,
            msg(
                "it is {length} characters long, and an action is at most {most}",
                length=len(text),
                most=MAX_ACTION,
            ),
        )
    tokens = tokenize(text)
    if not tokens:
        raise MalformedAction(text, msg("it is empty"))
    reader = _Reader(text, tokens, size)
    first = reader.word()
    if first in (RESIGN, DRAW, RESET):
        reader.end()
        return Spec(text, first)
    if first == CROWN:
        origin = reader.square(msg("the General to crown"))
        reader.end()
        return Spec(text, CROWN, origin=origin)
    if first not in PIECE_WORDS:
        raise MalformedAction(
            text, msg("{text} is not a piece letter (G K Q A S C H X)", text=echo(first))
        )
    return reader.piece_action(PIECE_WORDS[first])


class _Reader:
    def __init__(self, text: str, tokens: list[tuple[str, str]], size: int) -> None:
        self.text, self.tokens, self.size, self.i = text, tokens, size, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise MalformedAction(self.text, msg("it ends too early"))
        self.i += 1
        return token

    def word(self) -> str:
        kind, value = self.take()
        if kind != "word":
            raise MalformedAction(self.text, msg("expected a word, found {text}", text=echo(value)))
        return value

    def square(self, what: Text) -> int:
        token = self.peek()
        if token is None or token[0] != "sq":
            found = msg("nothing") if token is None else echo(token[1])
            raise MalformedAction(
                self.text,
                msg(
                    "expected a square for {what} (like v5h7), found {found}",
                    what=what,
                    found=found,
                ),
            )
        self.i += 1
        try:
            return parse_square(token[1], self.size)
        except ValueError as exc:
            raise MalformedAction(self.text, exc.args[0]) from None

    def squares(self, what: Text) -> tuple[int, ...]:
        out = [self.square(what)]
        while (token := self.peek()) is not None and token[0] == "sq":
            out.append(self.square(what))
        return tuple(out)

    def end(self) -> None:
        token = self.peek()
        if token is not None:
            raise MalformedAction(
                self.text, msg("unexpected {text} at the end", text=echo(token[1]))
            )

    def piece_action(self, letter: str) -> Spec:
        fields: dict[str, Any] = {"letter": letter, "kind": MOVE}
        fields["origin"] = self.square(msg("the piece"))
        token = self.peek()
        if token is not None and token[0] == "dash":
            self.i += 1
            token = self.peek()
            if token is not None and token[0] == "word" and PIECE_WORDS.get(token[1]) == letter:
                self.i += 1
            fields["dest"] = self.square(msg("the destination"))
        elif token is not None and token[0] == "sq":
            fields["dest"] = self.square(msg("the destination"))
        operation = ""
        while (token := self.peek()) is not None:
            word = self.word()
            if word == "via":
                if "target" in fields:
                    fields["attack_via"] = self.square(msg("the square the attack passes"))
                elif "dest" in fields:
                    fields["path_via"] = self.squares(msg("the path"))
                else:
                    raise MalformedAction(
                        self.text, msg("'via' needs a move or an attack before it")
                    )
            elif word in ATTACK_WORDS:
                fields["target"] = self.square(msg("the attacked square"))
            elif word in STANCE_WORDS:
                operation = self._once(operation, word)
                fields.update(kind=STANCE, stance=STANCE_WORDS[word])
            elif word in (SEARCH, READY):
                operation = self._once(operation, word)
                fields["kind"] = word
            elif word == FIRE:
                operation = self._once(operation, word)
                direction = self.word().upper()
                if direction not in DIRECTIONS:
                    raise MalformedAction(
                        self.text,
                        msg(
                            "{text} is not a direction: use {directions}",
                            text=echo(direction),
                            directions=" ".join(DIRECTIONS),
                        ),
                    )
                fields.update(kind=FIRE, direction=DIRECTIONS.index(direction))
            elif word == "with":
                fields["supporters"] = tuple(sorted(self.squares(msg("a supporter")), key=_reading))
            else:
                raise MalformedAction(self.text, msg("unexpected {text}", text=echo(word)))
        if fields["kind"] == MOVE and "dest" not in fields and "target" not in fields:
            raise MalformedAction(
                self.text,
                msg(
                    "say what the piece does: '-<square>', 'x <square>', "
                    "'defend', 'attack', 'fire <direction>', 'ready' or 'search'"
                ),
            )
        if fields["kind"] in (STANCE, FIRE, READY) and ("dest" in fields or "target" in fields):
            raise MalformedAction(
                self.text,
                msg("'{operation}' cannot be combined with a move or attack", operation=operation),
            )
        if fields["kind"] == SEARCH and "target" in fields:
            # R51 writes a search alone or after a move: it never follows an attack (R43)
            raise MalformedAction(
                self.text, msg("'search' cannot follow an attack: it follows at most a move")
            )
        return Spec(self.text, **fields)

    def _once(self, current: str, word: str) -> str:
        if current:
            raise MalformedAction(
                self.text,
                msg(
                    "'{operation}' after '{current}': one operation per action",
                    operation=word,
                    current=current,
                ),
            )
        return word


def _reading(sq: int) -> tuple[int, int]:
    return (sq & 31, sq >> 5)
