"""Where does a translator's alignment miss? Per English word, on held-out sentences of its grammar.

The score of `python -m transformer_core evaluate` (alignment.py: teacher-forced on the gold target, the row that
predicts each scored word must have its argmax on a gold source word), broken down: which target words miss most,
how far the argmax lands from the nearest gold word, and, for the first word of a sentence, how often it lands on
the sentence's final mark. For the attention RNN its one α per step; for a Transformer a decoder layer's head
average (`--layer`, default the last: the one `evaluate` reports best for ko-en-toy).

    .venv/bin/python benchmarks/rnn_alignment_misses.py [--model ko-en-rnn-attention] [--n 500] [--seed 12345]
"""

from __future__ import annotations

import argparse
import os
from collections import Counter

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

import transformer_core as core
from transformer_core.analysis.alignment import argmax_sources
from transformer_core.analysis.scoring import cross_attention
from transformer_core.tasks import model_task

FINAL_MARKS = (".", "?", "!")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="ko-en-rnn-attention")
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--layer", type=int, default=-1, help="decoder layer (default: the last)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    loaded = core.load(args.model)
    model, tokenizer = loaded.model, loaded.tokenizer
    model.eval()
    scored, missed, offsets, first_missed, first_on_mark = Counter(), Counter(), Counter(), Counter(), Counter()
    for example in model_task(loaded).held_out(tokenizer, args.n, seed=args.seed):
        src = torch.tensor([example.source_ids])
        tgt = torch.tensor([[model.config.bos_token_id, *example.target_ids]])
        with torch.no_grad():
            weights = cross_attention(model, src, tgt, None)[args.layer][0].mean(axis=0)  # head average [T, S]
        chosen = argmax_sources(weights[: len(example.gold)], len(example.source_ids) - 1)
        source = tokenizer.convert_ids_to_tokens(example.source_ids)
        target = tokenizer.convert_ids_to_tokens(example.target_ids)
        for t, gold in enumerate(example.gold):
            if not gold:
                continue
            scored[target[t]] += 1
            if chosen[t] in gold:
                continue
            missed[target[t]] += 1
            nearest = min(gold, key=lambda g: abs(g - chosen[t]))
            offsets[max(-3, min(3, int(chosen[t] - nearest)))] += 1
            if t == 0:
                first_missed[target[t]] += 1
                first_on_mark[target[t]] += source[chosen[t]] in FINAL_MARKS
    total, misses = sum(scored.values()), sum(missed.values())
    print(f"{args.model}: {args.n} held-out sentences (seed {args.seed}): {total} scored words, {misses} missed "
          f"({misses / total:.1%}; alignment {1 - misses / total:.1%})")
    marks = sum(missed[m] for m in FINAL_MARKS)
    print(f"final marks: {marks} of the misses ({marks / misses:.0%}): "
          + ", ".join(f"{m!r} {missed[m]} of {scored[m]}" for m in FINAL_MARKS if scored[m]))
    print(f"first words missed: {sum(first_missed.values())}, the argmax on the final mark for "
          f"{sum(first_on_mark.values())} of them")
    print("offset of the argmax from the nearest gold word (clipped to ±3): "
          + ", ".join(f"{d:+d}: {n}" for d, n in sorted(offsets.items())))
    print("most missed: " + ", ".join(f"{w!r} {m} of {scored[w]}" for w, m in missed.most_common(25)))


if __name__ == "__main__":
    main()
