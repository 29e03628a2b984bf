"""The live class on /lesson, the Streamlit side: the one LiveClasses of this server process, the teacher's
and the phone's session state, the polling fragments and the class's panels. The rules live in
explorer/live_class.py (pure, tested against both stores); pages/lesson.py only calls these.

Session state (never in the URL):
  _class_teacher   (code, secret) of the class this session started: the secret alone moves the class
  _class_follow    {"code", "following", "version" (the class's version this page last rendered), "asked"
                   (version, time) of the poll's last rerun request} of the class this phone joined
  _class_me        this session's random follower id (no name, nothing personal)
  _class_student   set by this session's first try to join a class (a scanned link or a typed code): a student's
                   phone, which never offers to start a class of its own, even after it left or the class ended
"""

from __future__ import annotations

import contextlib
import html
import time

import streamlit as st

from explorer import live_class as lc
from explorer.run_timing import timed
from explorer.state import UrlState, settings, text, tr
from transformer_core.store import StoreFull, StoreUnavailable, store_from_env

TEACHER, FOLLOW, ME, NOTICE = "_class_teacher", "_class_follow", "_class_me", "_class_notice"
ENDED = "_class_ended"  # why this phone stopped following (class.error.ended / .unknown): shown until it joins again
QUESTION = "_class_question"  # (qkey, widget key, options, multi) of the question a following phone shows now
JOINED_CODE = "_class_joined_from_url"
STUDENT = "_class_student"
STEP_FRAGMENT = "lesson_class_step"  # the key of /lesson's fragment that shows a following phone's step
POLL_S = 1.0  # a phone reads the class's version this often (one small read); p95 follow target: 2 s
HEARTBEAT_S = 10.0  # a following phone says it is still there this often
RERUN_RETRY_S = 3.0  # a poll's rerun that did not come (the page did not render the new version) is asked again
TEACHER_POLL_S = 1.0  # the teacher's counts (students following, answers)
STALLED_POLL_S = 10.0  # a following page whose poll has not run this long asks for a page run itself (below)
# The poll is a fragment that Streamlit's page re-runs on a timer. In benchmarks/live_class.py (12 phones, 20 step
# changes) one phone in two of three runs kept the old step for good while the others followed: its poll had
# stopped running. This script, on a following phone only, watches the beat the poll writes each run; when it
# has not changed for STALLED_POLL_S, and no page run is under way (Streamlit's running icon, or elements still
# marked stale), it presses the hidden resync button (a page run, which starts the poll again) and counts it in
# window.__classResyncs. Each press without a beat after it doubles the wait (up to 80 s): on an overloaded
# machine a press would cancel the page run in progress, and pressing every few seconds kept every run from
# finishing (30 phones on one 2-core machine with the browsers: 807 presses at 5 s without the checks).
WATCHDOG_JS = """<span class="class-watchdog" hidden></span><script>
(() => {
  if (window.__classWatchdog) return;
  window.__classWatchdog = true; window.__classResyncs = window.__classResyncs || 0;
  let last = null, since = Date.now(), wait = STALLED_MS;
  setInterval(() => {
    const beat = document.querySelector('.class-poll-beat');
    const button = document.querySelector('.st-key-class_resync button');
    if (!beat || !button) { last = null; since = Date.now(); wait = STALLED_MS; return; }
    const now = beat.getAttribute('data-beat');
    if (now !== last) { last = now; since = Date.now(); wait = STALLED_MS; return; }
    const running = document.querySelector('[data-testid=stStatusWidgetRunningIcon], [data-stale=true]');
    if (running) { since = Date.now(); return; }
    if (Date.now() - since > wait) {
      window.__classResyncs += 1; since = Date.now(); wait = Math.min(wait * 2, 8 * STALLED_MS); button.click();
    }
  }, 500);
})();
</script>""".replace("STALLED_MS", str(int(STALLED_POLL_S * 1000)))
ERRORS = (lc.ClassError, StoreUnavailable, StoreFull)
URL = UrlState("class", text("class", max_chars=32))  # /lesson?class=CODE (as typed: join() normalises it)


@st.cache_resource(show_spinner=False)
def live_classes() -> lc.LiveClasses:
    """One per server process: the in-process store by default, Redis when TRANSFORMER_EXPLORER_REDIS_URL is
    set (then every server sharing that Redis serves the same classes)."""
    return lc.LiveClasses(store_from_env())


