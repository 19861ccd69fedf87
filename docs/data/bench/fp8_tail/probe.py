"""fp8 with the tail split (``scaled_matmul``, ``TAIL``) against its plain plan and
``torch._scaled_mm`` (fast accumulation), on shapes whose 128x256 tiles leave a last wave at
most half full after a full one (:func:`swizzlekit.kernels.triton.waves.tail_for`, K in
steps of 128): the drawn shape that ran 0.665x cuBLAS (heldout_draw, 6016x768x2432), shapes
of the 16-bit tail probes, and the two of 20 aligned shapes of ``draw.py 20261128 40`` that
the rule names. Per shape, four calls, each checked against float64 into a NaN-poisoned C:

    cublas   torch._scaled_mm
    plain    scaled_matmul(..., split_k=1): no first-call timing, the plain plan
    default  scaled_matmul(...): the first call times the tail split against the plain plan
    tail     scaled_matmul(..., out=c) with every kept tail decision set to True first

then 5 interleaved, rotated replicates of do_bench medians (L2 flushed), µs.

    python3 docs/data/bench/fp8_tail/probe.py OUT.jsonl     (on a GPU)
"""
import json
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "heldout_draw"))
from draw import draw  # noqa: E402

from swizzlekit.kernels.triton import scaled  # noqa: E402
from swizzlekit.kernels.triton.waves import tail_for, tail_shares  # noqa: E402
from swizzlekit.lab.bench import operands  # noqa: E402
from swizzlekit.lab.harness import interleaved_ms  # noqa: E402

FIXED = [(6016, 768, 2432), (1163, 4096, 4096), (700, 8192, 8192), (2500, 4096, 8192),
         (1200, 14336, 4096), (13312, 8064, 896)]


def shapes(sms: int) -> list[tuple[int, int, int]]:
    drawn = [s for s in draw(20261128, 40) if all(v % 16 == 0 for v in s)]
    return FIXED + [s for s in drawn if tail_for(*s, sms, scaled.BLOCK_K_STEP)]


if __name__ == "__main__":
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    with open(sys.argv[1], "a") as f:
        for M, N, K in shapes(sms):
            torch.manual_seed(0)
            a, b, dtype, extra, ref = operands(M, N, K, "fp8")
            sa, sb = extra["scale_a"], extra["scale_b"]
            outs = {name: torch.empty(M, N, device="cuda", dtype=dtype)
                    for name in ("cublas", "plain", "default", "tail")}
            runs = {"cublas": lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=dtype,
                                                       use_fast_accum=True,
                                                       out=outs["cublas"]),
                    "plain": lambda: scaled.scaled_matmul(a, b, sa, sb, split_k=1,
                                                          out=outs["plain"]),
                    "default": lambda: scaled.scaled_matmul(a, b, sa, sb)}
            errors = {}
            for name in ("cublas", "plain", "default"):
                for _ in range(2):
                    outs[name].fill_(float("nan"))
                    got = runs[name]()
                outs[name] = got if name == "default" else outs[name]
            kept = dict(scaled.TAILS._plans)
            chose = scaled.scaled_describe(a, b, sa, sb)
            for key in scaled.TAILS._plans:          # the tail plan, under its own print
                scaled.TAILS._plans[key] = True
            runs["tail"] = lambda: scaled.scaled_matmul(a, b, sa, sb, out=outs["tail"])
            for _ in range(2):
                outs["tail"].fill_(float("nan"))
                runs["tail"]()
            scaled.TAILS._plans.clear()
            scaled.TAILS._plans.update(kept)
            torch.cuda.synchronize()
            for name, out in outs.items():
                errors[name] = float((out.double() - ref).norm() / ref.norm())
            tail_told = scaled.scaled_describe(a, b, sa, sb, out=outs["tail"])
            times = interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
            us = {k: statistics.median(t) * 1e3 for k, t in times.items()}
            row = {"shape": [M, N, K], "shares_128x256": tail_shares(M, N, K, sms, 128),
                   "default_plan": chose, "tail_plan": tail_told, "errors": errors,
                   "us": us, "replicates_ms": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row, default=str) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v:.1f}" for k, v in us.items())
                  + "  | x cublas " + " ".join(f"{k}={us['cublas'] / v:.3f}"
                                               for k, v in us.items() if k != "cublas")
                  + f"  | default took the tail: {chose and chose['tail_split']}"
                  + f" ({chose and chose['config']}; tail {tail_told and tail_told['config']})"
                  + f"  err max {max(errors.values()):.1e}", flush=True)
