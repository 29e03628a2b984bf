"""A live class under load: one teacher (1920x1080, projector mode) and N following phones (390x844), all headless
Chromium (Debian's /usr/bin/chromium), Korean UI, on each store backend:

  memory  one app server, the in-process store (what `make run` gives);
  redis   a real redis-server and TWO app servers sharing it: the teacher on one, the phones on the other.

Measured, per backend:
  * follow latency: from the teacher's → key until each phone shows the new step's title (p50, p95 over
    N phones × S step changes); the teacher's own step change beside it;
  * answer-count latency: from a phone's tap on an answer until the teacher's panel shows that many answers;
  * each app server's CPU seconds over the run (and as a share of one core) and peak resident memory.
The phones poll once a second (explorer/class_view.py POLL_S), so a follow latency near 1 s is the poll;
the issue's target is p95 <= 2 s with 30 phones on one 2-core server.

A follow has two parts, and on one machine the browsers' part swamps the server's: 31 Chromium pages share the
processors a real class spreads over 30 phones. So each page also records, from Chromium's own network log (CDP
`Network.webSocketFrameReceived` / `...FrameSent`, stamped when the frame passes the browser's network stack,
not when the page's busy main thread gets to it), when the teacher's page sent its step change and when each
phone received the new step's title:
  * delivery: the teacher's frame sent -> the title's frame received by the phone (the server's part: the
    phone's poll, the teacher's and the phone's page runs, the store);
  * answer: the phone's last frame sent before the title's frame (the poll that found the new step) -> the
    title's frame received: the server's answer to that poll alone (the page run included); what remains of
    the delivery is the wait for that poll (at most the 1 s poll period on a phone whose timer is on time);
  * render: the title's frame received -> the title shown on the phone (the phone's own part).
`--server-cpus 0 --browser-cpus 1` keeps the app servers (and redis-server) on their own processors, apart from
the browsers and this script.

Protocol followers (`--protocol-phones N`, benchmarks/protocol_follower.py): N more phones that are not browsers but
clients of Streamlit's own websocket protocol, doing what a following phone's page asks of the server (open the
class's link, rerun the poll at the interval the server asks, send the answer); they cost the server what a phone
does and the benchmark almost nothing. Their follow latency is the key press -> the arrival of the message naming
the new step (the server's part: compare it with a Chromium phone's "delivery"); `--phones 1 --protocol-phones 2`
checks them against a real Chromium phone on the same class.

Bad input at class size (`--bad-clients N`, benchmarks/bad_clients.py): beside the class, N more protocol phones
join and send answers that are no answers (values outside the options, of the wrong type, for widgets the page
never drew, for a question the class has left) at step 1 (before and after the good answers) and at each later
question step; once the step changes start, N code guessers each try `--guesses` unknown codes (link and join box)
and a flood of `--flood-sessions` sessions (2N at a time) opens the class's link, follows and leaves. Checked and
printed: the teacher's answer count (the good answers exactly, and 0 at the later question steps), what each bad
client was told (the Korean i18n texts: unknown code, then the rate limit; its caption still waiting for an answer),
no exception element and no traceback in the servers' output, the followers on the teacher's panel, and each
server's memory before the bad clients, after each flood round and at the end; the good followers' figures are the
lines above it.

Usage (from the repository root; tests/ holds the browser helpers):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/live_class.py [--phones 30] [--protocol-phones 0] [--steps 20]
        [--backend both|memory|redis] [--server-cpus 0] [--browser-cpus 1] [--json]
        [--bad-clients 0] [--guesses 20] [--flood-sessions 60]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import transformer_core as core
from explorer import lesson_service
from explorer import live_class as lc
from explorer.figures import lesson
from tests.browser_helpers import (
    chromium_available,
    cpu_seconds,
    launch,
    page_url,
    peak_rss_bytes,
    rss_bytes,
    streamlit_server,
)

MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{6})\b")
# Each page notes (Date.now(), wall clock shared with this process) when a step's title first shows, and the
# teacher's page when its panel first shows n answers.
SEEN_SCRIPT = """(() => {
  window.__stepSeen = {}; window.__answersSeen = {};
  const check = () => {
    for (const h of document.querySelectorAll('[data-testid=stMain] h3')) {
      const m = /^(\\d+)단계/.exec(h.innerText.trim());
      if (m && !(m[1] in window.__stepSeen) && !h.closest('[data-stale=true]')) window.__stepSeen[m[1]] = Date.now();
    }
    const panel = document.querySelector('.st-key-class_teacher_panel');
    const a = panel && /응답 (\\d+)개/.exec(panel.innerText);
    if (a && !(a[1] in window.__answersSeen)) window.__answersSeen[a[1]] = Date.now();
  };
  // data-stale too: a title written while its block is still marked stale counts when the mark goes, which
  // changes an attribute only; and every 100 ms, in case nothing on the page changes after that
  new MutationObserver(check).observe(document, {subtree: true, childList: true, characterData: true,
                                                 attributes: true, attributeFilter: ['data-stale']});
  setInterval(check, 100);
})();"""
# On a timeout: what the page showed, for finding why (a screenshot and the page's text).
PAGE_STATE_SCRIPT = """() => ({url: location.href, stepSeen: window.__stepSeen, answersSeen: window.__answersSeen,
  focused: document.activeElement && document.activeElement.outerHTML.slice(0, 300),
  titles: [...document.querySelectorAll('[data-testid=stMain] h3')].map(
    h => [h.innerText, !!h.closest('[data-stale=true]')]),
  stale: document.querySelectorAll('[data-stale=true]').length})"""


class FrameClock:
    """When a page's browser received each lesson step's title over the websocket and when it sent frames, in
    Chromium's monotonic clock (CDP Network.MonotonicTime: CLOCK_MONOTONIC on Linux, as Python's
    time.monotonic(); `offsets` keeps handled-minus-stamped times to check that)."""

    def __init__(self, page, total_steps: int) -> None:
        self.title = re.compile(rb"(\d+)" + re.escape(f"단계 / {total_steps} · ".encode()))
        self.received: dict[int, float] = {}
        self.sent: list[float] = []
        self.offsets: list[float] = []
        session = page.context.new_cdp_session(page)
        session.on("Network.webSocketFrameReceived", self._received)
        session.on("Network.webSocketFrameSent", self._sent)
        session.send("Network.enable")

    def _received(self, event: dict) -> None:
        self.offsets.append(time.monotonic() - event["timestamp"])
        frame = event["response"]
        data = (base64.b64decode(frame["payloadData"]) if frame.get("opcode") == 2
                else frame["payloadData"].encode())
        for match in self.title.finditer(data):
            self.received.setdefault(int(match.group(1)), event["timestamp"])

    def _sent(self, event: dict) -> None:
        self.sent.append(event["timestamp"])

    def first_sent_after(self, moment: float) -> float | None:
        return next((t for t in self.sent if t >= moment), None)

    def last_sent_before(self, moment: float) -> float | None:
        return max((t for t in self.sent if t <= moment), default=None)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * q
    low, high = int(rank), min(int(rank) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def new_page(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR", device_scale_factor=1)
    page = context.new_page()
    page.add_init_script(SEEN_SCRIPT)
    page.frame_clock = FrameClock(page, len(lesson.lesson_steps()))
    return context, page


def wait_until(check, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"{what} within {timeout:.0f} s")


def save_page_state(page, directory: Path, name: str) -> None:
    """A screenshot and what the page held, when it did not show what the benchmark waited for."""
    directory.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(Exception):
        page.screenshot(path=str(directory / f"{name}.png"))
    with contextlib.suppress(Exception):
        state = page.evaluate(PAGE_STATE_SCRIPT)
        (directory / f"{name}.txt").write_text(json.dumps(state, ensure_ascii=False, indent=1) + "\n\n"
                                               + page.inner_text("body"), encoding="utf-8")


class ProtocolPhones:
    """N protocol followers (benchmarks/protocol_follower.py) on an asyncio loop in a thread of their own, driven
    from this (Playwright's synchronous) thread."""

    def __init__(self, base: str, query: str, n: int) -> None:
        from benchmarks.protocol_follower import ProtocolFollower

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="protocol-phones", daemon=True)
        self.thread.start()
        self.phones = [ProtocolFollower(base, query, len(lesson.lesson_steps())) for _ in range(n)]
        if os.environ.get("PROTOCOL_TRACE"):  # a folder: each phone's messages go there when one does not follow
            for phone in self.phones:
                phone.trace = []
        for phone in self.phones:  # one after another, as phones scanning a code do
            self.call(phone.__aenter__(), 120)

    def call(self, coroutine, timeout: float):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def wait(self, condition, timeout: float, what: str) -> None:
        try:
            wait_until(lambda: all(condition(phone) for phone in self.phones), timeout, what)
        except TimeoutError as error:
            if os.environ.get("PROTOCOL_TRACE"):
                for i, phone in enumerate(self.phones):
                    Path(os.environ["PROTOCOL_TRACE"], f"phone{i}.txt").write_text(
                        "\n".join(map(str, phone.trace or [])))
            raise TimeoutError(f"{error}: " + "; ".join(phone.state() for phone in self.phones)) from None

    def close(self) -> None:
        for phone in self.phones:
            with contextlib.suppress(Exception):
                self.call(phone.__aexit__(None, None, None), 30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class BadClients:
    """`--bad-clients N` (benchmarks/bad_clients.py), on an asyncio loop of their own: N bad answerers that
    follow the class, N code guessers and a flood of joins run beside the class's step changes."""

    def __init__(self, base: str, query: str, code: str, n: int, guesses: int, flood_sessions: int,
                 servers: list) -> None:
        from benchmarks import bad_clients

        self.bad = bad_clients
        self.base, self.query, self.code, self.n = base, query, code, n
        self.guesses, self.flood_sessions, self.servers = guesses, flood_sessions, servers
        self.total = len(lesson.lesson_steps())
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bad-clients", daemon=True)
        self.thread.start()
        self.answerers = [bad_clients.ProbeClient(base, query, self.total) for _ in range(n)]
        for client in self.answerers:
            self.call(client.__aenter__(), 120)
        self.answers: list[dict] = []  # every bad answer's result
        self.flood_rounds: list = []
        self.memory_by_round: list[list[float]] = []  # each server's resident MB after each flood round
        self.background = []

    def call(self, coroutine, timeout: float):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def wait_answerers(self, condition, timeout: float, what: str) -> None:
        try:
            wait_until(lambda: all(condition(client) for client in self.answerers), timeout, what)
        except TimeoutError as error:
            raise TimeoutError(f"{error}: " + "; ".join(
                f"{c.state()}, pills in {sorted({key for key, _, _ in c.pills.values()})}"
                for c in self.answerers)) from None

    def answer_badly(self, block: str) -> None:
        async def all_of_them():
            return await asyncio.gather(*(self.bad.answer_badly(client, block) for client in self.answerers))

        for results in self.call(all_of_them(), 300):
            self.answers += results

    def answer_late(self, block: str) -> None:
        async def all_of_them():
            return await asyncio.gather(*(self.bad.late_answer(client, block) for client in self.answerers))

        self.answers += self.call(all_of_them(), 300)

    def start_background(self, pause: float) -> None:
        """The guessers (one guess per `pause` s each) and the flood (rounds of 2N sessions), not waited for."""
        for i in range(self.n):
            self.background.append(asyncio.run_coroutine_threadsafe(
                self.bad.guess_codes(self.base, self.total, self.guesses, pause, seed=i), self.loop))

        async def flood():
            rounds: list = []
            results = []
            number = 0
            while number < self.flood_sessions:
                size = min(2 * self.n, self.flood_sessions - number)
                batch = await asyncio.gather(*(self.bad.one_flooder(self.base, self.query, self.total, i % 2 == 0,
                                                                    self.code)
                                               for i in range(number, number + size)))
                results += batch
                rounds.append(batch)
                self.memory_by_round.append([rss_bytes(s.pid) / 2**20 for s in self.servers])
                number += size
                await asyncio.sleep(pause)
            return results

        self.background.append(asyncio.run_coroutine_threadsafe(flood(), self.loop))

    def finish(self, timeout: float) -> tuple[list[dict], list[dict]]:
        """Wait for the guessers and the flood; (guessers' results, flooders' results)."""
        done = [future.result(timeout) for future in self.background]
        return done[:-1], done[-1]

    def close(self) -> None:
        for future in self.background:
            future.cancel()
        for client in self.answerers:
            with contextlib.suppress(Exception):
                self.call(client.__aexit__(None, None, None), 30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def first_question() -> lesson.Question:
    loaded = core.load(MODEL)
    data = lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT)
    return lesson.build_step(lesson.lesson_steps()[0], data, "ko").question


def questions_by_step() -> dict[int, str]:
    """Step number -> the keyed block of its predict-first question (lesson_question_<id>)."""
    loaded = core.load(MODEL)
    data = lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT)
    built = {step.number: lesson.build_step(step, data, "ko").question for step in lesson.lesson_steps()}
    return {number: f"lesson_question_{q.id}" for number, q in built.items() if q is not None}


