"""Message bodies: reading JSON or multipart requests, Discord's checks, attachments."""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, hdrs, web

from .errors import (
    EMPTY_MESSAGE,
    INVALID_FORM_BODY,
    TOO_LARGE,
    ApiError,
    check_at_most,
    invalid_form,
)
from .models import EPHEMERAL, LOADING, File, Msg, walk_components

MAX_CONTENT = 2000
MAX_UPLOAD = 10 * 1024 * 1024
MAX_NONCE = 25
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_URL = 512  # a link button's address
LINK_STYLE = 5  # a button that opens its url and never reaches the bot
URL_SCHEMES = ("http://", "https://", "discord://")
MAX_ROWS = 5
MAX_IN_ROW = 5  # buttons in an action row (a select fills one alone)
MAX_EMBEDS = 10
MAX_EMBED_TEXT = 6000  # every title, description, field, footer and author of a message
MAX_FIELDS = 25
# the longest each text of an embed may be, by its path in the embed
EMBED_TEXTS = {
    ("title",): 256,
    ("description",): 4096,
    ("footer", "text"): 2048,
    ("author", "name"): 256,
}
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_ATTACHMENTS = 10
MAX_OPTIONS = 25  # a string select's options; its min_values and max_values too
MAX_OPTION_TEXT = 100  # an option's label, value and description
MAX_PLACEHOLDER = 150
STRING_SELECT = 3
TEXT_INPUT = 4
TEXT_DISPLAY = 10
LABEL = 18  # a modal's label around one input (discord.py's ui.Label)
MAX_MODAL_TITLE = 45
MAX_INPUT_LABEL = 45
MAX_INPUT_PLACEHOLDER = 100
MAX_INPUT_TEXT = 4000  # a text input's value, min_length and max_length
SELECTS = (STRING_SELECT, 5, 6, 7, 8)  # string, user, role, mentionable, channel
FILE_FIELD = re.compile(r"files\[(\d+)\]")


@dataclass
class Upload:
    filename: str
    data: bytes
    content_type: str


@dataclass
class Body:
    """A request's JSON (``payload_json`` for multipart) and its uploaded files by index."""

    payload: dict[str, Any]
    uploads: dict[int, Upload]


async def read_body(request: web.Request) -> Body:
    # the media type read from the header directly: aiohttp's ``content_type`` parses the
    # whole header with the email package, over a third of the time spent reading a body
    media = request.headers.get(hdrs.CONTENT_TYPE, "").split(";", 1)[0].strip().lower()
    if media != "multipart/form-data":
        raw = await request.read()
        return Body(json.loads(raw) if raw else {}, {})
    payload: dict[str, Any] = {}
    uploads: dict[int, Upload] = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):  # a multipart inside the multipart
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body")
        data = await part.read()
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(data)
        elif match := FILE_FIELD.fullmatch(name):
            filename = part.filename or f"file{match[1]}"
            sent = part.headers.get("Content-Type", "")
            kind = mimetypes.guess_type(filename)[0] or sent
            uploads[int(match[1])] = Upload(filename, bytes(data), kind)
    return Body(payload, uploads)


