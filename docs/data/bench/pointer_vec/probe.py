"""Pointer loads with 16-byte vectors where rows are 16-byte but not 32-byte aligned
(``tiles.vec_hint``): for each shape, cuBLAS, the default call, pointer loads
(``tma=False``), TMA on B as given (no pitched copy) and the GEMM on B's pitched copy plus
the copy. Each call is checked once against float64 (output poisoned with NaN), then timed
in 5 interleaved replicates (do_bench medians, L2 flushed); one JSON line per shape.

    python3 probe.py OUT.jsonl [nohint]      (on a GPU; nohint: VEC held at 1, as before)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.copies as copies
import swizzlekit.kernels.triton.pointer_kernel as mm     # the pointer kernel's heuristics
from swizzlekit.kernels import matmul

SHAPES = [(3000, 5000, 4000), (6000, 7000, 3000), (9000, 7000, 3000), (2000, 9000, 4096),
          (1000, 9000, 4096), (1500, 7000, 3000), (4000, 4000, 4000), (8960, 6912, 3001),
          (4096, 4096, 4096), (3072, 5120, 4032)]
out_path = sys.argv[1]
nohint = "nohint" in sys.argv[2:]
if nohint:
    mm.vec_hint = lambda args, elem_bytes: 1


def err(fn, a, b):
    """fn's relative error against float64, its output poisoned with NaN first."""
    ref = a.double() @ b.double()
    out = torch.full((a.shape[0], b.shape[1]), float("nan"), device="cuda", dtype=a.dtype)
    out = fn(out)
    return ((out.double() - ref).norm() / ref.norm()).item()


with open(out_path, "a") as f:
    for dtype in (torch.bfloat16, torch.float32):
        for M, N, K in SHAPES:
            if dtype == torch.float32 and (M, N, K) not in SHAPES[:2] + SHAPES[-2:]:
                continue
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=dtype)
            b = torch.randn(K, N, device="cuda", dtype=dtype)

            def as_given(out=None):
                saved, copies.PITCH_MIN_MNK = copies.PITCH_MIN_MNK, 2**62
                try:
                    return matmul(a, b, tma=True, out=out)
                finally:
                    copies.PITCH_MIN_MNK = saved

            runs = {"cublas": lambda out=None: torch.matmul(a, b, out=out),
                    "pointer": lambda out=None: matmul(a, b, tma=False, out=out)}
            if not nohint:
                runs["default"] = lambda out=None: matmul(a, b, out=out)
                if dtype != torch.float32:
                    runs["tma as given"] = as_given
                    runs["copy + gemm on it"] = lambda out=None: matmul(a, copies._pitched(b),
                                                                        out=out)
            errs = {k: err(fn, a, b) for k, fn in runs.items()}
            bound = 1e-2 if dtype != torch.float32 else 1e-3
            bad = {k: e for k, e in errs.items() if not e < bound}
            times = {k: [] for k in runs}
            names = list(runs)
            if not bad:
                for turn in range(5):
                    for k in names[turn % len(names):] + names[:turn % len(names)]:
                        times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                                return_mode="median"))
            row = {"shape": [M, N, K], "dtype": str(dtype).split(".")[1], "nohint": nohint,
                   "errors": errs, "bad": bad,
                   "ms": {k: statistics.median(t) for k, t in times.items() if t},
                   "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            ms = row["ms"]
            print(f"{M}x{N}x{K} {row['dtype']}: " + "  ".join(
                f"{k} {v:.4f} ms ({ms['cublas'] / v:.3f}x)" for k, v in ms.items()) +
                (f"  BAD {bad}" if bad else ""), flush=True)
