"""The training lab's service (/train): everything pages/train.py needs beyond widgets and layout, without
Streamlit — which job manager serves this server, the recipe a link presets, the probe sentence a run watches,
the preset table's rows, the progress line's numbers, the lab's list of finished runs and the saved runs a link
replays. The page keeps the widgets, the polling fragments and st.cache_resource around these functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from transformer_core.io.loading import lab_models_dir
from transformer_core.store import redis_url
from transformer_core.tasks import LAB_TASKS, Task, lab_task
from transformer_core.training import jobs as lab_jobs
from transformer_core.training.lab_run import UNFINISHED_DIR
from transformer_core.training.recipes import (
    PRESETS,
    LabRecipe,
    count_parameters,
    lab_plan,
    planned_steps,
    tokenizer_for,
)
from transformer_core.training.snapshots import has_snapshots, load_snapshots

BUDGETS = [30, 60, 120, 180, 300, 600]  # the time budgets (seconds) the form offers
MAX_SEED = 9999
RUN_NAME = re.compile(rf"^({UNFINISHED_DIR}/)?[A-Za-z0-9][A-Za-z0-9._-]{{0,120}}$")  # a stopped run: _unfinished/NAME


def make_manager():
    """The lab's job manager: with TRANSFORMER_EXPLORER_REDIS_URL the queue's (every server and worker shares its
    jobs), else this server's own worker process (`make run`). The page keeps ONE per server."""
    url = redis_url()
    if url:
        from transformer_core.training.queue.manager import RedisJobManager

        return RedisJobManager(url)
    return lab_jobs.JobManager(models_dir=lab_models_dir)  # the folder is looked up when a job saves


def lab_tokenizer(task: str):
    """The tokenizer the lab trains `task` with."""
    return tokenizer_for(task, lab=True)


def task_of(recipe_task: str) -> Task:
    """The Task a lab recipe names (its flags say how the page shows it: anti_diagonal, classifier, grammar);
    a bare Task with every flag off for a name the lab does not know (an old saved run's)."""
    return LAB_TASKS.get(recipe_task) or Task(recipe_task)


# ------------------------------------------------------------------------------------------------
# The recipe form

def preset_rows(task: str, tokenizer) -> list[dict]:
    """One row per preset: the model's shape and parameter count for `task` (the preset table's input)."""
    rows = []
    for name in PRESETS:
        config = lab_plan(LabRecipe(task=task, preset=name), tokenizer).config
        rows.append({"preset": name, "d_model": config.d_model, "heads": config.n_heads,
                     "layers": config.n_encoder_layers, "decoder_layers": config.n_decoder_layers,
                     "d_ff": config.d_ff, "params": count_parameters(config)})
    return rows


@dataclass(frozen=True)
class ProbeChoice:
    """The sentence a run watches: `probe` is what the recipe keeps ('' = the task's default, one shared job);
    `problem` says why the sidebar's text cannot be it (None when it fits; see Task.probe_problem)."""

    text: str
    probe: str
    problem: dict | None
    default: str


def probe_choice(task: str, text: str, tokenizer) -> ProbeChoice:
    """Whether the sidebar's `text` can be `task`'s probe; the default probe typed in is the default (one job)."""
    lab = lab_task(task)
    text = text.strip()
    problem = lab.probe_problem(text, tokenizer)
    probe = text if problem is None and text != lab.probe else ""
    return ProbeChoice(text=text, probe=probe, problem=problem, default=lab.probe)


# ------------------------------------------------------------------------------------------------
# Which run the page shows

def run_key(job) -> str:
    """Names one run of a job: the local manager's job ids are new for every run; the queue's are the recipe's
    name, a new `run` id each time the recipe starts again."""
    return f"{job.id}@{getattr(job, 'run', '')}"


def shown_job(manager, recipe: LabRecipe, own_id: str | None, left: str | None):
    """The run /train shows: the run this session started while it trains; else the form's recipe's run, as every
    session on every server sees it (running, or how its last run ended), without pressing Start, unless this
    session left that very run (Stop while others watched); else the run this session started, ended. None: the
    empty form. `left` is run_key of the run this session left."""
    own = manager.get(own_id) if own_id else None
    if own is not None and own.state in lab_jobs.ACTIVE:
        return own
    found = manager.find(recipe)
    if found is not None and run_key(found) != left:
        return found
    return own


def shown_signature(job) -> tuple[str, str] | None:
    """What the page drew for its run (which run, in which state): a change means a new page run."""
    return None if job is None else (run_key(job), job.state)