def check(payload: dict[str, Any], uploads: dict[int, Upload], where: str = "") -> None:
    """The limits Discord enforces on a message; ``where`` prefixes error paths (``data.``)."""
    content = payload.get("content") or ""
    if len(content) > MAX_CONTENT:
        raise invalid_form(
            f"{where}content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."
        )
    nonce = payload.get("nonce")
    if nonce is not None and len(str(nonce)) > MAX_NONCE:
        raise invalid_form(
            f"{where}nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    check_embeds(payload.get("embeds") or [], where)
    check_components(payload.get("components") or [], payload.get("flags") or 0, where)
    if max(len(uploads), len(payload.get("attachments") or [])) > MAX_ATTACHMENTS:
        raise invalid_form(
            f"{where}attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
        )
    if sum(len(u.data) for u in uploads.values()) > MAX_UPLOAD:
        raise ApiError(413, TOO_LARGE, "Request entity too large")


def check_embeds(embeds: list[dict[str, Any]], where: str) -> None:
    """At most 10 embeds, each text within its length, 6000 characters in all."""
    at = f"{where}embeds"
    check_at_most(embeds, MAX_EMBEDS, at)
    total = 0
    for embed in embeds:
        texts = [(keys, _text_at(embed, keys), most) for keys, most in EMBED_TEXTS.items()]
        fields = embed.get("fields") or []
        check_at_most(fields, MAX_FIELDS, f"{at}.fields")
        for field in fields:
            texts.append((("fields", "name"), field.get("name") or "", MAX_FIELD_NAME))
            texts.append((("fields", "value"), field.get("value") or "", MAX_FIELD_VALUE))
        for keys, text, most in texts:
            check_at_most(text, most, ".".join((at, *keys)))
            total += len(text)
    if total > MAX_EMBED_TEXT:
        raise invalid_form(at, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _text_at(embed: dict[str, Any], keys: tuple[str, ...]) -> str:
    found: Any = embed
    for key in keys:
        found = found.get(key) if isinstance(found, dict) else None
    return str(found or "")


def check_components(components: list[dict[str, Any]], flags: int, where: str) -> None:
    components_v2 = bool(flags & (1 << 15))
    if not components_v2 and len(components) > MAX_ROWS:
        raise invalid_form(
            f"{where}components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
        )
    for row in components:
        if row.get("type") == 1:
            check_row(row.get("components") or [], where)
    custom_ids: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id in custom_ids:  # unique within a message (disabled ones too)
            raise invalid_form(
                f"{where}components",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        if custom_id:
            custom_ids.add(custom_id)
        check_at_most(custom_id, MAX_CUSTOM_ID, f"{where}components", "custom_id")
        check_at_most(component.get("label"), MAX_LABEL, f"{where}components", "label")
        if component.get("type") == 2:
            check_button(component, where)
        if component.get("type") in SELECTS:
            check_select(component, where)


def check_row(row: list[dict[str, Any]], where: str) -> None:
    """An action row holds 1 to 5 buttons, or one select alone."""
    selects = sum(c.get("type") in SELECTS for c in row)
    if not 1 <= len(row) <= MAX_IN_ROW:
        raise invalid_form(
            f"{where}components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    if selects and len(row) > 1:
        raise invalid_form(
            f"{where}components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )


def check_select(select: dict[str, Any], where: str) -> None:
    """A select's placeholder and value counts; a string select's options: 1 to 25, each
    label and value 1 to 100 characters, a description up to 100, no value twice, and no
    more chosen by default than may be chosen."""
    at = f"{where}components"
    check_at_most(select.get("placeholder"), MAX_PLACEHOLDER, at, "placeholder")
    least, most = select.get("min_values", 1), select.get("max_values", 1)
    if not (0 <= least <= MAX_OPTIONS and 1 <= most <= MAX_OPTIONS and least <= most):
        raise invalid_form(at, "BASE_TYPE_BAD_LENGTH", "min_values/max_values: out of range.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= MAX_OPTIONS:
        raise invalid_form(
            f"{at}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
        )
    for option in options:
        for key in ("label", "value"):
            if not 1 <= len(option.get(key) or "") <= MAX_OPTION_TEXT:
                raise invalid_form(
                    f"{at}.options.{key}",
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
        check_at_most(option.get("description"), MAX_OPTION_TEXT, f"{at}.options.description")
    values = [option.get("value") for option in options]
    if len(set(values)) < len(values):
        raise invalid_form(
            f"{at}.options",
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            "The specified option value is already used",
        )
    if sum(bool(option.get("default")) for option in options) > most:
        raise invalid_form(
            f"{at}.options", "BASE_TYPE_BAD_LENGTH", "More chosen by default than may be chosen."
        )


def check_modal(modal: dict[str, Any]) -> None:
    """A modal answer (9): a custom_id and a title, then 1 to 5 components: action rows of
    one text input each, or labels (around a text input or a select) and text displays,
    every one within Discord's lengths."""
    check_at_most(modal.get("custom_id"), MAX_CUSTOM_ID, "data.custom_id")
    check_at_most(modal.get("title"), MAX_MODAL_TITLE, "data.title")
    parts = modal.get("components") or []
    if not 1 <= len(parts) <= MAX_ROWS:
        raise invalid_form(
            "data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    for part in parts:
        kind, inner = part.get("type"), part.get("components") or []
        if kind == LABEL:
            check_label(part)
        elif kind == 1 and len(inner) == 1 and inner[0].get("type") == TEXT_INPUT:
            check_text_input(inner[0])
        elif kind != TEXT_DISPLAY:
            raise invalid_form(
                "data.components",
                "COMPONENT_INVALID",
                "A modal holds labels, text displays, or rows of one text input.",
            )


def check_label(label: dict[str, Any]) -> None:
    """A modal's label: its text, a description, and the text input or select it names."""
    at = "data.components"
    check_at_most(label.get("label"), MAX_INPUT_LABEL, at, "label")
    check_at_most(label.get("description"), MAX_OPTION_TEXT, at, "description")
    named = label.get("component") or {}
    if named.get("type") == TEXT_INPUT:
        check_text_input(named)
    elif named.get("type") in SELECTS:
        check_select(named, "data.")
    else:
        raise invalid_form(at, "COMPONENT_INVALID", "A label names a text input or a select.")


def check_text_input(text_input: dict[str, Any]) -> None:
    at = "data.components"
    check_at_most(text_input.get("custom_id"), MAX_CUSTOM_ID, at, "custom_id")
    check_at_most(text_input.get("label"), MAX_INPUT_LABEL, at, "label")
    check_at_most(text_input.get("placeholder"), MAX_INPUT_PLACEHOLDER, at, "placeholder")
    check_at_most(text_input.get("value"), MAX_INPUT_TEXT, at, "value")
    least, most = text_input.get("min_length", 0), text_input.get("max_length", MAX_INPUT_TEXT)
    if not (0 <= least <= MAX_INPUT_TEXT and 1 <= most <= MAX_INPUT_TEXT and least <= most):
        raise invalid_form(at, "BASE_TYPE_BAD_LENGTH", "min_length/max_length: out of range.")


def check_button(button: dict[str, Any], where: str) -> None:
    """A link button (style 5) has a url and no custom_id; every other one the reverse."""
    url = button.get("url")
    if button.get("style") == LINK_STYLE:
        if "custom_id" in button or not isinstance(url, str) or not url.startswith(URL_SCHEMES):
            raise invalid_form(
                f"{where}components",
                "COMPONENT_INVALID",
                "A link button needs a url, no custom_id.",
            )
        check_at_most(url, MAX_URL, f"{where}components", "url")
    elif url is not None or not button.get("custom_id"):
        raise invalid_form(
            f"{where}components", "COMPONENT_INVALID", "A button needs a custom_id, no url."
        )


def new_files(body: Body, new_id: Callable[[], int], kept: list[File]) -> list[File]:
    """The attachments a create or edit ends with: ``payload.attachments`` lists the
    existing ones to keep (by id) and the uploads (by ``files[n]`` index); without it,
    existing attachments stay and every upload is added."""
    listed = body.payload.get("attachments")
    if listed is None:
        return kept + [_stored(upload, {}, new_id) for upload in body.uploads.values()]
    by_id = {f.id: f for f in kept}
    files: list[File] = []
    for entry in listed:
        key = int(entry["id"])
        if key in by_id:
            files.append(by_id[key])
        elif key in body.uploads:
            files.append(_stored(body.uploads[key], entry, new_id))
        else:
            raise invalid_form("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {key}")
    return files


def _stored(upload: Upload, entry: dict[str, Any], new_id: Callable[[], int]) -> File:
    name = entry.get("filename") or upload.filename
    return File(name, upload.data, upload.content_type, new_id(), entry.get("description"))


MENTION = re.compile(r"<@!?(\d+)>|<@&(\d+)>|@(everyone|here)")


def pings(content: str, allowed: dict[str, Any] | None) -> frozenset[str]:
    """Who a message's mentions notify, as Discord decides: everyone it mentions when the
    message sets no ``allowed_mentions``, else only what those allow."""
    parse = (
        set(allowed.get("parse") or []) if allowed is not None else {"users", "roles", "everyone"}
    )
    users = {str(u) for u in (allowed or {}).get("users") or []}
    roles = {str(r) for r in (allowed or {}).get("roles") or []}
    found: set[str] = set()
    for user, role, mass in MENTION.findall(content):
        if user and ("users" in parse or user in users):
            found.add(f"user:{user}")
        elif role and ("roles" in parse or role in roles):
            found.add(f"role:{role}")
        elif mass and "everyone" in parse:
            found.add(mass)
    return frozenset(found)


def apply(
    msg: Msg, body: Body, new_id: Callable[[], int], *, editing: bool, where: str = ""
) -> None:
    """Sets the fields the payload names (an edit leaves the others as they were);
    nothing changes if Discord would refuse the result."""
    payload = body.payload
    check(payload, body.uploads, where)

    def pick(key: str, current: Any) -> Any:
        return payload.get(key) or type(current)() if key in payload or not editing else current

    content, embeds, components = (
        pick("content", msg.content),
        pick("embeds", msg.embeds),
        pick("components", msg.components),
    )
    files = new_files(body, new_id, msg.files if editing else [])
    if not (content.strip() or embeds or files or components):  # Discord trims the content
        raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")
    msg.content, msg.embeds, msg.components, msg.files = content, embeds, components, files
    if not editing:  # Discord notifies on a new message only
        msg.pinged = pings(content, payload.get("allowed_mentions"))
    if "flags" in payload:
        msg.flags = (msg.flags & (LOADING | EPHEMERAL)) | (payload["flags"] or 0)
