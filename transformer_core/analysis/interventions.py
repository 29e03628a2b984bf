"""Ready-made interventions ("what if ...?") built on the core patching API (`patches=`, see hooks.py).

Each hook-level intervention returns a `patches` dict (trace name -> tensor -> tensor) for
`Transformer.forward/trace`, `generate` and `trace_text`; dicts compose with `merge_patches`.

    switch a head off      zero_heads / mean_ablate_heads / uniform_heads   at '<attention>.context'
                           or '<attention>.masked_scores'
    remove positions       remove_positional_encoding('src' | 'tgt' | 'both')   at 'src.pos' / 'tgt.pos'
    remove the causal mask remove_causal_mask()                               at 'tgt.causal_mask'

Shuffling the source word order is an input-level intervention, not a patch: `shuffle_words` is a
pure function of the text and a seed.

`Intervention` is the serialisable description of one experiment (which heads are off and how,
positions, causal mask, shuffle) with a URL form, e.g. ``off=enc.0.1,cross.1.2&pe=src&causal=0&shuffle=3``;
`Intervention.patches(config, means)` turns it into the patches dict.

Heads are named `<kind>.<layer>.<head>` with kind `enc` (encoder self-attention), `dec` (decoder
self-attention) or `cross` (decoder cross-attention); `<kind>.<layer>.*` is every head of a layer.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

import torch

from transformer_core.inference.generation import generate
from transformer_core.models.config import TransformerConfig
from transformer_core.tracing.hooks import Patch
from transformer_core.tracing.trace import Trace

if TYPE_CHECKING:
    from transformer_core.inference.text import TextTrace
    from transformer_core.io.loading import LoadedModel

# Short kind -> (stack, attention module): 'cross' -> decoder.{i}.cross_attn
KINDS: dict[str, tuple[str, str]] = {
    "enc": ("encoder", "self_attn"),
    "dec": ("decoder", "self_attn"),
    "cross": ("decoder", "cross_attn"),
}
METHODS = ("zero", "mean", "uniform")
PE_SIDES = ("", "src", "tgt", "both")


# --- heads -------------------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Head:
    """One attention head: kind ('enc' | 'dec' | 'cross'), layer, head."""

    kind: str
    layer: int
    head: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown attention kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        if self.layer < 0 or self.head < 0:
            raise ValueError(f"negative layer or head in {self}")

    @property
    def attention(self) -> str:
        """The attention module's trace prefix, e.g. 'decoder.1.cross_attn'."""
        stack, attn = KINDS[self.kind]
        return f"{stack}.{self.layer}.{attn}"

    def __str__(self) -> str:
        return f"{self.kind}.{self.layer}.{self.head}"

    @classmethod
    def parse(cls, text: str) -> Head:
        """'cross.1.2' -> Head('cross', 1, 2); ValueError on anything else."""
        match = re.fullmatch(r"\s*(enc|dec|cross)\.(\d{1,3})\.(\d{1,3})\s*", text)
        if not match:
            raise ValueError(f"not a head: {text!r} (expected e.g. enc.0.1, dec.1.0 or cross.1.2)")
        return cls(match.group(1), int(match.group(2)), int(match.group(3)))


def layer_counts(config: TransformerConfig) -> dict[str, int]:
    """Layers per attention kind of a model (an encoder-only model has no 'dec'/'cross')."""
    decoder = config.n_decoder_layers if config.has_decoder else 0
    return {"enc": config.n_encoder_layers, "dec": decoder, "cross": decoder}


def all_heads(config: TransformerConfig) -> list[Head]:
    """Every head of the model, kind by kind, layer by layer."""
    return [Head(kind, layer, head) for kind, layers in layer_counts(config).items()
            for layer in range(layers) for head in range(config.n_heads)]


def layer_heads(kind: str, layer: int, n_heads: int) -> list[Head]:
    """Every head of one attention layer."""
    return [Head(kind, layer, h) for h in range(n_heads)]


