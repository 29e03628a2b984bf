"""The training loss is label-smoothed cross-entropy over real target positions, on every loss path.

The expected value is the formula written out here, never `loss_on` or F.cross_entropy:
    loss = mean over real (non-pad) positions of (1 - eps) * (-log p[label]) + eps * mean_v(-log p[v])
with log p = z - logsumexp(z) over the softmax's own set (the whole vocabulary, or the sampled
candidates). Paths: the Transformer's full softmax, the Transformer's sampled softmax, the RNN's full
and sampled softmax, and `train()` itself (its first recorded loss, on the batch and weights it used).
"""

from __future__ import annotations

import pytest
import torch

from tests.conftest import tiny_config
from transformer_core.data import BOS_ID, EOS_ID, PAD_ID
from transformer_core.models.rnn import RNNConfig, RNNTranslator
from transformer_core.models.transformer import Transformer
from transformer_core.tasks import task_named
from transformer_core.training import loop
from transformer_core.training.recipes import TrainSettings, build_config

EPSILON = 0.1


def smoothed_cross_entropy(logits: torch.Tensor, labels: torch.Tensor, epsilon: float) -> float:
    """(1 - eps) * NLL + eps * mean over the softmax's entries of -log p, averaged over the rows; in float64."""
    z = logits.double()
    log_p = z - torch.logsumexp(z, dim=-1, keepdim=True)
    total = 0.0
    for row, label in enumerate(labels.tolist()):
        nll = -float(log_p[row, label])
        uniform = -float(log_p[row].mean())
        total += (1 - epsilon) * nll + epsilon * uniform
    return total / len(labels)


