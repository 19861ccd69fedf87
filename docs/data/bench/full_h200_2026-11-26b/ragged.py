"""The two ragged shapes that ran 3-4x slower in this run's suite, again in a fresh process:
do_bench medians of 5 replicates, the plan each call ran (config, grid). Usage:
python3 ragged.py"""
import torch
from triton.testing import do_bench

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm, scaled as sc
from swizzlekit.kernels.triton.scaled import scaled_matmul

torch.manual_seed(0)
one = torch.ones((), device="cuda")
a8 = torch.randn(777, 1234, device="cuda").to(torch.float8_e4m3fn)
b8 = torch.randn(4095, 1234, device="cuda").to(torch.float8_e4m3fn).T
a16 = torch.randn(1999, 3001, device="cuda", dtype=torch.bfloat16)
b16 = torch.randn(3001, 4097, device="cuda", dtype=torch.bfloat16)
runs = {"fp8 777x4095x1234": lambda: scaled_matmul(a8, b8, one, one),
        "bf16 1999x4097x3001": lambda: matmul(a16, b16)}
for name, f in runs.items():
    f()
    t = sorted(do_bench(f, warmup=25, rep=100, return_mode="median") for _ in range(5))
    print(name, f"{t[2] * 1e3:.1f} us (replicates {[round(x * 1e3, 1) for x in t]})")
for cache in (mm.PLANS, sc.PLANS):
    for key, plan in cache._plans.items():
        print(key[1:4], key[-6:], plan.grid, plan.config)