def panel_numbers(teacher) -> tuple[int | None, int | None]:
    """(students following, answers) as the teacher's panel shows them now."""
    text = teacher.inner_text(".st-key-class_teacher_panel")
    following = re.search(r"따라오는 학생 (\d+)명", text)
    answers = re.search(r"응답 (\d+)개", text)
    return (int(following.group(1)) if following else None, int(answers.group(1)) if answers else None)


def run_class(browser, teacher_base: str, phone_base: str, phones: int, steps: int, evidence: Path,
              protocol_phones: int = 0, bad_clients: int = 0, guesses: int = 20, flood_sessions: int = 60) -> dict:
    """One class: join, answer the first question, then `steps` step changes. Returns the latencies (s).
    On a timeout the teacher's page and the late page are saved under `evidence` (screenshot and text).
    With `bad_clients`, BadClients do their bad things beside it (see the module docstring)."""
    question = first_question()
    contexts = []
    swarm = None
    bad = None
    servers = list({s.pid: s for s in (teacher_base, phone_base)}.values())
    checks: dict = {}
    try:
        context, teacher = new_page(browser, 1920, 1080)
        contexts.append(context)
        teacher.goto(page_url(teacher_base, "lesson", model=MODEL, text=TEXT, step=1, present=1), timeout=120_000)
        teacher.locator(".st-key-class_start button").first.click(timeout=120_000)
        teacher.wait_for_selector(".class-code", timeout=60_000)
        code = CODE.search(teacher.inner_text(".class-code")).group(1)
        query = f"class={code}&model={MODEL}&text={TEXT}"
        pages = []
        for _ in range(phones):
            context, phone = new_page(browser, 390, 844)
            contexts.append(context)
            phone.goto(f"{phone_base}/lesson?{query}", wait_until="commit", timeout=120_000)
            pages.append(phone)
        for phone in pages:
            phone.wait_for_selector(".st-key-class_follower_bar", timeout=600_000)  # 30 pages load on one core
            phone.wait_for_selector(f".st-key-lesson_question_{question.id} button", timeout=600_000)
        protocol_query = urlencode({"class": code, "lang": "한국어", "model": MODEL, "text": TEXT})  # the QR link
        if protocol_phones:
            swarm = ProtocolPhones(phone_base, protocol_query, protocol_phones)
            swarm.wait(lambda p: 1 in p.steps_seen and any(block.startswith("lesson_question_")
                                                           for block, _, _ in p.pills.values()),
                       600, "a protocol phone did not show step 1 and its question")
        if bad_clients:
            bad = BadClients(phone_base, protocol_query, code, bad_clients, guesses, flood_sessions, servers)
            first_block = f"lesson_question_{question.id}"
            bad.wait_answerers(lambda c: 1 in c.steps_seen and any(key == first_block
                                                                   for key, _, _ in c.pills.values()),
                               600, "a bad answerer did not show step 1 and its question")
        everyone = phones + protocol_phones + bad_clients
        wait_until(lambda: f"따라오는 학생 {everyone}명" in teacher.inner_text(".st-key-class_teacher_panel"), 120,
                   f"the teacher did not see {everyone} students following")

        if bad:
            checks["rss_before_mb"] = [rss_bytes(s.pid) / 2**20 for s in servers]
            checks["peak_before_mb"] = [peak_rss_bytes(s.pid) / 2**20 for s in servers]
            bad.answer_badly(first_block)  # before the good answers
        answer_latency = []
        label = re.compile("^" + re.escape(question.options[0]) + "$")
        for n, phone in enumerate(pages, start=1):
            pill = phone.locator(f".st-key-lesson_question_{question.id} button").filter(has_text=label)
            tapped = time.time()
            pill.click()
            seen = wait_until(lambda n=n: teacher.evaluate(f"() => window.__answersSeen['{n}']"), 60,
                              f"the teacher did not see {n} answers")
            answer_latency.append(seen / 1000 - tapped)
        for n, phone in enumerate(swarm.phones if swarm else [], start=phones + 1):
            tapped = time.time()
            swarm.call(phone.answer(f"lesson_question_{question.id}", 0), 60)
            seen = wait_until(lambda n=n: teacher.evaluate(f"() => window.__answersSeen['{n}']"), 60,
                              f"the teacher did not see {n} answers")
            answer_latency.append(seen / 1000 - tapped)

        if bad:
            bad.answer_badly(first_block)  # and after them
            time.sleep(3.0)  # the teacher's counts refresh every second
            checks["step1_answers_shown"] = panel_numbers(teacher)[1]
            checks["step1_answers_good"] = phones + protocol_phones
            checks["answers_seen_max"] = max(int(k) for k in teacher.evaluate("() => window.__answersSeen"))
            bad.start_background(pause=1.5)
            checks["question_steps"] = []
            checks["following_shown"] = []
        blocks = questions_by_step() if bad else {}
        teacher.wait_for_function("() => window.__lessonKeys === true", timeout=60_000)
        follow, teacher_step, delivery, answer, render, teacher_send = [], [], [], [], [], []
        protocol_follow, protocol_delivery = [], []
        wall_minus_monotonic = time.time() - time.monotonic()
        for number in range(2, 2 + steps):
            pressed = time.time()
            pressed_monotonic = time.monotonic()
            teacher.keyboard.press("ArrowRight")
            key = str(number)
            try:
                seen_teacher = wait_until(lambda k=key: teacher.evaluate(f"() => window.__stepSeen['{k}']"), 120,
                                          f"the teacher did not show step {number}")
            except TimeoutError:
                save_page_state(teacher, evidence, f"teacher-step{number}")
                raise
            teacher_step.append(seen_teacher / 1000 - pressed)
            for i, phone in enumerate(pages, start=1):
                try:
                    seen = wait_until(lambda p=phone, k=key: p.evaluate(f"() => window.__stepSeen['{k}']"), 120,
                                      f"phone {i} did not follow to step {number}")
                except TimeoutError:
                    save_page_state(phone, evidence, f"phone{i}-step{number}")
                    save_page_state(teacher, evidence, f"teacher-step{number}")
                    raise
                follow.append(seen / 1000 - pressed)
            sent = teacher.frame_clock.first_sent_after(pressed_monotonic)
            for phone in pages:
                received = phone.frame_clock.received.get(number)
                shown = phone.evaluate(f"() => window.__stepSeen['{key}']") / 1000 - wall_minus_monotonic
                if received is not None and sent is not None:
                    delivery.append(received - sent)
                    render.append(shown - received)
                    poll = phone.frame_clock.last_sent_before(received)
                    if poll is not None and poll >= sent:
                        answer.append(received - poll)
            if sent is not None:
                teacher_send.append(sent - pressed_monotonic)
            if swarm:
                swarm.wait(lambda p, n=number: n in p.steps_seen, 120, f"a protocol phone did not follow to {number}")
                protocol_follow += [p.steps_seen[number] - pressed for p in swarm.phones]
                if sent is not None:  # from the teacher's frame, as a Chromium phone's delivery
                    protocol_delivery += [p.steps_seen[number] - (sent + wall_minus_monotonic) for p in swarm.phones]
            if bad:
                checks["following_shown"].append(panel_numbers(teacher)[0])
                if number == 2:  # the first question's own option, now that the class has moved on
                    bad.answer_late(first_block)
                if number in blocks:
                    bad.wait_answerers(lambda c, n=number: n in c.steps_seen and any(
                        key == blocks[n] for key, _, _ in c.pills.values()), 120,
                        f"a bad answerer did not show step {number}'s question")
                    bad.answer_badly(blocks[number])
                    time.sleep(1.5)  # the teacher's counts refresh every second
                    checks["question_steps"].append((number, panel_numbers(teacher)[1]))
            time.sleep(1.0)  # the class reads the step before the next one
        if bad:
            checks["guessers"], checks["flood"] = bad.finish(600)
            checks["bad_answers"] = bad.answers
            checks["answerer_exceptions"] = [e for c in bad.answerers for e in c.exceptions]
            checks["answerer_broken"] = [c.broken() for c in bad.answerers if c.broken()]
            checks["memory_by_round"] = bad.memory_by_round
            checks["rss_after_mb"] = [rss_bytes(s.pid) / 2**20 for s in servers]
            checks["peak_after_mb"] = [peak_rss_bytes(s.pid) / 2**20 for s in servers]
            checks["following_end"] = panel_numbers(teacher)[0]
            checks["code"] = code
        resyncs = sum(phone.evaluate("() => window.__classResyncs || 0") for phone in pages)
        offsets = [o for page in [teacher, *pages] for o in page.frame_clock.offsets]
        return {"follow": follow, "teacher_step": teacher_step, "answer_count": answer_latency, "resyncs": resyncs,
                "delivery": delivery, "answer": answer, "render": render, "teacher_send": teacher_send,
                "protocol_follow": protocol_follow, "protocol_delivery": protocol_delivery,
                "protocol_errors": [e for p in (swarm.phones if swarm else []) for e in p.errors],
                "clock_offset_min_median": [min(offsets), statistics.median(offsets)] if offsets else [],
                "bad": checks}
    finally:
        if bad:
            bad.close()
        if swarm:
            swarm.close()
        for context in contexts:
            with contextlib.suppress(Exception):
                context.close()


