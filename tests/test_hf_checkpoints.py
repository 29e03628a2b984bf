"""Transformers checkpoints (BERT, Marian) through the from-scratch core, on the path a user takes.

Each case saves a random-weight transformers model with `save_pretrained` (plus a tokenizer made in
tests/hf_checkpoints.py), opens the directory with `tc.load`, traces a sentence with `trace_text`
and compares every layer with transformers' own forward pass on the same tokens (eager attention,
output_attentions / output_hidden_states) at 1e-4. Greedy output is compared with transformers'
`generate(num_beams=1)` token for token. No weights are downloaded.
"""

from __future__ import annotations

import json
import shutil

import pytest
import torch

import transformer_core as tc  # sets HF_HUB_OFFLINE before transformers is imported
from tests.hf_checkpoints import save_bert, save_marian
from tests.requirements_check import needed
from transformer_core.inference.generation import generate
from transformer_core.io.loading import list_models
from transformer_core.models.transformer import sinusoidal_table
from transformer_core.tracing.names import SRC_IDS, AttentionKind, attention_name, layer_name

needed("sentencepiece")

TOL = dict(atol=1e-4, rtol=1e-4)
TEXTS = ["나는 학교에 간다.", "The cat sleeps today.", "고양이가 book을 읽는다 🙂"]

BERT_CASES = {  # name -> save_bert keywords: heads, layers, widths, vocabularies and heads on top all vary
    "masked-lm-2x4": dict(layers=2, heads=4, width=32, ffn=48, vocab=160, head="masked-lm"),
    "classifier-3x2": dict(layers=3, heads=2, width=24, ffn=40, vocab=200, head="classifier", seed=1),
    "model-1x8": dict(layers=1, heads=8, width=64, ffn=96, vocab=170, head="model", seed=2),
}
MARIAN_CASES = {
    "swish-2+2x4": dict(layers=(2, 2), heads=4, width=32, ffn=48, spm_vocab=70),
    "swish-3+1x2": dict(layers=(3, 1), heads=2, width=24, ffn=40, spm_vocab=85, seed=1),
    "gelu-1+2x8": dict(layers=(1, 2), heads=8, width=64, ffn=80, spm_vocab=100, activation="gelu", seed=2),
}


@pytest.fixture(autouse=True)
def _one_thread(one_torch_thread):
    """Tiny models: threads would only add overhead on a busy machine."""


@pytest.fixture(scope="module", params=sorted(BERT_CASES))
def bert(request, tmp_path_factory):
    directory = tmp_path_factory.mktemp(f"bert-{request.param}")
    reference = save_bert(directory, **BERT_CASES[request.param])
    return tc.load(directory), reference


@pytest.fixture(scope="module", params=sorted(MARIAN_CASES))
def marian(request, tmp_path_factory):
    directory = tmp_path_factory.mktemp(f"marian-{request.param}")
    reference = save_marian(directory, **MARIAN_CASES[request.param])
    return tc.load(directory), reference


def bert_reference(reference, ids: torch.Tensor):
    """transformers' encoder outputs (hidden states and attentions of every layer) with eager attention."""
    encoder = getattr(reference, "bert", reference)
    encoder.config._attn_implementation = "eager"
    with torch.no_grad():
        return encoder(input_ids=ids, output_attentions=True, output_hidden_states=True)


def check_bert_parity(loaded: tc.LoadedModel, reference, text: str) -> None:
    """Every layer's attention weights and hidden state of trace_text equal transformers' at 1e-4."""
    traced = tc.trace_text(loaded, text)
    trace = traced.trace
    ids = trace[SRC_IDS]
    assert ids[0].tolist() == loaded.tokenizer(text)["input_ids"]
    expected = bert_reference(reference, ids)
    torch.testing.assert_close(trace["src.input"], expected.hidden_states[0], **TOL)
    for i in range(loaded.config.n_encoder_layers):
        torch.testing.assert_close(trace[attention_name(AttentionKind.ENCODER_SELF, i)], expected.attentions[i],
                                   **TOL, msg=lambda m, i=i: f"layer {i} attention: {m}")
        torch.testing.assert_close(trace[layer_name("encoder", i, "out")], expected.hidden_states[i + 1],
                                   **TOL, msg=lambda m, i=i: f"layer {i} hidden state: {m}")


def marian_reference(reference, src: torch.Tensor, tgt: torch.Tensor):
    """transformers' teacher-forced pass: attentions, hidden states and logits, with eager attention."""
    reference.config._attn_implementation = "eager"
    for module in reference.modules():
        if hasattr(module, "config"):
            module.config._attn_implementation = "eager"
    with torch.no_grad():
        return reference(input_ids=src, decoder_input_ids=tgt, output_attentions=True, output_hidden_states=True)


