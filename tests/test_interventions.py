"""Ready-made interventions (transformer_core/analysis/head_patches.py, experiments.py) proven against
independent computations, the URL form of an experiment, and head importance (importance.py) against
evaluate.py's own scoring."""

from __future__ import annotations

import copy
import json
import shutil
from collections import Counter

import pytest
import torch
import torch.nn.functional as F

from tests.conftest import tiny_config
from transformer_core import Transformer, generate
from transformer_core.analysis.evaluate import Example, score
from transformer_core.analysis.experiments import Intervention, shuffle_words
from transformer_core.analysis.head_patches import (
    all_heads,
    merge_patches,
    reference_means,
    remove_causal_mask,
    remove_positional_encoding,
    switch_off,
    switch_off_rows,
    uniform_heads,
)
from transformer_core.analysis.importance import (
    Ablation,
    ablations,
    head_importance,
    load_importance,
    rank,
    score_ablations,
)
from transformer_core.tasks import KO_EN
from transformer_core.tracing.names import Head, attention_name


def model_and_batch(**overrides):
    torch.manual_seed(0)
    model = Transformer(tiny_config(**overrides)).eval()
    src = torch.tensor([[4, 5, 6, 7, 2], [5, 6, 2, 0, 0]])  # row 1 padded
    tgt = torch.tensor([[1, 8, 9, 10, 11], [1, 9, 10, 0, 0]])
    return model, src, tgt


def key_masks(src: torch.Tensor, tgt: torch.Tensor, causal: bool = True) -> dict[str, torch.Tensor]:
    """[B,Tq,Tk] allowed-key masks per attention kind, built here from the ids (not read from the model)."""
    src_real, tgt_real = src != 0, tgt != 0
    t = tgt.shape[1]
    future_ok = torch.ones(t, t, dtype=torch.bool) if not causal else torch.ones(t, t, dtype=torch.bool).tril()
    return {
        "enc": src_real[:, None, :].expand(-1, src.shape[1], -1),
        "dec": tgt_real[:, None, :] & future_ok[None],
        "cross": src_real[:, None, :].expand(-1, t, -1),
    }


# --- switching heads off -------------------------------------------------------------------------

@pytest.mark.parametrize("head", [Head("enc", 1, 0), Head("dec", 0, 1), Head("cross", 1, 1)])
def test_uniform_weights_equal_averaging_v_over_the_allowed_keys(head):
    model, src, tgt = model_and_batch()
    plain = model.trace(src, tgt)
    patched = model.trace(src, tgt, patches=uniform_heads([head]))
    allowed = key_masks(src, tgt)[head.kind.short].float()  # [B,Tq,Tk]
    v = patched[head.name("v")][:, head.head]  # [B,Tk,d_k]
    expected = (allowed @ v) / allowed.sum(-1, keepdim=True)  # mean of V over the allowed keys
    torch.testing.assert_close(patched[head.name("context")][:, head.head], expected, atol=1e-6, rtol=0)
    weights = patched[head.name("weights")][:, head.head]
    torch.testing.assert_close(weights, allowed / allowed.sum(-1, keepdim=True), atol=1e-7, rtol=0)
    assert torch.count_nonzero(weights[allowed == 0]) == 0  # blocked keys get nothing
    other = 1 - head.head
    torch.testing.assert_close(patched[head.name()][:, other], plain[head.name()][:, other])


def test_reference_means_are_the_mean_context_over_real_query_positions():
    model, _, _ = model_and_batch()
    sources = [[4, 5, 6, 7, 2], [5, 6, 2]]
    means = reference_means(model, sources, max_new_tokens=5)
    # independent: decode each sentence alone, trace it alone, average over its positions in Python
    per_position: dict[str, list[torch.Tensor]] = {}
    for ids in sources:
        one = torch.tensor([ids])
        out = generate(model, one, max_new_tokens=5).ids[0].tolist()
        out = out[: out.index(2)] if 2 in out else out
        trace = model.trace(one, torch.tensor([out]))
        for name in means:
            context = trace[name][0]  # [H,T,d_k]
            per_position.setdefault(name, []).extend(context[:, t] for t in range(context.shape[1]))
    assert set(means) == {h.name("context") for h in all_heads(model.config)}
    for name, vectors in per_position.items():
        torch.testing.assert_close(means[name], torch.stack(vectors).mean(0), atol=1e-6, rtol=0)


