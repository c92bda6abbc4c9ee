"""The evaluation graph of an analysed match (issue 28): a PNG of fixed size, the same bytes
for the same analysis, and the worst turns visibly marked."""

from __future__ import annotations

import io

from PIL import Image

from render.eval_chart import HEIGHT, WIDTH, evaluation_chart_png

VALUES = [0.2, 0.5, -1.0, -3.5, 2.0, 1.0, 4.0, -1_000_000.0]


def test_the_graph_is_a_png_of_its_size_and_the_same_for_the_same_analysis() -> None:
    png = evaluation_chart_png(VALUES, [3, 6, 1], "Match 12 · ToriShogi: evaluation")
    assert png == evaluation_chart_png(VALUES, [3, 6, 1], "Match 12 · ToriShogi: evaluation")
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_the_worst_turns_and_the_title_show_on_the_graph() -> None:
    plain = evaluation_chart_png(VALUES, [], "Match 12 · ToriShogi: evaluation")
    assert evaluation_chart_png(VALUES, [3], "Match 12 · ToriShogi: evaluation") != plain
    assert evaluation_chart_png(VALUES, [], "Match 13 · Torii: evaluation") != plain


def test_a_won_game_and_a_single_turn_are_drawn() -> None:
    assert evaluation_chart_png([1_000_000.0], [0], "Match 1 · TORA: evaluation")
    assert evaluation_chart_png([], [], "Match 2 · TORA: evaluation")
