"""What the web board's states are worked out from, kept so that each is worked out once.

A state is a function of the look it is built from, so a state is kept under a fingerprint
of that look: everything in it but the stored versions and the time of the last save, which
move on with every save, hidden ones too. Two looks with one fingerprint are the same to
their audience, so they give the same state; and a change the audience cannot see (the
opponent's staged action) leaves its fingerprint, and so the cost of its next state, as
they were: nothing, not even timing, tells it that something hidden changed. An event
stream's audience is asked for its version after every change of its match; most are such
hidden ones, or the acting player's own, already worked out for their answer. A state is
kept with its JSON, encoded once for every page and stream that reads it, and pages asking
for one state at once (an action's answer and its own stream's check) wait for one build.

The public record of a match (the move list, the replay) changes only when a turn ends or is
taken back, or the match ends, so it is kept by the match, its finished turns (``Look.history``:
not the turn number, which a takeback brings back) and its phase rather than read from the
store for every state."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.service.looking import Look, Recent

STATES = 512  # states kept (a page's audience each; a player's may be some 100 kB)
RECORDS = 256  # public records kept


def fingerprint(look: Look, kind: str) -> str:
    """What a state of ``kind`` (``public`` or ``mine``) built from ``look`` depends on:
    the look without the stored versions and time of the last save. Equal fingerprints,
    equal states.

    The legal actions of a player to act (hundreds on the long board) are long to write
    out; they are the service's own, worked out once per state of the game (hidden state
    included) and kept by it as one object while it keeps that state's memo, so that
    object's identity stands for them: an action taken back finds its state again. The
    state kept under the fingerprint holds that object (``Kept.anchor``), so no other
    object can take its identity while the fingerprint names a kept state."""
    hosted = replace(look.hosted, version=0, updated_at=0.0)  # both move on at every save
    bare = replace(look, versions=(0, None), hosted=hosted, moves=None)
    moves = look.moves
    acting = None if moves is None else (id(moves.choices), moves.staged)
    return f"{kind}:{acting}:{bare!r}"


def record_key(look: Look) -> tuple[int | None, str, str, bool]:
    """What a match's public record depends on: its finished turns (``Look.history``) and
    whether it has ended (the whole record is public then)."""
    return (look.hosted.match_id, look.history, look.hosted.phase, look.outcome is not None)


@dataclass(frozen=True)
class Kept:
    """A state with its ``version`` and its JSON ``body``; ``anchor`` is what the
    fingerprint it is kept under names by identity (``fingerprint``)."""

    state: Mapping[str, Any]
    body: bytes
    anchor: object = None

    def adding(self, name: str, value: Any) -> Kept:
        """The state with one more field (an action's ``said``), its body written from
        this one's rather than encoded again."""
        more = json.dumps({name: value}).encode()
        body = self.body[:-1] + b"," + more[1:] if len(self.state) else more
        return Kept(dict(self.state) | {name: value}, body, self.anchor)


def versioned(state: dict[str, Any], anchor: object = None) -> Kept:
    """``state`` with its ``version``, a digest of everything else in it, and its JSON."""
    body = json.dumps(state, sort_keys=True, separators=(",", ":")).encode()
    version = hashlib.sha256(body).hexdigest()[:16]
    body = body[:-1] + f',"version":"{version}"}}'.encode()
    return Kept(state | {"version": version}, body, anchor)


class States:
    """The kept states by fingerprint; a state asked for again while it is being built
    waits for that build rather than starting its own."""

    def __init__(self, most: int) -> None:
        self._kept: Recent[Kept] = Recent(most)
        self._building: dict[str, asyncio.Future[Kept]] = {}

    async def get(self, key: str, build: Callable[[], Awaitable[Kept]]) -> Kept:
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        pending = self._building.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._build(key, build))
            self._building[key] = pending
        # shielded: a page that leaves does not cancel the build others wait for
        return await asyncio.shield(pending)

    async def _build(self, key: str, build: Callable[[], Awaitable[Kept]]) -> Kept:
        try:
            return self._kept.keep(key, await build())
        finally:
            del self._building[key]
