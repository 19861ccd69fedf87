"""One launch of the library's bf16 GEMM (TMA loads) under each of four CTA orders, for Nsight
Compute: where the row and column orders lose time that the time model does not see
(``model_check.txt``: at 3000x5000x4000 the row order reads the DRAM bytes of grouped(16) by
the L2 model, and runs 12% slower).

    SWIZZLEKIT_AUTOTUNE=0 ncu --clock-control none --kernel-name regex:_matmul_tma_kernel \\
        --metrics ... --csv python3 docs/data/bench/order_tiebreak/ncu_orders.py   (on a GPU)

Prints the launch order: shape and order, with each output's float64 error.
"""
import torch

from swizzlekit.kernels import matmul
from swizzlekit.lab.bench import operands

from probe import ORDERS          # the four orders the probe times

SHAPES = [(3000, 5000, 4000), (8192, 8192, 8192), (4096, 16384, 4096)]

for M, N, K in SHAPES:
    torch.manual_seed(0)
    a, b, dtype, _, ref = operands(M, N, K, "bf16")
    c = torch.empty(M, N, device="cuda", dtype=dtype)
    for name, (o, p) in ORDERS.items():
        c.fill_(float("nan"))
        matmul(a, b, o, out=c, **p)
        torch.cuda.synchronize()
        err = float((c.double() - ref).norm() / ref.norm())
        print(f"{M}x{N}x{K} {name} err {err:.2e}", flush=True)
