"""Lesson (/lesson): a guided path through "Attention Is All You Need" on the sidebar's sentence, one step
per screen; predict-then-reveal questions; a projector mode (?present=1, → / ← keys) and a QR code that
opens the same sentence and step on a phone. The steps, figures and answers come from the package
explorer/figures/lesson/; this page only lays them out.

A live class (explorer/class_view.py, rules in explorer/live_class.py): the teacher starts one here; phones on
`/lesson?class=CODE` follow its step, sentence and model and answer its questions together. On a following phone
the step is a fragment (class_step) that the class's poll reruns alone when only the step or a reveal changed.

URL: `step` (1-based), `present=1` and `class` live in the query next to the sidebar's text/model/lang.
"""

import contextlib
import hashlib
from urllib.parse import unquote

import streamlit as st

from explorer import class_view, live_class
from explorer.figures import lesson
from explorer.figures.figures import plot_config
from explorer.frame import ensure_frame
from explorer.i18n import md_escape
from explorer.lesson_service import shared_qr_png, shared_step_view
from explorer.run_timing import timed
from explorer.services import current_view
from explorer.state import UrlState, flag, integer, lang, settings, tr
from explorer.widgets import chart

ensure_frame()

STEP_STATE, PRESENT_STATE, REVEALED_STATE = "_lesson_step", "_lesson_present", "_lesson_revealed"
SHOWN_STATE = "_lesson_shown_step"  # the step the last run showed (a change scrolls to the new step's title)
STEPS = lesson.lesson_steps()
URL = UrlState("lesson", integer("step", 1, low=1, high=len(STEPS), keep_default=True), flag("present"))


# ------------------------------------------------------------------------------------------------
# State: the step and projector mode, seeded once from the URL, written back on every run

def current_step() -> int:
    if STEP_STATE not in st.session_state:
        st.session_state[STEP_STATE] = URL.get("step")
    return lesson.parse_step(st.session_state[STEP_STATE], len(STEPS))


def go_to(number: int) -> None:
    was_following = class_view.following() is not None
    class_view.leave()  # a following phone's own Next/Previous: its own pace from here (the class stays)
    st.session_state[STEP_STATE] = number
    st.session_state["lesson_jump"] = number
    if was_following:
        st.rerun()  # the whole page, not only the class's step (a fragment): the follower bar says "own pace"


def on_jump() -> None:
    """The step picker. A following phone does not show it, yet its browser may still send the value it last
    showed (with the next poll, after the page itself set the picker to the class's step): that is no pick,
    and must not take the phone out of the class (it did: the phone went its own pace and missed End)."""
    if class_view.following():
        st.session_state["lesson_jump"] = current_step()
        return
    st.session_state[STEP_STATE] = int(st.session_state.get("lesson_jump") or 1)


def present_mode() -> bool:
    if PRESENT_STATE not in st.session_state:
        st.session_state[PRESENT_STATE] = URL.get("present")
    return bool(st.session_state[PRESENT_STATE])


def on_present() -> None:
    st.session_state[PRESENT_STATE] = bool(st.session_state.get("lesson_present_toggle"))


def write_url(step: int, present: bool) -> None:
    URL.write({"step": step, "present": present})


def keyboard(present: bool) -> None:
    """→ / ← press Next / Previous, in projector mode only (elsewhere the arrows belong to the text box)."""
    if present:
        st.html(lesson.KEYS_JS, unsafe_allow_javascript=True)


# ------------------------------------------------------------------------------------------------
# Pieces of a step

def signature() -> str:
    current = settings()
    return hashlib.sha1(f"{current.model}\n{current.text}".encode()).hexdigest()[:10]


