"""Generation: the one place that turns a source into output tokens.

    generate(model, src_ids, strategy="greedy" | "sample" | "beam", ...) -> GenerationResult

Incremental decoding with a key/value cache (kv_cache.py): the encoder runs once; at step t the
decoder is fed only the newest token, its self-attention appends that position's K and V to each
layer's cache and reads all cached rows, and cross-attention reuses the K and V it projected from
the memory at the first step. Only the last position goes through the output projection.
`use_cache=False` recomputes the decoder over the whole prefix at every step instead (same numbers,
tested to 1e-5; benchmarks/generation.py measures the difference in speed).

Strategies (every one batched, stopping at EOS or at the length limit):
- greedy: the argmax at every step.
- sample: softmax(logits / temperature), then the top-k cut, then the top-p (nucleus) cut, then a
  draw from what is left, with a seeded `torch.Generator` (same seed, same output). temperature 0
  means greedy.
- beam: keeps `beam_width` hypotheses per source, ranked by summed log-probability; a hypothesis
  that ends with EOS is finished and scored log P / lp(|Y|), |Y| its length with EOS; decoding stops
  when a source has `beam_width` finished hypotheses (or at the limit) and returns the best one.
  The length penalty lp is GNMT's (Wu et al. 2016, eq. 14), the one the paper cites (section 6.1:
  beam size 4, alpha = 0.6): lp(|Y|) = ((5 + |Y|) / 6) ** alpha (`length_rule="gnmt"`, the default);
  `length_rule="power"` divides by |Y| ** alpha instead (alpha = 1: the mean log-probability).

Patches (hooks.patching): with `patches` (or inside an outer `patching()` block) decoding always
recomputes the whole prefix, because a patch may depend on the whole prefix (for example one that
removes `tgt.causal_mask`, or rewrites row 0 of a [B,H,T,T] tensor). A cached step shows each hook
only the newest position, so the same patch would act differently; by recomputing, every step sees
exactly what the recorded teacher-forced pass over the output sees. Every position goes through
the output projection only when a patch names `logits` (the one hook after it).

The app records ONE teacher-forced pass (`Transformer.trace`) over whatever was generated; the
pictures come from that pass. The cache path records nothing.

A model is decodable when it implements `Decodable` (encode; `start_decoding` -> a `DecodingState`
that runs one decoding step with its cache and reorders it for beam search; `hook_names`; a public
`patched(...)` context). The Transformer and the 2015 RNN both do; neither imports this module.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

import torch

from transformer_core.tracing.hooks import Patch, is_patching, patched_names
from transformer_core.tracing.names import LOGITS

Strategy = Literal["greedy", "sample", "beam"]
STRATEGIES: tuple[str, ...] = ("greedy", "sample", "beam")
MAX_BEAM_WIDTH = 8
LengthRule = Literal["gnmt", "power"]
LENGTH_RULES: tuple[str, ...] = ("gnmt", "power")
PAPER_BEAM_WIDTH = 4  # section 6.1: "beam search with a beam size of 4 and length penalty alpha = 0.6"
PAPER_LENGTH_PENALTY = 0.6


def length_penalty_factor(length: int, alpha: float, rule: LengthRule = "gnmt") -> float:
    """What a finished hypothesis's summed log-probability is divided by: GNMT's ((5 + |Y|) / 6) ** alpha,
    or |Y| ** alpha with rule "power"."""
    if rule == "gnmt":
        return ((5.0 + length) / 6.0) ** alpha
    if rule == "power":
        return float(length) ** alpha
    raise ValueError(f"unknown length rule {rule!r}; choose one of {', '.join(LENGTH_RULES)}")


@dataclass(frozen=True)
class DecodingSettings:
    """A strategy and its knobs, hashable (the app keys its cache of traces by it)."""

    strategy: Strategy = "greedy"
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float | None = None
    seed: int = 0
    beam_width: int = PAPER_BEAM_WIDTH
    length_penalty: float = PAPER_LENGTH_PENALTY  # alpha
    length_rule: LengthRule = "gnmt"

    def kwargs(self) -> dict:
        """Keyword arguments for `generate` (only those the strategy uses)."""
        if self.strategy == "sample":
            return {"strategy": "sample", "temperature": self.temperature, "top_k": self.top_k,
                    "top_p": self.top_p, "seed": self.seed}
        if self.strategy == "beam":
            return {"strategy": "beam", "beam_width": self.beam_width, "length_penalty": self.length_penalty,
                    "length_rule": self.length_rule}
        return {"strategy": "greedy"}


@dataclass(frozen=True)
class BeamCandidate:
    """One candidate continuation considered at a beam step (for the hypothesis tree)."""

    parent: int  # index of the hypothesis it extends among the previous step's alive ones
    token: int
    log_prob: float  # summed log-probability of the whole hypothesis
    status: Literal["alive", "finished", "pruned"]
    slot: int  # its index among this step's alive hypotheses (alive only, else -1)
    score: float  # the ranking score (finished: log_prob / length_penalty_factor(length); else log_prob)


@dataclass
class GenerationResult:
    """Output ids [B, 1+n] (BOS first, pad after EOS), and what the chosen strategy recorded."""

    ids: torch.Tensor
    reached_limit: list[bool]  # per source: stopped by the length limit, not by EOS
    step_logits: list[torch.Tensor] | None = None  # greedy/sample with return_logits: [B,V] per step
    beam_steps: list[list[list[BeamCandidate]]] | None = None  # beam: [source][step] -> candidates
    beam_scores: list[float] | None = None  # beam: the chosen hypothesis's score per source
    settings: DecodingSettings = field(default_factory=DecodingSettings)
    eos_id: int = -1
    pad_id: int = -1

    def tokens(self, row: int = 0) -> list[int]:
        """Generated ids of one source without BOS, cut before its EOS (and the padding after it)."""
        out = self.ids[row, 1:].tolist()
        if self.eos_id in out:
            return out[: out.index(self.eos_id)]
        return out  # no EOS: stopped by the length limit


# --- the protocol a model implements to be decoded -----------------------------------------------

@runtime_checkable
class DecodingState(Protocol):
    """What one decoding run keeps between steps (a KV cache, a recurrent state): made by
    `Decodable.start_decoding`, driven by `generate`."""

    device: torch.device

    def __call__(self, prefix: torch.Tensor) -> torch.Tensor:
        """The whole prefix [B,t] (BOS first) -> next-token logits [B,V]; feeds only what is new."""
        ...

    def reorder(self, index: torch.Tensor) -> None:
        """Beam search: row r continues row index[r] (its cache, its source)."""
        ...


@runtime_checkable
class Decodable(Protocol):
    """What `generate` needs from a model; models/transformer.py's `Transformer` and models/rnn.py's
    `RNNTranslator` implement it (neither imports this module).

    config          pad/bos/eos token ids, max_len, has_decoder
    hook_names      every trace name `patches` may name
    patched(p)      a context manager applying the patches `p` (checked against hook_names) inside it
    encode          source ids [B,S] (+ mask) -> (memory, src_mask), run once per generation
    start_decoding  memory, src_mask -> a DecodingState: one decoding step with a cache, and reorder
    """

    config: Any
    training: bool

    @property
    def hook_names(self) -> frozenset[str]: ...

    def patched(self, patches: Mapping[str, Patch] | None) -> AbstractContextManager[None]: ...

    def encode(self, src_ids: torch.Tensor, src_mask: torch.Tensor | None = None) -> tuple[Any, torch.Tensor]: ...

    def start_decoding(self, memory: Any, src_mask: torch.Tensor, *, use_cache: bool = True,
                       project_all: bool = False) -> DecodingState: ...

    def eval(self) -> Any: ...

    def train(self, mode: bool = True) -> Any: ...



# --- the distribution a sampling step draws from (also used by the decoder page) ---------------------

def top_k_top_p_filter(logits: torch.Tensor, top_k: int | None = None, top_p: float | None = None) -> torch.Tensor:
    """Logits [..., V] with every token outside the top-k and outside the top-p nucleus set to -inf.

    top-k keeps the k largest. top-p keeps the smallest set of most probable tokens whose
    probabilities sum to at least p (the most probable token always stays).
    """
    out = logits.clone()
    vocab = out.shape[-1]
    if top_k is not None and 0 < top_k < vocab:
        kth = torch.topk(out, top_k, dim=-1).indices  # [..., k]
        keep = torch.zeros_like(out, dtype=torch.bool).scatter(-1, kth, True)
        out = out.masked_fill(~keep, float("-inf"))
    if top_p is not None and 0.0 < top_p < 1.0:
        probs = torch.softmax(out, dim=-1)
        sorted_probs, order = probs.sort(dim=-1, descending=True)
        before = sorted_probs.cumsum(dim=-1) - sorted_probs  # mass of the more probable tokens
        drop_sorted = before >= top_p  # the set already reached p without this token
        drop_sorted[..., 0] = False
        drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
        out = out.masked_fill(drop, float("-inf"))
    return out


@dataclass(frozen=True)
class SamplingView:
    """The three distributions of one sampling step, [V] each: as the model gives it, after the
    temperature, after the top-k / top-p cut (renormalised: what the draw uses)."""

    raw: torch.Tensor
    tempered: torch.Tensor
    cut: torch.Tensor


def sampling_distributions(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
                           top_p: float | None = None) -> SamplingView:
    """Probabilities of one step's logits [V] before and after temperature and the cut."""
    logits = logits.float()
    raw = torch.softmax(logits, dim=-1)
    if temperature <= 0:  # greedy: all mass on the argmax
        tempered = torch.zeros_like(raw).scatter(-1, logits.argmax(-1, keepdim=True), 1.0)
        return SamplingView(raw, tempered, tempered)
    scaled = logits / temperature
    tempered = torch.softmax(scaled, dim=-1)
    cut = torch.softmax(top_k_top_p_filter(scaled, top_k, top_p), dim=-1)
    return SamplingView(raw, tempered, cut)


