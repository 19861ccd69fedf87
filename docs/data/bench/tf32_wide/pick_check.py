"""Check: the library's TF32 launch on B K-major, autotuned (C by TMA) against 128x256x32/s3/w8
with C from registers (``matmul._launch(..., regs=True)``), where the full suite's first-call
pick (``split_k.pick_split``: do_bench, 25 ms) kept the autotuned config at some shapes.

Per shape: each launch checked against float64 into a NaN-poisoned C, then 5 interleaved,
rotated replicates (do_bench medians, L2 flushed) with cuBLAS, then ``pick_split`` itself
asked three times which of the two it would keep.

    python3 docs/data/bench/tf32_wide/pick_check.py OUT.jsonl     (on a GPU)
"""
import json
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.split_k import pick_split
from swizzlekit.lab.harness import checked_medians

torch.backends.cuda.matmul.allow_tf32 = True
SHAPES = [(8192, 14336, 4096), (2048, 14336, 8192), (4096, 4096, 4096), (16384, 4096, 4096)]
with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        bt = torch.randn(N, K, device="cuda")
        c = torch.empty(M, N, device="cuda")
        ref = a.double() @ bt.double().T
        go = (a, bt.T, bt, bt, c, None, "grouped", 8, "tf32", False, True, True, False, False)
        runs = {"cublas": lambda: torch.matmul(a, bt.T, out=c),
                "autotuned": lambda: (mm._launch(*go, 1, None), c)[1],
                "regs": lambda: (mm._launch(*go, 1, None, True), c)[1]}

        def error(fn):
            c.fill_(float("nan"))
            return float((fn().double() - ref).norm() / ref.norm())
        res = checked_medians(runs, error, 1e-3, 5, warmup_ms=10, rep_ms=40)
        picks = [pick_split(lambda i: (runs["autotuned"], runs["regs"])[i](), (0, 1))
                 for _ in range(3)]
        row = {"shape": [M, N, K], **res, "picks": picks, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        ms = res["ms"]
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f} us ({ms['cublas'] / v:.3f}x)"
                                          for k, v in ms.items())
              + f"  pick_split kept regs {picks}" + (f" BAD {res['bad']}" if res["bad"] else ""),
              flush=True)
