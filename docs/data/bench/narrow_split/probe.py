"""Outputs of 256 columns and many rows (bf16 4864x256x15936 ran 0.84x cuBLAS in
docs/data/bench/heldout_draw/): their 128x128 tiles number fewer than the H100's 132 SMs, so
one round leaves SMs idle, and ``matmul`` times a split of K only from M <= 512
(``splits.auto_split``). Here ``matmul`` as called against ``split_k`` = 2, 3 and 4 given
(the autotuner then picks the config for that split) and cuBLAS; ``describe`` of each. Each
checked against float64 into a NaN-poisoned C; 5 interleaved, rotated replicates of do_bench
medians (L2 flushed).

    python3 docs/data/bench/narrow_split/probe.py OUT.jsonl [MxNxK ...]     (on a GPU;
    the shapes named, else SHAPES)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.matmul import describe
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

SHAPES = [(4864, 256, 15936), (6912, 256, 3200), (7936, 256, 8576), (3000, 256, 8192),
          (8192, 128, 8192), (2048, 384, 14336)]

with open(sys.argv[1], "a") as f:
    named = [tuple(int(v) for v in arg.split("x")) for arg in sys.argv[2:]]
    for M, N, K in named or SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out)}
        for s in (2, 3, 4):
            runs[f"split {s}"] = lambda out=c, s=s: matmul(a, b, out=out, split_k=s)
        errs = {}
        for k, fn in runs.items():
            try:
                errs[k] = error_of(fn, a, b)
            except Exception as e:             # a split the door refuses: its text
                errs[k] = f"{type(e).__name__}: {str(e)[:160]}"
        bad = {k: e for k, e in errs.items() if not (isinstance(e, float) and e < 1e-2)}
        for k in runs:
            if k not in bad:
                runs[k]()
        kept = {"default": describe(a, b, out=c)}
        kept.update({f"split {s}": describe(a, b, out=c, split_k=s) for s in (2, 3, 4)
                     if f"split {s}" not in bad})
        times = interleaved_ms({k: v for k, v in runs.items() if k not in bad}, 5,
                               warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "kept": kept, "errors": errs, "bad": bad, "ms": ms,
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + "  | x cublas " + " ".join(f"{k}={ms['cublas'] / v:.3f}" for k, v in ms.items()
                                         if k != "cublas")
              + "  | " + "; ".join(f"{k}: {v and v['config']}" for k, v in kept.items())
              + (f"  BAD {list(bad)}" if bad else ""), flush=True)