def me() -> str:
    if ME not in st.session_state:
        st.session_state[ME] = lc.new_follower_id()
    return st.session_state[ME]


def error_text(error: Exception) -> str:
    if isinstance(error, StoreUnavailable):
        return tr("class.unavailable")
    if isinstance(error, StoreFull):
        return tr("class.error.full")
    return tr(f"class.error.{getattr(error, 'reason', 'error')}")


def teacher() -> tuple[str, str] | None:
    return st.session_state.get(TEACHER)


def following() -> dict | None:
    """The class this phone follows now (None: none, or going at its own pace)."""
    follow = st.session_state.get(FOLLOW)
    return follow if follow and follow.get("following") else None


def notice() -> None:
    """A message left by a callback or the URL join (unknown code, class ended, ...)."""
    message = st.session_state.pop(NOTICE, None)
    if message:
        st.warning(message, icon=":material/info:")


# ------------------------------------------------------------------------------------------------
# The teacher

def start_class(step: int) -> None:
    """Button callback: open a class on this session's sentence, model, language and step."""
    current = settings()
    try:
        code, secret = live_classes().start(step, current.text, current.model, st.session_state.get("lang") or "")
    except ERRORS as error:
        st.session_state[NOTICE] = error_text(error)
        return
    st.session_state[TEACHER] = (code, secret)
    st.session_state.pop(FOLLOW, None)
    st.session_state.pop(ENDED, None)


def end_class() -> None:
    owned = st.session_state.pop(TEACHER, None)
    if owned:
        with contextlib.suppress(*ERRORS):  # expired or unreachable: the class is over for this session anyway
            live_classes().end(*owned)
        st.session_state[NOTICE] = tr("class.ended_by_you")


def sync_teacher(step: int) -> None:
    """Every run of the teacher's page: the class follows this session's step, sentence and model."""
    owned = teacher()
    if not owned:
        return
    current = settings()
    try:
        live_classes().update(*owned, step=step, text=current.text, model=current.model)
    except (lc.UnknownClass, lc.ClassEnded, lc.NotTeacher):
        st.session_state.pop(TEACHER, None)
        st.session_state[NOTICE] = tr("class.expired")
    except ERRORS as error:
        st.session_state[NOTICE] = error_text(error)


def reveal_for_class(qkey: str) -> None:
    owned = teacher()
    if owned:
        try:
            live_classes().reveal(*owned, qkey)
        except ERRORS as error:
            st.session_state[NOTICE] = error_text(error)


@st.fragment(run_every=TEACHER_POLL_S)
def teacher_counts(qkey: str | None) -> None:
    """`3 students following · 2 answers`, refreshed every second without rerunning the page."""
    owned = teacher()
    if not owned:
        return
    classes = live_classes()
    try:
        parts = [tr("class.following", n=classes.followers(owned[0]))]
        if qkey:
            parts.append(tr("class.answers", n=classes.answer_count(owned[0], qkey)))
    except ERRORS as error:
        st.caption(error_text(error))
        return
    st.markdown(" · ".join(parts), help=tr("class.counts_help"))


def teacher_panel(qkey: str | None, present: bool) -> None:
    """The class code (big enough for the back row), the live counts and End class."""
    owned = teacher()
    if not owned:
        return
    with st.container(border=True, key="class_teacher_panel"):
        # the code's own size: the projector's page CSS sets every paragraph to its body size (!important), which
        # left the code at 26 px, the size of the text around it (the class walk, 2026-12-02)
        size = "2.5rem" if present else "1.3rem"
        label, suffix = tr("class.code", code="\x00").split("\x00")
        nowrap = "white-space:nowrap;" if present else ""
        code_line = (f"<p class='class-code' style='font-size:1.3rem;margin:0;{nowrap}'>{label}"
                     f"<b style='font-size:{size};line-height:1;font-family:monospace;letter-spacing:0.12em'>"
                     f"{code_html(owned[0])}</b>{suffix}</p>")
        if present:  # one row (the projector's 1080 px: two rows pushed steps 10, 12, 18 and 22 below the screen)
            code_col, left, right = st.columns([3.2, 4.3, 2.5], vertical_alignment="center")
            code_col.markdown(code_line, unsafe_allow_html=True)
        else:
            st.markdown(code_line, unsafe_allow_html=True)
            left, right = st.columns([3, 2], vertical_alignment="center")
        with left:
            teacher_counts(qkey)
        right.button(tr("class.end"), key="class_end", icon=":material/stop_circle:", on_click=end_class,
                     width="stretch")


