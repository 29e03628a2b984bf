"""MiniLM-L6: the from-scratch traced forward vs transformers' BertModel (eager, with attentions).

Both sides produce what the app needs from one pass: every layer's hidden state and every
head's attention weights. Runs are interleaved (traced, untraced, HF, traced, ...) after a
warmup, so drifting machine load hits all three alike; medians and ratios are printed.

    python benchmarks/minilm.py [--tokens 128] [--repeats 30] [--threads N] [--keep-freed-memory]

A trace keeps every intermediate (about 35 MB here) alive until it is dropped; glibc then hands
that memory back to the OS and the next pass page-faults it in again. --keep-freed-memory asks
glibc (mallopt) to keep freed memory, to measure how much of the tracing cost that is.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import torch

import transformer_core  # noqa: F401  (sets HF_HUB_OFFLINE before transformers is imported)
from transformer_core.io.bert import load_minilm, minilm_dir

FILLER = (
    "The Transformer replaces recurrence with attention: every position of a sentence looks at every other "
    "position in one step, so a layer can relate the first word to the last without passing information "
    "through all the words in between. "
)


def input_ids(tokenizer, n_tokens: int) -> torch.Tensor:
    """[1, n_tokens] ids: [CLS] + English text + [SEP], cut to exactly n_tokens."""
    text = FILLER * (n_tokens // 20 + 1)
    ids = tokenizer(text, truncation=True, max_length=n_tokens, return_tensors="pt")["input_ids"]
    if ids.shape[1] != n_tokens:
        raise ValueError(f"wanted {n_tokens} tokens, got {ids.shape[1]}")
    return ids


def seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def keep_freed_memory() -> None:
    """glibc only: no trimming of the heap top, no mmap for blocks under 32 MB."""
    import ctypes

    libc = ctypes.CDLL("libc.so.6")
    m_trim_threshold, m_mmap_threshold = -1, -3
    if not (libc.mallopt(m_trim_threshold, 256 << 20) and libc.mallopt(m_mmap_threshold, 32 << 20)):
        raise RuntimeError("mallopt refused the settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--keep-freed-memory", action="store_true", help="glibc mallopt, see the docstring")
    args = parser.parse_args()
    if args.keep_freed_memory:
        keep_freed_memory()
    if args.threads:
        torch.set_num_threads(args.threads)

    from transformers import BertModel

    loaded = load_minilm()
    ours = loaded.model
    reference = BertModel.from_pretrained(str(minilm_dir()), attn_implementation="eager").eval()
    ids = input_ids(loaded.tokenizer, args.tokens)
    mask = torch.ones_like(ids)

    def traced() -> object:
        return ours.trace(ids)  # eval + no_grad inside; records every hook point

    def untraced() -> object:
        with torch.no_grad():
            return ours(ids)  # no recording: fused scaled_dot_product_attention

    def hf_eager() -> object:
        with torch.no_grad():
            return reference(input_ids=ids, attention_mask=mask, output_attentions=True, output_hidden_states=True)

    runs = {"traced": traced, "untraced": untraced, "hf_eager": hf_eager}
    for _ in range(args.warmup):
        for run in runs.values():
            run()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, run in runs.items():
            times[name].append(seconds(run))

    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"MiniLM-L6, batch 1, {args.tokens} tokens, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, {args.warmup} warmup + {args.repeats} interleaved repeats"
          + (", glibc keeps freed memory" if args.keep_freed_memory else ""))
    for name, median in medians.items():
        print(f"  {name:9s} median {median * 1e3:7.2f} ms  (min {min(times[name]) * 1e3:6.2f} ms)")
    print(f"  traced / hf_eager   = {medians['traced'] / medians['hf_eager']:.3f}  (goal <= 1.0)")
    print(f"  untraced / hf_eager = {medians['untraced'] / medians['hf_eager']:.3f}")


if __name__ == "__main__":
    main()
