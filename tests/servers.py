"""Real servers for tests: redis-server on a free loopback port, stopped when the test session ends; a real lab
worker process.

No fakes: the Redis backends (live classes, the lab's queue) are tested against Debian's redis-server,
which `.ci/run` installs. Without it the Redis tests are skipped with the reason, except under CI=true,
where a missing redis-server fails the run.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


# Under pytest-xdist (`make test` runs two workers) each worker takes its ports from its own block below the
# kernel's ephemeral range (32768-60999 on Linux), so two workers never pick the same free port at once and no
# outgoing connection (Chromium to a server) takes one between the pick and the server's bind.
PORT_BLOCK = 2000
FIRST_BLOCK = 20000


def free_port() -> int:
    """A TCP port nobody listens on now on 127.0.0.1: the OS picks it, or, in an xdist worker (PYTEST_XDIST_WORKER
    gwN), a random free one of that worker's block."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    candidates = [0]
    if worker.startswith("gw") and worker[2:].isdigit():
        start = FIRST_BLOCK + PORT_BLOCK * (int(worker[2:]) % 6)
        candidates = random.sample(range(start, start + PORT_BLOCK), PORT_BLOCK)
    for port in candidates:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise OSError(f"no free port on 127.0.0.1 in {candidates[0]}..{candidates[0] + PORT_BLOCK}")


def require_binary(name: str, package: str) -> str:
    """The binary's path; skips the test without it (fails under CI=true, where .ci/run installs it)."""
    path = shutil.which(name) or (f"/usr/sbin/{name}" if os.path.exists(f"/usr/sbin/{name}") else None)
    if path:
        return path
    message = f"{name} not found (apt-get install -y {package})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {message}")
    pytest.skip(message)


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def stop_process(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGTERM, then SIGKILL if it has not ended within `timeout` seconds; waits until it is gone."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def running_redis(cpus: set[int] | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    """A fresh redis-server (no persistence, loopback only); yields its URL and process. `cpus`: the processors
    it may run on."""
    binary = require_binary("redis-server", "redis-server")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--protected-mode", "yes", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if cpus:
        os.sched_setaffinity(process.pid, cpus)
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        stop_process(process)


@contextlib.contextmanager
def lab_worker(url: str, lab_models: Path, name: str, *extra: str) -> Iterator[subprocess.Popen]:
    """A real lab worker (`python -m transformer_core worker`) on the Redis at `url`, saving into `lab_models`;
    stopped (SIGTERM, then SIGKILL after 20 s) when the block ends, unless the test ended it itself."""
    env = {**os.environ, "TRANSFORMER_EXPLORER_REDIS_URL": url, "TRANSFORMER_EXPLORER_LAB_MODELS": str(lab_models),
           "HF_HUB_OFFLINE": "1"}
    process = subprocess.Popen([sys.executable, "-m", "transformer_core", "worker", "--name", name, *extra],
                               cwd=ROOT, env=env)
    try:
        yield process
    finally:
        if process.poll() is None:
            stop_process(process, timeout=20)
