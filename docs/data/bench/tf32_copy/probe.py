"""TF32 with a row-major B: the K-major copy's tile, and where copying B K-major (then the
plain TMA kernel) beats the swapped kernel on B as given.

    python3 probe.py OUT_DIR      (on a GPU; writes copy.jsonl, swap_bug.jsonl, rule.jsonl)

1. ``copy``: ``kmajor.kmajor_copy`` in several tiles against ``b.T.contiguous()``, each
   checked bit for bit, 5 interleaved replicates (do_bench medians, L2 flushed).
2. ``swap_bug``: the swapped 256x128x32 tile alone at growing M, error against float64 and
   the 256x128 output tiles that are wrong (output poisoned with NaN first).
3. ``rule``: per shape, cuBLAS, the swapped kernel on B as given, and the copy then the
   plain kernel (``matmul(a, kmajor_copy(b).T)``), default autotune, each checked against
   float64, 5 interleaved replicates.
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
from swizzlekit.kernels.triton.kmajor import kmajor_copy
from swizzlekit.kernels.triton.tuning import _config_list

torch.backends.cuda.matmul.allow_tf32 = True
out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
ENV = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
       "triton": triton.__version__}


def replicates(runs, n=5):
    times = {k: [] for k in runs}
    names = list(runs)
    for turn in range(n):
        for k in names[turn % len(names):] + names[:turn % len(names)]:
            times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                    return_mode="median"))
    return {k: statistics.median(t) for k, t in times.items()}, times


def err(c, ref):
    return ((c.double() - ref).norm() / ref.norm()).item()


# 1. the copy's tile
TILES = [(32, 32, 4), (64, 64, 4), (64, 64, 8), (64, 128, 4), (128, 64, 4), (32, 128, 4),
         (128, 32, 4), (128, 128, 8)]
with open(out / "copy.jsonl", "w") as f:
    for K, N in ((4096, 4096), (8192, 8192), (4096, 14336), (14336, 4096), (1000, 3000)):
        b = torch.randn(K, N, device="cuda")
        want = b.T.contiguous()
        runs = {"torch": lambda: b.T.contiguous()}
        for t in TILES:
            assert torch.equal(kmajor_copy(b, t), want), t
            runs["x".join(map(str, t))] = (lambda t=t: kmajor_copy(b, t))
        ms, times = replicates(runs)
        moved = 2 * b.numel() * 4
        f.write(json.dumps({"K": K, "N": N, "ms": ms, "replicates": times, **ENV}) + "\n")
        print(f"copy {K}x{N}: " + "  ".join(f"{k} {moved / v / 1e9:.0f} GB/s" for k, v in ms.items()),
              flush=True)

# 2. the swapped 256x128x32 tile at growing M
default = list(mm._matmul_tma_kernel.configs)


def only(c, swap):
    t = mm._matmul_tma_kernel
    t.configs = _config_list([c], mm._set_blocks, SWAP_AB=swap, FLAT=False) if c else default
    t.cache.clear()
    mm.PLANS.clear()
    mm.ROUTES.clear()


with open(out / "swap_bug.jsonl", "w") as f:
    for c in ((256, 128, 32, 3, 8), (128, 256, 32, 3, 8), (128, 128, 32, 4, 8)):
        for M, N, K, order in ((4096, 1024, 1024, "grouped"), (6144, 1024, 1024, "grouped"),
                               (7936, 1024, 1024, "grouped"), (8192, 1024, 1024, "grouped"),
                               (8192, 1024, 1024, "row"), (8192, 1024, 256, "grouped"),
                               (12288, 512, 512, "grouped"), (16384, 256, 256, "row")):
            only(c, True)
            mm_min = mc.TF32_COPY_MIN_M
            mc.TF32_COPY_MIN_M = 2**62                   # the swapped kernel at any M
            try:
                torch.manual_seed(1)
                a = torch.randn(M, K, device="cuda")
                b = torch.randn(K, N, device="cuda")
                ref = a.double() @ b.double()
                cc = torch.full((M, N), float("nan"), device="cuda")
                matmul(a, b, out=cc, order=order, group=8)
                torch.cuda.synchronize()
                bad = ((cc.double() - ref).abs() > 1e-2 * ref.abs().max()) | cc.isnan()
                tiles = bad.view(M // 256, 256, N // 128, 128).any(3).any(1).nonzero().tolist() \
                    if M % 256 == 0 and N % 128 == 0 else []
                row = {"config": c, "shape": [M, N, K], "order": order, "error": err(cc, ref),
                       "bad_elements": int(bad.sum()), "bad_tiles": len(tiles),
                       "first_bad_tiles": tiles[:12], **ENV}
            except Exception as exc:
                row = {"config": c, "shape": [M, N, K], "order": order, "exception": str(exc)[:300]}
            finally:
                mc.TF32_COPY_MIN_M = mm_min
            f.write(json.dumps(row) + "\n")
            print("swap", row, flush=True)
only(None, None)

# 3. the rule: copy then plain, against swapped
SHAPES = [(m, n, k) for m in (1024, 2048, 3072, 4096, 6144)
          for n, k in ((4096, 4096), (14336, 4096), (2048, 8192))]
SHAPES += [(8192, 8192, 8192), (16384, 4096, 4096), (8192, 14336, 4096), (8192, 1024, 1024)]
with open(out / "rule.jsonl", "w") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        ref = a.double() @ b.double()
        saved = mc.TF32_COPY_MIN_M
        mc.TF32_COPY_MIN_M = 2**62
        runs = {"cublas": lambda: torch.matmul(a, b), "swapped": lambda: matmul(a, b),
                "copy_plain": lambda: matmul(a, kmajor_copy(b).T),
                "copy": lambda: kmajor_copy(b)}
        errs = {k: err(fn(), ref) for k, fn in runs.items() if k != "copy"}
        ms, times = replicates(runs)
        mc.TF32_COPY_MIN_M = saved
        plans = [{"config": dict(p.config), "grid": list(p.grid)} for p in mm.PLANS._plans.values()]
        f.write(json.dumps({"shape": [M, N, K], "errors": errs, "ms": ms, "replicates": times,
                            "plans": plans, **ENV}) + "\n")
        fl = 2 * M * N * K
        print(f"rule {M}x{N}x{K}: " + "  ".join(
            f"{k} {v:.4f} ms" + ("" if k == "copy" else f" ({ms['cublas'] / v:.3f}x)")
            for k, v in ms.items()) + f"  copy/swap {ms['copy_plain'] / ms['swapped']:.3f}",
            flush=True)
        mm.PLANS.clear()
        mm.ROUTES.clear()
