"""When B's pitched copy pays on this GPU: bf16 shapes whose B rows are 10000 or 14000 bytes
apart, M from 1000 to 9000: the copy alone, the GEMM on the copy, the copy and GEMM together,
and TMA on B as given; cuBLAS beside them. Each GEMM checked once against float64 (output
poisoned with NaN), then all timed in 5 interleaved replicates (do_bench medians, L2
flushed); one JSON line per shape.

    python3 probe.py OUT.jsonl      (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.copies as copies
from swizzlekit.kernels import matmul

NK = [(5000, 4000), (7000, 3000)]
MS = [1000, 2000, 3000, 4000, 5000, 6000, 9000]
copies.PITCH_MIN_MNK = 2**62          # the default call never copies: "as given" below


def err(fn, a, b):
    """fn's relative error against float64, its output poisoned with NaN first."""
    ref = a.double() @ b.double()
    out = torch.full((a.shape[0], b.shape[1]), float("nan"), device="cuda", dtype=a.dtype)
    out = fn(out)
    return ((out.double() - ref).norm() / ref.norm()).item()


with open(sys.argv[1], "a") as f:
    for N, K in NK:
        for M in MS:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            bp = copies._pitched(b)
            cp = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            runs = {"cublas": lambda out=None: torch.matmul(a, b, out=out),
                    "as given": lambda out=None: matmul(a, b, out=out),
                    "copy + gemm": lambda out=None: matmul(a, copies._pitched(b), out=out),
                    "gemm on the copy": lambda out=None: matmul(a, bp, out=cp if out is None
                                                                else out),
                    "copy alone": lambda out=None: copies._pitched(b)}
            errs = {k: err(fn, a, b) for k, fn in runs.items() if k != "copy alone"}
            bad = {k: e for k, e in errs.items() if not e < 1e-2}
            times = {k: [] for k in runs}
            names = list(runs)
            if not bad:
                for turn in range(5):
                    for k in names[turn % len(names):] + names[:turn % len(names)]:
                        times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                                return_mode="median"))
            row = {"shape": [M, N, K], "row_bytes": 2 * N, "errors": errs, "bad": bad,
                   "ms": {k: statistics.median(t) for k, t in times.items() if t},
                   "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            ms = row["ms"]
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v:.4f}" for k, v in ms.items()) +
                  (f"  copy pays: {ms['copy + gemm'] < ms['as given']}" if ms else "") +
                  (f"  BAD {bad}" if bad else ""), flush=True)
