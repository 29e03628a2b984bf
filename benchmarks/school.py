"""A school on one machine: Redis, TWO app servers and TWO lab workers (`python -m transformer_core worker`).

1. /encoder pages (ko-en-toy, each with a new sentence) loaded until fully drawn, alternately on the two servers,
   one after another in headless Chromium, with nothing training: the baseline per server.
2. Two different recipes started at once through the queue (default: ko-en class seed 0 and seed 1, 120 s); they
   must train at the same time on the two workers (checked: both running, on different workers).
3. The same page loads while both train. Goal: each server's median <= 1.5 x its idle median.
4. Both runs' final figures (steps, seconds, held-out exact match / alignment, which worker).

    PYTHONPATH=$PWD:$PWD/benchmarks python benchmarks/school.py [--pages 6] [--budget 120]
    PYTHONPATH=$PWD:$PWD/benchmarks python benchmarks/school.py --quick   # shortest settings: does it run?

The workers run at niceness +10 (their default), the servers at 0, as a school machine would run them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from lab_pages import encoder_heatmaps, encoder_load, new_sentences

import transformer_core as core
from tests.browser_helpers import TIMING_INIT_SCRIPT, chromium_available, launch, streamlit_server
from tests.servers import running_redis, stop_process
from transformer_core.training.jobs import ACTIVE, RUNNING
from transformer_core.training.queue import RedisJobManager
from transformer_core.training.recipes import LabRecipe

ROOT = Path(__file__).resolve().parent.parent


def start_worker(url: str, lab_models: str, name: str) -> subprocess.Popen:
    env = {**os.environ, "TRANSFORMER_EXPLORER_REDIS_URL": url, "TRANSFORMER_EXPLORER_LAB_MODELS": lab_models}
    return subprocess.Popen([sys.executable, "-m", "transformer_core", "worker", "--name", name], cwd=ROOT, env=env)


def stop(process: subprocess.Popen) -> None:
    stop_process(process, timeout=20)


def load_pages(tab, servers: list[str], model: str, sentences: list[str], heatmaps: int) -> dict[str, list[float]]:
    """Each sentence on the next server in turn (a new sentence each time: no trace cache hit)."""
    times: dict[str, list[float]] = {server: [] for server in servers}
    for i, sentence in enumerate(sentences):
        server = servers[i % len(servers)]
        times[server].append(encoder_load(tab, server, model, sentence, heatmaps))
    return times


def run_summary(status: dict) -> dict:
    metrics = status["metrics"]
    return {"recipe": status["recipe"].name, "state": status["state"], "worker": status["worker"],
            "steps": status["step"], "seconds": round(status["seconds"], 1),
            "exact_match": metrics.get("exact_match"), "alignment": metrics.get("lab_alignment"),
            "error": status["error"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=6, help="page loads per server and phase")
    parser.add_argument("--budget", type=int, default=120)
    parser.add_argument("--quick", action="store_true",
                        help="shortest settings (2 pages per server, two tiny letter recipes, 30 s): a smoke run")
    args = parser.parse_args()
    if not chromium_available():
        print("!!! /usr/bin/chromium is missing: nothing measured")
        return 1
    from playwright.sync_api import sync_playwright

    pages, budget = (2, 30) if args.quick else (args.pages, args.budget)
    recipes = ([LabRecipe("copy", "tiny", budget_s=budget), LabRecipe("sort", "tiny", budget_s=budget)] if args.quick
               else [LabRecipe("ko-en", "class", budget_s=budget, seed=0), LabRecipe("ko-en", "class", budget_s=budget,
                                                                                       seed=1)])
    model = core.DEFAULT_MODEL
    heatmaps = encoder_heatmaps(model)
    sentences = new_sentences(4 * pages + 2)
    lab_models = tempfile.mkdtemp(prefix="school-")
    report: dict = {"model": model, "pages_per_server": pages, "quick": args.quick,
                    "load_average_start": os.getloadavg()}
    with ExitStack() as stack:
        url, _redis = stack.enter_context(running_redis())
        env = {"TRANSFORMER_EXPLORER_REDIS_URL": url, "TRANSFORMER_EXPLORER_LAB_MODELS": lab_models,
               "STREAMLIT_SERVER_COOKIE_SECRET": "school-benchmark"}
        servers = [stack.enter_context(streamlit_server(env=env)) for _ in range(2)]
        workers = [start_worker(url, lab_models, f"worker-{i + 1}") for i in range(2)]
        for worker in workers:
            stack.callback(stop, worker)
        playwright = stack.enter_context(sync_playwright())
        browser = launch(playwright)
        stack.callback(browser.close)
        tab = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        tab.add_init_script(TIMING_INIT_SCRIPT)
        for i, server in enumerate(servers):  # warm up each server: model load, plotly bundle
            encoder_load(tab, server, model, sentences[-1 - i], heatmaps)
        idle = load_pages(tab, servers, model, sentences[:2 * pages], heatmaps)
        report["load_average_idle"] = os.getloadavg()

        queue = RedisJobManager(url)
        jobs = [queue.submit(recipe, session=f"teacher-{i}") for i, recipe in enumerate(recipes)]
        deadline = time.monotonic() + 300
        while not all(job.status()["state"] == RUNNING and job.status()["step"] > 0 for job in jobs):
            if time.monotonic() > deadline or any(job.status()["state"] not in ACTIVE for job in jobs):
                print("!!! the two runs did not train at once:", [run_summary(job.status()) for job in jobs])
                return 1
            time.sleep(0.5)
        together = {job.status()["worker"] for job in jobs}
        report["trained_at_once_on"] = sorted(together)
        busy = load_pages(tab, servers, model, sentences[2 * pages:4 * pages], heatmaps)
        report["still_training_after_pages"] = [job.status()["state"] == RUNNING for job in jobs]
        report["load_average_busy"] = os.getloadavg()
        for job in jobs:
            queue.wait(job, timeout=budget + 600)
        report["runs"] = [run_summary(job.status()) for job in jobs]
    ratios = {}
    for n, server in enumerate(servers, 1):
        ratios[f"server{n}"] = {"idle_s": [round(x, 2) for x in idle[server]],
                                "busy_s": [round(x, 2) for x in busy[server]],
                                "ratio": round(statistics.median(busy[server]) / statistics.median(idle[server]), 2)}
    report["servers"] = ratios
    print(json.dumps(report, ensure_ascii=False, default=str))
    if len(together) != 2:
        print(f"!!! both runs were on {together}: not two workers at once")
    for name, figures in ratios.items():
        print(f"{name}: /encoder median {statistics.median(figures['idle_s']):.2f} s idle, "
              f"{statistics.median(figures['busy_s']):.2f} s while two runs train: x{figures['ratio']:.2f} "
              f"(goal <= 1.5: {'OK' if figures['ratio'] <= 1.5 else 'MISSED'})")
    for run in report["runs"]:
        print(f"run {run['recipe']} on {run['worker']}: {run['state']}, {run['steps']} steps in {run['seconds']} s, "
              f"exact {run['exact_match']}, alignment {run['alignment']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