def join_link(number: int) -> tuple[str, str]:
    """The URL a phone opens (this sentence, model, language and step) and a note about its host."""
    from streamlit.net_util import get_internal_ip

    current = settings()
    params = {"text": current.text, "model": current.model, "lang": st.session_state.get("lang") or "",
              "step": str(number)}
    owned = class_view.teacher()
    if owned:  # the class's QR code: the phone follows the class (the code, never the secret)
        params = class_view.join_params(owned[0])
    try:
        context_url = st.context.url
    except Exception:  # no browser context (tests, a bare script run)
        context_url = None
    lan = None
    with contextlib.suppress(OSError):
        lan = get_internal_ip()
    url, replaced = lesson.join_url(context_url, params, lan_address=lan)
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname or ""
    if replaced:
        return url, tr("lesson.join_lan", host=host)
    if host in lesson.LOCAL_HOSTS:
        return url, tr("lesson.join_local")
    return url, ""


def qr_block(number: int, width: int) -> None:
    url, note = join_link(number)
    st.image(shared_qr_png(url), width=width)
    owned = class_view.teacher()
    caption = tr("class.join_caption", code=owned[0]) if owned else tr("lesson.join_caption")
    st.caption(caption + (f" {note}" if note else ""))
    st.code(unquote(url), language=None, wrap_lines=True)  # readable: the sentence, not %EA%B3%A0… (the QR: encoded)


def reveal(marker: str, qkey: str) -> None:
    st.session_state.setdefault(REVEALED_STATE, set()).add(marker)
    class_view.reveal_for_class(qkey)  # the teacher's Reveal reveals on every following phone


def is_revealed(question: lesson.Question, sig: str, number: int, in_class: live_class.ClassState | None) -> bool:
    """Whether this question's answer shows: revealed here, or (on a following phone) by the teacher."""
    revealed = st.session_state.setdefault(REVEALED_STATE, set())
    marker = f"{sig}:{question.id}"
    if in_class is not None and live_class.question_key(number, question.id, sig) in in_class.revealed:
        revealed.add(marker)
    return marker in revealed


def question_block(question: lesson.Question, sig: str, number: int, in_class: live_class.ClassState | None) -> bool:
    """Ask first; return whether the answer has been revealed (and say if the guess was right). A following
    phone's pick is its answer to the class, and the teacher's Reveal reveals it."""
    revealed = st.session_state.setdefault(REVEALED_STATE, set())
    marker = f"{sig}:{question.id}"
    qkey = live_class.question_key(number, question.id, sig)
    is_revealed(question, sig, number, in_class)
    widget = f"lesson_q_{question.id}_{sig}"
    with st.container(border=True, key=f"lesson_question_{question.id}"):
        st.markdown(f"**{tr('lesson.predict')}:** {question.prompt}")
        choice = st.pills(tr("lesson.your_guess"), list(range(len(question.options))),
                          selection_mode="multi" if question.multi else "single",
                          format_func=lambda i: md_escape(question.options[i]), key=widget,
                          label_visibility="collapsed", disabled=marker in revealed,
                          on_change=class_view.submit_answer if in_class is not None else None,
                          args=(qkey, widget, len(question.options), question.multi))
        if marker not in revealed:
            if in_class is not None:
                class_view.ask(qkey, widget, len(question.options), question.multi)
                st.caption(class_view.answer_status(qkey, question.options))
                return False
            st.button(tr("lesson.reveal"), key=f"lesson_reveal_{question.id}", type="primary",
                      icon=":material/visibility:", on_click=reveal, args=(marker, qkey))
            st.caption(tr("lesson.hidden"))
            return False
        verdict = question.is_right(choice if not question.multi or choice else None)
        answer = ", ".join(question.answer_labels)
        if verdict is None and class_view.teacher():
            pass  # the class's answers below mark the model's answer (✓): the projector keeps its 1080 px
        elif verdict is None:
            st.info(tr("lesson.no_guess", answer=answer))
        elif verdict:
            st.success(tr("lesson.right"), icon=":material/check_circle:")
        else:
            st.error(tr("lesson.wrong", answer=answer), icon=":material/cancel:")
        class_view.class_distribution(qkey, question.options, question.answer)
    return True


