"""explorer/figures/generation.py: the sampling bars, the beam tree and the KV cache view show what generation did."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

import transformer_core as core
from explorer.figures.generation import BeamNode, beam_paths, beam_tree, kv_cache_view, sampling_bars
from transformer_core.inference.generation import DecodingSettings, sampling_distributions

TEXT = "고양이가 공원에서 생선을 먹었다."


@pytest.fixture(scope="module")
def loaded():
    return core.load("ko-en-toy")


def test_sampling_bars_show_the_three_distributions_and_grey_the_cut_tokens():
    logits = torch.tensor([3.0, 2.0, 1.0, 0.0, -1.0])
    view = sampling_distributions(logits, temperature=2.0, top_k=2)
    tokens = ["a", "b", "c", "d", "e"]
    fig = sampling_bars(tokens, view.raw.numpy(), view.tempered.numpy(), view.cut.numpy(), "b", title="x", lang="en",
                        temperature=2.0, top_k=2, top_p=None)
    raw, tempered, cut = (np.asarray(trace.x, dtype=np.float64) for trace in fig.data)
    np.testing.assert_allclose(raw, torch.softmax(logits, -1).numpy(), rtol=1e-5)
    np.testing.assert_allclose(tempered, torch.softmax(logits / 2, -1).numpy(), rtol=1e-5)
    assert (cut[2:] == 0).all() and abs(cut.sum() - 1) < 1e-6
    assert list(fig.data[2].marker.color[2:]) == ["#dadce0"] * 3  # cut away: grey
    assert fig.data[0].marker.color[1] == "#d93025"  # the drawn token: red
    assert fig.data[2].text[3] == "cut"


def test_beam_paths_follow_parents_across_steps():
    steps = [
        [BeamNode(0, "A", -0.1, -0.1, "alive", 0), BeamNode(0, "The", -0.5, -0.5, "alive", 1),
         BeamNode(0, "x", -3.0, -3.0, "pruned", -1)],
        [BeamNode(1, "cat", -0.6, -0.6, "alive", 0), BeamNode(0, "dog", -0.9, -0.9, "alive", 1),
         BeamNode(0, "</s>", -1.0, -0.5, "finished", -1)],
    ]
    assert beam_paths(steps) == [[("A",), ("The",), ("x",)], [("The", "cat"), ("A", "dog"), ("A", "</s>")]]
    fig = beam_tree(steps, ["The", "cat"], title="t", lang="en").to_dict()
    names = [trace.get("name") for trace in fig["data"]]
    # plotly reads "</s>" as a tag and drops it ("finished ()"): the figure holds it as entities, shown literally
    assert {"pruned", "finished (&lt;/s&gt;)", "kept", "returned output"} <= set(names)
    labels = [label for trace in fig["data"] for label in trace.get("text") or []]
    assert "&lt;/s&gt;" in labels and "&lt;s&gt;" in labels and "</s>" not in labels
    chosen = next(trace for trace in fig["data"] if trace.get("name") == "returned output")
    assert list(chosen["x"]) == [0, 1]  # "The" at step 0, "cat" at step 1


def test_the_beam_tree_of_a_real_search_marks_the_returned_output(loaded):
    traced = core.trace_text(loaded, TEXT, decoding=DecodingSettings("beam", beam_width=3))
    records = traced.generation.beam_steps[0]
    label = {i: str(i) for i in {c.token for step in records for c in step}}
    nodes = [[BeamNode(c.parent, label[c.token], c.log_prob, c.score, c.status, c.slot) for c in step]
             for step in records]
    ids = [*traced.trace["tgt.ids"][0, 1:].tolist(), loaded.config.eos_token_id]
    fig = beam_tree(nodes, [str(i) for i in ids], title="t", lang="ko").to_dict()
    chosen = next(trace for trace in fig["data"] if trace.get("name") == "최종 출력")
    assert len(chosen["x"]) == len(ids)  # one marked node per generated token, EOS included
    # Node by node: follow the returned output through the search's own records (step t: the candidate
    # that extends the previous chosen slot with token ids[t]); the tree draws step t's candidates one
    # per row, alive ones first, each group in record order.
    expected, slot = [], 0
    # the search may go on after the returned output ends (other beams still alive): those steps mark nothing
    assert len(records) >= len(ids)
    for step, (candidates, token) in enumerate(zip(records[:len(ids)], ids, strict=True)):
        index = next(i for i, c in enumerate(candidates)
                     if c.parent == slot and c.token == token and c.status != "pruned")
        order = sorted(range(len(candidates)), key=lambda i: (candidates[i].status != "alive", i))
        expected.append((step, float(order.index(index))))
        slot = candidates[index].slot
    assert list(zip(chosen["x"], chosen["y"], strict=True)) == expected
    labels = {(x, y): text for trace in fig["data"] if trace.get("mode") == "markers+text"
              for x, y, text in zip(trace["x"], trace["y"], trace["text"], strict=True)}
    assert [labels[node] for node in expected] == [str(i) for i in ids]  # the marked nodes read the output
    edges = next(trace for trace in fig["data"] if trace.get("mode") == "lines" and trace["line"]["width"] == 3)
    segments = [tuple(edges["x"][i:i + 2]) + tuple(edges["y"][i:i + 2]) for i in range(0, len(edges["x"]), 3)]
    chain = [(-1, 0.0), *expected]
    assert segments == [(a[0], b[0], a[1], b[1]) for a, b in itertools.pairwise(chain)]  # the thick path links them


def test_the_kv_cache_view_shows_rows_up_to_the_step_and_the_new_querys_weights(loaded):
    traced = core.trace_text(loaded, TEXT)
    trace = traced.trace
    k = trace["decoder.1.self_attn.k"][0, 2].numpy()
    v = trace["decoder.1.self_attn.v"][0, 2].numpy()
    weights = trace["decoder.1.self_attn.weights"][0, 2].numpy()
    step = 2
    fig = kv_cache_view(k, v, weights[step], step, traced.tgt_tokens, title="kv", lang="en")
    bars, k_map, v_map = fig.data
    k_shown = np.array(k_map.z, dtype=np.float64)
    np.testing.assert_allclose(k_shown[: step + 1], k[: step + 1], rtol=1e-6)
    assert np.isnan(k_shown[step + 1:]).all()  # not in the cache yet
    np.testing.assert_allclose(np.array(v_map.z, dtype=np.float64)[: step + 1], v[: step + 1], rtol=1e-6)
    reads = np.asarray(bars.x, dtype=np.float64)
    assert abs(reads.sum() - 1) < 1e-5 and (reads[step + 1:] == 0).all()
    assert [shape.y0 for shape in fig.layout.shapes] == [step - 0.5, step - 0.5]  # the appended row


def test_an_empty_output_says_whether_the_model_ended_at_once_or_wrote_only_special_tokens():
    """Untrained paper-base writes 50 <s> (its limit): the decoder page said it had said end-of-sentence at once."""
    import transformer_core as core
    from explorer.figures.generation import empty_output_key
    from explorer.i18n import t

    traced = core.trace_text(core.load("paper-base"), "고양이가 생선을 먹었다.")
    assert traced.output_text == "" and traced.reached_limit  # 50 special tokens, no EOS
    assert t(empty_output_key(len(traced.tgt_tokens) - 1), "en") == (
        "(empty: the model wrote only special tokens, such as <s>, which the text leaves out)")
    assert empty_output_key(0) == "gen.output_empty"  # BOS, then EOS at once
