"""Training lab (/train): train the paper's model live and watch its attention learn the alignment.

Widgets and layout only. The training runs in the lab's background workers: this server's own worker
process (transformer_core.training.jobs.JobManager), or, with TRANSFORMER_EXPLORER_REDIS_URL set, RQ workers
anywhere (transformer_core.training.queue.RedisJobManager); one manager per server in st.cache_resource, the
same methods either way. A job per recipe, shared by every session that starts the same recipe; this page polls
it with st.fragment(run_every=...) and never trains in the script thread. From the first second after Start it
says what is happening (waiting for a worker · starting · step N of M · scoring and saving) with a running clock;
Redis going away shows "the lab is unavailable" and the page picks up again when it is back. After the run, a step
slider (and Play) replays the snapshots; `/train?run=NAME` replays a run saved in the lab models folder.
A link can preset the recipe (?task=reverse&preset=tiny&budget=30&seed=1, read on the first visit);
the query parameter `max_steps` (optional) ends runs after that many steps (tests, quick demos).
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path

import streamlit as st

from explorer.figures import lab as lab_figs
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.state import lang, settings, tr
from explorer.widgets import chart, page_header
from transformer_core.io.loading import lab_models_dir
from transformer_core.store import StoreUnavailable, redis_url
from transformer_core.tasks import LAB_TASKS, has_core_grammar, lab_task
from transformer_core.tracing.names import ATTENTION_KINDS, AttentionKind
from transformer_core.training import jobs as lab_jobs
from transformer_core.training.lab_run import EVALUATING, STARTING, UNFINISHED_DIR, publish_unfinished
from transformer_core.training.recipes import (
    CLASSIFIER_TASKS,
    DEFAULT_BUDGET_S,
    DEFAULT_PROBES,
    GOALS,
    PRESETS,
    LabRecipe,
    count_parameters,
    fits_task,
    lab_plan,
    meets_goal,
    planned_steps,
    probe_problem,
    tokenizer_for,
)
from transformer_core.training.snapshots import has_snapshots, load_snapshots

ensure_frame()

BUDGETS = [30, 60, 120, 180, 300, 600]
POLL_S = 1.0  # how often a watching page asks the job for news
PLAY_S = 0.8  # replay speed: one snapshot per this many seconds
RUN_NAME = re.compile(rf"^({UNFINISHED_DIR}/)?[A-Za-z0-9][A-Za-z0-9._-]{{0,120}}$")  # a stopped run: _unfinished/NAME
UNAVAILABLE_POLL_S = 3.0  # how often a page asks whether the queue (Redis) is back


@st.cache_resource(show_spinner=False)
def lab_manager():
    """ONE job manager per server: every session sees the same jobs. With TRANSFORMER_EXPLORER_REDIS_URL the
    queue's (every server and worker shares its jobs), else this server's own (`make run`)."""
    url = redis_url()
    if url:
        from transformer_core.training.queue import RedisJobManager

        return RedisJobManager(url)
    return lab_jobs.JobManager(models_dir=lab_models_dir)  # the folder is looked up when a job saves


@st.cache_resource(show_spinner=False)
def lab_tokenizer(task: str):
    return tokenizer_for(task, lab=True)


@st.cache_resource(show_spinner=False, max_entries=4)
def saved_run(path: str, mtime: float):
    """A saved run's snapshots (cached per file version)."""
    return load_snapshots(path)


def session_id() -> str:
    if "_lab_session" not in st.session_state:
        st.session_state["_lab_session"] = uuid.uuid4().hex
    return st.session_state["_lab_session"]


def max_steps_param() -> int:
    try:
        return max(0, int(st.query_params.get("max_steps", 0)))
    except ValueError:
        return 0


# ------------------------------------------------------------------------------------------------
# Pieces shared by the live view and the replay

def attention_pickers(snapshot, prefix: str) -> tuple[str, int, int]:
    """Kind / layer / head pickers for a snapshot's attention."""
    code = lang()
    kinds = [k.value for k in ATTENTION_KINDS if k in snapshot.attention]
    left, middle, right = st.columns(3)
    kind = left.selectbox(tr("lab.kind"), kinds, index=len(kinds) - 1, key=f"{prefix}_kind",
                          format_func=lambda k: t(f"kind.{k}", code))
    n_layers, n_heads = snapshot.attention[kind].shape[:2]
    layer = middle.selectbox(tr("lab.layer"), list(range(n_layers)), index=n_layers - 1, key=f"{prefix}_layer")
    head = right.selectbox(tr("lab.head"), list(range(n_heads)), key=f"{prefix}_head")
    return kind, min(layer, n_layers - 1), min(head, n_heads - 1)


