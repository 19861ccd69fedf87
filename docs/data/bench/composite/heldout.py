"""Held out: ``matmul`` with composite tiles (the default, ``order="auto"``, which times the
composite tile :func:`.waves.wide_for` names against the autotuned config on the first call)
against the same call without them (``order="grouped", group=8``, first called with
``matmul.WIDE_TILES_ON = False``; ``auto`` picks grouped(8) at these shapes) and cuBLAS, at
shapes drawn after the rule was written and before any ran::

    rng = numpy.random.default_rng(20261126); M = rng.integers(260, 1400),
    N from (2048, 3072, 4096, 5120, 6144, 8192, 11008, 14336), K from (2048, 4096, 8192,
    11008, 14336); the first 10 where wide_for(M, N, K, 132) names a tile (42 draws)

bf16. Each call checked against float64 into a NaN-poisoned C; then 5 interleaved, rotated
replicates (do_bench medians, L2 flushed); what each ran (``matmul.describe``). One JSON line
a shape.

    python3 docs/data/bench/composite/heldout.py OUT.jsonl [second]     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

SHAPES = [(522, 4096, 8192), (755, 8192, 14336), (1015, 5120, 8192), (1016, 6144, 4096),
          (1120, 8192, 4096), (1194, 4096, 14336), (334, 8192, 4096), (529, 8192, 4096),
          (979, 6144, 4096), (947, 6144, 14336)]
#: ``second``: drawn the same way with seed 20261127 (25 draws) after the (128+64)x(128+64)
#: tile joined the rule, since 529x8192x4096 of the first set had shown it
SECOND = [(1163, 4096, 4096), (1211, 4096, 11008), (395, 6144, 4096), (424, 6144, 4096),
          (1096, 5120, 14336), (703, 8192, 11008), (1111, 4096, 11008), (1313, 2048, 14336),
          (784, 11008, 4096), (1300, 4096, 11008)]
if len(sys.argv) > 2 and sys.argv[2] == "second":
    SHAPES = SECOND

with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "wide on": lambda out=c: mm.matmul(a, b, out=out),
                "wide off": lambda out=c: mm.matmul(a, b, out=out, order="grouped", group=8)}
        mm.WIDE_TILES_ON = False
        errs = {"wide off": error_of(runs["wide off"], a, b)}
        runs["wide off"]()                              # its route kept, plain
        mm.WIDE_TILES_ON = True
        errs.update({k: error_of(runs[k], a, b) for k in ("cublas", "wide on")})
        runs["wide on"]()
        kept = {"wide on": mm.describe(a, b, out=c),
                "wide off": mm.describe(a, b, out=c, order="grouped", group=8)}
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "kept": kept, "errors": errs, "bad": bad, "ms": ms,
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + f"  kept {kept['wide on'] and kept['wide on']['config']}"
              + (f"  BAD {bad}" if bad else ""), flush=True)
