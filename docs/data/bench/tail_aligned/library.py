"""The library's tail split (``matmul.TAIL_SPLIT_ON``, the TMA kernel's ``TAIL``) against the
same call without it and cuBLAS, bf16. ``probe`` shapes: those of ``probe.py split``;
``heldout``: drawn after the rule (``waves.tail_for``) was written and before any ran::

    rng = numpy.random.default_rng(20261128); M = rng.integers(260, 6000),
    N from (2048, 3072, 4096, 5120, 6144, 8192, 11008, 14336), K from (2048, 4096, 8192,
    11008, 14336); the first 12 where tail_for(M, N, K, 132) holds (24 draws)

``tile128``: run at commit 55dadf3, where ``tail_for`` read 128x128 tiles too (a rule
reverted after this run): the wave-edge shapes it newly named, then 8 drawn the same way
with seed 20261129 where that rule named the 128x128 tile and the 128x256 one did not (41
draws).

"tail off" names the default order (grouped(16) since bcb2e8c; grouped(8) in the runs before),
so that its fingerprint, and the route it keeps, differ from "tail on"'s. Each call checked
against float64 into a NaN-poisoned C; then 5 interleaved, rotated
replicates (do_bench medians, L2 flushed); what each kept (``matmul.describe``). One JSON
line a shape.

    python3 docs/data/bench/tail_aligned/library.py OUT.jsonl probe|heldout|tile128     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

SETS = {
    "probe": [(1163, 4096, 4096), (1201, 14336, 4096), (1100, 4096, 4096), (2200, 4096, 4096),
              (700, 8192, 8192), (1250, 8192, 8192), (2500, 4096, 8192), (1800, 14336, 4096)],
    "heldout": [(3801, 6144, 4096), (3167, 8192, 4096), (5594, 11008, 14336),
                (4646, 4096, 4096), (5254, 5120, 11008), (5713, 6144, 2048),
                (631, 14336, 8192), (2751, 8192, 11008), (5954, 11008, 4096),
                (3646, 8192, 2048), (1948, 5120, 8192), (2954, 6144, 11008)],
    "tile128": [(600, 4096, 14336), (640, 4096, 14336), (768, 4096, 14336),
                (1177, 5120, 4096), (2121, 3072, 14336), (4694, 5120, 2048), (1904, 8192, 2048),
                (4124, 11008, 14336), (2475, 6144, 11008), (4955, 4096, 14336),
                (1006, 11008, 4096)],
}

with open(sys.argv[1], "a") as f:
    for M, N, K in SETS[sys.argv[2]]:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "tail on": lambda out=c: mm.matmul(a, b, out=out),
                "tail off": lambda out=c: mm.matmul(a, b, out=out, order="grouped", group=16)}
        mm.TAIL_SPLIT_ON = False
        errs = {"tail off": error_of(runs["tail off"], a, b)}
        runs["tail off"]()                              # its route kept, without the split
        mm.TAIL_SPLIT_ON = True
        errs.update({k: error_of(runs[k], a, b) for k in ("cublas", "tail on")})
        runs["tail on"]()
        kept = {"tail on": mm.describe(a, b, out=c),
                "tail off": mm.describe(a, b, out=c, order="grouped", group=16)}
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "kept": kept, "errors": errs, "bad": bad, "ms": ms,
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        on = kept["tail on"] or {}
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + f"  on/off {ms['tail off'] / ms['tail on']:.3f}x  vs cuBLAS "
              f"{ms['cublas'] / ms['tail on']:.3f}x  kept {on.get('config')}"
              f"{' tail' if on.get('tail_split') else ''}" + (f"  BAD {bad}" if bad else ""),
              flush=True)
