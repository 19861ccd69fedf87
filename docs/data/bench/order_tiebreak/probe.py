"""Does the order time model's tie-break (row, then grouped(16), among the orders predicted
within the noise band of the fastest; ``swizzlekit.cta.rank.TIE_BREAK``) carry over from the
order-table kernel to ``swizzlekit.kernels.matmul``? Times the library's call, bf16, under
the row order, grouped(8), grouped(16) and the column order, at the large shapes of the
``full`` suite; bf16 ``matmul`` (``bf16``; ``bf16-pointer``: ``tma=False``, the kernel that
loads its tiles by pointers, as the order tables' kernel does) or fp8 ``scaled_matmul``
(``fp8``), argv[3], default bf16. Each output checked against float64
into a NaN-poisoned C first; 5 interleaved, rotated replicates of do_bench medians (L2
flushed).

    python3 docs/data/bench/order_tiebreak/probe.py OUT.jsonl [SECONDS [bf16|bf16-pointer|fp8]]
"""
import json
import statistics
import sys
import time

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.matmul import describe
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.bench import operands
from swizzlekit.lab.harness import interleaved_ms

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 11008, 4096), (4096, 4096, 11008),
          (8192, 14336, 4096), (8192, 4096, 14336), (16384, 8192, 8192), (4096, 28672, 8192),
          (2048, 14336, 8192), (16384, 4096, 4096), (4096, 16384, 4096), (11008, 4096, 4096),
          (32768, 1024, 4096), (1024, 32768, 4096), (16384, 2048, 8192), (2048, 16384, 8192),
          (3000, 5000, 4000), (2048, 4096, 4096), (16384, 16384, 16384)]
ORDERS = {"grouped8": ("grouped", {"group": 8}), "grouped16": ("grouped", {"group": 16}),
          "row": ("row", {}), "col": ("col", {})}

if __name__ == "__main__":
    start = time.time()
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 1e9
    precision = sys.argv[3] if len(sys.argv) > 3 else "bf16"
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            if time.time() - start > limit:
                break
            torch.manual_seed(0)
            a, b, dtype, extra, ref = operands(M, N, K, precision.split("-")[0])
            kw = {"tma": False} if precision == "bf16-pointer" else {}
            c = torch.empty(M, N, device="cuda", dtype=dtype)
            if precision == "fp8":
                runs = {name: (lambda o=o, p=p: scaled_matmul(
                    a, b, extra["scale_a"], extra["scale_b"], o, out=c, **p))
                    for name, (o, p) in ORDERS.items()}
            else:
                runs = {name: (lambda o=o, p=p: matmul(a, b, o, out=c, **kw, **p))
                        for name, (o, p) in ORDERS.items()}
            errors = {}
            for name, fn in runs.items():
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                errors[name] = float((c.double() - ref).norm() / ref.norm())
            bad = {k: e for k, e in errors.items() if not e < 2e-2}
            times = interleaved_ms({k: v for k, v in runs.items() if k not in bad}, 5,
                                   warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            plan = (describe(a, b, "grouped", out=c, group=16, **kw) if precision != "fp8"
                    else None)
            row = {"precision": precision, "shape": [M, N, K], "plan": plan, "errors": errors,
                   "bad": bad, "ms": ms, "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            best = min(ms.values())
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v / best:.3f}" for k, v in ms.items())
                  + f"  ({best * 1e3:.1f} us){'  BAD ' + str(bad) if bad else ''}"
                  + (f"  {plan}" if plan else ""), flush=True)
