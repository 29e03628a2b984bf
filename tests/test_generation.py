"""generation.py: the KV cache equals recomputation, and greedy / sampling / beam search do what they say."""

from __future__ import annotations

import copy
import math

import pytest
import torch

import transformer_core
from tests.beam_rule import documented_beam
from tests.conftest import tiny_config
from transformer_core import Transformer
from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import (
    DecodingSettings,
    generate,
    sampling_distributions,
    top_k_top_p_filter,
)
from transformer_core.tracing.names import AttentionKind, attention_name

CROSS = AttentionKind.CROSS

TOL = dict(atol=1e-5, rtol=1e-5)


def random_model(**overrides) -> Transformer:
    torch.manual_seed(0)
    values = dict(src_vocab_size=40, tgt_vocab_size=40)
    values.update(overrides)
    return Transformer(tiny_config(**values)).eval()


def padded_sources() -> torch.Tensor:
    return pad_batch([[4, 5, 6, 7, 2], [5, 6, 2], [9, 8, 7, 6, 5, 4, 2]], pad_id=0)


def assert_same_logits(cached: list[torch.Tensor], plain: list[torch.Tensor]) -> None:
    """Equal to 1e-5, relative to the step's largest logit when that exceeds 1: float32 carries ~7 digits,
    and untrained paper-base's logits reach ~300, where one float32 step is already 3e-5."""
    assert len(cached) == len(plain) > 0
    for step, (a, b) in enumerate(zip(cached, plain, strict=True)):
        scale = max(1.0, float(b.abs().max()))
        torch.testing.assert_close(a, b, atol=1e-5 * scale, rtol=0, msg=lambda m, step=step: f"step {step}: {m}")


def test_pad_batch_right_pads_with_the_given_id():
    assert pad_batch([[3, 4, 5], [6], []], pad_id=9).tolist() == [[3, 4, 5], [6, 9, 9], [9, 9, 9]]
    assert pad_batch([[1, 2]], pad_id=0).dtype == torch.long
    with pytest.raises(ValueError):
        pad_batch([], pad_id=0)


@pytest.mark.parametrize(("norm_first", "final_norm"), [(False, False), (True, True), (True, False), (False, True)])
def test_cached_greedy_output_and_step_logits_equal_recomputation(norm_first, final_norm):
    model = random_model(norm_first=norm_first, final_norm=final_norm)
    src = padded_sources()
    cached = generate(model, src, max_new_tokens=20, return_logits=True)
    plain = generate(model, src, max_new_tokens=20, return_logits=True, use_cache=False)
    assert torch.equal(cached.ids, plain.ids)
    assert_same_logits(cached.step_logits, plain.step_logits)
    # The unfused (manual) attention path gives the same numbers as well.
    model.fused_attention = False
    manual = generate(model, src, max_new_tokens=20, return_logits=True)
    assert torch.equal(manual.ids, plain.ids)
    assert_same_logits(manual.step_logits, plain.step_logits)


def test_a_padded_batch_decodes_each_source_as_if_alone():
    model = random_model()
    src = padded_sources()
    batched = generate(model, src, max_new_tokens=15)
    for row in range(src.shape[0]):
        alone = src[row: row + 1, : int((src[row] != 0).sum())]
        assert generate(model, alone, max_new_tokens=15).tokens(0) == batched.tokens(row)


def test_greedy_output_is_the_argmax_of_the_teacher_forced_logits_of_the_same_output():
    model = random_model(norm_first=True, final_norm=True)
    src = padded_sources()[:1]
    out = generate(model, src, max_new_tokens=12).ids
    logits = model(src, out[:, :-1])
    assert logits.argmax(-1).tolist() == out[:, 1:].tolist()


