"""One lab run, start to end: train a recipe with snapshots, score it, save it as a model dir.

`run_lab_recipe` is the one code path of a lab run: the job manager's workers (jobs.py, workers.py)
and `python -m transformer_core train --preset ...` call it. It lives apart from the job manager so
that the worker process imports it without importing the manager (no import cycle).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from transformer_core.inference.devices import resolve_device
from transformer_core.training.loop import TrainingStopped, TrainResult, train
from transformer_core.training.model_card import write_model_dir
from transformer_core.training.recipes import (
    PRESETS,
    LabRecipe,
    count_parameters,
    has_core_grammar,
    held_out_examples,
    lab_plan,
)
from transformer_core.training.snapshots import (
    Snapshot,
    SnapshotStore,
    held_out_scores,
    probe_attention,
    save_snapshots,
)

SNAPSHOT_EVAL_N = 32  # held-out examples scored at every snapshot (cheap: one batch)
FINAL_EVAL_N = 200  # held-out examples scored once at the end (the benchmark uses 500)
HISTORY_POINTS = 2000  # loss-curve points kept per job (thinned evenly)


@dataclass
class LabOutcome:
    """What a finished lab run leaves: the model, its curves and snapshots, metrics, where it was saved."""

    result: TrainResult
    snapshots: list[Snapshot]
    history: list[dict]
    metrics: dict
    model_dir: Path | None
    save_error: str
    snapshot_seconds: float  # time spent taking snapshots (inside the training time)
    device: str
    device_notice: str


ProgressCallback = Callable[[dict], None]


def run_lab_recipe(recipe: LabRecipe, *, out: str | Path | None = None, store: SnapshotStore | None = None,
                   on_progress: ProgressCallback | None = None, should_stop: Callable[[], bool] | None = None,
                   eval_n: int = FINAL_EVAL_N, command: str = "", snapshot_eval_n: int = SNAPSHOT_EVAL_N,
                   progress_bar: bool = False) -> LabOutcome:
    """Train one lab recipe with snapshots, evaluate it, and (if `out`) save a model dir + snapshots there.

    on_progress receives {step, seconds, loss, snapshot_seconds} after every step. should_stop() is
    asked after every step; True ends the run early (the model so far is evaluated and saved).
    A failure to save is returned in `save_error`, never raised.
    """
    plan = lab_plan(recipe)
    device, notice = resolve_device(recipe.device)
    store = store if store is not None else SnapshotStore(plan.snapshot_every)
    tokenizer = plan.tokenizer
    examples = held_out_examples(recipe.task, tokenizer, snapshot_eval_n, seed=777)
    probe = recipe.probe_text
    state = {"smoothed": None, "snapshot_seconds": 0.0, "start": time.perf_counter()}

    def take_snapshot(step: int, model, loss: float) -> None:
        began = time.perf_counter()
        exact, alignment = held_out_scores(model, examples)
        src_tokens, tgt_tokens, output, attention = probe_attention(model, tokenizer, probe)
        store.add(Snapshot(step=step, seconds=round(began - state["start"], 2), loss=round(loss, 4),
                           exact_match=exact, alignment=alignment, src_tokens=src_tokens, tgt_tokens=tgt_tokens,
                           output_text=output, attention=attention))
        state["snapshot_seconds"] += time.perf_counter() - began

    def on_step(step: int, loss: float, model) -> None:
        smoothed = loss if state["smoothed"] is None else 0.9 * state["smoothed"] + 0.1 * loss
        state["smoothed"] = smoothed
        if store.due(step):
            take_snapshot(step, model, smoothed)
        if on_progress is not None:
            on_progress({"step": step, "seconds": time.perf_counter() - state["start"], "loss": smoothed,
                         "snapshot_seconds": state["snapshot_seconds"]})
        if should_stop is not None and should_stop():
            raise TrainingStopped

    state["start"] = time.perf_counter()
    result = train(plan.settings, plan.config, on_step=on_step, progress=progress_bar, tokenizer=tokenizer,
                   device=device, history_limit=HISTORY_POINTS)
    latest = store.latest()
    if result.steps_done and (latest is None or latest.step != result.steps_done):
        take_snapshot(result.steps_done, result.model, state["smoothed"] or result.history[-1]["loss"])
    metrics: dict = {}
    if eval_n and result.steps_done:
        final_examples = held_out_examples(recipe.task, tokenizer, eval_n, seed=12345)
        exact, alignment = held_out_scores(result.model, final_examples)
        metrics = {"n": len(final_examples), "seed": 12345, "exact_match": exact, "lab_alignment": alignment}
    snapshots = store.items()
    model_dir, save_error = None, ""
    if out is not None and result.steps_done:
        model_dir, save_error = save_lab_model(Path(out), recipe, plan, result, snapshots, metrics,
                                               state["snapshot_seconds"], command)
    return LabOutcome(result, snapshots, result.history, metrics, model_dir, save_error,
                      state["snapshot_seconds"], device, notice)


def recipe_lines(recipe: LabRecipe, plan, figures: list[str] | None = None) -> list[str]:
    """The model card's lab section: the recipe and how to repeat it."""
    preset = PRESETS[recipe.preset]
    return [
        "## Training lab recipe", "", *(figures or []),
        f"- task {recipe.task}, preset {recipe.preset} (d_model {preset.d_model}, {preset.n_heads} heads, "
        f"{preset.layers}+{preset.layers} layers, d_ff {preset.d_ff}, {count_parameters(plan.config):,} parameters), "
        f"time budget {recipe.budget_s} s" + (f", at most {recipe.max_steps} steps" if recipe.max_steps else "")
        + f", seed {recipe.seed}, device {recipe.device}",
        f"- probe sentence: `{recipe.probe_text}`; snapshots every {plan.snapshot_every} steps (thinned when full): "
        "held-out exact match and alignment on "
        f"{SNAPSHOT_EVAL_N} sentences, the probe's attention for every layer, head and kind "
        "(snapshots.safetensors + snapshots.json; the lab page replays them: `/train?run=NAME`)",
        f"- the same run from the command line: `python -m transformer_core train --task {recipe.task} "
        f"--preset {recipe.preset} --budget {recipe.budget_s} --seed {recipe.seed} --out DIR`", "",
    ]