# --- the decoding loop ----------------------------------------------------------------------------------

# "We set the maximum output length during inference to input length + 50, but terminate early when
# possible" (Vaswani et al. 2017, section 6.1). Every decoder of the app (trace_text, the corpus, the sampling
# draws) asks output_limit, which gives an untrained model, which never says EOS, 50 new tokens whatever the
# input's length.
PAPER_EXTRA_OUTPUT = 50
LimitRule = Literal["paper", "untrained"]


class HasTrainedConfig(Protocol):
    """What the limit needs of a loaded model (io.LoadedModel): its config and whether it was trained."""

    config: Any
    trained: bool


def limit_rule(loaded: HasTrainedConfig) -> LimitRule:
    """Which output limit applies to `loaded`: the paper's, or the untrained model's 50 tokens."""
    return "paper" if loaded.trained else "untrained"


def output_limit(loaded: HasTrainedConfig, n_src: int) -> int:
    """New tokens for an input of `n_src` tokens: the paper's input length + 50 for a trained model, 50 for an
    untrained one (random weights: it never says EOS), within the positional table. Run to the paper's limit, a
    512-token input on untrained paper-base wrote 511 tokens of noise in 11 s into a 742 MB trace, more than the
    app's whole trace cache holds, so every click traced it again."""
    limit = n_src + PAPER_EXTRA_OUTPUT if limit_rule(loaded) == "paper" else PAPER_EXTRA_OUTPUT
    return max(0, min(loaded.config.max_len - 1, limit))


