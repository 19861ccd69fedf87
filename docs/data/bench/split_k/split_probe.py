"""Split-K in one launch at decode-like M: cuBLAS against swizzlekit's GEMM with split_k
S in SPLITS, each S autotuned as the library does (model top-k), do_bench with L2 flushed.
usage: PYTHONPATH=src python3 docs/data/bench/split_k/split_probe.py PRECISION OUT.jsonl
[budget_s] ["M,N,K;..." "1,2,4"] (SWIZZLEKIT_AUTOTUNE=full for the probe_*_full files)"""
import json, sys, time
import torch
from swizzlekit.kernels import KERNELS
from swizzlekit.lab.bench import PRECISIONS, operands, _padded16
from swizzlekit.lab.harness import median_ms
from swizzlekit.lab.verify import poisoned, relative_error

SHAPES = [(16, 4096, 4096), (32, 4096, 4096), (64, 4096, 4096), (128, 4096, 4096),
          (256, 4096, 4096), (512, 4096, 4096), (16, 8192, 8192), (64, 8192, 8192),
          (256, 8192, 8192), (16, 14336, 4096), (32, 14336, 4096), (64, 14336, 4096),
          (128, 14336, 4096), (256, 14336, 4096), (512, 14336, 4096),
          (128, 8192, 8192), (512, 8192, 8192), (384, 4096, 4096), (96, 4096, 14336)]
SPLITS = [1, 2, 3, 4, 6, 8]
prec, out = sys.argv[1], sys.argv[2]
budget = float(sys.argv[3]) if len(sys.argv) > 3 else 500
if len(sys.argv) > 4:           # a subset: "M,N,K;M,N,K" and splits "1,2,4"
    SHAPES = [tuple(map(int, s.split(","))) for s in sys.argv[4].split(";")]
    SPLITS = [int(x) for x in sys.argv[5].split(",")]
from swizzlekit.kernels.triton import matmul as mm, scaled


def last_config():
    plans = (scaled.PLANS if prec == "fp8" else mm.PLANS)._plans
    plan = list(plans.values())[-1] if plans else None
    if plan is None:
        return None
    c = plan.config
    return f"{c['BLOCK_M']}x{c['BLOCK_N']}x{c['BLOCK_K']}" + ("/swap" if c.get("SWAP_AB") else "") + ("/flat" if c.get("FLAT") else "") + f" grid={plan.grid}"
t0 = time.time()
_, mm_precision, bound = PRECISIONS[prec]
with open(out, "a") as f:
    for (m, n, k) in SHAPES:
        if time.time() - t0 > budget:
            break
        a, b, out_dtype, extra, ref = operands(m, n, k, prec)
        kw = dict(precision=mm_precision, **extra)
        c = poisoned(m, n, out_dtype, "cuda")
        KERNELS["cublas"].run(a, b, out=c, **kw)
        ms_cub = median_ms(lambda: KERNELS["cublas"].run(a, b, out=c, **kw))
        row = {"M": m, "N": n, "K": k, "precision": prec, "cublas_us": round(ms_cub * 1e3, 2)}
        for s in SPLITS:
            if k // 64 < 2 * s:
                continue
            c = poisoned(m, n, out_dtype, "cuda")
            t1 = time.time()
            KERNELS["triton"].run(a, b, out=c, order="auto", split_k=s, **kw)
            torch.cuda.synchronize()
            tune_s = time.time() - t1
            err = relative_error(c, ref=ref)
            ms = median_ms(lambda: KERNELS["triton"].run(a, b, out=c, order="auto", split_k=s,
                                                         **kw))
            row[f"S{s}_us"] = round(ms * 1e3, 2)
            row[f"S{s}_ok"] = bool(err == err and err < bound)
            row[f"S{s}_tune_s"] = round(tune_s, 1)
            row[f"S{s}_config"] = last_config()
        best = min((v, key) for key, v in row.items() if key.endswith("_us") and key[0] == "S")
        row["best"] = best[1]
        row["best_vs_cublas"] = round(ms_cub * 1e3 / best[0], 3)
        row["S1_vs_cublas"] = round(ms_cub * 1e3 / row["S1_us"], 3)
        print(json.dumps(row), flush=True)
        f.write(json.dumps(row) + "\n")
        f.flush()
        del a, b, ref
