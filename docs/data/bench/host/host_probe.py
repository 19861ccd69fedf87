"""Host time per call against the do_bench median, for the forms of the GEMM whose short calls
can wait on the host: swizzlekit's TMA and pointer paths in bf16, fp8 and TF32, beside cuBLAS.

    SWIZZLEKIT_AUTOTUNE=0 PYTHONPATH=src python3 docs/data/bench/host/host_probe.py LABEL OUT.jsonl

Run once per code version (PYTHONPATH pointing at each one's src) with one Triton cache, so
both launch the same compiled kernels; SWIZZLEKIT_AUTOTUNE=0 takes the config model's first
pick, the same in both. One JSON line per (shape, form): do_bench median (L2 flushed), and the
host microseconds of 50 calls issued back to back (swizzlekit.lab.harness.host_us; the old
code has no host_us, so this script times the same way itself)."""

import json
import sys
import time

import torch

from swizzlekit.kernels import KERNELS
from swizzlekit.lab.bench import operands
from swizzlekit.lab.harness import median_ms

SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (16, 4096, 4096), (64, 4096, 4096),
          (256, 4096, 4096), (512, 4096, 4096), (16, 8192, 8192)]
FORMS = {"bf16": [("cublas", {}), ("triton", {"tma": True}), ("triton", {"tma": False}),
                  ("triton", {})],
         "fp8": [("cublas", {}), ("triton", {"tma": True}), ("triton", {})],
         "tf32": [("cublas", {}), ("triton", {})]}


def host_us(fn, calls=50):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / calls * 1e6


def main(label, path):
    with open(path, "a") as out:
        for prec, forms in FORMS.items():
            for m, n, k in SHAPES:
                a, b, out_dtype, extra, ref = operands(m, n, k, prec)
                for kernel, options in forms:
                    kw = dict(precision="tf32", **extra, **options)
                    if kernel == "triton":
                        kw["split_k"] = 1
                    c = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
                    fn = lambda: KERNELS[kernel].run(a, b, out=c, **kw)  # noqa: E731
                    fn()
                    torch.cuda.synchronize()
                    err = float(((c.double() - ref).norm() / ref.norm()).item())
                    fn()
                    ms = median_ms(fn)
                    host = host_us(fn)
                    row = dict(label=label, precision=prec, shape=[m, n, k], kernel=kernel,
                               options=options, do_bench_us=round(ms * 1e3, 2),
                               host_us=round(host, 2), rel_err=err)
                    print(json.dumps(row), flush=True)
                    out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
