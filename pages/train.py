"""Training lab (/train): train the paper's model live and watch its attention learn the alignment.

Widgets and layout only (the rest: explorer/lab_service.py). The training runs in the lab's background workers:
this server's own worker process (transformer_core.training.jobs.JobManager), or, with
TRANSFORMER_EXPLORER_REDIS_URL set, RQ workers anywhere (transformer_core.training.queue.manager.RedisJobManager); one
manager per server in st.cache_resource, the same methods either way. A job per recipe, shared by every session
that starts the same recipe; this page polls it with st.fragment(run_every=...) and never trains in the script
thread. From the first second after Start it says what is happening (waiting for a worker · starting · step N of M
· scoring and saving) with a running clock; Redis going away shows "the lab is unavailable" and the page picks up
again when it is back. After the run, a step slider (and Play) replays the snapshots; `/train?run=NAME` replays a
run saved in the lab models folder.
A link can preset the recipe (?task=reverse&preset=tiny&budget=30&seed=1, read on the first visit);
the query parameter `max_steps` (optional) ends runs after that many steps (tests, quick demos).
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import streamlit as st

from explorer import lab_service
from explorer.figures import lab as lab_figs
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.lab_service import BUDGETS, MAX_SEED, curve_points, task_of
from explorer.state import UrlState, choice, integer, lang, settings, text, tr
from explorer.widgets import chart, page_header
from transformer_core.io.loading import lab_models_dir
from transformer_core.store import StoreUnavailable
from transformer_core.tasks import has_core_grammar
from transformer_core.tracing.names import ATTENTION_KINDS, AttentionKind
from transformer_core.training import jobs as lab_jobs
from transformer_core.training.classify import ending_index
from transformer_core.training.lab_run import EVALUATING, STARTING, UNFINISHED_DIR, publish_unfinished
from transformer_core.training.recipes import DEFAULT_BUDGET_S, LabRecipe, planned_steps
from transformer_core.training.snapshots import load_snapshots

ensure_frame()

POLL_S = 1.0  # how often a watching page asks the job for news
PLAY_S = 0.8  # replay speed: one snapshot per this many seconds
UNAVAILABLE_POLL_S = 3.0  # how often a page asks whether the queue (Redis) is back
IDLE_POLL_S = 2.0  # how often a page without a run in progress looks for one of its recipe (started anywhere)
# The page's URL: a link can preset the recipe (read on the first visit); max_steps ends runs early (tests,
# demos); run replays a saved run.
URL = UrlState("lab", choice("task", lab_service.lab_task_names(), "ko-en", state_key="lab_task"),
               choice("preset", lab_service.preset_names(), "class", state_key="lab_preset"),
               choice("budget", BUDGETS, DEFAULT_BUDGET_S, parse=int, state_key="lab_budget"),
               integer("seed", 0, low=0, high=MAX_SEED, state_key="lab_seed"),
               integer("max_steps", 0, low=0), text("run", "", max_chars=200))


@st.cache_resource(show_spinner=False)
def lab_manager():
    """ONE job manager per server: every session sees the same jobs (lab_service.make_manager says which)."""
    return lab_service.make_manager()


@st.cache_resource(show_spinner=False)
def lab_tokenizer(task: str):
    return lab_service.lab_tokenizer(task)


@st.cache_resource(show_spinner=False, max_entries=4)
def saved_run(path: str, mtime: float):
    """A saved run's snapshots (cached per file version)."""
    return load_snapshots(path)


def session_id() -> str:
    if "_lab_session" not in st.session_state:
        st.session_state["_lab_session"] = uuid.uuid4().hex
    return st.session_state["_lab_session"]


def max_steps_param() -> int:
    return URL.get("max_steps")


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
    task = task_of(_status["recipe"].task)
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
    if task_of(task).classifier and snapshot.output_text:
        return t(f"lab.level.{snapshot.output_text}", lang())
    return snapshot.output_text or t("lab.empty_output", lang())


