"""Issue 48: finishing a model's output distribution with the full softmax, and the measures that say it is needed.

- `--train-only` trains the named parameters and leaves every other one bit-identical (the attention, hence the
  alignment the pages show, does not move);
- `--label-smoothing` reaches the loss;
- a run that ends on a sampled softmax says so, with the command that finishes it;
- the expected calibration error and the written word's probability, checked against sums written out here.
"""

from __future__ import annotations

import math

import pytest
import torch

from transformer_core.analysis.calibration import expected_calibration_error, teacher_forced_probabilities
from transformer_core.tasks.heldout import Example
from transformer_core.training import cli, loop
from transformer_core.training.recipes import TrainSettings, build_config


def tiny_settings(**values) -> TrainSettings:
    base = dict(task="ko-en", steps=6, batch_size=8, peak_lr=3e-3, warmup=2, threads=1)
    base.update(values)
    return TrainSettings(**base)


def test_train_only_moves_the_named_parameters_and_no_other(tmp_path):
    from transformer_core.training.recipes import tokenizer_for

    config = build_config("ko-en", True, {}, len(tokenizer_for("ko-en")))
    prefixes = cli.output_layer_prefixes(config)
    torch.manual_seed(0)
    start = loop.train(tiny_settings(steps=1, peak_lr=0.0), config, progress=False).model  # lr 0: the start
    before = {name: p.detach().clone() for name, p in start.named_parameters()}
    from transformer_core.io.loading import save_model_dir
    save_model_dir(tmp_path / "start", start)
    result = loop.train(tiny_settings(train_only=prefixes), config, progress=False, init_from=tmp_path / "start")
    moved = {name for name, p in result.model.named_parameters() if not torch.equal(p.detach(), before[name])}
    assert moved, "nothing trained"
    assert all(name.startswith(prefixes) for name in moved), sorted(moved - {n for n in moved
                                                                              if n.startswith(prefixes)})
    assert "decoder.layers.0.ffn.linear1.weight" in before and "lm_head.bias" in moved
    assert not any(".cross_attn." in name or "src.token" in name for name in moved)


def test_a_prefix_that_names_nothing_is_an_error():
    model = torch.nn.Linear(2, 2)
    with pytest.raises(ValueError, match="names no parameter"):
        loop.trainable_parameters(model, ("decoder.layers.9",))


def test_label_smoothing_from_the_cli_reaches_the_loss(monkeypatch, tmp_path):
    seen = {}

    def spy(model, batch, label_smoothing, *args, **kwargs):
        seen["epsilon"] = label_smoothing
        raise loop.NonFiniteLoss("stop here")

    monkeypatch.setattr(loop, "loss_on", spy)
    with pytest.raises(loop.NonFiniteLoss):
        cli.main(["--task", "ko-en", "--tiny", "--steps", "1", "--out", str(tmp_path / "m"), "--eval-n", "0",
                  "--quiet", "--label-smoothing", "0"])
    assert seen["epsilon"] == 0.0


def test_a_run_ending_on_a_sampled_softmax_says_how_to_finish_it(tmp_path):
    from transformer_core.training.recipes import tokenizer_for

    config = build_config("ko-en", True, {}, len(tokenizer_for("ko-en")))
    said = cli.sampled_softmax_warning(tiny_settings(sampled_softmax=2048), tmp_path / "m", config)
    assert "sampled softmax" in said and "--sampled-softmax 0" in said
    assert "--train-only decoder.layers.0.ffn,decoder.layers.0.sublayer3,lm_head.bias" in said
    assert cli.sampled_softmax_warning(tiny_settings(sampled_softmax=0), tmp_path / "m", config) is None


def test_expected_calibration_error_is_the_weighted_gap_per_bin():
    confidence = torch.tensor([0.95, 0.95, 0.95, 0.95, 0.55, 0.55, 0.05])
    correct = torch.tensor([True, True, True, False, True, False, False])
    # bins of width 1/15: 0.95 -> bin 14 (acc 0.75), 0.55 -> bin 8 (acc 0.5), 0.05 -> bin 0 (acc 0)
    expected = 4 / 7 * abs(0.75 - 0.95) + 2 / 7 * abs(0.5 - 0.55) + 1 / 7 * abs(0.0 - 0.05)
    assert expected_calibration_error(confidence, correct, bins=15) == pytest.approx(expected)
    assert expected_calibration_error(torch.tensor([1.0, 1.0]), torch.tensor([True, True])) == pytest.approx(0.0)


def test_teacher_forced_probabilities_read_each_reference_token_of_the_softmax():
    """Against a model whose logits are written by hand: position t's row is logits[t] whatever the input."""
    vocab = 6

    class Fixed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.config = type("C", (), {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2})()
            self.weight = torch.nn.Parameter(torch.zeros(1))

        def forward(self, src, tgt):
            rows = torch.tensor([[0.0, 0, 0, 3, 0, 0], [0, 0, 0, 0, 2, 0], [0, 0, 1, 0, 0, 0]])
            return rows[: tgt.shape[1]].expand(tgt.shape[0], -1, vocab)

    right = Example([5, 2], [3, 4], [], "g")  # argmax 3, then 4, then EOS (2): greedy writes it
    wrong = Example([5, 2], [3, 5], [], "g")  # the second word is not the argmax
    found = teacher_forced_probabilities(Fixed(), [right, wrong])

    def softmax(row: list[float], i: int) -> float:
        return math.exp(row[i]) / sum(math.exp(v) for v in row)

    rows = [[0, 0, 0, 3, 0, 0], [0, 0, 0, 0, 2, 0], [0, 0, 1, 0, 0, 0]]
    assert found.sentence_right.tolist() == [True, False]
    assert found.reference[:3].tolist() == pytest.approx([softmax(rows[0], 3), softmax(rows[1], 4),
                                                          softmax(rows[2], 2)], rel=1e-6)
    assert found.reference[4].item() == pytest.approx(softmax(rows[1], 5), rel=1e-6)
    assert found.mean_written_probability() == pytest.approx(
        (softmax(rows[0], 3) + softmax(rows[1], 4) + softmax(rows[2], 2)) / 3, rel=1e-6)
