"""The pitched copy's pay-off on this card: bf16 calls whose B rows do not start on 64-byte
boundaries, timed with B always copied into 128-byte rows or never (``PITCH_PAYOFF`` 0 or
1e9; one mode a process), cuBLAS beside each; 5 replicates of do_bench medians, every output
checked against float64. Usage: python3 probe.py copy|nocopy"""
import sys

import torch
from triton.testing import do_bench

import swizzlekit.kernels.triton.call as call
from swizzlekit.kernels import matmul

call.PITCH_PAYOFF = 0 if sys.argv[1] == "copy" else 1e9
SHAPES = [(1000, 9000, 4096), (1500, 7000, 3000), (2000, 9000, 4096), (3000, 5000, 4000),
          (6000, 7000, 3000), (9000, 7000, 3000)]
torch.manual_seed(0)
for M, N, K in SHAPES:
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    ref = a.double() @ b.double()
    err = float((matmul(a, b).double() - ref).norm() / ref.norm())
    assert err < 1e-2, err
    ours, cub = [], []
    for _ in range(5):
        ours.append(do_bench(lambda: matmul(a, b), warmup=25, rep=100, return_mode="median"))
        cub.append(do_bench(lambda: a @ b, warmup=25, rep=100, return_mode="median"))
    o, c = sorted(ours)[2], sorted(cub)[2]
    print(f"{M}x{N}x{K} {sys.argv[1]}: {o * 1e3:.1f} us, cuBLAS {c * 1e3:.1f} us, "
          f"x cuBLAS {c / o:.3f}, err {err:.1e}", flush=True)
