"""Is a persistent grid faster by default? At tile-aligned bf16 shapes of several waves,
``matmul`` as a user calls it (``persistent=False``), with ``persistent=True``, the plain
persistent TMA kernel of ``stream_k/probe.py`` (128x256x64/s3/w8, grouped(8), one program
per SM, tiles in turn) and cuBLAS; the config each ``matmul`` call kept
(``matmul.describe``). Each checked against float64 (rows sampled) into a NaN-poisoned C, then
timed in 5 interleaved, rotated replicates (do_bench medians, L2 flushed). One JSON line a
shape.

    python3 docs/data/bench/persistent_dp/probe.py OUT.jsonl        (on a GPU)
"""
import json
import pathlib
import sys

import torch
import triton

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "stream_k"))
from probe import error, stream_k  # noqa: E402

from swizzlekit.kernels import matmul  # noqa: E402
from swizzlekit.kernels.triton.matmul import describe  # noqa: E402
from swizzlekit.lab.harness import checked_medians  # noqa: E402

SHAPES = [(6016, 7040, 3008), (9088, 7040, 3008), (4096, 4096, 4032), (3072, 5120, 4032),
          (1280, 14336, 4096), (4096, 4096, 4096), (8192, 8192, 8192), (2048, 14336, 8192),
          (16384, 2048, 8192), (4096, 11008, 4096)]

with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out),
                "persistent": lambda out=c: matmul(a, b, out=out, persistent=True),
                "probe dp": lambda out=c: stream_k(a, b, out, (128, 256, 64, 3, 8, 1), "dp")}
        got = checked_medians(runs, lambda fn: error(fn, a, b, M, N), warmup_ms=10,
                              rep_ms=40)
        errs, bad, ms, times = (got[k] for k in ("errors", "bad", "ms", "replicates"))
        kept = {"default": describe(a, b, out=c), "persistent": describe(a, b, out=c,
                                                                          persistent=True)}
        row = {"shape": [M, N, K], "kept": kept, "errors": errs, "bad": bad, "ms": ms,
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + f"  kept {kept['default'] and kept['default']['config']} / "
              f"{kept['persistent'] and kept['persistent']['config']}"
              + (f"  BAD {bad}" if bad else ""), flush=True)
