"""1024³, the suite's smallest square, below 0.90× cuBLAS in some runs (fp8 0.882 and bf16
0.856 on the H100, 2026-11-26): 64 tiles of 128x128 fill half of the H100's 132 SMs. Times,
per precision: the library's call as a user makes it, with ``split_k`` 2 and 4, with
``tma`` forced each way, and cuBLAS (fp8: ``torch._scaled_mm``, fast accumulation);
``describe`` of the default call. Each output checked against float64 into a NaN-poisoned C
first; 5 interleaved, rotated replicates of do_bench medians (L2 flushed).

    python3 docs/data/bench/small_square/probe.py OUT.jsonl     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.kernels.triton.matmul import describe
from swizzlekit.lab.bench import operands
from swizzlekit.lab.harness import interleaved_ms

SHAPES = [(1024, 1024, 1024), (1024, 2048, 1024), (768, 1024, 2048), (1024, 1024, 4096)]

if __name__ == "__main__":
    with open(sys.argv[1], "a") as f:
        for precision in ("fp8", "bf16"):
            for M, N, K in SHAPES:
                torch.manual_seed(0)
                a, b, dtype, extra, ref = operands(M, N, K, precision)
                c = torch.empty(M, N, device="cuda", dtype=dtype)
                if precision == "fp8":
                    sa, sb = extra["scale_a"], extra["scale_b"]

                    def lib(**kw):
                        return lambda: scaled_matmul(a, b, sa, sb, out=c, **kw)
                    cublas = lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=dtype,  # noqa
                                                      use_fast_accum=True, out=c)
                else:
                    def lib(**kw):
                        return lambda: matmul(a, b, out=c, **kw)
                    cublas = lambda: torch.matmul(a, b, out=c)  # noqa: E731
                runs = {"cublas": cublas, "default": lib(), "split 2": lib(split_k=2),
                        "split 4": lib(split_k=4), "tma": lib(tma=True),
                        "pointer": lib(tma=False)}
                errors = {}
                for name, fn in runs.items():
                    try:
                        for _ in range(2):
                            c.fill_(float("nan"))
                            fn()
                        torch.cuda.synchronize()
                        errors[name] = float((c.double() - ref).norm() / ref.norm())
                    except Exception as e:     # a variant the library refuses: its text
                        errors[name] = f"{type(e).__name__}: {str(e)[:200]}"
                bad = {k: e for k, e in errors.items()
                       if not (isinstance(e, float) and e < 2e-2)}
                times = interleaved_ms({k: v for k, v in runs.items() if k not in bad}, 5,
                                       warmup_ms=10, rep_ms=40)
                ms = {k: statistics.median(t) for k, t in times.items()}
                plan = describe(a, b, out=c) if precision != "fp8" else None
                row = {"precision": precision, "shape": [M, N, K], "errors": errors,
                       "bad": bad, "ms": ms, "replicates": times, "plan": plan,
                       "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "triton": triton.__version__}
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(f"{precision} {M}x{N}x{K}: " + "  ".join(
                    f"{k} {v * 1e3:.2f}" for k, v in ms.items()) + "  | x cublas " + " ".join(
                    f"{k}={ms['cublas'] / v:.3f}" for k, v in ms.items() if k != "cublas")
                    + (f"  plan {plan}" if plan else "") + (f"  BAD {bad}" if bad else ""),
                    flush=True)
