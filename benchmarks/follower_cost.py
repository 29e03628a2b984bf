"""What following phones cost one app server, measured in ONE run with Streamlit's post-run garbage collection on
(Streamlit's default) and off (.streamlit/config.toml's `runner.postScriptGC = false`):

  * polling: the server's CPU seconds per second per following phone while the class stands still (each phone's
    st.fragment poll runs once a second, explorer/class_view.py POLL_S);
  * a step change: the server's CPU seconds per phone per step change, above that polling (the polling measured
    before is subtracted: where polling dominates, as with the collection on, this figure is within its noise).

N phones (headless Chromium, 390x844, Korean UI) follow one class on a server that uses a real redis-server as its
store, so that this process moves the class itself (explorer.live_class.LiveClasses on the same Redis) and no
teacher's browser shares the CPU. The two settings run one after the other on fresh servers; the server's CPU is
read from /proc (its process tree). A 30-phone server has 2 cores: the polling figure x 30 is the share of them
the polls take.

Usage (from the repository root; tests/ holds the browser helpers):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/follower_cost.py [--phones 5] [--idle 15] [--steps 6] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time

from tests.browser_helpers import chromium_available, cpu_seconds, launch, streamlit_server

MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."


def shows_step(page, number: int) -> None:
    page.wait_for_selector(f"[data-testid=stMain] h3:has-text('{number}단계')", timeout=120_000)


def measure_server(browser, redis_url: str, post_script_gc: bool, phones: int, idle_s: float, steps: int) -> dict:
    from explorer import live_class
    from transformer_core.store.redis_store import RedisStore

    env = {"TRANSFORMER_EXPLORER_REDIS_URL": redis_url, "STREAMLIT_RUNNER_POST_SCRIPT_GC": str(post_script_gc).lower()}
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(streamlit_server(env=env))
        classes = live_class.LiveClasses(RedisStore(redis_url))
        code, secret = classes.start(1, TEXT, MODEL, "한국어")
        pages = []
        for _ in range(phones):
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ko-KR")
            stack.callback(context.close)
            page = context.new_page()
            page.goto(f"{server}/lesson?class={code}&model={MODEL}&text={TEXT}", timeout=180_000)
            pages.append(page)
        for page in pages:
            page.wait_for_selector(".st-key-class_follower_bar", timeout=180_000)
        for number in (2, 3):  # warm: the trace, the imports, the first step views
            classes.update(code, secret, step=number, text=TEXT, model=MODEL)
            for page in pages:
                shows_step(page, number)
        time.sleep(2.0)
        cpu, started = cpu_seconds(server.pid), time.monotonic()
        time.sleep(idle_s)
        poll_cpu, poll_wall = cpu_seconds(server.pid) - cpu, time.monotonic() - started
        per_second = poll_cpu / poll_wall
        cpu, started = cpu_seconds(server.pid), time.monotonic()
        for number in range(4, 4 + steps):
            classes.update(code, secret, step=number, text=TEXT, model=MODEL)
            for page in pages:
                shows_step(page, number)
            time.sleep(2.0)  # the phones' page runs end (the title shows before the run is over)
        step_cpu, step_wall = cpu_seconds(server.pid) - cpu, time.monotonic() - started
        with contextlib.suppress(Exception):
            classes.end(code, secret)
    above_polling = step_cpu - per_second * step_wall
    return {"post_script_gc": post_script_gc, "phones": phones, "steps": steps,
            "poll_cpu_s_per_phone_second": per_second / phones,
            "step_cpu_s_per_phone": above_polling / steps / phones,
            "idle_cpu_s": poll_cpu, "idle_wall_s": poll_wall, "steps_cpu_s": step_cpu, "steps_wall_s": step_wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--idle", type=float, default=15.0, help="seconds of polling measured")
    parser.add_argument("--steps", type=int, default=6, help="step changes measured (at most 18)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not chromium_available():
        print("/usr/bin/chromium is missing (apt-get install -y chromium fonts-noto-cjk)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from tests.servers import running_redis

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    steps = max(1, min(args.steps, 18))
    results = []
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}: {args.phones} following phones, {args.idle:.0f} s of polling, "
          f"{steps} step changes, per setting")
    with running_redis() as (redis_url, _process), sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for post_script_gc in (True, False):
                result = measure_server(browser, redis_url, post_script_gc, args.phones, args.idle, steps)
                results.append(result)
                print(f"  runner.postScriptGC={str(post_script_gc).lower():5s}  polling "
                      f"{result['poll_cpu_s_per_phone_second']:.4f} CPU s per phone per second "
                      f"(x30 phones: {30 * result['poll_cpu_s_per_phone_second']:.2f} cores);  a step change "
                      f"{result['step_cpu_s_per_phone']:.3f} CPU s per phone")
        finally:
            browser.close()
    on, off = results
    print(f"  on / off: polling x{on['poll_cpu_s_per_phone_second'] / off['poll_cpu_s_per_phone_second']:.1f}, "
          f"step change x{on['step_cpu_s_per_phone'] / max(off['step_cpu_s_per_phone'], 1e-9):.1f}")
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
