"""Few-column outputs (N = 128-768, thousands of rows) and mid-M shapes: does the config
model's pick (the default autotune mode times its best few configs) miss a faster config of
the kernel's lists? Run once as is and once with ``SWIZZLEKIT_AUTOTUNE=full`` (every config
timed on the first call); each run times bf16 ``matmul`` beside cuBLAS (``torch.matmul``) in
5 interleaved, rotated replicates of do_bench medians (L2 flushed), after checking the call
against float64 into a NaN-poisoned C, and records the plan ``describe`` reports.

    python3 docs/data/bench/narrow_configs/probe.py OUT.jsonl           (on a GPU)
    SWIZZLEKIT_AUTOTUNE=full python3 docs/data/bench/narrow_configs/probe.py OUT.jsonl
"""
import json
import os
import statistics
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.matmul import describe
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

#: The few-column shapes below 0.90x in the held-out draws and the narrow_split probe, then
#: mid-M shapes of the wave-edge and tail probes.
SHAPES = [(4864, 256, 15936), (6912, 256, 3200), (3000, 256, 8192), (7168, 384, 4160),
          (7552, 384, 896), (6016, 768, 2432), (2688, 768, 2432), (1163, 4096, 4096)]

if __name__ == "__main__":
    mode = os.environ.get("SWIZZLEKIT_AUTOTUNE", "model")
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            runs = {"cublas": lambda: torch.matmul(a, b, out=c),
                    "matmul": lambda: matmul(a, b, out=c)}
            err = error_of(lambda out: matmul(a, b, out=out), a, b)
            runs["matmul"]()
            plan = describe(a, b, out=c)
            times = interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
            us = {k: statistics.median(t) * 1e3 for k, t in times.items()}
            row = {"shape": [M, N, K], "mode": mode, "err": err, "plan": plan, "us": us,
                   "replicates_ms": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row, default=str) + "\n")
            f.flush()
            print(f"{mode:5s} {M}x{N}x{K}: cublas {us['cublas']:.1f}  matmul {us['matmul']:.1f}"
                  f"  x{us['cublas'] / us['matmul']:.3f}  {plan and plan['config']}"
                  f" tail {plan and plan['tail_split']}"
                  f"  err {err:.1e}", flush=True)
