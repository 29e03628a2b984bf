"""The training lab's pure figure builders: curves with the shown-snapshot marker, one head's map of a
snapshot, the preset table, progress and time formatting."""

from __future__ import annotations

import numpy as np

from explorer.figures import lab


def test_curves_hold_loss_exact_and_alignment_and_mark_the_shown_snapshot():
    history = [(s, 4.0 / s) for s in range(1, 101)]
    points = [{"step": 1, "exact_match": 0.0, "alignment": 0.1}, {"step": 100, "exact_match": 0.9, "alignment": 0.8}]
    fig = lab.curves_figure(history, points, lang="en", marker_step=100).to_dict()
    loss, exact, alignment = fig["data"]
    assert list(loss["x"]) == list(range(1, 101)) and loss["y"][0] == 4.0
    assert list(exact["y"]) == [0.0, 90.0] and list(alignment["y"]) == [10.0, 80.0]  # percent
    assert [s["x0"] for s in fig["layout"]["shapes"]] == [100, 100]  # both panels
    assert lab.curves_figure(history, points, lang="ko").to_dict()["layout"].get("shapes", []) in ([], ())
    reverse = lab.curves_figure(history, points, lang="en", reverse_task=True).to_dict()
    assert reverse["data"][2]["name"] == "anti-diagonal share"


def test_snapshot_map_labels_rows_and_columns_by_kind():
    attention = np.random.default_rng(0).random((2, 3, 4, 5)).astype(np.float16)  # [L, H, T, S]
    src, tgt = ["a", "b", "c", "</s>", "x"], ["<s>", "c", "b", "a"]
    fig = lab.snapshot_attention_figure(attention, src, tgt, kind="decoder.cross_attn", layer=1, head=2, step=40,
                                        lang="en")
    heatmap = fig.data[0]
    assert np.allclose(np.asarray(heatmap.z, dtype=np.float32), attention[1, 2].astype(np.float32))
    assert len(heatmap.y) == 4 and len(heatmap.x) == 5
    assert "layer 1" in fig.layout.title.text and "step 40" in fig.layout.title.text


def test_preset_table_shows_every_number():
    rows = [{"preset": "tiny", "d_model": 32, "heads": 2, "layers": 1, "d_ff": 64, "params": 209212}]
    table = lab.preset_table(rows, lang="en")
    assert table.iloc[0].tolist() == ["tiny", 32, 2, "1+1", 64, "209,212"]


def test_progress_and_time_follow_the_budget_or_the_step_limit():
    assert lab.progress_fraction(10, 60.0, 120) == 0.5
    assert lab.progress_fraction(90, 10.0, 120, max_steps=100) == 0.9
    assert lab.progress_fraction(10, 500.0, 120) == 1.0
    assert lab.remaining_seconds(10, 60.0, 120) == 60.0
    assert lab.remaining_seconds(50, 10.0, 120, max_steps=100) == 10.0  # the step limit comes first
    assert lab.format_duration(65.4) == "1:05" and lab.format_duration(-3) == "0:00"
