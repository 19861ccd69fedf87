"""Sweeps over Dask workers: the same rows as one process, resumed without doubles, and no run
lost or doubled when a worker dies mid-sweep. CPU workers and CPU jobs (the L2 model over
the H200 sweep's runs), so this runs in CI without a GPU."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

import pytest

from swizzlekit.compare import SWEEP_TABLE, compare_sweep, predict
from swizzlekit.errors import SwizzleKitError, ToolError
from swizzlekit.lab.cluster import Job, check_cluster, open_cluster, run_jobs
from swizzlekit.lab.records import L2SweepRow, Table, read_csv, write_csv

pytestmark = pytest.mark.slow          # Dask workers start in subprocesses: ~40 s in all

distributed = pytest.importorskip("distributed")

ROWS = read_csv(SWEEP_TABLE, L2SweepRow)
SHAPES = list(dict.fromkeys(r.shape for r in ROWS))


def _jobs(shapes):
    return [Job("x".join(map(str, s)), "swizzlekit.compare:predict",
                {"rows": [r for r in ROWS if r.shape == s], "overrides": {}},
                cost=sum(r.shape == s for r in ROWS)) for s in shapes]


def _key(row: dict) -> tuple:
    return (row["shape"], row["config"], row["dtype"], row["order"], str(row["params"]),
            row["persistent"])


@pytest.fixture(scope="module")
def serial():
    """The model's rows for every run, computed here, one shape after another."""
    return {_key(r): r for job in _jobs(SHAPES) for r in predict(**job.args)}


@pytest.mark.parametrize("spec", ["", "locals", "tcp://", "tcp://host", "tcp://host:0",
                                  "tcp://host:70000", "http://host:8786", "host:8786", 8786,
                                  None])
def test_bad_cluster_specs_are_refused_naming_the_choices(spec):
    with pytest.raises(SwizzleKitError, match="choose none, local, or a Dask scheduler"):
        check_cluster(spec)


def test_an_unreachable_scheduler_is_named_quickly():
    start = time.perf_counter()
    with pytest.raises(SwizzleKitError, match="no Dask scheduler answered"):
        with open_cluster("tcp://127.0.0.1:1"):
            pass
    assert time.perf_counter() - start < 15


def test_without_the_extra_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)     # import distributed fails
    with pytest.raises(ToolError, match=r"swizzlekit\[cluster\]"):
        with open_cluster("local", gpus=False):
            pass
    with open_cluster("none") as client:                     # the default needs nothing
        assert client is None


def test_local_gpu_workers_without_gpus_is_a_machine_failure():
    from swizzlekit.lab.harness import this_gpu

    if this_gpu()[1]:
        pytest.skip("this machine has a GPU")
    pytest.importorskip("dask_cuda")
    with pytest.raises(ToolError, match="no GPUs visible"):
        with open_cluster("local"):
            pass


def test_workers_give_the_same_rows_as_one_process_and_say_where_they_ran(serial):
    where = []
    got = {}

    def keep(done):
        where.append((done.worker, done.gpu, done.gpu_uuid))
        for r in done.result:
            assert _key(r) not in got
            got[_key(r)] = r

    with open_cluster("local", gpus=False, workers=2) as client:
        summary = run_jobs(_jobs(SHAPES[:6]), keep, client=client, progress=False)
    assert summary.jobs == 6 and summary.workers == 2
    assert got == {k: v for k, v in serial.items() if k in got}
    assert len(got) == sum(r.shape in SHAPES[:6] for r in ROWS)
    assert len(where) == 6 and all(w[0].split(":")[-1].isdigit() for w in where)
    assert all(w[1] == "none" and w[2] == "" for w in where)       # CPU workers: no GPU


def test_compare_sweep_on_workers_equals_it_here(tmp_path):
    table = tmp_path / "sweep.csv"
    write_csv(table, [r for r in ROWS if r.shape in SHAPES[:3]])
    here = compare_sweep(path=table)
    with open_cluster("local", gpus=False, workers=2) as client:
        there = compare_sweep(path=table, client=client)
    assert here == there and len(here) == sum(r.shape in SHAPES[:3] for r in ROWS)