def code_html(code: str) -> str:
    """The code as HTML (only A–Z and 2–9 ever reach here: normalise_code / new_code)."""
    return "".join(c for c in code if c in lc.CODE_ALPHABET)


def start_button(step: int) -> None:
    """Start a live class: on a screen that is no student's phone (a phone that left its class, or whose class
    ended, rejoins or joins another; one tap here would make a student the teacher of a new class)."""
    if teacher() or following() or st.session_state.get(STUDENT):
        return
    st.button(tr("class.start"), key="class_start", icon=":material/groups:", on_click=start_class, args=(step,),
              help=tr("class.start_help"))


def class_distribution(qkey: str, options: tuple[str, ...], answer: frozenset[int]) -> None:
    """After the reveal, on the teacher's page: how the class answered, beside the model's answer."""
    owned = teacher()
    if not owned:
        return
    try:
        answers = live_classes().answers(owned[0], qkey)
    except ERRORS as error:
        st.caption(error_text(error))
        return
    counts = lc.distribution(answers, len(options))
    total = len(answers)
    with st.container(key="class_distribution"):
        st.markdown(f"**{tr('class.distribution', n=total)}**")
        st.markdown(distribution_html(options, counts, total, answer), unsafe_allow_html=True)


def distribution_html(options: tuple[str, ...], counts: list[int], total: int, answer: frozenset[int]) -> str:
    """One line per option, `label ✓ · n` beside its bar: about half the height of one st.progress per option,
    so step 1 with the class's answers still fits the projector's 1080 px."""
    rows = []
    for index, label in enumerate(options):
        mark = " ✓" if index in answer else ""
        share = 100.0 * counts[index] / total if total else 0.0
        colour = "#2e7d32" if index in answer else "#78909c"
        rows.append(
            "<div style='display:flex;align-items:center;gap:0.6em;margin:0.15em 0'>"
            f"<p style='flex:0 0 auto;min-width:5.5em;margin:0'>{html.escape(label)}{mark} · {counts[index]}</p>"
            "<div style='flex:1 1 auto;height:0.7em;background:#eceff1;border-radius:0.35em'>"
            f"<div style='width:{share:.1f}%;height:100%;background:{colour};border-radius:0.35em'></div></div></div>")
    return "".join(rows)


# ------------------------------------------------------------------------------------------------
# A phone

def join(code_text: object) -> bool:
    """Join a class (a scanned link or a typed code); on failure leave a message and stay on one's own."""
    st.session_state[STUDENT] = True
    try:
        state = live_classes().join(code_text, me())
    except ERRORS as error:
        st.session_state[NOTICE] = error_text(error)
        return False
    st.session_state.pop(ENDED, None)
    st.session_state[FOLLOW] = {"code": state.code, "following": True,
                                "version": live_classes().version(state.code)}
    return True


def join_from_url() -> None:
    """`/lesson?class=CODE`: join once per code (a rerun does not join again); drop the code from the URL
    when it cannot be joined, so the ordinary lesson goes on."""
    raw = URL.read()["class"]
    if not raw:
        URL.write({"class": ""})  # an empty ?class= names no class: it leaves the URL
        return
    if teacher():
        return
    if st.session_state.get(JOINED_CODE) == raw:
        return
    st.session_state[JOINED_CODE] = raw
    if not join(raw):
        URL.write({"class": ""})


def on_join_typed() -> None:
    if join(st.session_state.get("class_code_input") or ""):
        st.session_state["class_code_input"] = ""
        apply_class_state_now()


def leave() -> None:
    """Go at one's own pace (the class goes on without this phone)."""
    follow = st.session_state.get(FOLLOW)
    if follow and follow.get("following"):
        follow["following"] = False
        with contextlib.suppress(*ERRORS):
            live_classes().leave(follow["code"], me())


def rejoin() -> None:
    follow = st.session_state.get(FOLLOW)
    if follow and join(follow["code"]):
        apply_class_state_now()


def apply_class_state_now() -> None:
    """From a callback or a fragment (before the sidebar's widgets render): take the class's sentence and
    model, so the next run shows what the teacher shows."""
    follow = following()
    if not follow:
        return
    try:
        state = live_classes().state(follow["code"])
    except ERRORS:
        return
    if state is None or state.ended:
        return
    if st.session_state.get("text") != state.text:
        st.session_state["text"] = state.text
    if state.model and st.session_state.get("model") != state.model:
        st.session_state["model"] = state.model


