"""The lab's jobs on RQ (Redis Queue): one job per recipe across every app server, workers on any machine.

    export TRANSFORMER_EXPLORER_REDIS_URL=redis://redis.school:6379/0
    python -m transformer_core worker [--device cuda]    # any machine that reaches Redis and the lab-models folder
    manager = RedisJobManager(url)                       # each app server: the methods of jobs.JobManager

With TRANSFORMER_EXPLORER_REDIS_URL set the lab page uses `RedisJobManager` instead of the in-process
`jobs.JobManager`; both hand out `Job` objects with the same `status()`, so the page does not care which.

The package, one responsibility a module:
  keys.py      the names in Redis (under `te:lab:`), the connection, the job hash's shared transition
  manager.py   the app servers' side: RedisJobManager (Start, Stop, watchers, reading runs) and RemoteJob
  messages.py  progress and snapshots from a worker to every server (a Redis stream per run), and Stop
  liveness.py  a worker that dies: LabWorker's short heartbeat, every server's check for lost jobs
  worker.py    the workers' side: `python -m transformer_core worker` and the RQ job train_lab_job

How it works:

* **One job per recipe.** The job id is the recipe's name (`LabRecipe.name`); `job:{id}` is a hash with the
  job's state and a run id. Start is a Redis transaction (WATCH on that hash): a queued, running or finished
  job is joined; otherwise one server writes a new run id and enqueues the RQ job with `job_id=id` and
  `unique=True` (RQ refuses a second job with that id). A worker takes the job only by moving the hash from
  queued to running for ITS run id (another transaction), so a job never trains twice, even if enqueued twice.
* **Progress and snapshots** travel as small messages on a Redis stream per run (`events:{id}:{run}`, at most
  MAX_EVENTS, progress at most every PROGRESS_EVERY_S, snapshots as JSON with float16 attention in base64).
  Every server reads the stream from where it stopped into its own `Job` (the same `record` / `SnapshotStore`
  as the local runner), so a page on any server shows the same run. The job hash keeps the phase and when it
  began (`phase_since`, the worker's clock), so every server's running clock says the same.
* **Stop** from any server sets `stop:{id}:{run}`; the worker reads it after every step (cached
  STOP_CHECK_S). The watcher rule (Stop cancels only for the owner or the last watcher) keeps its watchers in
  the shared store (`transformer_core.store`: a hash session -> last poll time).
* **A worker that dies.** Workers are RQ `SimpleWorker`s (the job runs in the worker process: a killed
  worker kills its run; a forked work horse would go on training as an orphan). RQ keeps a running job in the
  queue's StartedJobRegistry with an expiry score that the worker's heartbeat pushes forward; RQ's own
  default TTL is the job timeout + 60 s, too slow for a class, so `LabWorker` beats every HEARTBEAT_S with a
  TTL of HEARTBEAT_TTL_S. Every server's poll runs `StartedJobRegistry.cleanup()` (RQ moves an expired job to
  the FailedJobRegistry, AbandonedJobError) at most every CHECK_S, and a lab job whose RQ job is failed ends
  with "the worker NAME stopped" (error_code 'worker_lost'). RQ does not retry it (no Retry given).
* **Redis away**: every manager method raises `StoreUnavailable`; the page says the lab is unavailable and
  asks again on its next poll (the redis client reconnects by itself).
"""

from transformer_core.training.queue.keys import (
    INDEX,
    KEEP_S,
    MAX_EVENTS,
    PREFIX,
    QUEUE_NAME,
    connect,
    events_key,
    job_key,
    stop_key,
    watchers_key,
)
from transformer_core.training.queue.liveness import CHECK_S, HEARTBEAT_S, HEARTBEAT_TTL_S, LabWorker
from transformer_core.training.queue.manager import RedisJobManager, RemoteJob
from transformer_core.training.queue.messages import (
    PROGRESS_EVERY_S,
    STOP_CHECK_S,
    decode_snapshot,
    encode_snapshot,
)
from transformer_core.training.queue.worker import claim, main, train_lab_job, worker_main

__all__ = [
    "CHECK_S", "HEARTBEAT_S", "HEARTBEAT_TTL_S", "INDEX", "KEEP_S", "MAX_EVENTS", "PREFIX", "PROGRESS_EVERY_S",
    "QUEUE_NAME", "STOP_CHECK_S", "LabWorker", "RedisJobManager", "RemoteJob", "claim", "connect",
    "decode_snapshot", "encode_snapshot", "events_key", "job_key", "main", "stop_key", "train_lab_job",
    "watchers_key", "worker_main",
]
