"""Small 16-bit calls (M < 128 or M*N*K <= 2^31, where aligned calls take pointer loads) whose
rows are 16-byte but not 32-byte aligned: cuBLAS, the default call, pointer loads
(``tma=False``; in the first run, of 2026-11-26 on the H200, the default was pointer loads
here) and TMA (``tma=True``). Each call checked once against float64 (output poisoned with
NaN), then timed in 5 interleaved replicates (do_bench medians, L2 flushed); one JSON line
per shape.

    python3 small.py OUT.jsonl [nohint]      (on a GPU; nohint: VEC held at 1, as before)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.pointer_kernel as mm     # the pointer kernel's heuristics
from swizzlekit.kernels import matmul

SHAPES = [(16, 5000, 4000), (64, 5000, 4000), (100, 7000, 3000), (64, 4096, 3000),
          (16, 14336, 3000), (1000, 1000, 1000), (500, 1000, 1000), (2000, 1000, 1000),
          (1000, 2000, 1000), (64, 4096, 4096)]
out_path = sys.argv[1]
nohint = "nohint" in sys.argv[2:]
if nohint:
    mm.vec_hint = lambda args, elem_bytes: 1


def err(fn, a, b):
    """fn's relative error against float64, its output poisoned with NaN first."""
    ref = a.double() @ b.double()
    out = torch.full((a.shape[0], b.shape[1]), float("nan"), device="cuda", dtype=a.dtype)
    out = fn(out)
    return ((out.double() - ref).norm() / ref.norm()).item()


with open(out_path, "a") as f:
    for dtype in (torch.bfloat16, torch.float16):
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=dtype)
            b = torch.randn(K, N, device="cuda", dtype=dtype)
            runs = {"cublas": lambda out=None: torch.matmul(a, b, out=out),
                    "default": lambda out=None: matmul(a, b, out=out),
                    "pointer": lambda out=None: matmul(a, b, tma=False, out=out),
                    "tma": lambda out=None: matmul(a, b, tma=True, out=out)}
            errs = {k: err(fn, a, b) for k, fn in runs.items()}
            bad = {k: e for k, e in errs.items() if not e < 1e-2}
            times = {k: [] for k in runs}
            names = list(runs)
            if not bad:
                for turn in range(5):
                    for k in names[turn % len(names):] + names[:turn % len(names)]:
                        times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                                return_mode="median"))
            row = {"shape": [M, N, K], "dtype": str(dtype).split(".")[1], "nohint": nohint,
                   "errors": errs, "bad": bad,
                   "ms": {k: statistics.median(t) for k, t in times.items() if t},
                   "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            ms = row["ms"]
            print(f"{M}x{N}x{K} {row['dtype']}: " + "  ".join(
                f"{k} {v * 1000:.1f} us ({ms['cublas'] / v:.3f}x)" for k, v in ms.items()) +
                (f"  BAD {bad}" if bad else ""), flush=True)
