"""Interaction callbacks and the interaction webhook (original response, follow-ups),
with Discord's rules: one callback, within the deadline; follow-ups only after it."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .commands import check_choice
from .errors import (
    ACTIVITIES_DISABLED,
    ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    invalid_form,
    json_response,
    not_found,
)
from .interactions import AUTOCOMPLETE, COMMAND, COMPONENT, MODAL_SUBMIT, Interaction
from .messages import Body, check_modal, read_body
from .models import EPHEMERAL, LOADING, Msg
from .rest import Api, Handler, api_of, no_content, snowflake
from .world import World

MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL = 4, 5, 6, 7, 8, 9
LAUNCH_ACTIVITY = 12
ALLOWED = {
    COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, MODAL, LAUNCH_ACTIVITY},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE},
}


def _failing(record: Interaction, error: ApiError) -> ApiError:
    record.errors.append(f"{error.status} {error.code} {error.message}")
    return error


async def callback(request: web.Request) -> web.Response:
    api = api_of(request)
    record = api.world.interactions.get(snowflake(request, "interaction_id"))
    if record is None or record.token != request.match_info["token"]:
        raise not_found(UNKNOWN_INTERACTION, "interaction")
    body = await read_body(request)
    now = time.monotonic()
    if record.first_callback_at is None:
        record.first_callback_at = now
    if record.acknowledged:
        raise _failing(
            record,
            ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."),
        )
    if now - record.sent_at > api.callback_deadline:
        raise _failing(record, not_found(UNKNOWN_INTERACTION, "interaction"))
    kind = body.payload.get("type")
    try:
        if kind not in ALLOWED[record.type]:
            raise invalid_form(
                "type", "INTERACTION_RESPONSE_TYPE_INVALID", f"Invalid response type {kind}"
            )
        if kind == LAUNCH_ACTIVITY:
            _launch(api, record)
        else:
            _respond(api.world, record, kind, Body(body.payload.get("data") or {}, body.uploads))
    except ApiError as error:
        raise _failing(record, error) from None
    record.callback_type = kind
    api.world.changes.changed()
    if request.query.get("with_response") in ("1", "true"):
        return json_response(_callback_response(api.world, record))
    return no_content()


def _respond(world: World, record: Interaction, kind: int, body: Body) -> None:
    channel = world.channel(record.channel_id)
    flags = body.payload.get("flags") or 0
    private = record.user_id if flags & EPHEMERAL else None
    if kind == MESSAGE:
        record.response = world.post(
            channel, body, ephemeral_to=private, interaction_id=record.id, where="data."
        )
    elif kind == DEFERRED_MESSAGE:
        record.response = world.placeholder(channel, ephemeral_to=private, interaction_id=record.id)
    elif kind in (DEFERRED_UPDATE, UPDATE):
        clicked = world.messages.get(record.message_id or 0)
        if clicked is None:  # a modal opened by a command has no message to update
            raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", "No message")
        if kind == UPDATE:
            world.edit(clicked, body, where="data.")
        record.response = clicked
    elif kind == CHOICES:
        choices = body.payload.get("choices") or []
        if len(choices) > 25:
            raise invalid_form(
                "data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
            )
        for index, choice in enumerate(choices):
            check_choice(choice, f"data.choices.{index}")
        record.choices = choices
    elif kind == MODAL:
        check_modal(body.payload)
        record.modal = body.payload
    record.settled = kind not in (DEFERRED_MESSAGE, DEFERRED_UPDATE)


def _launch(api: Api, record: Interaction) -> None:
    """The Activity opens for the user where they are: an instance in that channel."""
    if not api.activities_enabled:
        raise ApiError(400, ACTIVITIES_DISABLED, "Application does not have Activities enabled")
    launched = api.activities.launch(
        api.world.ids.next(), record.channel_id, record.guild_id, record.user_id
    )
    record.activity = launched.id
    record.settled = True


def _callback_response(world: World, record: Interaction) -> dict[str, Any]:
    """What ``?with_response=1`` returns; discord.py reads the message id from it."""
    summary: dict[str, Any] = {"id": str(record.id), "type": record.type}
    response: dict[str, Any] = {"interaction": summary}
    msg = record.response
    if msg is not None and record.callback_type != DEFERRED_UPDATE:
        summary["response_message_id"] = str(msg.id)
        summary["response_message_loading"] = msg.loading
        summary["response_message_ephemeral"] = msg.ephemeral_to is not None
        response["resource"] = {"type": record.callback_type, "message": world.message_payload(msg)}
    elif record.callback_type == LAUNCH_ACTIVITY:
        summary["activity_instance_id"] = record.activity
        response["resource"] = {
            "type": LAUNCH_ACTIVITY,
            "activity_instance": {"id": record.activity},
        }
    elif record.callback_type in (CHOICES, MODAL):
        response["resource"] = {"type": record.callback_type}
    return response


def _acknowledged(api: Api, request: web.Request) -> Interaction:
    """The interaction behind a webhook token; it exists once the callback was sent."""
    record = api.tokens.get(request.match_info["token"])
    if record is None or snowflake(request, "application_id") != api.world.bot.id:
        raise not_found(UNKNOWN_WEBHOOK, "Webhook")
    if time.monotonic() - record.sent_at > api.token_lifetime:
        raise _failing(record, ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token"))
    if not record.acknowledged:
        raise _failing(record, not_found(UNKNOWN_WEBHOOK, "Webhook"))
    return record


def _own_message(record: Interaction, message_id: str) -> Msg:
    if message_id == "@original":
        msg = record.response
    else:
        msg = next((m for m in record.messages if str(m.id) == message_id), None)
    if msg is None or msg.deleted:
        raise _failing(record, not_found(UNKNOWN_MESSAGE, "Message"))
    return msg


async def followup(request: web.Request) -> web.Response:
    """After a deferred message (5) the first follow-up fills in the "thinking"
    message, keeping its ephemerality, as Discord does; later ones, and any after the
    "thinking" was deleted, are new messages with their own flags."""
    api = api_of(request)
    record = _acknowledged(api, request)
    body = await read_body(request)
    original = record.response
    try:
        deferred = record.callback_type == DEFERRED_MESSAGE
        if deferred and original is not None and original.loading and not original.deleted:
            msg = _fill_in(api.world, original, body)
        else:
            private = record.user_id if (body.payload.get("flags") or 0) & EPHEMERAL else None
            channel = api.world.channel(record.channel_id)
            msg = api.world.post(channel, body, ephemeral_to=private, interaction_id=record.id)
            record.followups.append(msg)
    except ApiError as error:
        raise _failing(record, error) from None
    record.settled = True
    api.world.changes.changed()
    if request.query.get("wait") in ("1", "true"):
        return json_response(api.world.message_payload(msg))
    return no_content()


def _fill_in(world: World, msg: Msg, body: Body) -> Msg:
    world.edit(msg, body)
    msg.flags &= ~LOADING
    return msg


async def get_webhook_message(request: web.Request) -> web.Response:
    api = api_of(request)
    record = _acknowledged(api, request)
    msg = _own_message(record, request.match_info["message_id"])
    return json_response(api.world.message_payload(msg))


async def edit_webhook_message(request: web.Request) -> web.Response:
    api = api_of(request)
    record = _acknowledged(api, request)
    msg = _own_message(record, request.match_info["message_id"])
    try:
        _fill_in(api.world, msg, await read_body(request))
    except ApiError as error:
        raise _failing(record, error) from None
    record.settled = True
    api.world.changes.changed()
    return json_response(api.world.message_payload(msg))


async def delete_webhook_message(request: web.Request) -> web.Response:
    api = api_of(request)
    record = _acknowledged(api, request)
    msg = _own_message(record, request.match_info["message_id"])
    api.world.delete(msg)
    # a deleted "thinking" answers nothing: the user waits for a follow-up
    record.settled = record.settled or not msg.loading
    return no_content()


ROUTES: list[tuple[str, str, Handler]] = [
    ("POST", "/interactions/{interaction_id}/{token}/callback", callback),
    ("POST", "/webhooks/{application_id}/{token}", followup),
    ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", get_webhook_message),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", edit_webhook_message),
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", delete_webhook_message),
]
