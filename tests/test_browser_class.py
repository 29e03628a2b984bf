"""A live class in headless Chromium: a teacher's projector (1920x1080) and three phones (390x844), Korean UI.
The phones follow the teacher's step, answer the first question together (the teacher sees the count and, on
Reveal, the class's distribution; every phone reveals), a phone's own Next never moves the class, End class
reaches every phone, and an unknown code leaves the ordinary lesson. Run twice: on one server with the
in-process store, and on TWO servers sharing a real redis-server (teacher on one, phones on the other).
Screenshots: build/screenshots/class_teacher.png and class_phone.png."""

from __future__ import annotations

import base64
import contextlib
import re
import time
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

import transformer_core as core
from explorer import lesson_service
from explorer.figures import lesson
from explorer.i18n import t
from tests.browser_helpers import EXCEPTION, POLL_MS, page_url, require_chromium, shows_step, streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
PHONES = 3
CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{6})\b")
JOIN = t("lesson.join", "ko")  # the expander with the link (and QR code) that opens this lesson on a phone

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)


@cache
def first_question() -> lesson.Question:
    loaded = core.load(MODEL)
    data = lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT)
    question = lesson.build_step(lesson.lesson_steps()[0], data, "ko").question
    assert question is not None and not question.multi
    return question


def tab(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR", device_scale_factor=1)
    return context, context.new_page()


def no_exception(page) -> None:
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()


def heading_top(page, number: int) -> float:
    return page.evaluate(f"""() => [...document.querySelectorAll('[data-testid=stMain] h3')]
        .find(h => h.innerText.startsWith('{number}단계')).getBoundingClientRect().top""")


def poll_beats(page, n: int, timeout: float = 60_000) -> None:
    """Wait until a following phone's poll has run `n` more times (each run writes a new beat into the page)."""
    for _ in range(n):
        beat = page.locator(".class-poll-beat").first.get_attribute("data-beat", timeout=timeout)
        page.wait_for_function("""beat => [...document.querySelectorAll('.class-poll-beat')]
            .some(el => el.getAttribute('data-beat') !== beat)""", arg=beat, timeout=timeout, polling=POLL_MS)


def text_of(page, selector: str) -> str:
    return page.locator(selector).first.inner_text()


def wait_text(page, selector: str, pattern: str, timeout: float = 180_000) -> None:
    sync_api.expect(page.locator(selector).first).to_contain_text(re.compile(pattern), timeout=timeout)


def pick(page, question: lesson.Question, index: int, timeout_s: float = 120.0) -> None:
    """Tap an option, then wait until the phone says the CLASS holds that answer (read back from the store):
    the pill's own look changes at once, before the class has it."""
    group = page.locator(f".st-key-lesson_question_{question.id}")
    label = question.options[index]
    exact = re.compile("^" + re.escape(label) + "$")
    pill = group.locator("button").filter(has_text=exact)
    checked = group.locator("button[aria-checked=true]").filter(has_text=exact)
    # While a poll's fragment run redraws the step, the old and the new pill can both be in the page: CI saw two
    # for a moment, and a loaded two-worker run saw two for 30 s. Tap the newest copy until one shows the tap
    # (never tap a checked pill again: a second tap takes the answer back).
    deadline = time.monotonic() + timeout_s
    while checked.count() == 0:
        assert time.monotonic() < deadline, f"no copy of the pill {label!r} took the tap in {timeout_s:.0f} s"
        if not pill.count():
            page.wait_for_timeout(500)
            continue
        try:
            pill.last.click(timeout=5_000)
        except sync_api.Error:  # the copy was redrawn away under the tap: try the new one
            continue
        with contextlib.suppress(AssertionError):  # a loaded page may take seconds to draw the tap
            sync_api.expect(checked).not_to_have_count(0, timeout=10_000)
    wait_text(page, f".st-key-lesson_question_{question.id}", rf"전해진 답: {re.escape(label)}\.", timeout=90_000)


class MessageLog:
    """The kinds of the messages a page receives from the server over its websocket (Chromium's DevTools network
    log, each frame decoded as Streamlit's ForwardMsg): "navigation" comes with every run of the whole app (app.py's
    st.navigation), never with a fragment's run alone."""

    def __init__(self, page) -> None:
        self.kinds: list[str] = []
        session = page.context.new_cdp_session(page)
        session.on("Network.webSocketFrameReceived", self._received)
        session.send("Network.enable")

    def _received(self, event: dict) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        frame = event["response"]
        if frame.get("opcode") != 2:
            return
        message = ForwardMsg()
        message.ParseFromString(base64.b64decode(frame["payloadData"]))
        kind = message.WhichOneof("type")
        if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            kind = f"delta.{message.delta.new_element.WhichOneof('type')}"
        self.kinds.append(kind)


def walk_a_class(browser, teacher_base: str, phone_base: str, screenshots: bool) -> None:
    question = first_question()
    right = min(question.answer)
    wrong = [i for i in range(len(question.options)) if i not in question.answer]
    contexts = []
    try:
        context, teacher = tab(browser, 1920, 1080)
        contexts.append(context)
        teacher.goto(page_url(teacher_base, "lesson", model=MODEL, text=TEXT, step=1, present=1), timeout=90_000)
        teacher.locator(".st-key-class_start button").first.click(timeout=90_000)
        wait_text(teacher, ".st-key-class_teacher_panel", r"수업 코드: [A-Z2-9]{6}")
        code = CODE.search(text_of(teacher, ".class-code")).group(1)
        assert not set(code) & set("01OI")
        assert "class=" not in teacher.url  # the teacher's own URL carries neither the code nor any secret
        # the QR code's link (written under it): the class code, language, model and sentence, no step, no secret
        link = next(t for t in teacher.locator("[data-testid=stCode]").all_inner_texts() if "class=" in t).strip()
        params = parse_qs(urlsplit(link).query)
        assert params == {"class": [code], "lang": ["한국어"], "model": [MODEL], "text": [TEXT]}, params
        assert teacher.locator("[data-testid=stImage] img").count() >= 1
        # the QR code's caption says the phone follows this class (not "the same step opens")
        caption = teacher.locator("[data-testid=stCaptionContainer]").filter(has_text="QR 코드를 찍으면")
        sync_api.expect(caption).to_contain_text(f"휴대폰이 이 실시간 수업(코드 {code})을 따라옵니다", timeout=30_000)

        phones = []
        for _ in range(PHONES):
            context, phone = tab(browser, 390, 844)
            contexts.append(context)
            phone.goto(f"{phone_base}/lesson?{urlsplit(link).query}", wait_until="commit", timeout=90_000)
            phones.append(phone)
        for phone in phones:
            wait_text(phone, ".st-key-class_follower_bar", code, timeout=90_000)
            shows_step(phone, 1)
            no_exception(phone)
            # the poll's watchdog runs on a following phone (st.html's script ran), and takes no room
            phone.wait_for_function("() => window.__classWatchdog === true", timeout=30_000, polling=POLL_MS)
            assert phone.locator(".st-key-class_resync").is_hidden()
        wait_text(teacher, ".st-key-class_teacher_panel", rf"따라오는 학생 {PHONES}명")

        # the class answers the first question; one answer per phone, changeable
        pick(phones[0], question, right)
        pick(phones[1], question, right)
        pick(phones[2], question, wrong[0])
        pick(phones[2], question, wrong[1])
        wait_text(teacher, ".st-key-class_teacher_panel", rf"응답 {PHONES}개")
        for phone in phones:
            wait_text(phone, f".st-key-lesson_question_{question.id}", "선생님")
            assert phone.locator(f".st-key-lesson_reveal_{question.id}").count() == 0  # the teacher reveals
        teacher.locator(f".st-key-lesson_reveal_{question.id} button").click()
        wait_text(teacher, ".st-key-class_distribution", rf"수업의 응답 \({PHONES}개")
        shown = text_of(teacher, ".st-key-class_distribution")
        bars = [(label.strip(), mark, n) for label, mark, n in re.findall(r"(?m)^\s*(.+?)(\s✓)?\s·\s(\d+)\s*$", shown)]
        counts = {label: int(n) for label, _, n in bars}
        assert len(bars) == len(question.options), repr(shown)
        assert counts[question.options[right]] == 2 and counts[question.options[wrong[1]]] == 1, counts
        assert counts[question.options[wrong[0]]] == 0  # the changed answer counts once, where it ended
        assert [label for label, mark, _ in bars if mark] == [question.options[right]]  # the model's answer
        for phone, verdict in zip(phones, ["Success", "Success", "Error"], strict=True):
            sync_api.expect(phone.locator(f"[data-testid=stAlertContent{verdict}]")).to_have_count(1, timeout=90_000)
        # the projector's step 1 with the class panel, the QR code and the class's answers: one 1080 px screen
        height = teacher.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
        assert height <= 1080, f"the teacher's step 1 after the reveal is {height} px tall"
        if screenshots:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            teacher.wait_for_timeout(800)
            teacher.screenshot(path=str(SCREENSHOTS / "class_teacher.png"))
            phones[2].screenshot(path=str(SCREENSHOTS / "class_phone.png"))

        # the teacher moves: every phone follows and opens at the new step's title
        teacher.wait_for_function("() => window.__lessonKeys === true", timeout=30_000, polling=POLL_MS)
        messages = MessageLog(phones[1])
        teacher.keyboard.press("ArrowRight")
        shows_step(teacher, 2)
        for phone in phones:
            shows_step(phone, 2)
            phone.wait_for_function("() => window.__lessonScrolledTo === 2", timeout=30_000, polling=POLL_MS)
            assert 0 <= heading_top(phone, 2) < 844 - 40
            no_exception(phone)
            # a following phone is in the class already: no link or QR code to open the lesson on a phone (each
            # element is a message to every phone on every step change), no projector toggle
            assert phone.locator("[data-testid=stExpander]").filter(has_text=JOIN).count() == 0
            assert phone.locator("[data-testid=stImage]").count() == 0
            assert phone.locator(".st-key-lesson_present_toggle").count() == 0
        # ... each by a run of the step's fragment alone (the poll asks for it): no run of the whole app, whose
        # sidebar, navigation and follower bar would go to every phone of the class again (docs/serving.md)
        assert "delta.heading" in messages.kinds, messages.kinds
        assert "navigation" not in messages.kinds, messages.kinds

        # a phone goes its own pace: its Next moves only itself; then it rejoins
        phones[0].locator(".st-key-lesson_next button").first.click()
        shows_step(phones[0], 3)
        wait_text(phones[0], ".st-key-class_follower_bar", "혼자")
        poll_beats(phones[1], 3)  # three polls of a following phone after the own-pace Next (counted, not timed)
        assert heading_top(teacher, 2) is not None and "step=2" in teacher.url
        shows_step(phones[1], 2, timeout=30_000)  # (a page run may be redrawing it: a step 3 would stay)
        assert not phones[1].locator("[data-testid=stMain] h3").filter(has_text=re.compile("^3단계")).count()
        wait_text(teacher, ".st-key-class_teacher_panel", rf"따라오는 학생 {PHONES - 1}명")
        phones[0].locator(".st-key-class_rejoin button").first.click()
        shows_step(phones[0], 2)
        wait_text(teacher, ".st-key-class_teacher_panel", rf"따라오는 학생 {PHONES}명")

        # an unknown code: a clear message and the ordinary lesson
        context, stranger = tab(browser, 390, 844)
        contexts.append(context)
        unknown = "ZZZZZ2" if code != "ZZZZZ2" else "ZZZZZ3"
        stranger.goto(page_url(phone_base, "lesson", model=MODEL, text=TEXT, **{"class": unknown}),
                      wait_until="commit", timeout=90_000)
        wait_text(stranger, "[data-testid=stMain]", "그런 수업 코드가 없습니다", timeout=90_000)
        shows_step(stranger, 1)
        assert stranger.locator(".st-key-class_follower_bar").count() == 0
        sync_api.expect(stranger.locator("[data-testid=stExpander]").filter(has_text=JOIN)).to_have_count(1)

        # End class: every phone is told and keeps the ordinary lesson
        teacher.locator(".st-key-class_end button").first.click()
        wait_text(teacher, "[data-testid=stMain]", "실시간 수업을 끝냈습니다")
        sync_api.expect(teacher.locator(".st-key-class_start button").first).to_be_visible(timeout=60_000)
        for phone in phones:  # every phone, the one that went its own pace and rejoined too
            wait_text(phone, "[data-testid=stMain]", "이 실시간 수업은 끝났습니다", timeout=60_000)
            shows_step(phone, 2)
            phone.wait_for_function("() => !new URLSearchParams(location.search).has('class')", timeout=30_000,
                                    polling=POLL_MS)
            sync_api.expect(phone.locator("[data-testid=stExpander]").filter(has_text=JOIN)).to_have_count(1)
            no_exception(phone)

        # the ended code: a clear message and the ordinary lesson
        stranger.goto(page_url(phone_base, "lesson", model=MODEL, text=TEXT, **{"class": code}),
                      wait_until="commit", timeout=90_000)
        wait_text(stranger, "[data-testid=stMain]", "끝났습니다", timeout=90_000)
        no_exception(stranger)
        no_exception(teacher)
    finally:
        for context in contexts:
            context.close()


@pytest.fixture(scope="module")
def in_process_server():
    """One app server with the in-process store for this module's classes on one server (each class has its own
    code, and the first ends before the next starts)."""
    with streamlit_server(env={"TRANSFORMER_EXPLORER_REDIS_URL": ""}) as base:
        yield base


def test_a_class_on_one_server_with_the_in_process_store(browser, in_process_server):
    walk_a_class(browser, in_process_server, in_process_server, screenshots=True)


def test_a_class_on_two_servers_sharing_redis(browser):
    from tests.servers import running_redis

    with running_redis() as (url, _process):
        env = {"TRANSFORMER_EXPLORER_REDIS_URL": url}
        with streamlit_server(env=env) as teacher_server, streamlit_server(env=env) as phone_server:
            assert teacher_server != phone_server
            walk_a_class(browser, teacher_server, phone_server, screenshots=False)


def test_a_following_phone_takes_the_teachers_new_sentence_then_follows_the_next_step(browser, in_process_server):
    """A new sentence is no step change: the phone's poll reruns the whole page (the sidebar takes the class's
    sentence), and the next step change is again the step's fragment alone, on the new sentence."""
    other_text = "학생이 책을 읽는다."
    contexts = []
    base = in_process_server
    try:
        context, teacher = tab(browser, 1400, 900)
        contexts.append(context)
        teacher.goto(page_url(base, "lesson", model=MODEL, text=TEXT, step=1), timeout=90_000)
        teacher.locator(".st-key-class_start button").first.click(timeout=90_000)
        wait_text(teacher, ".st-key-class_teacher_panel", r"수업 코드: [A-Z2-9]{6}")
        code = CODE.search(text_of(teacher, ".class-code")).group(1)
        context, phone = tab(browser, 390, 844)
        contexts.append(context)
        phone.goto(page_url(base, "lesson", model=MODEL, text=TEXT, **{"class": code}), timeout=90_000)
        wait_text(phone, ".st-key-class_follower_bar", code, timeout=90_000)
        shows_step(phone, 1)
        sentence = "[data-testid=stSidebar] [data-testid=stTextInput] input"
        box = teacher.locator(sentence).first
        box.fill(other_text)
        box.press("Enter")
        sync_api.expect(phone.locator(sentence).first).to_have_value(other_text, timeout=60_000)
        messages = MessageLog(phone)
        teacher.locator(".st-key-lesson_next button").first.click()
        shows_step(phone, 2)
        assert "delta.heading" in messages.kinds and "navigation" not in messages.kinds, messages.kinds
        assert phone.locator(sentence).first.input_value() == other_text
        no_exception(phone)
        no_exception(teacher)
    finally:
        for context in contexts:
            context.close()
