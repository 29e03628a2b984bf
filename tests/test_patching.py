"""The core patching API (hooks.patching via `patches=`): identity patches change nothing, bad patches
fail loudly naming their hook, and a patch equals the weight surgery it stands for."""

from __future__ import annotations

import copy

import pytest
import torch

from tests.conftest import tiny_config
from transformer_core import Transformer, generate, trace_text
from transformer_core.analysis.head_patches import remove_positional_encoding, switch_off
from transformer_core.tracing.names import Head, attention_name


def model_and_batch(**overrides):
    torch.manual_seed(0)
    model = Transformer(tiny_config(**overrides)).eval()
    src = torch.tensor([[4, 5, 6, 7, 2], [5, 6, 2, 0, 0]])
    tgt = torch.tensor([[1, 8, 9, 10, 11], [1, 9, 10, 0, 0]])
    return model, src, tgt


def every_hook_identity(model) -> dict:
    return {name: (lambda x: x) for name in model.hook_names if name not in model.RECORD_ONLY_HOOKS}


@pytest.mark.parametrize("norm_first", [False, True])
def test_identity_patches_at_every_hook_give_the_unpatched_outputs_bit_for_bit(norm_first):
    model, src, tgt = model_and_batch(norm_first=norm_first)
    plain = model.trace(src, tgt)
    patched = model.trace(src, tgt, patches=every_hook_identity(model))
    assert list(plain) == list(patched)
    for name in plain:
        assert torch.equal(plain[name], patched[name]), name
    # Unrecorded passes may take the fused kernel, patched ones never do (every hook must run); the fused
    # kernel is tested equal to the manual path at 1e-6 elsewhere, bit-identity is asked of the manual path.
    model.fused_attention = False
    with torch.no_grad():
        assert torch.equal(model(src, tgt), model(src, tgt, patches=every_hook_identity(model)))
    assert torch.equal(generate(model, src, max_new_tokens=6).ids,
                       generate(model, src, max_new_tokens=6, patches=every_hook_identity(model)).ids)


def test_an_unknown_hook_name_raises_a_value_error_naming_it():
    model, src, tgt = model_and_batch()
    with pytest.raises(ValueError, match=r"encoder\.7\.self_attn\.weights"):
        model.trace(src, tgt, patches={"encoder.7.self_attn.weights": lambda x: x})
    with pytest.raises(ValueError, match="did you mean"):
        model(src, tgt, patches={"encoder.0.self_attn.weight": lambda x: x})


def test_a_record_only_hook_cannot_be_patched():
    model, src, tgt = model_and_batch()
    with pytest.raises(ValueError, match=r"src\.ids"):
        model(src, tgt, patches={"src.ids": lambda x: x})


def test_a_patch_returning_the_wrong_shape_raises_a_value_error_naming_the_hook():
    model, src, tgt = model_and_batch()
    with pytest.raises(ValueError, match=r"decoder\.1\.cross_attn\.weights"):
        model.trace(src, tgt, patches={"decoder.1.cross_attn.weights": lambda w: w[..., :-1]})
    with pytest.raises(ValueError, match=r"src\.pos.*not a tensor"):
        model(src, tgt, patches={"src.pos": lambda x: 0})


def test_the_trace_records_the_patched_value_and_downstream_tensors_change():
    model, src, tgt = model_and_batch()
    plain = model.trace(src, tgt)
    patched = model.trace(src, tgt, patches={"encoder.0.self_attn.context": torch.zeros_like})
    assert torch.count_nonzero(patched["encoder.0.self_attn.context"]) == 0
    assert torch.equal(plain["encoder.0.self_attn.q"], patched["encoder.0.self_attn.q"])  # upstream: untouched
    assert not torch.allclose(plain["logits"], patched["logits"])  # downstream: changed


@pytest.mark.parametrize("kind, layer", [("encoder.self_attn", 1), ("decoder.self_attn", 0), ("decoder.cross_attn", 1)])
def test_zeroing_one_heads_context_equals_zeroing_its_input_columns_of_w_o(kind, layer):
    """Independent computation: a copy of the model whose W_O ignores head h (its d_k input columns zero)."""
    model, src, tgt = model_and_batch()
    head, d_k = 1, model.config.d_k

    def zero_head(context: torch.Tensor) -> torch.Tensor:  # [B,H,T,d_k]
        out = context.clone()
        out[:, head] = 0
        return out

    with torch.no_grad():
        patched = model(src, tgt, patches={attention_name(kind, layer, "context"): zero_head})
        surgery = copy.deepcopy(model)
        stack, attn = kind.split(".")  # the module path: model.<stack>.layers[layer].<attn>
        module = getattr(getattr(surgery, stack).layers[layer], attn)
        module.w_o.weight[:, head * d_k:(head + 1) * d_k] = 0
        expected = surgery(src, tgt)
    torch.testing.assert_close(patched, expected, atol=1e-6, rtol=0)


def test_zeroing_the_positional_encoding_equals_a_model_whose_pe_buffer_is_zero():
    model, src, tgt = model_and_batch()
    with torch.no_grad():
        patched = model(src, tgt, patches={"src.pos": torch.zeros_like, "tgt.pos": torch.zeros_like})
        surgery = copy.deepcopy(model)
        surgery.src.position.pe.zero_()
        surgery.tgt.position.pe.zero_()
        expected = surgery(src, tgt)
    torch.testing.assert_close(patched, expected, atol=1e-6, rtol=0)


