"""Registers and spills of every TMA GEMM kernel a set of calls compiled: ``matmul`` as called
and with ``split_k`` 2 and 3 at each shape given, then each compiled variant of
``_matmul_tma_kernel`` (its tile, stages, warps, split, tail split, flattening, C's path) with
``n_regs`` and ``n_spills`` as the driver reports them on loading it.

    python3 docs/data/bench/narrow_split/regs.py OUT.jsonl MxNxK ...      (on a GPU)
"""
import json
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.plans import _layers
from swizzlekit.kernels.triton.tma_kernel import _matmul_tma_kernel

KEYS = ("BLOCK_M", "BLOCK_N", "BLOCK_K", "SPLIT_K", "TAIL", "FLAT", "C_PTR", "SWAP_AB",
        "ONE_TILE", "PERSISTENT")

for shape in sys.argv[2:]:
    M, N, K = (int(v) for v in shape.split("x"))
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    for split in (None, 2, 3):
        matmul(a, b, out=c, split_k=split)
torch.cuda.synchronize()
jit, _ = _layers(_matmul_tma_kernel)
with open(sys.argv[1], "w") as f:
    for cache in jit.device_caches.values():
        for kernel in cache[0].values():
            kernel._init_handles()
            consts = {k: v for k, v in kernel.src.constants.items()
                      if isinstance(k, str) and k in KEYS} if hasattr(kernel.src, "constants") else {}
            if not consts:      # constants keyed by argument position in this Triton
                names = jit.arg_names
                consts = {names[i[0]]: v for i, v in kernel.src.constants.items()
                          if isinstance(i, tuple) and names[i[0]] in KEYS}
            row = {**consts, "num_stages": kernel.metadata.num_stages,
                   "num_warps": kernel.metadata.num_warps, "n_regs": kernel.n_regs,
                   "n_spills": kernel.n_spills, "shared": kernel.metadata.shared,
                   "triton": triton.__version__, "gpu": torch.cuda.get_device_name()}
            f.write(json.dumps(row) + "\n")
            print(row, flush=True)
