"""Attribution, rollout, logit lens and two-sentence patching (analysis/attribution.py), each checked
against a computation written out here: the IG integral's endpoints, finite differences, an explicit
loop over IG steps, a rollout worked by hand, the model's own logits, A's own pass."""

from __future__ import annotations

import pytest
import torch

import transformer_core as core
from tests.conftest import TINY_WORDS, tiny_config
from transformer_core import Transformer
from transformer_core.analysis.attribution import (
    attention_rollout,
    attribute,
    direction_score,
    explain_trace,
    ig_alphas,
    log_prob_score,
    logit_lens,
    output_targets,
    patched_output,
    patching_grid,
    position_patches,
)
from transformer_core.inference.generation import generate
from transformer_core.models.rnn import RNNConfig, RNNTranslator
from transformer_core.tracing.names import LOGITS, SRC_EMBED, layer_name


@pytest.fixture(autouse=True)
def _one_thread(one_torch_thread):
    yield


def tiny_model(seed: int = 0, **overrides) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(tiny_config(**overrides)).eval()


def tiny_rnn(seed: int = 0) -> RNNTranslator:
    torch.manual_seed(seed)
    n = len(TINY_WORDS) + 4
    return RNNTranslator(RNNConfig(src_vocab_size=n, tgt_vocab_size=n, embed_dim=8, hidden_size=12, attn_size=10,
                                   maxout_size=8, max_len=32)).eval()


TINY_MODELS = {
    "post-LN": lambda: tiny_model(0),
    "pre-LN + final norm": lambda: tiny_model(1, norm_first=True, final_norm=True),
    "learned positions, GELU": lambda: tiny_model(2, positional="learned", activation="gelu"),
    "attention RNN": lambda: tiny_rnn(3),
}
TINY_SOURCES = [[4, 5, 6, 2], [7, 8, 9, 10, 11, 2]]


def own_output(model, src: torch.Tensor, max_new: int = 6) -> tuple[torch.Tensor, list[int]]:
    """(BOS + greedy output [1, T], targets: the output then EOS when it ended there)."""
    ids = generate(model, src, max_new_tokens=max_new).ids[0].tolist()
    out = [i for i in ids[1:] if i not in (model.config.eos_token_id, model.config.pad_token_id)]
    ended = len(ids) - 1 > len(out)
    return torch.tensor([[model.config.bos_token_id, *out]]), out + ([model.config.eos_token_id] if ended else [])


def f_at(model, src, tgt, targets, embed_fn) -> torch.Tensor:
    """log p(targets) [R] with the source token embeddings replaced by embed_fn(real embeddings)."""
    with torch.no_grad():
        logits = model(src, tgt, patches={SRC_EMBED: embed_fn})[0, : len(targets)]
    return torch.log_softmax(logits.double(), -1)[torch.arange(len(targets)), torch.tensor(targets)]


