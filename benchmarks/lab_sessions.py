"""Many students while the lab trains: ONE Streamlit server, N browser sessions at once (default 30).

1. The /train page's default run is started from a browser tab (ko-en, class, 120 s, seed 0; it trains in
   the lab's niced worker process); that tab then leaves the page (its redraws would share these cores).
2. N browser contexts (= N Streamlit sessions) open /encoder at once, each with a new sentence of the
   core grammar (no cache hit): all must draw completely with no exception or error box.
3. Peak resident memory of the server and its children (the training worker included): their summed
   VmRSS sampled every 0.25 s from /proc; and the run's final figures from its saved model dir.

Goal (issue 23): all drawn, no error, peak memory under 2 GB, the run's final figures reported.

    python benchmarks/lab_sessions.py [--sessions 30] [--budget 120]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from lab_pages import encoder_heatmaps, new_sentences  # benchmarks/ is on the path: this script's own folder

import transformer_core as core
from tests.browser_helpers import (
    chromium_available,
    launch,
    page_url,
    rss_bytes,
    streamlit_server,
)
from tests.test_sessions import wait_all_drawn
from transformer_core.training.recipes import meets_goal


def saved_run(folder: str, timeout: float) -> dict:
    """snapshots.json of the first run saved in `folder` ({} if none appears within `timeout` s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        index = next(Path(folder).glob("*/snapshots.json"), None)
        if index is not None:
            return json.loads(index.read_text())
        time.sleep(2.0)
    return {}


class MemorySampler(threading.Thread):
    """The largest resident memory of a process tree (the server and its training worker) seen every 0.25 s:
    VmHWM alone would lose the worker's peak once the worker has exited."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.25):
            self.peak = max(self.peak, rss_bytes(self.pid))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--budget", type=int, default=120)
    args = parser.parse_args()
    if not chromium_available():
        print("!!! /usr/bin/chromium is missing: nothing measured")
        return 1
    from playwright.sync_api import sync_playwright

    model = core.DEFAULT_MODEL
    heatmaps = encoder_heatmaps(model)
    sentences = new_sentences(args.sessions)
    lab_models = tempfile.mkdtemp(prefix="lab-sessions-")
    report: dict = {"model": model, "sessions": args.sessions, "load_average_start": os.getloadavg()}
    with streamlit_server(env={"TRANSFORMER_EXPLORER_LAB_MODELS": lab_models}, timeout=90) as server, \
            sync_playwright() as playwright:
        sampler = MemorySampler(server.pid)
        sampler.start()
        browser = launch(playwright)
        lab_tab = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        lab_tab.goto(page_url(server, "train", lang="English", budget=args.budget))
        lab_tab.locator(".st-key-lab_start button").click()
        lab_tab.get_by_text(re.compile(r"elapsed")).first.wait_for(timeout=120_000)  # training has begun
        lab_tab.goto("about:blank")
        run_started = time.monotonic()
        tabs = [browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                for _ in range(args.sessions)]
        start = time.perf_counter()
        for tab, sentence in zip(tabs, sentences, strict=True):  # every navigation first, then wait for all
            tab.goto(page_url(server, "encoder", model=model, text=sentence, lang="English"), wait_until="commit",
                     timeout=180_000)
        seconds = wait_all_drawn(tabs, [heatmaps] * args.sessions, start, timeout=900.0)
        report.update(all_drawn_s=round(max(seconds), 1), median_drawn_s=round(sorted(seconds)[len(seconds) // 2], 1),
                      drawn_while_training=time.monotonic() - run_started < args.budget,
                      load_average_busy=os.getloadavg())
        browser.close()
        # the worker process ends with the run; the server's own peak (VmHWM) stays readable
        info = saved_run(lab_models, args.budget + 300)
        sampler.done.set()
        sampler.join()
        report["peak_rss_mib"] = round(sampler.peak / 2**20)
    metrics = info.get("metrics", {})
    met = meets_goal("ko-en", metrics.get("exact_match", 0.0), metrics.get("lab_alignment", 0.0))
    report["run"] = {"steps": info.get("steps"), "seconds": info.get("seconds"), **metrics, "meets_goal": met}
    print(json.dumps(report, ensure_ascii=False))
    print(f"{args.sessions} sessions drawn, the last after {report['all_drawn_s']} s "
          f"(median {report['median_drawn_s']} s); peak memory of the server and its children "
          f"{report['peak_rss_mib']} MiB (goal < 2048)")
    print(f"the run: {info.get('steps')} steps in {info.get('seconds')} s; exact match "
          f"{metrics.get('exact_match', float('nan')):.1%}, alignment {metrics.get('lab_alignment', float('nan')):.1%}"
          + ("" if met else " (short of its goal)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
