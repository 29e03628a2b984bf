"""Greedy generation with the KV cache vs plain recomputation of the whole prefix at every step.

Paper-base (d_model 512, 8 heads, 6+6 layers, d_ff 2048; the app's built-in, its ko-en vocabulary),
one source of 128 tokens, 128 new tokens (EOS is suppressed so that both sides make exactly 128),
greedy, eval mode, one torch thread. Repeats are interleaved (cached, uncached, cached, ...) and
medians compared within this one run, because this machine's speed drifts between runs. Both sides
must produce the same ids.

    flock /work/locks/train.lock nice -n 5 .venv/bin/python benchmarks/generation.py [--repeats 3]

Target: uncached / cached >= 8.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import torch

import transformer_core as core
from transformer_core.inference.generation import generate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--source", type=int, default=128, help="source tokens")
    parser.add_argument("--new", type=int, default=128, help="new tokens")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    loaded = core.load("paper-base")
    model, cfg = loaded.model, loaded.config
    with torch.no_grad():
        model.lm_head.bias[cfg.eos_token_id] = -1e4  # never EOS: exactly `--new` steps on both sides
    generator = torch.Generator().manual_seed(0)
    src = torch.randint(4, cfg.src_vocab_size, (1, args.source), generator=generator)
    src[0, -1] = cfg.eos_token_id
    print(f"paper-base: d_model {cfg.d_model}, {cfg.n_heads} heads, {cfg.n_encoder_layers}+{cfg.n_decoder_layers} "
          f"layers, d_ff {cfg.d_ff}, vocab {cfg.tgt_vocab_size}; {args.source} source tokens, {args.new} new tokens, "
          f"{torch.get_num_threads()} thread(s), {args.repeats} interleaved repeats")

    times: dict[bool, list[float]] = {True: [], False: []}
    outputs: dict[bool, torch.Tensor] = {}
    generate(model, src, max_new_tokens=4)  # warm-up
    for repeat in range(args.repeats):
        for use_cache in (True, False):
            start = time.perf_counter()
            out = generate(model, src, max_new_tokens=args.new, use_cache=use_cache).ids
            times[use_cache].append(time.perf_counter() - start)
            outputs[use_cache] = out
            print(f"  repeat {repeat}: {'cached  ' if use_cache else 'uncached'} {times[use_cache][-1]:.2f} s",
                  flush=True)
        assert torch.equal(outputs[True], outputs[False]), "cached and uncached outputs differ"
    assert outputs[True].shape == (1, 1 + args.new)
    cached, uncached = statistics.median(times[True]), statistics.median(times[False])
    print(f"cached   median {cached:.2f} s ({cached / args.new * 1000:.1f} ms/token)")
    print(f"uncached median {uncached:.2f} s ({uncached / args.new * 1000:.1f} ms/token)")
    print(f"identical outputs: yes ({args.new} tokens); speed-up uncached / cached = {uncached / cached:.1f}x "
          f"(goal >= 8x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
