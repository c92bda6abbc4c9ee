"""The three ways an action can be refused, after python-chess's parse errors (R51)."""

from __future__ import annotations

from .words import Text, frame, msg, msg_n

TORA_HINT = msg(
    "Write actions like 'A v5h7-v4h6', 'A v5h7 x v5h5', 'S v4h8 defend', 'C v5h8 fire W' or "
    "'crown v4h14'"
)


ECHO = 40  # characters of a refused text quoted back


def echo(text: str) -> Text:
    """A user's ``text`` quoted for a message, in code style: on one line, cut to ``ECHO``
    characters (a refusal never repeats a long input in full), with its backticks replaced
    so that it cannot close the quote (no markdown or mention inside it takes effect)."""
    flat = " ".join(text.replace("`", "\u02cb").split())
    if not flat:
        return msg("nothing")
    if len(flat) > ECHO:
        return msg_n(
            "`{start}\u2026 ({n} character)`",
            "`{start}\u2026 ({n} characters)`",
            len(text),
            start=flat[:ECHO],
        )
    return frame("`{text}`", text=flat)


class ActionError(ValueError):
    """Base class: every refusal carries a message fit to show the player, a ``Text``
    (``rules.words``): English as a ``str``, its message id and parameters for the layers
    above to word in the player's language."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.message = message


class MalformedAction(ActionError):
    """The text is not action notation at all."""

    def __init__(self, text: str, reason: Text, hint: Text = TORA_HINT) -> None:
        super().__init__(
            msg("cannot read {text}: {reason}. {hint}", text=echo(text), reason=reason, hint=hint)
        )
        self.text = text
        self.reason = reason


SHOWN = 12  # allowed actions a refusal lists


class IllegalAction(ActionError):
    """Well-formed but forbidden now; ``rule`` names the ruling that forbids it (an id, the
    same in every language)."""

    def __init__(self, rule: str, reason: Text, allowed: list[str] | None = None) -> None:
        self.rule = rule
        self.reason = reason
        self.allowed = list(allowed or [])
        super().__init__(refusal(rule, reason, self.allowed))


def refusal(rule: str, reason: Text, allowed: list[str]) -> Text:
    """``reason (rule)``, then up to ``SHOWN`` of the ``allowed`` actions and how many more."""
    if not allowed:
        return frame("{reason} ({rule})", reason=reason, rule=rule)
    shown = _joined(allowed[:SHOWN])
    more = len(allowed) - SHOWN
    if more <= 0:
        return msg("{reason} ({rule}). Allowed: {shown}", reason=reason, rule=rule, shown=shown)
    return msg_n(
        "{reason} ({rule}). Allowed: {shown} and {n} more",
        "{reason} ({rule}). Allowed: {shown} and {n} more",
        more,
        reason=reason,
        rule=rule,
        shown=shown,
    )


def _joined(items: list[str]) -> str:
    """Actions listed with commas: notation as it is, a ``Text`` among them (an action in
    words, Torii's "next step to c4") kept one, to be worded."""
    if not any(isinstance(item, Text) for item in items):
        return ", ".join(items)
    listed = frame("{item}", item=items[0])
    for item in items[1:]:
        listed = frame("{list}, {item}", list=listed, item=item)
    return listed


class AmbiguousAction(ActionError):
    """Several different legal actions match the text; ``candidates`` are their notations."""

    def __init__(self, text: str, candidates: list[str]) -> None:
        self.candidates = list(candidates)
        super().__init__(
            msg(
                "{text} could mean several actions; write one of: {candidates}",
                text=echo(text),
                candidates="; ".join(self.candidates),
            )
        )