def check_marian_parity(loaded: tc.LoadedModel, reference, text: str) -> None:
    """trace_text's greedy output equals transformers' generate(num_beams=1) token for token, and over it
    the encoder, decoder self- and cross-attention, hidden states and teacher-forced logits equal at 1e-4."""
    traced = tc.trace_text(loaded, text, max_new_tokens=12)
    trace = traced.trace
    src = trace[SRC_IDS]
    assert src[0].tolist() == loaded.tokenizer(text)["input_ids"]
    with torch.no_grad():
        hf_ids = reference.generate(input_ids=src, num_beams=1, do_sample=False, max_new_tokens=12,
                                    min_new_tokens=0)
    core_ids = [loaded.config.bos_token_id, *traced.generation.tokens(0)]
    if not traced.reached_limit:
        core_ids.append(loaded.config.eos_token_id)
    assert core_ids == hf_ids[0].tolist(), f"greedy: core {core_ids} vs transformers {hf_ids[0].tolist()}"
    tgt = trace["tgt.ids"]
    expected = marian_reference(reference, src, tgt)
    torch.testing.assert_close(trace["src.input"], expected.encoder_hidden_states[0], **TOL)
    for i in range(loaded.config.n_encoder_layers):
        torch.testing.assert_close(trace[attention_name(AttentionKind.ENCODER_SELF, i)],
                                   expected.encoder_attentions[i], **TOL, msg=lambda m, i=i: f"encoder {i}: {m}")
        torch.testing.assert_close(trace[layer_name("encoder", i, "out")], expected.encoder_hidden_states[i + 1],
                                   **TOL, msg=lambda m, i=i: f"encoder {i} out: {m}")
    torch.testing.assert_close(trace["tgt.input"], expected.decoder_hidden_states[0], **TOL)
    for i in range(loaded.config.n_decoder_layers):
        torch.testing.assert_close(trace[attention_name(AttentionKind.DECODER_SELF, i)],
                                   expected.decoder_attentions[i], **TOL, msg=lambda m, i=i: f"decoder self {i}: {m}")
        torch.testing.assert_close(trace[attention_name(AttentionKind.CROSS, i)], expected.cross_attentions[i],
                                   **TOL, msg=lambda m, i=i: f"cross {i}: {m}")
        torch.testing.assert_close(trace[layer_name("decoder", i, "out")], expected.decoder_hidden_states[i + 1],
                                   **TOL, msg=lambda m, i=i: f"decoder {i} out: {m}")
    torch.testing.assert_close(trace["logits"], expected.logits, **TOL)


# ------------------------------------------------------------------------------------------------ BERT

@pytest.mark.parametrize("text", TEXTS)
def test_bert_checkpoint_every_layer_equals_transformers(bert, text):
    check_bert_parity(*bert, text)


def test_bert_checkpoint_is_an_encoder_named_bert(bert):
    loaded, reference = bert
    assert loaded.kind == "encoder" and loaded.architecture == "bert"
    cfg = loaded.config
    assert (cfg.positional, cfg.activation, cfg.scale_embedding, cfg.type_vocab_size) == ("learned", "gelu", False, 2)
    assert cfg.n_heads == reference.config.num_attention_heads
    assert cfg.n_encoder_layers == reference.config.num_hidden_layers


def test_bert_pytorch_model_bin_loads_like_safetensors(tmp_path):
    reference = save_bert(tmp_path / "bin", head="model", seed=3)
    (tmp_path / "bin" / "model.safetensors").unlink()
    torch.save(reference.state_dict(), tmp_path / "bin" / "pytorch_model.bin")
    check_bert_parity(tc.load(tmp_path / "bin"), reference, TEXTS[0])


# ------------------------------------------------------------------------------------------------ Marian

@pytest.mark.parametrize("text", TEXTS)
def test_marian_checkpoint_attention_logits_and_greedy_equal_transformers(marian, text):
    check_marian_parity(*marian, text)


def test_marian_config_is_the_papers_post_ln_with_marians_choices(marian):
    loaded, reference = marian
    cfg = loaded.config
    assert loaded.kind == "encoder-decoder" and loaded.architecture == "marian"
    assert not cfg.norm_first and cfg.sinusoidal_layout == "halves" and cfg.scale_embedding
    assert cfg.bos_token_id == cfg.pad_token_id == reference.config.decoder_start_token_id
    assert cfg.share_embeddings and loaded.model.lm_head.weight is loaded.model.src.token.weight
    hf_act = reference.config.activation_function
    assert cfg.activation == {"swish": "silu", "gelu": "gelu"}[hf_act]


