"""Where a split of K loses time on outputs of few columns: one ``matmul`` call as the default
plans it and one with ``split_k=3`` per shape (after warm-up calls), inside an NVTX range for
Nsight Compute.

    ncu --clock-control none --nvtx --nvtx-include SHAPE/ --section ... \\
        python3 docs/data/bench/narrow_split/ncu_split.py MxNxK ...      (on a GPU)
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
    for split in (None, 3):
        for _ in range(3):                  # the route and plan are kept from the 2nd call
            matmul(a, b, out=c, split_k=split)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(shape)
    matmul(a, b, out=c)
    matmul(a, b, out=c, split_k=3)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    print(shape, flush=True)
