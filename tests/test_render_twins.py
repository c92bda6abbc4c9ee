"""Twin worlds, drawn: the public image of two games that differ only in hidden Assassins is
the same to the byte; the owner's private image is where they differ."""

from __future__ import annotations

import random

from positions import C, O
from test_twin_worlds import Twins

from render import StatusInfo, board_png, private_png, score_card_png

INFO = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")


def test_r40_the_public_image_of_twin_worlds_is_byte_identical():
    twins = Twins(random.Random(11))
    for _ in range(4):
        twins.play_turn()
    a, b = twins.worlds
    assert board_png(a.view_for(None), INFO) == board_png(b.view_for(None), INFO)
    assert score_card_png(a.view_for(None), INFO) == score_card_png(b.view_for(None), INFO)
    assert private_png(a.view_for(O), INFO) == private_png(b.view_for(O), INFO)
    assert private_png(a.view_for(C), INFO) != private_png(b.view_for(C), INFO)
