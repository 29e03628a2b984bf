"""The teaching translator's budget (issue 27): a forward pass of a 20-token sentence on one CPU thread, and the
size of its weights.

Takes the first held-out sentence of the model's own grammar whose source is exactly `--tokens` pieces (with
</s>), translates it greedily, then times the forward pass the app draws, without the recording (source and the whole
output at once, teacher-forced on that output) `--repeats` times, one torch thread, and prints the median and
the spread. Also the model directory's weights file size. Timings drift with what else runs on the machine:
say what ran beside it when you quote them.

    nice -n 5 .venv/bin/python benchmarks/translator_budget.py [--model ko-en-toy] [--tokens 20]

Targets: median forward <= 50 ms; model.safetensors <= 50 MB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import torch

import transformer_core as core
from transformer_core.inference.generation import generate
from transformer_core.tasks import model_task


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="ko-en-toy")
    parser.add_argument("--tokens", type=int, default=20, help="source pieces, </s> included")
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    torch.set_num_threads(1)

    loaded = core.load(args.model)
    model, tokenizer = loaded.model.eval(), loaded.tokenizer
    text, ids = "", []
    for pair in model_task(loaded).held_out_pairs(2000, seed=7):
        ids = tokenizer(pair.source_text)["input_ids"]
        if len(ids) == args.tokens:
            text = pair.source_text
            break
    if not text:
        print(f"no held-out sentence of {args.tokens} pieces among 2,000", file=sys.stderr)
        return 2
    src = torch.tensor([ids])
    with torch.inference_mode():
        tgt = generate(model, src, max_new_tokens=loaded.config.max_len - 1).ids[:, :-1]  # output, BOS first
        model(src, tgt)  # warm-up
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            model(src, tgt)
            times.append((time.perf_counter() - start) * 1000)
    weights = (loaded.directory / "model.safetensors").stat().st_size / 1e6 if loaded.directory else float("nan")
    print(f"model {args.model}: {text!r}, {src.shape[1]} source pieces, {tgt.shape[1]} output positions")
    print(f"forward, one thread: median {statistics.median(times):.1f} ms (min {min(times):.1f}, "
          f"max {max(times):.1f}; {args.repeats} runs); goal <= 50 ms: "
          f"{'met' if statistics.median(times) <= 50 else 'NOT met'}")
    print(f"model.safetensors: {weights:.1f} MB; goal <= 50 MB: {'met' if weights <= 50 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
