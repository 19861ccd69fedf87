"""TMA against pointer loads and the default, autotuned as the library does, beside cuBLAS
(torch._scaled_mm for fp8), on the shapes of `full` where the load path's default is decided.

    PYTHONPATH=src python3 docs/data/bench/tma_probe.py PRECISION OUT.jsonl [PASSES]

fp8 (fp8_tma_probe.jsonl, 2 passes): the default against tma=True on decode-like and square
shapes below FP8_TMA_MIN_MNK. bf16 and fp16 (tma16_probe.jsonl): tma=True against tma=False
on the aligned shapes of M*N*K <= 2^33. (The recorded 16-bit run listed the ragged shapes too,
where tma=True is refused, which ended each precision after its first pass; they are left out
since, and the first pass is what tma16_probe.jsonl holds.) One JSON line
per (pass, shape, form): do_bench median (L2 flushed), host microseconds per call
(swizzlekit.lab.harness.host_us), and the relative error against float64; the forms
alternate within each pass."""

import json
import sys

import torch

from swizzlekit.kernels import KERNELS
from swizzlekit.lab.bench import operands
from swizzlekit.lab.harness import host_us, median_ms

SHAPES = {
    "fp8": [(1024, 1024, 1024), (2048, 2048, 2048), (64, 4096, 4096), (128, 4096, 4096),
            (256, 4096, 4096), (512, 4096, 4096), (128, 14336, 4096), (256, 14336, 4096),
            (512, 14336, 4096), (256, 8192, 8192), (2048, 4096, 4096)],
    "16bit": [(1024, 1024, 1024), (2048, 2048, 2048), (16, 4096, 4096), (32, 4096, 4096),
              (64, 4096, 4096), (128, 4096, 4096), (256, 4096, 4096), (512, 4096, 4096),
              (16, 8192, 8192), (64, 8192, 8192), (32, 14336, 4096), (128, 14336, 4096)],
}
FORMS = {"fp8": [("cublas", {}), ("triton", {}), ("triton", {"tma": True})],
         "16bit": [("cublas", {}), ("triton", {"tma": True}), ("triton", {"tma": False})]}


def main(precision, path, passes=2):
    group = "fp8" if precision == "fp8" else "16bit"
    with open(path, "a") as out:
        for rep in range(passes):
            for m, n, k in SHAPES[group]:
                a, b, out_dtype, extra, ref = operands(m, n, k, precision)
                for kernel, options in FORMS[group]:
                    kw = dict(**extra, **options)
                    c = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
                    fn = lambda: KERNELS[kernel].run(a, b, out=c, **kw)  # noqa: E731
                    fn()
                    torch.cuda.synchronize()
                    err = float(((c.double() - ref).norm() / ref.norm()).item())
                    row = dict(rep=rep, precision=precision, shape=[m, n, k], kernel=kernel,
                               options=options, do_bench_us=round(median_ms(fn) * 1e3, 2),
                               host_us=round(host_us(fn), 2), rel_err=err)
                    print(json.dumps(row), flush=True)
                    out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2)