@pytest.mark.parametrize("kind", ["enc.0", "dec.1", "cross.0"])
def test_mean_ablation_equals_w_o_surgery_that_adds_the_heads_mean_output_to_the_bias(kind):
    """Independent: context_h := m for every position is W_O with head h's columns zero and b_O += W_O[:, h] m."""
    model, src, tgt = model_and_batch()
    means = reference_means(model, [[4, 5, 6, 2], [7, 8, 2]], max_new_tokens=4)
    head = Head.parse(f"{kind}.1")
    with torch.no_grad():
        patched = model(src, tgt, patches=switch_off([head], "mean", means))
        surgery = copy.deepcopy(model)
        stack, layer, attn = head.attention.split(".")
        w_o = getattr(getattr(surgery, stack).layers[int(layer)], attn).w_o
        d_k = model.config.d_k
        columns = slice(head.head * d_k, (head.head + 1) * d_k)
        w_o.bias += w_o.weight[:, columns] @ means[head.name("context")][head.head]
        w_o.weight[:, columns] = 0
        expected = surgery(src, tgt)
    torch.testing.assert_close(patched, expected, atol=1e-5, rtol=0)
    assert not torch.allclose(patched, model(src, tgt))


@pytest.mark.parametrize("method", ["zero", "mean", "uniform"])
def test_per_row_switch_off_equals_one_experiment_per_row(method):
    model, src, tgt = model_and_batch()
    means = reference_means(model, [[4, 5, 6, 2]], max_new_tokens=4)
    experiments = [[], [Head("enc", 0, 1)], [Head("cross", 1, 0), Head("dec", 0, 1)]]
    rows_src, rows_tgt = src.repeat(3, 1), tgt.repeat(3, 1)
    heads_by_row = [e for e in experiments for _ in range(src.shape[0])]
    with torch.no_grad():
        batched = model(rows_src, rows_tgt, patches=switch_off_rows(heads_by_row, 2, method, means))
        for i, heads in enumerate(experiments):
            alone = model(src, tgt, patches=switch_off(heads, method, means))
            torch.testing.assert_close(batched[2 * i:2 * i + 2], alone, atol=1e-6, rtol=0)


def test_per_row_patches_refuse_a_batch_of_another_size():
    model, src, tgt = model_and_batch()
    with pytest.raises(ValueError, match="3 batch rows"):
        model(src, tgt, patches=switch_off_rows([[Head("enc", 0, 0)]] * 3, 2))


def test_patches_at_one_hook_compose_in_order():
    model, src, tgt = model_and_batch()
    both = merge_patches(switch_off([Head("enc", 0, 0)]), switch_off([Head("enc", 0, 1)]))
    assert list(both) == ["encoder.0.self_attn.context"]
    context = model.trace(src, tgt, patches=both)["encoder.0.self_attn.context"]
    assert torch.count_nonzero(context) == 0


def test_an_unknown_method_or_a_missing_head_raises_a_value_error():
    model, _, _ = model_and_batch()
    with pytest.raises(ValueError, match="method"):
        switch_off([Head("enc", 0, 0)], "shrink")
    with pytest.raises(ValueError, match="reference means"):
        switch_off([Head("enc", 0, 0)], "mean")
    with pytest.raises(ValueError, match=r"enc\.5\.0"):
        Intervention(off=(Head("enc", 5, 0),)).patches(model.config)
    encoder_only = tiny_config(n_decoder_layers=0)
    with pytest.raises(ValueError, match="encoder-only"):
        Intervention(off=(Head("cross", 0, 0),)).patches(encoder_only)
    with pytest.raises(ValueError, match="causal"):
        Intervention(causal=False).patches(encoder_only)


# --- positions and the causal mask ---------------------------------------------------------------

