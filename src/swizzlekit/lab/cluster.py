"""Sweeps spread over every GPU of a host, or over a cluster, through Dask.

A sweep is a list of :class:`Job` values: one unit of work each (a shape's runs, one profile,
a chunk of bank probes), named by an importable function and its arguments. :func:`run_jobs`
runs them and hands every result to a callback as it arrives, which streams it into the
sweep's resumable table (:class:`swizzlekit.lab.records.Table`). Where they run is the
``--cluster`` option (:func:`open_cluster`):

* ``none`` (the default): in this process, one after another, as before;
* ``local``: a Dask worker for every GPU of this host, each pinned to its GPU by
  ``CUDA_VISIBLE_DEVICES`` (dask-cuda's ``LocalCUDACluster``); for sweeps that need no GPU,
  a worker process per core (Dask's ``LocalCluster``);
* ``tcp://HOST:PORT``: a running Dask scheduler, for instance one that ``dask-jobqueue`` or
  ``dask ssh`` started, with one worker per GPU (``dask cuda worker``).

The rules, whatever runs them:

* one run at a time per worker process, hence per GPU (a process-wide lock around every job;
  Nsight Compute and timing need the GPU to themselves). Two workers on one GPU are refused;
* jobs are handed out costliest first, and Dask's work stealing balances the rest;
* a worker lost mid-job has the job rerun on another (Dask's scheduler does this); the
  driver writes a job's rows only when the job completes, once, so nothing is lost or doubled;
* every result carries the GPU it ran on (name and UUID,
  :func:`swizzlekit.lab.harness.this_gpu`);
* Nsight Compute's own lock, which serializes every profile on the host, is kept per GPU
  instead (:func:`swizzlekit.lab.ncu.profile`), so GPUs profile side by side;
* a rich progress bar covers the whole sweep.

Dask is the ``[cluster]`` extra (``pip install 'swizzlekit[cluster]'``); without it only
``none`` works, and asking for more says what to install.

>>> check_cluster("tcp://10.0.0.5:8786"), check_cluster("none")
('tcp://10.0.0.5:8786', 'none')
>>> check_cluster("8786")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: --cluster '8786' is not valid; choose none, local, or a Dask scheduler address tcp://HOST:PORT
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from swizzlekit.errors import SwizzleKitError, ToolError

__all__ = ["Job", "Done", "Summary", "CLUSTER_HELP", "check_cluster", "open_cluster",
           "run_jobs", "execute", "provenance", "provenance_soon"]

CLUSTER_HELP = ("where runs go: none (this process, the default), local (a Dask worker per GPU "
                "of this host), or tcp://HOST:PORT (a running Dask scheduler)")
_ADDRESS = re.compile(r"^(tcp|tls)://([A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:]+\]):(\d{1,5})$")
#: Seconds to wait for a scheduler to answer, and for its first worker.
CONNECT_TIMEOUT = 10.0
#: Seconds a sweep waits with no worker at all before it gives up (instead of hanging).
WORKERLESS_LIMIT = 60.0


@dataclass(frozen=True)
class Job:
    """One unit of a sweep: ``function`` ("module:name") called with ``args`` on a worker.

    ``key`` names it in the sweep (unique); ``cost`` (any unit) only orders the hand-out."""
    key: str
    function: str
    args: dict = field(default_factory=dict, hash=False, compare=False)
    cost: float = 1.0


@dataclass(frozen=True)
class Done:
    """A finished job: what its function returned, and where and how long it ran."""
    job: Job
    result: object
    gpu: str              # the GPU's name, "none" where the worker sees none
    gpu_uuid: str
    worker: str           # host:pid of the process that ran it
    seconds: float


@dataclass(frozen=True)
class Summary:
    """A sweep's outcome: jobs run, the workers that ran them, the wall time."""
    jobs: int
    workers: int
    wall_s: float
    per_gpu: dict         # GPU UUID (or worker) -> jobs it ran


def check_cluster(spec: str) -> str:
    """``none``, ``local`` or a scheduler address ``tcp://HOST:PORT`` / ``tls://HOST:PORT``."""
    if isinstance(spec, str):
        spec = spec.strip()
        if spec in ("none", "local"):
            return spec
        m = _ADDRESS.match(spec)
        if m and 1 <= int(m.group(3)) <= 65535:
            return spec
    raise SwizzleKitError(f"--cluster {spec!r} is not valid; choose none, local, or a Dask "
                          f"scheduler address tcp://HOST:PORT")


