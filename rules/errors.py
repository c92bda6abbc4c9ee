"""The three ways an action can be refused, after python-chess's parse errors (R51)."""

from __future__ import annotations

TORA_HINT = (
    "Write actions like 'A v5h7-v4h6', 'A v5h7 x v5h5', 'S v4h8 defend', 'C v5h8 fire W' or "
    "'crown v4h14'"
)


ECHO = 40  # characters of a refused text quoted back


def echo(text: str) -> str:
    """A user's ``text`` quoted for a message, in code style: on one line, cut to ``ECHO``
    characters (a refusal never repeats a long input in full), with its backticks replaced
    so that it cannot close the quote (no markdown or mention inside it takes effect)."""
    flat = " ".join(text.replace("`", "\u02cb").split())
    if len(flat) > ECHO:
        flat = f"{flat[:ECHO]}\u2026 ({len(text)} characters)"
    return f"`{flat}`" if flat else "nothing"


class ActionError(ValueError):
    """Base class: every refusal carries a message fit to show the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MalformedAction(ActionError):
    """The text is not action notation at all."""

    def __init__(self, text: str, reason: str, hint: str = TORA_HINT) -> None:
        super().__init__(f"cannot read {echo(text)}: {reason}. {hint}")
        self.text = text
        self.reason = reason


class IllegalAction(ActionError):
    """Well-formed but forbidden now; ``rule`` names the ruling that forbids it."""

    def __init__(self, rule: str, reason: str, allowed: list[str] | None = None) -> None:
        self.rule = rule
        self.reason = reason
        self.allowed = list(allowed or [])
        message = f"{reason} ({rule})"
        if self.allowed:
            shown = ", ".join(self.allowed[:12])
            more = len(self.allowed) - 12
            message += f". Allowed: {shown}" + (f" and {more} more" if more > 0 else "")
        super().__init__(message)


class AmbiguousAction(ActionError):
    """Several different legal actions match the text; ``candidates`` are their notations."""

    def __init__(self, text: str, candidates: list[str]) -> None:
        self.candidates = list(candidates)
        super().__init__(
            f"{echo(text)} could mean several actions; write one of: " + "; ".join(self.candidates)
        )