def measure(backend: str, phones: int, steps: int, evidence: Path, server_cpus: set[int] | None = None,
            browser_cpus: set[int] | None = None, protocol_phones: int = 0, bad_clients: int = 0, guesses: int = 20,
            flood_sessions: int = 60) -> dict:
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        if backend == "redis":
            from tests.servers import running_redis

            url, _process = stack.enter_context(running_redis(cpus=server_cpus))
            env = {"TRANSFORMER_EXPLORER_REDIS_URL": url}
            servers = [stack.enter_context(streamlit_server(env=env, keep_log=True, cpus=server_cpus)),
                       stack.enter_context(streamlit_server(env=env, keep_log=True, cpus=server_cpus))]
        else:
            servers = [stack.enter_context(streamlit_server(env={"TRANSFORMER_EXPLORER_REDIS_URL": ""}, keep_log=True,
                                                            cpus=server_cpus))]
        if browser_cpus:
            os.sched_setaffinity(0, browser_cpus)  # this script, Playwright's driver and Chromium inherit it
        playwright = stack.enter_context(sync_playwright())
        browser = launch(playwright)
        stack.callback(browser.close)
        cpu_before = [cpu_seconds(s.pid) for s in servers]
        started = time.monotonic()
        try:
            result = run_class(browser, servers[0], servers[-1], phones, steps, evidence, protocol_phones,
                               bad_clients, guesses, flood_sessions)
        except TimeoutError as error:
            raise TimeoutError(f"{error} ({backend}); the pages as they were: {evidence}") from error
        wall = time.monotonic() - started
        result["cpu_s"] = [cpu_seconds(s.pid) - before for s, before in zip(servers, cpu_before, strict=True)]
        result["wall_s"] = wall
        result["peak_rss_mb"] = [peak_rss_bytes(s.pid) / 2**20 for s in servers]
        result["logs"] = [s.log for s in servers]
        result["tracebacks"] = [Path(s.log).read_text(encoding="utf-8", errors="replace").count("Traceback")
                                for s in servers]
    return result


