"""The kernels ``torch._scaled_mm`` (fast accumulation, bf16 out) launches per shape, by the
torch profiler's CUDA kernel names: what cuBLAS runs where ``scaled_matmul`` trails it.

    python3 cublas_kernels.py MxNxK [MxNxK ...]
"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

from swizzlekit.lab.verify import scaled_operands

for s in sys.argv[1:]:
    M, N, K = map(int, s.split("x"))
    a, b, sa, sb, _ = scaled_operands(M, N, K, "cuda")
    for _ in range(3):
        torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True)
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    print(s, "|", " ; ".join(names), flush=True)
