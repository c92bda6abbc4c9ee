"""The first round of a Swiss by the FIDE Dutch system, built directly.

Before the first round nobody has a score, a colour, a float, a bye or an opponent, so the
Dutch system (C.04.3) has nothing to weigh and its procedure comes down to the textbook
pairing, which is what ``py4swiss`` produces (its 500-player round 1 costs seconds, spent
confirming it board by board):

- one bracket (everybody on zero, A.3), homogeneous; with n players, S1 is the top
  floor(n/2) by pairing order and S2 the rest (B.2); every pair may meet and no criterion
  tells candidates apart, so the first candidate, S1[i] against S2[i], is taken (B.6, D.1);
- an odd count leaves the last of S2, the lowest-ranked player, unpaired: the
  pairing-allocated bye (nobody has had one, C.2);
- colours by E.5 alone (E.1-E.4 need a preference or a past): the higher-ranked player of a
  board gets the initial colour if their pairing number is odd, the other colour if even.
  The initial colour is ``py4swiss``'s default, first move to pairing number 1. Pairing
  numbers are the event's (``swiss.pair_round`` gives them over everybody who entered, the
  withdrawn too), so a gap left by a withdrawn entrant shifts the colours as it does there;
- boards in the order of their higher-ranked player (C.04.2 D.9, every score being zero).

``tests/test_tournament_first_round.py`` holds this to the library on random events.
"""

from __future__ import annotations

from collections.abc import Sequence

from .records import Board, PairedRound


def first_round(seeds: Sequence[tuple[int, int]]) -> PairedRound:
    """The first round of the active players ``seeds``, (player id, pairing number) in
    pairing order (by rating, then entry)."""
    half = len(seeds) // 2
    boards = tuple(
        Board(high, low) if number % 2 else Board(low, high)
        for (high, number), (low, _) in zip(seeds[:half], seeds[half : 2 * half], strict=True)
    )
    bye = seeds[-1][0] if len(seeds) % 2 else None
    return PairedRound(boards, bye)
