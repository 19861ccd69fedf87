"""Every order of the L2 sweep's problems timed in replicates: the time model's table.

One problem is a shape with a tile config and element type (:func:`.l2_sweep.plan`: 13 runs,
eleven orders and two persistent grids). Each run is checked once against float64 (its
output poisoned first), then the runs are timed in turn, ``replicates`` times over, each
turn in the order of a Williams design (:func:`swizzlekit.turns.turn_order`), so that no
order always follows the same neighbour or always runs first (the H200's committed tables
were timed with the turns rotated by one, which keeps every run behind the same neighbour in
all turns but one: ``docs/data/order_times/identical/``). Each replicate is a
do_bench median with the L2 flushed (:func:`~swizzlekit.lab.harness.median_ms`); a run's
``ms`` is the median of its replicates, and ``ms_min``/``ms_max`` their spread. "Fastest"
is the least median.

``swizzlekit lab order-times --out DIR [--set sweep|fresh] [--shard I/N] [--replicates R]``
writes ``order_times.csv`` (:class:`~swizzlekit.lab.records.OrderTimeRow`, resumable: a
later call skips what the table holds) and ``order_times.json`` (the command and the environment).
No Nsight Compute: the time model reads its DRAM and L2 terms from the L2 model.

The turns are :func:`~swizzlekit.lab.harness.interleaved_ms`'s.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from swizzlekit.errors import check_int
from swizzlekit.lab.harness import MAX_REPLICATES

__all__ = ["REPLICATES", "time_problem", "run"]

#: Replicates per run (``--replicates``, at most the harness's ``MAX_REPLICATES``): the
#: issue's floor, and what one H100 lease can afford for the sweep.
REPLICATES = 5
#: do_bench's warm-up and measuring windows per replicate (ms).
WARMUP_MS, REP_MS = 10, 40


def time_problem(group, a, b, replicates: int = REPLICATES, split: str | None = None
                 ) -> list[dict]:
    """Check, then time in interleaved replicates, the runs ``group`` of one problem on
    operands ``a`` and ``b``; one dict per run with the :class:`OrderTimeRow` fields but
    where it ran. ``split``: the rows' split (default: the L2 sweep's half of the shape, which
    must be in the sweep)."""
    import dataclasses

    from swizzlekit.lab.experiments.l2_sweep import checked_launch, split_of
    from swizzlekit.lab.harness import interleaved_ms

    replicates = check_int("replicates", replicates, 1, MAX_REPLICATES)
    ref = a.double() @ b.double()
    launches, rows = [], []
    for r in group:
        fn, fields = checked_launch(r, a, b, ref)
        launches.append(fn)
        rows.append({**{k: v for k, v in dataclasses.asdict(r).items()
                        if k != "ctas_per_sm_hint"},
                     "split": split or split_of(r.shape), **fields})
    del ref
    timed = interleaved_ms(dict(enumerate(launches)), replicates, warmup_ms=WARMUP_MS,
                           rep_ms=REP_MS)
    for row, times in zip(rows, timed.values()):
        row.update(ms=statistics.median(times), ms_min=min(times), ms_max=max(times),
                   replicates=";".join(f"{t:.5f}" for t in times))
    return rows


def run(out: Path, which: str = "sweep", shard_spec: str = "0/1",
        replicates: int = REPLICATES) -> Path:
    """Time every run of set ``which`` (shard ``shard_spec``) on this GPU into
    ``out/order_times.csv``, one problem at a time, skipping runs the table holds."""
    from swizzlekit.lab.experiments.l2_sweep import _by_problem, plan, shard
    from swizzlekit.lab.harness import environment, this_gpu
    from swizzlekit.lab.records import OrderTimeRow, Table

    replicates = check_int("replicates", replicates, 1, MAX_REPLICATES)
    out.mkdir(parents=True, exist_ok=True)
    table = Table(out / "order_times.csv", OrderTimeRow, OrderTimeRow.key)
    todo = [r for r in shard(plan(which), shard_spec) if r.key() not in table]
    gpu, uuid = this_gpu()
    for group, (a, b, _) in _by_problem(todo):
        rows = time_problem(group, a, b, replicates)
        table.add(OrderTimeRow(**row, gpu=gpu, gpu_uuid=uuid) for row in rows)
        best = min(rows, key=lambda row: row["ms"])
        print(f"{'x'.join(map(str, group[0].shape))} {group[0].config} {group[0].dtype}: "
              f"fastest {best['order']} {best['params']} {best['ms']:.3f} ms", flush=True)
    meta = {"command": f"swizzlekit lab order-times --out DIR --set {which} --shard "
                       f"{shard_spec} --replicates {replicates}", "replicates": replicates,
            "warmup_ms": WARMUP_MS, "rep_ms": REP_MS, "env": environment()}
    (out / "order_times.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out / "order_times.csv"
