"""What ``matmul`` keeps on a ragged shape's first call, and what that costs: at shapes where
the library's call ran well behind the same tile on B's pitched copy plus the copy
(docs/data/bench/mixed_b/), time

* ``auto``: ``matmul(a, b)`` as a user calls it (its first call times the tail split, where
  ``waves.tail_timed`` names it, against the autotuned config);
* ``grouped8``: ``matmul(a, b, order="grouped", group=8)``, the tail split off for its calls
  (``matmul.TAIL_SPLIT_ON``): the autotuned config alone;
* ``copy+grid``: B's pitched copy, then a plain grid of 128x256x64/s3/w8 tiles in grouped(8)
  (``mixed_b/probe.py``'s kernel), each call making its copy;
* cuBLAS.

Each output checked against float64 into a NaN-poisoned C; ``describe`` of both matmul
variants after their first call; 5 interleaved, rotated replicates (do_bench medians).

    python3 docs/data/bench/ragged_plan/probe.py OUT.jsonl     (on a GPU)
"""
import importlib.util
import json
import os
import statistics
import sys

import torch
import triton

_spec = importlib.util.spec_from_file_location(
    "mixed_b_probe", os.path.join(os.path.dirname(__file__), "..", "mixed_b", "probe.py"))
_mixed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mixed)
launcher = _mixed.launcher          # mixed_b/probe.py's plain kernel

from swizzlekit.kernels import matmul  # noqa: E402
from swizzlekit.kernels.triton import matmul as mm  # noqa: E402
from swizzlekit.kernels.triton.copies import _pitched  # noqa: E402
from swizzlekit.kernels.triton.matmul import describe  # noqa: E402
from swizzlekit.lab.harness import interleaved_ms  # noqa: E402

SHAPES = [(9000, 7000, 3000), (6000, 7000, 3000), (3000, 5000, 4000), (9088, 7040, 3008),
          (8960, 6912, 3008)]


def no_tail(fn):
    def run():
        mm.TAIL_SPLIT_ON = False
        try:
            return fn()
        finally:
            mm.TAIL_SPLIT_ON = True
    return run


if __name__ == "__main__":
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            ref = a.double() @ b.double()
            grid = launcher(a, b, c, True, False, 128, 256, 64, 3, 8)
            pitched = (b.stride(0) * 2) % 64 != 0

            def copy_grid():
                bp = _pitched(b) if pitched else b
                return launcher(a, bp, c, True, False, 128, 256, 64, 3, 8)()
            runs = {"cublas": lambda: torch.matmul(a, b, out=c),
                    "auto": lambda: matmul(a, b, out=c),
                    "grouped8": no_tail(lambda: matmul(a, b, out=c, order="grouped", group=8)),
                    "copy+grid": copy_grid}
            errors, plans = {}, {}
            for name, fn in runs.items():
                for turn in range(2):       # the second call follows the kept route
                    c.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                    errors[f"{name}/{turn}"] = float((c.double() - ref).norm() / ref.norm())
            plans["auto"] = describe(a, b, out=c)
            plans["grouped8"] = describe(a, b, out=c, order="grouped", group=8)
            bad = {k: e for k, e in errors.items() if not e < 1e-2}
            times = interleaved_ms({k: v for k, v in runs.items()
                                    if f"{k}/0" not in bad and f"{k}/1" not in bad}, 5,
                                   warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            row = {"shape": [M, N, K], "errors": errors, "bad": bad, "ms": ms,
                   "replicates": times, "plans": plans, "b_pitched": pitched,
                   "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + f"\n  auto: {plans['auto']}\n  grouped8: {plans['grouped8']}"
                  + (f"  BAD {bad}" if bad else ""), flush=True)
