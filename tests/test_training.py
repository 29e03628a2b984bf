"""Training: a tiny run lowers the loss; the schedule, sampled softmax and CLI do what they say."""

from __future__ import annotations

import csv
import json

import pytest
import torch
from safetensors.torch import load_file

import transformer_core
from tests import parity_checks as checks
from tests.heldout_recount import expected_metrics, recount
from transformer_core.analysis import evaluate
from transformer_core.data import BOS_ID, EOS_ID, PAD_ID
from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import generate
from transformer_core.tasks import LengthLimit, model_task, task_named
from transformer_core.training import cli, loop, recipes


def tiny_settings(task: str, steps: int = 40, **overrides) -> recipes.TrainSettings:
    values = dict(task=task, steps=steps, batch_size=16, peak_lr=3e-3, warmup=10, seed=0, threads=1,
                  sampled_softmax=256 if task == "reverse" else 0, buckets=2)
    values.update(overrides)
    return recipes.TrainSettings(**values)


def tiny_config(task: str) -> transformer_core.TransformerConfig:
    return recipes.build_config(task, tiny=True, overrides={}, vocab_size=len(task_named(task).tokenizer()))


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_tiny_ko_en_run_lowers_the_loss():
    result = loop.train(tiny_settings("ko-en"), tiny_config("ko-en"), progress=False)
    losses = [row["loss"] for row in result.history]
    assert len(losses) == 40
    assert mean(losses[-5:]) < mean(losses[:5]) - 1.0


def test_tiny_reverse_run_lowers_the_loss():
    result = loop.train(tiny_settings("reverse", steps=30), tiny_config("reverse"), progress=False)
    losses = [row["loss"] for row in result.history]
    assert mean(losses[-5:]) < mean(losses[:5]) - 0.3


def test_training_is_seeded():
    first = loop.train(tiny_settings("ko-en", steps=5), tiny_config("ko-en"), progress=False)
    second = loop.train(tiny_settings("ko-en", steps=5), tiny_config("ko-en"), progress=False)
    assert [r["loss"] for r in first.history] == [r["loss"] for r in second.history]


def test_config_is_the_papers_architecture_with_shared_embeddings():
    config = tiny_config("ko-en")
    assert config.share_embeddings and config.src_vocab_size == config.tgt_vocab_size
    assert (config.norm_first, config.positional, config.activation) == (False, "sinusoidal", "relu")
    assert (config.pad_token_id, config.bos_token_id, config.eos_token_id) == (PAD_ID, BOS_ID, EOS_ID)
    model = transformer_core.Transformer(config)
    assert model.lm_head.weight is model.src.token.weight is model.tgt.token.weight


def test_learning_rate_warms_up_then_decays_to_zero():
    settings = tiny_settings("ko-en", steps=1000, warmup=100, peak_lr=1e-3)
    rates = [loop.learning_rate(step, settings) for step in range(1, 1001)]
    assert rates[0] < rates[49] < rates[99]
    assert abs(rates[99] - 1e-3) < 1e-12
    assert rates[399] < rates[99]  # 1/sqrt(step) after the warmup
    assert rates[-1] == 0.0  # linear cool-down ends at zero


def test_sampled_softmax_keeps_every_label_and_renumbers_it():
    labels = torch.tensor([[5, 9, 2, PAD_ID], [9, 7, 2, PAD_ID]])
    candidates, local = loop.candidate_ids(labels, vocab_size=50, n_candidates=20,
                                            generator=torch.Generator().manual_seed(0))
    real = labels != PAD_ID
    assert torch.equal(candidates[local[real]], labels[real])
    assert PAD_ID not in candidates.tolist()
    assert len(candidates) <= 21


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_cli_writes_a_loadable_model_dir(tmp_path):
    out = tmp_path / "ko-en-tiny"
    assert cli.main(["--task", "ko-en", "--out", str(out), "--tiny", "--steps", "30", "--eval-n", "20",
                       "--quiet", "--threads", "1"]) == 0
    for name in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "README.md",
                 "loss.csv"):
        assert (out / name).is_file(), name
    assert json.loads((out / "config.json").read_text(encoding="utf-8"))["task"] == "ko-en"
    rows = list(csv.DictReader((out / "loss.csv").open(encoding="utf-8")))
    assert len(rows) == 30 and float(rows[-1]["loss"]) < float(rows[0]["loss"])
    assert "exact match" in (out / "README.md").read_text(encoding="utf-8")

    loaded = transformer_core.load(out)
    saved = load_file(str(out / "model.safetensors"))  # the loaded weights are the ones written
    state = loaded.model.state_dict()
    assert saved and "lm_head.weight" in state
    for name, tensor in saved.items():
        torch.testing.assert_close(state[name], tensor, rtol=0, atol=0, msg=name)
    checks.check_text_trace_is_the_models_own_output(loaded, "고양이가 생선을 먹는다.")
    metrics = evaluate.evaluate_model(loaded, n=10, seed=3)
    examples = model_task(loaded).held_out(loaded.tokenizer, 10, 3, core=evaluate.trained_on_core(loaded))
    expected = expected_metrics([recount(loaded.model, e) for e in examples], [e.group for e in examples])
    assert metrics["exact_match"] == pytest.approx(expected["exact_match"], abs=1e-12)
    assert metrics["per_layer"] == pytest.approx(expected["per_layer"], abs=1e-12)
    assert metrics["alignment_accuracy"] == pytest.approx(max(expected["per_layer"]), abs=1e-12)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_batched_generation_used_by_evaluate_matches_the_core(tmp_path):
    result = loop.train(tiny_settings("ko-en", steps=30), tiny_config("ko-en"), progress=False)
    model = result.model
    tokenizer = result.tokenizer
    texts = ["고양이가 생선을 먹는다.", "그 개는 작다.", "민수가 어제 학교에 갔니?"]
    batch = pad_batch([tokenizer(t)["input_ids"] for t in texts], PAD_ID)
    decoded = generate(model, batch, max_new_tokens=12)
    fast = [decoded.tokens(row) for row in range(len(texts))]
    for row, text in zip(fast, texts, strict=True):
        core = generate(model, torch.tensor([tokenizer(text)["input_ids"]]), max_new_tokens=12).ids[0].tolist()[1:]
        core = core[: core.index(EOS_ID)] if EOS_ID in core else core
        assert row == core