def class_state_for_page() -> lc.ClassState | None:
    """This run of a following phone: the class's state (its step wins), or None (the class ended or the
    phone goes its own pace); says why when the class is gone."""
    follow = following()
    if not follow:
        # Every run says it, not only the one that found the end: a phone's page reruns often (its poll), and a
        # message shown for one run was gone before a student (or the browser test, under load) could read it.
        if st.session_state.get(ENDED):
            st.info(tr(st.session_state[ENDED]), icon=":material/info:")
        return None
    classes = live_classes()
    try:  # the version first: a change between the two reads leaves it older than the state, so the poll reruns
        version = classes.version(follow["code"])
        state = classes.state(follow["code"])
    except ERRORS as error:
        st.caption(error_text(error))
        return None
    if state is None or state.ended:
        st.session_state.pop(FOLLOW, None)
        st.session_state[ENDED] = "class.error.ended" if state is not None else "class.error.unknown"
        URL.write({"class": ""})
        st.info(tr(st.session_state[ENDED]), icon=":material/info:")
        return None
    follow["version"] = version  # what this run shows; the poll reruns until a run has shown the newest
    follow.pop("asked", None)  # the rerun asked for (if any) came
    return state


@st.fragment(run_every=POLL_S)
def follow_poll() -> None:
    """A following phone: read the class's version each second; while it differs from the version the page
    last rendered, rerun the page (the new step, sentence, model, reveal or end), asking again every
    RERUN_RETRY_S if a rerun never came. A heartbeat every HEARTBEAT_S keeps the phone counted."""
    with timed("class.poll"):
        poll_class()


def poll_class() -> None:
    """The body of one poll (follow_poll)."""
    follow = following()
    if not follow:
        # This run's callbacks took the phone out of the class (its own pace): a fragment run does not redraw
        # the page, so without this the phone kept showing the class with a poll that did nothing. The page
        # run that follows no longer calls this poll, so it stops for good.
        st.rerun()
    classes = live_classes()
    try:
        version = classes.version(follow["code"])
        now = time.monotonic()
        if now - follow.get("beat", 0.0) >= HEARTBEAT_S and version is not None:
            classes.heartbeat(follow["code"], me())
            follow["beat"] = now
    except ERRORS:
        return  # a passing Redis hiccup: try again next second
    finally:
        st.html(f"<span class='class-poll-beat' data-beat='{time.monotonic():.3f}' hidden></span>")  # watchdog
    if lc.poll_should_rerun(version, follow.get("version"), follow.get("asked"), now, RERUN_RETRY_S):
        retry = (follow.get("asked") or (None,))[0] == version  # the last ask for this version brought no run
        follow["asked"] = (version, now)
        if not retry and same_sentence_as_class(follow) and rerun_fragment(STEP_FRAGMENT):
            return  # only the step reruns: a page run costs the server about twice as much per phone
        apply_class_state_now()
        st.rerun()
    if unsent_answer():
        st.rerun()  # the page shows the answer as sent


def same_sentence_as_class(follow: dict) -> bool:
    """Whether the class (open) shows this session's sentence and model: then a change is one of step or reveals,
    which the page's class_step fragment shows alone."""
    try:
        state = live_classes().state(follow["code"])
    except ERRORS:
        return False
    current = settings()
    return state is not None and not state.ended and (state.text, state.model) == (current.text, current.model)


def rerun_fragment(key: str) -> bool:
    """From a fragment's body: ask Streamlit to rerun only the fragment named `key` (`st.fragment(key=...)`) next,
    not the whole app; True if asked (the caller then ends its run), False if it could not be (no such fragment
    registered, another Streamlit: the caller reruns the whole app). Streamlit 1.67's st.rerun(scope=key) does this
    from a widget callback only, and refuses it in a fragment's body (it would end the run in progress: here that
    is what the poll wants); these are its steps, through Streamlit's internals."""
    try:
        from streamlit.commands.execution_control import _force_yield_point
        from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx()
        rerun = RerunData(query_string=ctx.query_string, page_script_hash=ctx.page_script_hash,
                          fragment_id_queue=ctx.fragment_storage.resolve_target(key), is_fragment_scoped_rerun=True,
                          cached_message_hashes=ctx.cached_message_hashes, context_info=ctx.context_info)
    except Exception:  # any failure here: the whole app reruns, as before
        return False
    if not ctx.script_requests.request_rerun(rerun):
        return False
    _force_yield_point()  # the script runner takes the request here (or when this run ends)
    return True


