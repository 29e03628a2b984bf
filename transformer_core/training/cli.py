"""Train a model: the bundled models' recipes, or a training-lab recipe (the /train page's code path).

    python -m transformer_core train --task ko-en --out models/ko-en-toy
    python -m transformer_core train --task reverse --out models/reverse
    python -m transformer_core train --task ko-en --out /tmp/tiny --tiny --steps 40
    python -m transformer_core train --task ko-en-rnn --out models/ko-en-rnn-attention   # the 2015 RNN (rnn.py)
    python -m transformer_core train --task ko-en --preset class --out lab_models/demo   # the lab's default

Without --preset: the bundled recipe of --task (ko-en or reverse; see training/recipes.py RECIPES).
With --preset (tiny / class / larger): the training lab's recipe (task ko-en, reverse, copy or sort,
time budget, seed), trained by the very function the lab page's workers call
(`training.lab_run.run_lab_recipe`); the directory gets the model, its card and the snapshots
(snapshots.safetensors + snapshots.json), and `/train?run=NAME` replays it when it lies in the lab
models folder (lab_models/, env TRANSFORMER_EXPLORER_LAB_MODELS).

The code lives in transformer_core/training/ (recipes, loop, snapshots, model_card, jobs) and the tasks'
data in transformer_core/tasks/; this module is the command line only.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from transformer_core.inference.devices import resolve_device
from transformer_core.models.rnn import RNNConfig
from transformer_core.tasks import LAB_TASKS
from transformer_core.training.loop import train
from transformer_core.training.model_card import write_model_dir
from transformer_core.training.recipes import (
    PRESETS,
    RECIPES,
    LabRecipe,
    TrainSettings,
    build_config,
    recipe_data,
    tokenizer_for,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m transformer_core train", description=__doc__.split("\n")[0])
    parser.add_argument("--task", choices=sorted(set(RECIPES) | set(LAB_TASKS)), required=True,
                        help="ko-en / reverse (bundled recipes); with --preset also copy / sort (the lab's tasks)")
    parser.add_argument("--preset", choices=list(PRESETS),
                        help="train the training lab's recipe at this size (the /train page's code path)")
    parser.add_argument("--budget", type=int, default=120, help="lab: time budget in seconds (default 120)")
    parser.add_argument("--device", default="cpu", help="cpu or cuda (falls back to the CPU when absent); the "
                        "saved model is always on the CPU")
    parser.add_argument("--probe", default="", help="lab: the sentence whose attention the snapshots record")
    parser.add_argument("--init-from", help="bundled recipe: start from this model directory's weights "
                        "(a vocabulary grown at its end keeps the old rows)")
    parser.add_argument("--checkpoint-dir", help="bundled recipe: save model + optimizer + step here every "
                        "--checkpoint-minutes (outside git, e.g. /work/ckpt/translator)")
    parser.add_argument("--checkpoint-minutes", type=float, default=5.0)
    parser.add_argument("--resume", action="store_true",
                        help="continue from --checkpoint-dir's checkpoint when there is one (same command line)")
    parser.add_argument("--style-weights",
                        help="reverse: weights of the random,words,sentence,repeats styles, e.g. 25,20,15,40")
    parser.add_argument("--out", required=True, help="model directory to write")
    parser.add_argument("--steps", type=int)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--lr", type=float, help="peak learning rate")
    parser.add_argument("--warmup", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tiny", action="store_true", help="a very small model, for tests")
    parser.add_argument("--d-model", type=int)
    parser.add_argument("--heads", type=int)
    parser.add_argument("--layers", type=int, help="layers per side")
    parser.add_argument("--d-ff", type=int)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--pre-ln", action="store_true", help="LayerNorm before each sublayer (+ a final one)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (0 = torch's default)")
    parser.add_argument("--data-workers", type=int, default=0,
                        help="bundled recipe: processes that write the training pairs (for a GPU; 0 = this process)")
    parser.add_argument("--max-minutes", type=float,
                        help="time budget: the schedule follows the clock and training stops when it is used up "
                             "(default: 12 for ko-en, 13 for reverse; 0 = steps only)")
    parser.add_argument("--sampled-softmax", type=int, help="candidate ids per batch for the output layer (0 = full)")
    parser.add_argument("--train-only", help="comma-separated parameter-name prefixes to train, the rest frozen "
                        "(e.g. decoder.layers.1.sublayer3,lm_head.bias: finish a sampled-softmax model's output)")
    parser.add_argument("--label-smoothing", type=float, help="epsilon of the label-smoothed loss (default 0.1, "
                        "the paper's)")
    parser.add_argument("--curriculum", type=float, help="share of steps over which text length grows to 64")
    parser.add_argument("--eval-n", type=int, default=500, help="held-out examples for the model card (0 = skip)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main_lab(args: argparse.Namespace, command: str) -> int:
    """--preset: the lab's recipe through the lab's own code path, snapshots and all."""
    from transformer_core.training.lab_run import run_lab_recipe

    recipe = LabRecipe(task=args.task, preset=args.preset, budget_s=args.budget, seed=args.seed, device=args.device,
                       max_steps=args.steps or 0, probe=args.probe)
    outcome = run_lab_recipe(recipe, out=Path(args.out), eval_n=args.eval_n, command=command,
                             progress_bar=not args.quiet)
    if outcome.device_notice:
        print(outcome.device_notice, file=sys.stderr)
    if outcome.save_error:
        print(f"could not save the model: {outcome.save_error}", file=sys.stderr)
        return 1
    result = outcome.result
    print(json.dumps({"out": str(outcome.model_dir), "steps": result.steps_done, "seconds": round(result.seconds, 1),
                      "final_loss": result.history[-1]["loss"] if result.history else None,
                      "snapshots": len(outcome.snapshots),
                      "snapshot_overhead": round(outcome.snapshot_seconds / max(result.seconds, 1e-9), 4),
                      **{k: outcome.metrics[k] for k in ("exact_match", "lab_alignment") if k in outcome.metrics}}))
    return 0


def command_line(task: str, argv: list[str]) -> str:
    """The command the model card records: with the training grammar's environment variable in front when a
    ko-en run trains on another grammar than TRAINING_GRAMMAR (else the card's command would not reproduce it)."""
    from transformer_core.data.tokenization import TRAINING_GRAMMAR, TRAINING_GRAMMAR_ENV
    from transformer_core.training.model_card import grammar_field

    command = " ".join(["python -m transformer_core train", *argv])
    grammar = grammar_field(task).get("grammar", "") if task in RECIPES else ""
    return f"{TRAINING_GRAMMAR_ENV}={grammar} {command}" if grammar and grammar != TRAINING_GRAMMAR else command


def output_layer_prefixes(config) -> tuple[str, ...]:
    """The parameters that finish a model's output distribution: the last decoder layer's feed-forward sublayer and
    its LayerNorm (the final LayerNorm too for pre-LN) and the output bias; the RNN's maxout layer and output bias.
    The embedding (tied to the output layer) and every attention stay as they are, so alignment does not move."""
    if isinstance(config, RNNConfig):
        return ("rnn.output", "lm_head.bias")
    # Parameter paths (state-dict keys), not trace names: spelled whole, as tests/test_trace_vocabulary.py tells apart.
    last = config.n_decoder_layers - 1
    norms = ("decoder.norm",) if config.final_norm else (f"decoder.layers.{last}.sublayer3",)
    return (f"decoder.layers.{last}.ffn", *norms, "lm_head.bias")


def sampled_softmax_warning(settings: TrainSettings, out: Path, config) -> str | None:
    """What the CLI says when a run ends on a sampled softmax: the output layer saw the right word and a few thousand
    others per batch, so the full distribution is untrained (a flat tail: the written word gets about half the
    probability and sampling at temperature 1 writes noise); and the command that finishes it with the full one."""
    if not settings.sampled_softmax:
        return None
    return (f"warning: this run trained the output layer with a sampled softmax ({settings.sampled_softmax} candidates "
            "per batch): greedy outputs may be right while the full distribution stays flat (the pages' softmax, "
            "beam scores and sampling read it). Finish it with the full softmax, e.g.\n"
            f"  python -m transformer_core train --task {settings.task} --init-from {out} --out {out}-full "
            f"--sampled-softmax 0 --label-smoothing 0 --train-only {','.join(output_layer_prefixes(config))} "
            "--steps 3000 --lr 1e-3 --warmup 100\n"
            "then check it with benchmarks/calibration.py --model " + f"{out}-full")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = command_line(args.task, sys.argv[1:] if argv is None else argv)
    if args.preset:
        return main_lab(args, command)
    if args.task not in RECIPES:
        raise SystemExit(f"--task {args.task} is a lab task: add --preset tiny, class or larger")
    recipe = RECIPES[args.task]
    defaults = dict(recipe.settings)
    if args.tiny:
        defaults.update(steps=40, batch_size=16, warmup=10, peak_lr=3e-3, max_minutes=0.0, sampled_softmax=min(
            defaults["sampled_softmax"], 256))
    settings = TrainSettings(
        task=args.task, steps=args.steps or defaults["steps"], batch_size=args.batch_size or defaults["batch_size"],
        peak_lr=args.lr or defaults["peak_lr"], warmup=args.warmup or defaults["warmup"], seed=args.seed,
        threads=args.threads,
        max_minutes=defaults.get("max_minutes", 0.0) if args.max_minutes is None else args.max_minutes,
        sampled_softmax=defaults["sampled_softmax"] if args.sampled_softmax is None else args.sampled_softmax,
        curriculum_fraction=defaults.get("curriculum_fraction", 0.0) if args.curriculum is None else args.curriculum,
        style_weights=tuple(int(w) for w in args.style_weights.split(",")) if args.style_weights else (),
        data_workers=args.data_workers,
        train_only=tuple(p for p in (args.train_only or "").split(",") if p),
        **({} if args.label_smoothing is None else {"label_smoothing": args.label_smoothing}),
    )
    vocab_size = len(tokenizer_for(args.task))
    layers = args.layers
    config = build_config(args.task, args.tiny, dict(d_model=args.d_model, n_heads=args.heads, d_ff=args.d_ff,
                                                      n_encoder_layers=layers, n_decoder_layers=layers), vocab_size)
    config = replace(config, dropout=args.dropout)
    if args.pre_ln and not isinstance(config, RNNConfig):
        config = replace(config, norm_first=True, final_norm=True)
    init_from = args.init_from
    if args.resume and args.checkpoint_dir and (Path(args.checkpoint_dir) / "checkpoint.pt").exists():
        init_from = None  # the checkpoint's weights replace the starting point
    device, device_notice = resolve_device(args.device)
    if device_notice:
        print(device_notice, file=sys.stderr)
    result = train(settings, config, progress=not args.quiet, init_from=init_from, device=device,
                   checkpoint_dir=args.checkpoint_dir, checkpoint_minutes=args.checkpoint_minutes, resume=args.resume)
    result.model.to("cpu")  # evaluated, saved and served on the CPU
    out = Path(args.out)
    metrics = {}
    if args.eval_n:
        from transformer_core.analysis.evaluate import evaluate_model
        from transformer_core.io.loading import LoadedModel
        from transformer_core.training.model_card import grammar_field

        loaded = LoadedModel(name=out.name, model=result.model, tokenizer=result.tokenizer, config=config,
                             kind="encoder-decoder", directory=out,
                             grammar=grammar_field(args.task).get("grammar", ""))
        metrics = evaluate_model(loaded, recipe_data(args.task), n=args.eval_n, seed=12345)
    notes = []
    if args.init_from:
        notes.append(f"- continued from the weights of `{args.init_from}` (fine-tuning), not from scratch")
    if settings.style_weights:
        notes.append("- data styles (random, words, sentence, repeats) weighted "
                     + ", ".join(str(w) for w in settings.style_weights))
    write_model_dir(out, result, settings, config, metrics, command, training_notes=notes)
    warning = sampled_softmax_warning(settings, out, config)
    if warning:
        print(warning, file=sys.stderr)
    summary = {k: metrics[k] for k in ("exact_match", "alignment_accuracy") if k in metrics}
    print(json.dumps({"out": str(out), "steps": result.steps_done, "seconds": round(result.seconds, 1),
                      "final_loss": result.history[-1]["loss"], **summary}))
    return 0




if __name__ == "__main__":
    raise SystemExit(main())