def figure_block(view: lesson.StepView, fig, present: bool) -> None:
    """The step's figure (`fig`: already sized for the projector's one 1080 px screen where it shows there)."""
    if fig is not None and present:  # no download button under the projector's figure: it must fit the screen
        st.plotly_chart(fig, width="stretch", config=plot_config(f"lesson_{view.step.number}_{view.step.id}"),
                        key=f"lesson_fig_{view.step.number}", theme=None)
    elif fig is not None:
        chart(fig, f"lesson_{view.step.number}_{view.step.id}", key=f"lesson_fig_{view.step.number}")
    if view.chips_html is not None:
        st.html(view.chips_html)
    if view.table is not None:
        st.dataframe(view.table, hide_index=True, key=f"lesson_table_{view.step.number}")


def nav_buttons(number: int, has_decoder: bool) -> None:
    prev_step = lesson.neighbour(number, -1, has_decoder, STEPS)
    next_step = lesson.neighbour(number, +1, has_decoder, STEPS)
    left, middle, right = st.columns([1, 1, 1], vertical_alignment="center")
    left.button(tr("lesson.prev"), key="lesson_prev", icon=":material/arrow_back:", disabled=prev_step == number,
                on_click=go_to, args=(prev_step,), width="stretch")
    middle.markdown(f"<p style='text-align:center;margin:0'>{number} / {len(STEPS)}</p>", unsafe_allow_html=True)
    right.button(tr("lesson.next"), key="lesson_next", icon=":material/arrow_forward:", disabled=next_step == number,
                 on_click=go_to, args=(next_step,), width="stretch", type="primary")


def explanation(view: lesson.StepView, revealed: bool) -> None:
    st.markdown(view.body)
    if revealed and view.reveal:
        st.markdown(f"**{view.reveal}**")


def more_block(view: lesson.StepView) -> None:
    """The step's folded text, if it has one (closed, the step fits one 1080 px projector screen)."""
    if view.more:
        with st.expander(view.more_title):
            st.markdown(view.more)


def equation(view: lesson.StepView) -> None:
    st.markdown(f"**{tr('lesson.shape')}** `{view.shape}`")
    st.latex(view.latex)


# ------------------------------------------------------------------------------------------------
# The step, and a following phone's step

