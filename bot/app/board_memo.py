"""What the web board's states are worked out from, kept so that each is worked out once.

A state is a function of the look it is built from, so a state is kept under a fingerprint
of that look: everything in it but the stored versions and the time of the last save, which
move on with every save, hidden ones too. Two looks with one fingerprint are the same to
their audience, so they give the same state; and a change the audience cannot see (the
opponent's staged action) leaves its fingerprint, and so the cost of its next state, as
they were: nothing, not even timing, tells it that something hidden changed. An event
stream's audience is asked for its version after every change of its match; most are such
hidden ones, or the acting player's own, already worked out for their answer.

The public record of a match (the move list, the replay) changes only when a turn ends or
the match ends, so it is kept by the match, its turn and its phase rather than read from
the store for every state."""

from __future__ import annotations

from dataclasses import replace

from bot.service.looking import Look

STATES = 512  # states kept (a page's audience each; a player's may be some 100 kB)
RECORDS = 256  # public records kept


def fingerprint(look: Look, kind: str) -> str:
    """What a state of ``kind`` (``public`` or ``mine``) built from ``look`` depends on:
    the look without the stored versions and time of the last save. Equal fingerprints,
    equal states.

    The legal actions of a player to act (hundreds on the long board) are long to write
    out, and follow from the stored versions: nothing hidden from that player changes while
    they act, so their versions stand for them then."""
    hosted = replace(look.hosted, version=0, updated_at=0.0)  # both move on at every save
    bare = replace(look, versions=(0, None), hosted=hosted, moves=None)
    acting = None if look.moves is None else (look.versions, look.moves.staged)
    return f"{kind}:{acting}:{bare!r}"


def record_key(look: Look) -> tuple[int | None, int, str, bool]:
    """What a match's public record depends on: its finished turns (counted by the turn
    number, which only goes up) and whether it has ended (the whole record is public then)."""
    return (look.hosted.match_id, look.stamp.turn, look.hosted.phase, look.outcome is not None)