def report(backend: str, phones: int, steps: int, result: dict) -> None:
    def line(name: str, values: list[float]) -> str:
        return (f"  {name:<26} p50 {percentile(values, 0.5):6.2f} s   p95 {percentile(values, 0.95):6.2f} s   "
                f"max {max(values):6.2f} s   (n={len(values)})")

    protocol = len(result["protocol_follow"]) // max(1, steps)
    print(f"\n{backend}: 1 teacher + {phones} Chromium phones + {protocol} protocol phones, {steps} step changes "
          f"({len(result['cpu_s'])} app server{'s' if len(result['cpu_s']) > 1 else ''})")
    print(line("follow (key -> phone)", result["follow"]))
    if result["delivery"]:
        print(line("  delivery (server's part)", result["delivery"]))
        print(line("    poll -> title (answer)", result["answer"]))
        print(line("  render (phone's part)", result["render"]))
        print(line("  key -> teacher's frame", result["teacher_send"]))
        low, median = result["clock_offset_min_median"]
        print(f"  clock check: a frame was handled here {1000 * low:.1f} ms (min) / {1000 * median:.0f} ms (median) "
              "after Chromium stamped it (never negative if the clocks agree)")
    if result["protocol_follow"]:
        print(line("follow, protocol phones", result["protocol_follow"]))
        if result["protocol_delivery"]:
            print(line("  delivery (server's part)", result["protocol_delivery"]))
        print(f"  protocol phones' errors: {len(result['protocol_errors'])} {result['protocol_errors'][:2]}")
    print(line("teacher's own step", result["teacher_step"]))
    print(line("answer count (tap -> panel)", result["answer_count"]))
    for i, (cpu, rss) in enumerate(zip(result["cpu_s"], result["peak_rss_mb"], strict=True)):
        log = Path(result["logs"][i])
        print(f"  server {i + 1}: CPU {cpu:6.1f} s over {result['wall_s']:.0f} s "
              f"({100 * cpu / result['wall_s']:.0f} % of one core), peak memory {rss:.0f} MB; "
              f"its output {log.stat().st_size / 1024:.0f} KiB ({log})")
    print(f"  stalled polls the phones' watchdog restarted: {result['resyncs']}")
    ratio = statistics.median(result["follow"]) / statistics.median(result["teacher_step"])
    if result["delivery"]:
        print(f"  delivery p95 <= 2 s: {'yes' if percentile(result['delivery'], 0.95) <= 2.0 else 'NO'}")
    print(f"  follow p95 <= 2 s: {'yes' if percentile(result['follow'], 0.95) <= 2.0 else 'NO'}; "
          f"follow p50 / teacher's step p50 = {ratio:.2f}")