@pytest.mark.parametrize("name", ["ko-en-toy", "reverse", "paper-base"])
def test_every_bundled_model_decodes_the_same_with_and_without_the_cache(name):
    loaded = transformer_core.load(name)
    text = "안녕하세요, Seoul!" if name == "reverse" else "고양이가 생선을 먹는다."
    src = torch.tensor([loaded.tokenizer(text)["input_ids"]])
    steps = 4 if name == "paper-base" else 40  # paper-base is big and untrained: a few steps prove the point
    cached = generate(loaded.model, src, max_new_tokens=steps, return_logits=True)
    plain = generate(loaded.model, src, max_new_tokens=steps, return_logits=True, use_cache=False)
    assert torch.equal(cached.ids, plain.ids)
    assert_same_logits(cached.step_logits, plain.step_logits)
    if name == "paper-base":  # in float64 the two paths agree to 1e-5 absolute as well
        model64 = loaded.model.double()
        cached = generate(model64, src, max_new_tokens=steps, return_logits=True)
        plain = generate(model64, src, max_new_tokens=steps, return_logits=True, use_cache=False)
        for a, b in zip(cached.step_logits, plain.step_logits, strict=True):
            torch.testing.assert_close(a, b, atol=1e-5, rtol=0)
    if name == "reverse":  # trained: the output is the input reversed, whichever path made it
        assert loaded.tokenizer.decode(cached.tokens(0), skip_special_tokens=True) == text[::-1]


def test_the_cache_holds_exactly_the_keys_and_values_of_the_recorded_pass():
    model = random_model(norm_first=True, final_norm=True)
    src = padded_sources()
    out = generate(model, src, max_new_tokens=8).ids  # [B, 1+n]
    memory, src_mask = model.encode(src)
    cache = model.new_cache()
    trace = model.trace(src, out)
    with torch.no_grad():
        for t in range(out.shape[1]):
            model.decode(out[:, t: t + 1], memory, src_mask, project=False, cache=cache)
            assert cache.length == t + 1
            for i, layer in enumerate(cache.layers):
                assert layer.self_attn.k.shape[2] == t + 1  # one row per step
                recorded_k = trace[attention_name("decoder.self_attn", i, "k")][:, :, : t + 1]  # [B,H,t+1,d_k]
                recorded_v = trace[attention_name("decoder.self_attn", i, "v")][:, :, : t + 1]
                torch.testing.assert_close(layer.self_attn.k, recorded_k, **TOL)
                torch.testing.assert_close(layer.self_attn.v, recorded_v, **TOL)
                # Cross-attention K/V: projected from the memory once, the same rows as the recorded pass.
                torch.testing.assert_close(layer.cross_attn.k, trace[attention_name(CROSS, i, "k")], **TOL)
                torch.testing.assert_close(layer.cross_attn.v, trace[attention_name(CROSS, i, "v")], **TOL)


def test_the_cross_attention_keys_are_computed_once():
    model = random_model()
    src = padded_sources()
    memory, src_mask = model.encode(src)
    cache = model.new_cache()
    calls = []
    handle = model.decoder.layers[0].cross_attn.w_k.register_forward_hook(lambda *args: calls.append(1))
    try:
        with torch.no_grad():
            for t in range(5):
                model.decode(torch.full((3, 1), 1 if t == 0 else 7), memory, src_mask, project=False, cache=cache)
    finally:
        handle.remove()
    assert len(calls) == 1


def test_greedy_decode_keeps_its_signature_and_offers_recomputation():
    model = random_model()
    src = padded_sources()
    out = generate(model, src, max_new_tokens=10).ids
    assert out[:, 0].tolist() == [model.config.bos_token_id] * 3
    assert torch.equal(out, generate(model, src, None, max_new_tokens=10, use_cache=False).ids)


def test_generation_stops_at_the_length_limit_and_says_so():
    model = random_model()
    with torch.no_grad():
        model.lm_head.bias.fill_(0.0)
        model.lm_head.bias[7] = 1e4  # never EOS
    result = generate(model, padded_sources()[:1])
    assert result.ids.shape[1] == model.config.max_len and result.reached_limit == [True]
    with torch.no_grad():
        model.lm_head.bias[model.config.eos_token_id] = 2e4  # always EOS
    result = generate(model, padded_sources()[:1])
    assert result.ids.tolist() == [[1, 2]] and result.reached_limit == [False]


# --- beam search ---------------------------------------------------------------------------------

@pytest.mark.parametrize("use_cache", [True, False])
def test_beam_search_of_width_one_is_greedy(use_cache):
    model = random_model(norm_first=True, final_norm=True)
    src = padded_sources()
    greedy = generate(model, src, max_new_tokens=20)
    beam = generate(model, src, strategy="beam", beam_width=1, max_new_tokens=20, use_cache=use_cache)
    assert torch.equal(beam.ids, greedy.ids)


