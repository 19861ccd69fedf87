"""Identical launch orders timed as the order tables time them: is a gap between two runs
whose order tables hold the same tiles in the same order the order's, the output buffer's,
or the measurement's?

The order tables (``swizzlekit lab order-times``) give each run its own order table and its
own output C. At 32768x1024x4096 (128x128x64, fp16) the row order, grouped(8) along N and
strip(8) are one and the same order (8 tile columns), and at 2048x16384x8192 (128x256x64)
the column order and grouped(16) are (16 tile rows); the tables measured them up to 9%
apart, in the same direction on the H100 and the H200. Here each problem is timed as
``interleaved_ms`` times it (L2 flushed, turns rotated), with runs that cross two tables of
the same order with two output buffers, plus one different order for scale, in two passes
whose run lists are in different orders.

Usage: python3 docs/data/order_times/identical/probe.py OUT.json [REPLICATES]
"""
import json
import statistics
import sys

import torch

from swizzlekit.cta import order
from swizzlekit.kernels.triton.table_gemm import order_table, table_gemm, tile_config
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import random_operands, relative_error

PROBLEMS = [  # shape, config, the same order under two names, a different order
    ((32768, 1024, 4096), "128x128x64", ("row", {}), ("grouped", {"group": 8, "along": "n"}),
     ("grouped", {"group": 16})),
    ((2048, 16384, 8192), "128x256x64", ("col", {}), ("grouped", {"group": 16}),
     ("row", {})),
]


def runs_of(shape, config, same1, same2, other):
    M, N, K = shape
    cfg = tile_config(config)
    tm, tn = -(-M // cfg.bm), -(-N // cfg.bn)
    o1, o2, o3 = (order(n, tm, tn, **p) for n, p in (same1, same2, other))
    assert (o1 == o2).all() and not (o1 == o3).all()
    a, b = random_operands(M, N, K, torch.float16, "cuda")
    ref = a.double() @ b.double()
    t1, t2, t3 = (order_table(o, "cuda") for o in (o1, o2, o3))
    cs = [torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16) for _ in range(3)]
    spec = {f"{same1[0]}/C1": (t1, 0), f"{same1[0]}/C2": (t1, 1),
            f"{same2[0]}{same2[1]}/C1": (t2, 0), f"{same2[0]}{same2[1]}/C2": (t2, 1),
            f"{same1[0]}/C3": (t1, 2), f"{other[0]}{other[1]}/C3": (t3, 2)}
    runs = {}
    for name, (t, i) in spec.items():
        cs[i].fill_(float("nan"))
        table_gemm(a, b, t, out=cs[i], config=config)
        torch.cuda.synchronize()
        err = relative_error(cs[i], ref=ref)
        assert err < 1e-2, (name, err)
        runs[name] = (lambda t=t, c=cs[i]: table_gemm(a, b, t, out=c, config=config))
    return runs


def main(out: str, replicates: int = 10) -> None:
    result = {"gpu": torch.cuda.get_device_name(), "replicates": replicates, "problems": []}
    for shape, config, same1, same2, other in PROBLEMS:
        runs = runs_of(shape, config, same1, same2, other)
        passes = []
        for names in (list(runs), list(reversed(list(runs)))):
            times = interleaved_ms({n: runs[n] for n in names}, replicates, warmup_ms=10,
                                   rep_ms=40)
            passes.append(times)
            best = min(statistics.median(t) for t in times.values())
            print(shape, config, " | ".join(f"{n} {statistics.median(t) / best:.3f}"
                                            for n, t in times.items()), flush=True)
        result["problems"].append({"shape": shape, "config": config, "passes": passes})
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10)