def _table_key(r: L2SweepRow) -> tuple:
    return r.key()


def _as_rows(done) -> list[L2SweepRow]:
    """The model's prediction stored as a sweep row (the hit rate in the measured field)."""
    by_key = {(r.shape, r.config, r.dtype, r.order, r.params, r.persistent): r for r in ROWS}
    out = []
    for p in done.result:
        import json

        shape = tuple(int(x) for x in p["shape"].split("x"))
        src = by_key[(shape, p["config"], p["dtype"], p["order"],
                      json.dumps(p["params"], sort_keys=True), p["persistent"])]
        out.append(L2SweepRow(**{**src.__dict__, "l2_hit_rate_pct": p["model_hit"],
                                 "gpu": done.gpu, "gpu_uuid": done.worker}))
    return out


def test_a_sweep_resumes_without_redoing_or_doubling(tmp_path):
    path = tmp_path / "rows.csv"
    first = Table(path, L2SweepRow, _table_key)
    run_jobs(_jobs(SHAPES[:2]), lambda d: first.add(_as_rows(d)), progress=False)
    before = len(first.rows)
    again = Table(path, L2SweepRow, _table_key)              # the sweep restarted
    todo = [j for j in _jobs(SHAPES[:5])
            if not all(r.key() in again for r in j.args["rows"])]
    assert len(todo) == 3                                    # the two done shapes are skipped
    ran = []
    with open_cluster("local", gpus=False, workers=2) as client:
        run_jobs(todo, lambda d: (ran.append(d.job.key), again.add(_as_rows(d))),
                 client=client, progress=False)
    assert sorted(ran) == sorted(j.key for j in todo)
    back = read_csv(path, L2SweepRow)
    keys = [r.key() for r in back]
    assert len(keys) == len(set(keys)) == before + sum(len(j.args["rows"]) for j in todo)


def test_a_worker_killed_mid_sweep_loses_and_doubles_nothing(serial, tmp_path):
    import json

    jobs = _jobs(SHAPES)
    got: dict = {}
    arrivals = []
    killed = {}

    with open_cluster("local", gpus=False, workers=2) as client:
        pids = client.run(os.getpid)

        def keep(done):
            arrivals.append(done.job.key)
            for r in done.result:
                got[_key(r)] = r
            if not killed:
                busy = {w: keys for w, keys in client.processing().items() if keys}
                if busy:
                    victim = sorted(busy)[0]
                    killed[victim] = list(busy[victim])
                    os.kill(pids[victim], signal.SIGKILL)    # mid-job: it had work in hand

        run_jobs(jobs, keep, client=client, progress=False, journal=tmp_path / "jobs.jsonl")
        after = client.run(os.getpid)
    assert killed, "no worker was busy to kill"
    journal = [json.loads(line) for line in (tmp_path / "jobs.jsonl").read_text().splitlines()]
    assert sorted(j["key"] for j in journal) == sorted(j.key for j in jobs)   # once each
    assert all(j["seconds"] >= 0 and j["since_start"] >= j["seconds"] for j in journal)
    assert {int(j["worker"].split(":")[-1]) for j in journal} <= {*pids.values(),
                                                                   *after.values()}
    assert set(after.values()) != set(pids.values())         # a fresh process replaced it
    assert sorted(arrivals) == sorted(j.key for j in jobs)    # each job handed over once
    assert got == serial                                      # every row, equal to serial


def test_a_cluster_that_loses_every_worker_is_given_up_on_not_waited_on(monkeypatch):
    import swizzlekit.lab.cluster as cluster

    monkeypatch.setattr(cluster, "WORKERLESS_LIMIT", 2.0)
    got = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        with open_cluster(local.scheduler_address, gpus=False) as client:
            worker = list(client.run(os.getpid).values())

            def keep(done):
                got.append(done.job.key)
                if len(got) == 1:              # the only worker goes, and none replaces it
                    local.scale(0)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(worker[0], signal.SIGKILL)

            start = time.perf_counter()
            with pytest.raises(ToolError, match="every worker left"):
                run_jobs(_jobs(SHAPES[:8]), keep, client=client, progress=False)
    assert time.perf_counter() - start < 60 and 1 <= len(got) < 8
