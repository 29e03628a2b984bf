"""explorer/figures/phone.py (panels stacked for a phone) and the lesson's projector height budget, on real
figure builders."""

from __future__ import annotations

import itertools

import numpy as np

from explorer.figures import figures
from explorer.figures.lesson import projector_figure, projector_height_budget
from explorer.figures.phone import panel_cells, stack_panels

TOKENS = ["<s>", "A", "cat", "ate", "."]


def masking_figure():
    n = len(TOKENS)
    causal = np.tril(np.ones((n, n), dtype=bool))
    scores = np.arange(n * n, dtype=np.float32).reshape(n, n) - 10
    masked = np.where(causal, scores, -np.inf)
    weights = np.where(causal, 1.0, 0.0) / causal.sum(1, keepdims=True)
    return figures.masking_steps(causal, scores, masked, weights, TOKENS, TOKENS, title="t", lang="en")


def test_side_by_side_panels_become_one_column_of_disjoint_rows_in_the_same_order():
    before = masking_figure().to_dict()
    after = stack_panels(masking_figure()).to_dict()
    assert len({cell[0] for cell in panel_cells(before)}) == 4  # four columns before
    cells = panel_cells(after)
    assert len(cells) == 4 and len({cell[0] for cell in cells}) == 1  # one column after
    tops = [cell[1] for cell in cells]
    for upper, lower in itertools.pairwise(tops):
        assert lower[1] < upper[0]  # each row lies wholly below the one above it
    assert after["data"][0]["z"] == before["data"][0]["z"]  # the same data, in the first (top) panel
    assert after["layout"]["height"] > before["layout"]["height"]


def test_panel_titles_and_colour_bars_move_with_their_panel():
    after = stack_panels(masking_figure()).to_dict()
    layout = after["layout"]
    titles = [a for a in layout["annotations"] if a.get("xref", "paper") == "paper"]
    for index, annotation in enumerate(titles):  # title i sits on top of panel i, centred
        key = "yaxis" if index == 0 else f"yaxis{index + 1}"
        y0, y1 = layout[key]["domain"]
        assert abs(annotation["y"] - y1) < 1e-9
        assert abs(annotation["x"] - sum(layout["xaxis"]["domain"]) / 2) < 1e-9
    for trace in after["data"]:
        bar = trace.get("colorbar")
        if bar and trace.get("showscale") is not False and "y" in bar:
            key = "yaxis" + trace["yaxis"][1:]
            y0, y1 = layout[key]["domain"]
            assert y0 <= bar["y"] <= y1 and bar["x"] >= layout["xaxis"]["domain"][1]


def test_a_one_column_figure_is_left_alone():
    single = figures.attention_heatmap(np.eye(3), TOKENS[:3], TOKENS[:3], title="t", lang="en")
    assert stack_panels(single) is single


def test_the_projector_figure_leaves_room_for_every_line_of_its_equation():
    one, four = projector_height_budget("a = b"), projector_height_budget(r"a \\ b \\ c \\ d")
    assert one - four == 3 * (one - projector_height_budget(r"a \\ b"))  # the same room per extra line
    fig = projector_figure(masking_figure(), max_height=four)
    assert fig.layout.height <= four
