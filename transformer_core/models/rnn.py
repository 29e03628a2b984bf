"""The 2015 attention translator (Bahdanau, Cho & Bengio, "Neural Machine Translation by Jointly
Learning to Align and Translate", ICLR 2015), written out by hand next to the 2017 Transformer.

Read top-down: `RNNTranslator` -> `BahdanauRNN` (`BiGRUEncoder`, `AdditiveAttention`,
`AttentionDecoder`, `MaxoutOutput`) -> `TokenEmbedding`.

    encoder   h_j = [→h_j ; ←h_j]  (a bidirectional GRU over the source embeddings)
    start     s_0 = tanh(W_init ←h_1)
    step t    e_tj = vᵀ tanh(W_s s_{t-1} + W_h h_j)        (additive attention, one "head")
              α_tj = exp(e_tj) / Σ_k exp(e_tk)              (padded keys blocked)
              c_t  = Σ_j α_tj h_j
              s_t  = GRU([E y_{t-1} ; c_t], s_{t-1})
              p(y_t | y_<t, x) = softmax(W_out maxout(U [s_t ; c_t ; E y_{t-1}]))

Every decoder step depends on the previous one (s_t needs s_{t-1}), so the decoder runs T
sequential steps even when the whole target is known (teacher forcing); the encoder runs S
sequential steps in each direction. That is what the Transformer removed.

Sizes: B batch, S source length, T target length, E embedding width, H GRU width (per
direction in the encoder), A the alignment model's hidden width, O the maxout output width,
V vocabulary. Masks are boolean, True = may attend / real token (see masks.py).

Trace names, in recording order (`RNNTranslator.trace` records one pass):

    src.ids [B,S]  src.mask [B,S] (True = real token)  src.embed [B,S,E]
    rnn.encoder.states [B,S,2H]   h_j: forward state then backward state, concatenated
    rnn.decoder.init [B,H]        s_0 = tanh(W_init ←h_1)
    rnn.attn.keys [B,S,A]         W_h h_j (+ bias): computed once per sentence, reused at every step
    tgt.ids [B,T]  tgt.mask [B,T]
    tgt.embed [B,T,E]             E y_{t-1}: row t embeds the decoder input at step t (BOS first)
    rnn.attn.queries [B,T,A]      W_s s_{t-1}: row t uses the state BEFORE step t
    rnn.attn.scores [B,T,S]       e_tj = vᵀ tanh(W_s s_{t-1} + W_h h_j), before masking
    rnn.attn.weights [B,T,S]      α_t = softmax(e_t) over the real keys (a row with none is all zero)
    rnn.attn.context [B,T,2H]     c_t = Σ_j α_tj h_j
    rnn.decoder.states [B,T,H]    s_t
    rnn.output.hidden [B,T,O]     maxout(U [s_t ; c_t ; E y_{t-1}])
    logits [B,T,V]

Row t of every target-side tensor belongs to decoder step t, which reads input token t (BOS for
t = 0) and predicts token t + 1, exactly as the Transformer's rows do: `rnn.attn.weights` row t
is the alignment the model used to PREDICT output word t (what evaluate.py scores).

Teacher forcing and recording: attention and the GRU form a loop (s_t needs s_{t-1}), so
queries, scores, weights, context and decoder states are made one step at a time as [B,1,...]
slices. The loop keeps the slices and, after the last step, records each name ONCE as the slices
stacked along T, so one recorded pass holds the scores of all T steps. The target embedding and
the maxout/output layer do not feed the recurrence under teacher forcing, so they run once over
all T steps (the same numbers; one [V,E] gradient instead of T). `trace(src, tgt)` runs the code
that training runs; generation (`start_decoding`) runs the same step (`recurrent_step`, `output`) one token
at a time, feeding back its own argmax.

Patching: `forward`, `trace` and generation.generate take `patches` ({trace name: fn}) like the
Transformer. Source-side names (src.embed, rnn.encoder.states, rnn.decoder.init, rnn.attn.keys)
are patched once on the whole tensor. Target-side names are patched at EVERY decoder step on that
step's [B,1,...] slice (the step's output feeds the next step), in teacher forcing and in greedy
decoding alike; a patch that acts along the last axes (e.g. zero one source column of the
weights) therefore means the same thing in both. src.ids/src.mask/tgt.ids/tgt.mask are
record-only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from transformer_core.models.masks import padding_mask
from transformer_core.tracing.hooks import (
    HookPoint,
    Patch,
    Patchable,
    apply_patch,
    current_patch,
    name_hook_points,
    record,
    recording,
)
from transformer_core.tracing.names import SRC_IDS, SRC_MASK, TGT_IDS, TGT_MASK
from transformer_core.tracing.trace import Trace

MODEL_TYPE = "rnn-attention"  # config.json's "model_type" for this architecture


@dataclass(frozen=True)
class RNNConfig:
    """Sizes of the attention RNN. The paper's RNNsearch used E 620, H 1000, A 1000, O 500."""

    model_type: ClassVar[str] = MODEL_TYPE
    src_vocab_size: int = 3253
    tgt_vocab_size: int = 3253
    embed_dim: int = 128  # E: token embedding width
    hidden_size: int = 256  # H: GRU width (each encoder direction, and the decoder)
    attn_size: int = 256  # A: width of the alignment model's tanh layer (n' in the paper)
    maxout_size: int = 128  # O: output layer width after maxout (pool 2); = E to tie it to the embedding
    dropout: float = 0.0  # on embeddings and on the maxout output
    max_len: int = 128  # longest source and target this model accepts
    # One vocabulary for both languages: source embedding = target embedding = output projection.
    share_embeddings: bool = True
    pad_token_id: int = 0
    bos_token_id: int = 1
    eos_token_id: int = 2

    def __post_init__(self) -> None:
        if self.share_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("share_embeddings needs src_vocab_size == tgt_vocab_size")
        if self.share_embeddings and self.maxout_size != self.embed_dim:
            raise ValueError("share_embeddings ties the output projection to the embedding: maxout_size must "
                             "equal embed_dim")

    @property
    def has_decoder(self) -> bool:
        return True

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> RNNConfig:
        """Build from a config.json dict, ignoring keys that are not fields (model_type, ...)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})


class StepHookPoint(HookPoint):
    """A hook for a tensor the decoder loop makes one step at a time.

    `step(x)` patches step t's [B,1,...] slice (if this name is patched); calling the hook with the
    stacked [B,T,...] tensor after the loop records it once (already patched, so never twice).
    """

    def step(self, x: torch.Tensor) -> torch.Tensor:
        fn = current_patch(self.name)
        return x if fn is None else apply_patch(self.name, fn, x)

    def steps(self, x: torch.Tensor) -> torch.Tensor:
        """A [B,T,...] tensor computed for all steps at once (no feedback into the recurrence): patched
        one [B,1,...] slice at a time, exactly as `step` would have, then recorded."""
        fn = current_patch(self.name)
        if fn is not None:
            x = torch.cat([apply_patch(self.name, fn, x[:, t:t + 1]) for t in range(x.shape[1])], dim=1)
        return self(x)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        record(self.name, x)
        return x

    __call__ = forward


@dataclass(frozen=True)
class EncoderMemory:
    """What the decoder reads at every step: h_j, W_h h_j, s_0 and the source mask."""

    states: torch.Tensor  # [B,S,2H]
    keys: torch.Tensor  # [B,S,A]
    init: torch.Tensor  # [B,H]
    mask: torch.Tensor  # [B,S] True = real token


class AttentionStep(NamedTuple):
    """One step of additive attention, each [B,1,...]."""

    queries: torch.Tensor
    scores: torch.Tensor
    weights: torch.Tensor
    context: torch.Tensor


class RNNTranslator(Patchable, nn.Module):
    """RNNsearch: p(y_t | y_<t, x) = g(y_{t-1}, s_t, c_t), s_t = GRU(s_{t-1}, y_{t-1}, c_t), c_t = Σ_j α_tj h_j.

    The same public surface as `Transformer` where the app needs it: `config` (pad/bos/eos ids,
    max_len, has_decoder), `forward`, `trace(src, tgt)`, `hook_names`, `check_patches`, and
    generation's `Decodable` protocol (`encode`, `start_decoding`, `patched`).
    """

    RECORD_ONLY_HOOKS = frozenset({SRC_IDS, SRC_MASK, TGT_IDS, TGT_MASK})

    def __init__(self, config: RNNConfig) -> None:
        super().__init__()
        self.config = config
        self.src = TokenEmbedding(config.src_vocab_size, config.embed_dim, config.dropout, step_hooks=False)
        self.tgt = TokenEmbedding(config.tgt_vocab_size, config.embed_dim, config.dropout, step_hooks=True)
        self.rnn = BahdanauRNN(config)
        self.lm_head = nn.Linear(config.maxout_size, config.tgt_vocab_size)
        if config.share_embeddings:  # tied: the same Parameter object in all three places
            self.tgt.token.weight = self.src.token.weight
            self.lm_head.weight = self.src.token.weight
        self.hook_logits = StepHookPoint()
        self.reset_parameters()
        name_hook_points(self)
        self._hook_names = frozenset(m.name for m in self.modules() if isinstance(m, HookPoint))

    def reset_parameters(self) -> None:
        """Xavier-uniform matrices, orthogonal recurrent matrices, zero biases, embedding ~ N(0, E^-1/2)."""
        for name, parameter in self.named_parameters():
            if parameter.dim() == 1:
                nn.init.zeros_(parameter)
            elif "weight_hh" in name:
                for gate in parameter.data.chunk(3, dim=0):  # [3H, H] -> 3 x [H, H]: reset, update, new
                    nn.init.orthogonal_(gate)
            else:
                nn.init.xavier_uniform_(parameter)
        nn.init.normal_(self.src.token.weight, mean=0.0, std=self.config.embed_dim ** -0.5)

    # --- patches ----------------------------------------------------------------------------------


    # --- the pass ---------------------------------------------------------------------------------

    def encode(self, src_ids: torch.Tensor, src_mask: torch.Tensor | None = None
               ) -> tuple[EncoderMemory, torch.Tensor]:
        """[B,S] ids -> (h_j [B,S,2H], W_h h_j [B,S,A], s_0 [B,H]; src_mask [B,S]), source padded on the
        right. The pair mirrors Transformer.encode's (memory, src_mask)."""
        if src_mask is None:
            src_mask = padding_mask(src_ids, self.config.pad_token_id)
        if src_ids.shape[1] > self.config.max_len:
            raise ValueError(f"sequence of {src_ids.shape[1]} tokens is longer than max_len={self.config.max_len}")
        x = self.src(src_ids, src_mask)  # [B,S,E]
        states, init = self.rnn.encoder(x, src_mask)
        init = self.rnn.decoder.hook_init(init)  # s_0 [B,H]
        keys = self.rnn.attn.hook_keys(self.rnn.attn.w_h(states))  # [B,S,2H] -> [B,S,A]
        return EncoderMemory(states, keys, init, src_mask), src_mask

    def recurrent_step(self, embed: torch.Tensor, prev_state: torch.Tensor, memory: EncoderMemory
                       ) -> tuple[AttentionStep, torch.Tensor]:
        """The sequential part of step t: E y_{t-1} [B,1,E], s_{t-1} [B,H] -> attention (α_t, c_t) and s_t [B,1,H]."""
        attn = self.rnn.attn(prev_state, memory)
        return attn, self.rnn.decoder(embed, attn.context, prev_state)

    def output(self, state: torch.Tensor, context: torch.Tensor, embed: torch.Tensor, steps: bool,
               project: bool = True) -> torch.Tensor:
        """Logits from s_t, c_t, E y_{t-1} ([B,T|1,...]); `steps`: a whole teacher-forced [B,T,...] at once;
        `project=False`: the maxout output [B,T,O] before the output projection."""
        hidden = self.rnn.output(state, context, embed, steps)  # [B,T,O]
        if not project:
            return hidden
        hook = self.hook_logits.steps if steps else self.hook_logits.step
        return hook(self.lm_head(hidden))  # [B,T,O] -> [B,T,V]

    def decode(self, tgt_ids: torch.Tensor, memory: EncoderMemory, src_mask: torch.Tensor | None = None,
               tgt_mask: torch.Tensor | None = None, project: bool = True) -> torch.Tensor:
        """Teacher forcing: [B,T] decoder input (BOS + target) -> logits [B,T,V], T sequential steps
        (`project=False`: the maxout output [B,T,O], for a sampled softmax in training). `src_mask` is
        already in `memory` (the argument mirrors Transformer.decode).

        Only attention and the GRU are sequential; the embedding and the output layer do not feed the
        recurrence, so they run once over all T steps (patched slice by slice, as in greedy decoding).
        """
        if tgt_mask is None:
            tgt_mask = padding_mask(tgt_ids, self.config.pad_token_id)
        if tgt_ids.shape[1] > self.config.max_len:
            raise ValueError(f"sequence of {tgt_ids.shape[1]} tokens is longer than max_len={self.config.max_len}")
        self.tgt.hook_ids(tgt_ids)
        self.tgt.hook_mask(tgt_mask)
        embed = self.tgt.hook_embed.steps(self.tgt.embed(tgt_ids))  # [B,T] -> [B,T,E]
        state = memory.init
        attns: list[AttentionStep] = []
        states: list[torch.Tensor] = []
        for t in range(tgt_ids.shape[1]):
            attn, new_state = self.recurrent_step(embed[:, t:t + 1], state, memory)
            state = new_state[:, 0]  # [B,1,H] -> [B,H]
            attns.append(attn)
            states.append(new_state)
        # Record each step-made name once: the T slices [B,1,...] stacked into [B,T,...].
        hooks = self.rnn.attn
        for hook, index in ((hooks.hook_queries, 0), (hooks.hook_scores, 1), (hooks.hook_weights, 2)):
            hook(torch.cat([a[index] for a in attns], dim=1))
        context = hooks.hook_context(torch.cat([a.context for a in attns], dim=1))  # [B,T,2H]
        state_seq = self.rnn.decoder.hook_states(torch.cat(states, dim=1))  # [B,T,H]
        return self.output(state_seq, context, embed, steps=True, project=project)

    def forward(self, src_ids: torch.Tensor, tgt_ids: torch.Tensor, src_mask: torch.Tensor | None = None,
                tgt_mask: torch.Tensor | None = None, patches: Mapping[str, Patch] | None = None) -> torch.Tensor:
        """Logits [B,T,V] for decoder input `tgt_ids` (teacher forcing); `patches` as in the module docstring."""
        with self.patched(patches):
            memory, _ = self.encode(src_ids, src_mask)
            return self.decode(tgt_ids, memory, tgt_mask=tgt_mask)

    def trace(self, src_ids: torch.Tensor, tgt_ids: torch.Tensor, src_mask: torch.Tensor | None = None,
              tgt_mask: torch.Tensor | None = None, patches: Mapping[str, Patch] | None = None) -> Trace:
        """One recorded teacher-forced pass in eval mode under no_grad (names in the module docstring)."""
        was_training = self.training
        self.eval()
        try:
            with torch.no_grad(), recording() as store:
                self(src_ids, tgt_ids, src_mask, tgt_mask, patches=patches)
        finally:
            self.train(was_training)
        return Trace(store)

    def start_decoding(self, memory: EncoderMemory, src_mask: torch.Tensor | None = None, *,
                       use_cache: bool = True, project_all: bool = False) -> RNNStepper:
        """generation.py's decoding state: one decoder step per token. The recurrent state is the only thing
        carried between steps (the cache), so `use_cache` changes nothing; every step's logits pass the
        `logits` hook anyway, so `project_all` changes nothing either."""
        return RNNStepper(self, memory)


