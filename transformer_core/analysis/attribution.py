"""Why this output? Attribution next to attention: gradients, attention rollout, logit lens, patching.

Torch only. Every method works on the same teacher-forced pass the pages show (`trace_text`): the
decoder input is BOS + the model's own output, and row t of the logits produces output token t.

- `attribute`: gradient x input and integrated gradients (Sundararajan et al. 2017) of
  f_t = log p(output token t) with respect to the source token embeddings (the `src.embed` hook,
  replaced through `patches=`), summed over the embedding dimension -> [T_out, S]. Baseline: the token
  embeddings set to zero, the positional encoding kept (it is added after the hook). IG uses the
  midpoint rule over `steps` points, all steps in ONE batch, so Σ_s IG[t, s] ≈ f_t(x) − f_t(baseline).
- `attention_rollout` (Abnar & Zuidema 2020): Ã_l = 0.5·mean_h(A_l) + 0.5·I, rows renormalised,
  R = Ã_L ⋯ Ã_1; for the encoder and for the decoder's self-attention.
- `logit_lens`: each decoder layer's output through the final norm (when the model has one) and the
  output layer; the last layer gives the model's logits.
- `patching_grid`: sentence B run with one layer output at one position taken from sentence A (same
  token count), teacher-forced on A's output: how much of A's output-token probability comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

from transformer_core.tracing.names import (
    DECODER_OUT,
    ENCODER_OUT,
    RNN_ATTENTION_WEIGHTS,
    RNN_OUTPUT_HIDDEN,
    SRC_EMBED,
    SRC_IDS,
    TGT_IDS,
    AttentionKind,
    attention_name,
    layer_name,
)
from transformer_core.tracing.trace import Trace

DEFAULT_STEPS = 32
Score = Callable[[torch.Tensor], torch.Tensor]  # model output [N, ...] -> [N, R] scalars, one per row


# --- gradients --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Attribution:
    """Attributions [R, S] of R scalars (one per output token, or per chosen encoder position)."""

    integrated_gradients: torch.Tensor  # [R, S]
    grad_x_input: torch.Tensor  # [R, S]
    f_input: torch.Tensor  # [R]  f at the real input
    f_baseline: torch.Tensor  # [R]  f at the baseline (token embeddings zero)
    steps: int

    def completeness(self) -> list[dict[str, float]]:
        """Per row: Σ_s IG (`sum`) next to f(x) − f(baseline) (`delta`); equal up to the step error."""
        sums = self.integrated_gradients.sum(-1)
        deltas = self.f_input - self.f_baseline
        return [{"sum": float(s), "delta": float(d)} for s, d in zip(sums, deltas, strict=True)]


def ig_alphas(steps: int) -> torch.Tensor:
    """The midpoint rule's points on (0, 1): (k + 0.5) / steps."""
    if steps < 1:
        raise ValueError(f"integrated gradients needs at least 1 step, got {steps}")
    return (torch.arange(steps, dtype=torch.float32) + 0.5) / steps


