"""A one-off probe (2026-11-22): fp8 GPU time and host time per call, TMA against pointer
loads, beside torch._scaled_mm (PYTHONPATH=src on a GPU machine). Output: fp8_probe.txt."""
import time

import torch
from triton.testing import do_bench
from swizzlekit.kernels.triton import scaled
from swizzlekit.lab.verify import scaled_operands, relative_error
for (m, n, k) in [(2048, 4096, 4096), (256, 8192, 8192), (512, 4096, 4096), (1999, 4097, 3001), (5003, 2999, 1000)]:
    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda")
    for tma in (None, False, True):
        if tma is True and k % 16: continue
        scaled.PLANS.clear()
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma)
        err = relative_error(c, ref=ref)
        cfg = [str(p) for p in scaled.PLANS._plans.values()]
        ms = do_bench(lambda: scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma), rep=200)
        # host time per call
        torch.cuda.synchronize(); t = time.perf_counter()
        for _ in range(200): scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma)
        host = (time.perf_counter() - t) / 200 * 1e6; torch.cuda.synchronize()
        print(f"{m}x{n}x{k} tma={tma} {ms*1e3:8.1f} us host {host:6.1f} us err {err:.1e} {cfg}", flush=True)
    if m % 16 == 0 and n % 16 == 0 and k % 16 == 0:
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        ms = do_bench(lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True, out=c), rep=200)
        print(f"{m}x{n}x{k} cublas {ms*1e3:8.1f} us", flush=True)
