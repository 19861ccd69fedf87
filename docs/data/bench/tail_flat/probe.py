"""The tail split with its whole tiles in a flattened loop (``TAIL`` = 2: ``tl.range(...,
flatten=True)``, as the flattened configs walk their tiles) against the tail split as built
(``TAIL`` = 1: a plain loop of whole tiles, each with its own pipeline fill and drain) and
the plain plan, in fp8 (``scaled._launch``) and bf16 (``matmul._launch``), at the shapes of
``../fp8_tail/probe.py``. Each variant launched through its own cached plan (the same path
for all three), checked against float64 into a NaN-poisoned C, then 5 interleaved, rotated
replicates of do_bench medians (L2 flushed), with ``torch._scaled_mm`` (fast accumulation) or
``torch.matmul`` beside them; µs.

    python3 docs/data/bench/tail_flat/probe.py OUT.jsonl [fp8|bf16 ...]     (on a GPU)

It ran on the tree of 578ceff. From e10f7d6 the kernels have the flattened loop only, so
``tail`` and ``tail_flat`` run the same kernel there.
"""
import json
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fp8_tail"))
from probe import shapes  # noqa: E402

from swizzlekit.kernels.triton import matmul as mm  # noqa: E402
from swizzlekit.kernels.triton import scaled  # noqa: E402
from swizzlekit.lab.bench import operands  # noqa: E402
from swizzlekit.lab.harness import interleaved_ms  # noqa: E402

VARIANTS = {"plain": False, "tail": 1, "tail_flat": 2}


def launchers(precision, M, N, K):
    """``(runs, outs, reference)``: cuBLAS and each variant as a call into its own C."""
    a, b, dtype, extra, ref = operands(M, N, K, precision)
    outs = {name: torch.empty(M, N, device="cuda", dtype=dtype)
            for name in ("cublas", *VARIANTS)}
    if precision == "fp8":
        sa, sb = extra["scale_a"], extra["scale_b"]
        sa1, sb1 = sa.reshape(-1).contiguous(), sb.reshape(-1).contiguous()
        runs = {"cublas": lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=dtype,
                                                   use_fast_accum=True, out=outs["cublas"])}
        for name, tail in VARIANTS.items():
            sig = ("probe", precision, M, N, K, name)
            runs[name] = (lambda name=name, tail=tail, sig=sig: scaled._launch(
                a, b, outs[name], sa1, sb1, sig, "grouped", 16, False, False, True, False, 1,
                None, tail))
    else:
        runs = {"cublas": lambda: torch.matmul(a, b, out=outs["cublas"])}
        for name, tail in VARIANTS.items():
            sig = ("probe", precision, M, N, K, name)
            runs[name] = (lambda name=name, tail=tail, sig=sig: mm._launch(
                a, b, b, b, outs[name], sig, "grouped", 16, "tf32", False, True, False, False,
                False, 1, None, False, tail))
    return runs, outs, ref


if __name__ == "__main__":
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    precisions = sys.argv[2:] or ["fp8", "bf16"]
    with open(sys.argv[1], "a") as f:
        for precision in precisions:
            for M, N, K in shapes(sms):
                torch.manual_seed(0)
                runs, outs, ref = launchers(precision, M, N, K)
                errors = {}
                for name, run in runs.items():
                    for _ in range(2):
                        outs[name].fill_(float("nan"))
                        run()
                    torch.cuda.synchronize()
                    errors[name] = float((outs[name].double() - ref).norm() / ref.norm())
                configs = {}
                for name in VARIANTS:
                    plans = scaled.PLANS if precision == "fp8" else mm.PLANS
                    hit = [p for k, p in plans._plans.items() if name in k and M in k]
                    if hit:
                        info = hit[0].info
                        configs[name] = (f"{hit[0].config.get('BLOCK_M')}x"
                                         f"{hit[0].config.get('BLOCK_N')}x"
                                         f"{hit[0].config.get('BLOCK_K')}"
                                         f"/s{info.get('num_stages')}/w{info.get('num_warps')}"
                                         f"{'/flat' if hit[0].config.get('FLAT') else ''}")
                times = interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
                us = {k: statistics.median(t) * 1e3 for k, t in times.items()}
                row = {"precision": precision, "shape": [M, N, K], "errors": errors,
                       "configs": configs, "us": us, "replicates_ms": times,
                       "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "triton": triton.__version__}
                f.write(json.dumps(row, default=str) + "\n")
                f.flush()
                print(f"{precision} {M}x{N}x{K}: " + "  ".join(f"{k} {v:.1f}" for k, v in
                                                              us.items())
                      + "  | x cublas " + " ".join(f"{k}={us['cublas'] / v:.3f}"
                                                   for k, v in us.items() if k != "cublas")
                      + f"  {configs}  err max {max(errors.values()):.1e}", flush=True)
