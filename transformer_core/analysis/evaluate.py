"""Evaluate a bundled model on a fresh held-out sample: exact match and cross-attention alignment.

    python -m transformer_core evaluate models/ko-en-toy [--json] [--n 500] [--seed 0]
    python -m transformer_core evaluate models/reverse --json
    python -m transformer_core evaluate models/ko-en-toy --head-importance --json   (importance.py)

Exact match: the greedy output equals the reference, token for token. Alignment: teacher-forced on
the reference, the cross-attention row that predicts each target word (its query is the previous
token) must have its largest weight on the gold source word (see alignment.py); reported per decoder
layer for the head average, and for every single head. The 2015 attention RNN (rnn.py) has one
alignment per step (`rnn.attn.weights`): it is scored as one layer with one head
(`cross_attention_maps`). JSON keys: exact_match, exact_match_by_group,
alignment_accuracy (best layer, head average), best_layer, best_head {layer, head, accuracy},
alignment_accuracy_best_head, per_layer, per_head, scored_words, input_row_alignment (diagnostic:
the same score on the row whose query is the target word itself), failures (up to 20 misses).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from transformer_core.analysis.scoring import (  # noqa: F401  (re-exported: the one scoring loop)
    HeldOutScore,
    cross_attention,
    cross_attention_maps,
    decoding_limit,
    score_examples,
    summarize,
)
from transformer_core.io.loading import LoadedModel, load
from transformer_core.tasks import TASKS, Task, model_task, task_named
from transformer_core.tasks.heldout import Example
from transformer_core.tracing.hooks import Patch

# --- scoring (scoring.py holds the one loop) --------------------------------------------------------

def score(model, examples: list[Example], batch_size: int = 64,
          patches: Mapping[str, Patch] | None = None) -> dict:
    """The metrics dict of `model` (under `patches`) on `examples`: `score_examples(...)[0].metrics()`."""
    return score_examples(model, examples, batch_size, patches)[0].metrics()


def model_task_or(loaded: LoadedModel, task: str | None) -> Task:
    """The task named `task`, else the model's own (config.json's "task"); ValueError when neither names one,
    or for a task without translation examples (the speech-level classifier: `python -m transformer_core classify`)."""
    found = task_named(task) if task else model_task(loaded)
    if found is None:
        detail = f"its task {loaded.task!r} is unknown" if loaded.task else "its config.json names no task"
        raise ValueError(f"{loaded.name}: {detail}; pass one (--task {' or --task '.join(translation_tasks())})")
    if found.classifier:
        raise ValueError(f"{found.name} is a classifier task: measure it with `python -m transformer_core classify`")
    return found


def translation_tasks() -> list[str]:
    """The tasks whose held-out examples this module scores (every task but the classifier)."""
    return [name for name, task in TASKS.items() if not task.classifier]


def trained_on_core(loaded: LoadedModel) -> bool:
    """Was the model trained on the core grammar? (config.json "grammar": "core", written by the lab)."""
    return loaded.grammar == "core"


def examples_for(loaded: LoadedModel, task: Task, n: int, seed: int, core: bool | None = None) -> list[Example]:
    """The held-out sample of `task` for `loaded` (its tokenizer; ko-en: the core grammar when the model was
    trained on it, unless `core` says; reverse: n texts + the hand-written ones)."""
    core = trained_on_core(loaded) if core is None else core
    return task.held_out(loaded.tokenizer, n, seed, core=core and task.grammar)


def evaluate_model(loaded: LoadedModel, task: str | None = None, n: int = 500, seed: int = 0,
                   batch_size: int = 64, core: bool | None = None) -> dict:
    """Metrics of `loaded` on `n` fresh held-out examples of its task.

    ko-en: `core` True measures on the core grammar, False on the whole grammar, None: what
    config.json's "grammar" says ("core" or anything else = the whole grammar)."""
    found = model_task_or(loaded, task)
    core = trained_on_core(loaded) if core is None else core
    examples = examples_for(loaded, found, n, seed, core)
    metrics = score_examples(loaded.model, examples, batch_size)[0].metrics()
    tokenizer = loaded.tokenizer
    metrics["failures"] = [
        {"source": tokenizer.decode(f["source_ids"], skip_special_tokens=True),
         "output": tokenizer.decode(f["output_ids"], skip_special_tokens=True),
         "expected": tokenizer.decode(f["target_ids"], skip_special_tokens=True)} for f in metrics["failures"]
    ]
    grammar = {"grammar": "core" if core else found.whole_grammar} if found.grammar else {}
    return {"model": loaded.name, "task": found.name, "n": n, "seed": seed, **grammar, **metrics}


