"""What cuBLAS runs where ours falls behind at ragged or wave-edge M: one cuBLAS call and one
``matmul`` call (after a warm-up) per shape, for Nsight Compute to name the kernels, their
grids, clusters and DRAM bytes.

    ncu --clock-control none --metrics ... python3 docs/data/bench/ragged_m/ncu_cublas.py \\
        MxNxK ...      (on a GPU)
"""
import sys

import torch

from swizzlekit.kernels import matmul

for shape in sys.argv[1:]:
    M, N, K = (int(v) for v in shape.split("x"))
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):                      # the route and plan are kept from the 2nd call
        matmul(a, b, out=c)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(f"{shape}")
    torch.matmul(a, b, out=c)
    matmul(a, b, out=c)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    print(shape, flush=True)
