"""16-bit shapes where the GEMM ran below the tutorial-style baseline: our kernel by its
default load path, by pointer loads and by TMA, against the baseline and cuBLAS; 5
interleaved replicates of do_bench medians (turn order rotated), every output checked
against float64 first. Usage: python3 probe.py OUT.jsonl"""
import json
import sys

import torch
from triton.testing import do_bench

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.baseline import matmul_baseline

SHAPES = [(2048, 2048, 2048), (256, 14336, 4096), (1024, 1024, 1024), (4096, 4096, 4096),
          (8192, 4096, 14336), (32768, 1024, 4096), (3072, 3072, 3072)]
torch.manual_seed(0)
out = open(sys.argv[1], "w")
for M, N, K in SHAPES:
    for dtype in (torch.bfloat16, torch.float16):
        a = torch.randn(M, K, device="cuda", dtype=dtype)
        b = torch.randn(K, N, device="cuda", dtype=dtype)
        ref = a.double() @ b.double()
        runs = {"default": lambda: matmul(a, b), "pointer": lambda: matmul(a, b, tma=False),
                "tma": lambda: matmul(a, b, tma=True), "baseline": lambda: matmul_baseline(a, b),
                "cublas": lambda: a @ b}
        err = {n: float((f().double() - ref).norm() / ref.norm()) for n, f in runs.items()}
        names = list(runs)
        times = {n: [] for n in names}
        for r in range(5):
            for n in names[r % len(names):] + names[:r % len(names)]:
                times[n].append(do_bench(runs[n], warmup=25, rep=100, return_mode="median"))
        med = {n: sorted(t)[2] for n, t in times.items()}
        row = {"M": M, "N": N, "K": K, "dtype": str(dtype)[6:], "median_ms": med,
               "replicates_ms": times, "rel_err": err}
        print(json.dumps(row), file=out, flush=True)
        print(f"{M}x{N}x{K} {str(dtype)[6:]}: x cuBLAS " +
              " ".join(f"{n} {med['cublas'] / med[n]:.3f}" for n in names[:-1]), flush=True)
