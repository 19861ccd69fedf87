"""Ragged M at long K against its tile-aligned neighbour: which split of K and which tile
config the default call keeps, and what other splits would do. Per shape: cuBLAS, the
default call (``split_k=None``: S = 1 or 2 timed on its first call), and ``split_k`` = 1, 2,
3, 4, 6 and 8 (where each split keeps 4 steps of 64), each checked once against float64 into
a NaN-poisoned C, then timed in 5 interleaved, rotated replicates (do_bench medians, L2
flushed); the default's kept split and config (``matmul.describe``) beside them. One JSON
line a shape.

    python3 docs/data/bench/ragged_m/probe.py OUT.jsonl [MxNxK ...]   (on a GPU; default SHAPES)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.matmul import describe
from swizzlekit.kernels.triton.splits import MIN_STEPS_PER_SPLIT, check_split
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

SHAPES = [(317, 4096, 14336), (384, 4096, 14336), (100, 4096, 4096), (128, 4096, 4096),
          (1201, 14336, 4096), (1280, 14336, 4096)]
SPLITS = (1, 2, 3, 4, 6, 8)
if len(sys.argv) > 2:
    SHAPES = [tuple(int(v) for v in s.split("x")) for s in sys.argv[2:]]


with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out)}
        for s in SPLITS:
            if -(-K // 64) >= s * MIN_STEPS_PER_SPLIT:
                check_split(s, False, M, N)
                runs[f"split {s}"] = lambda out=c, s=s: matmul(a, b, out=out, split_k=s)
        errs = {k: error_of(fn, a, b) for k, fn in runs.items()}
        for _ in range(2):                              # the route is kept from the 2nd call
            runs["default"]()
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items() if t}
        row = {"shape": [M, N, K], "default_kept": describe(a, b, out=c), "errors": errs, "bad": bad,
               "ms": ms, "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K} kept {row['default_kept']}: "
              + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  BAD {bad}" if bad else ""), flush=True)
