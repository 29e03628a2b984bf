"""What one step change of a live class costs the app server per following phone, and how long it answers.

One teacher (1920x1080, projector mode) and N following phones (390x844), headless Chromium, Korean UI, one app
server with the in-process store, pinned to processor 0 (the browsers and this script to processor 1). After the
phones joined, the server's CPU is read over an idle window (polling only), then over K step changes (the
teacher's -> key; each waits until every phone shows the step, then 1 s). Printed:
  * server CPU ms per phone per step change, the idle polling's rate subtracted (the teacher's own run is
    counted in, divided among the phones);
  * websocket messages each phone received per step change (Chromium's DevTools log), the idle polling's rate
    subtracted;
  * the server's answer: from the phone's poll that found the step to the new title's frame (as in
    benchmarks/live_class.py), median and max.
CPU and message counts hold up on a busy machine better than latencies do; run the code to compare from its own
root (the server runs the app of the folder this script is started in).

Usage (from the repository root; tests/ holds the browser helpers):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/step_change_cost.py [--phones 4] [--steps 8] [--idle 8]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time

from benchmarks.live_class import CODE, MODEL, TEXT, first_question, new_page, page_url, wait_until
from tests.browser_helpers import chromium_available, cpu_seconds, launch, streamlit_server


def measure(phones: int, steps: int, idle_s: float) -> dict:
    from playwright.sync_api import sync_playwright

    question = first_question()
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(streamlit_server(env={"TRANSFORMER_EXPLORER_REDIS_URL": ""}, cpus={0}))
        os.sched_setaffinity(0, {1})  # this script, Playwright's driver and Chromium
        playwright = stack.enter_context(sync_playwright())
        browser = launch(playwright)
        stack.callback(browser.close)
        _, teacher = new_page(browser, 1920, 1080)
        teacher.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=1, present=1), timeout=120_000)
        teacher.locator(".st-key-class_start button").first.click(timeout=120_000)
        teacher.wait_for_selector(".class-code", timeout=60_000)
        code = CODE.search(teacher.inner_text(".class-code")).group(1)
        pages = []
        for _ in range(phones):
            _, phone = new_page(browser, 390, 844)
            phone.goto(f"{server}/lesson?class={code}&model={MODEL}&text={TEXT}", wait_until="commit",
                       timeout=120_000)
            pages.append(phone)
        for phone in pages:
            phone.wait_for_selector(f".st-key-lesson_question_{question.id} button", timeout=600_000)
        teacher.wait_for_function("() => window.__lessonKeys === true", timeout=60_000)
        received = [0]

        def count(_event: dict) -> None:
            received[0] += 1

        for phone in pages:
            session = phone.context.new_cdp_session(phone)
            session.on("Network.webSocketFrameReceived", count)
            session.send("Network.enable")
        # Playwright's wait, not time.sleep: DevTools events are handled only while Playwright runs (a sleep would
        # count the idle window's messages in the steps')
        teacher.wait_for_timeout(2000)
        cpu, frames, started = cpu_seconds(server.pid), received[0], time.monotonic()
        teacher.wait_for_timeout(1000 * idle_s)
        idle_rate = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - started)
        idle_messages = (received[0] - frames) / (time.monotonic() - started)
        cpu, frames, started = cpu_seconds(server.pid), received[0], time.monotonic()
        answers = []
        for number in range(2, 2 + steps):
            pressed = time.monotonic()
            teacher.keyboard.press("ArrowRight")
            for phone in pages:
                wait_until(lambda p=phone, k=str(number): p.evaluate(f"() => window.__stepSeen['{k}']"), 120,
                           f"a phone did not follow to step {number}")
            sent = teacher.frame_clock.first_sent_after(pressed)
            for phone in pages:
                title = phone.frame_clock.received.get(number)
                poll = phone.frame_clock.last_sent_before(title) if title is not None else None
                if poll is not None and sent is not None and poll >= sent:
                    answers.append(title - poll)
            teacher.wait_for_timeout(1000)
        wall = time.monotonic() - started
        step_cpu = cpu_seconds(server.pid) - cpu - idle_rate * wall
        step_messages = received[0] - frames - idle_messages * wall
        return {"cpu_ms": 1000 * step_cpu / (steps * phones), "messages": step_messages / (steps * phones),
                "answers": answers, "idle_cpu_s_per_s": idle_rate, "idle_messages_per_phone_s": idle_messages / phones}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--idle", type=float, default=8.0, help="seconds of polling measured before the steps")
    args = parser.parse_args()
    if not chromium_available():
        print("/usr/bin/chromium is missing (apt-get install -y chromium fonts-noto-cjk)", file=sys.stderr)
        return 2
    result = measure(args.phones, args.steps, args.idle)
    answers = result["answers"]
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.getcwd()}: {args.phones} phones, {args.steps} step changes; "
          f"polling {result['idle_cpu_s_per_s']:.3f} CPU s/s, "
          f"{result['idle_messages_per_phone_s']:.1f} messages per phone per second")
    print(f"  per phone per step change: {result['cpu_ms']:.0f} ms of server CPU, {result['messages']:.1f} messages")
    if answers:
        print(f"  answer (poll -> title): p50 {1000 * statistics.median(answers):.0f} ms, "
              f"max {1000 * max(answers):.0f} ms (n={len(answers)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
