"""Training pairs drawn by worker processes: for a GPU, where one Python process cannot write sentences as fast
as the accelerator learns from them (the learner grammar writes about 3,600 pairs a second on one core).

Each worker runs the task's own stream (`recipes.training_pairs`) with its own seed and sends chunks of pairs
through a bounded queue; the training loop reads them as it reads the one-process stream. The order of the
chunks depends on the workers' timing, so a run with workers is not bit-for-bit repeatable (the one-process
stream stays the default). The length curriculum still applies: the loop's `LengthLimit` is copied to the
workers before each chunk is taken.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
from collections.abc import Iterator

from transformer_core.tasks import LengthLimit
from transformer_core.training.spawning import start_process

CHUNK = 256  # pairs per message: large enough that pickling is cheap next to writing the sentences
WAIT_S = 300.0  # a worker still building its grammar, or a slow machine; longer than that is a stuck worker
POLL_S = 2.0  # how often a waiting loop looks whether any worker is still alive


def worker_seed(seed: int, worker: int) -> int:
    """Worker `worker`'s stream seed: distinct streams, none equal to the one-process stream's `seed`."""
    return seed + (worker + 1) * 1_000_003


def _write_pairs(task: str, vocab: dict[str, int], seed: int, style_weights: tuple[int, ...], longest,
                 pairs_out, chunk: int) -> None:
    from transformer_core.training.recipes import training_pairs  # in the child: spawn imports afresh

    limit = LengthLimit(longest.value)
    pairs = training_pairs(task, vocab, seed, limit, style_weights)
    while True:
        limit.current = longest.value
        pairs_out.put([next(pairs) for _ in range(chunk)])


class ParallelPairs(Iterator):
    """Endless (source ids, target ids) pairs from `workers` processes; `close()` stops them."""

    def __init__(self, task: str, vocab: dict[str, int], seed: int, limit: LengthLimit | None,
                 style_weights: tuple[int, ...] = (), workers: int = 4, chunk: int = CHUNK) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        context = multiprocessing.get_context("spawn")  # never fork a process that may hold CUDA
        self.limit = limit if limit is not None else LengthLimit()
        self._longest = context.Value("i", self.limit.current)
        self._queue = context.Queue(maxsize=4 * workers)
        self._chunk: list = []
        self.processes = [
            context.Process(target=_write_pairs, daemon=True, name=f"training-pairs-{k}",
                            args=(task, vocab, worker_seed(seed, k), tuple(style_weights), self._longest,
                                  self._queue, chunk))
            for k in range(workers)]
        for process in self.processes:
            start_process(process)

    def __next__(self) -> tuple[list[int], list[int]]:
        if not self._chunk:
            self._longest.value = self.limit.current
            self._chunk = self._take()
            self._chunk.reverse()  # pop() from the end gives the pairs in the order the worker wrote them
        return self._chunk.pop()

    def _take(self) -> list:
        waited = 0.0
        while True:
            try:
                return self._queue.get(timeout=POLL_S)
            except queue_module.Empty:
                waited += POLL_S
            if not any(p.is_alive() for p in self.processes):
                codes = [p.exitcode for p in self.processes]
                raise RuntimeError(f"every training-pair worker stopped (exit codes {codes})")
            if waited >= WAIT_S:
                raise RuntimeError(f"no training pairs for {WAIT_S:.0f} s from {len(self.processes)} workers")

    def close(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(timeout=10)
        self._queue.cancel_join_thread()
        self._queue.close()