def test_marian_positions_are_sines_then_cosines():
    """Written out: dimension i of position p is sin(p / 10000^(2i/D)) for i < D/2, then the cosines."""
    d_model, positions = 8, 5
    table = sinusoidal_table(positions, d_model, "halves")
    for p in range(positions):
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            assert table[p, i].item() == pytest.approx(torch.sin(torch.tensor(angle, dtype=torch.float64)).item(),
                                                       abs=1e-6)
            assert table[p, d_model // 2 + i].item() == pytest.approx(
                torch.cos(torch.tensor(angle, dtype=torch.float64)).item(), abs=1e-6)


def test_marian_beam_search_scores_its_output_as_transformers_does(marian):
    """Beam search through the project's generate: its reported score (length_penalty 0: summed log-probability)
    equals the log-probability transformers' teacher-forced logits give the chosen output."""
    loaded, reference = marian
    src = torch.tensor([loaded.tokenizer(TEXTS[0])["input_ids"]])
    result = generate(loaded.model, src, strategy="beam", beam_width=3, length_penalty=0.0, max_new_tokens=8)
    chosen = result.ids[0, 1:].tolist()
    chosen = chosen[: chosen.index(loaded.config.eos_token_id) + 1] if loaded.config.eos_token_id in chosen else chosen
    tgt = torch.tensor([[loaded.config.bos_token_id, *chosen[:-1]]])
    with torch.no_grad():
        logits = reference(input_ids=src, decoder_input_ids=tgt).logits[0]
    expected = torch.log_softmax(logits.double(), dim=-1)[torch.arange(len(chosen)), chosen].sum().item()
    assert result.beam_scores[0] == pytest.approx(expected, abs=1e-3)
    # The chosen hypothesis itself equals transformers' beam search (3 beams, no length penalty), on every text
    # (on some of them these random models' beam output differs from their greedy one).
    for text in TEXTS:
        src = torch.tensor([loaded.tokenizer(text)["input_ids"]])
        core_beam = generate(loaded.model, src, strategy="beam", beam_width=3, length_penalty=0.0,
                             max_new_tokens=8).ids[0].tolist()
        with torch.no_grad():
            hf_beam = reference.generate(input_ids=src, num_beams=3, do_sample=False, length_penalty=0.0,
                                         early_stopping=True, max_new_tokens=8, min_new_tokens=0)[0].tolist()
        core_beam = core_beam[: core_beam.index(loaded.config.eos_token_id) + 1] \
            if loaded.config.eos_token_id in core_beam else core_beam
        assert core_beam == hf_beam, f"beam on {text!r}: core {core_beam} vs transformers {hf_beam}"


def test_interleaved_positions_fail_marian_parity(marian):
    """The planted bug: the paper's interleaved sin/cos table in a Marian model. The parity check must reject it."""
    loaded, reference = marian
    model = loaded.model
    saved = model.src.position.pe.clone()
    interleaved = sinusoidal_table(loaded.config.max_len, loaded.config.d_model, "interleaved")
    try:
        model.src.position.pe.copy_(interleaved)
        model.tgt.position.pe.copy_(interleaved)
        with pytest.raises(AssertionError):
            check_marian_parity(loaded, reference, TEXTS[0])
    finally:
        model.src.position.pe.copy_(saved)
        model.tgt.position.pe.copy_(saved)
    check_marian_parity(loaded, reference, TEXTS[0])  # restored: passes again


def test_bert_without_token_types_fails_parity(bert):
    """A planted bug on the BERT side: the token-type embedding left out must be caught."""
    loaded, reference = bert
    weight = loaded.model.src.token_type.weight
    saved = weight.detach().clone()
    try:
        with torch.no_grad():
            weight.zero_()
        with pytest.raises(AssertionError):
            check_bert_parity(loaded, reference, TEXTS[0])
    finally:
        with torch.no_grad():
            weight.copy_(saved)


# ------------------------------------------------------------------------------------------------ broken dirs

def test_unsupported_model_type_names_it_and_the_supported_ones(tmp_path):
    directory = tmp_path / "gpt"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"model_type": "gpt2"}), encoding="utf-8")
    with pytest.raises(tc.ModelUnavailableError, match=r"model_type 'gpt2' is not supported.*bert.*marian"):
        tc.load(directory)


@pytest.mark.parametrize("remove, named", [("model.safetensors", "model.safetensors or pytorch_model.bin"),
                                           ("vocab.json", "vocab.json"), ("config.json", "config.json")])
