"""TF32 tile configs on large shapes, B row-major as torch gives it: which configs of the
TMA kernel run fastest, swapped (Cᵀ = Bᵀ Aᵀ on B as given) and plain (on B K-major), and
what the default call and B's K-major copy cost, against cuBLAS.

    python3 probe.py OUT.jsonl      (on a GPU)

Per shape: cuBLAS (allow_tf32), the default call, the default call on a K-major B (no copy
in it), B's K-major copy alone (``b.T.contiguous()``), each checked once against float64
(output poisoned), then 5 interleaved replicates (do_bench medians, L2 flushed). Then each
config of ``SWAPPED`` (on B) and ``PLAIN`` (on the K-major B) alone: the autotuner given only
that config, plans cleared, order grouped(8), checked against float64, 3 replicates.
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
SHAPES = [(4096, 4096, 4096), (2048, 14336, 8192), (4096, 16384, 4096), (16384, 4096, 4096),
          (8192, 14336, 4096), (2048, 2048, 2048), (8192, 8192, 8192)]
SWAPPED = [(256, 128, 32, 3, 8), (128, 128, 32, 4, 8), (256, 128, 32, 4, 8),
           (128, 128, 32, 4, 4), (128, 128, 32, 5, 4), (128, 256, 32, 3, 8),
           (64, 128, 32, 6, 4), (128, 64, 32, 6, 4)]
PLAIN = [(128, 128, 32, 4, 4), (128, 128, 32, 5, 4), (64, 256, 32, 4, 8),
         (128, 128, 32, 3, 4), (256, 128, 32, 3, 8), (128, 64, 32, 6, 4)]
FLAT_PLAIN = [(128, 128, 32, 4, 4), (128, 128, 32, 3, 4)]


def err(out, ref):
    return ((out.double() - ref).norm() / ref.norm()).item()


def replicates(runs, n):
    times = {k: [] for k in runs}
    names = list(runs)
    for turn in range(n):
        for k in names[turn % len(names):] + names[:turn % len(names)]:
            times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=50,
                                                    return_mode="median"))
    return times


def reset(configs):
    t = mm._matmul_tma_kernel
    t.configs = configs
    t.cache.clear()
    mm.PLANS.clear()
    mm.ROUTES.clear()


default_configs = list(mm._matmul_tma_kernel.configs)
with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        bk = b.T.contiguous().T
        ref = a.double() @ b.double()
        reset(default_configs)
        runs = {"cublas": lambda: torch.matmul(a, b), "ours": lambda: matmul(a, b),
                "ours_on_kmajor": lambda: matmul(a, bk), "copy": lambda: b.T.contiguous()}
        errs = {k: err(fn(), ref) for k, fn in runs.items() if k != "copy"}
        plans = [{"config": dict(p.config), "grid": list(p.grid)} for p in mm.PLANS._plans.values()]
        times = replicates(runs, 5)
        ms = {k: statistics.median(t) for k, t in times.items()}
        flops = 2 * M * N * K
        row = {"shape": [M, N, K], "what": "default", "errors": errs, "ms": ms,
               "replicates": times, "plans": plans, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row, default=str) + "\n")
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v:.3f} ms" + ("" if k == "copy" else
              f" {flops / v / 1e9:.0f} TF/s") for k, v in ms.items()), flush=True)
        variants = ([("swap", c, b, _config_list([c], mm._set_blocks, SWAP_AB=True, FLAT=False))
                     for c in SWAPPED]
                    + [("plain", c, bk, _config_list([c], mm._set_blocks, SWAP_AB=False,
                                                     FLAT=False)) for c in PLAIN]
                    + [("flat", c, bk, _config_list([c], mm._set_blocks, SWAP_AB=False,
                                                    FLAT=True)) for c in FLAT_PLAIN])
        for kind, c, bb, cfgs in variants:
            reset(cfgs)
            name = f"{kind} {'x'.join(map(str, c[:3]))}/s{c[3]}/w{c[4]}"
            try:
                out = torch.full((M, N), float("nan"), device="cuda")
                matmul(a, bb, order="grouped", group=8, out=out)
                e = err(out, ref)
                t = replicates({"x": lambda: matmul(a, bb, order="grouped", group=8, out=out)}, 3)["x"]
            except Exception as exc:           # out of shared memory, compile errors
                f.write(json.dumps({"shape": [M, N, K], "what": name, "error": str(exc)[:300]}) + "\n")
                print(f"  {name}: {str(exc)[:120]}", flush=True)
                continue
            med = statistics.median(t)
            f.write(json.dumps({"shape": [M, N, K], "what": name, "error_vs_f64": e, "ms": med,
                                "replicates": t, "vs_cublas": ms["cublas"] / med}) + "\n")
            print(f"  {name}: {med:.3f} ms {flops / med / 1e9:.0f} TF/s {ms['cublas'] / med:.3f}x "
                  f"err {e:.1e}", flush=True)
        f.flush()
    reset(default_configs)
