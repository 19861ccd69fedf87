"""Which composite tiles fill the SMs on outputs of few columns and many rows, where cuBLAS
runs tiles that are no powers of two (ncu, ``../stream_k/narrow_h100/``... and
``narrow_ncu_h100/``: 128x80 at 4864x256x15936, 64x104 at 3000x256x8192, 96x128 with a split
of K at 2048x384x14336, 192x192 at 6016x768x2432, 192x128 at 7552x384x896).

Each candidate of ``TILES`` (a :class:`swizzlekit.kernels.triton.waves.WideTile`), launched
by the library's composite-tile kernel in grouped(8) order, beside ``matmul`` as called and
cuBLAS, bf16: checked against float64 into a NaN-poisoned C, then 5 interleaved, rotated
replicates (do_bench medians, L2 flushed). One JSON line a shape, with each tile's rounds on
the SMs (``waves.round_cost``).

    python3 docs/data/bench/composite/narrow.py OUT.jsonl MxNxK ...     (on a GPU)
"""
import json
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.call import _slots
from swizzlekit.kernels.triton.waves import WideTile, round_cost, tiles_of
from swizzlekit.kernels.triton.wide_kernel import launch_wide, wide_plan
from swizzlekit.lab.harness import checked_medians
from swizzlekit.lab.verify import error_of

TILES = [WideTile(128, 0, 64, 32, 64, 6, 8), WideTile(128, 0, 64, 32, 64, 6, 4),
         WideTile(128, 0, 64, 16, 64, 6, 8), WideTile(64, 0, 64, 32, 64, 6, 4),
         WideTile(64, 0, 128, 64, 64, 5, 4), WideTile(128, 64, 128, 0, 64, 4, 8),
         WideTile(128, 0, 128, 64, 64, 4, 8), WideTile(128, 64, 128, 64, 64, 3, 8),
         WideTile(128, 64, 64, 0, 64, 5, 8)]

SMS = torch.cuda.get_device_properties(0).multi_processor_count

with open(sys.argv[1], "a") as f:
    for shape in sys.argv[2:]:
        M, N, K = (int(v) for v in shape.split("x"))
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out)}
        rounds = {}
        for t in TILES:
            def run(out=c, t=t, keep={}):
                plan = keep.get(out.data_ptr())
                if plan is None:
                    plan = keep[out.data_ptr()] = wide_plan(
                        a, b, out, t, "grouped", 8, lambda tm, tn: _slots("grouped", 8, tm, tn))
                else:
                    launch_wide(plan, a, b, out)
                return out
            runs[t.label] = run
            rounds[t.label] = [tiles_of(M, N, t.height, t.width),
                               round_cost(M, N, t.height, t.width, SMS)]
        for bm, bn in ((128, 256), (128, 128), (64, 128)):
            rounds[f"plain {bm}x{bn}"] = [tiles_of(M, N, bm, bn), round_cost(M, N, bm, bn, SMS)]
        got = checked_medians(runs, lambda fn: error_of(fn, a, b), warmup_ms=10, rep_ms=40)
        kept = mm.describe(a, b, out=c)
        row = {"shape": [M, N, K], "kept": kept, "rounds": rounds, **got,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        ms = got["ms"]
        best = sorted(ms.items(), key=lambda kv: kv[1])
        print(f"{shape}: cublas {ms.get('cublas', 0) * 1e3:.1f} default "
              f"{ms.get('default', 0) * 1e3:.1f} ({kept and kept.get('config')}) | "
              + "  ".join(f"{k} {v * 1e3:.1f} [{rounds.get(k, ['', ''])[0]}]"
                          for k, v in best[:5])
              + (f"  BAD {list(got['bad'])}" if got["bad"] else ""), flush=True)
