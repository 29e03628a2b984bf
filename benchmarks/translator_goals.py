"""Issue 27's goals for a translator, measured in one run: a candidate next to the bundled model.

Before a newly trained ko-en model replaces the bundled one, its figures and the bundled one's are measured the
same way, on the same machine, in one run (these machines are noisy; the quality figures do not depend on it, but
both models are measured with the same draws):

- held-out exact match and alignment on the model's own grammar (`python -m transformer_core evaluate`'s loop);
- the whole notice (unknown words, constructions, lost words, low confidence) on held-out sentences of that grammar
  it was not calibrated on (seed 99, as tests/test_notice_confidence.py): goal <= 5 %;
- the everyday benchmark and the fresh set (benchmarks/everyday.py): coverage, goal >= 75 %; the notice's recall
  on the wrong translations, goal >= 80 %; and how many wrong translations a student sees with no notice;
- the size of model.safetensors: goal <= 50 MB (the forward-time goal: benchmarks/translator_budget.py).

    .venv/bin/python benchmarks/translator_goals.py --model /path/to/candidate [--against ko-en-toy] [--json]

A candidate whose config.json has no calibrated notice threshold is measured without the confidence signal; run
`python -m transformer_core evaluate DIR --calibrate-notice` first (the command says so when it is missing).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DATA_FILES = {"everyday": ROOT / "data" / "everyday_ko_en.tsv", "fresh": ROOT / "data" / "everyday_fresh_ko_en.tsv"}
NOTICE_SEED = 99  # not the calibration's seed (4242): the rate is measured on sentences the threshold never saw
GOALS = {"exact_match": 0.95, "alignment_accuracy": 0.85, "held_out_fire": 0.05, "coverage": 0.75,
         "notice_recall": 0.80, "weights_mb": 50.0}
SIGNALS = ("unknown_words", "outside_constructions", "lost_words", "low_confidence")  # translation_report's


@cache
def everyday_module():
    """benchmarks/everyday.py (a script, not a package): its sentence file reader, matcher and scoring."""
    spec = importlib.util.spec_from_file_location("everyday_benchmark", ROOT / "everyday.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def held_out_fire_rate(loaded, n: int, report: Callable, seed: int = NOTICE_SEED) -> dict:
    """The whole notice on `n` held-out sentences of the model's grammar: how often it fires, and for which signal."""
    from transformer_core.tasks import model_task

    counts = {"n": n, "fired": 0, **dict.fromkeys(SIGNALS, 0)}
    for pair in model_task(loaded).held_out_pairs(n, seed=seed):
        answer = report(loaded, pair.source_text)
        counts["fired"] += bool(answer["outside_training"])
        for signal in SIGNALS:
            counts[signal] += bool(answer.get(signal))
    counts["rate"] = counts["fired"] / n if n else None
    return counts


def measure(model: str, n_eval: int, n_notice: int, progress: Callable[[str], None]) -> dict:
    """Every figure of one model (a name or a directory)."""
    from transformer_core import load
    from transformer_core.analysis.evaluate import evaluate_model
    from transformer_core.inference.report import translation_report

    loaded = load(Path(model) if Path(model).is_dir() else model)
    everyday = everyday_module()
    progress(f"{loaded.name}: {n_eval} held-out sentences for exact match and alignment")
    metrics = evaluate_model(loaded, n=n_eval)
    progress(f"{loaded.name}: the notice on {n_notice} held-out sentences")
    fire = held_out_fire_rate(loaded, n_notice, translation_report)
    benchmarks = {}
    for name, path in DATA_FILES.items():
        progress(f"{loaded.name}: {name} benchmark")
        results = everyday.translate_all(loaded, everyday.load_sentences(path), translation_report)
        summary = everyday.summarize(results)
        benchmarks[name] = {"n": summary["n"], "covered": summary["covered"], "coverage": summary["coverage"],
                            "notice": summary["notice"]}
    weights = Path(loaded.directory) / "model.safetensors" if loaded.directory else None
    return {"model": loaded.name, "directory": str(loaded.directory or ""), "grammar": loaded.grammar,
            "calibrated": bool(getattr(loaded, "notice_min_lead", 0)),
            "exact_match": metrics["exact_match"], "alignment_accuracy": metrics["alignment_accuracy"],
            "held_out_notice": fire, "benchmarks": benchmarks,
            "weights_mb": weights.stat().st_size / 1e6 if weights and weights.exists() else None}