def format_report(metrics: dict) -> str:
    """Plain-text summary for the terminal."""
    lines = [f"{metrics['model']} ({metrics['task']}): {metrics['n']} held-out examples, seed {metrics['seed']}",
             f"exact match: {metrics['exact_match']:.1%}"]
    lines += [f"  {group}: {value:.1%}" for group, value in metrics["exact_match_by_group"].items()]
    lines.append(f"alignment accuracy, best layer (head average): {metrics['alignment_accuracy']:.1%} "
                 f"(decoder layer {metrics['best_layer']}, {metrics['scored_words']} scored words)")
    best = metrics["best_head"]
    lines.append(f"alignment accuracy, best head: {best['accuracy']:.1%} (layer {best['layer']}, head {best['head']})")
    for layer, (average, heads) in enumerate(zip(metrics["per_layer"], metrics["per_head"], strict=True)):
        lines.append(f"  layer {layer}: average {average:.1%}; heads " + " ".join(f"{h:.1%}" for h in heads))
    shifted = metrics["input_row_alignment"]
    lines.append(f"diagnostic, scoring the row whose query is the word itself: best layer {shifted['best_layer']:.1%}, "
                 f"best head {shifted['best_head']:.1%}")
    for failure in metrics["failures"][:5]:
        lines.append(f"  miss: {failure['source']!r} -> {failure['output']!r} (expected {failure['expected']!r})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_core evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("model", help="model directory or name (e.g. models/ko-en-toy)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--n", type=int, help="held-out examples to draw (default 500; 200 with --head-importance)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--task", choices=translation_tasks(), help="default: from config.json")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--core", action=argparse.BooleanOptionalAction, default=None,
                        help="ko-en: measure on the core grammar (default: config.json's \"grammar\")")
    parser.add_argument("--head-importance", action="store_true",
                        help="switch off each head (and each layer) alone and measure the drop; writes "
                             "head_importance.json into the model directory (see importance.py)")
    parser.add_argument("--method", choices=["zero", "mean", "uniform"], default="zero",
                        help="how --head-importance switches a head off")
    parser.add_argument("--max-rows", type=int, default=256, help="batch rows per pass for --head-importance")
    parser.add_argument("--calibrate-notice", action="store_true",
                        help="the confidence (the smallest lead of an output word over its runner-up, in logits) "
                             "below which the pages say the model is unsure: its 2nd percentile over the ones it "
                             "translates right of --n held-out sentences (default 1,000); written to config.json")
    args = parser.parse_args(argv)
    loaded = load(Path(args.model) if Path(args.model).is_dir() else args.model)
    try:
        if args.head_importance:
            return head_importance_main(loaded, args)
        if args.calibrate_notice:
            return calibrate_notice_main(loaded, args)
        metrics = evaluate_model(loaded, args.task, args.n or 500, args.seed, args.batch_size, core=args.core)
    except ValueError as exc:  # no task, an unknown task, an encoder-only model: a message, not a traceback
        print(f"evaluate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(metrics, ensure_ascii=False))
    else:
        print(format_report(metrics))
    return 0


def calibrate_notice_main(loaded: LoadedModel, args) -> int:
    """--calibrate-notice: config.json's "notice_min_lead" (inference/report.py)."""
    from transformer_core.inference.report import NOTICE_QUANTILE, NOTICE_SENTENCES, calibrate_min_lead

    n = args.n or NOTICE_SENTENCES
    seed = args.seed or 4242
    calibration = calibrate_min_lead(loaded, n, seed)
    result = {"notice_min_lead": round(calibration.threshold, 4), "n": len(calibration.confidences),
              "right": sum(calibration.right), "seed": seed, "quantile": NOTICE_QUANTILE,
              "fires_on_right": calibration.fires_on_right, "fires_on": calibration.fires_on}
    if loaded.directory is not None:
        path = loaded.directory / "config.json"
        config = json.loads(path.read_text(encoding="utf-8"))
        config.pop("notice_min_probability", None)  # the threshold of the smallest probability (before 2026-11-28)
        config["notice_min_lead"] = result["notice_min_lead"]
        path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False))
    return 0


def head_importance_main(loaded: LoadedModel, args) -> int:
    """--head-importance: the table, printed and written to <model dir>/head_importance.json."""
    from transformer_core.analysis.importance import FILE_NAME, format_table, head_importance

    task = model_task_or(loaded, args.task)
    n = args.n or 200
    examples = examples_for(loaded, task, n, args.seed, args.core)
    last = [-1]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // total
        if percent // 10 != last[0]:
            last[0] = percent // 10
            print(f"head importance: {percent}% ({done}/{total} experiment x example pairs)", file=sys.stderr)

    result = head_importance(loaded, examples, task, args.method, args.batch_size, args.max_rows, progress)
    result["seed"] = args.seed
    if task.grammar:
        result["grammar"] = "core" if (trained_on_core(loaded) if args.core is None else args.core) \
            else task.whole_grammar
    if loaded.directory is not None:
        path = loaded.directory / FILE_NAME
        path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
