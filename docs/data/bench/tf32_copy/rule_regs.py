"""Where TF32's K-major copy of B pays once B K-major may take C from registers: the ``rule``
part of ``probe.py`` again (copy, then the plain kernel, ``matmul(a, kmajor_copy(b).T)``,
against the swapped kernel on B as given), down to M = 512, since the plain kernel's
128x256x32 tile with C from registers (``matmul_configs.C_REGS_TILES``, timed on a call's first
run) ran 10-25% faster than the tiles ``TF32_COPY_PAYOFF`` was fitted on.

    python3 rule_regs.py OUT_DIR      (on a GPU; writes rule.jsonl for ``fit.py OUT_DIR``)

Per shape: cuBLAS, both calls (default autotune) and the copy alone, each checked against
float64 first, then 5 interleaved, rotated replicates (do_bench medians, L2 flushed).
"""
import json
import sys
from pathlib import Path

import torch
import triton

import swizzlekit.kernels.triton.matmul as mm
import swizzlekit.kernels.triton.matmul_configs as mc
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.kmajor import kmajor_copy
from swizzlekit.lab.harness import checked_medians

torch.backends.cuda.matmul.allow_tf32 = True
out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
SHAPES = [(m, n, k) for m in (512, 1024, 1536, 2048, 2560, 3072)
          for n, k in ((4096, 4096), (14336, 4096), (2048, 8192))]
with open(out / "rule.jsonl", "w") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        ref = a.double() @ b.double()
        saved = mc.TF32_COPY_MIN_M
        mc.TF32_COPY_MIN_M = 2**62                       # "swapped": B as given
        runs = {"cublas": lambda: torch.matmul(a, b), "swapped": lambda: matmul(a, b),
                "copy_plain": lambda: matmul(a, kmajor_copy(b).T)}

        def error(fn):
            return float((fn().double() - ref).norm() / ref.norm())
        res = checked_medians(runs, error, 1e-3, 5, warmup_ms=10, rep_ms=40)
        mc.TF32_COPY_MIN_M = saved
        regs = [bool(v) for v in mm.REGS._plans.values()]
        f.write(json.dumps({"shape": [M, N, K], **res, "c_regs_kept": regs,
                            "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                            "triton": triton.__version__}) + "\n")
        f.flush()
        ms = res["ms"]
        print(f"rule {M}x{N}x{K}: " + "  ".join(
            f"{k} {v:.4f} ms ({ms['cublas'] / v:.3f}x)" for k, v in ms.items())
            + f"  copy/swap {ms['copy_plain'] / ms['swapped']:.3f}  regs kept {regs}"
            + (f"  BAD {res['bad']}" if res["bad"] else ""), flush=True)
        for cache in (mm.PLANS, mm.ROUTES, mm.REGS):
            cache.clear()