class RNNStepper:
    """Next-token logits [B,V] for a growing prefix, one `recurrent_step` per new token (generation.py).

    Greedy, sampling and beam search all run through it; every step is the code the teacher-forced
    pass runs, so a patch acts the same way in both (see the module docstring).
    """

    def __init__(self, model: RNNTranslator, memory: EncoderMemory) -> None:
        self.model, self.encoded = model, memory
        self.state = memory.init  # s_{t-1} [B,H]
        self.length = 0  # prefix tokens already fed

    @property
    def device(self) -> torch.device:
        return self.encoded.states.device

    def __call__(self, prefix: torch.Tensor) -> torch.Tensor:
        """prefix [B,t] -> logits [B,V] predicting token t + 1 (feeds only the tokens not fed yet)."""
        model, logits = self.model, None
        for t in range(self.length, prefix.shape[1]):
            embed = model.tgt.hook_embed.step(model.tgt.embed(prefix[:, t:t + 1]))  # [B,1] -> [B,1,E]
            attn, new_state = model.recurrent_step(embed, self.state, self.encoded)
            logits = model.output(new_state, attn.context, embed, steps=False)[:, 0]  # [B,1,V] -> [B,V]
            self.state = new_state[:, 0]  # [B,1,H] -> [B,H]
        if logits is None:
            raise ValueError("the prefix has no new token to feed")
        self.length = prefix.shape[1]
        return logits

    def reorder(self, index: torch.Tensor) -> None:
        """Beam search: row r continues row index[r] (its state and its source)."""
        e = self.encoded
        self.encoded = EncoderMemory(e.states.index_select(0, index), e.keys.index_select(0, index),
                                     e.init.index_select(0, index), e.mask.index_select(0, index))
        self.state = self.state.index_select(0, index)


