"""The workers' side of the lab queue: `python -m transformer_core worker` (an RQ LabWorker) and the RQ job it
runs, `train_lab_job`: claim the run (a transaction: a job never trains twice), train it, send progress and
snapshots (messages.Outbox), save the model, write the result into the job hash."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import socket
import sys
import time
from collections.abc import Callable

import redis
from rq import Queue, get_current_job

from transformer_core.store import REDIS_URL_ENV
from transformer_core.training.jobs import CANCELLED, DONE, FAILED, QUEUED, RUNNING
from transformer_core.training.lab_run import FINAL_EVAL_N, STARTING
from transformer_core.training.queue.keys import KEEP_S, QUEUE_NAME, connect, job_key, text
from transformer_core.training.queue.liveness import LabWorker
from transformer_core.training.queue.messages import Outbox, StreamStore
from transformer_core.training.recipes import LabRecipe, lab_plan


def claim(client: redis.Redis, job_id: str, run: str, worker: str) -> bool:
    """Move the job from queued to running for this run and this worker; False if it is not queued for this run
    (stopped, taken, replaced): then the worker does not train it."""
    key = job_key(job_id)
    with client.pipeline() as pipe:
        try:
            pipe.watch(key)
            if text(pipe.hget(key, "run")) != run or text(pipe.hget(key, "state")) != QUEUED:
                pipe.unwatch()
                return False
            pipe.multi()
            now = time.time()
            pipe.hset(key, mapping={"state": RUNNING, "worker": worker, "started": now, "phase": STARTING,
                                    "phase_since": now})
            pipe.execute()
            return True
        except redis.WatchError:
            return False


def train_lab_job(job_id: str, run: str, recipe_fields: dict, eval_n: int = FINAL_EVAL_N,
                  work: Callable | None = None) -> dict:
    """The RQ job: claim the run, train it with `run_lab_recipe` on this worker's device, send progress and
    snapshots, save the model into this machine's lab-models folder, write the result into the job hash."""
    from transformer_core.io.loading import lab_models_dir
    from transformer_core.training.lab_run import run_lab_recipe
    from transformer_core.training.loop import NonFiniteLoss

    rq_job = get_current_job()
    client = rq_job.connection
    worker = LabWorker.current
    name = worker.name if worker is not None else socket.gethostname()
    if not claim(client, job_id, run, name):
        return {"trained": False}
    recipe = LabRecipe(**{**recipe_fields, "device": worker.device if worker is not None else "cpu"})
    outbox = Outbox(client, job_id, run)
    store = StreamStore(lab_plan(recipe).snapshot_every, outbox)
    result_fields: dict = {}
    state = FAILED
    try:
        outcome = (work or run_lab_recipe)(recipe, out=lab_models_dir() / recipe.name, store=store,
                                           on_progress=outbox.progress, should_stop=outbox.should_stop,
                                           eval_n=eval_n)
    except NonFiniteLoss as exc:
        result_fields["error"] = f"{exc}: the run cannot recover (try a smaller preset or another seed)"
    except Exception as exc:  # any failure ends this job only, with a message
        result_fields["error"] = f"{type(exc).__name__}: {exc}"
    else:
        state = CANCELLED if outcome.result.stopped else DONE
        result_fields.update(step=outcome.result.steps_done, seconds=outcome.result.seconds,
                             metrics=json.dumps(outcome.metrics), save_error=outcome.save_error,
                             model_dir=str(outcome.model_dir) if outcome.model_dir is not None else "",
                             device=outcome.device, device_notice=outcome.device_notice)
    outbox.flush()
    for _attempt in range(30):  # the result must reach Redis: wait for it a minute if it is away
        try:
            _end_run(client, job_id, run, state, result_fields)
            break
        except redis.RedisError:
            time.sleep(2)
    return {"trained": True, "state": state}


def _end_run(client: redis.Redis, job_id: str, run: str, state: str, fields: dict) -> None:
    key = job_key(job_id)
    with client.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)
                if text(pipe.hget(key, "run")) != run or text(pipe.hget(key, "state")) != RUNNING:
                    pipe.unwatch()  # a server already ended it (its worker was taken for dead): keep that
                    return
                pipe.multi()
                pipe.hset(key, mapping={"state": state, "finished": time.time(), **fields})
                pipe.expire(key, KEEP_S)
                pipe.execute()
                return
            except redis.WatchError:
                continue


def worker_main(argv: list[str] | None = None) -> int:
    """`python -m transformer_core worker`: an RQ worker that trains the lab's queued recipes."""
    # the package's docstring says how the lab's queue works; the package is loaded (it imported this module), and
    # reading it from sys.modules keeps the imports one-way (package -> worker, never back)
    package_doc = sys.modules[__package__].__doc__ if __package__ in sys.modules else __doc__
    parser = argparse.ArgumentParser(prog="python -m transformer_core worker", description=package_doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis", default=os.environ.get(REDIS_URL_ENV, ""),
                        help=f"Redis URL (default: ${REDIS_URL_ENV})")
    parser.add_argument("--device", default="cpu", help="cpu or cuda (a GPU box); cuda falls back to cpu, saying so")
    parser.add_argument("--name", default="", help="the worker's name on the page (default: host-pid)")
    parser.add_argument("--nice", type=int, default=10,
                        help="CPU priority offset (default 10: app servers on the same machine win the CPU)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty (tests)")
    args = parser.parse_args(argv)
    if not args.redis:
        print(f"error: no Redis URL: pass --redis URL or set {REDIS_URL_ENV}", file=sys.stderr)
        return 2
    if args.nice:
        with contextlib.suppress(OSError):
            os.nice(args.nice)
    import torch

    from transformer_core.inference.devices import resolve_device

    torch.set_num_threads(max(1, args.threads))
    device, notice = resolve_device(args.device)
    if notice:
        print(f"note: {args.device} is not available here; training on {device}", file=sys.stderr)
    client = connect(args.redis, timeout=10.0)
    try:
        client.ping()
    except (redis.ConnectionError, redis.TimeoutError) as error:
        print(f"error: Redis at {args.redis} is not reachable: {error}", file=sys.stderr)
        return 2
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    LabWorker.device = args.device
    worker = LabWorker([Queue(QUEUE_NAME, connection=client)], connection=client, name=name)
    logging.basicConfig(level=logging.WARNING)
    print(f"lab worker {name}: {device}, queue {QUEUE_NAME} on {args.redis}", flush=True)
    from rq.exceptions import StopRequested

    with contextlib.suppress(StopRequested, KeyboardInterrupt):  # a second signal while RQ shuts down
        worker.work(burst=args.burst, logging_level="WARNING", with_scheduler=False)
    return 0


main = worker_main  # `python -m transformer_core worker` (transformer_core/__main__.py's SUBCOMMANDS)
