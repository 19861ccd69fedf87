"""Would a 64-row tile 256 wide serve ragged M? The TMA kernel of ``stream_k/probe.py``, one
program a tile (grouped(8)), in tile configs the GEMM's autotuner does not offer (64x256x64)
beside ones it does, at ragged M and their tile-aligned neighbours; ``matmul`` and cuBLAS
beside them. Each checked against float64 (rows sampled) into a NaN-poisoned C, then timed in
5 interleaved, rotated replicates (do_bench medians, L2 flushed). One JSON line a shape.

    python3 docs/data/bench/ragged_m/wide.py OUT.jsonl        (on a GPU)
"""
import json
import pathlib
import sys

import torch
import triton

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "stream_k"))
from probe import error, stream_k  # noqa: E402

from swizzlekit.kernels import matmul  # noqa: E402
from swizzlekit.lab.harness import checked_medians  # noqa: E402

SHAPES = [(317, 4096, 14336), (384, 4096, 14336), (200, 14336, 4096), (256, 14336, 4096),
          (600, 4096, 14336), (640, 4096, 14336), (1201, 14336, 4096)]
#: (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps, CTAs per SM: unused with one program a tile)
CONFIGS = [(64, 256, 64, 3, 4, 1), (64, 256, 64, 4, 4, 1), (64, 256, 64, 4, 8, 1),
           (128, 128, 64, 5, 8, 1), (64, 128, 64, 4, 4, 1), (128, 256, 64, 3, 8, 1)]

with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out)}
        for cfg in CONFIGS:
            runs["{}x{}x{}/s{}/w{}".format(*cfg[:5])] = (
                lambda out=c, cfg=cfg: stream_k(a, b, out, cfg, "grid"))
        got = checked_medians(runs, lambda fn: error(fn, a, b, M, N), warmup_ms=10,
                              rep_ms=40)
        errs, bad, ms, times = (got[k] for k in ("errors", "bad", "ms", "replicates"))
        row = {"shape": [M, N, K], "errors": errs, "bad": bad, "ms": ms, "replicates": times,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  BAD {list(bad)}" if bad else ""), flush=True)
