"""Sampling (inference/generation.py) draws from the filtered, renormalised softmax with temperature.

A tiny Transformer is patched at `logits` to fixed logits, so every step's distribution is known.
Many seeded draws (one batch of identical sources) are compared with the distribution written out
here: softmax(logits / T), then the top-k cut, then the smallest set of most probable tokens whose
probabilities reach top_p, renormalised.

The bound: for n draws from a distribution on k tokens, P(||p_hat - p||_1 >= eps) <= (2^k - 2) exp(-n eps^2 / 2)
(Weissman et al. 2003, "Inequalities for the L1 deviation of the empirical distribution"). With
n = 20000, k <= 12 and eps = 0.08 (total variation 0.04) that is <= 4094 * exp(-64) < 1e-24: a
correct sampler cannot fail it (and the seeds are fixed, so a run is deterministic anyway). The
filter bugs this catches (wrong order of temperature and cut, a top-p set one token too large or
small, temperature ignored) move the distribution by 0.09 or more in L1.
"""

from __future__ import annotations

import math

import pytest
import torch

from tests.conftest import tiny_config
from transformer_core import Transformer
from transformer_core.inference.generation import generate

LOGITS = [2.0, 1.6, 1.1, 0.9, 0.4, 0.1, -0.3, -0.8, -1.2, -2.0, 0.7, 1.3]  # tokens 3..14, no special ones
FIRST = 3  # token id of LOGITS[0]
VOCAB = 16
DRAWS = 20_000
L1_BOUND = 0.08


def expected_distribution(temperature: float, top_k: int | None, top_p: float | None) -> dict[int, float]:
    """The documented sampling distribution, written out with plain Python."""
    scaled = {FIRST + i: value / temperature for i, value in enumerate(LOGITS)}
    kept = sorted(scaled, key=lambda t: -scaled[t])
    if top_k is not None:
        kept = kept[:top_k]
    total = sum(math.exp(scaled[t]) for t in kept)
    probs = {t: math.exp(scaled[t]) / total for t in kept}
    if top_p is not None:
        nucleus, mass = [], 0.0
        for t in kept:  # most probable first; stop once the set reaches top_p
            nucleus.append(t)
            mass += probs[t]
            if mass >= top_p:
                break
        kept = nucleus
    total = sum(probs[t] for t in kept)
    return {t: probs[t] / total for t in kept}


def fixed_logits(logits: torch.Tensor) -> torch.Tensor:  # [B,T,V]
    out = torch.full_like(logits, float("-inf"))
    out[..., FIRST:FIRST + len(LOGITS)] = torch.tensor(LOGITS)
    return out


@pytest.mark.parametrize(("temperature", "top_k", "top_p", "seed"), [
    (1.0, None, None, 0), (0.7, 5, None, 1), (1.5, None, 0.8, 2), (0.5, 6, 0.9, 3), (2.0, 8, 0.6, 4)])
def test_sampled_token_frequencies_follow_the_filtered_renormalised_softmax(temperature, top_k, top_p, seed):
    torch.manual_seed(0)
    model = Transformer(tiny_config(src_vocab_size=VOCAB, tgt_vocab_size=VOCAB)).eval()
    src = torch.tensor([[4, 5, 2]]).expand(DRAWS, -1)
    result = generate(model, src, strategy="sample", temperature=temperature, top_k=top_k, top_p=top_p,
                      seed=seed, max_new_tokens=2, patches={"logits": fixed_logits})
    expected = expected_distribution(temperature, top_k, top_p)
    for step in (1, 2):  # two steps: the second continues the same generator
        counts = torch.bincount(result.ids[:, step], minlength=VOCAB)
        outside = [t for t in range(VOCAB) if t not in expected and counts[t] > 0]
        assert not outside, f"step {step}: tokens outside the cut were drawn: {outside}"
        l1 = sum(abs(int(counts[t]) / DRAWS - expected.get(t, 0.0)) for t in range(VOCAB))
        assert l1 < L1_BOUND, f"step {step}: L1 distance {l1:.3f} from the filtered softmax"
