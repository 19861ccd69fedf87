"""Where the copies for TMA pay below ``PAD_MIN_MNK`` (2^31), for 16-bit calls whose rows
are no 16-byte multiples: below it the call reads such rows as given with pointer loads,
element by element (``footprint.vec_hint`` gives them 1). Per shape: cuBLAS, the default call,
and the call on the copies ``copies._tma_copies`` makes (TMA, C by masked stores), each checked
once against float64 into a NaN-poisoned C, then timed in 5 interleaved replicates (do_bench
medians, L2 flushed); one JSON line per shape. ``grid``: M 16 to 1537 against four N x K;
``edge``: where copying costs more than it saves, small M against a large B (B's copy) and
small N against a large A (A's copy).

    python3 docs/data/bench/ragged_tma/small_probe.py OUT.jsonl [grid|edge ...]   (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.copies as copies
from swizzlekit.kernels import matmul
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of

NK = [(1001, 1001), (1025, 1029), (4097, 1234), (8191, 8191)]
MS = [16, 128, 512, 1001, 1537]
SETS = {"grid": [(M, N, K) for N, K in NK for M in MS],
        "edge": [(M, 8191, 4096) for M in (16, 32, 48, 64)]
        + [(M, 6143, 3071) for M in (16, 32, 64, 96)]
        + [(8191, N, 4095) for N in (16, 32, 64)]}


def on_copies(a, b, out):
    a2, b2 = copies._tma_copies(a, b)      # what matmul does from PAD_MIN_MNK on
    return matmul(a2, b2, out=out)


shapes = [s for name in (sys.argv[2:] or ["grid"]) for s in SETS[name]]
with open(sys.argv[1], "a") as f:
    for M, N, K in shapes:
        if M * N * K >= copies.PAD_MIN_MNK:
            continue
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out),
                "copies for TMA": lambda out=c: on_copies(a, b, out)}
        errs = {k: error_of(fn, a, b) for k, fn in runs.items()}
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        row = {"shape": [M, N, K], "errors": errs, "bad": bad,
               "ms": {k: statistics.median(t) for k, t in times.items() if t},
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        ms = row["ms"]
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v:.4f}" for k, v in ms.items())
              + (f"  BAD {bad}" if bad else ""), flush=True)
