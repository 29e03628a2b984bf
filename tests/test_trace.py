"""The trace-name contract: the complete ordered list of names with their shapes (golden)."""

from __future__ import annotations

import pickle

import pytest
import torch

from transformer_core import Trace, Transformer

from . import parity_checks as checks
from .conftest import tiny_config

# 1 encoder + 1 decoder layer, post-LN. B=2, S=5, T=4, D=16, H=2, d_k=8, d_ff=32, V=13.
GOLDEN_POST_LN = """
src.ids 2x5
src.mask 2x5
src.embed 2x5x16
src.pos 5x16
src.input 2x5x16
encoder.0.in 2x5x16
encoder.0.self_attn.q 2x2x5x8
encoder.0.self_attn.k 2x2x5x8
encoder.0.self_attn.v 2x2x5x8
encoder.0.self_attn.scores 2x2x5x5
encoder.0.self_attn.masked_scores 2x2x5x5
encoder.0.self_attn.weights 2x2x5x5
encoder.0.self_attn.context 2x2x5x8
encoder.0.self_attn.out 2x5x16
encoder.0.add1 2x5x16
encoder.0.norm1 2x5x16
encoder.0.ffn.hidden 2x5x32
encoder.0.ffn.out 2x5x16
encoder.0.add2 2x5x16
encoder.0.norm2 2x5x16
encoder.0.out 2x5x16
encoder.out 2x5x16
tgt.ids 2x4
tgt.mask 2x4
tgt.embed 2x4x16
tgt.pos 4x16
tgt.input 2x4x16
tgt.causal_mask 4x4
decoder.0.in 2x4x16
decoder.0.self_attn.q 2x2x4x8
decoder.0.self_attn.k 2x2x4x8
decoder.0.self_attn.v 2x2x4x8
decoder.0.self_attn.scores 2x2x4x4
decoder.0.self_attn.masked_scores 2x2x4x4
decoder.0.self_attn.weights 2x2x4x4
decoder.0.self_attn.context 2x2x4x8
decoder.0.self_attn.out 2x4x16
decoder.0.add1 2x4x16
decoder.0.norm1 2x4x16
decoder.0.cross_attn.q 2x2x4x8
decoder.0.cross_attn.k 2x2x5x8
decoder.0.cross_attn.v 2x2x5x8
decoder.0.cross_attn.scores 2x2x4x5
decoder.0.cross_attn.masked_scores 2x2x4x5
decoder.0.cross_attn.weights 2x2x4x5
decoder.0.cross_attn.context 2x2x4x8
decoder.0.cross_attn.out 2x4x16
decoder.0.add2 2x4x16
decoder.0.norm2 2x4x16
decoder.0.ffn.hidden 2x4x32
decoder.0.ffn.out 2x4x16
decoder.0.add3 2x4x16
decoder.0.norm3 2x4x16
decoder.0.out 2x4x16
decoder.out 2x4x16
logits 2x4x13
"""


def parse(golden: str) -> list[tuple[str, tuple[int, ...]]]:
    rows = []
    for line in golden.strip().splitlines():
        name, shape = line.split()
        rows.append((name, tuple(int(n) for n in shape.split("x"))))
    return rows


def trace_tiny(**overrides) -> Trace:
    torch.manual_seed(0)
    model = Transformer(tiny_config(n_encoder_layers=1, n_decoder_layers=1, **overrides))
    src = torch.randint(4, 13, (2, 5))
    tgt = torch.randint(4, 13, (2, 4))
    return model.trace(src, tgt)


def test_trace_names_and_shapes_in_recording_order_match_the_golden_list():
    assert list(trace_tiny().shapes().items()) == parse(GOLDEN_POST_LN)


def test_pre_ln_records_each_norm_before_its_sublayer():
    names = list(trace_tiny(norm_first=True))
    assert sorted(names) == sorted(name for name, _ in parse(GOLDEN_POST_LN))
    layer = [n.removeprefix("encoder.0.") for n in names if n.startswith("encoder.0.")]
    assert layer.index("norm1") < layer.index("self_attn.q") < layer.index("add1")
    assert layer.index("add1") < layer.index("norm2") < layer.index("ffn.hidden") < layer.index("add2")


def test_layer_names_repeat_for_every_layer():
    trace = Transformer(tiny_config()).trace(torch.tensor([[4, 5, 2]]), torch.tensor([[1, 6]]))
    assert trace.n_layers("encoder") == 2 and trace.n_layers("decoder") == 2
    for stack in ("encoder", "decoder"):
        first = [n.removeprefix(f"{stack}.0.") for n in trace if n.startswith(f"{stack}.0.")]
        second = [n.removeprefix(f"{stack}.1.") for n in trace if n.startswith(f"{stack}.1.")]
        assert first == second


def test_trace_is_read_only_and_pickles():
    trace = trace_tiny()
    with pytest.raises(TypeError):
        trace["logits"] = torch.zeros(1)  # type: ignore[index]
    with pytest.raises(AttributeError):
        trace.extra = 1
    copy = pickle.loads(pickle.dumps(trace))
    assert list(copy) == list(trace)
    torch.testing.assert_close(copy["logits"], trace["logits"])


def test_trace_helpers_slice_one_head_as_numpy():
    trace = trace_tiny()
    head = trace.head("encoder.0.self_attn.weights", 1)
    assert head.shape == (5, 5) and head.dtype.name == "float32"
    torch.testing.assert_close(torch.tensor(head), trace["encoder.0.self_attn.weights"][0, 1])
    with pytest.raises(ValueError, match="read-only"):
        head[0, 0] = 1.0  # the arrays are views of a trace shared by every session
    assert trace.nbytes == sum(t.numel() * t.element_size() for t in trace.values())
    with pytest.raises(KeyError, match="not in this trace"):
        trace["encoder.9.out"]


def test_weights_are_the_masked_softmax_of_the_recorded_scores():
    trace = trace_tiny()
    assert trace["tgt.causal_mask"].tolist() == checks.literal_causal_mask(4).tolist()
    checks.check_weights_are_scaled_masked_softmax(trace)  # literal causal mask, Q Kᵀ / √d_k
