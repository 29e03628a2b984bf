"""The Transformer of "Attention Is All You Need" (Vaswani et al., 2017), written out by hand.

Read top-down: `Transformer` -> `Encoder` / `Decoder` -> layers -> `MultiHeadAttention`,
`FeedForward`, `InputEmbedding`, `SinusoidalPositionalEncoding`.

Every intermediate worth looking at passes through an identity `HookPoint`. `Transformer.trace`
records them into a `Trace`; otherwise the hooks cost nothing and attention may take the fused
`F.scaled_dot_product_attention` kernel (tested equal to the manual path).

Masks are boolean, True = may attend (see masks.py).

Trace names (B batch, S source length, T target length, H heads, D d_model, d_k = D / H),
in recording order:

    src.ids [B,S]  src.mask [B,S] (True = real token)  src.embed [B,S,D] (token embedding, x sqrt(D)
    when scale_embedding)  src.pos [S,D]  [src.token_type [B,S,D], BERT only]  src.input [B,S,D]
    encoder.{i}.in [B,S,D]
      .self_attn.q|k|v [B,H,S,d_k]  .self_attn.scores [B,H,S,S] (QK^T / sqrt(d_k), before the mask)
      .self_attn.masked_scores [B,H,S,S] (scores with blocked positions set to -inf)
      .self_attn.weights [B,H,S,S] (softmax; rows with no allowed key are all zero)
      .self_attn.context [B,H,S,d_k] (weights @ V)  .self_attn.out [B,S,D] (concat heads, W_O)
      .add1 [B,S,D]  residual sum after attention: x + dropout(attn)
      .norm1 [B,S,D] LayerNorm output of that sublayer. post-LN: norm(add1), the next sublayer's
                     input. pre-LN: norm(x), the attention's input (recorded before the attention).
      .ffn.hidden [B,S,d_ff] (after the activation)  .ffn.out [B,S,D]
      .add2  .norm2  (the same for the feed-forward sublayer)
      .out [B,S,D]
    encoder.out [B,S,D] (after the final LayerNorm when final_norm)
    tgt.ids  tgt.mask  tgt.embed  tgt.pos  tgt.input  tgt.causal_mask [T,T] (True = may attend)
    decoder.{i}.in  .self_attn.* (T x T)  .add1  .norm1
      .cross_attn.q [B,H,T,d_k]  .cross_attn.k|v [B,H,S,d_k]  .cross_attn.scores|masked_scores|
      weights [B,H,T,S]  .cross_attn.context [B,H,T,d_k]  .cross_attn.out [B,T,D]  .add2  .norm2
      .ffn.hidden  .ffn.out  .add3  .norm3  .out
    decoder.out [B,T,D]  logits [B,T,V]

In pre-LN layers each `norm{j}` is recorded just before its sublayer; in post-LN layers just
after its `add{j}`. tests/test_trace.py holds the complete ordered list with shapes.

Patching (interventions): `forward`, `trace` and generation.generate take `patches`, a mapping from
these same names to functions tensor -> tensor applied at that hook point; the rest of the pass
uses the returned tensor and a trace records it. `src.ids`/`src.mask`/`tgt.ids`/`tgt.mask` are
record-only (change the input instead). While patching, attention takes the manual path, so
every hook point runs. See tracing/hooks.py and analysis/head_patches.py.

Generation lives in inference/generation.py, which drives this model through its `Decodable` protocol
(`encode`, `start_decoding`, `patched`, `hook_names`); this module does not import it.
`decode(..., cache=)` feeds only the new positions and keeps each
decoder layer's self-attention K/V (one row per step) and cross-attention K/V (computed once) in a
kv_cache.DecoderCache; such cached steps are never recorded. `decode(..., project=False)` returns the
decoder states before `lm_head`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch
import torch.nn.functional as F
from torch import nn

from transformer_core.models.config import TransformerConfig
from transformer_core.models.kv_cache import AttentionKV, CachedDecoding, DecoderCache, LayerKV
from transformer_core.models.masks import attention_mask, causal_mask, padding_mask
from transformer_core.tracing.hooks import (
    HookPoint,
    Patch,
    Patchable,
    is_patching,
    is_recording,
    name_hook_points,
    recording,
)
from transformer_core.tracing.names import SRC_IDS, SRC_MASK, TGT_IDS, TGT_MASK
from transformer_core.tracing.trace import Trace


class Transformer(Patchable, nn.Module):
    """Encoder-decoder: logits = W_out · Decoder(Embed(y), Encoder(Embed(x))).

    With `n_decoder_layers == 0` it is encoder-only (BERT-style) and `forward` returns the
    encoder output.
    """

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.config = config
        # Use F.scaled_dot_product_attention when not recording. Tests switch it off to compare.
        self.fused_attention = True
        self.src = InputEmbedding(config, config.src_vocab_size)
        self.encoder = Encoder(config)
        if config.has_decoder:
            self.tgt = InputEmbedding(config, config.tgt_vocab_size, causal=True)
            self.decoder = Decoder(config)
            self.lm_head = nn.Linear(config.d_model, config.tgt_vocab_size)
            if config.share_embeddings:  # tied: the same Parameter object in all three places
                self.tgt.token.weight = self.src.token.weight
                self.lm_head.weight = self.src.token.weight
            self.hook_logits = HookPoint()
        name_hook_points(self)
        self._hook_names = frozenset(m.name for m in self.modules() if isinstance(m, HookPoint))

    # Hooks whose returned tensor the pass does not use: patching them would silently do nothing.
    RECORD_ONLY_HOOKS = frozenset({SRC_IDS, SRC_MASK, TGT_IDS, TGT_MASK})


    def encode(self, src_ids: torch.Tensor, src_mask: torch.Tensor | None = None,
               token_type_ids: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """[B,S] ids -> (memory [B,S,D], src_mask [B,S])."""
        if src_mask is None:
            src_mask = padding_mask(src_ids, self.config.pad_token_id)
        x = self.src(src_ids, src_mask, token_type_ids)
        return self.encoder(x, src_mask, self.fused_attention), src_mask

    def decode(self, tgt_ids: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor,
               tgt_mask: torch.Tensor | None = None, project: bool = True,
               cache: DecoderCache | None = None) -> torch.Tensor:
        """[B,T] ids + memory -> logits [B,T,V] (teacher forcing, causal self-attention).

        `project=False` returns the decoder states [B,T,D] before the output projection (lm_head).
        With a `cache` (incremental decoding, see generation.py), `tgt_ids` [B,n] are only the NEW
        positions, placed after the `cache.length` cached ones: their keys and values are appended to
        the cache, cross-attention reuses the memory's K/V, and the result covers the n new positions.
        """
        past = 0 if cache is None else cache.length
        if tgt_mask is None and self.config.bos_token_id == self.config.pad_token_id:
            # Marian starts decoding with the pad token, so pad is not padding in a target: like transformers,
            # block no target key unless the caller passes a tgt_mask (a batch of different lengths).
            tgt_mask = torch.ones_like(tgt_ids, dtype=torch.bool)
        elif tgt_mask is None:
            tgt_mask = padding_mask(tgt_ids, self.config.pad_token_id)
        keys = tgt_mask if cache is None else cache.extend_mask(tgt_mask)  # [B, past + n]: which keys are real
        y = self.tgt(tgt_ids, tgt_mask, start=past)
        # [n, past + n]: new position past+i may attend to keys 0..past+i ([T,T] without a cache).
        causal = self.tgt.hook_causal_mask(causal_mask(tgt_ids.shape[1], tgt_ids.device, past=past))
        y = self.decoder(y, memory, keys, causal, src_mask, self.fused_attention, cache)
        if not project:
            return y
        return self.hook_logits(self.lm_head(y))

    def new_cache(self) -> DecoderCache:
        """An empty key/value cache for incremental decoding with `decode(..., cache=)`."""
        return DecoderCache.empty(self.config.n_decoder_layers)

    def forward(self, src_ids: torch.Tensor, tgt_ids: torch.Tensor | None = None,
                src_mask: torch.Tensor | None = None, tgt_mask: torch.Tensor | None = None,
                token_type_ids: torch.Tensor | None = None,
                patches: Mapping[str, Patch] | None = None) -> torch.Tensor:
        """Logits [B,T,V] (encoder-only: the encoder output [B,S,D]); `patches` as in the module docstring."""
        with self.patched(patches):
            memory, src_mask = self.encode(src_ids, src_mask, token_type_ids)
            if not self.config.has_decoder or tgt_ids is None:
                return memory
            return self.decode(tgt_ids, memory, src_mask, tgt_mask)

    def trace(self, src_ids: torch.Tensor, tgt_ids: torch.Tensor | None = None,
              src_mask: torch.Tensor | None = None, tgt_mask: torch.Tensor | None = None,
              token_type_ids: torch.Tensor | None = None,
              patches: Mapping[str, Patch] | None = None) -> Trace:
        """One recorded forward pass in eval mode under no_grad; every hook point's tensor (patched
        values where `patches` replaced them)."""
        was_training = self.training
        self.eval()
        try:
            with torch.no_grad(), recording() as store:
                self(src_ids, tgt_ids, src_mask, tgt_mask, token_type_ids, patches=patches)
        finally:
            self.train(was_training)
        return Trace(store)

    def start_decoding(self, memory: torch.Tensor, src_mask: torch.Tensor, *, use_cache: bool = True,
                       project_all: bool = False) -> CachedDecoding:
        """generation.py's decoding state: one decoder step per new token over a KV cache (or, without
        `use_cache`, the whole prefix recomputed; `project_all`: every position through `logits`)."""
        return CachedDecoding(self, memory, src_mask, use_cache, project_all)


class Encoder(nn.Module):
    """A stack of N identical layers: x_{i+1} = EncoderLayer(x_i); optional final LayerNorm."""

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.layers = nn.ModuleList(EncoderLayer(config) for _ in range(config.n_encoder_layers))
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps) if config.final_norm else None
        self.hook_out = HookPoint()

    def forward(self, x: torch.Tensor, src_mask: torch.Tensor, fused: bool = False) -> torch.Tensor:
        mask = attention_mask(src_mask)  # [B,S] -> [B,1,1,S]: every query sees the real keys
        for layer in self.layers:
            x = layer(x, mask, fused)
        if self.norm is not None:
            x = self.norm(x)
        return self.hook_out(x)


class Decoder(nn.Module):
    """A stack of N identical layers over the target, each reading the encoder output (memory)."""

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.layers = nn.ModuleList(DecoderLayer(config) for _ in range(config.n_decoder_layers))
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps) if config.final_norm else None
        self.hook_out = HookPoint()

    def forward(self, y: torch.Tensor, memory: torch.Tensor, tgt_mask: torch.Tensor,
                causal: torch.Tensor, src_mask: torch.Tensor, fused: bool = False,
                cache: DecoderCache | None = None) -> torch.Tensor:
        """`tgt_mask` [B,L] covers every key (cached ones too); `causal` [T,L] the queries given."""
        self_mask = attention_mask(tgt_mask, causal)  # [B,1,T,L]: real and not in the future
        cross_mask = attention_mask(src_mask)  # [B,1,1,S]: every target position sees real sources
        for i, layer in enumerate(self.layers):
            y = layer(y, memory, self_mask, cross_mask, fused, None if cache is None else cache.layers[i])
        if self.norm is not None:
            y = self.norm(y)
        return self.hook_out(y)


class SublayerConnection(nn.Module):
    """Residual connection around a sublayer, with LayerNorm after (post-LN) or before (pre-LN).

    post-LN (paper):  out = LayerNorm(x + Dropout(Sublayer(x)))
    pre-LN:           out = x + Dropout(Sublayer(LayerNorm(x)))
    """

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.norm_first = config.norm_first
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor, sublayer, hook_add: HookPoint, hook_norm: HookPoint) -> torch.Tensor:
        if self.norm_first:
            return hook_add(x + self.dropout(sublayer(hook_norm(self.norm(x)))))
        return hook_norm(self.norm(hook_add(x + self.dropout(sublayer(x)))))


class EncoderLayer(nn.Module):
    """x -> Add&Norm(self-attention) -> Add&Norm(feed-forward)."""

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.hook_in = HookPoint()
        self.self_attn = MultiHeadAttention(config)
        self.sublayer1 = SublayerConnection(config)
        self.hook_add1, self.hook_norm1 = HookPoint(), HookPoint()
        self.ffn = FeedForward(config)
        self.sublayer2 = SublayerConnection(config)
        self.hook_add2, self.hook_norm2 = HookPoint(), HookPoint()
        self.hook_out = HookPoint()

    def forward(self, x: torch.Tensor, mask: torch.Tensor, fused: bool = False) -> torch.Tensor:
        x = self.hook_in(x)
        x = self.sublayer1(x, lambda h: self.self_attn(h, h, mask, fused), self.hook_add1, self.hook_norm1)
        x = self.sublayer2(x, self.ffn, self.hook_add2, self.hook_norm2)
        return self.hook_out(x)


class DecoderLayer(nn.Module):
    """y -> Add&Norm(masked self-attention) -> Add&Norm(cross-attention over memory) -> Add&Norm(FFN).

    Cross-attention: Q from the decoder stream, K and V from the encoder output (memory).
    """

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.hook_in = HookPoint()
        self.self_attn = MultiHeadAttention(config)
        self.sublayer1 = SublayerConnection(config)
        self.hook_add1, self.hook_norm1 = HookPoint(), HookPoint()
        self.cross_attn = MultiHeadAttention(config)
        self.sublayer2 = SublayerConnection(config)
        self.hook_add2, self.hook_norm2 = HookPoint(), HookPoint()
        self.ffn = FeedForward(config)
        self.sublayer3 = SublayerConnection(config)
        self.hook_add3, self.hook_norm3 = HookPoint(), HookPoint()
        self.hook_out = HookPoint()

    def forward(self, y: torch.Tensor, memory: torch.Tensor, self_mask: torch.Tensor,
                cross_mask: torch.Tensor, fused: bool = False, cache: LayerKV | None = None) -> torch.Tensor:
        self_kv = None if cache is None else cache.self_attn
        cross_kv = None if cache is None else cache.cross_attn
        y = self.hook_in(y)
        y = self.sublayer1(y, lambda h: self.self_attn(h, h, self_mask, fused, self_kv),
                           self.hook_add1, self.hook_norm1)
        y = self.sublayer2(y, lambda h: self.cross_attn(h, memory, cross_mask, fused, cross_kv),
                           self.hook_add2, self.hook_norm2)
        y = self.sublayer3(y, self.ffn, self.hook_add3, self.hook_norm3)
        return self.hook_out(y)


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W_O,  head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V).

    All heads' projections live in one d_model x d_model matrix each (W_Q, W_K, W_V), split
    into h heads of d_k by reshaping.
    """

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.n_heads, self.d_k = config.n_heads, config.d_k
        self.w_q = nn.Linear(config.d_model, config.d_model)
        self.w_k = nn.Linear(config.d_model, config.d_model)
        self.w_v = nn.Linear(config.d_model, config.d_model)
        self.w_o = nn.Linear(config.d_model, config.d_model)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.hook_q, self.hook_k, self.hook_v = HookPoint(), HookPoint(), HookPoint()
        self.hook_scores, self.hook_masked_scores, self.hook_weights = HookPoint(), HookPoint(), HookPoint()
        self.hook_context, self.hook_out = HookPoint(), HookPoint()
        self._packed_cache: tuple | None = None  # see packed_qkv

    def packed_qkv(self) -> tuple[torch.Tensor, torch.Tensor]:
        """[3D, D] weight and [3D] bias of W_Q, W_K, W_V stacked; rebuilt whenever a parameter changes."""
        params = (self.w_q.weight, self.w_k.weight, self.w_v.weight, self.w_q.bias, self.w_k.bias, self.w_v.bias)
        key = tuple((p.data_ptr(), p._version) for p in params)  # in-place updates bump _version
        cached = self._packed_cache
        if cached is None or cached[0] != key:
            cached = (key, torch.cat(params[:3]), torch.cat(params[3:]))
            self._packed_cache = cached
        return cached[1], cached[2]

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_k).transpose(1, 2)  # [B,T,D] -> [B,T,H,d_k] -> [B,H,T,d_k]

    def forward(self, x_q: torch.Tensor, x_kv: torch.Tensor, mask: torch.Tensor,
                fused: bool = False, cache: AttentionKV | None = None) -> torch.Tensor:
        """x_q [B,T,D] queries' stream, x_kv [B,S,D] keys' and values' stream, mask [B,1,T|1,S].

        With a `cache` (incremental decoding): self-attention appends the new rows' K and V to it and
        attends over all cached rows; cross-attention projects the memory once and then reuses it.
        """
        fused = fused and not is_recording() and not is_patching()  # every hook must run
        if cache is not None and cache.static and cache.filled:
            q, k, v = self.w_q(x_q), None, None  # cross-attention K/V: already in the cache
        elif fused and x_q is x_kv and not torch.is_grad_enabled():
            # Self-attention, unrecorded inference: one [D, 3D] matmul instead of three (as
            # nn.MultiheadAttention's in_proj does); same numbers, fewer kernel launches.
            q, k, v = F.linear(x_q, *self.packed_qkv()).chunk(3, dim=-1)  # [B,T,3D] -> 3 x [B,T,D]
        else:
            q, k, v = self.w_q(x_q), self.w_k(x_kv), self.w_v(x_kv)
        q = self.split_heads(q)  # [B,H,T,d_k]
        if k is not None:
            k, v = self.split_heads(k), self.split_heads(v)  # [B,H,S,d_k]
        if cache is not None:
            k, v = cache.update(k, v) if k is not None else (cache.k, cache.v)  # [B,H,L,d_k]: every cached row
        q, k, v = self.hook_q(q), self.hook_k(k), self.hook_v(v)
        if fused:
            context = fused_attention(q, k, v, mask, self.attn_dropout.p if self.training else 0.0)
        else:
            context = self.hook_context(self.attention(q, k, v, mask))  # [B,H,T,d_k]
        b, _, t, _ = context.shape
        concat = context.transpose(1, 2).contiguous().view(b, t, self.n_heads * self.d_k)  # [B,H,T,d_k] -> [B,T,D]
        return self.hook_out(self.w_o(concat))

    def attention(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V, with blocked keys at -inf."""
        scores = self.hook_scores(q @ k.transpose(-2, -1) / math.sqrt(self.d_k))  # [B,H,T,S]
        if bool(mask.all()):  # nothing blocked (one unpadded sentence): skip two passes over [B,H,T,S]
            weights = torch.softmax(self.hook_masked_scores(scores), dim=-1)
        else:
            masked = self.hook_masked_scores(scores.masked_fill(~mask, float("-inf")))
            weights = torch.softmax(masked, dim=-1)
            has_key = mask.any(dim=-1, keepdim=True)  # [B,1,T|1,1]
            if not bool(has_key.all()):  # a row with every key blocked is softmax(all -inf) = NaN: zero it
                weights = weights.masked_fill(~has_key, 0.0)
        weights = self.hook_weights(weights)
        return self.attn_dropout(weights) @ v  # [B,H,T,S] @ [B,H,S,d_k] -> [B,H,T,d_k]


def fused_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor,
                    dropout_p: float) -> torch.Tensor:
    """The same attention through PyTorch's fused kernel (its bool mask also means True = attend)."""
    context = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p)
    return context.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)  # fully blocked rows -> 0


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W_1 + b_1) W_2 + b_2   (GELU or SiLU instead of ReLU when configured)."""

    def __init__(self, config: TransformerConfig) -> None:
        super().__init__()
        self.linear1 = nn.Linear(config.d_model, config.d_ff)
        self.linear2 = nn.Linear(config.d_ff, config.d_model)
        # GELU: the exact erf form (BERT's "gelu"); SiLU(x) = x·sigmoid(x) is Marian's "swish"
        self.activation = {"relu": nn.ReLU, "gelu": nn.GELU, "silu": nn.SiLU}[config.activation]()
        self.dropout = nn.Dropout(config.dropout)
        self.hook_hidden, self.hook_out = HookPoint(), HookPoint()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = self.hook_hidden(self.activation(self.linear1(x)))  # [B,T,D] -> [B,T,d_ff]
        return self.hook_out(self.linear2(self.dropout(hidden)))  # [B,T,d_ff] -> [B,T,D]


class InputEmbedding(nn.Module):
    """input = Dropout(Embedding(ids) · sqrt(d_model) + PE(pos))   (paper, sections 3.4 and 3.5).

    BERT-style options: no sqrt(d_model) scaling, learned positions, token-type embeddings and
    a LayerNorm on the sum.
    """

    def __init__(self, config: TransformerConfig, vocab_size: int, causal: bool = False) -> None:
        super().__init__()
        self.scale = math.sqrt(config.d_model) if config.scale_embedding else 1.0
        self.token = nn.Embedding(vocab_size, config.d_model)
        if config.positional == "sinusoidal":
            self.position = SinusoidalPositionalEncoding(config.d_model, config.max_len, config.sinusoidal_layout)
        else:
            self.position = LearnedPositionalEmbedding(config.d_model, config.max_len)
        self.token_type = nn.Embedding(config.type_vocab_size, config.d_model) if config.type_vocab_size else None
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps) if config.embed_norm else None
        self.dropout = nn.Dropout(config.dropout)
        self.hook_ids, self.hook_mask = HookPoint(), HookPoint()
        self.hook_embed, self.hook_pos, self.hook_token_type = HookPoint(), HookPoint(), HookPoint()
        self.hook_input = HookPoint()
        if causal:  # the target side records its causal mask (see Transformer.decode)
            self.hook_causal_mask = HookPoint()

    def forward(self, ids: torch.Tensor, mask: torch.Tensor,
                token_type_ids: torch.Tensor | None = None, start: int = 0) -> torch.Tensor:
        """`start`: the position of ids[:, 0] (incremental decoding feeds one new position at a time)."""
        seq_len = ids.shape[1]
        if start + seq_len > self.position.max_len:
            raise ValueError(f"sequence of {start + seq_len} tokens is longer than max_len={self.position.max_len}")
        self.hook_ids(ids)
        self.hook_mask(mask)
        x = self.hook_embed(self.token(ids) * self.scale)  # [B,S] -> [B,S,D]
        x = x + self.hook_pos(self.position(seq_len, start))  # [S,D] broadcasts over the batch
        if self.token_type is not None:
            if token_type_ids is None:
                token_type_ids = torch.zeros_like(ids)
            x = x + self.hook_token_type(self.token_type(token_type_ids))
        if self.norm is not None:
            x = self.norm(x)
        return self.hook_input(self.dropout(x))


class SinusoidalPositionalEncoding(nn.Module):
    """PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)).

    Kept as a non-persistent buffer: moves with `.to()`, is not saved in checkpoints. `layout="halves"`
    puts the same sines in the first half and the cosines in the second (Marian).
    """

    def __init__(self, d_model: int, max_len: int, layout: str = "interleaved") -> None:
        super().__init__()
        self.max_len = max_len
        self.register_buffer("pe", sinusoidal_table(max_len, d_model, layout), persistent=False)

    def forward(self, seq_len: int, start: int = 0) -> torch.Tensor:
        return self.pe[start:start + seq_len]  # [max_len, D] -> [S, D]


def sinusoidal_table(max_len: int, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """[max_len, d_model]: sines at even dimensions, cosines at odd ones ("interleaved", the paper);
    "halves": sin(pos·ω_i) at dimension i and cos(pos·ω_i) at dimension ceil(D/2) + i (Marian)."""
    position = torch.arange(max_len, dtype=torch.float64)[:, None]  # [L, 1]
    inv_freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)  # [ceil(D/2)]
    table = torch.zeros(max_len, d_model, dtype=torch.float64)
    sines, cosines = torch.sin(position * inv_freq), torch.cos(position * inv_freq)[:, : d_model // 2]
    if layout == "halves":
        half = sines.shape[1]  # ceil(D/2): an odd width gives the sines the extra column
        table[:, :half], table[:, half:] = sines, cosines
    else:
        table[:, 0::2], table[:, 1::2] = sines, cosines
    return table.float()


class LearnedPositionalEmbedding(nn.Module):
    """PE(pos) = a learned row per position (BERT)."""

    def __init__(self, d_model: int, max_len: int) -> None:
        super().__init__()
        self.max_len = max_len
        self.embedding = nn.Embedding(max_len, d_model)

    def forward(self, seq_len: int, start: int = 0) -> torch.Tensor:
        return self.embedding.weight[start:start + seq_len]  # [max_len, D] -> [S, D]
