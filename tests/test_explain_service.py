"""explorer/explain_service.py hands the /explain page numpy, never tensors: each method's row over the source tokens,
the logit lens' top tokens and the patching row, checked against the recorded trace read independently."""

from __future__ import annotations

import numpy as np
import pytest

import transformer_core as core
from explorer.explain_service import lens_top_tokens, method_rows
from transformer_core.analysis.attribution import explain_trace
from transformer_core.tracing.names import LOGITS, AttentionKind, attention_name


def test_method_rows_are_numpy_and_attention_rows_come_from_the_trace(tiny_loaded):
    traced = core.trace_text(tiny_loaded, "고양이가 생선을 먹는다")
    explanation = explain_trace(tiny_loaded, traced, steps=4)
    trace = traced.trace
    last = trace.n_layers("decoder") - 1
    cross = trace.numpy(attention_name(AttentionKind.CROSS, last))  # [H, T, S]
    for row in range(len(explanation.row_tokens)):
        methods = {m.key: m for m in method_rows(explanation, row, None, trace)}
        assert all(isinstance(m.weights, np.ndarray) for m in methods.values())
        np.testing.assert_allclose(methods["explain.m_attention"].weights, cross[:, row].mean(0), atol=1e-6)
        focused = methods["explain.m_focused_head"]
        assert focused.params == {"layer": last, "head": int(cross[:, row].max(-1).argmax())}
        np.testing.assert_allclose(focused.weights, cross[focused.params["head"], row], atol=1e-6)
        ig = methods["explain.m_ig"].weights
        assert ig.shape == (len(explanation.src_tokens),)
    best = {m.key: m for m in method_rows(explanation, 0, (last, 1), trace)}["explain.m_best_head"]
    np.testing.assert_allclose(best.weights, cross[1, 0], atol=1e-6)


def test_the_lens_top_tokens_end_in_the_models_own_output(tiny_loaded):
    traced = core.trace_text(tiny_loaded, "고양이가 생선을 먹는다")
    explanation = explain_trace(tiny_loaded, traced, steps=2)
    tokens, probs = lens_top_tokens(explanation, tiny_loaded.tokenizer)
    rows = len(explanation.row_tokens)
    assert isinstance(probs, np.ndarray) and probs.shape == (traced.trace.n_layers("decoder"), rows)
    logits = traced.trace.numpy(LOGITS)  # the last layer through the output layer is the logits
    assert tokens[-1] == tiny_loaded.tokenizer.convert_ids_to_tokens(logits[:rows].argmax(-1).tolist())


def test_the_gradient_x_input_bars_are_gradient_times_input_and_the_ig_bars_are_complete(tiny_loaded):
    """The audit's missed bug: /explain's "gradient x input" bars showed the integrated-gradients values and only
    shapes were checked. Here each row's bars are checked against ∂ log p(output token) / ∂ e · e, summed over the
    model dimension, taken with torch.autograd in this test on the source embeddings (the `src.embed` tensor, via
    the model's own patch point); the IG bars against completeness: Σ IG = f(x) − f(0 embeddings)."""
    import torch

    from transformer_core.analysis.attribution import output_targets
    from transformer_core.tracing.names import SRC_EMBED, SRC_IDS

    traced = core.trace_text(tiny_loaded, "고양이가 생선을 먹는다")
    explanation = explain_trace(tiny_loaded, traced, steps=128)
    model, trace = tiny_loaded.model, traced.trace
    tgt, targets = output_targets(traced, tiny_loaded.config.eos_token_id)
    src = trace[SRC_IDS]

    def log_probs(scale: float) -> tuple[torch.Tensor, torch.Tensor]:
        held = {}

        def patch(embed):
            held["x"] = (embed.detach() * scale).requires_grad_(True)
            return held["x"]

        with torch.enable_grad():
            logits = model(src, tgt, patches={SRC_EMBED: patch})
        return torch.log_softmax(logits[0].double(), -1), held["x"]

    for row, target in enumerate(targets):
        methods = {m.key: m for m in method_rows(explanation, row, None, trace)}
        lp, x = log_probs(1.0)
        grad = torch.autograd.grad(lp[row, target], x)[0]
        expected = (grad * x).sum(-1)[0].detach().numpy()
        np.testing.assert_allclose(methods["explain.m_gxi"].weights, expected, rtol=1e-4, atol=1e-6)
        f_x = float(lp[row, target])
        f_0 = float(log_probs(0.0)[0][row, target])
        assert float(methods["explain.m_ig"].weights.sum()) == pytest.approx(f_x - f_0, abs=1e-3)