def assert_complete(model, src, tgt, targets, steps: int) -> None:
    result = attribute(model, src, tgt, log_prob_score(targets), steps)
    # The two endpoints of the integral, computed with plain forward passes (no gradients).
    f_x = f_at(model, src, tgt, targets, lambda e: e)
    f_0 = f_at(model, src, tgt, targets, torch.zeros_like)
    delta = f_x - f_0
    sums = result.integrated_gradients.double().sum(-1)
    for t in range(len(targets)):
        # 1 %, with a floor of 0.001 nats for the tokens whose log p hardly moves (Δ down to 3e-4 here)
        assert abs(sums[t] - delta[t]) <= 0.01 * abs(delta[t]) + 1e-3, (t, float(sums[t]), float(delta[t]))
    torch.testing.assert_close(result.f_input.double(), f_x, atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(result.f_baseline.double(), f_0, atol=1e-4, rtol=1e-4)


# Steps the midpoint rule needs for 1 %: a smooth model (GELU, the GRU's tanh/sigmoid) at 64; the random
# ReLU Transformers' integrands have kinks and spikes near α ≈ 0.1 (64 steps miss by up to 29 %).
TINY_STEPS = {"post-LN": 256, "pre-LN + final norm": 256, "learned positions, GELU": 64, "attention RNN": 64}


@pytest.mark.parametrize("name", list(TINY_MODELS))
@pytest.mark.parametrize("source", TINY_SOURCES)
def test_integrated_gradients_sum_to_the_log_prob_change_on_tiny_models(name, source):
    model = TINY_MODELS[name]().double()  # float64: the check is then about the integral, not rounding
    src = torch.tensor([source])
    tgt, targets = own_output(model, src)
    assert_complete(model, src, tgt, targets, TINY_STEPS[name])


BUNDLED_STEPS = {"ko-en-toy": 2048, "ko-en-rnn-attention": 2048}


# One sentence per bundled translator, the one its integrand is hardest on (the comments below): 2,048 steps
# through a bundled model take one to two minutes each, and the three sentences each model ran before (issue 49's
# suite time) all passed; the tiny models above check the same sum on every architecture.
HARDEST_SENTENCE = {"ko-en-toy": "저는 학생이에요.", "ko-en-rnn-attention": "고양이가 공원에서 생선을 먹었다."}


@pytest.mark.slow  # thousands of IG steps through a bundled model: minutes, not the edit loop
@pytest.mark.parametrize(("model_name", "text"), list(HARDEST_SENTENCE.items()))
def test_integrated_gradients_sum_to_the_log_prob_change_on_bundled_translators(model_name, text):
    # 64 midpoint steps reach 1 % on most tokens but not all: up to 3 % off on 저는 학생이에요. (ko-en-toy,
    # ReLU kinks); benchmarks/explain.py prints the spread per step count. The learner4 ko-en-toy misses by 1.1 %
    # at 256 steps on 민수는 어제 뭐 먹었어? (512 reach it). The RNN's integrand has sharp steps: on 고양이가 공원에서
    # 생선을 먹었다. the learner3 RNN missed by 1.8 % at 256 steps, the learner4 one by 1.13 % at 1024; 2048 reach it.
    # The ko-en-toy finished with the full softmax (issue 48) is sharper: 1.3 % off at 1024 steps on 저는 학생이에요.
    loaded = core.load(model_name)
    traced = core.trace_text(loaded, text)
    tgt, targets = output_targets(traced, loaded.config.eos_token_id)
    assert_complete(loaded.model, traced.trace["src.ids"], tgt, targets, BUNDLED_STEPS[model_name])


@pytest.mark.slow
@pytest.mark.parametrize("text", ["hello", "안녕하세요"])
def test_integrated_gradients_complete_on_the_reverse_model_with_enough_steps(text):
    # The pre-LN reverse model's log p jumps where the token embedding overtakes the positional encoding
    # (α ≈ 0.1): 64 midpoint steps miss by up to 50 % there (docs/explain.md); 1024 steps resolve it.
    loaded = core.load("reverse")
    traced = core.trace_text(loaded, text)
    tgt, targets = output_targets(traced, loaded.config.eos_token_id)
    assert_complete(loaded.model, traced.trace["src.ids"], tgt, targets, 1024)


@pytest.mark.parametrize("name", ["post-LN", "pre-LN + final norm", "attention RNN"])
def test_gradient_times_input_equals_a_finite_difference_of_scaling_one_token(name):
    model = TINY_MODELS[name]().double()
    src = torch.tensor([TINY_SOURCES[1]])
    tgt, targets = own_output(model, src)
    result = attribute(model, src, tgt, log_prob_score(targets), steps=4)
    eps = 1e-5
    for s in range(src.shape[1]):
        def scaled(factor, s=s):
            def fn(e):
                e = e.clone()
                e[:, s] *= factor
                return e
            return fn
        # d/dε f(x with token s's embedding times (1 + ε)) at 0 = Σ_d x_sd ∂f/∂x_sd
        estimate = (f_at(model, src, tgt, targets, scaled(1 + eps)) - f_at(model, src, tgt, targets, scaled(1 - eps)))
        estimate = estimate / (2 * eps)
        torch.testing.assert_close(result.grad_x_input[:, s].double(), estimate, atol=1e-6, rtol=1e-5)


def test_batched_integrated_gradients_equal_a_loop_over_the_steps():
    model = tiny_model(1, norm_first=True, final_norm=True)
    src = torch.tensor([TINY_SOURCES[1]])
    tgt, targets = own_output(model, src)
    steps = 8
    result = attribute(model, src, tgt, log_prob_score(targets), steps)
    held = {}
    total = torch.zeros(len(targets), src.shape[1])
    for k in range(steps):
        alpha = (k + 0.5) / steps

        def patch(e, alpha=alpha):
            held["x"] = e.detach()[0]
            held["leaf"] = (alpha * e.detach()).requires_grad_(True)
            return held["leaf"]

        logits = model(src, tgt, patches={SRC_EMBED: patch})
        log_probs = torch.log_softmax(logits[0], -1)
        for t, token in enumerate(targets):
            (grad,) = torch.autograd.grad(log_probs[t, token], held["leaf"], retain_graph=True)
            total[t] += (grad[0] * held["x"]).sum(-1) / steps
    torch.testing.assert_close(result.integrated_gradients, total, atol=1e-5, rtol=1e-4)


def test_ig_steps_are_the_midpoints():
    torch.testing.assert_close(ig_alphas(4), torch.tensor([0.125, 0.375, 0.625, 0.875]))
    with pytest.raises(ValueError, match="at least 1 step"):
        ig_alphas(0)


def test_encoder_only_attribution_is_complete_for_its_own_token():
    model = tiny_model(4, n_decoder_layers=0, tgt_vocab_size=0)
    src = torch.tensor([TINY_SOURCES[1]])
    with torch.no_grad():
        states = model(src)
    result = attribute(model, src, None, direction_score(states, [0, 2]), 64)
    for row in result.completeness():
        assert abs(row["sum"] - row["delta"]) <= 0.01 * abs(row["delta"]) + 1e-4


# --- rollout ------------------------------------------------------------------------------------------

def test_rollout_of_a_three_token_example_worked_by_hand():
    # Layer 1, one head. Ã1 = 0.5·A1 + 0.5·I = [[1, 0, 0], [.25, .75, 0], [.1, .15, .75]] (rows sum to 1).
    layer1 = torch.tensor([[[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]])
    # Layer 2, two heads: their mean is [[0, .5, .5], [.5, 0, .5], [.5, .5, 0]],
    # so Ã2 = [[.5, .25, .25], [.25, .5, .25], [.25, .25, .5]].
    layer2 = torch.tensor([[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
                           [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    # R = Ã2 Ã1, row 0: .5·[1,0,0] + .25·[.25,.75,0] + .25·[.1,.15,.75] = [.5875, .225, .1875]; rows 1, 2 alike.
    expected = torch.tensor([[0.5875, 0.225, 0.1875], [0.4, 0.4125, 0.1875], [0.3625, 0.2625, 0.375]])
    torch.testing.assert_close(attention_rollout([layer1, layer2]), expected)


def test_rollout_renormalises_a_row_with_no_attention():
    # A fully masked query row (all zero) keeps only the identity: 0.5 on the diagonal, renormalised to 1.
    layer = torch.tensor([[[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]])
    expected = torch.tensor([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    torch.testing.assert_close(attention_rollout([layer]), expected)


def test_decoder_rollout_is_causal_and_rows_sum_to_one(tiny_loaded):
    traced = core.trace_text(tiny_loaded, "고양이가 생선을 먹는다")
    explanation = explain_trace(tiny_loaded, traced, steps=2)
    rollout = explanation.decoder_rollout
    assert torch.equal(rollout, rollout.tril())
    torch.testing.assert_close(rollout.sum(-1), torch.ones(len(rollout)))


# --- logit lens ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("overrides", [{}, {"norm_first": True, "final_norm": True}])
def test_logit_lens_last_layer_equals_the_logits(overrides):
    model = tiny_model(5, **overrides)
    src = torch.tensor([TINY_SOURCES[1]])
    tgt, _ = own_output(model, src)
    trace = model.trace(src, tgt)
    lens = logit_lens(model, trace)
    assert lens.logits.shape[0] == model.config.n_decoder_layers
    torch.testing.assert_close(lens.logits[-1], trace[LOGITS][0])
    probs, ids = lens.top(3)
    expected = torch.softmax(trace[LOGITS][0], -1).topk(3, -1)
    torch.testing.assert_close(probs[-1], expected.values)
    assert torch.equal(ids[-1], expected.indices)


def test_logit_lens_needs_a_decoder():
    model = tiny_model(4, n_decoder_layers=0, tgt_vocab_size=0)
    with pytest.raises(ValueError, match="decoder"):
        logit_lens(model, model.trace(torch.tensor([TINY_SOURCES[0]])))


# --- patching -----------------------------------------------------------------------------------------

PAIR_A, PAIR_B = [4, 5, 6, 2], [7, 5, 6, 2]  # same token count, the first word differs


@pytest.mark.parametrize("overrides", [{}, {"norm_first": True, "final_norm": True}])
def test_patching_every_position_of_the_last_encoder_layer_gives_a_s_output(overrides):
    model = tiny_model(6, **overrides)
    src_a, src_b = torch.tensor([PAIR_A]), torch.tensor([PAIR_B])
    tgt_a, _ = own_output(model, src_a)
    last = model.config.n_encoder_layers - 1
    patches = position_patches(model.trace(src_a, tgt_a), "encoder", last, range(len(PAIR_A)))
    with torch.no_grad():
        model.fused_attention = False  # A's pass on the manual attention path, as every patched pass runs
        torch.testing.assert_close(model(src_b, tgt_a, patches=patches), model(src_a, tgt_a), atol=0, rtol=0)
    assert patched_output(model, src_a, src_b, tgt_a, "encoder", last, range(len(PAIR_A))) == tgt_a[0, 1:].tolist()


@pytest.mark.parametrize("site", ["encoder", "decoder"])
def test_patching_grid_cells_equal_single_patched_runs(site):
    model = tiny_model(7)
    src_a, src_b = torch.tensor([PAIR_A]), torch.tensor([PAIR_B])
    tgt_a, targets = own_output(model, src_a)
    grid = patching_grid(model, src_a, src_b, tgt_a, targets, site)
    trace_a = model.trace(src_a, tgt_a)
    positions = src_a.shape[1] if site == "encoder" else tgt_a.shape[1]
    assert grid.log_probs.shape == (2, positions, len(targets))
    for layer in range(2):
        for p in range(positions):
            name = layer_name(site, layer, "out")
            source = trace_a[name][0, p]

            def patch(x, p=p, source=source):
                x = x.clone()
                x[0, p] = source
                return x

            with torch.no_grad():
                logits = model(src_b, tgt_a, patches={name: patch})[0, : len(targets)]
            expected = torch.log_softmax(logits, -1)[torch.arange(len(targets)), torch.tensor(targets)]
            torch.testing.assert_close(grid.log_probs[layer, p], expected, atol=1e-5, rtol=1e-5)
    with torch.no_grad():
        own_b = torch.log_softmax(model(src_b, tgt_a)[0, : len(targets)], -1)
    torch.testing.assert_close(grid.log_probs_b, own_b[torch.arange(len(targets)), torch.tensor(targets)])


def test_patching_two_sentences_of_different_lengths_is_a_clear_error():
    model = tiny_model(0)
    src_a, src_b = torch.tensor([PAIR_A]), torch.tensor([[4, 5, 2]])
    tgt_a, targets = own_output(model, src_a)
    with pytest.raises(ValueError, match="same number of tokens: A has 4, B has 3"):
        patching_grid(model, src_a, src_b, tgt_a, targets)


# --- one sentence -------------------------------------------------------------------------------------

def test_explain_trace_rows_are_the_output_tokens_and_eos(tiny_loaded):
    traced = core.trace_text(tiny_loaded, "고양이가 생선을 먹는다")
    explanation = explain_trace(tiny_loaded, traced, steps=4)
    n_out = traced.trace["tgt.ids"].shape[1] - 1 + (0 if traced.reached_limit else 1)
    assert len(explanation.row_tokens) == n_out
    assert explanation.attribution.integrated_gradients.shape == (n_out, len(traced.src_tokens))
    assert explanation.cross_attention.shape[1:] == (n_out, len(traced.src_tokens))
    last = tiny_loaded.config.n_decoder_layers - 1
    torch.testing.assert_close(explanation.cross_attention,
                               traced.trace[f"decoder.{last}.cross_attn.weights"][0, :, :n_out])


def test_attributing_chosen_rows_gives_the_same_numbers_as_all_rows(tiny_loaded):
    traced = core.trace_text(tiny_loaded, "고양이가 생선을 먹는다")
    every = explain_trace(tiny_loaded, traced, steps=4)
    last = len(every.row_tokens) - 1
    some = explain_trace(tiny_loaded, traced, steps=4, rows=[last, 0])
    assert some.attribution.integrated_gradients.shape[0] == 2
    for row in (0, last):
        for mine, full in zip(some.attribution_row(row), every.attribution_row(row), strict=True):
            torch.testing.assert_close(mine, full)
    with pytest.raises(ValueError, match="outside"):
        explain_trace(tiny_loaded, traced, steps=4, rows=[last + 1])
