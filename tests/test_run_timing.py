"""explorer/run_timing.py: a timed part logs one line that parse() reads back, and nothing when switched off."""

from __future__ import annotations

import logging
import time

from explorer import run_timing


def test_a_timed_part_logs_its_wall_and_cpu_time_and_parse_reads_it_back(monkeypatch, caplog):
    monkeypatch.setattr(run_timing, "ENABLED", True)
    monkeypatch.setattr(run_timing.LOGGER, "propagate", True)
    with caplog.at_level(logging.INFO, logger=run_timing.LOGGER.name):
        before = time.monotonic()
        with run_timing.timed("test.sleep"):
            time.sleep(0.05)  # waits: wall time, next to no CPU time
        after = time.monotonic()
    parts = run_timing.parse(record.getMessage() for record in caplog.records)
    assert [p.part for p in parts] == ["test.sleep"]
    assert parts[0].wall_ms >= 50.0
    assert parts[0].cpu_ms < parts[0].wall_ms - 40.0
    assert before <= parts[0].end <= after + 1e-3  # the monotonic clock Chromium's DevTools stamps use


def test_nothing_is_logged_when_switched_off(monkeypatch, caplog):
    monkeypatch.setattr(run_timing, "ENABLED", False)
    monkeypatch.setattr(run_timing.LOGGER, "propagate", True)
    with caplog.at_level(logging.DEBUG, logger=run_timing.LOGGER.name), run_timing.timed("test.off"):
        pass
    assert caplog.records == []


def test_summarise_gives_each_parts_count_medians_and_total():
    lines = [f"run-timing part={part} wall_ms={wall} cpu_ms={cpu} end=1.0 thread=7"
             for part, wall, cpu in [("a", 3.0, 1.0), ("b", 10.0, 4.0), ("a", 5.0, 2.0), ("a", 40.0, 6.0)]]
    assert run_timing.summarise(run_timing.parse(["unrelated line", *lines])) == [
        ("a", 3, 5.0, 2.0, 9.0), ("b", 1, 10.0, 4.0, 4.0)]