def surgery_copy(model, kind: str, head: int, how: str, mean: torch.Tensor | None = None):
    """A copy of `model` whose weights do what switching head `head` of `kind` off by `how` does:
    zero: W_O's d_k input columns of the head are zero (in the app's notation, rows of W^O);
    mean: those columns zero and W_O's bias gains their product with the head's mean context;
    uniform: the head's W_Q rows and bias are zero, so every score is 0 and the softmax is uniform
    over the allowed keys."""
    d_k = model.config.d_k
    cols = slice(head * d_k, (head + 1) * d_k)
    surgery = copy.deepcopy(model)
    stack, layer, attn = kind.split(".")
    module = getattr(getattr(surgery, stack).layers[int(layer)], attn)
    with torch.no_grad():
        if how == "uniform":
            module.w_q.weight[cols] = 0
            module.w_q.bias[cols] = 0
        else:
            if how == "mean":
                module.w_o.bias += module.w_o.weight[:, cols] @ mean
            module.w_o.weight[:, cols] = 0
    return surgery


KIND_OF = {"encoder.1.self_attn": "enc.1", "decoder.0.self_attn": "dec.0", "decoder.1.cross_attn": "cross.1"}


@pytest.mark.parametrize("how", ["zero", "mean", "uniform"])
@pytest.mark.parametrize("kind", list(KIND_OF))
def test_the_shipped_switch_off_equals_weight_surgery(kind, how):
    """The What-if page and head importance call `switch_off`; here it is checked against weights."""
    model, src, tgt = model_and_batch()
    head = 1
    torch.manual_seed(1)
    means = {f"{kind}.context": torch.randn(model.config.n_heads, model.config.d_k)}  # any [H, d_k] will do
    patches = switch_off([Head.parse(f"{KIND_OF[kind]}.{head}")], how, means=means)
    with torch.no_grad():
        patched = model(src, tgt, patches=patches)
        expected = surgery_copy(model, kind, head, how, means[f"{kind}.context"][head])(src, tgt)
        plain = model(src, tgt)
    torch.testing.assert_close(patched, expected, atol=1e-5, rtol=0)
    assert not torch.allclose(patched, plain, atol=1e-3)  # the switch did something


@pytest.mark.parametrize("side", ["src", "tgt", "both"])
def test_removing_positional_encoding_on_one_side_equals_a_model_whose_pe_buffer_is_zero_on_that_side(side):
    model, src, tgt = model_and_batch()
    surgery = copy.deepcopy(model)
    for name in {"src": ["src"], "tgt": ["tgt"], "both": ["src", "tgt"]}[side]:
        getattr(surgery, name).position.pe.zero_()
    with torch.no_grad():
        patched = model(src, tgt, patches=remove_positional_encoding(side))
        expected = surgery(src, tgt)
        plain = model(src, tgt)
    torch.testing.assert_close(patched, expected, atol=1e-6, rtol=0)
    assert not torch.allclose(patched, plain, atol=1e-3)
    # Decoding too: the patched decoding is the surgery model's (decoded unpatched, with its cache).
    patched_ids = generate(model, src, max_new_tokens=8, patches=remove_positional_encoding(side),
                           return_logits=True)
    surgery_ids = generate(surgery, src, max_new_tokens=8, return_logits=True)
    assert torch.equal(patched_ids.ids, surgery_ids.ids)
    for a, b in zip(patched_ids.step_logits, surgery_ids.step_logits, strict=True):
        torch.testing.assert_close(a, b, atol=1e-5, rtol=0)


def test_patches_act_in_decoding_and_in_the_recorded_pass_of_trace_text(tiny_loaded):
    cat = tiny_loaded.tokenizer.convert_tokens_to_ids("cat")

    def favour_cat(logits: torch.Tensor) -> torch.Tensor:  # [B,T,V]
        return logits + 5.0 * torch.nn.functional.one_hot(torch.tensor(cat), logits.shape[-1])

    plain = trace_text(tiny_loaded, "고양이가 생선을 먹는다", max_new_tokens=6)
    patches = {"decoder.1.cross_attn.weights": lambda w: torch.full_like(w, 1.0 / w.shape[-1]), "logits": favour_cat}
    patched = trace_text(tiny_loaded, "고양이가 생선을 먹는다", max_new_tokens=6, patches=patches)
    weights = patched.trace["decoder.1.cross_attn.weights"]
    torch.testing.assert_close(weights, torch.full_like(weights, 1.0 / weights.shape[-1]))
    # The recorded pass is over the PATCHED decoding's output: its argmax reproduces that output.
    assert patched.predicted_tokens[:-1] == patched.tgt_tokens[1:]
    assert plain.trace["decoder.1.cross_attn.weights"].shape[-1] == weights.shape[-1]
    # Decoding was patched: the output changed, and it is what a model with the same edits in its
    # weights decodes (layer 1's cross-attention W_Q zero: every score 0, so every source token weighted
    # 1/S; the output bias of 'cat' raised by 5), unpatched, with its KV cache.
    assert "cat" in patched.tgt_tokens and "cat" not in plain.tgt_tokens
    surgery = copy.deepcopy(tiny_loaded.model)
    with torch.no_grad():
        surgery.decoder.layers[1].cross_attn.w_q.weight.zero_()
        surgery.decoder.layers[1].cross_attn.w_q.bias.zero_()
        surgery.lm_head.bias[cat] += 5.0
    expected = generate(surgery, patched.trace["src.ids"], max_new_tokens=6)
    assert patched.trace["tgt.ids"][0].tolist() == expected.ids[0, : patched.trace["tgt.ids"].shape[1]].tolist()
