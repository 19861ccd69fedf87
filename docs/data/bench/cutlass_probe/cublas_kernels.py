"""The kernels ``torch.matmul`` launches per bf16 shape (A and B row-major, as the probe's),
by the torch profiler's CUDA kernel names: what cuBLAS runs where CUTLASS's clustered GEMM
trails it.

    python3 cublas_kernels.py MxNxK [MxNxK ...]
"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

for s in sys.argv[1:]:
    M, N, K = map(int, s.split("x"))
    a = torch.randn(M, K, device="cuda").bfloat16()
    b = torch.randn(K, N, device="cuda").bfloat16()
    for _ in range(3):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        torch.matmul(a, b)
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    print(s, "|", " ; ".join(names), flush=True)
