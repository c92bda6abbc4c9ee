"""TORA's menu choices worked out the plain way, one action at a time, as they were before
the batched notations and the shared Touch values: the oracle the faster ``menu.choices``
must equal, choice for choice and in order."""

from __future__ import annotations

from collections import defaultdict

from rules.protocol import FROM, HIT, TO, VIA, WITH, Choice, Touch
from rules.tora import Game
from rules.tora import menu as menus
from rules.tora.actions import FIRE, Action
from rules.tora.geometry import name


def choices(game: Game, key: str | None = None) -> tuple[Choice, ...]:
    """``menu.choices`` with each notation written alone (``Play.notation``) and each
    Touch made afresh."""
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        if key is None or menus.group_key(action) == key:
            groups[menus.group_key(action)].append(action)
    out: list[Choice] = []
    for group, actions in groups.items():
        texts = [game.notation(action) for action in actions]
        said_all = [menus.label(game, a, t) for a, t in zip(actions, texts, strict=True)]
        words = menus._distinct(said_all, texts)
        flat = len(actions) <= menus.MENU
        for action, text, said in zip(actions, texts, words, strict=True):
            path = (said,) if flat else (menus._direction(action), said)
            out.append(Choice(text, said, path, group, touches(game, action)))
    return tuple(out)


def touches(game: Game, action: Action) -> tuple[Touch, ...]:
    out = [Touch(name(action.origin), FROM)]
    out += [Touch(name(sq), VIA) for sq in action.path[:-1]]
    if action.path:
        out.append(Touch(name(action.path[-1]), TO))
    if action.kind == FIRE:
        line = menus._line(game, action.origin, action.direction)
        out += [Touch(name(sq), VIA) for sq in line[:-1]]
        out += [Touch(name(sq), HIT) for sq in line[-1:]]
    if action.target:
        if action.via:
            out.append(Touch(name(action.via), VIA))
        out.append(Touch(name(action.target), HIT))
    out += [Touch(name(sq), WITH) for sq in action.supporters]
    return tuple(out)
