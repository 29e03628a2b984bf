"""explorer/figures/explain.py: pure builders checked on hand-made numbers."""

from __future__ import annotations

import numpy as np

from explorer.figures import explain as fig
from explorer.i18n import t

SRC = ["고양이", "##가", "생선", "</s>"]
METHODS = {
    "attention": np.array([0.1, 0.2, 0.3, 0.4]),  # top word 생선 (</s> is no candidate)
    "ig": np.array([2.0, -4.0, 1.0, 9.0]),  # top word 고양이
    "gxi": np.array([0.0, 0.5, 1.0, 0.0]),  # top word 생선
}


def test_each_method_is_divided_by_its_largest_absolute_value_on_one_colour_scale():
    figure = fig.methods_figure(METHODS, SRC, title="x", lang="en").to_dict()
    expected = [[0.25, 0.5, 0.75, 1.0], [2 / 9, -4 / 9, 1 / 9, 1.0], [0.0, 0.5, 1.0, 0.0]]
    for trace, values in zip(figure["data"], expected, strict=True):
        np.testing.assert_allclose(trace["y"], values)
    assert {trace["marker"]["coloraxis"] for trace in figure["data"]} == {"coloraxis"}
    assert figure["layout"]["coloraxis"]["cmin"] == -1 and figure["layout"]["coloraxis"]["cmax"] == 1
    assert figure["data"][1]["customdata"] == [2.0, -4.0, 1.0, 9.0]  # hover keeps the raw value
    assert figure["layout"]["xaxis3"]["title"]["text"] == t("explain.axis_source", "en")
    assert all(trace["x"] == figure["data"][0]["x"] for trace in figure["data"])  # the same token axis


def test_all_zero_values_stay_zero():
    assert fig.normalised(np.zeros(3)).tolist() == [0.0, 0.0, 0.0]


def test_agreement_table_compares_top_words_without_the_end_token():
    table = fig.agreement_table(METHODS, SRC, "attention", 3, gold=(0,), lang="en")
    assert table[t("explain.col_top", "en")].tolist() == ["2: 생선", "0: 고양이", "2: 생선"]
    assert table[t("explain.col_agrees", "en")].tolist() == ["—", "✗", "✓"]
    assert table[t("explain.col_gold", "en")].tolist() == ["✗", "✓", "✗"]
    assert fig.agreement_counts(METHODS, "attention", 3, (0,)) == (1, 2, 1)
    assert t("explain.col_gold", "en") not in fig.agreement_table(METHODS, SRC, "attention", 3, None, lang="en")


def test_logit_lens_table_is_layers_by_positions_with_percentages():
    table = fig.logit_lens_table([["A", "dog"], ["A", "cat"]], np.array([[0.5, 0.25], [0.99, 0.875]]),
                                 ["<s>", "A"], lang="en")
    assert table.shape == (2, 2)
    assert table.iloc[1].tolist() == ["A (99 %)", "cat (88 %)"]
    assert list(table.index) == [t("explain.lens_layer", "en", layer=0), t("explain.lens_layer", "en", layer=1)]


def test_patching_figure_clips_the_colour_and_leaves_nan_blank():
    grid = np.array([[0.5, np.nan], [1.2, -0.01]])
    figure = fig.patching_figure(grid, ["L0", "L1"], ["a", "b"], title="x", lang="en").to_dict()
    trace = figure["data"][0]
    assert trace["z"][1] == [1.0, 0.0]
    assert trace["text"] == [["0.5", ""], ["1.2", ""]]  # blank near 0
    assert trace["customdata"] == [[0.5, None], [1.2, -0.01]]