def test_broken_marian_dir_names_what_is_missing(tmp_path, remove, named):
    directory = tmp_path / "opus"
    save_marian(directory, layers=(1, 1), width=16, ffn=16, spm_vocab=70)
    (directory / remove).unlink()
    with pytest.raises(tc.ModelUnavailableError, match=named):
        tc.load(directory)


def test_checkpoints_in_models_dir_are_listed_and_broken_ones_say_why(tmp_path, monkeypatch):
    save_bert(tmp_path / "my-bert", layers=1, width=16, ffn=16, heads=2)
    save_marian(tmp_path / "my-marian", layers=(1, 1), width=16, ffn=16, spm_vocab=70)
    shutil.copytree(tmp_path / "my-marian", tmp_path / "half-marian")
    (tmp_path / "half-marian" / "source.spm").unlink()
    other = tmp_path / "my-gpt"
    other.mkdir()
    (other / "config.json").write_text(json.dumps({"model_type": "gpt2"}), encoding="utf-8")
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tmp_path))
    infos = {info.name: info for info in list_models()}
    assert infos["my-bert"].available and infos["my-bert"].checkpoint and infos["my-bert"].architecture == "bert"
    assert infos["my-marian"].available and infos["my-marian"].architecture == "marian"
    assert not infos["half-marian"].available and "source.spm" in infos["half-marian"].reason
    assert not infos["my-gpt"].available and "gpt2" in infos["my-gpt"].reason
    assert tc.load("my-marian").architecture == "marian"  # by name, like the picker


def test_tokens_of_a_slow_sentencepiece_tokenizer_map_to_their_words(marian):
    """Marian's tokenizer gives no character offsets: a "▁" piece starts the next word instead."""
    from explorer.tokenizer_service import tokenize

    loaded, _ = marian
    tok = tokenize(loaded.tokenizer, "나는 학교에 간다.")
    assert tok.words == ["나는", "학교에", "간다."]
    for piece, word, special in zip(tok.pieces, tok.word_index, tok.is_special, strict=True):
        if special:
            assert word is None
        else:  # every piece's letters occur in the word it is mapped to
            assert piece.replace("▁", "") in tok.words[word], (piece, word)
    assert [w for w in tok.word_index if w is not None] == sorted(w for w in tok.word_index if w is not None)
    assert set(w for w in tok.word_index if w is not None) == {0, 1, 2}


def test_old_style_marian_bin_with_tied_copies_and_position_table_loads(tmp_path):
    """Older downloads keep pytorch_model.bin with every tied copy and transformers' own sinusoidal table;
    that table must equal the core's in Marian's layout (checked on load), and parity holds."""
    reference = save_marian(tmp_path / "old", layers=(1, 1), width=32, heads=4, seed=5)
    (tmp_path / "old" / "model.safetensors").unlink()
    state = reference.state_dict()
    assert "model.encoder.embed_positions.weight" in state and "lm_head.weight" in state
    torch.save(state, tmp_path / "old" / "pytorch_model.bin")
    check_marian_parity(tc.load(tmp_path / "old"), reference, TEXTS[0])


def test_a_position_table_in_another_layout_is_refused(tmp_path):
    reference = save_marian(tmp_path / "odd", layers=(1, 1), width=32, heads=4, seed=6)
    (tmp_path / "odd" / "model.safetensors").unlink()
    state = reference.state_dict()
    table = state["model.encoder.embed_positions.weight"]
    state["model.encoder.embed_positions.weight"] = sinusoidal_table(table.shape[0], table.shape[1], "interleaved")
    torch.save(state, tmp_path / "odd" / "pytorch_model.bin")
    with pytest.raises(tc.ModelUnavailableError, match="not the sinusoidal table in Marian's layout"):
        tc.load(tmp_path / "odd")


def test_marian_greedy_stops_at_eos_like_transformers(tmp_path):
    """A logits bias that makes </s> win: both stop at the same EOS, not at the length limit."""
    reference = save_marian(tmp_path / "eos", layers=(1, 1), width=32, heads=4, seed=7)
    with torch.no_grad():
        reference.final_logits_bias[0, reference.config.eos_token_id] += 6.0  # measured: EOS at once
    reference.save_pretrained(str(tmp_path / "eos"))
    loaded = tc.load(tmp_path / "eos")
    traced = tc.trace_text(loaded, TEXTS[0], max_new_tokens=12)
    assert not traced.reached_limit and len(traced.generation.tokens(0)) < 12
    check_marian_parity(loaded, reference, TEXTS[0])
