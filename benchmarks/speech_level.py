"""Steps (machine-independent) and seconds for the encoder + [CLS] speech-level classifier to reach 95 %
held-out accuracy, over a few seeds, and how often the last layer's [CLS] attention peaks on the ending.

Usage: .venv/bin/python benchmarks/speech_level.py [--seeds 0 1 2] [--budget 60]
"""

from __future__ import annotations

import argparse

import torch

from transformer_core.training.classify import cls_attention, ending_position, train_speech_levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--budget", type=float, default=60.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    for seed in args.seeds:
        run, tokenizer, held_out = train_speech_levels(budget_s=args.budget, seed=seed)
        sample = held_out[:200]
        hits = sum(int(cls_attention(run.model, e.ids)[-1].argmax()) == ending_position(tokenizer, e) for e in sample)
        print(f"seed {seed}: goal reached at step {run.reached_goal_at} ({run.seconds:.1f} s, {run.steps} steps), "
              f"held-out accuracy {run.accuracy:.3f}, [CLS] on the ending {hits}/{len(sample)}")


if __name__ == "__main__":
    main()