def test_beam_search_is_the_same_with_and_without_the_cache():
    model = random_model()
    src = padded_sources()
    cached = generate(model, src, strategy="beam", beam_width=4, length_penalty=0.6, max_new_tokens=20)
    plain = generate(model, src, strategy="beam", beam_width=4, length_penalty=0.6, max_new_tokens=20,
                     use_cache=False)
    assert torch.equal(cached.ids, plain.ids)
    assert cached.beam_scores == pytest.approx(plain.beam_scores, abs=1e-5)


@pytest.mark.parametrize("length_penalty", [0.0, 1.0])
def test_a_beam_score_is_the_log_probability_of_its_output_over_length_to_the_penalty(length_penalty):
    model = random_model()
    with torch.no_grad():
        model.lm_head.bias[model.config.eos_token_id] += 3.0  # finish within the limit
    src = padded_sources()
    result = generate(model, src, strategy="beam", beam_width=3, length_penalty=length_penalty, length_rule="power",
                      max_new_tokens=30)
    for row in range(src.shape[0]):
        tokens = [*result.tokens(row), model.config.eos_token_id]
        tgt = torch.tensor([[model.config.bos_token_id, *tokens[:-1]]])
        with torch.no_grad():
            log_probs = torch.log_softmax(model(src[row: row + 1], tgt)[0], dim=-1)  # [T,V], teacher-forced
        total = sum(float(log_probs[t, token]) for t, token in enumerate(tokens))
        assert result.beam_scores[row] == pytest.approx(total / len(tokens) ** length_penalty, abs=1e-4)


def test_beam_search_by_default_is_the_papers_width_4_and_gnmts_length_penalty_at_alpha_0_6():
    model = random_model()
    with torch.no_grad():
        model.lm_head.bias[model.config.eos_token_id] += 3.0  # finish within the limit
    src = padded_sources()
    result = generate(model, src, strategy="beam", max_new_tokens=30)
    assert (result.settings.beam_width, result.settings.length_penalty, result.settings.length_rule) == (4, 0.6,
                                                                                                          "gnmt")
    for row in range(src.shape[0]):
        tokens = [*result.tokens(row), model.config.eos_token_id]
        tgt = torch.tensor([[model.config.bos_token_id, *tokens[:-1]]])
        with torch.no_grad():
            log_probs = torch.log_softmax(model(src[row: row + 1], tgt)[0], dim=-1)  # [T,V], teacher-forced
        total = sum(float(log_probs[t, token]) for t, token in enumerate(tokens))
        gnmt = ((5 + len(tokens)) / 6) ** 0.6  # Wu et al. 2016, eq. 14, as the paper's section 6.1 uses it
        assert result.beam_scores[row] == pytest.approx(total / gnmt, abs=1e-4)
    with pytest.raises(ValueError, match="length rule"):
        generate(model, src, strategy="beam", length_rule="average")


def test_a_wider_beam_scores_at_least_as_well_as_greedy_on_summed_log_probability():
    model = random_model()
    with torch.no_grad():
        model.lm_head.bias[model.config.eos_token_id] += 3.0
    src = padded_sources()
    one = generate(model, src, strategy="beam", beam_width=1, length_penalty=0.0, max_new_tokens=30)
    four = generate(model, src, strategy="beam", beam_width=8, length_penalty=0.0, max_new_tokens=30)
    for a, b in zip(one.beam_scores, four.beam_scores, strict=True):
        assert b >= a - 1e-5


def test_beam_records_form_a_tree_with_pruned_candidates():
    model = random_model()
    result = generate(model, padded_sources()[:1], strategy="beam", beam_width=3, max_new_tokens=6)
    steps = result.beam_steps[0]
    assert steps, "no beam steps recorded"
    for t, candidates in enumerate(steps):
        alive = [c for c in candidates if c.status == "alive"]
        assert len(alive) <= 3 and [c.slot for c in alive] == list(range(len(alive)))
        assert any(c.status == "pruned" for c in candidates)
        parents_alive = 1 if t == 0 else sum(c.status == "alive" for c in steps[t - 1])
        assert all(0 <= c.parent < parents_alive for c in candidates)
        assert [c.log_prob for c in candidates] == sorted((c.log_prob for c in candidates), reverse=True)