def step_limit(model: Decodable, max_new_tokens: int | None) -> int:
    """New tokens allowed: BOS + n must fit the positional table (max_len)."""
    room = model.config.max_len - 1
    return room if max_new_tokens is None else max(0, min(max_new_tokens, room))


@torch.no_grad()
def generate(model: Decodable, src_ids: torch.Tensor, src_mask: torch.Tensor | None = None, *,
             strategy: Strategy = "greedy", max_new_tokens: int | None = None,
             temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None,
             seed: int | None = None, generator: torch.Generator | None = None,
             beam_width: int = PAPER_BEAM_WIDTH, length_penalty: float = PAPER_LENGTH_PENALTY,
             length_rule: LengthRule = "gnmt",
             use_cache: bool = True, patches: Mapping[str, Patch] | None = None,
             return_logits: bool = False,
             progress: Callable[[int, int], None] | None = None) -> GenerationResult:
    """Decode `src_ids` [B,S] with `strategy`; see the module docstring. Returns ids [B, 1+n].

    `progress(step, limit)`, if given, is called after every step (for a progress bar).
    """
    cfg = model.config
    if not cfg.has_decoder:
        raise ValueError("an encoder-only model has no decoder to decode with")
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown decoding strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    was_training = model.training
    model.eval()
    try:
        with model.patched(patches):
            patched = is_patching()  # these patches or an outer patching() block
            memory, src_mask = model.encode(src_ids, src_mask)
            stepper = model.start_decoding(memory, src_mask, use_cache=use_cache and not patched,
                                           project_all=LOGITS in patched_names())
            limit = step_limit(model, max_new_tokens)
            report = (lambda step: progress(step + 1, limit)) if progress is not None else (lambda step: None)
            if strategy == "beam":
                length_penalty_factor(1, length_penalty, length_rule)  # an unknown rule fails before decoding
                result = _beam_search(model, stepper, src_ids.shape[0], limit, beam_width, length_penalty,
                                      length_rule, report)
            else:
                if strategy == "sample" and temperature > 0 and generator is None:
                    generator = torch.Generator(device=src_ids.device).manual_seed(0 if seed is None else seed)
                result = _sample_or_greedy(model, stepper, src_ids.shape[0], limit,
                                           strategy == "sample" and temperature > 0,
                                           temperature, top_k, top_p, generator, return_logits, report)
    finally:
        model.train(was_training)
    result.eos_id, result.pad_id = cfg.eos_token_id, cfg.pad_token_id
    result.settings = DecodingSettings(strategy, temperature, top_k, top_p, 0 if seed is None else seed,
                                       beam_width, length_penalty, length_rule)
    return result


