"""Where a B whose rows do not start on 64-byte boundaries costs time, on one GPU: for each
shape, cuBLAS, the default call (B copied into 128-byte rows, then TMA), the copy alone, the
GEMM alone on the copy, and pointer loads on B as given (no copy). Each checked once against
float64 (output poisoned with NaN), then timed in 5 interleaved replicates (do_bench
medians, L2 flushed). ``nocopy`` (a second process) times TMA on B as given.

    python3 probe.py [nocopy] > probe.txt      (on a GPU)
"""
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.copies as copies
from swizzlekit.kernels import matmul

SHAPES = [(3000, 5000, 4000), (6000, 7000, 3000), (9000, 7000, 3000), (2000, 9000, 4096),
          (1000, 9000, 4096), (1500, 7000, 3000)]
nocopy = sys.argv[1:] == ["nocopy"]
if nocopy:
    copies.PITCH_MIN_MNK = 2**62          # the rule never copies B


def check(fn, a, b):
    ref = a.double() @ b.double()
    out = fn()
    return ((out.double() - ref).norm() / ref.norm()).item()


for M, N, K in SHAPES:
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    bp = copies._pitched(b)
    cp = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    runs = {"cublas": lambda: torch.matmul(a, b)}
    if nocopy:
        runs["tma, B as given"] = lambda: matmul(a, b)
    else:
        runs.update({"default": lambda: matmul(a, b),
                     "copy alone": lambda: copies._pitched(b),
                     "gemm on the copy": lambda: matmul(a, bp, out=cp),
                     "pointer loads": lambda: matmul(a, b, tma=False)})
    errs = {k: check(f, a, b) for k, f in runs.items() if k != "copy alone"}
    assert all(e < 1e-2 for e in errs.values()), errs
    times = {k: [] for k in runs}
    names = list(runs)
    for turn in range(5):
        for k in names[turn % len(names):] + names[:turn % len(names)]:
            times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                    return_mode="median"))
    row = [f"{M}x{N}x{K} (B rows {N * 2} bytes apart):"]
    for k, ts in times.items():
        ms = statistics.median(ts)
        row.append(f"{k} {ms:.4f} ms" + ("" if k == "copy alone" else
                                          f" {2 * M * N * K / ms / 1e9:.0f} TFLOP/s"))
    print("  ".join(row), flush=True)
print(torch.cuda.get_device_name(), torch.__version__, triton.__version__)