@st.cache_resource(show_spinner=False, max_entries=64)
def live_curves(job_id: str, snapshot_step: int, code: str, _status: dict):
    """The live curves of a job at its latest snapshot: one figure shared by all who watch it."""
    task = lab_task(_status["recipe"].task)
    return lab_figs.curves_figure(_status["history"], curve_points(_status["snapshots"]), lang=code,
                                  reverse_task=task.anti_diagonal, classifier=task.classifier)


@st.cache_resource(show_spinner=False, max_entries=256)
def attention_figure(snapshot_id: tuple, kind: str, layer: int, head: int, code: str, _snapshot):
    """One head's map of one snapshot (shared by every session showing it)."""
    return lab_figs.snapshot_attention_figure(_snapshot.attention[kind], _snapshot.src_tokens, _snapshot.tgt_tokens,
                                              kind=kind, layer=layer, head=head, step=_snapshot.step, lang=code)


def show_attention(snapshot, kind: str, layer: int, head: int, key: str, source: str = "") -> None:
    fig = attention_figure((source, snapshot.step), kind, layer, head, lang(), snapshot)
    chart(fig, f"lab_attention_step{snapshot.step}", key=key)


def shown_output(snapshot, task: str) -> str:
    """What a snapshot's model said: the translation, or the classifier's speech level in the UI's language."""
    if task in CLASSIFIER_TASKS and snapshot.output_text:
        return t(f"lab.level.{snapshot.output_text}", lang())
    return snapshot.output_text or t("lab.empty_output", lang())


def show_cls_rows(snapshot, task: str, key: str) -> None:
    """The classifier's [CLS] row per layer, the verb ending boxed (nothing for the other tasks)."""
    if task not in CLASSIFIER_TASKS:
        return
    chart(lab_figs.cls_rows_figure(snapshot.attention[AttentionKind.ENCODER_SELF], snapshot.src_tokens,
                                   step=snapshot.step, lang=lang()), f"lab_cls_step{snapshot.step}", key=key)
    st.caption(tr("lab.cls_caption"))


def curve_points(snapshots) -> list[dict]:
    return [{"step": s.step, "exact_match": s.exact_match, "alignment": s.alignment} for s in snapshots]


def replay(snapshots, history: list[tuple[int, float]], task: str, key: str, source: str) -> None:
    """Step slider + Play over the snapshots; the curves mark the shown one. `source` names the run
    (job id, or saved run + file time) for the shared figure cache."""
    if not snapshots:
        st.info(tr("lab.no_snapshot"))
        return
    st.subheader(tr("lab.replay"))
    st.caption(tr("lab.replay_help"))
    steps = [s.step for s in snapshots]
    slider_key, play_key = f"{key}_step", f"{key}_play"
    if st.session_state.get(slider_key) not in steps:
        st.session_state[slider_key] = steps[-1]
    playing = st.toggle(tr("lab.play"), key=play_key, help=tr("lab.replay_help"))
    if playing and st.session_state[slider_key] == steps[-1]:
        st.session_state[slider_key] = steps[0]  # Play from the start

    @st.fragment(run_every=PLAY_S if playing else None)
    def frame() -> None:
        if st.session_state.get(play_key) and f"{key}_advanced" in st.session_state:
            index = steps.index(st.session_state[slider_key])
            if index + 1 < len(steps):
                st.session_state[slider_key] = steps[index + 1]
            else:
                st.session_state[play_key] = False
                st.session_state.pop(f"{key}_advanced", None)
                st.rerun(scope="app")
        st.session_state[f"{key}_advanced"] = True
        step = st.select_slider(tr("lab.step_slider"), options=steps, key=slider_key)
        snapshot = snapshots[steps.index(step)]
        chart(lab_figs.curves_figure(history, curve_points(snapshots), lang=lang(), marker_step=step,
                                     reverse_task=lab_task(task).anti_diagonal, classifier=task in CLASSIFIER_TASKS),
              "lab_curves", key=f"{key}_curves")
        st.text(t("lab.says_at", lang(), step=step, output=shown_output(snapshot, task)))
        show_cls_rows(snapshot, task, key=f"{key}_cls")
        kind, layer, head = attention_pickers(snapshot, f"{key}_pick")
        show_attention(snapshot, kind, layer, head, key=f"{key}_attention", source=source)

    if not playing:
        st.session_state.pop(f"{key}_advanced", None)
    frame()


