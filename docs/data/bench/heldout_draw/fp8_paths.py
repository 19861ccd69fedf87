"""fp8 on the drawn shapes (``draw.py 20261126 12``): which load path runs them fastest on
this card. ``scaled_matmul`` as called, with ``tma=True`` and ``tma=False`` (where the
library takes them), and ``torch._scaled_mm`` (fast accumulation; on shapes it refuses, on
copies zero-padded to multiples of 16, the copies not timed, as the bench does); ``describe``
is for matmul only, so the default's path is printed as the library's rule names it
(``scaled_configs.tma_by_size``). Each output checked against float64 into a NaN-poisoned
C; 5 interleaved, rotated replicates of do_bench medians (L2 flushed).

    python3 docs/data/bench/heldout_draw/fp8_paths.py OUT.jsonl     (on a GPU)
"""
import json
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(__file__))
from draw import draw  # noqa: E402

from swizzlekit.kernels.triton.scaled import scaled_matmul  # noqa: E402
from swizzlekit.kernels.triton.scaled_configs import tma_by_size  # noqa: E402
from swizzlekit.lab.bench import _padded16, operands  # noqa: E402
from swizzlekit.lab.harness import interleaved_ms  # noqa: E402

if __name__ == "__main__":
    with open(sys.argv[1], "a") as f:
        for M, N, K in draw(20261126, 12):
            torch.manual_seed(0)
            a, b, dtype, extra, ref = operands(M, N, K, "fp8")
            sa, sb = extra["scale_a"], extra["scale_b"]
            c = torch.empty(M, N, device="cuda", dtype=dtype)
            aligned = M % 16 == 0 and N % 16 == 0 and K % 16 == 0
            a16, b16 = (a, b) if aligned else _padded16(a, b)
            c16 = torch.empty(a16.shape[0], b16.shape[1], device="cuda", dtype=dtype)
            runs = {"cublas": lambda: torch._scaled_mm(a16, b16, sa, sb, out_dtype=dtype,
                                                       use_fast_accum=True, out=c16),
                    "default": lambda: scaled_matmul(a, b, sa, sb, out=c),
                    "tma": lambda: scaled_matmul(a, b, sa, sb, out=c, tma=True),
                    "pointer": lambda: scaled_matmul(a, b, sa, sb, out=c, tma=False)}
            errors = {}
            for name, fn in runs.items():
                out = c16 if name == "cublas" else c
                try:
                    for _ in range(2):
                        out.fill_(float("nan"))
                        fn()
                    torch.cuda.synchronize()
                    got = out[:M, :N].double()
                    errors[name] = float((got - ref).norm() / ref.norm())
                except Exception as e:          # a path the library refuses: its text
                    errors[name] = f"{type(e).__name__}: {str(e)[:160]}"
            bad = {k: e for k, e in errors.items() if not (isinstance(e, float) and e < 2e-2)}
            times = interleaved_ms({k: v for k, v in runs.items() if k not in bad}, 5,
                                   warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            rule = "tma" if tma_by_size(M, N, K) else "pointer"
            row = {"shape": [M, N, K], "aligned": aligned, "rule": rule, "errors": errors,
                   "bad": bad, "ms": ms, "replicates": times,
                   "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K} ({'aligned' if aligned else 'ragged'}, rule {rule}): "
                  + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items()) + "  | x cublas "
                  + " ".join(f"{k}={ms['cublas'] / v:.3f}" for k, v in ms.items()
                             if k != "cublas") + (f"  BAD {list(bad)}" if bad else ""),
                  flush=True)
