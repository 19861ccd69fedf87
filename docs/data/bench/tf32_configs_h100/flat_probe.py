"""TF32 on B K-major: flattened tiles beside the shipped 128x128x32/s4/w4/flat, each alone
(the autotuner given only it, plans cleared, order grouped(8)), checked against float64 into
a NaN-poisoned output, then 5 interleaved replicates (do_bench medians, L2 flushed) with
cuBLAS on the same operands (B row-major, as torch holds it).

    python3 flat_probe.py OUT.jsonl      (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.matmul as mm
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.tuning import _config_list

torch.backends.cuda.matmul.allow_tf32 = True
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 14336, 8192), (4096, 8192, 28672),
          (16384, 4096, 4096)]
FLAT = [(128, 128, 32, 4, 4), (128, 128, 32, 5, 4), (128, 128, 32, 3, 4), (128, 128, 32, 4, 8),
        (128, 128, 64, 2, 4), (128, 128, 16, 8, 4), (128, 128, 16, 6, 4), (64, 256, 32, 4, 8),
        (256, 64, 32, 4, 8), (128, 64, 32, 6, 4)]

t = mm._matmul_tma_kernel
default = list(t.configs)
with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        bk = b.T.contiguous().T
        ref = a.double() @ b.double()
        runs, errs, fails = {"cublas": lambda: torch.matmul(a, b)}, {}, {}
        plans = {}
        for c in FLAT:
            name = "x".join(map(str, c[:3])) + f"/s{c[3]}/w{c[4]}/flat"
            t.configs = _config_list([c], mm._set_blocks, SWAP_AB=False, FLAT=True)
            t.cache.clear()
            mm.PLANS.clear()
            mm.ROUTES.clear()
            out = torch.full((M, N), float("nan"), device="cuda")
            try:
                matmul(a, bk, order="grouped", group=8, out=out)
                matmul(a, bk, order="grouped", group=8, out=out)       # its route, its plan
            except Exception as exc:
                fails[name] = str(exc)[:200]
                continue
            errs[name] = ((out.double() - ref).norm() / ref.norm()).item()
            (plan,) = mm.PLANS._plans.values()
            (route,) = mm.ROUTES._plans.values()
            plans[name] = (plan, route)
            runs[name] = (lambda p=plan, r=route, o=out: mm._follow(r, p, a, bk.T, o, o, o))
        times = {k: [] for k in runs}
        names = list(runs)
        for turn in range(5):
            for k in names[turn % len(names):] + names[:turn % len(names)]:
                times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                        return_mode="median"))
        ms = {k: statistics.median(v) for k, v in times.items()}
        fl = 2 * M * N * K
        f.write(json.dumps({"shape": [M, N, K], "ms": ms, "replicates": times, "errors": errs,
                            "failed": fails, "gpu": torch.cuda.get_device_name(),
                            "torch": torch.__version__, "triton": triton.__version__}) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {fl / v / 1e9:.0f}" for k, v in
                                          sorted(ms.items(), key=lambda x: x[1])), flush=True)
        print("  failed:", fails, " max err", max(errs.values()), flush=True)
    t.configs = default
