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

Usage (from the repository root; tests/ holds the browser helpers):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/live_class.py [--phones 30] [--protocol-phones 0] [--steps 20]
        [--backend both|memory|redis] [--server-cpus 0] [--browser-cpus 1] [--json]
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
from explorer.figures import lesson
from tests.browser_helpers import (
    chromium_available,
    cpu_seconds,
    launch,
    page_url,
    peak_rss_bytes,
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


def first_question() -> lesson.Question:
    loaded = core.load(MODEL)
    data = lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT)
    return lesson.build_step(lesson.lesson_steps()[0], data, "ko").question


def run_class(browser, teacher_base: str, phone_base: str, phones: int, steps: int, evidence: Path,
              protocol_phones: int = 0) -> dict:
    """One class: join, answer the first question, then `steps` step changes. Returns the latencies (s).
    On a timeout the teacher's page and the late page are saved under `evidence` (screenshot and text)."""
    question = first_question()
    contexts = []
    swarm = None
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
        if protocol_phones:
            protocol_query = urlencode({"class": code, "lang": "한국어", "model": MODEL, "text": TEXT})  # the QR link
            swarm = ProtocolPhones(phone_base, protocol_query, protocol_phones)
            swarm.wait(lambda p: 1 in p.steps_seen and any(block.startswith("lesson_question_")
                                                           for block, _, _ in p.pills.values()),
                       600, "a protocol phone did not show step 1 and its question")
        everyone = phones + protocol_phones
        wait_until(lambda: f"따라오는 학생 {everyone}명" in teacher.inner_text(".st-key-class_teacher_panel"), 120,
                   f"the teacher did not see {everyone} students following")

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
            time.sleep(1.0)  # the class reads the step before the next one
        resyncs = sum(phone.evaluate("() => window.__classResyncs || 0") for phone in pages)
        offsets = [o for page in [teacher, *pages] for o in page.frame_clock.offsets]
        return {"follow": follow, "teacher_step": teacher_step, "answer_count": answer_latency, "resyncs": resyncs,
                "delivery": delivery, "answer": answer, "render": render, "teacher_send": teacher_send,
                "protocol_follow": protocol_follow, "protocol_delivery": protocol_delivery,
                "protocol_errors": [e for p in (swarm.phones if swarm else []) for e in p.errors],
                "clock_offset_min_median": [min(offsets), statistics.median(offsets)] if offsets else []}
    finally:
        if swarm:
            swarm.close()
        for context in contexts:
            with contextlib.suppress(Exception):
                context.close()


def measure(backend: str, phones: int, steps: int, evidence: Path, server_cpus: set[int] | None = None,
            browser_cpus: set[int] | None = None, protocol_phones: int = 0) -> dict:
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
            result = run_class(browser, servers[0], servers[-1], phones, steps, evidence, protocol_phones)
        except TimeoutError as error:
            raise TimeoutError(f"{error} ({backend}); the pages as they were: {evidence}") from error
        wall = time.monotonic() - started
        result["cpu_s"] = [cpu_seconds(s.pid) - before for s, before in zip(servers, cpu_before, strict=True)]
        result["wall_s"] = wall
        result["peak_rss_mb"] = [peak_rss_bytes(s.pid) / 2**20 for s in servers]
        result["logs"] = [s.log for s in servers]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--protocol-phones", type=int, default=0,
                        help="more phones as protocol clients (benchmarks/protocol_follower.py), not browsers")
    parser.add_argument("--steps", type=int, default=20, help="step changes (at most 21: the lesson has 22 steps)")
    parser.add_argument("--backend", choices=["both", "memory", "redis"], default="both")
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
                                   browser_cpus, args.protocol_phones)
        report(backend, args.phones, steps, results[backend])
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