def _sample_or_greedy(model: Decodable, stepper: DecodingState, batch: int, limit: int, sample: bool,
                      temperature: float, top_k: int | None, top_p: float | None,
                      generator: torch.Generator | None, return_logits: bool,
                      report: Callable[[int], None]) -> GenerationResult:
    cfg = model.config
    device = stepper.device
    out = torch.full((batch, 1), cfg.bos_token_id, dtype=torch.long, device=device)
    done = torch.zeros(batch, dtype=torch.bool, device=device)
    logits_per_step: list[torch.Tensor] = []
    for _ in range(limit):
        logits = stepper(out)  # [B,V]: predicts position t+1
        if return_logits:
            logits_per_step.append(logits.cpu())
        if sample:
            filtered = top_k_top_p_filter(logits.float() / temperature, top_k, top_p)
            next_id = torch.multinomial(torch.softmax(filtered, dim=-1), 1, generator=generator)[:, 0]  # [B]
        else:
            next_id = logits.argmax(-1)
        next_id = torch.where(done, torch.full_like(next_id, cfg.pad_token_id), next_id)
        out = torch.cat([out, next_id[:, None]], dim=1)  # [B, t] -> [B, t+1]
        done |= next_id == cfg.eos_token_id
        report(out.shape[1] - 2)  # the 0-based step just done
        if done.all():
            break
    return GenerationResult(out, (~done).tolist(), step_logits=logits_per_step if return_logits else None)