def test_removing_target_positions_only_leaves_the_encoder_untouched():
    model, src, tgt = model_and_batch()
    plain = model.trace(src, tgt)
    patched = model.trace(src, tgt, patches=remove_positional_encoding("tgt"))
    assert torch.equal(plain["encoder.out"], patched["encoder.out"])
    assert torch.count_nonzero(patched["tgt.pos"]) == 0
    assert not torch.allclose(plain["logits"], patched["logits"])


def test_removing_the_causal_mask_equals_attention_with_an_all_true_mask_on_the_recorded_q_k_v():
    model, src, tgt = model_and_batch()
    plain = model.trace(src, tgt)
    patched = model.trace(src, tgt, patches=remove_causal_mask())
    assert bool(patched["tgt.causal_mask"].all())
    padding_only = key_masks(src, tgt, causal=False)["dec"][:, None]  # [B,1,T,T]: future allowed
    for layer in range(model.config.n_decoder_layers):
        q, k, v = (patched[attention_name("decoder.self_attn", layer, x)] for x in "qkv")
        expected = F.scaled_dot_product_attention(q, k, v, attn_mask=padding_only)
        torch.testing.assert_close(patched[attention_name("decoder.self_attn", layer, "context")], expected,
                                   atol=1e-6, rtol=0)
        future = patched[attention_name("decoder.self_attn", layer)][0].triu(1)
        assert torch.count_nonzero(future) > 0  # it looks at the future now
    torch.testing.assert_close(plain["encoder.out"], patched["encoder.out"])
    assert not torch.allclose(plain["logits"], patched["logits"])


# --- shuffle -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["고양이가 공원에서 생선을 먹었다.", "the cat eats fish ?", "a b c d e", "하나 둘"])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_shuffle_keeps_the_multiset_of_words_and_changes_their_order(text, seed):
    shuffled = shuffle_words(text, seed)
    strip = lambda s: s.rstrip(".?!").split()  # noqa: E731
    assert Counter(strip(shuffled)) == Counter(strip(text))
    assert strip(shuffled) != strip(text)
    assert shuffled == shuffle_words(text, seed)  # a pure function of (text, seed)
    assert shuffled[-1] == text.strip()[-1] if text.strip()[-1] in ".?!" else True


def test_shuffle_leaves_a_one_word_text_alone():
    assert shuffle_words("고양이", 3) == "고양이"
    assert shuffle_words("ㅋㅋ ㅋㅋ", 3) == "ㅋㅋ ㅋㅋ"


# --- the experiment in the URL -------------------------------------------------------------------

@pytest.mark.parametrize("spec", [
    Intervention(),
    Intervention(off=(Head("enc", 0, 1), Head("cross", 1, 2))),
    Intervention(off=(Head("dec", 1, 3),), method="uniform", pe="src", causal=False, shuffle=3),
    Intervention(off=(Head("cross", 0, 0),), method="mean", pe="both"),
    Intervention(pe="tgt", shuffle=0),
])
def test_an_experiment_round_trips_through_its_url_form(spec):
    query = spec.to_query()
    assert Intervention.from_query(query) == spec
    assert Intervention.from_query("?" + query) == spec
    assert Intervention.from_params(spec.to_params()) == spec


def test_the_url_form_is_short_and_readable():
    spec = Intervention(off=(Head("cross", 1, 2), Head("enc", 0, 1)), pe="src", causal=False, shuffle=3)
    assert spec.to_query() == "off=cross.1.2,enc.0.1&pe=src&causal=0&shuffle=3"
    assert Intervention().to_query() == ""
    assert Intervention.from_query("off=enc.0.*", n_heads=3).off == (Head("enc", 0, 0), Head("enc", 0, 1),
                                                                      Head("enc", 0, 2))


@pytest.mark.parametrize("query", ["off=encoder.0.1", "off=enc.x.1", "method=shrink&off=enc.0.0", "pe=left",
                                   "causal=maybe", "shuffle=-1", "shuffle=abc", "off=enc.0.*"])
def test_a_bad_url_value_raises_a_value_error(query):
    with pytest.raises(ValueError):
        Intervention.from_query(query)


