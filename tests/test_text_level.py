"""Text level: load() model directories and built-ins, trace_text(), the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
import torch

import transformer_core
from tests import parity_checks as checks
from transformer_core import ModelUnavailableError, generate, list_models, load, trace_text
from transformer_core.io.loading import REPO_ROOT


def test_load_a_model_directory_with_its_tokenizer(tiny_loaded):
    assert tiny_loaded.kind == "encoder-decoder" and tiny_loaded.trained
    assert tiny_loaded.tokenizer.convert_ids_to_tokens([4]) == ["고양이가"]
    assert tiny_loaded.config.d_model == 16 and not tiny_loaded.model.training


def test_trace_text_runs_one_teacher_forced_pass_over_the_greedy_output(tiny_loaded):
    result = trace_text(tiny_loaded, "고양이가 생선을 먹는다 .")
    trace = result.trace
    assert result.src_tokens == ["고양이가", "생선을", "먹는다", ".", "</s>"]
    assert trace["src.ids"].shape == (1, 5)
    greedy = generate(tiny_loaded.model, trace["src.ids"]).ids[0].tolist()  # up to the model's max_len
    if greedy[-1] == tiny_loaded.config.eos_token_id:
        greedy = greedy[:-1]
    assert trace["tgt.ids"][0].tolist() == greedy  # the recorded pass is over the decoded output
    assert result.tgt_tokens[0] == "<s>" and len(result.tgt_tokens) == trace["tgt.ids"].shape[1]
    # predicted token t is the argmax of logits[t]: the decoder input shifted left
    assert result.predicted_tokens[:-1] == result.tgt_tokens[1:]
    assert result.output_text == tiny_loaded.tokenizer.decode(greedy[1:], skip_special_tokens=True)
    assert result.forward_seconds > 0 and result.n_truncated == 0


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty_text_is_refused_with_a_plain_message(tiny_loaded, text):
    with pytest.raises(ValueError, match="empty"):
        trace_text(tiny_loaded, text)


def test_long_text_is_truncated_to_max_len_and_says_how_much(tiny_loaded):
    words = " ".join(["cat"] * 50)  # max_len of the tiny model is 32
    result = trace_text(tiny_loaded, words, max_new_tokens=3)
    assert result.trace["src.ids"].shape[1] == 32
    assert result.n_input_tokens == 51 and result.n_truncated == 19
    assert result.src_tokens[-1] == "</s>"  # the post-processor's EOS survives truncation


def test_unknown_words_become_unk_and_still_trace(tiny_loaded):
    result = trace_text(tiny_loaded, "🙂 zebra <script>")
    assert "<unk>" in result.src_tokens
    assert torch.isfinite(result.trace["logits"]).all()


def test_a_bare_name_resolves_under_the_models_directory(tiny_model_dir, monkeypatch):
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tiny_model_dir.parent))
    loaded = load("tiny")
    assert loaded.name == "tiny" and loaded.directory == tiny_model_dir
    assert any(info.name == "tiny" and info.available for info in list_models())


def test_an_unknown_name_lists_the_known_models(tiny_model_dir, monkeypatch):
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tiny_model_dir.parent))
    with pytest.raises(ModelUnavailableError, match=r"no model named 'nope'.*tiny"):
        load("nope")


def test_broken_model_directories_are_listed_unavailable_with_a_reason(tiny_model_dir, tmp_path, monkeypatch):
    root = tmp_path / "models"
    shutil.copytree(tiny_model_dir, root / "good")
    shutil.copytree(tiny_model_dir, root / "no-weights")
    (root / "no-weights" / "model.safetensors").unlink()
    shutil.copytree(tiny_model_dir, root / "bad-json")
    (root / "bad-json" / "config.json").write_text("{not json", encoding="utf-8")
    shutil.copytree(tiny_model_dir, root / "truncated")
    weights = root / "truncated" / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:200])
    shutil.copytree(tiny_model_dir, root / "wrong-shape")
    config = json.loads((root / "wrong-shape" / "config.json").read_text(encoding="utf-8"))
    (root / "wrong-shape" / "config.json").write_text(json.dumps({**config, "d_model": 32}), encoding="utf-8")
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(root))

    infos = {info.name: info for info in list_models()}
    assert infos["good"].available
    assert not infos["no-weights"].available and "model.safetensors" in infos["no-weights"].reason
    assert not infos["bad-json"].available and "JSON" in infos["bad-json"].reason
    for name in ("truncated", "wrong-shape"):  # look fine on disk, fail on load
        with pytest.raises(ModelUnavailableError, match="cannot be loaded"):
            load(name)
    checks.check_text_trace_is_the_models_own_output(load("good"), "cat")


def test_paper_base_is_a_seeded_untrained_built_in_with_the_papers_shapes():
    if not (transformer_core.io.loading.models_dir() / "ko-en-toy" / "tokenizer.json").is_file():
        pytest.skip("models/ko-en-toy (paper-base's tokenizer) is not bundled yet")
    first, second = load("paper-base"), load("paper-base")
    assert not first.trained and "UNTRAINED" in first.description
    cfg = first.config
    assert (cfg.d_model, cfg.n_heads, cfg.n_encoder_layers, cfg.n_decoder_layers, cfg.d_ff) == (512, 8, 6, 6, 2048)
    torch.testing.assert_close(first.model.lm_head.weight, second.model.lm_head.weight)
    result = trace_text(first, "고양이가 생선을 먹는다", max_new_tokens=3)
    assert result.trace["encoder.5.self_attn.q"].shape[1:] == (8, len(result.src_tokens), 64)


def test_paper_base_weights_do_not_depend_on_other_users_of_torchs_global_generator(monkeypatch):
    """16 sessions loading models at once drew from torch's global generator while paper-base was being
    seeded: the server's paper-base differed from a fresh load (seen by tests/test_sessions.py)."""
    if not (transformer_core.io.loading.models_dir() / "ko-en-toy" / "tokenizer.json").is_file():
        pytest.skip("models/ko-en-toy (paper-base's tokenizer) is not bundled yet")
    quiet = load("paper-base").model.state_dict()
    real = transformer_core.io.builtin_models.Transformer

    def with_a_busy_neighbour(config):  # another thread draws random numbers meanwhile
        torch.randn(100)
        return real(config)

    monkeypatch.setattr(transformer_core.io.builtin_models, "Transformer", with_a_busy_neighbour)
    busy = load("paper-base").model.state_dict()
    for name, tensor in quiet.items():
        assert torch.equal(busy[name], tensor), name


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_cli_prints_tokens_ids_and_every_traced_shape(tiny_model_dir):
    proc = subprocess.run([sys.executable, "-m", "transformer_core", "trace", "--model", str(tiny_model_dir),
                           "고양이가 생선을 먹는다"], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "source tokens: 고양이가 생선을 먹는다 </s>" in out
    assert "source ids:    4 5 6 2" in out
    assert "encoder.1.self_attn.weights" in out and "[1, 2, 4, 4]" in out
    assert "logits" in out


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_cli_reports_empty_input_without_a_traceback(tiny_model_dir):
    proc = subprocess.run([sys.executable, "-m", "transformer_core", "trace", "--model", str(tiny_model_dir), " "],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert proc.returncode == 2
    assert "empty" in proc.stderr and "Traceback" not in proc.stderr
