"""A worker that dies (killed, machine off): how the lab notices, on both sides.

The worker's side: `LabWorker` is an RQ SimpleWorker (the job runs in the worker process: a killed worker kills its
run; a forked work horse would go on training as an orphan). RQ keeps a running job in the queue's
StartedJobRegistry with an expiry score that the worker's heartbeat pushes forward; RQ's own default TTL is the job
timeout + 60 s, too slow for a class, so LabWorker beats every HEARTBEAT_S with a TTL of HEARTBEAT_TTL_S.

The servers' side: `end_lost_jobs` (every server's poll, at most every CHECK_S) runs RQ's
`StartedJobRegistry.cleanup()` (RQ moves an expired job to the FailedJobRegistry, AbandonedJobError), then ends
every lab job still queued or running whose RQ job failed with "the worker NAME stopped" (error_code
'worker_lost'). RQ does not retry it (no Retry given).
"""

from __future__ import annotations

import os
import threading

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import NoSuchJobError
from rq.job import Job as RQJob
from rq.job import JobStatus
from rq.registry import StartedJobRegistry

from transformer_core.training.jobs import ACTIVE, FAILED, RUNNING
from transformer_core.training.queue.keys import INDEX, decoded, end_job, job_key, text

HEARTBEAT_S = 3.0  # the worker refreshes RQ's started-job registry entry at most this often ...
HEARTBEAT_TTL_S = 20  # ... with this expiry: a worker silent this long is taken for dead
CHECK_S = 2.0  # a server looks for dead workers at most this often
WORKER_TTL_ENV = "TRANSFORMER_EXPLORER_WORKER_TTL_S"  # another expiry, the same on the worker and the servers
MIN_TTL_S = 6


def heartbeat_ttl_s() -> int:
    """How long a silent worker is given before its job ends as lost: HEARTBEAT_TTL_S, or WORKER_TTL_ENV's whole
    seconds (at least MIN_TTL_S). The worker writes it into RQ's registry; the servers name it in the message."""
    try:
        return max(MIN_TTL_S, int(os.environ.get(WORKER_TTL_ENV, "") or HEARTBEAT_TTL_S))
    except ValueError:
        return HEARTBEAT_TTL_S


def heartbeat_s() -> float:
    """The beat: every HEARTBEAT_S, or a quarter of a shorter TTL, so that three beats can be late."""
    return min(HEARTBEAT_S, heartbeat_ttl_s() / 4)


class LabWorker(SimpleWorker):
    """An RQ SimpleWorker (the job runs in this process) that beats every heartbeat_s() with a short TTL while a
    job runs, so a killed worker's job is found abandoned within heartbeat_ttl_s() (+ a server's CHECK_S)."""

    device = "cpu"
    current: LabWorker | None = None  # the worker running in this process (the job function asks it)

    def get_heartbeat_ttl(self, job) -> int:
        return heartbeat_ttl_s()

    def execute_job(self, job, queue) -> None:
        LabWorker.current = self
        beating = threading.Event()
        every = heartbeat_s()

        def beat() -> None:
            while not beating.wait(every):
                try:
                    if self.execution is not None:
                        self.maintain_heartbeats(job)
                except Exception as error:  # Redis away for a moment: try again at the next beat
                    self.log.warning("heartbeat failed: %s", error)

        thread = threading.Thread(target=beat, name="lab-heartbeat", daemon=True)
        thread.start()
        try:
            super().execute_job(job, queue)
        finally:
            beating.set()
            thread.join(5)


def end_lost_jobs(client: redis.Redis, queue: Queue, max_jobs: int) -> list[str]:
    """RQ's cleanup of the started-job registry (a job whose worker stopped beating is moved to the failed
    registry); then every lab job among the newest `max_jobs` still queued or running whose RQ job failed (or
    whose RQ job is gone while it runs) ends with a message that names its worker. Returns the ids it ended."""
    StartedJobRegistry(queue=queue).cleanup()
    ended = []
    for job_id in (text(i) for i in client.zrevrange(INDEX, 0, max_jobs)):
        fields = decoded(client.hgetall(job_key(job_id)))
        if fields.get("state") not in ACTIVE:
            continue
        try:
            rq_job = RQJob.fetch(job_id, connection=client)
            status, worker_name = rq_job.get_status(refresh=False), rq_job.worker_name or ""
        except NoSuchJobError:
            status, worker_name = None, ""
        lost = status == JobStatus.FAILED or (status is None and fields.get("state") == RUNNING)
        if lost:
            worker = fields.get("worker") or worker_name or "?"
            if end_job(client, job_id, fields["run"], FAILED, error_code="worker_lost", worker=worker,
                       error=f"the worker {worker} stopped (no heartbeat for {heartbeat_ttl_s()} s)"):
                ended.append(job_id)
    return ended
