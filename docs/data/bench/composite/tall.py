"""Held out: composite tiles where they cut the rounds of few-column outputs
(``waves.round_cost``, ``WIDE_MIN_SAVING``: the rule added after bf16 7168x384x4160 ran 0.77x
cuBLAS in docs/data/bench/heldout_draw/). ``matmul`` as called (``wide on``: its first call
times the tiles ``wide_for`` names against its autotuned config and the tail split) against
the same call without them (``order="grouped", group=8``, first called with
``matmul.WIDE_TILES_ON = False``) and cuBLAS, bf16, at shapes drawn after the rule was
written and before any ran::

    rng = numpy.random.default_rng(20261128); M = rng.integers(2048, 16385),
    N = 8 * rng.integers(32, 129), K from (1024, 2048, 3072, 4096, 8192, 14336); the first 8
    where the new rule names a tile the wave-fill rule alone did not (100 draws)

and, after them, the two shapes that prompted the rule (not held out). Each call checked
against float64 into a NaN-poisoned C; 5 interleaved, rotated replicates (do_bench medians,
L2 flushed); what each kept (``matmul.describe``). One JSON line a shape.

    python3 docs/data/bench/composite/tall.py OUT.jsonl     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

SHAPES = [(2440, 960, 8192), (15039, 952, 8192), (12374, 784, 1024), (13989, 280, 3072),
          (5887, 680, 3072), (7160, 568, 8192), (15127, 296, 4096), (4710, 432, 8192),
          (7168, 384, 4160), (6016, 768, 2432)]

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
              + (f"  on/off {ms['wide off'] / ms['wide on']:.3f}  x cublas on "
                 f"{ms['cublas'] / ms['wide on']:.3f} off {ms['cublas'] / ms['wide off']:.3f}"
                 if ms else "")
              + f"  kept {kept['wide on'] and kept['wide on']['config']}"
              + (f"  BAD {bad}" if bad else ""), flush=True)
