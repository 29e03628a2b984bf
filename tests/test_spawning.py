"""Spawned children never run the parent's page script again (transformer_core/training/spawning.py).

Streamlit's script runner leaves a `__main__` whose `__file__` is the page; a 'spawn' child reruns such a file
before its target. Here the "page" writes a marker and exits with code 3, so a child that reruns it shows both.
Seen failing with the plain `process.start()` (2026-12-02): the first test's child ended with exit code 3; in the
second the parent blocked in popen_spawn_posix writing the pickled job to the dead child's pipe (the parent holds
the pipe's read end until the write ends, so no EPIPE), the hang `make test` met in two xdist workers.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import types

import pytest

from transformer_core.tasks import task_named
from transformer_core.training.pair_workers import ParallelPairs
from transformer_core.training.spawning import start_process


@pytest.fixture
def page_script_as_main(tmp_path, monkeypatch):
    """`__main__` as Streamlit's script runner installs it: a fresh module, no spec, `__file__` = the page."""
    marker = tmp_path / "page-ran"
    page = tmp_path / "page.py"
    page.write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(3)\n")
    fake_main = types.ModuleType("__main__")
    fake_main.__file__ = str(page)
    monkeypatch.setitem(sys.modules, "__main__", fake_main)
    return fake_main, marker


def test_a_spawned_child_runs_its_target_not_the_page(page_script_as_main):
    fake_main, marker = page_script_as_main
    process = multiprocessing.get_context("spawn").Process(target=os.getpid)
    start_process(process)
    process.join(60)
    assert process.exitcode == 0, f"the child ended with {process.exitcode} (3: it ran the page script)"
    assert not marker.exists()
    assert sys.modules["__main__"] is fake_main  # the page's module is back for the page's next run


@pytest.mark.timeout(180)  # without the stand-in the parent blocks for good writing to its dead child's pipe
def test_training_pair_workers_start_beside_a_page_script(page_script_as_main):
    _, marker = page_script_as_main
    vocab = task_named("reverse").tokenizer().get_vocab()
    parallel = ParallelPairs("reverse", vocab, seed=0, limit=None, workers=1, chunk=4)
    try:
        source, target = next(parallel)
    finally:
        parallel.close()
    assert source and target
    assert not marker.exists()


def test_a_main_with_an_import_name_is_left_alone(monkeypatch):
    named_main = types.ModuleType("__main__")
    named_main.__spec__ = types.SimpleNamespace(name="transformer_core.__main__")
    monkeypatch.setitem(sys.modules, "__main__", named_main)
    seen = []

    class RecordingProcess:
        def start(self):
            seen.append(sys.modules["__main__"])

    start_process(RecordingProcess())
    assert seen == [named_main]
