"""TF32 at M = 128 on the H100: the call with split_k None, 1 and 2, its traceback if any, and
what the TMA kernel's autotuner timed. python3 repro.py"""
import traceback

import torch

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.device import current_gpu

print(torch.cuda.get_device_name(), current_gpu())
a = torch.randn(128, 4096, device="cuda")
b = torch.randn(4096, 14336, device="cuda")
ref = a.double() @ b.double()
for kw in ({"split_k": 1}, {"split_k": 2}, {}):
    try:
        c = matmul(a, b, precision="tf32", **kw)
        torch.cuda.synchronize()
        print(kw, "ok", float((c.double() - ref).norm() / ref.norm()))
    except Exception:                                    # noqa: BLE001 a probe
        traceback.print_exc(limit=-15)
    t = mm._matmul_tma_kernel
    print(kw, "timed:", {str(k): v for k, v in (getattr(t, "configs_timings", None) or {}).items()})
    print(kw, "cache:", {str(k): str(v) for k, v in t.cache.items()})