def test_beam_width_outside_one_to_eight_is_refused():
    model = random_model()
    for width in (0, 9):
        with pytest.raises(ValueError, match="beam width"):
            generate(model, padded_sources(), strategy="beam", beam_width=width)


# --- sampling ----------------------------------------------------------------------------------------

def test_sampling_with_a_seed_is_reproducible_and_seeds_differ():
    model = random_model()
    src = padded_sources()
    first = generate(model, src, strategy="sample", seed=3, max_new_tokens=15)
    again = generate(model, src, strategy="sample", seed=3, max_new_tokens=15)
    assert torch.equal(first.ids, again.ids)
    others = [generate(model, src, strategy="sample", seed=s, max_new_tokens=15).ids for s in range(4, 8)]
    assert any(not torch.equal(first.ids[:, :o.shape[1]], o[:, :first.ids.shape[1]]) for o in others)


def test_sampling_is_the_same_with_and_without_the_cache():
    model = random_model()
    src = padded_sources()
    kwargs = dict(strategy="sample", seed=5, temperature=0.8, top_k=10, top_p=0.9, max_new_tokens=15)
    assert torch.equal(generate(model, src, **kwargs).ids, generate(model, src, use_cache=False, **kwargs).ids)


@pytest.mark.parametrize("settings", [dict(temperature=0.0), dict(temperature=1e-6), dict(top_k=1),
                                      dict(top_p=1e-9)])
def test_sampling_that_leaves_one_choice_is_greedy(settings):
    model = random_model()
    src = padded_sources()
    greedy = generate(model, src, max_new_tokens=20)
    sampled = generate(model, src, strategy="sample", seed=11, max_new_tokens=20, **settings)
    assert torch.equal(sampled.ids, greedy.ids)


def test_every_sampled_token_lies_within_the_top_k_of_its_step():
    model = random_model()
    src = padded_sources()[:1]
    result = generate(model, src, strategy="sample", seed=2, top_k=3, max_new_tokens=20)
    out = result.ids
    logits = model(src, out[:, :-1])[0]  # [T,V] teacher-forced over the sample
    for t, token in enumerate(out[0, 1:].tolist()):
        assert token in torch.topk(logits[t], 3).indices.tolist()


def test_the_top_p_cut_keeps_the_smallest_set_reaching_p():
    probs = torch.tensor([0.05, 0.5, 0.15, 0.3])
    logits = probs.log()

    def kept(p):
        return set(torch.nonzero(torch.isfinite(top_k_top_p_filter(logits, top_p=p))).flatten().tolist())

    assert kept(0.4) == {1}  # the most probable alone already reaches 0.4
    assert kept(0.7) == {1, 3}  # 0.5 + 0.3 = 0.8 >= 0.7
    assert kept(0.8) == {1, 3}  # reaching p exactly is enough
    assert kept(0.81) == {1, 3, 2}
    assert kept(0.99) == {0, 1, 2, 3}
    assert set(torch.nonzero(torch.isfinite(top_k_top_p_filter(logits, top_k=2))).flatten().tolist()) == {1, 3}


def test_sampling_distributions_show_temperature_then_the_renormalised_cut():
    logits = torch.tensor([2.0, 1.0, 0.0, -1.0])
    view = sampling_distributions(logits, temperature=2.0, top_k=2)
    torch.testing.assert_close(view.raw, torch.softmax(logits, -1))
    torch.testing.assert_close(view.tempered, torch.softmax(logits / 2, -1))
    expected = torch.softmax(torch.tensor([1.0, 0.5]), -1)
    torch.testing.assert_close(view.cut, torch.tensor([expected[0], expected[1], 0.0, 0.0]))
    assert math.isclose(float(view.cut.sum()), 1.0, rel_tol=1e-6)
    greedy = sampling_distributions(logits, temperature=0.0)
    assert greedy.cut.tolist() == [1.0, 0.0, 0.0, 0.0]


def test_decoding_settings_pass_only_the_strategys_knobs():
    assert DecodingSettings().kwargs() == {"strategy": "greedy"}
    assert DecodingSettings("beam", beam_width=2).kwargs() == {"strategy": "beam", "beam_width": 2,
                                                               "length_penalty": 0.6, "length_rule": "gnmt"}
    assert DecodingSettings("sample", top_k=5).kwargs()["top_k"] == 5
    with pytest.raises(ValueError, match="strategy"):
        generate(random_model(), padded_sources(), strategy="nucleus")


