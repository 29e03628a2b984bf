"""What one following phone's /lesson page run costs the server, with and without the per-server step caches
(explorer/lesson_service.py: shared_step_view and shared_qr_png), measured in ONE run on the same machine.

N phones (Streamlit AppTest sessions in this process, each joined to one live class on the in-process store)
follow the class through S step changes; after each change every phone reruns its page, as the poll makes it do.
  unshared  the caches are emptied before every page run: each phone builds the step's view and QR code itself
            (what every phone paid before the caches);
  shared    the caches are kept: the first phone on a step builds them, the others reuse them.
Measured: the CPU seconds of the script thread per page run (time.thread_time around ScriptRunner._run_script),
for the whole run and for the lesson page's own part (app.py's frame and the sidebar excluded). AppTest adds a
fixed cost to every whole run that a real server does not pay (it starts each run in Streamlit's legacy pages
mode and recompiles the scripts), so the whole-run ratio understates the server's gain; the page part does not.

Usage (from the repository root):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/lesson_page_cost.py [--phones 5] [--steps 2,3,5,8,11,14,17,20]
        [--model ko-en-toy] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent
TEXT = "고양이가 공원에서 생선을 먹었다."
LESSON_PAGE = "lesson.py"


class ThreadCpu:
    """CPU seconds of the script thread per whole run, and of the lesson page's part of it."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.runs: list[float] = []
        self.pages: list[float] = []

    def install(self) -> None:
        from streamlit.navigation.page import StreamlitPage
        from streamlit.runtime.scriptrunner import script_runner

        run_script, page_run = script_runner.ScriptRunner._run_script, StreamlitPage.run
        meter = self

        def timed_script(runner, rerun_data):
            start = time.thread_time()
            meter.local.page = 0.0
            try:
                return run_script(runner, rerun_data)
            finally:
                meter.runs.append(time.thread_time() - start)
                meter.pages.append(meter.local.page)

        def timed_page(page):
            if not str(getattr(page, "_page", "")).endswith(LESSON_PAGE):
                return page_run(page)
            start = time.thread_time()
            try:
                return page_run(page)
            finally:
                meter.local.page = getattr(meter.local, "page", 0.0) + time.thread_time() - start

        script_runner.ScriptRunner._run_script = timed_script
        StreamlitPage.run = timed_page

    def take(self) -> tuple[list[float], list[float]]:
        runs, pages = self.runs, self.pages
        self.runs, self.pages = [], []
        return runs, pages


def empty_caches() -> None:
    from explorer import lesson_service

    lesson_service.STEP_VIEWS.clear()
    lesson_service.QR_PNGS.clear()


def measure(phones: int, steps: list[int], model: str) -> dict:
    from streamlit.testing.v1 import AppTest

    from explorer import class_view

    meter = ThreadCpu()
    meter.install()
    classes = class_view.live_classes()
    code, secret = classes.start(1, TEXT, model, "한국어")
    sessions = []
    for _ in range(phones):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
        at.query_params.update({"model": model, "text": TEXT, "lang": "한국어"})
        at.run()
        at.switch_page("pages/lesson.py")
        at.query_params["class"] = code
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        sessions.append(at)
    for number in steps:  # warm-up: the trace, the model, Python's imports; then a clean start for each mode
        classes.update(code, secret, step=number, text=TEXT, model=model)
        sessions[0].run()
    meter.take()
    result: dict = {"phones": phones, "steps": len(steps), "model": model}
    for mode in ("unshared", "shared", "unshared_again"):
        empty_caches()
        titles = []
        for number in steps:
            classes.update(code, secret, step=number, text=TEXT, model=model)
            for at in sessions:
                if mode.startswith("unshared"):
                    empty_caches()
                at.run()
                assert not at.exception, [e.value for e in at.exception]
                titles.append(at.subheader[0].value if len(at.subheader) else "")
        runs, pages = meter.take()
        assert all(title.startswith(f"{n}단계") for title, n in
                   zip(titles, [n for n in steps for _ in sessions], strict=True)), titles[:3]
        result[mode] = {"run_cpu_s_mean": statistics.fmean(runs), "run_cpu_s_median": statistics.median(runs),
                        "page_cpu_s_mean": statistics.fmean(pages), "page_cpu_s_median": statistics.median(pages),
                        "runs": len(runs)}
    unshared = (result["unshared"]["page_cpu_s_mean"] + result["unshared_again"]["page_cpu_s_mean"]) / 2
    unshared_run = (result["unshared"]["run_cpu_s_mean"] + result["unshared_again"]["run_cpu_s_mean"]) / 2
    result["page_ratio_unshared_over_shared"] = unshared / result["shared"]["page_cpu_s_mean"]
    result["run_ratio_unshared_over_shared"] = unshared_run / result["shared"]["run_cpu_s_mean"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--steps", default="2,3,5,8,11,14,17,20")
    parser.add_argument("--model", default="ko-en-toy")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.phones, [int(s) for s in args.steps.split(",")], args.model)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.phones} following phones x {result['steps']} step changes, {args.model}; CPU s of the script "
          f"thread per page run (mean / median)")
    for mode in ("unshared", "shared", "unshared_again"):
        r = result[mode]
        print(f"  {mode:15s} whole run {r['run_cpu_s_mean']:.3f} / {r['run_cpu_s_median']:.3f}   "
              f"lesson page {r['page_cpu_s_mean']:.3f} / {r['page_cpu_s_median']:.3f}   ({r['runs']} runs)")
    print(f"  unshared / shared: lesson page x{result['page_ratio_unshared_over_shared']:.1f}, "
          f"whole run x{result['run_ratio_unshared_over_shared']:.1f}")


if __name__ == "__main__":
    main()
