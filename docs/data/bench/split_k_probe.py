"""The split-K probe behind docs/benchmarks.md ("Timed alone at 128x4096x4096"): GPU time
(do_bench median, L2 flushed) and host time per call of swizzlekit.kernels.matmul at S = 1, 2, 4,
TMA and pointer loads. Run as `PYTHONPATH=src python3 docs/data/bench/split_k_probe.py` on an
NVIDIA H200 (nvidia-h200 lease), 2026-11-22, torch 2.11.0+cu130, triton 3.6.0, with split_k_for
as the default of that day (this script passes split_k explicitly, so it runs the same today)."""
import time, torch
from triton.testing import do_bench
from swizzlekit.kernels.triton import matmul as mm
m, n, k = 128, 4096, 4096
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16); b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
print("cublas", round(do_bench(lambda: torch.matmul(a, b, out=c), return_mode="median") * 1e3, 1), "us", flush=True)
for tma in (True, False):
    for s in (1, 2, 4):
        f = lambda: mm.matmul(a, b, out=c, split_k=s, tma=tma)
        n0 = len(mm.PLANS); f(); torch.cuda.synchronize()
        us = do_bench(f, return_mode="median") * 1e3
        t = time.perf_counter()
        for _ in range(100): f()
        host = (time.perf_counter() - t) * 1e4
        torch.cuda.synchronize()
        print(f"tma={tma} split={s}: {us:.1f} us, host {host:.1f} us/call, plans {n0}->{len(mm.PLANS)}",
              getattr(mm._matmul_tma_kernel if tma else mm._matmul_kernel, "best_config", None), flush=True)
