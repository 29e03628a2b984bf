"""Steps to goal of a lab recipe: machine-independent, unlike seconds.

Trains a lab preset exactly as the lab does (`lab_plan`: same data, tokenizer, model, schedule;
one torch thread), stops to score the held-out sentences every `--every` steps (the scoring time
is NOT counted as training time), and prints the first step at which the goal is met (ko-en:
exact match >= 95 % and alignment >= 85 %, the `GOALS` of recipes.py) and the training seconds it
took to get there, with the load average beside them (seconds are noisy on a shared machine;
steps are what count).

    PYTHONPATH=$PWD python benchmarks/lab_steps.py --preset class [--every 50] [--eval-n 200]
    ... --vocab full --peak-lr 1e-3 --warmup 200 --steps 800   (compare a variant of the recipe)

Prints one JSON line per evaluation and a summary line (JSON) at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

from transformer_core.tasks import LAB_TASKS
from transformer_core.training.loop import TrainingStopped, train
from transformer_core.training.recipes import (
    GOALS,
    PRESETS,
    LabRecipe,
    base_config_values,
    held_out_examples,
    lab_plan,
    meets_goal,
    planned_steps,
    tokenizer_for,
)
from transformer_core.training.snapshots import held_out_scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="ko-en", choices=LAB_TASKS)
    parser.add_argument("--preset", default="class", choices=list(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=50, help="steps between held-out evaluations")
    parser.add_argument("--eval-n", type=int, default=200, help="held-out sentences per evaluation")
    parser.add_argument("--steps", type=int, default=0, help="schedule length (0 = the preset's)")
    parser.add_argument("--peak-lr", type=float, default=0.0)
    parser.add_argument("--warmup", type=int, default=0)
    parser.add_argument("--label-smoothing", type=float, default=-1.0)
    parser.add_argument("--batch-size", type=int, default=0)
    parser.add_argument("--buckets", type=int, default=0)
    parser.add_argument("--vocab", choices=("lab", "full"), default="lab",
                        help="full: the whole ko-en vocabulary (5,692 ids) instead of the lab's compact core")
    parser.add_argument("--keep-going", action="store_true", help="train the whole schedule after the goal")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)

    recipe = LabRecipe(task=args.task, preset=args.preset, budget_s=0, seed=args.seed, max_steps=10**9)
    tokenizer = None
    if args.vocab == "full":
        tokenizer = tokenizer_for(args.task)  # the task's full (not the lab's core) vocabulary
    plan = lab_plan(recipe, tokenizer)
    preset = PRESETS[args.preset]
    settings = dataclasses.replace(
        plan.settings, steps=args.steps or planned_steps(LabRecipe(task=args.task, preset=args.preset)),
        max_minutes=0.0,
        peak_lr=args.peak_lr or preset.peak_lr, warmup=args.warmup or preset.warmup,
        label_smoothing=plan.settings.label_smoothing if args.label_smoothing < 0 else args.label_smoothing,
        batch_size=args.batch_size or plan.settings.batch_size, buckets=args.buckets or plan.settings.buckets)
    config = plan.config
    if args.vocab == "full":
        config = dataclasses.replace(config, **{k: v for k, v in base_config_values(len(plan.tokenizer)).items()
                                                if k.endswith("vocab_size")})
    examples = held_out_examples(args.task, plan.tokenizer, args.eval_n, seed=12345)
    goal = GOALS[args.task]
    state = {"eval_s": 0.0, "reached": None, "start": time.perf_counter(), "rows": []}

    def on_step(step: int, loss: float, model) -> None:
        if step % args.every and step != settings.steps:
            return
        began = time.perf_counter()
        train_s = began - state["start"] - state["eval_s"]  # evaluation time does not count
        exact, alignment = held_out_scores(model, examples)
        state["eval_s"] += time.perf_counter() - began
        row = {"step": step, "loss": round(loss, 4), "exact": round(exact, 4), "alignment": round(alignment, 4),
               "train_s": round(train_s, 1), "load1": round(os.getloadavg()[0], 2)}
        state["rows"].append(row)
        print(json.dumps(row), flush=True)
        if state["reached"] is None and meets_goal(args.task, exact, alignment):
            state["reached"] = row
            if not args.keep_going:
                raise TrainingStopped

    train(settings, config, on_step=on_step, progress=False, tokenizer=plan.tokenizer)
    reached = state["reached"]
    last = state["rows"][-1] if state["rows"] else {}
    summary = {
        "task": args.task, "preset": args.preset, "seed": args.seed, "vocab": len(plan.tokenizer),
        "steps_schedule": settings.steps, "peak_lr": settings.peak_lr, "warmup": settings.warmup,
        "label_smoothing": settings.label_smoothing, "batch_size": settings.batch_size, "buckets": settings.buckets,
        "goal": goal, "eval_every": args.every, "eval_n": len(examples),
        "steps_to_goal": reached["step"] if reached else None,
        "seconds_to_goal": reached["train_s"] if reached else None,
        "steps_per_s": round(last["step"] / last["train_s"], 2) if last.get("train_s") else None,
        "final": last, "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    print("SUMMARY " + json.dumps(summary), flush=True)
    return 0 if reached else 1


if __name__ == "__main__":
    raise SystemExit(main())
