"""Which split the default (split_k=None) picks per decode shape, and its time (do_bench,
flushed) against S = 1 forced and cuBLAS.
usage: PYTHONPATH=src python3 docs/data/bench/split_k/split_picks.py PRECISION OUT.jsonl"""
import json, sys
import torch
from swizzlekit.kernels import KERNELS
from swizzlekit.kernels.triton import matmul as mm, scaled
from swizzlekit.lab.bench import PRECISIONS, operands
from swizzlekit.lab.harness import median_ms
from swizzlekit.lab.verify import poisoned, relative_error

SHAPES = [(64, 4096, 4096), (128, 4096, 4096), (256, 4096, 4096), (512, 4096, 4096),
          (256, 14336, 4096), (128, 14336, 4096), (16, 8192, 8192), (256, 8192, 8192)]
prec, out = sys.argv[1], sys.argv[2]
_, mm_precision, bound = PRECISIONS[prec]
splits = scaled.SPLITS if prec == "fp8" else mm.SPLITS
with open(out, "a") as f:
    for m, n, k in SHAPES:
        a, b, out_dtype, extra, ref = operands(m, n, k, prec)
        kw = dict(precision=mm_precision, **extra)
        c = poisoned(m, n, out_dtype, "cuda")
        run = lambda **x: KERNELS["triton"].run(a, b, out=c, **kw, **x)
        cub = median_ms(lambda: KERNELS["cublas"].run(a, b, out=c, **kw))
        run()
        torch.cuda.synchronize()
        err = relative_error(c, ref=ref)
        picked = list(splits._plans.values())[-1] if len(splits) else None
        t_default = median_ms(run)
        run(split_k=1)
        t_one = median_ms(lambda: run(split_k=1))
        t_default2 = median_ms(run)
        row = dict(M=m, N=n, K=k, precision=prec, picked=picked, cublas_us=round(cub * 1e3, 2),
                   default_us=round(t_default * 1e3, 2), default_again_us=round(t_default2 * 1e3, 2),
                   s1_us=round(t_one * 1e3, 2), ok=bool(err < bound))
        print(json.dumps(row), flush=True)
        f.write(json.dumps(row) + "\n")