def test_time_budget_drives_the_cool_down_and_the_curriculum():
    settings = tiny_settings("reverse", steps=1000, warmup=10, max_minutes=1.0, curriculum_fraction=0.5)
    assert loop.training_progress(100, 0.0, settings) == 0.1
    assert loop.training_progress(100, 45.0, settings) == 0.75  # the clock is ahead of the steps
    assert loop.learning_rate(100, settings, progress=1.0) == 0.0
    # half-way, before the cool-down (the last 20 %): peak * min(step / warmup, sqrt(warmup / step)), written out
    assert loop.learning_rate(100, settings, progress=0.5) == pytest.approx(3e-3 * (10 / 100) ** 0.5, rel=1e-12)
    assert recipes.curriculum_length(0.0, settings) == 8
    assert 8 < recipes.curriculum_length(0.25, settings) < 64
    assert recipes.curriculum_length(0.5, settings) == recipes.curriculum_length(0.9, settings) == 64


def test_curriculum_limits_the_reverse_texts():
    vocab = task_named("reverse").tokenizer().get_vocab()
    limit = LengthLimit(5)
    pairs = recipes.training_pairs("reverse", vocab, seed=0, limit=limit)
    assert all(len(next(pairs)[1]) <= 5 for _ in range(200))
    limit.current = 64
    assert max(len(next(pairs)[1]) for _ in range(400)) > 32


def test_the_cli_bar_fills_with_the_time_budget_and_says_steps_per_second():
    from transformer_core.training import loop

    budgeted = tiny_settings("ko-en", steps=500, max_minutes=2.0)
    bar = loop.progress_bar(budgeted, enabled=True)
    try:
        assert bar.total == 120 and bar.unit == "s"  # the budget, not steps toward some huge limit
        bar.set_postfix(loop.bar_postfix(30, 10.0, budgeted, loss=1.2345, rate=1e-3), refresh=False)
        bar.update(60.0)
        shown = str(bar)
    finally:
        bar.close()
    assert "60/120 s" in shown and "50%" in shown
    assert "step=30/500" in shown and "steps/s=3.0" in shown  # 30 steps in 10 s
    unbudgeted = loop.progress_bar(tiny_settings("ko-en", steps=40), enabled=False)
    assert unbudgeted.total == 40
    unbudgeted.close()


def test_the_labs_ko_en_tokenizer_holds_every_core_token_and_only_a_fraction_of_the_full_vocabulary():
    from transformer_core.data import UNK_ID
    from transformer_core.grammar.base import KoEnGrammar
    from transformer_core.training.recipes import tokenizer_for

    lab = tokenizer_for("ko-en", lab=True)
    full = task_named("ko-en").tokenizer()
    assert len(lab) < len(full) / 3  # the output softmax the lab pays for at every step
    vocab = lab.get_vocab()
    grammar = KoEnGrammar(7, core=True)
    longer_matches = []
    for _ in range(2000):
        pair = grammar.sample()
        assert set(pair.source) | set(pair.target) <= vocab.keys(), pair.source_text
        assert UNK_ID not in lab(pair.source_text)["input_ids"]
        # the lab tokenizer cuts a core sentence exactly as the grammar writes it (the pieces its models learn)
        lab_pieces = lab.convert_ids_to_tokens(lab(pair.source_text)["input_ids"])
        assert lab_pieces == [*pair.source, "</s>"], pair.source_text
        full_pieces = full.convert_ids_to_tokens(full(pair.source_text)["input_ids"])
        if full_pieces != lab_pieces:
            longer_matches.append((lab_pieces, full_pieces))
    # the bundled vocabulary may hold a longer piece that WordPiece's longest match takes first (learner5's 다니 of
    # 다니다 in 다니? "is it sweet?", 다 ##니 in the core grammar): the same letters, fewer pieces, and rare
    for lab_pieces, full_pieces in longer_matches:
        assert "".join(lab_pieces).replace("##", "") == "".join(full_pieces).replace("##", "")
        assert len(full_pieces) < len(lab_pieces)
    assert len(longer_matches) <= 10, longer_matches[:3]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the fallback of a machine without CUDA")
