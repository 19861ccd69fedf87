"""Large squares where single medians of the full suite put us below the tutorial-style
baseline on the H100 (2026-11-26): ours (the default call), the baseline and cuBLAS, each
checked once against float64 (poisoned output), then 5 interleaved replicates (do_bench
medians, L2 flushed); the config and order each call's plan took.

    python3 probe.py OUT.jsonl      (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.matmul as mm
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.baseline import matmul_baseline

SHAPES = [(8192, 8192, 8192), (16384, 16384, 16384), (4096, 4096, 11008)]

with open(sys.argv[1], "a") as f:
    for dtype in (torch.float16, torch.bfloat16):
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=dtype)
            b = torch.randn(K, N, device="cuda", dtype=dtype)
            runs = {"cublas": lambda: torch.matmul(a, b), "ours": lambda: matmul(a, b),
                    "baseline": lambda: matmul_baseline(a, b)}
            ref = a.double() @ b.double() if M < 16384 else None
            errs = {}
            for k, fn in runs.items():
                out = fn()
                errs[k] = (((out.double() - ref).norm() / ref.norm()).item() if ref is not None
                           else None)
            plans = [{"config": dict(p.config), "grid": list(p.grid)}
                     for p in mm.PLANS._plans.values()]
            times = {k: [] for k in runs}
            names = list(runs)
            for turn in range(5):
                for k in names[turn % len(names):] + names[:turn % len(names)]:
                    times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=50,
                                                            return_mode="median"))
            ms = {k: statistics.median(t) for k, t in times.items()}
            row = {"shape": [M, N, K], "dtype": str(dtype).split(".")[1], "errors": errs,
                   "ms": ms, "replicates": times, "plans": plans,
                   "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "triton": triton.__version__}
            f.write(json.dumps(row, default=str) + "\n")
            f.flush()
            print(f"{M}x{N}x{K} {row['dtype']}: " + "  ".join(
                f"{k} {v:.3f} ms ({ms['cublas'] / v:.3f}x, spread "
                f"{(max(times[k]) - min(times[k])) / v * 100:.1f}%)" for k, v in ms.items()),
                flush=True)
            mm.PLANS.clear()
