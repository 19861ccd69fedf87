"""The same call inside the benchmark's own timing (docs/benchmarks.md: "Inside the benchmark the same
call then measured 34 to 89 us"): lab.bench.time_group twice, then lab.harness.median_ms. Run as
`PYTHONPATH=src python3 docs/data/bench/split_k_in_bench.py` on an NVIDIA H200 (nvidia-h200
lease), 2026-11-22, torch 2.11.0+cu130, triton 3.6.0, while split_k_for was the default; the
first two lines of the output (and the `{}` and `group` lines) used that default (S = 4)."""
import time, torch
from swizzlekit.lab.bench import Run, time_group
from swizzlekit.kernels.triton import matmul as mm
runs = [Run("decode", (128, 4096, 4096), "bf16", k, *( ("grouped", (("group", 8),)) if k == "triton" else ("", ()))) for k in ("cublas", "triton")]
for rep in range(2):
    t = time.time()
    rows = time_group(runs, warm=False, base_tflops=None)
    print([(r["kernel"], r["ms"], r["vs_cublas"]) for r in rows], len(mm.PLANS), round(time.time() - t, 1), "s", flush=True)
a = torch.randn(128, 4096, device="cuda", dtype=torch.bfloat16); b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
c = torch.empty(128, 4096, device="cuda", dtype=torch.bfloat16)
from swizzlekit.lab.harness import median_ms
for kw in ({}, {"group": 8}, {"group": 8, "split_k": 1}):
    print(kw, round(median_ms(lambda: mm.matmul(a, b, "grouped", out=c, precision="tf32", **kw)) * 1e3, 1), "us", flush=True)
