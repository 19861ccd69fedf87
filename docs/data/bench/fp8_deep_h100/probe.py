"""fp8 at small M: do deeper pipelines close the gap to cuBLAS? cuBLAS runs 112x128 and
64x128 tiles 7-8 stages deep with about one CTA per SM there (ncu kernel names in
docs/data/bench/pitch_h100_2026-11-25/). For each shape this times, in one process, every
config of the fp8 lists plus deeper twins (5-8 stages) in the pointer and the TMA kernels
(split 1, grouped(8), Triton's configs_timings by the library's gpu_time), and
torch._scaled_mm with fast accumulation by the same clock; each kernel's call is checked
against float64 first. Writes JSON lines.

    python3 probe.py OUT.jsonl      (on a GPU)
"""
import functools
import json
import sys

import torch
import triton

from swizzlekit.kernels.triton import scaled
from swizzlekit.kernels.triton.timing import gpu_time
from swizzlekit.lab.bench import operands
from swizzlekit.lab.experiments.tiles import label
from swizzlekit.lab.verify import poisoned, relative_error

SHAPES = [(128, 4096, 4096), (128, 14336, 4096), (256, 4096, 4096), (256, 14336, 4096),
          (512, 14336, 4096), (256, 8192, 8192), (512, 4096, 4096), (192, 8192, 4096)]
DEEP = [(64, 128, 128, s, 4) for s in (5, 6, 7, 8)] + \
       [(128, 64, 128, s, 4) for s in (5, 6, 7)] + \
       [(128, 128, 128, s, w) for s in (5, 6) for w in (4, 8)] + \
       [(64, 64, 128, s, 4) for s in (6, 8)] + [(64, 64, 256, s, 4) for s in (4, 5)] + \
       [(64, 256, 128, s, 4) for s in (5,)] + [(128, 256, 128, 4, 8)]


def extend(tuner, flat):
    base = tuner.configs[0]
    have = {label(c) for c in tuner.configs}
    for bm, bn, bk, s, w in DEEP:
        kw = dict(base.kwargs, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        if flat:
            kw["FLAT"] = False
        c = triton.Config(kw, num_stages=s, num_warps=w, pre_hook=base.pre_hook)
        if label(c) not in have:
            tuner.configs.append(c)


tuners = {"fp8_pointer": scaled._scaled_kernel, "fp8_tma": scaled._scaled_tma_kernel}
for name, t in tuners.items():
    extend(t, name == "fp8_tma")
    t.early_config_prune = getattr(t.early_config_prune, "fits", t.early_config_prune)
    t.cache_results = False
    t._do_bench = functools.partial(gpu_time, warmup=10, rep=50)
out = open(sys.argv[1], "w")
for M, N, K in SHAPES:
    a, b, out_dtype, extra, ref = operands(M, N, K, "fp8")
    sa, sb = extra["scale_a"], extra["scale_b"]
    ms_cublas = gpu_time(lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                                   use_fast_accum=True), warmup=10, rep=50,
                         return_mode="median")
    for name, t in tuners.items():
        t.cache.clear()
        t.configs_timings = None
        scaled.PLANS.clear()
        c = poisoned(M, N, out_dtype, "cuda")
        scaled.scaled_matmul(a, b, sa, sb, out=c, tma=(name == "fp8_tma"), split_k=1,
                             order="grouped", group=8)
        err = relative_error(c, ref=ref)
        for cfg, ms in (t.configs_timings or {}).items():
            out.write(json.dumps({"M": M, "N": N, "K": K, "kernel": name, "config": label(cfg),
                                  "ms": float(ms[0]), "cublas_ms": ms_cublas, "err": err,
                                  "gpu": torch.cuda.get_device_name()}) + "\n")
        out.flush()
        best = min((ms[0], label(cfg)) for cfg, ms in (t.configs_timings or {}).items())
        print(f"{M}x{N}x{K} {name}: best {best[1]} {best[0] * 1e3:.1f} us, cuBLAS "
              f"{ms_cublas * 1e3:.1f} us, err {err:.1e}", flush=True)
