"""Text in, one recorded forward pass out: `trace_text`."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import torch

from transformer_core.inference.generation import (
    DecodingSettings,
    GenerationResult,
    LimitRule,
    generate,
    limit_rule,
    output_limit,
)
from transformer_core.io.loading import LoadedModel
from transformer_core.tracing.hooks import Patch
from transformer_core.tracing.names import LOGITS
from transformer_core.tracing.trace import Trace


@dataclass(frozen=True)
class TextTrace:
    """What the app shows for one sentence: the Trace plus the token strings around it.

    For an encoder-decoder, the recorded pass is teacher-forced over the generated output:
    `tgt_tokens` is the decoder input (BOS + output), `predicted_tokens[t]` is the argmax of
    `logits[t]`, i.e. the token greedy decoding chose at step t (the last one is normally EOS);
    with sampling or beam search the chosen token is `tgt_tokens[t + 1]` (or EOS), which may differ.
    `generation` holds what the strategy recorded (beam hypotheses), `reached_limit` says the
    output stopped at the length limit, not at EOS, and `limit_rule` which limit that was (generation.limit_rule;
    None when the caller gave max_new_tokens).
    """

    trace: Trace
    src_tokens: list[str]
    tgt_tokens: list[str]
    predicted_tokens: list[str]
    output_text: str
    kind: str
    model_name: str
    device: str
    forward_seconds: float  # the recorded pass alone
    decode_seconds: float  # greedy decoding (unrecorded), 0 for an encoder
    n_input_tokens: int  # tokens the text produced before truncation
    n_truncated: int  # tokens cut to fit max_len
    generation: GenerationResult | None = None  # None for an encoder
    reached_limit: bool = False
    limit_rule: LimitRule | None = None
    # The token generation chose at each step t (row t of logits): tgt_tokens[t + 1], then EOS; "" for a last
    # row that was never used (the output stopped at the length limit). Equals predicted_tokens for greedy.
    chosen_tokens: list[str] | None = None

    @property
    def has_decoder(self) -> bool:
        return self.kind == "encoder-decoder"


def encode_text(loaded: LoadedModel, text: str) -> tuple[list[int], int]:
    """Token ids for `text` (with the tokenizer's special tokens), cut to max_len; and the uncut count."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("The input is empty: type a sentence first.")
    tokenizer = loaded.tokenizer
    full = tokenizer(text)["input_ids"]
    max_len = loaded.config.max_len
    if len(full) <= max_len:
        return list(full), len(full)
    cut = tokenizer(text, truncation=True, max_length=max_len)["input_ids"]
    return list(cut), len(full)


def trace_text(loaded: LoadedModel, text: str, max_new_tokens: int | None = None,
               patches: Mapping[str, Patch] | None = None,
               decoding: DecodingSettings | None = None,
               progress: Callable[[int, int], None] | None = None) -> TextTrace:
    """Tokenize, generate (encoder-decoder; greedy unless `decoding` says otherwise), then run ONE
    recorded teacher-forced pass over the output.

    `patches` (trace name -> tensor -> tensor, see models/transformer.py) act in decoding and in the recorded
    pass alike, so the output text and the pictures show the same intervention. `progress(step, limit)`
    is called after every generation step.
    """
    ids, n_full = encode_text(loaded, text)
    model, tokenizer, cfg = loaded.model, loaded.tokenizer, loaded.config
    device = loaded.device
    src = torch.tensor([ids], dtype=torch.long, device=device)
    src_tokens = tokenizer.convert_ids_to_tokens(ids)
    tgt_tokens: list[str] = []
    predicted: list[str] = []
    output_text = ""
    chosen: list[str] = []
    decode_seconds = 0.0
    generation = None
    rule: LimitRule | None = None
    if cfg.has_decoder:
        if max_new_tokens is None:
            rule, max_new_tokens = limit_rule(loaded), output_limit(loaded, len(ids))  # input + 50, or 50 untrained
        start = time.perf_counter()
        generation = generate(model, src, max_new_tokens=max_new_tokens, patches=patches, progress=progress,
                              **(decoding or DecodingSettings()).kwargs())
        decode_seconds = time.perf_counter() - start
        # The teacher-forced input stops before EOS; its last row predicts EOS.
        out_ids = [cfg.bos_token_id, *generation.tokens(0)]  # [1 + n], starts with BOS
        tgt = torch.tensor([out_ids], dtype=torch.long, device=device)
        start = time.perf_counter()
        trace = model.trace(src, tgt, patches=patches)
        forward_seconds = time.perf_counter() - start
        tgt_tokens = tokenizer.convert_ids_to_tokens(out_ids)
        predicted_ids = trace[LOGITS][0].argmax(-1).tolist()
        predicted = tokenizer.convert_ids_to_tokens(predicted_ids)
        output_text = tokenizer.decode(out_ids[1:], skip_special_tokens=True)
        last = "" if generation.reached_limit[0] else tokenizer.convert_ids_to_tokens([cfg.eos_token_id])[0]
        chosen = [*tgt_tokens[1:], last]
    else:
        start = time.perf_counter()
        trace = model.trace(src, patches=patches)
        forward_seconds = time.perf_counter() - start
    return TextTrace(
        trace=trace, src_tokens=src_tokens, tgt_tokens=tgt_tokens, predicted_tokens=predicted,
        output_text=output_text, kind=loaded.kind, model_name=loaded.name, device=str(device),
        forward_seconds=forward_seconds, decode_seconds=decode_seconds,
        n_input_tokens=n_full, n_truncated=max(0, n_full - len(ids)),
        generation=generation, reached_limit=bool(generation and generation.reached_limit[0]), limit_rule=rule,
        chosen_tokens=chosen if cfg.has_decoder else None,
    )