# ------------------------------------------------------------------------------------------------
# A job: live while it runs, replay when it is done

def phase_line(status: dict, manager, job) -> bool:
    """What the run is doing before and after its steps, with a running clock; True while it is training."""
    now = time.time()
    if status["state"] == lab_jobs.QUEUED:
        position = manager.position(job)
        clock = lab_figs.format_duration(now - status["created"])
        if position > 1:
            st.info(tr("lab.phase.waiting_queue", position=position, clock=clock), icon=":material/hourglass_top:")
        else:
            st.info(tr("lab.phase.waiting", clock=clock), icon=":material/hourglass_top:")
        return False
    clock = lab_figs.format_duration(now - status["phase_since"])
    if status["phase"] in ("", STARTING) and status["step"] == 0:
        if status["worker"] in ("", "local"):
            st.info(tr("lab.phase.starting_local", clock=clock), icon=":material/hourglass_top:")
        else:
            st.info(tr("lab.phase.starting", worker=status["worker"], clock=clock), icon=":material/hourglass_top:")
        return False
    if status["phase"] == EVALUATING:
        st.info(tr("lab.phase.evaluating", step=status["step"], clock=clock), icon=":material/fact_check:")
    return True


def show_live(job: lab_jobs.Job, manager, session: str) -> None:
    """Polls the shared job every POLL_S seconds; a full rerun when it ends."""

    @st.fragment(run_every=POLL_S)
    def live() -> None:
        try:
            manager.watch(job.id, session)
            status = job.status()
        except StoreUnavailable as exc:
            st.error(tr("lab.unavailable", reason=str(exc)))
            return
        if status["state"] not in lab_jobs.ACTIVE:
            st.rerun(scope="app")
        if st.session_state.get("_lab_stopping") == job.id:
            st.info(tr("lab.stopping"))
        recipe = status["recipe"]
        if not phase_line(status, manager, job):
            return
        planned = planned_steps(recipe)
        seconds = min(status["seconds"], recipe.budget_s)  # the last step may end a moment after the budget
        fraction = lab_figs.progress_fraction(status["step"], seconds, recipe.budget_s, planned)
        remaining = lab_figs.remaining_seconds(status["step"], seconds, recipe.budget_s, planned)
        st.progress(fraction, text=tr("lab.progress", step=status["step"], steps=planned,
                                      elapsed=lab_figs.format_duration(seconds),
                                      budget=lab_figs.format_duration(recipe.budget_s),
                                      remaining=lab_figs.format_duration(remaining), rate=status["steps_per_s"]))
        st.caption(tr("lab.watchers", n=len(job.viewers())))
        snapshots = status["snapshots"]
        latest = snapshots[-1] if snapshots else None
        # Redrawn when a snapshot arrives (at least every few seconds of training), built once for every session
        source = f"{job.id}@{getattr(job, 'run', '')}"  # a restarted recipe's new run draws afresh
        chart(live_curves(source, latest.step if latest else 0, lang(), status), "lab_curves", key="lab_live_curves")
        if latest is None:
            return
        st.text(t("lab.now_says", lang(), step=latest.step,
                  output=shown_output(latest, recipe.task)))  # plain text: no Markdown escaping
        show_cls_rows(latest, recipe.task, key="lab_live_cls")
        kind, layer, head = attention_pickers(latest, "lab_live_pick")
        show_attention(latest, kind, layer, head, key="lab_live_attention", source=source)

    live()


def goal_note(task: str, metrics: dict, steps: int, planned: int) -> None:
    """Say so when a run ended short of its task's goal (GOALS), and why: the clock or the size."""
    if not metrics or task not in GOALS or meets_goal(task, metrics["exact_match"], metrics["lab_alignment"]):
        return
    exact, align = GOALS[task]
    key = "lab.short_of_goal_time" if steps < planned else "lab.short_of_goal_steps"
    suffix = "_classifier" if task in CLASSIFIER_TASKS else ""
    st.warning(tr(key + suffix, exact=exact, align=align, steps=steps, planned=planned))