def test_an_experiment_builds_the_patches_it_describes():
    model, src, tgt = model_and_batch()
    spec = Intervention(off=(Head("enc", 0, 1),), pe="src", causal=False)
    patches = spec.patches(model.config)
    assert set(patches) == {"encoder.0.self_attn.context", "src.pos", "tgt.causal_mask"}
    trace = model.trace(src, tgt, patches=patches)
    assert torch.count_nonzero(trace["encoder.0.self_attn.context"][:, 1]) == 0
    assert torch.count_nonzero(trace["src.pos"]) == 0 and bool(trace["tgt.causal_mask"].all())
    assert Intervention().patches(model.config) == {}
    assert Intervention(shuffle=2).source_text("a b c") != "a b c"


# --- head importance ---------------------------------------------------------------------------------

def tiny_examples() -> list[Example]:
    return [Example([4, 5, 6, 2], [8, 9], [(0,), (1, 2)], "generated"),
            Example([5, 6, 7, 8, 2], [9, 10, 11], [(1,), (0,), ()], "generated"),
            Example([7, 2], [12], [(0,)], "real")]


def test_batched_ablations_score_like_evaluate_one_experiment_at_a_time():
    model, _, _ = model_and_batch()
    examples = tiny_examples()
    experiments = [Ablation("none", ()), *ablations(model.config)]
    assert len(experiments) == 1 + 3 * 2 * 2 + 3 * 2  # baseline, 12 heads, 6 layers
    batched = score_ablations(model, examples, experiments, batch_size=2, max_rows=5)
    for experiment, result in zip(experiments, batched, strict=True):
        alone = score(model, examples, 2, patches=switch_off(experiment.heads))
        assert result.exact_match == alone["exact_match"], experiment.id
        assert result.alignment_per_layer == pytest.approx(alone["per_layer"], nan_ok=True), experiment.id


def test_head_importance_table_has_every_head_and_layer_with_drops_from_the_baseline(tiny_loaded):
    result = head_importance(tiny_loaded, tiny_examples(), KO_EN, batch_size=2, max_rows=8)
    assert [r["id"] for r in result["heads"]] == [str(h) for h in all_heads(tiny_loaded.config)]
    assert [r["id"] for r in result["layers"]] == ["enc.0.*", "enc.1.*", "dec.0.*", "dec.1.*", "cross.0.*",
                                                   "cross.1.*"]
    base = result["baseline"]
    for row in result["heads"] + result["layers"]:
        assert row["exact_match_drop"] == pytest.approx(base["exact_match"] - row["exact_match"])
        assert row["alignment_drop"] == pytest.approx(base["alignment_accuracy"] - row["alignment_accuracy"])
    assert result["ranking"] == [r["id"] for r in rank(result["heads"])]
    drops = [(r["exact_match_drop"], r["alignment_drop"]) for r in rank(result["heads"])]
    assert drops == sorted(drops, key=lambda d: (-d[0], -d[1]))
    assert result["n"] == 2 and result["n_real"] == 1
    json.dumps(result)  # JSON-ready


def test_the_cli_writes_head_importance_json_into_the_model_directory(tiny_model_dir, tmp_path, capsys,
                                                                      monkeypatch):
    """The CLI plumbing on the tiny model (its vocabulary has no task sample: the sample is the hand-made one)."""
    from transformer_core.analysis import evaluate

    model_dir = tmp_path / "tiny"
    shutil.copytree(tiny_model_dir, model_dir)
    monkeypatch.setattr(evaluate, "examples_for", lambda loaded, task, n, seed, core=None: tiny_examples()[:n])
    assert evaluate.main([str(model_dir), "--head-importance", "--json", "--n", "2", "--task", "ko-en",
                          "--batch-size", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    written = json.loads((model_dir / "head_importance.json").read_text(encoding="utf-8"))
    assert printed == written
    assert written["n"] == 2 and written["task"] == "ko-en" and len(written["model_sha256"]) == 16
    assert [r["id"] for r in written["heads"]] == [str(h) for h in all_heads(tiny_config())]
    assert load_importance(model_dir)["stale"] is False
    (model_dir / "model.safetensors").write_bytes(b"other weights")
    assert load_importance(model_dir)["stale"] is True  # computed for other weights: the page says so