# --- patches -------------------------------------------------------------------------------------------

def no_causal_mask(mask: torch.Tensor) -> torch.Tensor:
    return torch.ones_like(mask)


@pytest.mark.parametrize("strategy", ["greedy", "beam", "sample"])
def test_patched_decoding_equals_the_cached_decoding_of_the_model_the_patch_stands_for(strategy):
    """Two different paths: the patched one recomputes the prefix with hooks; the surgery model (W_O's
    input columns of the switched-off heads zeroed) decodes unpatched with the KV cache."""
    model = random_model()
    src = padded_sources()
    heads = {"decoder.0.self_attn": 1, "decoder.1.cross_attn": 0}

    def zero_head(head: int):
        return lambda context: context.index_fill(1, torch.tensor([head]), 0.0)  # [B,H,T,d_k]

    patches = {f"{name}.context": zero_head(h) for name, h in heads.items()}
    surgery = copy.deepcopy(model)
    d_k = model.config.d_k
    with torch.no_grad():
        for name, h in heads.items():
            _, layer, attn = name.split(".")
            getattr(surgery.decoder.layers[int(layer)], attn).w_o.weight[:, h * d_k:(h + 1) * d_k] = 0
    kwargs = dict(strategy=strategy, seed=1, beam_width=3, max_new_tokens=12, return_logits=True)
    patched = generate(model, src, patches=patches, **kwargs)
    cached = generate(surgery, src, use_cache=True, **kwargs)
    plain = generate(model, src, **kwargs)
    assert torch.equal(patched.ids, cached.ids)
    if strategy == "beam":
        assert patched.beam_scores == pytest.approx(cached.beam_scores, abs=1e-5)
        assert patched.beam_scores != pytest.approx(plain.beam_scores, abs=1e-3)  # the patch acted
    else:
        assert_same_logits(patched.step_logits, cached.step_logits)
        assert not torch.allclose(patched.step_logits[0], plain.step_logits[0], atol=1e-3)  # the patch acted


def test_patched_beam_search_follows_the_documented_rule_over_patched_passes_of_each_prefix():
    """A whole-prefix patch (no causal mask): every beam step's log-probabilities must be those of a
    patched teacher-forced pass over that hypothesis's prefix; the rule is written out in tests/beam_rule.py."""
    model = random_model()
    src = padded_sources()
    patches = {"tgt.causal_mask": no_causal_mask}
    eos, bos, vocab = model.config.eos_token_id, model.config.bos_token_id, model.config.tgt_vocab_size
    result = generate(model, src, strategy="beam", beam_width=3, length_penalty=1.0, max_new_tokens=8,
                      patches=patches)
    plain = generate(model, src, strategy="beam", beam_width=3, length_penalty=1.0, max_new_tokens=8)
    assert result.beam_scores != pytest.approx(plain.beam_scores, abs=1e-3)  # the patch acted
    for row in range(src.shape[0]):
        source = src[row: row + 1, : int((src[row] != 0).sum())]

        def next_log_probs(prefix, source=source):
            with torch.no_grad():
                logits = model(source, torch.tensor([[bos, *prefix]]), patches=patches)[0, -1]
            return dict(enumerate(torch.log_softmax(logits.double(), -1).tolist()))

        expected, _, _ = documented_beam(next_log_probs, range(vocab), eos, 8, 3, lambda lp, n: lp / n)
        ids = result.ids[row, 1:].tolist()
        assert tuple(ids[: ids.index(eos) + 1] if eos in ids else ids) == expected


