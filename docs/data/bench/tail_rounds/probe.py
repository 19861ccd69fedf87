"""The tail split past half a wave (``waves.tail_ways``: a last wave of R > S / 2 tiles cut in
``ceil(S / (S - R))`` shares, at most ``TAIL_MAX_WAYS``, run in rounds) as the library runs
it: ``matmul`` (bf16) or ``scaled_matmul`` (fp8, against ``torch._scaled_mm`` with fast
accumulation) with ``TAIL_SPLIT_ON`` (the first call times the split against the plain plan
and keeps the faster) against the same call without it (the first call under
``TAIL_SPLIT_ON = False``, named by the default order grouped(16) so that its fingerprint and
kept route differ) and cuBLAS. Shapes: 3000x5000x4000 (issue 39's), then drawn with

    rng = numpy.random.default_rng(20261127); M = rng.integers(260, 9000), N from (2048,
    3072, 4096, 5120, 6144, 8192, 11008, 14336), K from (2048, 4096, 8192, 14336); kept where
    the 128x256 tiles leave 67 to 99 of 132 SMs' tiles in a last wave after a full one (the
    cases the rounds added), the first 10

Each call checked against float64 into a NaN-poisoned C; then 5 interleaved, rotated
replicates (do_bench medians, L2 flushed); what each kept (``describe``). One JSON line a
shape.

    python3 docs/data/bench/tail_rounds/probe.py OUT.jsonl bf16|fp8 [SECONDS]   (on a GPU)

It measures the split in rounds only on the tree of f251fa8, which had it (reverted in the
next commits); elsewhere "tail on" takes the one-round split where the rule names it.
"""
import json
import statistics
import sys
import time

import numpy as np
import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton import scaled
from swizzlekit.kernels.triton.waves import PLAIN_TILE, tiles_of
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import error_of, relative_error, scaled_operands


def shapes(count: int = 10):
    """3000x5000x4000, then ``count`` drawn shapes whose last wave is past half."""
    rng = np.random.default_rng(20261127)
    out = [(3000, 5000, 4000)]
    while len(out) < count + 1:
        M = int(rng.integers(260, 9000))
        N = int(rng.choice([2048, 3072, 4096, 5120, 6144, 8192, 11008, 14336]))
        K = int(rng.choice([2048, 4096, 8192, 14336]))
        tiles = tiles_of(M, N, *PLAIN_TILE)
        if tiles > 132 and 66 < tiles % 132 <= 99:
            out.append((M, N, K))
    return out


def bf16_runs(M, N, K):
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
            "tail on": lambda out=c: mm.matmul(a, b, out=out),
            "tail off": lambda out=c: mm.matmul(a, b, out=out, order="grouped", group=16)}
    mm.TAIL_SPLIT_ON = False
    errs = {"tail off": error_of(runs["tail off"], a, b)}
    runs["tail off"]()
    mm.TAIL_SPLIT_ON = True
    errs.update({k: error_of(runs[k], a, b) for k in ("cublas", "tail on")})
    runs["tail on"]()
    kept = {"tail on": mm.describe(a, b, out=c),
            "tail off": mm.describe(a, b, out=c, order="grouped", group=16)}
    return runs, errs, kept


def fp8_runs(M, N, K):
    torch.manual_seed(0)
    a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)

    def err(fn):
        c.fill_(float("nan"))
        fn()
        return relative_error(c, ref=ref)

    runs = {"cublas": lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                               use_fast_accum=True, out=c),
            "tail on": lambda: scaled.scaled_matmul(a, b, sa, sb, out=c),
            "tail off": lambda: scaled.scaled_matmul(a, b, sa, sb, out=c, order="grouped",
                                                     group=16)}
    scaled.TAIL_SPLIT_ON = False
    errs = {"tail off": err(runs["tail off"])}
    scaled.TAIL_SPLIT_ON = True
    errs.update({k: err(runs[k]) for k in ("cublas", "tail on")})
    kept = {"tail on": scaled.scaled_describe(a, b, sa, sb, out=c),
            "tail off": scaled.scaled_describe(a, b, sa, sb, out=c, order="grouped", group=16)}
    return runs, errs, kept


if __name__ == "__main__":
    precision = sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 1e9
    start = time.time()
    with open(sys.argv[1], "a") as f:
        for M, N, K in shapes():
            if precision == "fp8" and N % 16:      # _scaled_mm takes no such B
                continue
            if time.time() - start > limit:
                print("time limit reached", flush=True)
                break
            runs, errs, kept = (fp8_runs if precision == "fp8" else bf16_runs)(M, N, K)
            bad = {k: e for k, e in errs.items() if not e < 1e-2}
            times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            tiles = tiles_of(M, N, *PLAIN_TILE)
            row = {"precision": precision, "shape": [M, N, K], "last_wave": tiles % 132,
                   "kept": kept, "errors": errs, "bad": bad, "ms": ms, "replicates": times,
                   "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            on = kept["tail on"] or {}
            print(f"{precision} {M}x{N}x{K} (last wave {tiles % 132}): "
                  + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + (f"  on/off {ms['tail off'] / ms['tail on']:.3f}x  vs cuBLAS "
                     f"{ms['cublas'] / ms['tail on']:.3f}x" if ms else "")
                  + f"  kept {on.get('config')}{' tail' if on.get('tail_split') else ''}"
                  + (f"  BAD {bad}" if bad else ""), flush=True)
