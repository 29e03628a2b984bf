"""Text in, one recorded forward pass out: `trace_text`."""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch

from .loading import LoadedModel
from .trace import Trace


@dataclass(frozen=True)
class TextTrace:
    """What the app shows for one sentence: the Trace plus the token strings around it.

    For an encoder-decoder, the recorded pass is teacher-forced over the greedy output:
    `tgt_tokens` is the decoder input (BOS + output), `predicted_tokens[t]` is the argmax of
    `logits[t]`, i.e. the token chosen at step t (the last one is normally EOS).
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

    @property
    def has_decoder(self) -> bool:
        return self.kind == "encoder-decoder"


def default_max_new_tokens(n_src: int, max_len: int) -> int:
    """Room for a translation a bit longer than its source, never past max_len."""
    return max(1, min(max_len - 1, 2 * n_src + 10))


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


def trace_text(loaded: LoadedModel, text: str, max_new_tokens: int | None = None) -> TextTrace:
    """Tokenize, greedy-decode (encoder-decoder), then run ONE recorded teacher-forced pass."""
    ids, n_full = encode_text(loaded, text)
    model, tokenizer, cfg = loaded.model, loaded.tokenizer, loaded.config
    device = loaded.device
    src = torch.tensor([ids], dtype=torch.long, device=device)
    src_tokens = tokenizer.convert_ids_to_tokens(ids)
    tgt_tokens: list[str] = []
    predicted: list[str] = []
    output_text = ""
    decode_seconds = 0.0
    if cfg.has_decoder:
        limit = max_new_tokens or default_max_new_tokens(len(ids), cfg.max_len)
        start = time.perf_counter()
        decoded = model.greedy_decode(src, max_new_tokens=limit)[0]  # [1 + n], starts with BOS
        decode_seconds = time.perf_counter() - start
        out_ids = decoded.tolist()
        if out_ids[-1] == cfg.eos_token_id:
            out_ids = out_ids[:-1]  # the teacher-forced input stops before EOS; its last row predicts EOS
        tgt = torch.tensor([out_ids], dtype=torch.long, device=device)
        start = time.perf_counter()
        trace = model.trace(src, tgt)
        forward_seconds = time.perf_counter() - start
        tgt_tokens = tokenizer.convert_ids_to_tokens(out_ids)
        predicted_ids = trace["logits"][0].argmax(-1).tolist()
        predicted = tokenizer.convert_ids_to_tokens(predicted_ids)
        output_text = tokenizer.decode(out_ids[1:], skip_special_tokens=True)
    else:
        start = time.perf_counter()
        trace = model.trace(src)
        forward_seconds = time.perf_counter() - start
    return TextTrace(
        trace=trace, src_tokens=src_tokens, tgt_tokens=tgt_tokens, predicted_tokens=predicted,
        output_text=output_text, kind=loaded.kind, model_name=loaded.name, device=str(device),
        forward_seconds=forward_seconds, decode_seconds=decode_seconds,
        n_input_tokens=n_full, n_truncated=max(0, n_full - len(ids)),
    )