def test_patched_sampling_draws_from_patched_passes_of_each_prefix():
    """A whole-prefix patch: each step draws one token per source from softmax(logits / T) of a patched
    teacher-forced pass over the prefix, with the seeded generator (a loop written here)."""
    model = random_model()
    src = padded_sources()
    patches = {"tgt.causal_mask": no_causal_mask}
    eos, pad = model.config.eos_token_id, model.config.pad_token_id
    result = generate(model, src, strategy="sample", temperature=0.8, seed=5, max_new_tokens=10, patches=patches,
                      return_logits=True)
    generator = torch.Generator().manual_seed(5)
    out = torch.full((src.shape[0], 1), model.config.bos_token_id)
    done = torch.zeros(src.shape[0], dtype=torch.bool)
    for _ in range(10):
        with torch.no_grad():
            logits = model(src, out, patches=patches)[:, -1]  # [B,V], every position recomputed
        token = torch.multinomial(torch.softmax(logits / 0.8, -1), 1, generator=generator)[:, 0]
        token = torch.where(done, torch.full_like(token, pad), token)
        out = torch.cat([out, token[:, None]], 1)
        done |= token == eos
        if done.all():
            break
    assert torch.equal(result.ids, out)
    unpatched = generate(model, src, strategy="sample", temperature=0.8, seed=5, max_new_tokens=10,
                         return_logits=True)
    assert not torch.allclose(result.step_logits[1], unpatched.step_logits[1], atol=1e-3)  # the patch acted


def test_the_causal_mask_patch_changes_what_greedy_decoding_produces():
    model = random_model()
    src = padded_sources()
    plain = generate(model, src, max_new_tokens=12, return_logits=True)
    patched = generate(model, src, max_new_tokens=12, return_logits=True, patches={"tgt.causal_mask": no_causal_mask})
    # Step 0 has one position, so nothing to unmask; from step 1 on the logits must differ somewhere.
    torch.testing.assert_close(patched.step_logits[0], plain.step_logits[0], **TOL)
    assert any(not torch.allclose(a, b, atol=1e-4) for a, b in zip(patched.step_logits[1:], plain.step_logits[1:],
                                                                    strict=False))


def test_trace_text_records_one_pass_over_the_chosen_strategys_output(tiny_loaded):
    settings = DecodingSettings("beam", beam_width=3)
    traced = transformer_core.trace_text(tiny_loaded, "고양이가 생선을 먹는다.", decoding=settings)
    src = traced.trace["src.ids"]
    beam = generate(tiny_loaded.model, src, strategy="beam", beam_width=3)
    assert traced.trace["tgt.ids"][0].tolist() == [tiny_loaded.config.bos_token_id, *beam.tokens(0)]
    assert traced.generation is not None and traced.generation.beam_steps
    chosen = traced.chosen_tokens
    assert chosen[:-1] == traced.tgt_tokens[1:] and len(chosen) == len(traced.tgt_tokens)
    assert chosen[-1] == ("" if traced.reached_limit else "</s>")


def test_trace_text_decodes_up_to_the_models_length_limit_and_says_when_it_got_there(tiny_loaded):
    model = tiny_loaded.model
    with torch.no_grad():
        saved = model.lm_head.bias.clone()
        model.lm_head.bias[model.config.eos_token_id] = -1e4  # never EOS
    try:
        traced = transformer_core.trace_text(tiny_loaded, "고양이가 생선을 먹는다.")
    finally:
        with torch.no_grad():
            model.lm_head.bias.copy_(saved)
    assert traced.reached_limit and len(traced.tgt_tokens) == model.config.max_len  # BOS + max_len - 1 tokens
    assert traced.chosen_tokens[-1] == ""
    greedy = transformer_core.trace_text(tiny_loaded, "고양이가 생선을 먹는다.")
    assert greedy.chosen_tokens[:-1] == greedy.predicted_tokens[:-1]


def test_a_patch_on_the_logits_sees_every_position_as_in_the_recorded_pass():
    model = random_model()
    src = padded_sources()[:1]
    eos = model.config.eos_token_id

    def end_at_position_two(logits: torch.Tensor) -> torch.Tensor:  # [B,T,V]: only row 2 is touched
        out = logits.clone()
        if out.shape[1] > 2:
            out[:, 2, eos] += 1e4
        return out

    patches = {"logits": end_at_position_two}
    ids = generate(model, src, max_new_tokens=20, patches=patches).ids
    assert ids.shape[1] == 4 and int(ids[0, 3]) == eos  # BOS, two tokens, EOS predicted by row 2
    recorded = model.trace(src, ids[:, :-1], patches=patches)
    assert recorded["logits"][0].argmax(-1).tolist() == ids[0, 1:].tolist()