def step_body(view_now, number: int, present: bool, in_class: live_class.ClassState | None, top_left) -> str | None:
    """The step itself (title, question, figure, text, buttons) for the sidebar's sentence and model; returns the
    key of the question it asks, if any (the teacher's panel counts its answers). `top_left`: the top row's left
    column (the projector's buttons go there)."""
    step = STEPS[number - 1]
    class_qkey = None
    if view_now is not None:
        has_decoder = view_now.traced.has_decoder
        if present:  # projector: the buttons on top, always on screen (the arrow keys press them)
            with top_left:
                nav_buttons(number, has_decoder)
        code = lang()
        sig = signature()
        if "lesson_jump" not in st.session_state or st.session_state["lesson_jump"] != number:
            st.session_state["lesson_jump"] = number
        titles = {s.number: f"{s.number}. {tr(f'lesson.{s.id}.title')}" for s in STEPS}
        if not present and in_class is None:  # a following phone goes where the class goes (own pace: then jump)
            st.selectbox(tr("lesson.jump"), [s.number for s in STEPS],
                         format_func=titles.get, key="lesson_jump", on_change=on_jump)
        skipped = lesson.skipped_steps(has_decoder, STEPS)

        if not lesson.available(step, has_decoder):
            st.subheader(f"{tr('lesson.step_of', n=number, total=len(STEPS))} · {tr(f'lesson.{step.id}.title')}")
            st.info(tr("lesson.absent", name=view_now.loaded.name))
            if not present:
                nav_buttons(number, has_decoder)
        else:
            # built once per server for every session on this sentence, model, step and language (30 phones of a class
            # on one step pay for it once); read-only here
            with timed("lesson.step_view"):
                view = shared_step_view(view_now.traced, view_now.loaded, view_now.settings.text, step, code,
                                        compact=present)
            heading = f"{tr('lesson.step_of', n=number, total=len(STEPS))} · {view.title}"
            # Everything slow is made before the first element of the step goes out, and the figure column is
            # written first: the new step's title never shows over the old step's figure (the projector flashed it
            # for 1-2 s while the rest of the run went on; the old figure stayed "stale" on screen meanwhile).
            revealed = view.question is None or is_revealed(view.question, sig, number, in_class)
            fig = view.figure if not present or view.figure is None else \
                lesson.projector_figure(view.figure, lesson.projector_height_budget(view.latex))
            corner_qr = shared_qr_png(join_link(number)[0], scale=4) if present and number != 1 else None
            # projector: text | figure side by side on one screen; otherwise (phones) one column: text, figure, buttons
            text_col, fig_col = st.columns([1, 1]) if present else (st.container(), st.container())
            foot = text_col if present else st.container()
            with fig_col, timed("lesson.figure_column"):
                if revealed:
                    figure_block(view, fig, present)
                    if present:
                        equation(view)
                else:
                    st.empty()  # takes the old figure's place at once
                if present and number == 1:
                    qr_block(number, 280)
                if present:  # under the figure, not under both columns: the text column may fill the screen
                    more_block(view)
                    st.caption(tr("lesson.keys"))
            with text_col, timed("lesson.text_column"):
                if corner_qr is not None:
                    head_left, head_right = st.columns([4, 1])
                    head_left.subheader(heading)
                    head_right.image(corner_qr, width=120)
                else:
                    with timed("lesson.title"):
                        st.subheader(heading)
                if view.focus:
                    st.caption(view.focus)
                if view.question is not None:
                    class_qkey = live_class.question_key(number, view.question.id, sig)
                    revealed = question_block(view.question, sig, number, in_class)
                explanation(view, revealed)
                if not present:
                    more_block(view)
                if skipped and step.id == "encoder_layer":
                    st.info(tr("lesson.skipped", steps=", ".join(str(s.number) for s in skipped)))
                if revealed and not present:
                    equation(view)
            with foot, timed("lesson.foot"):
                if not present:
                    nav_buttons(number, has_decoder)
                st.page_link(step.page, label=tr("lesson.more", page=tr(view.page_title_key)),
                             icon=":material/open_in_new:")
        if present and not lesson.available(step, has_decoder):
            st.caption(tr("lesson.keys"))
        elif not present and in_class is None:  # a following phone is in the class already: no link to open it
            with st.expander(tr("lesson.join"), icon=":material/qr_code_2:"), timed("lesson.join_qr"):
                qr_block(number, 260)
            class_view.join_box()
    if not present and st.session_state.get(SHOWN_STATE, number) != number:
        # a new step (Next, Previous, the class moved): open it at its title, not where the last one was scrolled
        st.html(lesson.scroll_to_step_script(tr("lesson.step_of", n=number, total=len(STEPS)), number),
                unsafe_allow_javascript=True)
    st.session_state[SHOWN_STATE] = number
    return class_qkey


# Set by the page run just before it calls class_step(): a run of class_step() without it is a run of the fragment
# alone (the poll asked for it), which must read the class itself (its arguments would be the last page run's).
PAGE_RUN = "_lesson_page_run"


