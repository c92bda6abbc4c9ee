"""Pictures of messages as the emulator holds them, for the documentation (``make demo``
writes them beside its transcript): what a message shows is read here, the drawing is
``render.message_card``'s."""

from __future__ import annotations

from typing import Any

from emulator import Msg
from emulator.models import walk_components
from render.message_card import CardButton, CardOption, CardSelect, message_card

STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger"}  # Discord's button styles


def card(msg: Msg) -> bytes:
    """``msg`` as a PNG: its text, its PNG images, its select menus and its buttons."""
    images = [file.data for file in msg.files if file.name.endswith(".png")]
    components = list(walk_components(msg.components))
    selects = [_select(c) for c in components if c.get("type") == 3]
    buttons = [_button(c) for c in components if c.get("type") == 2]
    return message_card(msg.text(), images, selects, buttons)


def _select(component: dict[str, Any]) -> CardSelect:
    options = tuple(
        CardOption(o["label"], o.get("description") or "", bool(o.get("default")))
        for o in component.get("options", [])
    )
    return CardSelect(component.get("placeholder", ""), options)


def _button(component: dict[str, Any]) -> CardButton:
    style = STYLES.get(component.get("style", 2), "secondary")
    return CardButton(component.get("label", ""), style, bool(component.get("disabled")))