def goals_met(figures: dict) -> dict[str, bool | None]:
    """Each goal of the issue: met, not met, or None when the figure is missing."""
    everyday = figures["benchmarks"]["everyday"]
    values = {"exact_match": figures["exact_match"], "alignment_accuracy": figures["alignment_accuracy"],
              "held_out_fire": figures["held_out_notice"]["rate"], "coverage": everyday["coverage"],
              "notice_recall": (everyday["notice"] or {}).get("recall"), "weights_mb": figures["weights_mb"]}
    at_most = {"held_out_fire", "weights_mb"}
    return {goal: None if values[goal] is None else
            (values[goal] <= GOALS[goal] if goal in at_most else values[goal] >= GOALS[goal]) for goal in GOALS}


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def format_table(all_figures: Sequence[dict]) -> str:
    """One column per model, one row per figure, the goal beside it."""
    def row(label: str, goal: str, cells: Sequence[str]) -> str:
        return f"{label:<34} {goal:<10} " + " ".join(f"{cell:>22}" for cell in cells)

    lines = [row("", "goal", [figures["model"] for figures in all_figures]),
             row("grammar", "", [figures["grammar"] or "-" for figures in all_figures]),
             row("held-out exact match", ">= 95 %", [_percent(f["exact_match"]) for f in all_figures]),
             row("held-out alignment", ">= 85 %", [_percent(f["alignment_accuracy"]) for f in all_figures]),
             row("notice on held-out sentences", "<= 5 %",
                 [f"{f['held_out_notice']['fired']}/{f['held_out_notice']['n']} "
                  f"{_percent(f['held_out_notice']['rate'])}" for f in all_figures])]
    for name in DATA_FILES:
        bench = [f["benchmarks"][name] for f in all_figures]
        lines.append(row(f"{name}: coverage", ">= 75 %" if name == "everyday" else "",
                         [f"{b['covered']}/{b['n']} {_percent(b['coverage'])}" for b in bench]))
        lines.append(row(f"{name}: notice recall on wrong", ">= 80 %" if name == "everyday" else "",
                         [_percent((b["notice"] or {}).get("recall")) for b in bench]))
        lines.append(row(f"{name}: wrong with no notice", "",
                         [str((b["notice"] or {}).get("wrong_unflagged", "n/a")) for b in bench]))
    lines.append(row("model.safetensors", "<= 50 MB",
                     ["n/a" if f["weights_mb"] is None else f"{f['weights_mb']:.1f} MB" for f in all_figures]))
    for figures in all_figures:
        met = goals_met(figures)
        missed = [goal for goal, ok in met.items() if ok is False]
        lines.append(f"{figures['model']}: " + ("every goal met" if not missed else "not met: " + ", ".join(missed))
                     + ("" if figures["calibrated"] else " (no calibrated confidence threshold: run evaluate "
                                                         "--calibrate-notice first)"))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, help="the candidate: a model directory or a name")
    parser.add_argument("--against", default="ko-en-toy", help="measured beside it in the same run ('' = none)")
    parser.add_argument("--eval-n", type=int, default=500, help="held-out sentences for exact match, alignment")
    parser.add_argument("--held-out", type=int, default=1000, help="held-out sentences for the notice's rate")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1, as the app runs)")
    parser.add_argument("--json", action="store_true", help="print a JSON list, one object per model")
    args = parser.parse_args(argv)

    import torch

    from transformer_core import ModelUnavailableError

    torch.set_num_threads(max(1, args.threads))

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    models = [args.model, *([args.against] if args.against else [])]
    try:
        all_figures = [measure(model, args.eval_n, args.held_out, progress) for model in models]
    except (ModelUnavailableError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{**figures, "goals": goals_met(figures)} for figures in all_figures], ensure_ascii=False))
    else:
        print(format_table(all_figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