class BahdanauRNN(nn.Module):
    """The recurrent parts, grouped so their trace names read `rnn.*`."""

    def __init__(self, config: RNNConfig) -> None:
        super().__init__()
        self.encoder = BiGRUEncoder(config)
        self.attn = AdditiveAttention(config)
        self.decoder = AttentionDecoder(config)
        self.output = MaxoutOutput(config)


class BiGRUEncoder(nn.Module):
    """h_j = [→h_j ; ←h_j]: a forward GRU reads x_1..x_S, a backward GRU reads x_S..x_1;  s_0 = tanh(W_init ←h_1)."""

    def __init__(self, config: RNNConfig) -> None:
        super().__init__()
        self.gru = nn.GRU(config.embed_dim, config.hidden_size, batch_first=True, bidirectional=True)
        self.w_init = nn.Linear(config.hidden_size, config.hidden_size)
        self.hook_states = HookPoint()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x [B,S,E], mask [B,S] -> (h [B,S,2H], s_0 [B,H])."""
        seq_len = x.shape[1]
        if bool(mask.all()):
            states, last = self.gru(x)  # last: [2,B,H], forward then backward direction
        else:
            # Padded batch (right padding): pack, so the backward GRU starts at each sentence's last
            # real token and padded positions get zero states.
            lengths = mask.sum(dim=1).clamp(min=1).cpu()
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            states, last = self.gru(packed)
            states, _ = pad_packed_sequence(states, batch_first=True, total_length=seq_len)  # -> [B,S,2H]
        states = self.hook_states(states)
        init = torch.tanh(self.w_init(last[1]))  # ←h_1: the backward direction's state after reading x_1
        return states, init


class AdditiveAttention(nn.Module):
    """e_tj = vᵀ tanh(W_s s_{t-1} + W_h h_j),  α_tj = softmax_j(e_tj),  c_t = Σ_j α_tj h_j.

    One alignment per step (one "head"); the score is a small feed-forward network on the pair
    (s_{t-1}, h_j) rather than a dot product. W_h h_j does not depend on t and is computed once.
    """

    def __init__(self, config: RNNConfig) -> None:
        super().__init__()
        self.w_s = nn.Linear(config.hidden_size, config.attn_size, bias=False)
        self.w_h = nn.Linear(2 * config.hidden_size, config.attn_size)
        self.v = nn.Linear(config.attn_size, 1, bias=False)
        self.hook_keys = HookPoint()
        self.hook_queries, self.hook_scores = StepHookPoint(), StepHookPoint()
        self.hook_weights, self.hook_context = StepHookPoint(), StepHookPoint()

    def forward(self, prev_state: torch.Tensor, memory: EncoderMemory) -> AttentionStep:
        """s_{t-1} [B,H] -> queries [B,1,A], scores and weights [B,1,S], context [B,1,2H]."""
        queries = self.hook_queries.step(self.w_s(prev_state)[:, None, :])  # [B,A] -> [B,1,A]
        hidden = torch.tanh(queries + memory.keys)  # [B,1,A] + [B,S,A] -> [B,S,A]
        scores = self.hook_scores.step(self.v(hidden).transpose(1, 2))  # [B,S,1] -> [B,1,S]
        key_mask = memory.mask[:, None, :]  # [B,S] -> [B,1,S]
        weights = torch.softmax(scores.masked_fill(~key_mask, float("-inf")), dim=-1)
        weights = torch.where(key_mask.any(dim=-1, keepdim=True), weights, 0.0)  # no real key: zeros, not NaN
        weights = self.hook_weights.step(weights)
        context = self.hook_context.step(weights @ memory.states)  # [B,1,S] @ [B,S,2H] -> [B,1,2H]
        return AttentionStep(queries, scores, weights, context)


class AttentionDecoder(nn.Module):
    """s_t = GRU([E y_{t-1} ; c_t], s_{t-1})."""

    def __init__(self, config: RNNConfig) -> None:
        super().__init__()
        self.cell = nn.GRUCell(config.embed_dim + 2 * config.hidden_size, config.hidden_size)
        self.hook_init = HookPoint()
        self.hook_states = StepHookPoint()

    def forward(self, embed: torch.Tensor, context: torch.Tensor, prev_state: torch.Tensor) -> torch.Tensor:
        """embed [B,1,E], context [B,1,2H], s_{t-1} [B,H] -> s_t [B,1,H]."""
        step_input = torch.cat([embed, context], dim=-1)[:, 0]  # [B,1,E+2H] -> [B,E+2H]
        return self.hook_states.step(self.cell(step_input, prev_state)[:, None, :])  # [B,H] -> [B,1,H]


class MaxoutOutput(nn.Module):
    """t_t = maxout(U [s_t ; c_t ; E y_{t-1}]): the larger of each pair of 2·O units (paper: a maxout layer)."""

    def __init__(self, config: RNNConfig) -> None:
        super().__init__()
        self.maxout_size = config.maxout_size
        self.linear = nn.Linear(config.hidden_size + 2 * config.hidden_size + config.embed_dim, 2 * config.maxout_size)
        self.dropout = nn.Dropout(config.dropout)
        self.hook_hidden = StepHookPoint()

    def forward(self, state: torch.Tensor, context: torch.Tensor, embed: torch.Tensor, steps: bool) -> torch.Tensor:
        """s_t [B,T,H], c_t [B,T,2H], E y_{t-1} [B,T,E] -> [B,T,O] (T = 1 in greedy decoding)."""
        pre = self.linear(torch.cat([state, context, embed], dim=-1))  # [B,T,3H+E] -> [B,T,2O]
        b, t, _ = pre.shape
        pooled = pre.view(b, t, self.maxout_size, 2).amax(dim=-1)  # [B,T,2O] -> [B,T,O,2] -> [B,T,O]
        hook = self.hook_hidden.steps if steps else self.hook_hidden.step
        return self.dropout(hook(pooled))


class TokenEmbedding(nn.Module):
    """E y: one learned row per token (no positional encoding: the recurrence knows the order)."""

    def __init__(self, vocab_size: int, embed_dim: int, dropout: float, step_hooks: bool) -> None:
        super().__init__()
        self.token = nn.Embedding(vocab_size, embed_dim)
        self.dropout = nn.Dropout(dropout)
        self.hook_ids, self.hook_mask = HookPoint(), HookPoint()
        self.hook_embed = StepHookPoint() if step_hooks else HookPoint()

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        """[B,T] ids -> [B,T,E] (no hooks: the decoder loop records its steps itself)."""
        return self.dropout(self.token(ids))

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The source side: record ids and mask, embed the whole sentence at once."""
        self.hook_ids(ids)
        self.hook_mask(mask)
        return self.hook_embed(self.embed(ids))  # [B,S] -> [B,S,E]