@pytest.mark.parametrize("strategy", ["greedy", "beam"])
def test_progress_is_reported_after_every_step(strategy):
    model = random_model()
    seen = []
    result = generate(model, padded_sources(), strategy=strategy, beam_width=2, max_new_tokens=9,
                      progress=lambda step, limit: seen.append((step, limit)))
    assert seen == [(i, 9) for i in range(1, len(seen) + 1)]
    assert len(seen) >= result.ids.shape[1] - 1


def never_ending(tiny_model_dir, trained: bool = True):
    """The tiny model's tokenizer with a random max_len-128 model that never says EOS."""
    from dataclasses import replace

    loaded = transformer_core.load(tiny_model_dir)
    torch.manual_seed(1)
    model = Transformer(tiny_config(max_len=128)).eval()
    with torch.no_grad():
        model.lm_head.bias[model.config.eos_token_id] = -1e4  # never EOS
    return replace(loaded, model=model, config=model.config, trained=trained)


def test_trace_text_stops_at_the_papers_limit_of_input_length_plus_50(tiny_model_dir):
    """Vaswani et al. 6.1: maximum output length = input length + 50 (within max_len)."""
    from transformer_core.inference.generation import output_limit

    long_loaded = never_ending(tiny_model_dir)
    model = long_loaded.model
    traced = transformer_core.trace_text(long_loaded, "고양이가 생선을 먹는다.")
    n_src = len(traced.src_tokens)
    assert len(traced.tgt_tokens) == 1 + n_src + 50 < model.config.max_len  # BOS + input length + 50
    assert traced.reached_limit
    assert output_limit(long_loaded, 100) == 127 and output_limit(long_loaded, 3) == 53
    assert traced.limit_rule == "paper"


def test_an_untrained_model_stops_after_50_new_tokens_whatever_the_input_length(tiny_model_dir):
    """Random weights never say EOS: the paper's input length + 50 would run a long input's noise to max_len."""
    text = "고양이가 생선을 먹는다. " * 25
    trained = transformer_core.trace_text(never_ending(tiny_model_dir), text)
    untrained = transformer_core.trace_text(never_ending(tiny_model_dir, trained=False), text)
    n_src = len(trained.src_tokens)
    assert n_src + 50 > 127 and len(trained.tgt_tokens) == 128  # the paper's limit, cut at max_len: BOS + 127
    assert len(untrained.tgt_tokens) == 1 + 50 and untrained.reached_limit and untrained.limit_rule == "untrained"


def test_the_corpus_and_sampling_stop_an_untrained_model_where_trace_text_does(tiny_model_dir):
    """One limit for every decoder of the app: the corpus page and the sampling draws too, not /decoder alone."""
    from transformer_core.analysis.calibration import sample_texts
    from transformer_core.analysis.heads import text_corpus

    text = "고양이가 생선을 먹는다. " * 25
    untrained = never_ending(tiny_model_dir, trained=False)
    (item,) = text_corpus(untrained, [text]).items
    assert len(item.decoder_ids) == 1 + 50  # BOS + 50
    (draw,) = sample_texts(untrained, text, draws=1)
    assert len(draw.split()) <= 50  # each new token writes at most one word
    (trained_item,) = text_corpus(never_ending(tiny_model_dir), [text]).items
    assert len(trained_item.decoder_ids) == 128  # the paper's limit, cut at max_len: BOS + 127


def test_both_models_implement_the_decoding_protocol_and_the_models_do_not_import_generation():
    """generate drives a model only through `Decodable`; the model modules never import generation."""
    import ast
    from pathlib import Path

    import transformer_core.models.rnn
    import transformer_core.models.transformer
    from tests.test_rnn import tiny_rnn
    from transformer_core.inference.generation import Decodable, DecodingState

    for model in (random_model(), tiny_rnn()):
        assert isinstance(model, Decodable)
        memory, src_mask = model.encode(padded_sources())
        state = model.start_decoding(memory, src_mask)
        assert isinstance(state, DecodingState)
        prefix = torch.full((3, 1), model.config.bos_token_id)
        # One step through the protocol predicts what a teacher-forced pass over BOS predicts.
        torch.testing.assert_close(state(prefix), model(padded_sources(), prefix)[:, -1], **TOL)
        assert not hasattr(model, "greedy_decode") and not hasattr(model, "_patched")
    for module in (transformer_core.models.transformer, transformer_core.models.rnn):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not any("generation" in name for name in imported), (module.__name__, imported)
