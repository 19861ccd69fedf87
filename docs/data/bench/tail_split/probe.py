"""A tail split (split_k="tail") against none (split_k=1) and cuBLAS, per shape and precision:
5 interleaved replicates of do_bench medians (turn order rotated), every output checked
against float64 first. Usage: python3 probe.py OUT.jsonl"""
import json
import sys

import torch
from triton.testing import do_bench

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.scaled import scaled_matmul

SHAPES = [(256, 14336, 4096), (3000, 5000, 4000), (512, 14336, 4096), (6000, 7000, 3000),
          (777, 4095, 1234), (1999, 4097, 3001)]
torch.manual_seed(0)
out = open(sys.argv[1], "w")
for M, N, K in SHAPES:
    for prec in ("fp8", "bf16"):
        a = torch.randn(M, K, device="cuda")
        bt = torch.randn(N, K, device="cuda")
        ref = (a.double() @ bt.double().T)
        if prec == "fp8":
            a8, b8 = a.to(torch.float8_e4m3fn), bt.to(torch.float8_e4m3fn).T
            one = torch.ones((), device="cuda")
            ref = a8.double() @ b8.double()
            ours = {s: (lambda s=s: scaled_matmul(a8, b8, one, one, split_k=s)) for s in (1, "tail")}
            if K % 16 == 0 and N % 16 == 0:
                ours["cublas"] = lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16,
                                                          use_fast_accum=True)
        else:
            a16, b16 = a.bfloat16(), bt.bfloat16().T.contiguous()
            ref = a16.double() @ b16.double()
            ours = {s: (lambda s=s: matmul(a16, b16, split_k=s)) for s in (1, "tail")}
            ours["cublas"] = lambda: a16 @ b16
        from swizzlekit.kernels.triton import matmul as mm, scaled as sc
        for k in (mm._matmul_kernel, mm._matmul_tma_kernel, sc._scaled_kernel,
                  sc._scaled_tma_kernel):
            k.cache.clear()
        errs = {}
        for name, fn in ours.items():
            c = fn()
            errs[str(name)] = float((c.double() - ref).norm() / ref.norm())
        names = list(ours)
        times = {str(n): [] for n in names}
        for r in range(5):
            turn = names[r % len(names):] + names[:r % len(names)]
            for n in turn:
                times[str(n)].append(do_bench(ours[n], warmup=25, rep=100, return_mode="median"))
        med = {n: sorted(t)[2] for n, t in times.items()}
        chosen = [f"{k.fn.__name__ if hasattr(k.fn, '__name__') else k}: {key[-6:]} -> {cfg}"
                  for k in (mm._matmul_kernel, mm._matmul_tma_kernel, sc._scaled_kernel,
                            sc._scaled_tma_kernel) for key, cfg in k.cache.items()]
        print("\n".join(chosen), flush=True)
        row = {"M": M, "N": N, "K": K, "precision": prec, "median_ms": med, "replicates_ms": times,
               "rel_err": errs}
        print(json.dumps(row), file=out, flush=True)
        gain = med["1"] / med["tail"] - 1
        vs = {n: round(med["cublas"] / med[n], 3) for n in med if "cublas" in med}
        print(f"{M}x{N}x{K} {prec}: tail {gain:+.1%} over none; x cuBLAS {vs}; err {errs}",
              flush=True)