def report_bad(result: dict) -> bool:
    """What the bad clients were told and did to the class; True if every check held."""
    from benchmarks.bad_clients import expected

    checks = result["bad"]
    texts = expected(checks["code"])
    ok = True

    def verdict(good: bool) -> str:
        nonlocal ok
        ok = ok and good
        return "yes" if good else "NO"

    print("  bad clients:")
    good, shown = checks["step1_answers_good"], checks["step1_answers_shown"]
    print(f"    teacher's answer count at step 1: {shown} for {good} good answers (highest count ever shown "
          f"{checks['answers_seen_max']}): correct {verdict(shown == good and checks['answers_seen_max'] == good)}")
    later = checks["question_steps"]
    print(f"    at the later question steps (no good answers), the count shown: {later}: "
          f"all 0 {verdict(all(n == 0 for _, n in later))}")
    answers = checks["bad_answers"]
    normal = [a for a in answers if "moved on" not in a["what"]]
    late = [a for a in answers if "moved on" in a["what"]]
    waiting = sum(texts["class.pick_and_wait"] in a["said"] for a in normal)
    kinds = sorted({a["what"] for a in normal})
    told_other = sorted({x for a in answers for x in a["said"]
                         if x in (texts["class.error.bad_answer"], texts["class.error.closed"],
                                  texts["class.error.moved_on"])})
    print(f"    bad answers sent: {len(answers)} ({len(normal)} at question steps: {kinds}; "
          f"{len(late)} late); runs whose caption still says '{texts['class.pick_and_wait']}': {waiting} of "
          f"{len(normal)} {verdict(waiting == len(normal))}")
    late_alerts = sorted({x for a in late for x in a["alerts"]})
    told_moved_on = all(a["alerts"] == [texts["class.error.moved_on"]] for a in late)
    print(f"    the late answers (step 1's option sent at step 2, a page run): alerts {late_alerts or 'none'}: "
          f"class.error.moved_on {verdict(told_moved_on)}; refusal messages in all bad answers' runs: "
          f"{told_other or 'none'}")
    exceptions = checks["answerer_exceptions"]
    print(f"    bad answerers: exception elements {len(exceptions)} {exceptions[:2]}, websockets the server closed "
          f"{len(checks['answerer_broken'])} {verdict(not exceptions and not checks['answerer_broken'])}")
    limit = lc.JOIN_FAILURES_PER_WINDOW
    for i, guesser in enumerate(checks["guessers"], start=1):
        told = guesser["told"]
        right = [n for n, _, said in told
                 if said == [texts["class.error.unknown" if n <= limit else "class.error.rate_limited"]]]
        wrong = [(n, how, said) for n, how, said in told if n not in right]
        limited = sum(1 for n, _, _ in told if n > limit)
        print(f"    guesser {i}: {len(told)} codes (link and box in turn, 3 malformed): "
              f"{sum(1 for n, _, _ in told if n <= limit and n in right)} of {len(told) - limited} told 'unknown', "
              f"{sum(1 for n in right if n > limit)} of {limited} "
              f"later ones told 'rate limited'; as expected {verdict(not wrong)} {wrong[:2]}; exceptions "
              f"{len(guesser['exceptions'])}, closed {guesser['broken'] or 'no'} "
              f"{verdict(not guesser['exceptions'] and not guesser['broken'])}")
    flood = checks["flood"]
    followed = sum(f["followed"] for f in flood)
    leavers = [f for f in flood if f["left"] is not None]
    left = sum(bool(f["left"]) for f in leavers)
    problems = [f for f in flood if f["exceptions"] or f["broken"] or f["error"]]
    seconds = [f["seconds"] for f in flood]
    said = [f["error"] or f["exceptions"][:1] or f["broken"] for f in problems][:2]
    print(f"    flood of joins: {len(flood)} sessions ({2 * len(checks['guessers'])} at a time): followed {followed}, "
          f"left by the button {left} of {len(leavers)} (the rest closed), a session p50 "
          f"{percentile(seconds, 0.5):.1f} s / max {max(seconds):.1f} s; problems {len(problems)} {said} "
          f"{verdict(followed == len(flood) and left == len(leavers) and not problems)}")
    print(f"    students following on the teacher's panel during the steps: max {max(checks['following_shown'])}, "
          f"at the end {checks['following_end']} (the class: {good} + {len(checks['guessers'])} bad answerers; "
          "flooders that closed without leaving count for up to a minute)")
    for i, (before, after, peak0, peak1) in enumerate(zip(checks["rss_before_mb"], checks["rss_after_mb"],
                                                          checks["peak_before_mb"], checks["peak_after_mb"],
                                                          strict=True)):
        rounds = [round(r[i]) for r in checks["memory_by_round"]]
        print(f"    server {i + 1} memory: resident {before:.0f} MB before the bad clients, {after:.0f} MB after; "
              f"peak {peak0:.0f} MB before, {peak1:.0f} MB after; after each flood round {rounds} MB")
    print(f"    tracebacks in the servers' output: {result['tracebacks']} {verdict(not any(result['tracebacks']))}")
    print(f"    every bad-input check held: {'yes' if ok else 'NO'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--protocol-phones", type=int, default=0,
                        help="more phones as protocol clients (benchmarks/protocol_follower.py), not browsers")
    parser.add_argument("--steps", type=int, default=20, help="step changes (at most 21: the lesson has 22 steps)")
    parser.add_argument("--backend", choices=["both", "memory", "redis"], default="both")
    parser.add_argument("--bad-clients", type=int, default=0,
                        help="N bad answerers, N code guessers and a flood of joins beside the class "
                             "(benchmarks/bad_clients.py)")
    parser.add_argument("--guesses", type=int, default=20, help="unknown codes each guesser tries")
    parser.add_argument("--flood-sessions", type=int, default=60, help="sessions in the flood of joins")
    parser.add_argument("--json", action="store_true", help="print the raw latencies as JSON too")
    parser.add_argument("--server-cpus", default="", help="processors for the app servers and redis-server, e.g. 0")
    parser.add_argument("--browser-cpus", default="", help="processors for Chromium and this script, e.g. 1")
    parser.add_argument("--evidence", default=str(Path(tempfile.gettempdir()) / "live_class_evidence"),
                        help="where a timed-out run saves the pages' screenshots and text")
    args = parser.parse_args()
    if not chromium_available():
        print("/usr/bin/chromium is missing (apt-get install -y chromium fonts-noto-cjk)", file=sys.stderr)
        return 2
    steps = min(args.steps, len(lesson.lesson_steps()) - 1)
    backends = ["memory", "redis"] if args.backend == "both" else [args.backend]
    results = {}
    server_cpus = {int(c) for c in args.server_cpus.split(",") if c} or None
    browser_cpus = {int(c) for c in args.browser_cpus.split(",") if c} or None
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}: {args.phones} phones, {steps} step changes; "
          f"{os.cpu_count()} processors, servers on {sorted(server_cpus) if server_cpus else 'any'}, "
          f"browsers on {sorted(browser_cpus) if browser_cpus else 'any'}")
    for backend in backends:
        results[backend] = measure(backend, args.phones, steps, Path(args.evidence) / backend, server_cpus,
                                   browser_cpus, args.protocol_phones, args.bad_clients, args.guesses,
                                   args.flood_sessions)
        report(backend, args.phones, steps, results[backend])
        if args.bad_clients:
            report_bad(results[backend])
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