def done_line(task: str, metrics: dict, steps: int, seconds: float) -> None:
    key = "lab.done_classifier" if task in CLASSIFIER_TASKS else "lab.done"
    st.success(tr(key, steps=steps, seconds=seconds, n=metrics["n"], exact=metrics["exact_match"],
                  align=metrics["lab_alignment"]))


def failure_line(status: dict) -> None:
    if status["error_code"] == "worker_lost":
        from transformer_core.training.queue import HEARTBEAT_TTL_S

        st.error(tr("lab.worker_lost", worker=status["worker"], seconds=HEARTBEAT_TTL_S))
    else:
        st.error(tr("lab.failed", reason=status["error"]))


def show_stopped(status: dict) -> None:
    """One message: where it stopped; the scores of what it learned so far as a caption; where it is kept."""
    recipe, metrics = status["recipe"], status["metrics"]
    st.warning(tr("lab.stopped_at", step=status["step"], seconds=status["seconds"], planned=planned_steps(recipe)))
    if metrics:
        key = "lab.stopped_scores_classifier" if recipe.task in CLASSIFIER_TASKS else "lab.stopped_scores"
        st.caption(tr(key, n=metrics["n"], exact=metrics["exact_match"], align=metrics["lab_alignment"]))
    if status["save_error"]:
        st.error(tr("lab.save_failed", reason=status["save_error"]))
    elif status["model_dir"] is not None:
        offer_stopped_model(status)


def offer_stopped_model(status: dict) -> None:
    """A stopped run's model stays in the lab's own list; its starter may put it in everyone's model picker."""
    name = Path(status["model_dir"]).name
    published = lab_models_dir() / name
    if published.is_dir():
        st.info(tr("lab.published", name=name))
        return
    st.caption(tr("lab.saved_unfinished", name=name))
    if "_lab_publish_error" in st.session_state:
        st.error(tr("lab.save_failed", reason=st.session_state.pop("_lab_publish_error")))
    if status["owner"] == session_id():  # a callback: it runs once, before the script (see Start)
        st.button(tr("lab.publish"), key="lab_publish", icon=":material/publish:", help=tr("lab.publish_help"),
                  on_click=publish_clicked, args=(lab_models_dir() / UNFINISHED_DIR / name,))


def publish_clicked(folder: Path) -> None:
    try:
        publish_unfinished(folder)
    except (OSError, ValueError) as exc:
        st.session_state["_lab_publish_error"] = f"{type(exc).__name__}: {exc}"


def show_finished(job: lab_jobs.Job) -> None:
    status = job.status()
    recipe = status["recipe"]
    if st.session_state.get("_lab_stopping") == job.id:
        del st.session_state["_lab_stopping"]
    if status["device_notice"]:
        st.warning(tr(f"msg.{status['device_notice']}"))
    points = [(s, v) for s, v in status["history"]]
    if status["state"] == lab_jobs.FAILED:
        failure_line(status)
    elif status["state"] == lab_jobs.CANCELLED:
        show_stopped(status)
        replay(status["snapshots"], points, recipe.task, key=f"lab_replay_{job.id}", source=job.id)
        return
    metrics = status["metrics"]
    if metrics:
        done_line(recipe.task, metrics, status["step"], status["seconds"])
        if recipe.task in CLASSIFIER_TASKS:
            st.caption(tr("lab.metrics_note_classifier", n=metrics["n"]))
        else:
            st.caption(tr("lab.metrics_note", n=metrics["n"],
                          extra=tr("lab.anti_diagonal_note") if lab_task(recipe.task).anti_diagonal else ""))
        if status["state"] == lab_jobs.DONE:
            goal_note(recipe.task, metrics, status["step"], planned_steps(recipe))
    if status["save_error"]:
        st.error(tr("lab.save_failed", reason=status["save_error"]))
    elif status["model_dir"] is not None:
        name = Path(status["model_dir"]).name
        st.info(tr("lab.saved", name=name))
        st.page_link("pages/overview.py", label=tr("lab.open_model"), icon=":material/open_in_new:",
                     query_params={"model": name})
    replay(status["snapshots"], points, recipe.task, key=f"lab_replay_{job.id}", source=job.id)