# ------------------------------------------------------------------------------------------------
# A job's status, as the figures and lines want it

def curve_points(snapshots) -> list[dict]:
    """The snapshots' held-out scores, one dict per snapshot (the curves figure's input)."""
    return [{"step": s.step, "exact_match": s.exact_match, "alignment": s.alignment} for s in snapshots]


@dataclass(frozen=True)
class Progress:
    step: int
    planned: int
    seconds: float  # training time so far, at most the budget (the last step may end a moment after it)
    budget_s: int


def live_progress(status: dict) -> Progress:
    """The numbers of a running job's progress line."""
    recipe = status["recipe"]
    return Progress(step=status["step"], planned=planned_steps(recipe),
                    seconds=min(status["seconds"], recipe.budget_s), budget_s=recipe.budget_s)


def goal_shortfall(task: str, metrics: dict, steps: int, planned: int) -> str | None:
    """The message key when a run ended short of its task's goal ('...time': the clock ended it first,
    '...steps': it ran all its steps; '_classifier' for the classifier), else None."""
    lab = task_of(task)
    if not metrics or task not in LAB_TASKS or lab.meets_goal(metrics["exact_match"], metrics["lab_alignment"]):
        return None
    key = "lab.short_of_goal_time" if steps < planned else "lab.short_of_goal_steps"
    return key + ("_classifier" if lab.classifier else "")


def run_link(model_dir: str | Path) -> str:
    """The `?run=` value that replays a saved model dir (a stopped run's: _unfinished/NAME)."""
    folder = Path(model_dir)
    return f"{UNFINISHED_DIR}/{folder.name}" if folder.parent.name == UNFINISHED_DIR else folder.name


@dataclass(frozen=True)
class FinishedRun:
    """One line of the lab's list of finished runs."""

    task: str
    preset: str
    budget_s: int
    seed: int
    state: str
    step: int
    exact: float | None  # held-out exact match (the classifier: its accuracy); None before it was scored
    classifier: bool
    run: str  # the `?run=` value that replays it ('' = nothing saved)


def finished_runs(manager) -> list[FinishedRun]:
    """The manager's finished jobs, newest first as the manager lists them."""
    runs = []
    for job in manager.finished():
        status = job.status()
        recipe = status["recipe"]
        runs.append(FinishedRun(task=recipe.task, preset=recipe.preset, budget_s=recipe.budget_s, seed=recipe.seed,
                                state=status["state"], step=status["step"],
                                exact=(status["metrics"] or {}).get("exact_match"),
                                classifier=task_of(recipe.task).classifier,
                                run=run_link(status["model_dir"]) if status["model_dir"] is not None else ""))
    return runs


# ------------------------------------------------------------------------------------------------
# Saved runs (`/train?run=NAME`)

@dataclass(frozen=True)
class SavedRun:
    name: str
    directory: Path
    snapshots: list
    history: list[tuple[int, float]]  # (step, loss)
    task: str
    metrics: dict
    steps: int
    seconds: float
    source: str  # names this file version for the shared figure cache


def saved_run_dir(name: str) -> Path | None:
    """The folder of the saved run `name` in the lab models folder, or None when the name is not a run's (odd
    characters, a path outside the folder) or it holds no snapshots."""
    if not RUN_NAME.match(name):
        return None
    directory = lab_models_dir() / name
    return directory if has_snapshots(directory) else None


def snapshots_mtime(directory: Path) -> float:
    return (directory / "snapshots.json").stat().st_mtime


def read_saved_run(name: str, directory: Path, loaded: tuple | None = None) -> SavedRun:
    """A saved run's replay: `loaded` is load_snapshots' (snapshots, history, info) when the page cached it.
    Raises OSError, ValueError or KeyError on a broken folder."""
    mtime = snapshots_mtime(directory)
    snapshots, history, info = loaded if loaded is not None else load_snapshots(directory)
    return SavedRun(name=name, directory=directory, snapshots=snapshots,
                    history=[(row["step"], row["loss"]) for row in history],
                    task=info.get("recipe", {}).get("task", ""), metrics=info.get("metrics") or {},
                    steps=info.get("steps", 0), seconds=info.get("seconds", 0.0), source=f"{name}@{mtime}")


# ------------------------------------------------------------------------------------------------
# Names the page's URL may carry

def lab_task_names() -> list[str]:
    return list(LAB_TASKS)


def preset_names() -> list[str]:
    return list(PRESETS)
