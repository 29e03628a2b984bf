"""Training pairs from worker processes (pair_workers.py): the same streams, seeded per worker, and closed."""

from __future__ import annotations

import pytest

from transformer_core.tasks import LengthLimit, task_named
from transformer_core.training import loop, pair_workers, recipes
from transformer_core.training.pair_workers import ParallelPairs


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_each_worker_sends_its_own_seeded_stream_in_order():
    vocab = task_named("reverse").tokenizer().get_vocab()
    chunk = 8
    # independent: each worker's stream written by this process with the worker's seed
    streams = [recipes.training_pairs("reverse", vocab, pair_workers.worker_seed(3, k), LengthLimit()) for k in (0, 1)]
    expected = [[], []]  # each worker's next chunk, drawn from its serial stream when needed
    taken = [0, 0]
    parallel = ParallelPairs("reverse", vocab, seed=3, limit=LengthLimit(), workers=2, chunk=chunk)
    try:
        for _ in range(400):  # until both have sent (the queue is bounded: the first cannot fill it forever)
            piece = [next(parallel) for _ in range(chunk)]
            for k in (0, 1):
                if not expected[k]:
                    expected[k] = [next(streams[k]) for _ in range(chunk)]
            owner = [k for k in (0, 1) if expected[k] == piece]
            assert len(owner) == 1, "a chunk that is the next chunk of no worker's stream"
            expected[owner[0]] = []
            taken[owner[0]] += 1
            if all(taken):
                break
    finally:
        parallel.close()
    assert all(taken), f"chunks per worker: {taken}"


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_the_length_limit_reaches_the_workers():
    vocab = task_named("reverse").tokenizer().get_vocab()
    limit = LengthLimit(5)
    parallel = ParallelPairs("reverse", vocab, seed=0, limit=limit, workers=1, chunk=16)
    try:
        for _ in range(16 * 8):  # chunks written before the change may still be queued; then the new limit holds
            next(parallel)
        limit.current = 64
        lengths = [len(next(parallel)[1]) for _ in range(16 * 40)]
    finally:
        parallel.close()
    assert max(lengths[:16]) <= 5
    assert max(lengths) > 32


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_close_stops_the_workers():
    vocab = task_named("reverse").tokenizer().get_vocab()
    parallel = ParallelPairs("reverse", vocab, seed=0, limit=None, workers=2, chunk=4)
    next(parallel)
    parallel.close()
    assert not any(process.is_alive() for process in parallel.processes)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_a_run_with_pair_workers_lowers_the_loss_and_leaves_no_worker():
    settings = recipes.TrainSettings(task="ko-en", steps=40, batch_size=16, peak_lr=3e-3, warmup=10, seed=0,
                                     threads=1, buckets=2, data_workers=2)
    config = recipes.build_config("ko-en", tiny=True, overrides={}, vocab_size=len(task_named("ko-en").tokenizer()))
    result = loop.train(settings, config, progress=False)
    losses = [row["loss"] for row in result.history]
    assert sum(losses[-5:]) / 5 < sum(losses[:5]) / 5 - 1.0
    import multiprocessing
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("training-pairs")]


def test_no_workers_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        ParallelPairs("reverse", {}, seed=0, limit=None, workers=0)
