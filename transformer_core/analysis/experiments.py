"""The serialisable "what if ...?" experiment and running it on one sentence (the /experiments page).

`Intervention` describes one experiment (which heads are off and how, positions, causal mask,
shuffle) with a URL form, e.g. ``off=enc.0.1,cross.1.2&pe=src&causal=0&shuffle=3``;
`Intervention.patches(config, means)` turns it into a patches dict (head_patches.py), and
`run_experiment` runs it next to the unpatched trace.

Shuffling the source word order is an input-level intervention, not a patch: `shuffle_words` is a
pure function of the text and a seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

import torch

from transformer_core.analysis.head_patches import (
    METHODS,
    check_heads,
    layer_heads,
    merge_patches,
    remove_causal_mask,
    remove_positional_encoding,
    switch_off,
)
from transformer_core.models.config import TransformerConfig
from transformer_core.tracing.hooks import Patch
from transformer_core.tracing.names import TGT_IDS, Head
from transformer_core.tracing.trace import Trace

if TYPE_CHECKING:
    from transformer_core.inference.text import TextTrace
    from transformer_core.io.loading import LoadedModel

PE_SIDES = ("", "src", "tgt", "both")


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
        tgt = original.trace[TGT_IDS].to(device)  # BOS + the original output
        forced = loaded.model.trace(src, tgt, patches=patches).to("cpu")
    return ExperimentResult(spec, source_text, patched, forced)