class LogProbScore:
    """f_t = log p(targets[t]) from logits [N, T, V] (row t produces targets[t]) -> [N, R], for the chosen rows.

    `from_states` gives the same numbers from what the output projection reads (`head_inputs` [N, T, D]), one
    row through the projection at a time: each row's gradient then runs back through its own [N, V] logits, not
    through the whole [N, T, V] of every row (attribute takes one backward pass per row; for ko-en-toy's 17,075
    tokens the full logits were most of each pass)."""

    def __init__(self, targets: Sequence[int], rows: Sequence[int] | None = None) -> None:
        self.rows = list(range(len(targets))) if rows is None else list(rows)
        self.index = torch.tensor([targets[r] for r in self.rows], dtype=torch.long)
        self.positions = torch.tensor(self.rows, dtype=torch.long)

    def __call__(self, logits: torch.Tensor) -> torch.Tensor:
        log_probs = torch.log_softmax(logits[:, self.positions.to(logits.device)].float(), dim=-1)  # [N, R, V]
        index = self.index.to(logits.device)[None, :, None].expand(len(logits), len(self.rows), 1)
        return log_probs.gather(-1, index)[..., 0]

    def from_states(self, head_inputs: torch.Tensor, head: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
        columns = []
        for position, target in zip(self.rows, self.index.tolist(), strict=True):
            log_probs = torch.log_softmax(head(head_inputs[:, position]).float(), dim=-1)  # [N, D] -> [N, V]
            columns.append(log_probs[:, target])
        return torch.stack(columns, dim=1)  # [N, R]


def log_prob_score(targets: Sequence[int], rows: Sequence[int] | None = None) -> LogProbScore:
    """f_t = log p(targets[t]) from logits [N, T, V] (row t produces targets[t]) -> [N, R], for every row t,
    or only for `rows` (R = len(rows))."""
    return LogProbScore(targets, rows)


# What each architecture's output projection (`lm_head`) reads: the Transformer's decoder output (after its final
# norm, if any), the RNN's maxout output (its dropout is off in eval mode).
HEAD_INPUTS = (DECODER_OUT, RNN_OUTPUT_HIDDEN)


def direction_score(output: torch.Tensor, positions: Sequence[int]) -> Score:
    """For an encoder-only model: f_p = h_p · u_p, the final vector of token p along its own direction at
    the real input (u_p = h_p / |h_p|), so a token's share says how much it builds that vector."""
    index = torch.tensor(list(positions), dtype=torch.long)
    units = output[0, index].detach()
    units = units / units.norm(dim=-1, keepdim=True).clamp_min(1e-12)  # [R, D]

    def score(states: torch.Tensor) -> torch.Tensor:
        return (states[:, index.to(states.device)] * units.to(states.device)).sum(-1)  # [N, R]

    return score


def _scaled_pass(model, src_ids: torch.Tensor, tgt_ids: torch.Tensor | None, scales: torch.Tensor,
                 score: Score) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One forward pass over len(scales) copies of the sentence, copy n with its token embeddings times
    scales[n] (zeros baseline + α·(x − 0)). Returns (f [N, R], the scaled embeddings as a grad leaf
    [N, S, D], the real embeddings [S, D])."""
    held: dict[str, torch.Tensor] = {}

    def patch(embed: torch.Tensor) -> torch.Tensor:
        real = embed.detach()
        held["real"] = real[0]
        # A leaf per copy: the gradient is taken at α·x itself, not through α.
        held["leaf"] = (real * scales.to(real)[:, None, None]).requires_grad_(True)
        return held["leaf"]

    head_slices: list[torch.Tensor] = []

    def keep_head_input(states: torch.Tensor) -> torch.Tensor:
        head_slices.append(states)  # the whole [N, T, D], or the RNN's steps one [N, 1, O] slice at a time, in order
        return states

    n = len(scales)
    src = src_ids.expand(n, -1)
    head_input = next((name for name in HEAD_INPUTS if name in getattr(model, "hook_names", ())), None)
    per_row = isinstance(score, LogProbScore) and tgt_ids is not None and head_input is not None \
        and hasattr(model, "lm_head")
    with torch.enable_grad():
        if tgt_ids is None:
            output = model(src, patches={SRC_EMBED: patch})
        else:
            patches = {SRC_EMBED: patch, **({head_input: keep_head_input} if per_row else {})}
            output = model(src, tgt_ids.expand(n, -1), patches=patches)
        f = score.from_states(torch.cat(head_slices, dim=1), model.lm_head) if per_row else score(output)
    return f, held["leaf"], held["real"]


def attribute(model, src_ids: torch.Tensor, tgt_ids: torch.Tensor | None, score: Score,
              steps: int = DEFAULT_STEPS, batched: bool = True) -> Attribution:
    """Gradient x input and integrated gradients of `score`'s R scalars w.r.t. the source token embeddings.

    src_ids [1, S]; tgt_ids [1, T] (BOS + output, teacher forcing) or None for an encoder-only model.
    `batched=False` runs each IG step as its own pass (the same numbers; kept for the test).
    """
    if src_ids.shape[0] != 1 or (tgt_ids is not None and tgt_ids.shape[0] != 1):
        raise ValueError("attribution explains one sentence: batch size 1")
    was_training = model.training
    model.eval()  # no dropout: the gradients of the pass the pages show
    try:
        alphas = ig_alphas(steps)
        # One batch: the IG points, then the real input (α = 1) and the baseline (α = 0).
        groups = [torch.cat([alphas, torch.tensor([1.0, 0.0])])] if batched else \
            [torch.tensor([float(a)]) for a in [*alphas, 1.0, 0.0]]
        grads: list[list[torch.Tensor]] = []  # per group: R gradients [n, S, D]
        values: list[torch.Tensor] = []
        real = None
        for scales in groups:
            f, leaf, real = _scaled_pass(model, src_ids, tgt_ids, scales, score)
            rows = f.shape[1]
            grads.append([torch.autograd.grad(f[:, r].sum(), leaf, retain_graph=r < rows - 1)[0]
                          for r in range(rows)])
            values.append(f.detach())
        f_all = torch.cat(values)  # [steps + 2, R]
        g_all = torch.stack([torch.cat([g[r] for g in grads]) for r in range(f_all.shape[1])])  # [R, steps+2, S, D]
    finally:
        model.train(was_training)
    ig = (g_all[:, :steps].mean(1) * real).sum(-1)  # x · mean_k ∇f(α_k x), summed over D
    gxi = (g_all[:, steps] * real).sum(-1)
    return Attribution(ig.detach(), gxi.detach(), f_all[steps], f_all[steps + 1], steps)


# --- attention rollout ------------------------------------------------------------------------------

def attention_rollout(layers: Sequence[torch.Tensor]) -> torch.Tensor:
    """R = Ã_L ⋯ Ã_1 with Ã_l = 0.5·mean_h(A_l) + 0.5·I, rows renormalised; `layers` [H, S, S] from the
    first layer up. Row i of R: how much each input position flows into position i at the top."""
    if not layers:
        raise ValueError("rollout needs at least one attention layer")
    size = layers[0].shape[-1]
    eye = torch.eye(size, dtype=torch.float64)
    rollout = eye
    for weights in layers:
        mixed = 0.5 * weights.double().mean(0) + 0.5 * eye
        mixed = mixed / mixed.sum(-1, keepdim=True)
        rollout = mixed @ rollout
    return rollout.float()


def trace_rollout(trace: Trace, kind: AttentionKind | str = AttentionKind.ENCODER_SELF) -> torch.Tensor:
    """Rollout of a trace's encoder ([S, S]) or decoder self-attention ([T, T]), batch item 0."""
    kind = AttentionKind.parse(kind)
    if kind is AttentionKind.CROSS:
        raise ValueError("rollout runs over self-attention: the encoder's or the decoder's")
    n = trace.n_layers(kind.stack)
    if n == 0:
        raise ValueError(f"this model has no {kind.stack} self-attention")
    return attention_rollout([trace[attention_name(kind, i)][0] for i in range(n)])


# --- logit lens -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogitLens:
    """Decoder layer outputs read as next-token distributions: logits [L, T, V]."""

    logits: torch.Tensor

    def top(self, k: int = 3) -> tuple[torch.Tensor, torch.Tensor]:
        """(probabilities [L, T, k], token ids [L, T, k]) of the k most likely tokens per layer and position."""
        return torch.softmax(self.logits.float(), dim=-1).topk(k, dim=-1)


def logit_lens(model, trace: Trace) -> LogitLens:
    """Each `decoder.{i}.out` through the decoder's final LayerNorm (when the model has one) and lm_head."""
    n = trace.n_layers("decoder")
    if n == 0:
        raise ValueError("the logit lens reads a decoder: this model has none")
    norm = getattr(model.decoder, "norm", None)
    rows = []
    with torch.no_grad():
        for i in range(n):
            hidden = trace[layer_name("decoder", i, "out")][0]
            if norm is not None:
                hidden = norm(hidden)
            rows.append(model.lm_head(hidden))
    return LogitLens(torch.stack(rows))


# --- activation patching between two sentences -------------------------------------------------------

@dataclass(frozen=True)
class PatchingGrid:
    """B run with layer `l`'s output at position `p` taken from A, for every (l, p); teacher-forced on A's output.

    log_probs [L, P, R]: log p(A's output token r) in each patched run; log_probs_a / log_probs_b [R]:
    the same in A's and in B's own (unpatched) runs.
    """

    site: str  # "encoder" (P = source positions) or "decoder" (P = decoder positions)
    log_probs: torch.Tensor
    log_probs_a: torch.Tensor
    log_probs_b: torch.Tensor
    argmax_ids: torch.Tensor = field(repr=False)  # [L, P, R] the patched run's top token per row

    def recovered(self, row: int | None = None) -> torch.Tensor:
        """[L, P]: (p_patched − p_B) / (p_A − p_B) of output token `row`; `row=None`: the same with the log
        probability of A's whole output. 1 = all of A's comes back, 0 = nothing; nan where A and B agree."""
        if row is None:
            patched, a, b = self.log_probs.sum(-1), self.log_probs_a.sum(), self.log_probs_b.sum()
        else:
            patched, a, b = self.log_probs[..., row].exp(), self.log_probs_a[row].exp(), self.log_probs_b[row].exp()
        gap = a - b
        if abs(float(gap)) < 1e-6:
            return torch.full_like(patched, float("nan"))
        return (patched - b) / gap


def check_same_length(src_a: torch.Tensor, src_b: torch.Tensor) -> None:
    """ValueError unless the two sentences have the same number of tokens."""
    if src_a.shape != src_b.shape:
        raise ValueError(f"patching needs two sentences with the same number of tokens: A has {src_a.shape[-1]}, "
                         f"B has {src_b.shape[-1]}")


def cell_patches(trace_a: Trace, site: str, cells: Sequence[tuple[int, int]], same_copy: bool = False) -> dict:
    """Patches for a batch of len(cells) copies of B: copy n gets A's `{site}.{layer}.out` at `position`
    (`same_copy`: every cell goes into copy 0, for one run of B)."""
    by_layer: dict[int, list[tuple[int, int]]] = {}
    for n, (layer, position) in enumerate(cells):
        by_layer.setdefault(layer, []).append((0 if same_copy else n, position))
    patches = {}
    for layer, items in by_layer.items():
        name = layer_name(site, layer, "out")
        source = trace_a[name][0]  # [P, D]
        rows = torch.tensor([n for n, _ in items])
        positions = torch.tensor([p for _, p in items])

        def patch(x: torch.Tensor, rows=rows, positions=positions, source=source) -> torch.Tensor:
            keep = positions < x.shape[1]  # greedy decoding feeds shorter prefixes first
            x = x.clone()
            x[rows[keep], positions[keep]] = source[positions[keep]].to(x)
            return x

        patches[name] = patch
    return patches


def position_patches(trace_a: Trace, site: str, layer: int, positions: Sequence[int]) -> dict:
    """Patches for ONE run of B: `{site}.{layer}.out` at `positions` replaced by A's (from `trace_a`)."""
    return cell_patches(trace_a, site, [(layer, p) for p in positions], same_copy=True)


def patched_output(model, src_a: torch.Tensor, src_b: torch.Tensor, tgt_a: torch.Tensor, site: str, layer: int,
                   positions: Sequence[int], max_new_tokens: int | None = None) -> list[int]:
    """B's greedy output (ids, BOS and EOS dropped) with `{site}.{layer}.out` at `positions` taken from A's
    teacher-forced pass over its own output `tgt_a`."""
    from transformer_core.inference.generation import generate

    check_same_length(src_a, src_b)
    patches = position_patches(model.trace(src_a, tgt_a), site, layer, positions)
    return generate(model, src_b, max_new_tokens=max_new_tokens, patches=patches).tokens(0)


def patching_grid(model, src_a: torch.Tensor, src_b: torch.Tensor, tgt_a: torch.Tensor, targets: Sequence[int],
                  site: str = "encoder") -> PatchingGrid:
    """Every (layer, position) of `site` patched from A into B in ONE batched pass; see PatchingGrid."""
    check_same_length(src_a, src_b)
    if site not in ("encoder", "decoder"):
        raise ValueError(f"patch site {site!r}: 'encoder' or 'decoder'")
    n_layers = model.config.n_encoder_layers if site == "encoder" else model.config.n_decoder_layers
    if n_layers == 0 or not model.config.has_decoder:
        raise ValueError("patching compares output probabilities: it needs an encoder-decoder model")
    trace_a = model.trace(src_a, tgt_a)
    positions = src_a.shape[1] if site == "encoder" else tgt_a.shape[1]
    cells = [(layer, p) for layer in range(n_layers) for p in range(positions)]
    score = log_prob_score(targets)
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            own = model(torch.cat([src_a, src_b]), tgt_a.expand(2, -1))
            logits = model(src_b.expand(len(cells), -1), tgt_a.expand(len(cells), -1),
                           patches=cell_patches(trace_a, site, cells))
    finally:
        model.train(was_training)
    own_scores = score(own)
    rows = len(targets)
    return PatchingGrid(site, score(logits).view(n_layers, positions, rows), own_scores[0], own_scores[1],
                        logits[:, :rows].argmax(-1).view(n_layers, positions, rows))


# --- one sentence, everything ------------------------------------------------------------------------

@dataclass(frozen=True)
class Explanation:
    """All methods for one traced sentence. Rows are output tokens (encoder-only: the chosen positions)."""

    src_tokens: list[str]
    row_tokens: list[str]  # output tokens (</s> included when generated); encoder-only: the chosen tokens
    attribution: Attribution
    cross_attention: torch.Tensor | None  # [H, R, S] last decoder layer (RNN: its one alignment, H = 1)
    rollout: torch.Tensor | None  # [S, S] encoder self-attention rollout (None for the RNN)
    decoder_rollout: torch.Tensor | None  # [T, T]
    logit_lens: LogitLens | None
    architecture: str  # "transformer", "encoder-only" or "rnn"
    positions: list[int] = field(default_factory=list)  # encoder-only: the explained positions
    attributed_rows: list[int] | None = None  # the rows `attribution` covers, in order (None: every row)

    def attribution_row(self, row: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(integrated gradients [S], gradient x input [S]) of output row `row`; KeyError if not attributed."""
        index = row if self.attributed_rows is None else self.attributed_rows.index(row)
        return self.attribution.integrated_gradients[index], self.attribution.grad_x_input[index]

    @property
    def cross_attention_mean(self) -> torch.Tensor | None:
        return None if self.cross_attention is None else self.cross_attention.mean(0)

    @property
    def rollout_cross_attention(self) -> torch.Tensor | None:
        """[R, S]: the head-averaged cross-attention carried back through the encoder's rollout."""
        if self.cross_attention is None or self.rollout is None:
            return None
        return self.cross_attention_mean @ self.rollout


def output_targets(traced, eos_id: int) -> tuple[torch.Tensor, list[int]]:
    """(decoder input [1, T] = BOS + output, the token id each row produced) of a TextTrace: every output
    token, then EOS unless generation stopped at the length limit (its last row was never used)."""
    tgt = traced.trace[TGT_IDS]
    targets = tgt[0, 1:].tolist()
    if not traced.reached_limit:
        targets.append(eos_id)
    return tgt, targets


def explain_trace(loaded, traced, steps: int = DEFAULT_STEPS, positions: Sequence[int] | None = None,
                  rows: Sequence[int] | None = None) -> Explanation:
    """Every method for one `trace_text` result (the same recorded pass); `positions` for encoder-only models
    (default: the first token, [CLS]); `rows`: attribute only these output rows (a big model's long output
    costs one backward pass per row)."""
    model, trace, config = loaded.model, traced.trace, loaded.config
    src = trace[SRC_IDS]
    is_rnn = RNN_ATTENTION_WEIGHTS in trace
    if not config.has_decoder:
        positions = list(positions) if positions else [0]
        if any(not 0 <= p < src.shape[1] for p in positions):
            raise ValueError(f"positions {positions} outside the {src.shape[1]} source tokens")
        score = direction_score(trace[ENCODER_OUT], positions)
        attribution = attribute(model, src, None, score, steps)
        return Explanation(traced.src_tokens, [traced.src_tokens[p] for p in positions], attribution, None,
                           trace_rollout(trace), None, None, "encoder-only", positions)
    tgt, targets = output_targets(traced, config.eos_token_id)
    if not targets:
        raise ValueError("the output is empty: nothing to explain")
    if rows is not None:
        rows = list(rows)
        if not rows or any(not 0 <= r < len(targets) for r in rows):
            raise ValueError(f"rows {rows} outside the {len(targets)} output tokens")
    attribution = attribute(model, src, tgt, log_prob_score(targets, rows), steps)
    n_rows = len(targets)
    tokens = loaded.tokenizer.convert_ids_to_tokens(targets)
    if is_rnn:
        cross = trace[RNN_ATTENTION_WEIGHTS][0, :n_rows][None]  # one "head"
        return Explanation(traced.src_tokens, tokens, attribution, cross, None, None, None, "rnn",
                           attributed_rows=rows)
    last = trace.n_layers("decoder") - 1
    cross = trace[attention_name(AttentionKind.CROSS, last)][0, :, :n_rows]
    return Explanation(traced.src_tokens, tokens, attribution, cross, trace_rollout(trace),
                       trace_rollout(trace, AttentionKind.DECODER_SELF), logit_lens(model, trace), "transformer",
                       attributed_rows=rows)