def show_saved_run(name: str) -> None:
    """`/train?run=NAME`: replay a run saved in the lab models folder (by the page or the CLI)."""
    directory = lab_models_dir() / name
    if st.button(tr("lab.back"), icon=":material/arrow_back:"):
        del st.query_params["run"]
        st.rerun()
    if not RUN_NAME.match(name) or not has_snapshots(directory):
        st.error(tr("lab.run_missing", name=name, reason=str(directory)))
        return
    try:
        mtime = (directory / "snapshots.json").stat().st_mtime
        snapshots, history, info = saved_run(str(directory), mtime)
    except (OSError, ValueError, KeyError) as exc:
        st.error(tr("lab.run_missing", name=name, reason=f"{type(exc).__name__}: {exc}"))
        return
    st.subheader(tr("lab.run_title", name=name))
    task = info.get("recipe", {}).get("task", "")
    metrics = info.get("metrics") or {}
    if metrics:
        done_line(task, metrics, info.get("steps", 0), info.get("seconds", 0.0))
    points = [(row["step"], row["loss"]) for row in history]
    replay(snapshots, points, task, key=f"lab_saved_{name}", source=f"{name}@{mtime}")


# ------------------------------------------------------------------------------------------------
# The recipe form

def seed_recipe_from_url() -> None:
    """On a session's first visit, ?task=&preset=&budget=&seed= preset the form (unknown values ignored)."""
    if "_lab_url_read" in st.session_state:
        return
    st.session_state["_lab_url_read"] = True
    params = st.query_params
    if params.get("task") in LAB_TASKS:
        st.session_state["lab_task"] = params["task"]
    if params.get("preset") in PRESETS:
        st.session_state["lab_preset"] = params["preset"]
    budget = str(params.get("budget", ""))
    if budget.isdigit() and int(budget) in BUDGETS:
        st.session_state["lab_budget"] = int(budget)
    seed = str(params.get("seed", ""))
    if seed.isdigit():
        st.session_state["lab_seed"] = min(int(seed), 9999)


def probe_note(task: str, text: str, problem: dict | None) -> None:
    """Which sentence the run watches, and when it is not the sidebar's, why (the words outside the vocabulary)."""
    default = DEFAULT_PROBES[task]
    if problem is None:
        st.caption(tr("lab.probe_user", text=text))
    elif problem["reason"] == "empty":
        st.caption(tr("lab.probe_empty", default=default))
    elif problem["reason"] == "unknown":
        st.info(tr("lab.probe_unknown", text=text, words=", ".join(problem["words"]), default=default))
    elif problem["reason"] == "letters":
        st.info(tr("lab.probe_letters", text=text, chars=" ".join(problem["chars"]), default=default))
    else:
        st.info(tr("lab.probe_too_long", text=text, n=problem["n"], limit=problem["limit"], default=default))


def recipe_form(manager: lab_jobs.JobManager, session: str) -> LabRecipe:
    seed_recipe_from_url()
    code = lang()
    left, right = st.columns([2, 3])
    with left:
        task = st.selectbox(tr("lab.task"), list(LAB_TASKS), key="lab_task", help=tr("lab.task_help"),
                            format_func=lambda k: t(f"lab.task.{k}", code))
        st.session_state.setdefault("lab_preset", "class")
        st.session_state.setdefault("lab_budget", DEFAULT_BUDGET_S)
        st.session_state.setdefault("lab_seed", 0)
        preset = st.segmented_control(tr("lab.preset"), list(PRESETS), key="lab_preset",
                                      required=True, format_func=lambda k: t(f"lab.preset.{k}", code)) or "class"
        budget = st.select_slider(tr("lab.budget"), BUDGETS, key="lab_budget",
                                  help=tr("lab.budget_help", steps=planned_steps(LabRecipe(
                                      task=task, preset=preset, max_steps=max_steps_param()))))
        seed = int(st.number_input(tr("lab.seed"), min_value=0, max_value=9999, step=1, key="lab_seed",
                                   help=tr("lab.seed_help")))
    tokenizer = lab_tokenizer(task)
    rows = []
    for name in PRESETS:
        config = lab_plan(LabRecipe(task=task, preset=name), tokenizer).config
        rows.append({"preset": name, "d_model": config.d_model, "heads": config.n_heads,
                     "layers": config.n_encoder_layers, "decoder_layers": config.n_decoder_layers,
                     "d_ff": config.d_ff, "params": count_parameters(config)})
    text = settings().text.strip()
    fits = fits_task(task, text, tokenizer)
    problem = None if fits else probe_problem(task, text, tokenizer)
    # the default probe typed in the sidebar is the user's sentence too; the recipe keeps '' (one shared job)
    probe = text if fits and text != DEFAULT_PROBES[task] else ""
    with right:
        st.dataframe(lab_figs.preset_table(rows, lang=code), hide_index=True, width="stretch")
        if lab_task(task).grammar:
            st.caption(tr("lab.grammar_core" if has_core_grammar() else "lab.grammar_full"))
        probe_note(task, text, problem)
        if manager.kind == "queue":
            st.caption(tr("lab.where.queue"))
        else:
            st.caption(tr("lab.device_note", device=settings().device))
    return LabRecipe(task=task, preset=preset, budget_s=int(budget), seed=seed, device=settings().device,
                     max_steps=max_steps_param(), probe=probe)


