"""The library's flattened configs, checked where the probe (flat_probe.py) saw them win: each
shape timed with every TMA config the autotuner may take, then with the flattened ones taken
out, in one process (bf16 matmul and fp8 scaled_matmul, H200; fp8 forced to TMA, which its
default takes only above M*N*K = 2^35). Prints JSON lines: TFLOP/s,
the config the autotuner chose, and the float64 error of the result."""
import json
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, "src")
from swizzlekit.kernels.triton import matmul as mm, scaled  # noqa: E402
from swizzlekit.lab.verify import poisoned, random_operands, relative_error, scaled_operands  # noqa: E402

SHAPES = [(8192, 8192, 512), (8192, 8192, 1024), (16384, 16384, 2048), (4096, 4096, 4096),
          (8192, 8192, 8192)]


def timed(kernel, plans, call, check):
    plans.clear()
    call()
    torch.cuda.synchronize()
    ms = do_bench(call, warmup=50, rep=300)
    return ms, str(list(kernel.cache.values())[-1]), check()


for prec in ("bf16", "fp8"):
    kernel = mm._matmul_tma_kernel if prec == "bf16" else scaled._scaled_tma_kernel
    plans = mm.PLANS if prec == "bf16" else scaled.PLANS
    every = list(kernel.configs)
    for M, N, K in SHAPES:
        if prec == "bf16":
            a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
            c = poisoned(M, N, torch.bfloat16, "cuda")
            call = lambda: mm.matmul(a, b, out=c)                     # noqa: E731
            check = lambda: relative_error(c, a, b)                    # noqa: E731
        else:
            a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
            c = poisoned(M, N, torch.bfloat16, "cuda")
            call = lambda: scaled.scaled_matmul(a, b, sa, sb, out=c, tma=True)  # noqa: E731
            check = lambda: relative_error(c, ref=ref)                 # noqa: E731
        for name, configs in (("with_flat", every),
                              ("without_flat", [x for x in every if not x.kwargs["FLAT"]])):
            kernel.configs = configs
            kernel.cache.clear()
            ms, best, err = timed(kernel, plans, call, check)
            print(json.dumps({"prec": prec, "shape": [M, N, K], "configs": name, "ms": ms,
                              "tflops": 2 * M * N * K / ms / 1e9, "best": best, "err": err}),
                  flush=True)
        kernel.configs = every