def lab_config_fields(recipe: LabRecipe) -> dict:
    """What config.json says about a lab model: ko-en ones are evaluated by evaluate.py on the core grammar."""
    fields: dict = {"lab_recipe": asdict(recipe)}
    if recipe.task == "ko-en":
        fields.update(task="ko-en", grammar="core" if has_core_grammar() else "full")
    return fields


def save_lab_model(out: Path, recipe: LabRecipe, plan, result: TrainResult, snapshots: list[Snapshot],
                   metrics: dict, snapshot_seconds: float, command: str = "") -> tuple[Path | None, str]:
    """Write the model dir (model + card + snapshots) atomically: a temporary sibling, then a rename.

    Returns (directory, '') or (None, a plain-language reason) when the disk is full, not writable, ...
    """
    temporary = out.parent / f".{out.name}.partial-{os.getpid()}-{threading.get_ident()}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(temporary, ignore_errors=True)
        figures = []
        if metrics:
            figures = [f"- held-out ({metrics['n']} sentences, seed {metrics['seed']}): exact match "
                       f"{metrics['exact_match']:.1%}, alignment accuracy {metrics['lab_alignment']:.1%} "
                       "(best decoder layer, head average" + (", anti-diagonal share" if recipe.task == "reverse"
                                                               else "") + ")"]
        overhead = snapshot_seconds / result.seconds if result.seconds else 0.0
        notes = [f"- {len(snapshots)} snapshots kept, taking them cost {snapshot_seconds:.1f} s "
                 f"({overhead:.1%} of the training time)"]
        if result.stopped:
            notes.append("- stopped early (Stop button)")
        write_model_dir(temporary, result, plan.settings, plan.config, {k: v for k, v in metrics.items()
                                                                         if k != "lab_alignment"},
                        command or f"python -m transformer_core train --task {recipe.task} --preset {recipe.preset} "
                                   f"--budget {recipe.budget_s} --seed {recipe.seed} --out {out.name}",
                        extra_config=lab_config_fields(recipe),
                        extra_sections=recipe_lines(recipe, plan, figures), training_notes=notes, final_dir=out)
        save_snapshots(temporary, snapshots, result.history,
                       {"recipe": asdict(recipe), "name": out.name, "steps": result.steps_done,
                        "seconds": round(result.seconds, 2), "metrics": metrics,
                        "snapshot_seconds": round(snapshot_seconds, 3)})
        if out.exists():
            shutil.rmtree(out)
        os.replace(temporary, out)
        return out, ""
    except OSError as exc:
        shutil.rmtree(temporary, ignore_errors=True)
        reason = exc.strerror or str(exc)
        return None, f"{type(exc).__name__}: {reason} ({exc.filename or out})"
