"""The match service: challenges, setup, asynchronous turns with deadlines, private
delivery through a transactional outbox, and recovery after restarts. See docs/SERVICE.md.

The stored facts a front end reads through the service (``MatchService.records``) come with
their types, so that a front end needs nothing of storage.
"""

from storage import ButtonMessage, Hosted, MatchInfo

from .agreements import PROPOSAL_KINDS, open_proposals
from .clock import ManualClock, SystemClock
from .drafting import Draft
from .errors import (
    UNAVAILABLE,
    ActionRefused,
    DatabaseUnavailable,
    NotAllowed,
    RateLimited,
    Refused,
    StaleRequest,
)
from .guild import GuildSettings, load_guild, save_guild
from .links import LinkRecords
from .models import Menu, Place, Reply, User
from .ports import (
    Attachment,
    Buttons,
    ChannelGone,
    Clock,
    Delivery,
    DirectMessagesClosed,
    Link,
    Linker,
    Message,
    Pointing,
    Renderer,
    RetryAfter,
    Shown,
    Stamp,
    Status,
    Threads,
    Undeliverable,
)
from .records import Records
from .service import MatchService
from .terms import Settings, Terms

__all__ = [
    "PROPOSAL_KINDS",
    "UNAVAILABLE",
    "ActionRefused",
    "Attachment",
    "ButtonMessage",
    "Buttons",
    "ChannelGone",
    "Clock",
    "DatabaseUnavailable",
    "Delivery",
    "DirectMessagesClosed",
    "Draft",
    "GuildSettings",
    "Hosted",
    "Link",
    "LinkRecords",
    "Linker",
    "ManualClock",
    "MatchInfo",
    "MatchService",
    "Menu",
    "Message",
    "NotAllowed",
    "Place",
    "Pointing",
    "RateLimited",
    "Records",
    "Refused",
    "Renderer",
    "Reply",
    "RetryAfter",
    "Settings",
    "Shown",
    "StaleRequest",
    "Stamp",
    "Status",
    "SystemClock",
    "Terms",
    "Threads",
    "Undeliverable",
    "User",
    "load_guild",
    "open_proposals",
    "save_guild",
]