def padded_batch() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Two pairs of different lengths: the second one right-padded in the source, input and labels."""
    src = torch.tensor([[5, 6, 7, 8, EOS_ID], [9, 5, EOS_ID, PAD_ID, PAD_ID]])
    decoder_input = torch.tensor([[BOS_ID, 10, 11, 12], [BOS_ID, 13, PAD_ID, PAD_ID]])
    labels = torch.tensor([[10, 11, 12, EOS_ID], [13, EOS_ID, PAD_ID, PAD_ID]])
    return src, decoder_input, labels


def small_rnn(vocab: int) -> RNNTranslator:
    torch.manual_seed(3)
    return RNNTranslator(RNNConfig(src_vocab_size=vocab, tgt_vocab_size=vocab, embed_dim=8, hidden_size=12,
                                   attn_size=10, maxout_size=8, max_len=16))


def models() -> list[tuple[str, torch.nn.Module]]:
    torch.manual_seed(0)
    transformer = Transformer(tiny_config(dropout=0.0, src_vocab_size=32, tgt_vocab_size=32))
    loop.initialize(transformer)
    return [("transformer", transformer), ("rnn", small_rnn(transformer.config.tgt_vocab_size))]


@pytest.mark.parametrize("name, model", models(), ids=lambda value: value if isinstance(value, str) else "")
def test_full_softmax_loss_is_label_smoothed_cross_entropy_over_real_positions(name, model):
    model.eval()
    src, decoder_input, labels = padded_batch()
    with torch.no_grad():
        logits = model(src, decoder_input)  # [B,T,V]
        real = labels != PAD_ID
        assert int(real.sum()) == 6  # the two pads of row 2 are left out of the mean
        for epsilon in (EPSILON, 0.0):
            expected = smoothed_cross_entropy(logits[real], labels[real], epsilon)
            got = float(loop.loss_on(model, (src, decoder_input, labels), epsilon))
            assert got == pytest.approx(expected, abs=1e-5), (name, epsilon)
        smoothed = float(loop.loss_on(model, (src, decoder_input, labels), EPSILON))
        plain = float(loop.loss_on(model, (src, decoder_input, labels), 0.0))
    # eps * (mean_v(-log p) - NLL): not zero, and of the size the formula says
    gap = (smoothed_cross_entropy(logits[real], labels[real], EPSILON)
           - smoothed_cross_entropy(logits[real], labels[real], 0.0))
    assert abs(gap) > 1e-3
    assert smoothed - plain == pytest.approx(gap, abs=1e-5)


def test_padding_positions_change_nothing_and_real_positions_do():
    """The loss of a padded batch equals the mean over its real positions: counting pads would move it."""
    torch.manual_seed(0)
    model = Transformer(tiny_config(dropout=0.0, src_vocab_size=32, tgt_vocab_size=32))
    loop.initialize(model)
    model.eval()
    src, decoder_input, labels = padded_batch()
    with torch.no_grad():
        logits = model(src, decoder_input)
        every_position = smoothed_cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                                labels.reshape(-1), EPSILON)  # pads counted as label 0
        real = labels != PAD_ID
        expected = smoothed_cross_entropy(logits[real], labels[real], EPSILON)
        got = float(loop.loss_on(model, (src, decoder_input, labels), EPSILON))
    assert abs(every_position - expected) > 1e-2  # the batch is one where counting pads would show
    assert got == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize("name, model", models(), ids=lambda value: value if isinstance(value, str) else "")
def test_sampled_softmax_loss_is_label_smoothed_over_the_candidates(name, model, monkeypatch):
    """The compact path: softmax over the candidate ids only; the same formula over those columns."""
    model.eval()
    src, decoder_input, labels = padded_batch()
    seen: list[torch.Tensor] = []
    real_candidate_ids = loop.candidate_ids

    def recording_candidate_ids(*args, **kwargs):
        candidates, local = real_candidate_ids(*args, **kwargs)
        seen.append(candidates.clone())
        return candidates, local

    monkeypatch.setattr(loop, "candidate_ids", recording_candidate_ids)
    vocab = model.config.tgt_vocab_size
    with torch.no_grad():
        full_logits = model(src, decoder_input)  # [B,T,V], the whole output layer
        for epsilon in (EPSILON, 0.0):
            got = float(loop.loss_on(model, (src, decoder_input, labels), epsilon, sampled_softmax=12,
                                     generator=torch.Generator().manual_seed(1)))
            candidates = seen[-1]
            real = labels != PAD_ID
            ids = candidates.tolist()
            assert len(set(ids)) == len(ids) and PAD_ID not in ids and EOS_ID in ids
            assert set(labels[real].tolist()) <= set(ids)
            assert len(ids) < vocab  # a real subset: the test below is not the full softmax again
            local = torch.tensor([ids.index(label) for label in labels[real].tolist()])
            expected = smoothed_cross_entropy(full_logits[real][:, candidates], local, epsilon)
            assert got == pytest.approx(expected, abs=1e-5), (name, epsilon)
            if epsilon:
                smoothed = got
    assert abs(smoothed - got) > 1e-3  # eps 0.1 and eps 0 differ on this path too


@pytest.mark.parametrize("task", ["ko-en", "reverse"])
def test_train_optimises_the_smoothed_loss_of_its_settings(task, monkeypatch):
    """train()'s first recorded loss = the formula with settings.label_smoothing, on the batch and weights it
    used (recorded by a pass-through wrapper), so neither the loop nor loss_on may drop the smoothing.
    'reverse' trains with the sampled softmax, 'ko-en' with the full one."""
    settings = TrainSettings(task=task, steps=4, batch_size=8, peak_lr=1e-3, warmup=10, seed=0, threads=1,
                             sampled_softmax=64 if task == "reverse" else 0, buckets=1)
    assert settings.label_smoothing == EPSILON  # the recipes' default, the paper's value
    config = build_config(task, tiny=True, overrides={"dropout": 0.0}, vocab_size=len(task_named(task).tokenizer()))
    calls: list[dict] = []
    real_loss_on, real_candidate_ids = loop.loss_on, loop.candidate_ids

    def recording_loss_on(model, batch, *args, **kwargs):
        state = {key: value.detach().clone() for key, value in model.state_dict().items()}
        calls.append({"batch": [t.clone() for t in batch], "state": state})
        return real_loss_on(model, batch, *args, **kwargs)

    def recording_candidate_ids(*args, **kwargs):
        candidates, local = real_candidate_ids(*args, **kwargs)
        calls[-1]["candidates"] = candidates.clone()
        return candidates, local

    monkeypatch.setattr(loop, "loss_on", recording_loss_on)
    monkeypatch.setattr(loop, "candidate_ids", recording_candidate_ids)
    result = loop.train(settings, config, progress=False)
    assert len(calls) == settings.steps == len(result.history)

    gaps = []
    for call, row in zip(calls, result.history, strict=True):
        fresh = Transformer(config)
        fresh.load_state_dict(call["state"])  # the weights as they were when this step's loss was taken
        fresh.eval()
        src, decoder_input, labels = call["batch"]
        real = labels != PAD_ID
        with torch.no_grad():
            logits = fresh(src, decoder_input)[real]
        targets = labels[real]
        if settings.sampled_softmax:
            ids = call["candidates"].tolist()
            assert set(targets.tolist()) <= set(ids) and len(ids) < config.tgt_vocab_size
            logits = logits[:, call["candidates"]]
            targets = torch.tensor([ids.index(label) for label in targets.tolist()])
        expected = smoothed_cross_entropy(logits, targets, EPSILON)
        gaps.append(abs(expected - smoothed_cross_entropy(logits, targets, 0.0)))
        assert row["loss"] == pytest.approx(expected, abs=2e-5), row["step"]
    assert max(gaps) > 5e-3  # dropping the smoothing would move some recorded loss by far more than 2e-5