# ------------------------------------------------------------------ on every worker
_ONE_AT_A_TIME = threading.RLock()    # one job per process (a job may run jobs inside it)


def _identify() -> dict:
    import socket

    from swizzlekit.lab.harness import this_gpu

    name, uuid = this_gpu()
    return {"gpu": name, "gpu_uuid": uuid, "worker": f"{socket.gethostname()}:{os.getpid()}"}


def execute(job: Job) -> Done:
    """Run one job here, alone on this process's GPU; returns its :class:`Done`."""
    module, _, name = job.function.partition(":")
    fn = getattr(importlib.import_module(module), name)
    with _ONE_AT_A_TIME:
        start = time.perf_counter()
        result = fn(**job.args)
        seconds = time.perf_counter() - start
    return Done(job, result, **_identify(), seconds=round(seconds, 3))


def provenance(client=None) -> dict:
    """GPU, driver and versions (:func:`swizzlekit.lab.harness.environment`) of this process,
    or of a worker of ``client``, with every worker's GPU listed."""
    from swizzlekit.lab.harness import environment

    if client is None:
        return environment()
    envs, where = client.run(environment), client.run(_identify)
    first = envs[sorted(envs)[0]]
    return {**first, "gpus": sorted(f"{w['gpu']} {w['gpu_uuid']}" for w in where.values())}


