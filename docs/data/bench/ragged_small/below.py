"""Where copies for TMA pay below ``COPY_MIN_MNK`` (2^28) now that a repeat call launches
them by address (``matmul._follow_copies``): 16-bit calls whose rows are no 16-byte
multiples, as given (``tma=False``: pointer loads, element by element) against on copies
(``tma=None`` with ``COPY_MIN_MNK`` set to 1 in this process; B's floor kept), beside cuBLAS.
Two clocks per call, in 5 interleaved, rotated replicates: ``do_bench``'s median (L2 flushed,
the host's time hidden behind the flush) and ``loop``, the GPU time of 200 calls issued back
to back with nothing else queued, per call (a stream of such calls: bound by the host's time
or the GPU's, whichever is longer). Each call checked once against float64 into a
NaN-poisoned C. ``probe``: the shapes a threshold is read from; ``heldout``: drawn with them,
before any was run, to judge it.

    python3 docs/data/bench/ragged_small/below.py OUT.jsonl [probe|heldout ...]   (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.copies as copies
from swizzlekit.kernels import matmul
from swizzlekit.lab.harness import back_to_back_ms, median_ms, rotated
from swizzlekit.lab.verify import error_of

NK = [(1001, 1001), (1029, 513), (4097, 255), (513, 2049), (700, 900)]
SETS = {"probe": [(M, N, K) for N, K in NK for M in (64, 128, 256, 512)
                  if 2**23 <= M * N * K < 2**28],
        "heldout": [(200, 1500, 700), (100, 3001, 799), (384, 777, 555), (150, 2049, 777),
                    (600, 600, 600), (80, 5000, 601), (1000, 300, 500), (256, 513, 1999),
                    (96, 1500, 999), (64, 900, 1100)]}
copies.COPY_MIN_MNK = 1


shapes = [s for name in (sys.argv[2:] or ["probe"]) for s in SETS[name]]
with open(sys.argv[1], "a") as f:
    for M, N, K in shapes:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        route = copies.copy_route(2, M, N, K, K % 8 != 0, N % 8 != 0)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "as given": lambda out=c: matmul(a, b, out=out, tma=False),
                "copies": lambda out=c: matmul(a, b, out=out)}
        errs = {k: error_of(fn, a, b) for k, fn in runs.items()}
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {f"{k} {clock}": [] for k in runs for clock in ("do_bench", "loop")}
        for turn in range(0 if bad else 5):
            for k in rotated(list(runs), turn):
                times[f"{k} do_bench"].append(median_ms(runs[k], warmup_ms=10, rep_ms=40))
                times[f"{k} loop"].append(back_to_back_ms(runs[k]))
        ms = {k: statistics.median(t) for k, t in times.items() if t}
        row = {"shape": [M, N, K], "route": route, "errors": errs, "bad": bad, "ms": ms,
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K} [{route or 'as given'}]: "
              + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  BAD {bad}" if bad else ""), flush=True)