def _beam_search(model: Decodable, stepper: DecodingState, batch: int, limit: int, width: int,
                 length_penalty: float, length_rule: LengthRule,
                 report: Callable[[int], None]) -> GenerationResult:
    """Beam search over `batch` sources at once: rows b*W .. b*W+W-1 are source b's hypotheses."""
    if not 1 <= width <= MAX_BEAM_WIDTH:
        raise ValueError(f"beam width must be between 1 and {MAX_BEAM_WIDTH}, not {width}")
    cfg = model.config
    device = stepper.device
    expand = torch.arange(batch, device=device).repeat_interleave(width)  # [B*W]: source of each row
    stepper.reorder(expand)
    prefix = torch.full((batch * width, 1), cfg.bos_token_id, dtype=torch.long, device=device)
    scores = torch.full((batch, width), float("-inf"), device=device)
    scores[:, 0] = 0.0  # at the start every hypothesis is BOS: keep one, or the beam fills with copies
    finished: list[list[tuple[float, float, list[int]]]] = [[] for _ in range(batch)]  # (score, logp, ids)
    records: list[list[list[BeamCandidate]]] = [[] for _ in range(batch)]
    closed = [False] * batch

    def penalised(log_prob: float, length: int) -> float:
        return log_prob / length_penalty_factor(length, length_penalty, length_rule)

    for step in range(limit):
        logits = stepper(prefix)  # [B*W, V]
        log_probs = torch.log_softmax(logits.float(), dim=-1)
        vocab = log_probs.shape[-1]
        total = (scores[:, :, None] + log_probs.view(batch, width, vocab)).view(batch, width * vocab)  # [B, W*V]
        top_scores, top_index = total.topk(min(2 * width, width * vocab), dim=-1)  # [B, 2W]
        parents, tokens = top_index // vocab, top_index % vocab
        new_scores = torch.full((batch, width), float("-inf"), device=device)
        origin = torch.zeros(batch, width, dtype=torch.long, device=device)
        next_token = torch.full((batch, width), cfg.pad_token_id, dtype=torch.long, device=device)
        length = step + 1  # generated tokens, EOS included
        for b in range(batch):
            step_record: list[BeamCandidate] = []
            slot = 0
            for rank in range(top_scores.shape[1]):
                log_prob = float(top_scores[b, rank])
                parent, token = int(parents[b, rank]), int(tokens[b, rank])
                if closed[b] or not math.isfinite(log_prob):
                    continue
                if slot >= width:
                    step_record.append(BeamCandidate(parent, token, log_prob, "pruned", -1, log_prob))
                elif token == cfg.eos_token_id:
                    if rank < width:  # an EOS among the W best ends a hypothesis; a lower one is pruned
                        ids = [*prefix[b * width + parent, 1:].tolist(), token]
                        score = penalised(log_prob, length)
                        finished[b].append((score, log_prob, ids))
                        step_record.append(BeamCandidate(parent, token, log_prob, "finished", -1, score))
                    else:
                        step_record.append(BeamCandidate(parent, token, log_prob, "pruned", -1, log_prob))
                else:
                    new_scores[b, slot], origin[b, slot], next_token[b, slot] = log_prob, parent, token
                    step_record.append(BeamCandidate(parent, token, log_prob, "alive", slot, log_prob))
                    slot += 1
            if not closed[b]:
                records[b].append(step_record)
                if len(finished[b]) >= width:
                    closed[b] = True
                    new_scores[b] = float("-inf")
        report(step)
        if all(closed):
            break
        rows = (torch.arange(batch, device=device)[:, None] * width + origin).view(-1)  # [B*W] parent rows
        prefix = torch.cat([prefix.index_select(0, rows), next_token.view(-1, 1)], dim=1)  # [B*W, t+1]
        stepper.reorder(rows)
        scores = new_scores
    reached = [not closed[b] for b in range(batch)]
    for b in range(batch):  # at the limit, the alive hypotheses compete with the finished ones
        if not closed[b]:
            for w in range(width):
                log_prob = float(scores[b, w])
                if math.isfinite(log_prob):
                    ids = prefix[b * width + w, 1:].tolist()
                    finished[b].append((penalised(log_prob, max(1, len(ids))), log_prob, ids))
    best = [max(hyps, key=lambda h: h[0]) for hyps in finished]
    width_out = 1 + max(len(h[2]) for h in best)
    out = torch.full((batch, width_out), cfg.pad_token_id, dtype=torch.long, device=device)
    out[:, 0] = cfg.bos_token_id
    for b, (_, _, ids) in enumerate(best):
        out[b, 1:1 + len(ids)] = torch.tensor(ids, dtype=torch.long, device=device)
    reached = [r and cfg.eos_token_id not in h[2] for r, h in zip(reached, best, strict=True)]
    return GenerationResult(out, reached, beam_steps=records, beam_scores=[h[0] for h in best])
