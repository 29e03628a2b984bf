"""One lab run, start to end: train a recipe with snapshots, score it, save it as a model dir.

`run_lab_recipe` is the one code path of a lab run: the job manager's workers (jobs.py, workers.py)
and `python -m transformer_core train --preset ...` call it. It lives apart from the job manager so
that the worker process imports it without importing the manager (no import cycle).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from transformer_core.data import BOS_ID
from transformer_core.inference.devices import resolve_device
from transformer_core.tasks import SPEECH_LEVELS, has_core_grammar, lab_task, speech_level_data
from transformer_core.tracing.names import AttentionKind, attention_name
from transformer_core.training.classify import (
    accuracy,
    cls_on_ending,
    save_classifier,
    train_speech_levels,
)
from transformer_core.training.loop import TrainingStopped, TrainResult, train
from transformer_core.training.model_card import write_model_dir
from transformer_core.training.recipes import (
    CLASSIFIER_TASKS,
    PRESETS,
    LabRecipe,
    count_parameters,
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


# What a run is doing, as its progress messages say (the page names each one): started and building its data
# and model, training (step N of M), evaluating and saving after the last step.
STARTING, TRAINING, EVALUATING = "starting", "training", "evaluating"
SNAPSHOT_GAP_S = 4.0  # a snapshot at least this often (training seconds), whatever the step interval says
UNFINISHED_DIR = "_unfinished"  # a stopped run's model goes here: the lab lists it, the model picker does not


class RunWatch:
    """What a lab run does after every optimizer step, for both run paths: a smoothed loss, a snapshot when the
    store says one is due or SNAPSHOT_GAP_S training seconds passed (`measure(step, seconds, model, loss)` builds
    it; its time is counted apart), the progress callback, and Stop (should_stop() True raises TrainingStopped).

    The clock starts at `begin()` (the training loop's on_start, right before step 1), the clock the loop's time
    budget uses too, so the seconds a page shows are the seconds the budget counts."""

    def __init__(self, store: SnapshotStore, measure: Callable[..., Snapshot],
                 on_progress: ProgressCallback | None, should_stop: Callable[[], bool] | None) -> None:
        self.store, self.measure, self.on_progress, self.should_stop = store, measure, on_progress, should_stop
        self.smoothed: float | None = None
        self.snapshot_seconds = 0.0
        self.start = time.perf_counter()
        self.last_snapshot = self.start
        self.phase(STARTING)

    def phase(self, name: str) -> None:
        if self.on_progress is not None:
            self.on_progress({"phase": name})

    def begin(self) -> None:
        """Step 1 starts now (the training loop's on_start)."""
        self.start = self.last_snapshot = time.perf_counter()

    def snapshot(self, step: int, model, loss: float) -> None:
        began = time.perf_counter()
        self.store.add(self.measure(step, round(began - self.start, 2), model, round(loss, 4)))
        self.last_snapshot = time.perf_counter()
        self.snapshot_seconds += self.last_snapshot - began

    def on_step(self, step: int, loss: float, model) -> None:
        self.smoothed = loss if self.smoothed is None else 0.9 * self.smoothed + 0.1 * loss
        if self.store.due(step) or time.perf_counter() - self.last_snapshot >= SNAPSHOT_GAP_S:
            self.snapshot(step, model, self.smoothed)
        if self.on_progress is not None:
            self.on_progress({"phase": TRAINING, "step": step, "seconds": time.perf_counter() - self.start,
                              "loss": self.smoothed, "snapshot_seconds": self.snapshot_seconds})
        if self.should_stop is not None and self.should_stop():
            raise TrainingStopped

    def finish(self, steps_done: int, model, last_loss: float) -> None:
        """The last step's snapshot, if the run ended between two due ones; then the evaluating phase."""
        self.phase(EVALUATING)
        latest = self.store.latest()
        if steps_done and (latest is None or latest.step != steps_done):
            self.snapshot(steps_done, model, self.smoothed if self.smoothed is not None else last_loss)


def model_folder(out: Path, stopped: bool, steps_done: int) -> Path:
    """Where a run's model is saved: `out` when it finished; a stopped run's goes to the lab's own
    `_unfinished/` folder (not in the model picker), named for what ran: `NAME-stopped-step73`."""
    return out.parent / UNFINISHED_DIR / f"{out.name}-stopped-step{steps_done}" if stopped else out


def publish_unfinished(model_dir: str | Path) -> Path:
    """Offer a stopped run's model in everyone's model picker (its starter chose to): one rename from
    `_unfinished/NAME-stopped-stepN` to `NAME-stopped-stepN` beside the finished models; the name still says it
    stopped. Returns the new folder (the same one if it was published already)."""
    model_dir = Path(model_dir)
    target = model_dir.parent.parent / model_dir.name
    if model_dir.parent.name != UNFINISHED_DIR:
        raise ValueError(f"{model_dir} is not a stopped run's model ({UNFINISHED_DIR}/NAME)")
    if target.is_dir() and not model_dir.exists():
        return target
    os.replace(model_dir, target)
    return target


def run_lab_recipe(recipe: LabRecipe, *, out: str | Path | None = None, store: SnapshotStore | None = None,
                   on_progress: ProgressCallback | None = None, should_stop: Callable[[], bool] | None = None,
                   eval_n: int = FINAL_EVAL_N, command: str = "", snapshot_eval_n: int = SNAPSHOT_EVAL_N,
                   progress_bar: bool = False) -> LabOutcome:
    """Train one lab recipe with snapshots, evaluate it, and (if `out`) save a model dir + snapshots there.

    on_progress receives {step, seconds, loss, snapshot_seconds} after every step. should_stop() is
    asked after every step; True ends the run early (the model so far is evaluated and saved).
    A failure to save is returned in `save_error`, never raised. The speech-level classifier takes its own
    path (run_classifier_recipe) with the same snapshots, progress and Stop.
    """
    if recipe.task in CLASSIFIER_TASKS:
        return run_classifier_recipe(recipe, out=out, store=store, on_progress=on_progress, should_stop=should_stop,
                                     eval_n=eval_n, command=command)
    plan = lab_plan(recipe)
    device, notice = resolve_device(recipe.device)
    store = store if store is not None else SnapshotStore(plan.snapshot_every)
    tokenizer = plan.tokenizer
    examples = held_out_examples(recipe.task, tokenizer, snapshot_eval_n, seed=777)
    probe = recipe.probe_text
    def measure(step: int, seconds: float, model, loss: float) -> Snapshot:
        exact, alignment = held_out_scores(model, examples)
        src_tokens, tgt_tokens, output, attention = probe_attention(model, tokenizer, probe)
        return Snapshot(step=step, seconds=seconds, loss=loss, exact_match=exact, alignment=alignment,
                        src_tokens=src_tokens, tgt_tokens=tgt_tokens, output_text=output, attention=attention)

    watch = RunWatch(store, measure, on_progress, should_stop)
    result = train(plan.settings, plan.config, on_step=watch.on_step, progress=progress_bar, tokenizer=tokenizer,
                   device=device, history_limit=HISTORY_POINTS, on_start=watch.begin)
    watch.finish(result.steps_done, result.model, result.history[-1]["loss"] if result.history else 0.0)
    metrics: dict = {}
    if eval_n and result.steps_done:
        final_examples = held_out_examples(recipe.task, tokenizer, eval_n, seed=12345)
        exact, alignment = held_out_scores(result.model, final_examples)
        metrics = {"n": len(final_examples), "seed": 12345, "exact_match": exact, "lab_alignment": alignment}
    snapshots = store.items()
    model_dir, save_error = None, ""
    if out is not None and result.steps_done:
        model_dir, save_error = save_lab_model(model_folder(Path(out), result.stopped, result.steps_done), recipe,
                                               plan, result, snapshots, metrics, watch.snapshot_seconds, command)
    return LabOutcome(result, snapshots, result.history, metrics, model_dir, save_error,
                      watch.snapshot_seconds, device, notice)


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
    task = lab_task(recipe.task)
    if task.grammar:
        fields.update(task=task.name, grammar="core" if has_core_grammar() else "full")
    return fields


def save_atomically(out: Path, write: Callable[[Path], None], snapshots: list[Snapshot], history: list[dict],
                    info: dict) -> tuple[Path | None, str]:
    """`write(folder)` plus the snapshots into a temporary sibling of `out`, then one rename: a model dir is
    either whole or absent. Returns (out, '') or (None, a plain-language reason: disk full, not writable, ...)."""
    temporary = out.parent / f".{out.name}.partial-{os.getpid()}-{threading.get_ident()}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(temporary, ignore_errors=True)
        write(temporary)
        save_snapshots(temporary, snapshots, history, {"name": out.name, **info})
        if out.exists():
            shutil.rmtree(out)
        os.replace(temporary, out)
        return out, ""
    except OSError as exc:
        shutil.rmtree(temporary, ignore_errors=True)
        reason = exc.strerror or str(exc)
        return None, f"{type(exc).__name__}: {reason} ({exc.filename or out})"


def run_info(recipe: LabRecipe, steps: int, seconds: float, metrics: dict, snapshot_seconds: float) -> dict:
    """What snapshots.json says about the run (the replay reads it)."""
    return {"recipe": asdict(recipe), "steps": steps, "seconds": round(seconds, 2), "metrics": metrics,
            "snapshot_seconds": round(snapshot_seconds, 3)}


def save_lab_model(out: Path, recipe: LabRecipe, plan, result: TrainResult, snapshots: list[Snapshot],
                   metrics: dict, snapshot_seconds: float, command: str = "") -> tuple[Path | None, str]:
    """The model dir (model + card + snapshots), written atomically (save_atomically)."""
    figures = []
    if metrics:
        share = ", anti-diagonal share" if lab_task(recipe.task).anti_diagonal else ""
        figures = [f"- held-out ({metrics['n']} sentences, seed {metrics['seed']}): exact match "
                   f"{metrics['exact_match']:.1%}, alignment accuracy {metrics['lab_alignment']:.1%} "
                   f"(best decoder layer, head average{share})"]
    overhead = snapshot_seconds / result.seconds if result.seconds else 0.0
    notes = [f"- {len(snapshots)} snapshots kept, taking them cost {snapshot_seconds:.1f} s "
             f"({overhead:.1%} of the training time)"]
    if result.stopped:
        notes.append(f"- stopped early (Stop button) at step {result.steps_done}, after {result.seconds:.0f} s of "
                     f"its {recipe.budget_s} s budget")

    def write(folder: Path) -> None:
        write_model_dir(folder, result, plan.settings, plan.config, {k: v for k, v in metrics.items()
                                                                      if k != "lab_alignment"},
                        command or f"python -m transformer_core train --task {recipe.task} --preset {recipe.preset} "
                                   f"--budget {recipe.budget_s} --seed {recipe.seed} --out {out.name}",
                        extra_config=lab_config_fields(recipe),
                        extra_sections=recipe_lines(recipe, plan, figures), training_notes=notes, final_dir=out)

    return save_atomically(out, write, snapshots, result.history,
                           run_info(recipe, result.steps_done, result.seconds, metrics, snapshot_seconds))


# --- the encoder + [CLS] classifier (task "speech-level") ------------------------------------------------

def classifier_probe(model, tokenizer, text: str) -> tuple[list[str], str, dict[str, np.ndarray]]:
    """The probe through the classifier as the pages do it: (tokens, predicted speech level, attention)."""
    ids = [BOS_ID, *tokenizer(text)["input_ids"]][: model.encoder.config.max_len]
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    with torch.no_grad():
        batch = torch.tensor([ids], dtype=torch.long, device=device)
        level = SPEECH_LEVELS[int(model(batch).argmax(-1))]
        trace = model.encoder.trace(batch)
    model.train(was_training)
    layers = range(model.encoder.config.n_encoder_layers)
    kind = AttentionKind.ENCODER_SELF
    attention = np.stack([trace[attention_name(kind, layer)][0].float().cpu().numpy() for layer in layers])
    return tokenizer.convert_ids_to_tokens(ids), level, {kind.value: attention.astype(np.float16)}


def run_classifier_recipe(recipe: LabRecipe, *, out: str | Path | None = None, store: SnapshotStore | None = None,
                          on_progress: ProgressCallback | None = None, should_stop: Callable[[], bool] | None = None,
                          eval_n: int = FINAL_EVAL_N, command: str = "", snapshot_eval_n: int = 100,
                          progress_bar: bool = False) -> LabOutcome:
    """`run_lab_recipe` for the speech-level classifier: the same snapshots, progress, Stop and model dir.

    A snapshot's exact match is the held-out accuracy (on `snapshot_eval_n` sentences) and its alignment the
    share whose last-layer [CLS] row peaks on the verb ending (classify.cls_on_ending).
    """
    plan = lab_plan(recipe)
    device, notice = resolve_device(recipe.device)
    store = store if store is not None else SnapshotStore(plan.snapshot_every)
    tokenizer = plan.tokenizer
    _, held_out = speech_level_data(recipe.seed, tokenizer)
    snapshot_examples = held_out[:snapshot_eval_n]
    def measure(step: int, seconds: float, model, loss: float) -> Snapshot:
        tokens, level, attention = classifier_probe(model, tokenizer, recipe.probe_text)
        return Snapshot(step=step, seconds=seconds, loss=loss, exact_match=accuracy(model, snapshot_examples),
                        alignment=cls_on_ending(model, tokenizer, snapshot_examples), src_tokens=tokens,
                        tgt_tokens=[], output_text=level, attention=attention)

    watch = RunWatch(store, measure, on_progress, should_stop)
    torch.set_num_threads(plan.settings.threads)
    run, _, _ = train_speech_levels(
        budget_s=recipe.budget_s, max_steps=plan.settings.steps, seed=recipe.seed, batch_size=plan.settings.batch_size,
        lr=plan.settings.peak_lr, eval_every=0, config=plan.config, stop_at_goal=False, tokenizer=tokenizer,
        on_step=watch.on_step, device=device, on_start=watch.begin)
    watch.finish(run.steps, run.model, run.history[-1]["loss"] if run.history else 0.0)
    metrics: dict = {}
    if eval_n and run.steps:
        final = held_out[:eval_n]
        metrics = {"n": len(final), "seed": recipe.seed + 10_000, "exact_match": accuracy(run.model, final),
                   "lab_alignment": cls_on_ending(run.model, tokenizer, final)}
    snapshots = store.items()
    model_dir, save_error = None, ""
    if out is not None and run.steps:
        model_dir, save_error = save_classifier_run(model_folder(Path(out), run.stopped, run.steps), recipe, run,
                                                    tokenizer, snapshots, metrics, watch.snapshot_seconds)
    result = TrainResult(run.model, tokenizer, run.history, run.seconds, run.steps, stopped=run.stopped)
    return LabOutcome(result, snapshots, run.history, metrics, model_dir, save_error, watch.snapshot_seconds,
                      device, notice)


def save_classifier_run(out: Path, recipe: LabRecipe, run, tokenizer, snapshots: list[Snapshot], metrics: dict,
                        snapshot_seconds: float) -> tuple[Path | None, str]:
    """The classifier's model dir (encoder + head, classify.save_classifier) and its snapshots, atomically."""

    def write(folder: Path) -> None:
        save_classifier(folder, run.model, tokenizer, run)
        config_path = folder / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        config.update(lab_recipe=asdict(recipe), metrics=metrics)
        config_path.write_text(json.dumps(config, ensure_ascii=False, indent=2), encoding="utf-8")

    return save_atomically(out, write, snapshots, run.history,
                           run_info(recipe, run.steps, run.seconds, metrics, snapshot_seconds))