def show_cls_rows(snapshot, task: str, key: str) -> None:
    """The classifier's [CLS] row per layer, the verb ending boxed (nothing for the other tasks)."""
    if not task_of(task).classifier:
        return
    chart(lab_figs.cls_rows_figure(snapshot.attention[AttentionKind.ENCODER_SELF], snapshot.src_tokens,
                                   ending=ending_index(snapshot.src_tokens), step=snapshot.step, lang=lang()),
          f"lab_cls_step{snapshot.step}", key=key)
    st.caption(tr("lab.cls_caption"))


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
                                     reverse_task=task_of(task).anti_diagonal, classifier=task_of(task).classifier),
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
        now = lab_service.live_progress(status)
        fraction = lab_figs.progress_fraction(now.step, now.seconds, now.budget_s, now.planned)
        remaining = lab_figs.remaining_seconds(now.step, now.seconds, now.budget_s, now.planned)
        st.progress(fraction, text=tr("lab.progress", step=now.step, steps=now.planned,
                                      elapsed=lab_figs.format_duration(now.seconds),
                                      budget=lab_figs.format_duration(now.budget_s),
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
    """Say so when a run ended short of its task's goal, and why: the clock or the size."""
    key = lab_service.goal_shortfall(task, metrics, steps, planned)
    if key is not None:
        exact, align = task_of(task).goals
        st.warning(tr(key, exact=exact, align=align, steps=steps, planned=planned))


def done_line(task: str, metrics: dict, steps: int, seconds: float) -> None:
    key = "lab.done_classifier" if task_of(task).classifier else "lab.done"
    st.success(tr(key, steps=steps, seconds=seconds, n=metrics["n"], exact=metrics["exact_match"],
                  align=metrics["lab_alignment"]))


def failure_line(status: dict) -> None:
    if status["error_code"] == "worker_lost":
        from transformer_core.training.queue.liveness import heartbeat_ttl_s

        st.error(tr("lab.worker_lost", worker=status["worker"], seconds=heartbeat_ttl_s()))
    else:
        st.error(tr("lab.failed", reason=status["error"]))


def show_stopped(status: dict) -> None:
    """One message: where it stopped; the scores of what it learned so far as a caption; where it is kept."""
    recipe, metrics = status["recipe"], status["metrics"]
    st.warning(tr("lab.stopped_at", step=status["step"], seconds=status["seconds"], planned=planned_steps(recipe)))
    if metrics:
        key = "lab.stopped_scores_classifier" if task_of(recipe.task).classifier else "lab.stopped_scores"
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
        if task_of(recipe.task).classifier:
            st.caption(tr("lab.metrics_note_classifier", n=metrics["n"]))
        else:
            st.caption(tr("lab.metrics_note", n=metrics["n"],
                          extra=tr("lab.anti_diagonal_note") if task_of(recipe.task).anti_diagonal else ""))
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
    if st.button(tr("lab.back"), icon=":material/arrow_back:"):
        URL.write({"run": ""})
        st.rerun()
    directory = lab_service.saved_run_dir(name)
    if directory is None:
        st.error(tr("lab.run_missing", name=name, reason=str(lab_models_dir() / name)))
        return
    try:
        run = lab_service.read_saved_run(
            name, directory, saved_run(str(directory), lab_service.snapshots_mtime(directory)))
    except (OSError, ValueError, KeyError) as exc:
        st.error(tr("lab.run_missing", name=name, reason=f"{type(exc).__name__}: {exc}"))
        return
    st.subheader(tr("lab.run_title", name=name))
    if run.metrics:
        done_line(run.task, run.metrics, run.steps, run.seconds)
    replay(run.snapshots, run.history, run.task, key=f"lab_saved_{name}", source=run.source)


# ------------------------------------------------------------------------------------------------
# The recipe form

def probe_note(choice: lab_service.ProbeChoice) -> None:
    """Which sentence the run watches, and when it is not the sidebar's, why (the words outside the vocabulary)."""
    text, problem, default = choice.text, choice.problem, choice.default
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
    URL.seed()  # ?task=&preset=&budget=&seed= preset the form on a session's first visit (odd values ignored)
    code = lang()
    left, right = st.columns([2, 3])
    with left:
        task = st.selectbox(tr("lab.task"), lab_service.lab_task_names(), key="lab_task", help=tr("lab.task_help"),
                            format_func=lambda k: t(f"lab.task.{k}", code))
        st.session_state.setdefault("lab_preset", "class")
        st.session_state.setdefault("lab_budget", DEFAULT_BUDGET_S)
        st.session_state.setdefault("lab_seed", 0)
        preset = st.segmented_control(tr("lab.preset"), lab_service.preset_names(), key="lab_preset",
                                      required=True, format_func=lambda k: t(f"lab.preset.{k}", code)) or "class"
        budget = st.select_slider(tr("lab.budget"), BUDGETS, key="lab_budget",
                                  help=tr("lab.budget_help", steps=planned_steps(LabRecipe(
                                      task=task, preset=preset, max_steps=max_steps_param()))))
        seed = int(st.number_input(tr("lab.seed"), min_value=0, max_value=MAX_SEED, step=1, key="lab_seed",
                                   help=tr("lab.seed_help")))
    tokenizer = lab_tokenizer(task)
    probe = lab_service.probe_choice(task, settings().text, tokenizer)
    with right:
        st.dataframe(lab_figs.preset_table(lab_service.preset_rows(task, tokenizer), lang=code), hide_index=True,
                     width="stretch")
        if task_of(task).grammar:
            st.caption(tr("lab.grammar_core" if has_core_grammar() else "lab.grammar_full"))
        probe_note(probe)
        if manager.kind == "queue":
            st.caption(tr("lab.where.queue"))
        else:
            st.caption(tr("lab.device_note", device=settings().device))
    return LabRecipe(task=task, preset=preset, budget_s=int(budget), seed=seed, device=settings().device,
                     max_steps=max_steps_param(), probe=probe.probe)


def finished_list(manager: lab_jobs.JobManager) -> None:
    done = lab_service.finished_runs(manager)
    if not done:
        return
    with st.expander(tr("lab.finished_jobs", n=len(done))):
        for run in done:
            state = tr(f"lab.state.{run.state}")
            line = (f"{run.task} · {run.preset} · {run.budget_s} s · seed {run.seed} — "
                    f"{state} · {run.step} {tr('lab.col.steps')}"
                    + (f" · {tr('fig.lab.accuracy' if run.classifier else 'lab.col.exact')} "
                       f"{run.exact:.1%}" if run.exact is not None else ""))
            st.text(line)
            if run.run:
                st.page_link("pages/train.py", label=tr("lab.col.replay"), icon=":material/replay:",
                             query_params={"run": run.run})


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
    # Every session on every server sees the form's recipe's run without pressing Start (lab_service.shown_job)
    job = shown_job(manager, recipe)
    active = job is not None and job.state in lab_jobs.ACTIVE
    stop_col.button(tr("lab.stop"), icon=":material/stop:", key="lab_stop", disabled=not active,
                    on_click=st.session_state.update, kwargs={"_lab_stop_clicked": True})
    if st.session_state.pop("_lab_stop_clicked", False) and active:
        outcome = manager.stop(job.id, session)
        if outcome == "left":
            st.session_state.pop("_lab_job", None)
            st.session_state["_lab_left"] = lab_service.run_key(job)  # not shown again here; a new run is
            st.info(tr("lab.stop_left"))
            job = None
        elif outcome == "cancelled":
            st.session_state["_lab_stopping"] = job.id  # one message now ("stopping"), one when it has stopped
            job = manager.get(job.id)
    if job is not None and job.id != st.session_state.get("_lab_job"):  # someone else's run of this recipe
        st.caption(tr("lab.shared_run" if job.state in lab_jobs.ACTIVE else "lab.shared_run_ended"))
    if job is not None and job.state in lab_jobs.ACTIVE:
        show_live(job, manager, session)
    else:
        if job is not None:
            show_finished(job)
        watch_for_runs(manager, recipe, lab_service.shown_signature(job))
    finished_list(manager)


def shown_job(manager, recipe: LabRecipe):
    return lab_service.shown_job(manager, recipe, st.session_state.get("_lab_job"), st.session_state.get("_lab_left"))


@st.fragment(run_every=IDLE_POLL_S)
def watch_for_runs(manager, recipe: LabRecipe, shown: tuple[str, str] | None) -> None:
    """While the page shows no run in progress: a run of the form's recipe started anywhere (this server or
    another sharing the queue), or a new run of it, brings the page up to date. One small read every IDLE_POLL_S."""
    try:
        now = lab_service.shown_signature(shown_job(manager, recipe))
    except StoreUnavailable:
        return  # the next full run says so
    if now != shown:
        st.rerun(scope="app")


page_header("lab.title", "lab.intro")
manager = lab_manager()
session = session_id()
run_name = URL.get("run")
if run_name:
    show_saved_run(run_name)
else:
    try:
        lab_controls(manager, session)
    except StoreUnavailable as exc:
        lab_unavailable(manager, str(exc))
