"""fp8 at M*N*K around FP8_TMA_MIN_MNK (2^35): the default (pointer loads up to it) against
TMA with the flattened configs, timed as the benchmark times (do_bench, L2 flushed, launch
plans warm), H200. Prints JSON lines."""
import json
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, "src")
from swizzlekit.kernels.triton import scaled  # noqa: E402
from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands  # noqa: E402

SHAPES = [(2048, 4096, 4096), (8192, 8192, 512), (4096, 4096, 2048), (1024, 4096, 4096),
          (512, 8192, 8192), (256, 8192, 8192), (4096, 8192, 1024)]

for M, N, K in SHAPES:
    a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
    c = poisoned(M, N, torch.bfloat16, "cuda")
    one = torch.ones((), device="cuda")
    cub = do_bench(lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                            use_fast_accum=True, out=c), warmup=50, rep=300)
    for tma in (None, True):
        c.fill_(float("nan"))
        f = lambda: scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma)  # noqa: E731
        f()
        err = relative_error(c, ref=ref)
        ms = do_bench(f, warmup=50, rep=300)
        print(json.dumps({"shape": [M, N, K], "tma": tma, "ms": ms, "vs_scaled_mm": cub / ms,
                          "err": err}), flush=True)
