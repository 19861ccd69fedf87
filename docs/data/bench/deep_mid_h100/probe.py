"""Deep pipelines beyond M = 512: at 1024^3 cuBLAS runs bf16 on 128x64 tiles 8 stages deep in
clusters of two, 128 CTAs (ncu, docs/data/bench/pitch_h100_2026-11-25/), where the library
offers its deep configs only up to M = 512 (configs.DEEP_MAX_M). This lifts that limit and
times, in one process, every config each kernel's own prune keeps (pointer and TMA kernels,
split 1, grouped(8), Triton's configs_timings by the library's gpu_time), with cuBLAS by the
same clock; each kernel's call checked against float64 first. JSON lines.

    python3 probe.py OUT.jsonl      (on a GPU)
"""
import functools
import json
import sys

import torch

import swizzlekit.kernels.triton.configs as cfg
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton import scaled
from swizzlekit.kernels.triton.timing import gpu_time
from swizzlekit.lab.bench import operands
from swizzlekit.lab.experiments.tiles import label
from swizzlekit.lab.verify import poisoned, relative_error

cfg.DEEP_MAX_M = 10**9
SHAPES = [(1024, 1024, 1024), (1024, 2048, 1024), (1024, 1024, 4096), (2048, 1024, 2048),
          (768, 1536, 2048)]
PRECISIONS = ("bf16", "fp8")
tuners = {"pointer": mm._matmul_kernel, "tma": mm._matmul_tma_kernel,
          "fp8_pointer": scaled._scaled_kernel, "fp8_tma": scaled._scaled_tma_kernel}
for t in tuners.values():
    t.early_config_prune = getattr(t.early_config_prune, "fits", t.early_config_prune)
    t.cache_results = False
    t._do_bench = functools.partial(gpu_time, warmup=10, rep=50)
out = open(sys.argv[1], "w")
for prec in PRECISIONS:
    for M, N, K in SHAPES:
        a, b, out_dtype, extra, ref = operands(M, N, K, prec)
        if prec == "fp8":
            sa, sb = extra["scale_a"], extra["scale_b"]
            base = lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                            use_fast_accum=True)
        else:
            base = lambda: torch.matmul(a, b)
        ms_cublas = gpu_time(base, warmup=10, rep=50, return_mode="median")
        for tma in (False, True):
            name = ("fp8_" if prec == "fp8" else "") + ("tma" if tma else "pointer")
            t = tuners[name]
            t.cache.clear()
            t.configs_timings = None
            mm.PLANS.clear(), scaled.PLANS.clear()
            c = poisoned(M, N, out_dtype, "cuda")
            if prec == "fp8":
                scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma, split_k=1, order="grouped",
                                     group=8)
            else:
                mm.matmul(a, b, out=c, tma=tma, split_k=1, order="grouped", group=8)
            err = relative_error(c, ref=ref)
            timings = t.configs_timings or {}
            for conf, ms in timings.items():
                out.write(json.dumps({"M": M, "N": N, "K": K, "precision": prec, "kernel": name,
                                      "config": label(conf), "ms": float(ms[0]),
                                      "cublas_ms": ms_cublas, "err": err,
                                      "gpu": torch.cuda.get_device_name()}) + "\n")
            out.flush()
            best = min((ms[0], label(conf)) for conf, ms in timings.items())
            print(f"{M}x{N}x{K} {prec} {name}: best {best[1]} {best[0] * 1e3:.1f} us, cuBLAS "
                  f"{ms_cublas * 1e3:.1f} us ({ms_cublas / best[0]:.3f}), err {err:.1e}",
                  flush=True)
