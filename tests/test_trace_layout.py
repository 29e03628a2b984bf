"""Trace.layout: a trace answers its own layout (layers, heads, attention kinds, unbatched names)."""

from __future__ import annotations

import pytest
import torch

from explorer.figures import attention
from tests.conftest import tiny_config
from transformer_core import Transformer
from transformer_core.tracing.names import AttentionKind
from transformer_core.tracing.trace import ATTENTION_KINDS, UNBATCHED_NAMES


def traced(**overrides):
    torch.manual_seed(0)
    model = Transformer(tiny_config(**overrides)).eval()
    src = torch.tensor([[4, 5, 6, 2]])
    tgt = torch.tensor([[1, 7, 8]]) if model.config.has_decoder else None
    return model.trace(src, tgt)


def test_an_encoder_decoder_trace_knows_its_layers_heads_and_kinds():
    layout = traced(n_encoder_layers=3, n_decoder_layers=2, n_heads=4).layout
    assert (layout.encoder_layers, layout.decoder_layers, layout.n_heads) == (3, 2, 4)
    assert layout.attention_kinds == ATTENTION_KINDS
    assert layout.unbatched == UNBATCHED_NAMES
    assert layout.layers("decoder.cross_attn") == 2
    assert layout.attention_name("decoder.cross_attn", 1, "k") == "decoder.1.cross_attn.k"
    assert layout.name("encoder", 2, "ffn.hidden") == "encoder.2.ffn.hidden"


def test_every_unbatched_name_lacks_the_batch_dimension_and_the_rest_have_it():
    trace = traced()
    batched = {name: t.shape[0] for name, t in trace.items() if name not in trace.layout.unbatched}
    assert set(batched.values()) == {1}
    assert trace["tgt.causal_mask"].shape == (3, 3) and trace["src.pos"].shape == (4, 16)


def test_an_encoder_only_trace_has_only_encoder_self_attention():
    layout = traced(n_decoder_layers=0).layout
    assert layout.decoder_layers == 0 and layout.attention_kinds == ("encoder.self_attn",)
    assert layout.unbatched == {"src.pos"}
    with pytest.raises(ValueError, match="cross_attn"):
        layout.attention_name("decoder.cross_attn", 0)


def test_names_outside_the_layout_are_refused():
    layout = traced().layout
    with pytest.raises(IndexError):
        layout.name("encoder", 2, "out")
    with pytest.raises(ValueError):
        layout.layers("middle")


def test_viz_reads_the_layout_and_uses_the_same_kind_names():
    trace = traced(n_encoder_layers=3, n_decoder_layers=1, n_heads=4)
    assert not hasattr(attention, "CROSS")  # one set of kind names: tracing.names.AttentionKind
    assert attention.n_layers(trace, "encoder") == 3 and attention.n_heads(trace) == 4
    assert attention.kinds_in(trace) == list(ATTENTION_KINDS)
    assert attention.stack(trace, AttentionKind.CROSS).shape == (1, 4, 3, 4)
    assert attention.array(trace, "tgt.causal_mask").shape == (3, 3)
