"""Which tile config reads a B whose rows straddle L2 lines best: bf16 3000x5000x4000 (B's rows
10000 bytes apart) and 6000x7000x3000 (14000), TMA on B as given and on B's pitched copy,
every unswapped config the prune keeps, one at a time (the autotuner's list replaced by the
one config, plans forgotten between configs); cuBLAS timed once per config. Each checked
once against float64 (poisoned output), then 5 replicates of the two forms interleaved
(do_bench medians, L2 flushed). One JSON line per shape.

    python3 probe.py OUT.jsonl      (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.copies as copies
import swizzlekit.kernels.triton.matmul as mm
from swizzlekit.gpus import gpu
from swizzlekit.kernels.triton.footprint import config_smem

SHAPES = [(3000, 5000, 4000), (6000, 7000, 3000)]
copies.PITCH_MIN_MNK = 2**62          # never copied by the call: the copy is made here
kernel = mm._matmul_tma_kernel
configs = list(kernel.configs)
keep = [c for c in configs if not c.kwargs.get("SWAP_AB") and not c.kwargs.get("FLAT")
        and config_smem(c, 2, 2, single=True) <= gpu("h200").smem_per_block
        and c.kwargs["BLOCK_M"] >= 64 and c.num_stages <= 4]


def label(c):
    k = c.kwargs
    return f"{k['BLOCK_M']}x{k['BLOCK_N']}x{k['BLOCK_K']}/s{c.num_stages}/w{c.num_warps}"


def fresh():
    """Forget every plan, route and split, so that the next call plans again."""
    mm.PLANS.clear()
    mm.ROUTES.clear()
    mm.SPLITS.clear()


def bench(fn):
    return triton.testing.do_bench(fn, warmup=5, rep=25, return_mode="median")


with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        bp = copies._pitched(b)
        ref = a.double() @ b.double()
        times, errs = {"cublas": []}, {}
        for cfg in keep:
            kernel.configs = [cfg]      # one config: the autotuner launches it as it is
            fresh()
            runs = {}
            for name, operand in (("as given", b), ("on the copy", bp)):
                out = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
                mm.matmul(a, operand, "grouped", group=8, tma=True, out=out)
                key = f"{label(cfg)} {name}"
                errs[key] = ((out.double() - ref).norm() / ref.norm()).item()
                runs[key] = (lambda operand=operand:
                             mm.matmul(a, operand, "grouped", group=8, tma=True))
                times[key] = []
            for turn in range(5):       # the two forms interleaved, cuBLAS between them
                for key in (list(runs) if turn % 2 == 0 else list(runs)[::-1]):
                    times[key].append(bench(runs[key]))
            times["cublas"].append(bench(lambda: torch.matmul(a, b)))
        kernel.configs = configs
        fresh()
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "errors": errs, "bad": bad, "ms": ms, "replicates": times,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}" + (f" BAD {bad}" if bad else ""))
        for k in sorted(ms, key=ms.get):
            print(f"  {k:36s} {ms[k]:.4f} ms  {ms['cublas'] / ms[k]:.3f}x")
