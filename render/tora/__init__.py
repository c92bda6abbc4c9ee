"""TORA's images: the board (public, a player's own, the preview of a staged turn), the score
card, replays. Drawn from a ``rules.tora.View`` over the shared primitives of ``render``."""