def check_heads(heads: Iterable[Head], config: TransformerConfig) -> None:
    """ValueError naming the first head this model does not have."""
    counts = layer_counts(config)
    for head in heads:
        if head.layer >= counts[head.kind] or head.head >= config.n_heads:
            if counts[head.kind] == 0:
                raise ValueError(f"head {head}: this model has no {head.kind!r} attention (encoder-only)")
            raise ValueError(f"head {head} does not exist: this model has {counts[head.kind]} {head.kind!r} "
                             f"layers of {config.n_heads} heads")


def _by_attention(heads: Iterable[Head]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for head in sorted(set(heads)):
        grouped.setdefault(head.attention, []).append(head.head)
    return grouped


# --- patches -----------------------------------------------------------------------------------

def merge_patches(*dicts: Mapping[str, Patch]) -> dict[str, Patch]:
    """One patches dict from several; two patches at one hook are composed (the earlier one first)."""
    merged: dict[str, Patch] = {}
    for patches in dicts:
        for name, fn in patches.items():
            if name in merged:
                first = merged[name]
                merged[name] = (lambda f, g: lambda x: g(f(x)))(first, fn)
            else:
                merged[name] = fn
    return merged


def _set_heads(heads: list[int], value_of) -> Patch:
    """A patch on a [B,H,T,d] tensor that replaces heads `heads` by value_of(tensor, head)."""
    index = list(heads)

    def patch(x: torch.Tensor) -> torch.Tensor:
        out = x.clone()
        for h in index:
            out[:, h] = value_of(x, h)
        return out

    return patch


def zero_heads(heads: Iterable[Head]) -> dict[str, Patch]:
    """Switch heads off by zeroing their context (their share of W_O's input): head_h(...) = 0."""
    return {f"{attention}.context": _set_heads(hs, lambda x, h: 0.0) for attention, hs in _by_attention(heads).items()}


def mean_ablate_heads(heads: Iterable[Head], means: Mapping[str, torch.Tensor]) -> dict[str, Patch]:
    """Replace each head's context at every position by its mean over a reference set.

    `means` maps '<attention>.context' to [H, d_k] (see `reference_means`).
    """
    patches = {}
    for attention, hs in _by_attention(heads).items():
        name = f"{attention}.context"
        if name not in means:
            raise ValueError(f"no reference mean for {name!r}: compute reference_means over this model first")
        mean = means[name]
        patches[name] = _set_heads(hs, lambda x, h, mean=mean: mean[h].to(dtype=x.dtype, device=x.device))
    return patches


def uniform_heads(heads: Iterable[Head]) -> dict[str, Patch]:
    """Make heads attend uniformly over their ALLOWED keys (True in the mask), zero elsewhere.

    Patched at '<attention>.masked_scores': every finite score becomes 0 and blocked ones stay -inf,
    so the softmax gives 1/(number of allowed keys) on each allowed key, and context = mean of V over them.
    """

    def flat(x: torch.Tensor, h: int) -> torch.Tensor:
        return torch.where(torch.isneginf(x[:, h]), x[:, h], torch.zeros_like(x[:, h]))

    return {f"{attention}.masked_scores": _set_heads(hs, flat) for attention, hs in _by_attention(heads).items()}


def switch_off(heads: Iterable[Head], method: str = "zero",
               means: Mapping[str, torch.Tensor] | None = None) -> dict[str, Patch]:
    """Heads off by `method`: 'zero', 'mean' (needs `means`) or 'uniform'."""
    heads = list(heads)
    if not heads:
        return {}
    if method == "zero":
        return zero_heads(heads)
    if method == "uniform":
        return uniform_heads(heads)
    if method == "mean":
        if means is None:
            raise ValueError("mean ablation needs reference means (reference_means)")
        return mean_ablate_heads(heads, means)
    raise ValueError(f"unknown ablation method {method!r}: expected one of {', '.join(METHODS)}")


def switch_off_rows(heads_by_row: Sequence[Iterable[Head]], n_heads: int, method: str = "zero",
                    means: Mapping[str, torch.Tensor] | None = None) -> dict[str, Patch]:
    """Switch off a DIFFERENT set of heads in each batch row (row r: `heads_by_row[r]`), in one pass.

    Lets many experiments share one batched forward (head importance): row r of the result equals
    `switch_off(heads_by_row[r], method, means)` applied to that row alone. The batch must have
    exactly len(heads_by_row) rows.
    """
    if method not in METHODS:
        raise ValueError(f"unknown ablation method {method!r}: expected one of {', '.join(METHODS)}")
    rows = len(heads_by_row)
    selected: dict[str, torch.Tensor] = {}  # attention -> bool [rows, H], True = this row's head is off
    for r, heads in enumerate(heads_by_row):
        for head in heads:
            if head.head >= n_heads:
                raise ValueError(f"head {head} does not exist: the model has {n_heads} heads")
            selected.setdefault(head.attention, torch.zeros(rows, n_heads, dtype=torch.bool))[r, head.head] = True

    def rows_of(off: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        if x.shape[0] != rows:
            raise ValueError(f"switch_off_rows was built for {rows} batch rows, the pass has {x.shape[0]}")
        return off.to(x.device)[:, :, None, None]  # [B,H] -> [B,H,1,1]

    patches: dict[str, Patch] = {}
    for attention, off in selected.items():
        if method == "zero":
            patches[f"{attention}.context"] = (lambda o: lambda x: x.masked_fill(rows_of(o, x), 0.0))(off)
        elif method == "mean":
            name = f"{attention}.context"
            if means is None or name not in means:
                raise ValueError(f"no reference mean for {name!r}: compute reference_means over this model first")
            mean = means[name]  # [H,d_k]
            patches[name] = (lambda o, m: lambda x: torch.where(
                rows_of(o, x), m.to(dtype=x.dtype, device=x.device)[None, :, None, :], x))(off, mean)
        else:  # uniform: finite scores -> 0, blocked keys stay -inf
            patches[f"{attention}.masked_scores"] = (lambda o: lambda x: torch.where(
                rows_of(o, x) & ~torch.isneginf(x), torch.zeros_like(x), x))(off)
    return patches


def remove_positional_encoding(side: str = "both") -> dict[str, Patch]:
    """Positional encoding replaced by zeros on the source ('src'), the target ('tgt') or both."""
    if side not in ("src", "tgt", "both"):
        raise ValueError(f"positional encoding side must be src, tgt or both, not {side!r}")
    names = {"src": ["src.pos"], "tgt": ["tgt.pos"], "both": ["src.pos", "tgt.pos"]}[side]
    return {name: torch.zeros_like for name in names}


def remove_causal_mask() -> dict[str, Patch]:
    """Decoder self-attention may look at every target position, the future included (mask all True)."""
    return {"tgt.causal_mask": torch.ones_like}


# --- reference means for mean ablation ---------------------------------------------------------

def _pad(rows: Sequence[Sequence[int]], pad_id: int) -> torch.Tensor:
    width = max(len(r) for r in rows)
    return torch.tensor([list(r) + [pad_id] * (width - len(r)) for r in rows], dtype=torch.long)


@torch.no_grad()
def reference_means(model, sources: Sequence[Sequence[int]], max_new_tokens: int = 48) -> dict[str, torch.Tensor]:
    """Mean context [H, d_k] of every attention's heads over a reference set, from ONE recorded pass.

    `sources` are token id lists. An encoder-decoder first greedy-decodes them (unpatched), then the
    recorded pass is teacher-forced over those outputs (BOS + output, without EOS), as trace_text does.
    The mean runs over every real query position (padding left out) of every sentence.
    """
    if not sources:
        raise ValueError("the reference set is empty")
    cfg = model.config
    src = _pad(sources, cfg.pad_token_id).to(next(model.parameters()).device)
    tgt = None
    if cfg.has_decoder:
        decoded = generate(model, src, max_new_tokens=max_new_tokens).ids.tolist()
        rows = [row[: row.index(cfg.eos_token_id)] if cfg.eos_token_id in row else row for row in decoded]
        rows = [[t for t in row if t != cfg.pad_token_id] for row in rows]
        tgt = _pad(rows, cfg.pad_token_id).to(src.device)
    trace = model.trace(src, tgt)
    means = {}
    for name in trace:
        if not name.endswith(".context"):
            continue
        query_mask = trace["src.mask"] if name.startswith("encoder.") else trace["tgt.mask"]  # [B,T]
        context = trace[name].float()  # [B,H,T,d_k]
        weights = query_mask[:, None, :, None].to(context.dtype)  # [B,1,T,1]
        means[name] = (context * weights).sum(dim=(0, 2)) / weights.sum(dim=(0, 2)).clamp_min(1)  # [H,d_k]
    return means


# --- input-level: shuffle ----------------------------------------------------------------------

_FINAL_PUNCT = ".?!。？！"


def shuffle_words(text: str, seed: int) -> str:
    """The same words in another order (whitespace words; sentence-final punctuation stays last).

    Deterministic for a seed; with two or more distinct words the order always changes.
    """
    stripped = text.strip()
    tail = ""
    while stripped and stripped[-1] in _FINAL_PUNCT:
        tail = stripped[-1] + tail
        stripped = stripped[:-1].rstrip()
    words = stripped.split()
    if len(set(words)) < 2:
        return text
    order = list(range(len(words)))
    random.Random(seed).shuffle(order)
    shuffled = [words[i] for i in order]
    if shuffled == words:  # the identity permutation: rotate by one so something moves
        shuffled = words[1:] + words[:1]
    return " ".join(shuffled) + tail


# --- the serialisable experiment ---------------------------------------------------------------

@dataclass(frozen=True)
class Intervention:
    """One experiment. Defaults = no intervention.

    off      heads switched off (sorted, unique)
    method   how they are switched off: 'zero' | 'mean' | 'uniform'
    pe       positional encoding removed on '' (nowhere) | 'src' | 'tgt' | 'both'
    causal   False = the decoder's causal mask is removed
    shuffle  a seed: the source words are shuffled with it (None = original order)
    """

    off: tuple[Head, ...] = ()
    method: str = "zero"
    pe: str = ""
    causal: bool = True
    shuffle: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "off", tuple(sorted(set(self.off))))
        if self.method not in METHODS:
            raise ValueError(f"unknown ablation method {self.method!r}: expected one of {', '.join(METHODS)}")
        if self.pe not in PE_SIDES:
            raise ValueError(f"pe must be one of src, tgt, both (or empty), not {self.pe!r}")
        if self.shuffle is not None and not 0 <= self.shuffle < 10**9:
            raise ValueError(f"shuffle seed out of range: {self.shuffle}")

    @property
    def is_empty(self) -> bool:
        return not self.off and not self.pe and self.causal and self.shuffle is None

    @property
    def patches_anything(self) -> bool:
        """True when the model itself is patched (everything but the input shuffle)."""
        return bool(self.off or self.pe or not self.causal)

    def check(self, config: TransformerConfig) -> None:
        """ValueError when the experiment does not fit the model (missing head, decoder-only parts)."""
        check_heads(self.off, config)
        if not config.has_decoder:
            if self.pe in ("tgt",):
                raise ValueError("an encoder-only model has no target positional encoding")
            if not self.causal:
                raise ValueError("an encoder-only model has no causal mask")

    def patches(self, config: TransformerConfig, means: Mapping[str, torch.Tensor] | None = None) -> dict[str, Patch]:
        """The patches dict for a model with `config` (means: reference means, for method 'mean')."""
        self.check(config)
        parts = [switch_off(self.off, self.method, means)]
        if self.pe:
            side = self.pe if config.has_decoder else "src"
            parts.append(remove_positional_encoding(side))
        if not self.causal:
            parts.append(remove_causal_mask())
        return merge_patches(*parts)

    def source_text(self, text: str) -> str:
        """The input after the input-level part (shuffle), the text itself otherwise."""
        return text if self.shuffle is None else shuffle_words(text, self.shuffle)

    # URL form ----------------------------------------------------------------------------------
    def to_params(self) -> dict[str, str]:
        """Query parameters; defaults are left out (the empty experiment is {})."""
        params: dict[str, str] = {}
        if self.off:
            params["off"] = ",".join(str(h) for h in self.off)
            if self.method != "zero":
                params["method"] = self.method
        if self.pe:
            params["pe"] = self.pe
        if not self.causal:
            params["causal"] = "0"
        if self.shuffle is not None:
            params["shuffle"] = str(self.shuffle)
        return params

    def to_query(self) -> str:
        """e.g. 'off=enc.0.1,cross.1.2&pe=src&causal=0&shuffle=3' (commas kept readable)."""
        return urlencode(self.to_params(), safe=",")

    @classmethod
    def from_params(cls, params: Mapping[str, str], n_heads: int | None = None) -> Intervention:
        """Parse query parameters (unknown keys are ignored); ValueError with the reason on a bad value.

        `<kind>.<layer>.*` in `off` needs `n_heads` to expand.
        """
        heads: list[Head] = []
        for item in filter(None, (s.strip() for s in (params.get("off") or "").split(","))):
            star = re.fullmatch(r"(enc|dec|cross)\.(\d{1,3})\.\*", item)
            if star:
                if n_heads is None:
                    raise ValueError(f"{item!r}: the number of heads is needed to expand '*'")
                heads += layer_heads(star.group(1), int(star.group(2)), n_heads)
            else:
                heads.append(Head.parse(item))
        causal_text = (params.get("causal") or "1").strip()
        if causal_text not in ("0", "1"):
            raise ValueError(f"causal must be 0 or 1, not {causal_text!r}")
        shuffle_text = (params.get("shuffle") or "").strip()
        if shuffle_text and not shuffle_text.isdigit():
            raise ValueError(f"shuffle must be a whole number (a seed), not {shuffle_text!r}")
        return cls(off=tuple(heads), method=(params.get("method") or "zero").strip(),
                   pe=(params.get("pe") or "").strip(), causal=causal_text == "1",
                   shuffle=int(shuffle_text) if shuffle_text else None)

    @classmethod
    def from_query(cls, query: str, n_heads: int | None = None) -> Intervention:
        """Inverse of `to_query` (a leading '?' is allowed)."""
        return cls.from_params(dict(parse_qsl(query.lstrip("?"), keep_blank_values=True)), n_heads)


# --- one experiment on one sentence (what the /experiments page shows) -------------------------

@dataclass(frozen=True)
class ExperimentResult:
    """The patched model on one sentence, next to an original `TextTrace` computed without intervention.

    patched  the patched model's own run: greedy output under the patches and ONE recorded teacher-forced
             pass over that output (decoding.trace_text with patches), on `source_text`
    forced   encoder-decoder only: a recorded pass of the PATCHED model teacher-forced over the ORIGINAL
             output, so per step the probability of the original token before and after can be compared
             (None for an encoder-only model)
    """

    spec: Intervention
    source_text: str
    patched: TextTrace
    forced: Trace | None

    @property
    def nbytes(self) -> int:
        return self.patched.trace.nbytes + (self.forced.nbytes if self.forced is not None else 0)


def run_experiment(loaded: LoadedModel, text: str, spec: Intervention, original: TextTrace,
                   means: Mapping[str, torch.Tensor] | None = None,
                   max_new_tokens: int | None = None) -> ExperimentResult:
    """Run `spec` on `text` with `loaded`; `original` is trace_text(loaded, text) unpatched.

    ValueError when the spec does not fit the model or the text is empty.
    """
    from transformer_core.inference.text import encode_text, trace_text

    patches = spec.patches(loaded.config, means)
    source_text = spec.source_text(text)
    patched = trace_text(loaded, source_text, max_new_tokens=max_new_tokens, patches=patches)
    patched = replace(patched, trace=patched.trace.to("cpu"))  # figures read CPU arrays
    forced = None
    if loaded.config.has_decoder:
        ids, _ = encode_text(loaded, source_text)
        device = loaded.device
        src = torch.tensor([ids], dtype=torch.long, device=device)
        tgt = original.trace["tgt.ids"].to(device)  # BOS + the original output
        forced = loaded.model.trace(src, tgt, patches=patches).to("cpu")
    return ExperimentResult(spec, source_text, patched, forced)