def test_cli_asked_for_cuda_without_one_trains_on_the_cpu_and_says_so(tmp_path, capsys):
    common = ["--task", "ko-en", "--tiny", "--steps", "5", "--eval-n", "0", "--quiet", "--threads", "1"]
    assert cli.main([*common, "--out", str(tmp_path / "cpu")]) == 0
    capsys.readouterr()
    assert cli.main([*common, "--out", str(tmp_path / "cuda"), "--device", "cuda"]) == 0
    assert "cuda_missing" in capsys.readouterr().err
    on_cpu = load_file(str(tmp_path / "cpu" / "model.safetensors"))
    fell_back = load_file(str(tmp_path / "cuda" / "model.safetensors"))
    assert on_cpu.keys() == fell_back.keys()
    for name, tensor in on_cpu.items():  # the same seed on the same device: the same weights
        torch.testing.assert_close(fell_back[name], tensor, rtol=0, atol=0, msg=name)


def test_the_model_card_says_which_processor_ran_the_steps(tmp_path):
    """A run on a GPU is saved from the CPU (cli moves it back): the card must still name the GPU it trained on."""
    from dataclasses import replace

    from transformer_core.training.model_card import write_model_card

    result = loop.train(tiny_settings("ko-en", steps=3), tiny_config("ko-en"), progress=False)
    assert result.trained_on == "CPU"
    write_model_card(tmp_path, result, tiny_settings("ko-en", steps=3), tiny_config("ko-en"), {})
    assert "min on this machine's CPU (" in (tmp_path / "README.md").read_text(encoding="utf-8")
    on_gpu = replace(result, trained_on="NVIDIA H200")  # what loop.train records after steps on that card
    write_model_card(tmp_path, on_gpu, tiny_settings("ko-en", steps=3), tiny_config("ko-en"), {})
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "min on one NVIDIA H200 GPU" in card and "CPU" not in card.split("## Training")[1].split("##")[0]


@pytest.mark.parametrize("architecture", ["transformer", "rnn"])
def test_a_grown_vocabulary_keeps_what_the_old_model_says(tmp_path, architecture):
    """`train --init-from` with a vocabulary grown at its end (a grammar round's new tokens): the old tokens' logits
    are the old model's, computed by the old model itself, and each new token's logit is the mean of the old
    tokens' logits (its output row and bias the old ones' means), so greedy decoding picks what the old model
    picked. The output bias and weights are pushed far below zero, as the bundled RNN's are (its top logit about
    -15, its mean bias -2.5)."""
    from safetensors.torch import save_model

    from transformer_core.models.config import TransformerConfig
    from transformer_core.models.rnn import RNNConfig, RNNTranslator
    from transformer_core.models.transformer import Transformer

    def build(vocabulary: int):
        if architecture == "rnn":
            return RNNTranslator(RNNConfig(src_vocab_size=vocabulary, tgt_vocab_size=vocabulary, embed_dim=8,
                                           hidden_size=12, attn_size=10, maxout_size=8, max_len=16))
        return Transformer(TransformerConfig(src_vocab_size=vocabulary, tgt_vocab_size=vocabulary, d_model=16,
                                             n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=32,
                                             dropout=0.0, max_len=16, share_embeddings=True))

    torch.manual_seed(0)
    old = build(30).eval()
    with torch.no_grad():
        old.lm_head.bias.normal_(-2.0, 1.0)  # a trained model's biases are far from zero
        old.lm_head.weight.add_(-0.5)  # and its logits far below its biases
    save_model(old, str(tmp_path / "model.safetensors"))  # one copy of the tied embedding, as the models are saved
    grown = build(34).eval()
    assert {"lm_head.weight", "lm_head.bias"} <= set(loop.load_grown_weights(grown, tmp_path / "model.safetensors"))
    src, tgt = torch.tensor([[5, 9, 12, 2]]), torch.tensor([[1, 7, 3]])
    with torch.no_grad():
        before, after = old(src, tgt), grown(src, tgt)
    torch.testing.assert_close(after[..., :30], before)
    torch.testing.assert_close(after[..., 30:], before.mean(-1, keepdim=True).expand(1, 3, 4))
    assert torch.equal(after.argmax(-1), before.argmax(-1))