def follower_bar(code: str) -> None:
    """On a phone in a class: which class, and the way out (own pace) or back in."""
    follow = st.session_state.get(FOLLOW)
    with st.container(key="class_follower_bar"):
        if follow and follow.get("following"):
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(tr("class.follow_status", code=code))
            right.button(tr("class.own_pace"), key="class_leave", on_click=leave, width="stretch")
            follow_poll()
            # hidden (page CSS): pressed by WATCHDOG_JS when the poll has stopped; the press is the page run
            st.button(tr("class.resync"), key="class_resync", on_click=apply_class_state_now)
            st.html(WATCHDOG_JS, unsafe_allow_javascript=True)
        elif follow:
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(tr("class.own_pace_status", code=follow["code"]))
            right.button(tr("class.rejoin"), key="class_rejoin", on_click=rejoin, type="primary", width="stretch")


def join_failed() -> bool:
    """A student's phone in no class: its code was unknown (or refused), or its class ended."""
    return bool(st.session_state.get(STUDENT)) and not teacher() and not st.session_state.get(FOLLOW)


def join_box(first: bool = False) -> None:
    """For a student without the QR code: type the code on the projector. At the foot of the lesson, or (`first`)
    open under the message of a join that failed: a phone that opened an unknown code was told to check it while
    the box to type it again was ~1,400 px further down, under the whole step (the class walk, 2026-12-02)."""
    if teacher() or st.session_state.get(FOLLOW) or first != join_failed():
        return
    with st.expander(tr("class.join_title"), icon=":material/groups:", expanded=first):
        st.text_input(tr("class.join_label"), key="class_code_input", max_chars=12, on_change=on_join_typed,
                      placeholder="ABC234")
        st.button(tr("class.join_button"), key="class_join", on_click=on_join_typed)


def submit_answer(qkey: str, widget: str, n_options: int, multi: bool) -> None:
    """Pills callback on a following phone: the pick is this phone's answer to the class (or withdrawn)."""
    follow = following()
    if not follow:
        return
    choice = st.session_state.get(widget)
    picked = None if choice is None or (multi and not choice) else choice
    classes = live_classes()
    try:
        if picked is None:
            classes.withdraw(follow["code"], me(), qkey)
        else:
            classes.answer(follow["code"], me(), qkey, picked, n_options, multi)
        follow.setdefault("sent", {})[qkey] = repr(picked)
    except ERRORS as error:
        follow.setdefault("sent", {})[qkey] = repr(picked)  # said once; a new pick tries again
        st.session_state[NOTICE] = error_text(error)


def answer_status(qkey: str, options: tuple[str, ...]) -> str:
    """On a following phone: the answer the CLASS holds for this phone (read back from the store, not the
    pill's look), so a student sees that a changed pick has arrived, or that none has."""
    follow = following()
    try:
        held = live_classes().my_answer(follow["code"], me(), qkey) if follow else None
    except ERRORS as error:
        return error_text(error)
    if not held:
        return tr("class.pick_and_wait")
    return tr("class.answer_sent", answer=", ".join(options[i] for i in held if 0 <= i < len(options)))


def ask(qkey: str, widget: str, n_options: int, multi: bool) -> None:
    """The page: this following phone shows this question now (the poll makes sure its pick reaches the class)."""
    st.session_state[QUESTION] = (qkey, widget, n_options, multi)


def unsent_answer() -> bool:
    """In the poll: a pick the class has not received (seen under heavy load: the tap's rerun never came, so
    its callback never ran, though the pill shows picked); send it now. True if one was sent."""
    follow, shown = following(), st.session_state.get(QUESTION)
    if not follow or not shown:
        return False
    qkey, widget, n_options, multi = shown
    if widget not in st.session_state:
        return False
    choice = st.session_state.get(widget)
    picked = None if choice is None or (multi and not choice) else choice
    if follow.get("sent", {}).get(qkey, repr(None)) == repr(picked):
        return False
    submit_answer(qkey, widget, n_options, multi)
    return True


def join_params(code: str) -> dict[str, str]:
    """What the class's QR code carries besides the address: the code, language, model and sentence."""
    current = settings()
    return {"class": code, "lang": st.session_state.get("lang") or "", "model": current.model,
            "text": current.text}
