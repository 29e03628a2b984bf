"""Facts about a model's weights that the lesson states with numbers: the embedding and output matrices,
whether they are one tied matrix (§3.4), and that cross-attention's K and V are the final encoder output
times W_K, W_V in every decoder layer (recomputed here from the weights and compared with the trace)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from transformer_core.tracing.names import ENCODER_OUT, AttentionKind, attention_name


@dataclass(frozen=True)
class ModelFacts:
    """What some steps need from the model's weights, read once when the data is built (the figures never
    touch the model): the embedding matrix, the output layer, and whether they are one tied matrix."""

    embedding: np.ndarray | None = None  # E [V, d] (unscaled)
    output_weight: np.ndarray | None = None  # the pre-softmax layer's weight [V, d]
    output_bias: np.ndarray | None = None  # [V]
    tied: bool = False  # the output layer's weight IS the embedding matrix (same storage)
    # per decoder layer: max |K_cross - split(memory W_K + b_K)| and the same for V (K, V from the final encoder output)
    cross_kv_error: tuple[float, ...] = ()


def model_facts(model, trace) -> ModelFacts:
    """Read the facts once from a loaded model and its trace (an encoder-only model has no output facts)."""
    token = getattr(getattr(model, "src", None), "token", None)
    if token is None:
        return ModelFacts()
    embedding = token.weight.detach().float().cpu().numpy()
    head = getattr(model, "lm_head", None)
    if head is None:
        return ModelFacts(embedding=embedding)
    errors = []
    memory = trace[ENCODER_OUT][0].detach().float().cpu()  # [S, D]: the final encoder output
    n_heads = model.config.n_heads
    with torch.no_grad():
        for layer, block in enumerate(model.decoder.layers):
            worst = 0.0
            for proj, tensor in ((block.cross_attn.w_k, "k"), (block.cross_attn.w_v, "v")):
                bias = None if proj.bias is None else proj.bias.detach().float().cpu()
                rebuilt = torch.nn.functional.linear(memory, proj.weight.detach().float().cpu(), bias)  # [S, D]
                split = rebuilt.view(memory.shape[0], n_heads, -1).transpose(0, 1)  # [H, S, d_k]
                recorded = trace[attention_name(AttentionKind.CROSS, layer, tensor)][0].detach().float().cpu()
                worst = max(worst, float((split - recorded).abs().max()))
            errors.append(worst)
    return ModelFacts(embedding=embedding, output_weight=head.weight.detach().float().cpu().numpy(),
                      output_bias=None if head.bias is None else head.bias.detach().float().cpu().numpy(),
                      tied=head.weight.data_ptr() == token.weight.data_ptr(), cross_kv_error=tuple(errors))
