"""The match service: challenges, setup, asynchronous turns with deadlines, private
delivery through a transactional outbox, and recovery after restarts. See docs/SERVICE.md.
"""

from .clock import ManualClock, SystemClock
from .errors import ActionRefused, NotAllowed, RateLimited, Refused, StaleRequest
from .models import Place, Reply, User
from .ports import (
    Attachment,
    Clock,
    Delivery,
    DirectMessagesClosed,
    Message,
    Renderer,
    Status,
    Undeliverable,
)
from .service import MatchService
from .terms import Settings, Terms

__all__ = [
    "ActionRefused",
    "Attachment",
    "Clock",
    "Delivery",
    "DirectMessagesClosed",
    "ManualClock",
    "MatchService",
    "Message",
    "NotAllowed",
    "Place",
    "RateLimited",
    "Refused",
    "Renderer",
    "Reply",
    "Settings",
    "StaleRequest",
    "Status",
    "SystemClock",
    "Terms",
    "Undeliverable",
    "User",
]