def provenance_soon(client=None):
    """:func:`provenance`, begun now in a thread; ``.result()`` reads it when the sweep ends.

    It costs seconds (nvidia-smi, importing torch where a worker has not yet), which every
    sweep would otherwise add to its wall time whether it runs on one GPU or on many."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1, thread_name_prefix="swizzlekit-provenance")
    future = pool.submit(provenance, client)
    pool.shutdown(wait=False)
    return future


# ------------------------------------------------------------------ the driver
def _log(journal, done: Done, since_start: float) -> None:
    import json

    with open(journal, "a") as f:
        f.write(json.dumps({"key": done.job.key, "worker": done.worker,
                            "gpu_uuid": done.gpu_uuid, "seconds": done.seconds,
                            "since_start": round(since_start, 3)}) + "\n")


def _distributed(spec: str):
    try:
        import distributed
    except ImportError:
        raise ToolError(f"--cluster {spec} needs Dask, which this install lacks: pip install "
                        f"'swizzlekit[cluster]' (or use --cluster none)") from None
    return distributed


def _local(gpus: bool, workers: int | None):
    distributed = _distributed("local")
    if not gpus:
        n = workers or os.cpu_count() or 1
        return distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
    try:
        from dask_cuda import LocalCUDACluster
    except ImportError:
        raise ToolError("--cluster local needs dask-cuda, which this install lacks: pip "
                        "install 'swizzlekit[cluster]' (or use --cluster none)") from None
    try:
        return LocalCUDACluster(threads_per_worker=1, dashboard_address=None,
                                n_workers=workers)
    except Exception as e:      # dask-cuda raises NVML's errors, ValueError, RuntimeError
        raise ToolError(f"--cluster local: no GPUs visible on this host "
                        f"({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})") from None


def _check_workers(client, spec: str, gpus: bool) -> dict:
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except (TimeoutError, OSError):
        raise ToolError(f"--cluster {spec}: the scheduler has no workers after "
                        f"{CONNECT_TIMEOUT:.0f} s") from None
    info = client.run(_identify)
    if gpus:
        blind = [addr for addr, i in info.items() if not i["gpu_uuid"]]
        if blind:
            raise ToolError(f"--cluster {spec}: worker {blind[0]} sees no GPU "
                            f"({len(blind)} of {len(info)} workers)")
        seen: dict = {}
        for addr, i in info.items():
            if i["gpu_uuid"] in seen:
                raise SwizzleKitError(
                    f"--cluster {spec}: workers {seen[i['gpu_uuid']]} and {addr} share GPU "
                    f"{i['gpu_uuid']}; start one worker per GPU (dask cuda worker)")
            seen[i["gpu_uuid"]] = addr
    return info


@contextlib.contextmanager
def open_cluster(spec: str, *, gpus: bool = True, workers: int | None = None) -> Iterator:
    """A Dask client for ``spec`` (None for ``none``), closed (with its local cluster) on exit.

    ``gpus``: the sweep's jobs need a GPU each (every worker must see its own). ``workers``:
    how many local workers (default every GPU, or every core when ``gpus`` is False)."""
    spec = check_cluster(spec)
    if spec == "none":
        yield None
        return
    distributed = _distributed(spec)
    with contextlib.ExitStack() as stack:
        if spec == "local":
            target = stack.enter_context(_local(gpus, workers))
        else:
            target = spec
        try:
            client = distributed.Client(target, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise SwizzleKitError(f"--cluster {spec}: no Dask scheduler answered there within "
                                  f"{CONNECT_TIMEOUT:.0f} s ({type(e).__name__})") from None
        stack.callback(client.close)
        _check_workers(client, spec, gpus)
        yield client


def run_jobs(jobs: Sequence[Job], on_done: Callable[[Done], None], *, client=None,
             progress: bool = True, label: str = "runs", journal=None) -> Summary:
    """Run ``jobs`` (here when ``client`` is None, else on its workers), calling ``on_done``
    with each :class:`Done` as it arrives. Jobs that fail are reported together at the end
    (a :class:`ToolError`), after every other job has run and been handed over.

    ``journal``: a path; each finished job appends a JSON line there (key, worker, GPU UUID,
    the job's own seconds, and seconds since the sweep began), to see where a sweep's time
    went."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    keys = [j.key for j in jobs]
    if len(set(keys)) != len(keys):
        raise SwizzleKitError("every job of a sweep needs its own key")
    start = time.perf_counter()
    failed: list[tuple[Job, BaseException]] = []
    per_gpu: Counter = Counter()
    workers = 1 if client is None else len(client.nthreads())    # every worker, not a page
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, disable=not progress) as bar:
        task = bar.add_task(f"{label} on {workers} worker{'s' * (workers != 1)}",
                            total=len(jobs))

        def hand_over(done: Done) -> None:
            per_gpu[done.gpu_uuid or done.worker] += 1
            on_done(done)
            if journal is not None:
                _log(journal, done, time.perf_counter() - start)
            bar.advance(task)

        if client is None:
            for job in jobs:
                try:
                    hand_over(execute(job))
                except Exception as e:        # reported with the others at the end
                    failed.append((job, e))
                    bar.advance(task)
        else:
            from distributed import as_completed

            ranked = sorted(jobs, key=lambda j: -j.cost)
            tag = f"{os.getpid()}-{time.time_ns()}"
            futures = {client.submit(execute, job, key=f"swizzlekit-{tag}-{i}", pure=False,
                                     priority=len(ranked) - i): job
                       for i, job in enumerate(ranked)}
            arrivals = as_completed(futures, loop=client.loop)
            workerless = None
            while not arrivals.is_empty():
                batch = arrivals.next_batch(block=False)
                for future in batch:
                    if future.status == "finished":
                        hand_over(future.result())
                    else:
                        failed.append((futures[future], future.exception()))
                        bar.advance(task)
                if batch:
                    continue
                # nothing new: wait, but never forever on a cluster that has lost every worker
                if client.nthreads():
                    workerless = None
                elif workerless is None:
                    workerless = time.perf_counter()
                elif time.perf_counter() - workerless > WORKERLESS_LIMIT:
                    client.cancel(list(futures))
                    raise ToolError(f"every worker left the cluster and none came back in "
                                    f"{WORKERLESS_LIMIT:.0f} s; {len(failed)} failed and "
                                    f"{bar.tasks[0].completed:.0f} of {len(jobs)} {label} "
                                    f"are in the table (run again to resume)")
                time.sleep(0.2)
    if failed:
        job, e = failed[0]
        raise ToolError(f"{len(failed)} of {len(jobs)} {label} failed; the first, {job.key}: "
                        f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    return Summary(len(jobs), workers, round(time.perf_counter() - start, 2), dict(per_gpu))
