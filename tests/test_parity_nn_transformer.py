"""The from-scratch core equals PyTorch's reference, nn.Transformer / nn.MultiheadAttention, at 1e-5.

The checks live in tests/parity_checks.py; tests/test_known_bugs.py runs the same checks with the
classic bugs put into the core (V projected with W_K, heads not transposed, /d_k, shifted causal
mask, inverted masks, Add & Norm in the wrong order, an assumed final LayerNorm) and sees each fail.
"""

from __future__ import annotations

import pytest
from torch import nn

from tests import parity_checks as checks
from transformer_core import Transformer, TransformerConfig
from transformer_core.io.interop import config_from_nn_transformer, load_nn_transformer_weights

VOCAB = checks.VOCAB
pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True:UserWarning")


CASES = [(norm_first, final_norm) for norm_first in (False, True) for final_norm in (False, True)]


@pytest.mark.parametrize("fused", [False, True], ids=["manual", "fused"])
@pytest.mark.parametrize("norm_first,final_norm", CASES, ids=[f"norm_first={a}-final_norm={b}" for a, b in CASES])
def test_encoder_and_decoder_stacks_equal_nn_transformer(norm_first, final_norm, fused):
    checks.check_stacks_equal_nn_transformer(norm_first, final_norm, fused)


def test_gelu_layers_equal_nn_transformer():
    checks.check_stacks_equal_nn_transformer(norm_first=False, final_norm=True, activation="gelu")


@pytest.mark.parametrize("norm_first", [False, True], ids=["post-LN", "pre-LN"])
def test_packed_qkv_inference_under_no_grad_equals_nn_transformer(norm_first):
    checks.check_packed_inference_equals_nn_transformer(norm_first)


@pytest.mark.parametrize("norm_first", [False, True], ids=["post-LN", "pre-LN"])
def test_every_head_of_every_layer_equals_nn_multihead_attention(norm_first):
    checks.check_heads_equal_nn_multihead_attention(norm_first)


def test_mask_helpers_convert_to_pytorchs_true_means_blocked():
    checks.check_masks_convert_to_pytorch_convention()


def test_reference_causal_mask_is_nn_transformers_own():
    """The parity checks' causal mask comes from nn.Transformer, not from the code under test."""
    assert checks.reference_blocked_future(3).tolist() == [[False, True, True], [False, False, True],
                                                           [False, False, False]]


def test_loading_rejects_a_module_of_another_shape():
    reference = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                               dim_feedforward=48, batch_first=True)
    wrong_layers = Transformer(TransformerConfig(src_vocab_size=VOCAB, tgt_vocab_size=VOCAB, d_model=32, n_heads=4,
                                                 n_encoder_layers=3, n_decoder_layers=2, d_ff=48))
    with pytest.raises(ValueError, match="layer counts"):
        load_nn_transformer_weights(wrong_layers, reference)
    wrong_width = Transformer(TransformerConfig(src_vocab_size=VOCAB, tgt_vocab_size=VOCAB, d_model=32, n_heads=4,
                                                n_encoder_layers=2, n_decoder_layers=2, d_ff=64, final_norm=True))
    with pytest.raises(ValueError, match="shape"):
        load_nn_transformer_weights(wrong_width, reference)


def test_loading_warns_when_final_norms_would_be_dropped():
    reference = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                               dim_feedforward=48, batch_first=True)
    model = Transformer(config_from_nn_transformer(reference, VOCAB, VOCAB, final_norm=False))
    with pytest.warns(UserWarning, match="final LayerNorms"):
        load_nn_transformer_weights(model, reference)
