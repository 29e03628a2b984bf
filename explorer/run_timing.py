"""Where a script run's time goes: wall-clock and CPU time of named parts of a run, logged one line per part
when TRANSFORMER_EXPLORER_RUN_TIMING=1 is set in the server's environment (a measuring aid: off by default, and
then a part costs one environment check made at import). No streamlit here.

    with timed("lesson.step_view"):
        view = shared_step_view(...)

A line reads `run-timing part=lesson.step_view wall_ms=1.9 cpu_ms=1.8 end=12345.678 thread=140…`: `end` is
time.monotonic() when the part ended (Chromium's DevTools timestamps use the same clock on Linux, so
benchmarks/live_class.py can place a part between a phone's frames), `cpu_ms` the script thread's own CPU time
(time.thread_time: what the part cost; `wall_ms` minus `cpu_ms` is the time it waited, e.g. for the GIL while
other sessions' runs went on). `summarise()` turns the lines into a table per part.
"""

from __future__ import annotations

import logging
import os
import re
import statistics
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

ENV = "TRANSFORMER_EXPLORER_RUN_TIMING"
ENABLED = os.environ.get(ENV, "").strip() not in {"", "0", "false", "no"}
LOGGER = logging.getLogger("explorer.run_timing")
LINE = re.compile(r"run-timing part=(?P<part>\S+) wall_ms=(?P<wall>[\d.]+) cpu_ms=(?P<cpu>[\d.]+) "
                  r"end=(?P<end>[\d.]+) thread=(?P<thread>\d+)")

if ENABLED and not LOGGER.handlers:
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("%(message)s"))
    LOGGER.addHandler(_handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False


@contextmanager
def timed(part: str) -> Iterator[None]:
    """Time the block as `part` (when enabled; otherwise nothing at all)."""
    if not ENABLED:
        yield
        return
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        yield
    finally:
        LOGGER.info("run-timing part=%s wall_ms=%.2f cpu_ms=%.2f end=%.4f thread=%d", part,
                    1000 * (time.perf_counter() - wall), 1000 * (time.thread_time() - cpu), time.monotonic(),
                    threading.get_ident())


@dataclass(frozen=True)
class PartTime:
    part: str
    wall_ms: float
    cpu_ms: float
    end: float


def parse(lines: Iterable[str]) -> list[PartTime]:
    """The timed parts in a server's log (other lines are skipped)."""
    found = []
    for line in lines:
        match = LINE.search(line)
        if match:
            found.append(PartTime(match["part"], float(match["wall"]), float(match["cpu"]), float(match["end"])))
    return found


def summarise(parts: Iterable[PartTime]) -> list[tuple[str, int, float, float, float]]:
    """Per part, in order of first appearance: (part, count, median wall ms, median CPU ms, total CPU ms)."""
    by_part: dict[str, list[PartTime]] = {}
    for item in parts:
        by_part.setdefault(item.part, []).append(item)
    return [(name, len(items), statistics.median(i.wall_ms for i in items),
             statistics.median(i.cpu_ms for i in items), sum(i.cpu_ms for i in items))
            for name, items in by_part.items()]