def finished_list(manager: lab_jobs.JobManager) -> None:
    done = manager.finished()
    if not done:
        return
    with st.expander(tr("lab.finished_jobs", n=len(done))):
        for job in done:
            status = job.status()
            recipe = status["recipe"]
            exact = status["metrics"].get("exact_match")
            state = tr(f"lab.state.{status['state']}")
            line = (f"{recipe.task} · {recipe.preset} · {recipe.budget_s} s · seed {recipe.seed} — "
                    f"{state} · {status['step']} {tr('lab.col.steps')}"
                    + (f" · {tr('fig.lab.accuracy' if recipe.task in CLASSIFIER_TASKS else 'lab.col.exact')} "
                       f"{exact:.1%}" if exact is not None else ""))
            st.text(line)
            if status["model_dir"] is not None:
                folder = Path(status["model_dir"])
                run = f"{UNFINISHED_DIR}/{folder.name}" if folder.parent.name == UNFINISHED_DIR else folder.name
                st.page_link("pages/train.py", label=tr("lab.col.replay"), icon=":material/replay:",
                             query_params={"run": run})


# ------------------------------------------------------------------------------------------------

def lab_unavailable(manager, reason: str) -> None:
    """The queue (Redis) cannot be reached: say so, and ask again every few seconds; the page goes on when it is
    back (no restart of the app)."""
    st.error(tr("lab.unavailable", reason=reason), icon=":material/cloud_off:")

    @st.fragment(run_every=UNAVAILABLE_POLL_S)
    def wait_for_queue() -> None:
        if manager.available():
            st.rerun(scope="app")

    wait_for_queue()


def lab_controls(manager, session: str) -> None:
    """The recipe form, Start and Stop, the run (live or finished), the lab's list of runs."""
    recipe = recipe_form(manager, session)
    start_col, stop_col, _ = st.columns([1, 1, 4])
    # The clicks are noted by callbacks (they run once, before the script) and acted on below: a rerun of
    # the frame (ensure_frame) would otherwise lose a button's one-run True.
    start_col.button(tr("lab.start"), type="primary", icon=":material/play_arrow:", key="lab_start",
                     on_click=st.session_state.update, kwargs={"_lab_start_clicked": True})
    if st.session_state.pop("_lab_start_clicked", False):
        try:
            st.session_state["_lab_job"] = manager.submit(recipe, session).id
            st.session_state.pop("_lab_stopping", None)
        except lab_jobs.QueueFull:
            st.warning(tr("lab.queue_full", n=manager.max_queued))
    job = manager.get(st.session_state["_lab_job"]) if "_lab_job" in st.session_state else None
    active = job is not None and job.state in lab_jobs.ACTIVE
    stop_col.button(tr("lab.stop"), icon=":material/stop:", key="lab_stop", disabled=not active,
                    on_click=st.session_state.update, kwargs={"_lab_stop_clicked": True})
    if st.session_state.pop("_lab_stop_clicked", False) and active:
        outcome = manager.stop(job.id, session)
        if outcome == "left":
            st.session_state.pop("_lab_job", None)
            st.info(tr("lab.stop_left"))
            job = None
        elif outcome == "cancelled":
            st.session_state["_lab_stopping"] = job.id  # one message now ("stopping"), one when it has stopped
            job = manager.get(job.id)
    if job is not None:
        if job.state in lab_jobs.ACTIVE:
            show_live(job, manager, session)
        else:
            show_finished(job)
    finished_list(manager)


page_header("lab.title", "lab.intro")
manager = lab_manager()
session = session_id()
run_name = st.query_params.get("run")
if run_name:
    show_saved_run(run_name)
else:
    try:
        lab_controls(manager, session)
    except StoreUnavailable as exc:
        lab_unavailable(manager, str(exc))
