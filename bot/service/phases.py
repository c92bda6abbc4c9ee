"""The life of a hosted match as the service decides it: its phases, and the words that say
how it ended. Storage keeps both as plain text; of the phases the schema knows only
``ENDED`` (a hosted match is live until it has ended: one live match per channel)."""

from __future__ import annotations

CHALLENGE, SETUP, PLAYING, ENDED = "challenge", "setup", "playing", "ended"

# Endings with a result: the game is over (resignation, agreement, its own end), or a player
# missed too many turns in a row.
FINISHED, FORFEIT = "finished", "forfeit"
# Endings without one: the game's (the players called it off before the first round was
# complete, or an admin did at any time) ...
ABORTED, CANCELLED = "aborted", "cancelled"
# ... and the challenge's or the setup's, before there was a game.
DECLINED, WITHDRAWN, EXPIRED, LAPSED = "declined", "withdrawn", "expired", "setup lapsed"
