"""TF32 with a row-major B through the default call: the K-major copy's route (copy, then the
plain kernel) against the swapped kernel, both as repeat calls take them, at small and
mid-size shapes.

    python3 calls.py OUT_DIR      (on a GPU; writes calls.jsonl)

``copy``: ``matmul(a, b)`` with matmul_configs.TF32_COPY_MIN_M = 1; ``swapped``: ``matmul(a, b, split_k=1)``
(the same call, another fingerprint, so its own route) with it 2^62. Both
checked against float64, then 5 interleaved replicates with cuBLAS (do_bench medians).
"""
import json
import statistics
import sys
from pathlib import Path

import torch
import triton

import swizzlekit.kernels.triton.matmul as mm
import swizzlekit.kernels.triton.matmul_configs as mc
from swizzlekit.kernels import matmul

torch.backends.cuda.matmul.allow_tf32 = True
out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
ENV = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
       "triton": triton.__version__}


def err(c, ref):
    return ((c.double() - ref).norm() / ref.norm()).item()


SHAPES = [(3072, 1024, 1024), (3072, 2048, 1024), (4096, 1024, 2048), (8192, 1024, 1024),
          (4096, 512, 4096), (2048, 4096, 4096), (3072, 4096, 4096), (3072, 8192, 2048),
          (2560, 4096, 4096)]
with open(out / "calls.jsonl", "w") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        ref = a.double() @ b.double()
        saved = mc.TF32_COPY_MIN_M
        errs = {}
        for _ in range(2):          # a route is kept from the second call: both under the rule
            mc.TF32_COPY_MIN_M = 1
            errs["copy"] = err(matmul(a, b), ref)
            mc.TF32_COPY_MIN_M = 2**62
            errs["swapped"] = err(matmul(a, b, split_k=1), ref)
        mc.TF32_COPY_MIN_M = saved
        runs = {"cublas": lambda: torch.matmul(a, b), "copy": lambda: matmul(a, b),
                "swapped": lambda: matmul(a, b, split_k=1)}
        times = {k: [] for k in runs}
        names = list(runs)
        for turn in range(5):
            for k in names[turn % 3:] + names[:turn % 3]:
                times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                        return_mode="median"))
        ms = {k: statistics.median(t) for k, t in times.items()}
        routes = [r._asdict() for r in list(mm.ROUTES._plans.values())[-2:]]
        assert [r.kcopy for r in list(mm.ROUTES._plans.values())[-2:]] == [True, False]
        f.write(json.dumps({"shape": [M, N, K], "errors": errs, "ms": ms, "replicates": times,
                            "routes": routes, **ENV}, default=str) + "\n")
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f} us ({ms['cublas'] / v:.3f}x)"
                                          for k, v in ms.items())
              + f"  copy/swapped {ms['copy'] / ms['swapped']:.3f}", flush=True)

