"""Launch the 16-bit TMA kernel with the tail split (``matmul._launch(..., tail=True)``, bf16,
grouped(16), B as given) at M x N x K from argv twice: the first compiles (run under
``SWIZZLEKIT_AUTOTUNE=0``, one config, no timing launches), the second is the one Nsight
Compute profiles (``--launch-skip 1 --launch-count 1``).

    SWIZZLEKIT_AUTOTUNE=0 ncu --clock-control none -k regex:_matmul_tma_kernel --launch-skip 1 \\
        --launch-count 1 --section ... python3 docs/data/bench/tail_parts/ncu_tail.py M N K
"""
import sys

import torch

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.verify import poisoned, random_operands, relative_error

M, N, K = map(int, sys.argv[1:4])
a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
out = poisoned(M, N, torch.bfloat16, "cuda")
for _ in range(2):
    mm._launch(a, b, b, b, out, ("ncu", M, N, K), "grouped", 16, "tf32", False, True, False,
               False, False, 1, None, False, True)
torch.cuda.synchronize()
err = relative_error(out, a, b)
print(f"{M}x{N}x{K} tail launch: error {err:.2e}", "ok" if err < 1e-2 else "BAD")
