"""Nsight Compute counters of the order-table GEMM on this GPU, for chosen problems of the
order tables (every non-persistent order of each, random included), through the L2 sweep's
own job (:func:`swizzlekit.lab.experiments.l2_sweep.measure`: checked against float64,
timed once, then profiled once under ncu with ``--clock-control none``):

    python3 docs/data/order_times/counters_h100/probe.py OUT [SECONDS]

Rows stream into OUT/counters.csv (:class:`~swizzlekit.lab.records.L2SweepRow`); problems
are taken in the order of :data:`PROBLEMS`, then every other problem of the sweep and the
fresh set, until SECONDS (default 480) have passed, and a second call with the same OUT
skips the problems it holds. A problem took about 17 s on an H100.
"""
import subprocess
import sys
import time
from pathlib import Path

from swizzlekit.lab.experiments.l2_sweep import measure, plan
from swizzlekit.lab.records import L2SweepRow, Table

#: (M, N, K, tile config): the H100's held-out problems first, those where the time model's
#: fastest order missed by more than 2% (2026-11-27) leading, then the fresh set's misses.
PROBLEMS = [
    (4096, 4096, 4096, "64x64x64"), (1024, 1024, 65536, "64x64x64"),
    (1024, 1024, 65536, "128x128x32"), (5000, 3000, 1000, "128x128x128"),
    (1024, 1024, 1024, "64x64x64"), (8192, 8192, 256, "128x256x64"),
    (8192, 8192, 256, "128x128x128"), (2048, 11008, 4096, "128x128x64"),
    (2048, 16384, 8192, "128x256x64"), (16384, 4096, 4096, "256x128x64"),
    (32768, 1024, 4096, "128x128x64"), (12288, 12288, 2048, "256x128x64"),
    (10240, 10240, 1024, "64x128x64"), (10240, 10240, 1024, "64x64x64"),
    (4096, 14336, 4096, "64x64x64"), (6000, 7000, 3000, "128x256x64"),
]


def main(out: Path, seconds: float) -> None:
    start = time.time()
    out.mkdir(parents=True, exist_ok=True)
    table = Table(out / "counters.csv", L2SweepRow, L2SweepRow.key)
    gpu, uuid = subprocess.run(["nvidia-smi", "--query-gpu=name,uuid", "--format=csv,noheader"],
                               capture_output=True, text=True).stdout.split("\n")[0].split(", ")
    runs = plan("sweep") + plan("fresh")
    rest = [(*r.shape, r.config) for r in runs]
    for M, N, K, config in dict.fromkeys(PROBLEMS + rest):
        if time.time() - start > seconds:
            print("stopped: time", flush=True)
            break
        mine = [r for r in runs if r.shape == (M, N, K) and r.config == config
                and not r.persistent and r.key() not in table]
        if not mine:
            continue
        t = time.time()
        table.add(L2SweepRow(**row, gpu=gpu, gpu_uuid=uuid) for row in measure(mine))
        print(f"{M}x{N}x{K} {config}: {len(mine)} runs in {time.time() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 480.0)