@st.fragment(key=class_view.STEP_FRAGMENT)
def class_step() -> None:
    """A following phone's step, as a fragment: when the class moves to another step (or reveals an answer), the
    poll (class_view.follow_poll) reruns only this, not the whole app: no sidebar, navigation or follower bar is
    sent again to every phone of the class (docs/serving.md, "Where the server's answer went")."""
    page_run = st.session_state.pop(PAGE_RUN, False)
    if not page_run:
        st.session_state.pop(class_view.QUESTION, None)
    in_class = class_view.class_state_for_page()
    if in_class is None:  # ended (or gone) since the page's own read
        if not page_run:
            st.rerun()  # the whole page says so and shows the ordinary lesson
        return
    if (in_class.text, in_class.model) != (settings().text, settings().model):
        if not page_run:  # another sentence or model: the sidebar and the whole page follow
            class_view.apply_class_state_now()
            st.rerun()
        st.session_state[class_view.FOLLOW]["version"] = None  # the poll takes the class's sentence next
    st.session_state[STEP_STATE] = lesson.parse_step(in_class.step, len(STEPS))
    number = current_step()
    if not page_run:
        write_url(number, False)
    with timed("lesson.current_view"):
        view_now = current_view()
    step_body(view_now, number, False, in_class, None)


# ------------------------------------------------------------------------------------------------
# The page

# First on the page, so its place never moves: a polling fragment's id is its place on the page. While one-off
# elements above the follower bar could shift it, phones' polls ticked under ids the server no longer knew ("The
# fragment with id ... does not exist anymore": 12 times in a 12-phone benchmark run, 0 with this slot).
follow_slot = st.container()
with timed("lesson.class_state"):
    class_view.join_from_url()
    st.session_state.pop(class_view.QUESTION, None)  # set again below while a question waits for the reveal
    in_class = class_view.class_state_for_page()
if in_class is not None:  # a following phone shows the class's step (class_step() below)
    st.session_state[STEP_STATE] = lesson.parse_step(in_class.step, len(STEPS))
present = present_mode() and in_class is None
number = current_step()
with timed("lesson.top"):
    st.html(lesson.page_css(present))

# A following phone has no top row: it opens at the class, not at the page's introduction, shows no projector
# toggle and holds no class of its own. Every element costs each of a class's 30 phones a message on every step
# change (docs/serving.md, "Where the server's answer went"), so it sends none of the row's empty blocks.
class_slot = None
if in_class is None:
    # A teacher's projector with a class: the panel is one row (code, counts, End class) in the wider right column
    # and the toggle goes above the step buttons. The panel's two rows under the toggle made steps 10, 12, 18 and
    # 22 1104-1135 px tall (the class walk, 2026-12-02): over the projector's 1080 px.
    teaching = present and class_view.teacher() is not None
    top_left, top_right = st.columns([2, 3] if teaching else [3, 2], vertical_alignment="bottom")
    if not present:
        with top_left:
            st.title(tr("lesson.page_title"))
            st.caption(tr("lesson.intro"))
    with top_left if teaching else top_right:
        st.toggle(tr("lesson.present"), value=present, key="lesson_present_toggle", on_change=on_present,
                  help=tr("lesson.present_help"))
    with top_right:
        class_slot = st.container()

view_now = None
if in_class is None:  # a following phone's class_step() reads the trace itself
    with timed("lesson.current_view"):
        view_now = current_view()
write_url(number, present)
keyboard(present)
class_view.sync_teacher(number)
class_view.notice()  # under the top row: the teacher's counts (a polling fragment in class_slot) keep their place
class_view.join_box(first=True)  # a failed join: the box to type the code again, under its message
if in_class is not None or st.session_state.get(class_view.FOLLOW):
    with follow_slot, timed("lesson.follower_bar"):
        class_view.follower_bar(in_class.code if in_class is not None else "")
class_qkey = None
if in_class is not None:
    st.session_state[PAGE_RUN] = True
    class_step()
else:
    class_qkey = step_body(view_now, number, present, None, top_left if present else None)
if class_slot is not None:
    with class_slot, timed("lesson.class_panel"):
        class_view.teacher_panel(class_qkey, present)
        class_view.start_button(number)
