"""TF32 with a row-major B through the default call: the K-major copy's route (copy, then the
plain kernel) against the swapped kernel, both as repeat calls take them, at small and
mid-size shapes; then the swapped 256x128x32 tile alone where it went wrong.

    python3 calls.py OUT_DIR      (on a GPU; writes calls.jsonl and swap_bug2.jsonl)

``copy``: ``matmul(a, b)`` with TF32_COPY_MIN_M = 1; ``swapped``: ``matmul(a, b, split_k=1)``
(the same call, another fingerprint, so its own route) with TF32_COPY_MIN_M = 2^62. Both
checked against float64, then 5 interleaved replicates with cuBLAS (do_bench medians).
"""
import json
import statistics
import sys
from pathlib import Path

import torch
import triton

import swizzlekit.kernels.triton.matmul as mm
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.tuning import _config_list

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
        saved = mm.TF32_COPY_MIN_M
        errs = {}
        mm.TF32_COPY_MIN_M = 1
        errs["copy"] = err(matmul(a, b), ref)
        mm.TF32_COPY_MIN_M = 2**62
        errs["swapped"] = err(matmul(a, b, split_k=1), ref)
        mm.TF32_COPY_MIN_M = saved
        runs = {"cublas": lambda: torch.matmul(a, b), "copy": lambda: matmul(a, b),
                "swapped": lambda: matmul(a, b, split_k=1)}
        for k in runs:
            runs[k]()
        times = {k: [] for k in runs}
        names = list(runs)
        for turn in range(5):
            for k in names[turn % 3:] + names[:turn % 3]:
                times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                        return_mode="median"))
        ms = {k: statistics.median(t) for k, t in times.items()}
        routes = [r._asdict() for r in list(mm.ROUTES._plans.values())[-2:]]
        f.write(json.dumps({"shape": [M, N, K], "errors": errs, "ms": ms, "replicates": times,
                            "routes": routes, **ENV}, default=str) + "\n")
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f} us ({ms['cublas'] / v:.3f}x)"
                                          for k, v in ms.items())
              + f"  copy/swapped {ms['copy'] / ms['swapped']:.3f}", flush=True)

t = mm._matmul_tma_kernel
default = list(t.configs)
with open(out / "swap_bug2.jsonl", "w") as f:
    for M, N, K in ((16384, 4096, 4096), (16384, 4096, 4096), (8192, 4096, 4096),
                    (8192, 2048, 4096), (8192, 4096, 2048), (8192, 2048, 2048),
                    (6144, 4096, 4096), (4096, 4096, 8192), (4096, 8192, 4096)):
        t.configs = _config_list([(256, 128, 32, 3, 8)], mm._set_blocks, SWAP_AB=True, FLAT=False)
        t.cache.clear()
        mm.PLANS.clear()
        mm.ROUTES.clear()
        saved = mm.TF32_COPY_MIN_M
        mm.TF32_COPY_MIN_M = 2**62
        torch.manual_seed(1)
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        ref = a.double() @ b.double()
        rows = []
        for rep in range(2):
            c = torch.full((M, N), float("nan"), device="cuda")
            matmul(a, b, out=c)
            torch.cuda.synchronize()
            bad = ((c.double() - ref).abs() > 1e-2 * ref.abs().max()) | c.isnan()
            tiles = bad.view(M // 256, 256, N // 128, 128).any(3).any(1).nonzero().tolist()
            rows.append({"error": err(c, ref), "bad_tiles": len(tiles), "first": tiles[:8]})
        mm.TF32_COPY_MIN_M = saved
        row = {"shape": [M, N, K], "calls": rows, "plans": [r.config for r in mm.PLANS._plans.values()], **ENV}
        f.write(json.dumps(row, default=str) + "\n")
        print("swap 256x128x32/s3/w8", M, N, K, rows, flush=True)
    t.configs = default
