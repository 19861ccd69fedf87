"""Held-out check of ``copies.copy_route`` for 16-bit calls whose rows TMA cannot read, on
shapes the rule was not drawn from (``probe.py``'s were): per shape, cuBLAS, the default
call, the call with ``tma=False`` (below 2^31 that reads the rows as given, as the default
did before COPY_MIN_MNK), the call on the copies ``copies._tma_copies`` makes (timed with
them), and the default call on the shape's tile-aligned neighbour (M and N rounded up to
128, K to 64). Each checked against float64 into a NaN-poisoned C, then timed
in 5 interleaved, rotated replicates (do_bench medians, L2 flushed); one JSON line a shape.

    python3 docs/data/bench/ragged_small/validate.py OUT.jsonl [heldout|edge]   (on a GPU)
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

SETS = {
    # drawn before the first run, for COPY_MIN_MNK = 2^28 and COPY_B_MIN_M = 64
    "heldout": [(300, 2000, 1999), (640, 1537, 1000), (1500, 1000, 777), (96, 3001, 2048),
                (250, 4095, 1234), (2000, 999, 555), (128, 12289, 1023), (64, 4097, 2047),
                (48, 6001, 3001), (33, 8191, 4096), (3000, 48, 2001), (700, 700, 700),
                (400, 999, 601)],
    # drawn after it, for COPY_B_MIN_M = 48: rows around the floor, and M*N*K around 2^28
    "edge": [(36, 7001, 2001), (40, 5001, 3003), (44, 8191, 2048), (48, 12001, 4096),
             (56, 3333, 4097), (24, 9001, 3001), (128, 5001, 3001), (300, 700, 900),
             (256, 1001, 801), (300, 1111, 999), (1000, 257, 1111)],
}


def up(x, m):
    return -(-x // m) * m


def on_copies(a, b, out):
    a2, b2 = copies._tma_copies(a, b)
    return matmul(a2, b2, out=out)


with open(sys.argv[1], "a") as f:
    for M, N, K in SETS[sys.argv[2] if len(sys.argv) > 2 else "heldout"]:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        M2, N2, K2 = up(M, 128), up(N, 128), up(K, 64)
        a2 = torch.randn(M2, K2, device="cuda", dtype=torch.bfloat16)
        b2 = torch.randn(K2, N2, device="cuda", dtype=torch.bfloat16)
        c2 = torch.empty(M2, N2, device="cuda", dtype=torch.bfloat16)
        route = copies.copy_route(2, M, N, K, K % 8 != 0, N % 8 != 0)
        runs = {"cublas": (lambda out=c: torch.matmul(a, b, out=out), a, b),
                "default": (lambda out=c: matmul(a, b, out=out), a, b),
                "as given": (lambda out=c: matmul(a, b, out=out, tma=False), a, b),
                "copies for TMA": (lambda out=c: on_copies(a, b, out), a, b),
                "aligned neighbour": (lambda out=c2: matmul(a2, b2, out=out), a2, b2)}
        errs = {k: error_of(fn, x, y) for k, (fn, x, y) in runs.items()}
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        fns = {k: fn for k, (fn, _, _) in runs.items()}
        times = {} if bad else interleaved_ms(fns, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items() if t}
        row = {"shape": [M, N, K], "neighbour": [M2, N2, K2], "route": route, "errors": errs,
               "bad": bad, "ms": ms, "replicates": times,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K} [{route or 'as given'}]: "
              + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  BAD {bad}" if bad else ""), flush=True)
