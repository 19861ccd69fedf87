"""Choose the template parameters of the CUDA rungs by measuring them on the GPU.

``swizzlekit lab tune --out DIR`` compiles each variant of
``sgemm_warp<BK, TNS, MINB, ORDER, P>`` and ``sgemm_wmma_tf32<STAGES, BK, ORDER, P>`` (the
:data:`VARIANTS`), checks it against float64 on a ragged and an aligned shape with the output
poisoned, and times it at 4096^3 and 8192^3 with L2 flushed, beside cuBLAS (fp32 with TF32
off, and TF32). It writes ``tune.csv``: one row per variant and size, with registers, spills,
time, TFLOP/s, the ratio to cuBLAS and the error. The rungs in ``ladder.RUNGS`` take the
winners; docs/sgemm.md has the table.

>>> len(VARIANTS["cuda_warptile"]), len(VARIANTS["cuda_wmma_tf32"])
(10, 8)
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

from swizzlekit.kernels.cuda.ladder import wmma_smem

__all__ = ["VARIANTS", "variants", "run"]

#: rung -> {label: (template expression with {vec}, dynamic shared memory in bytes, tile)}
VARIANTS: dict[str, dict[str, tuple[str, int, tuple[int, int]]]] = {
    "cuda_warptile": {}, "cuda_wmma_tf32": {}}
for _bk, _tns, _minb in ((8, 2, 2), (16, 2, 1), (16, 2, 2), (8, 4, 1), (16, 4, 1)):
    for _order, _p in ((0, 1), (1, 8)):
        VARIANTS["cuda_warptile"][
            f"128x{64 * _tns}x{_bk} MINB={_minb} order={'grouped8' if _order else 'row'}"] = (
            f"sgemm_warp<{_bk},{_tns},{_minb},{_order},{_p},{{vec}}>", 0, (128, 64 * _tns))
for _stages in (1, 2, 3, 4):
    for _bk in (16, 32):
        VARIANTS["cuda_wmma_tf32"][f"STAGES={_stages} BK={_bk}"] = (
            f"sgemm_wmma_tf32<{_stages},{_bk},1,8,{{vec}}>", wmma_smem(_stages, _bk), (128, 128))


def variants(rungs: list[str] | None = None):
    """Every variant (of ``rungs``, default all) as a ``(label, Rung)`` pair."""
    from swizzlekit.kernels.cuda.ladder import rung

    for name, table in VARIANTS.items():
        if rungs and name not in rungs:
            continue
        base = rung(name)
        for label, (expr, smem, tile) in table.items():
            yield label, replace(base, name=f"{name}[{label}]", expression=expr,
                                 dynamic_smem=smem, tile=tile)


def run(out: Path, sizes: tuple[int, ...] = (4096, 8192), rungs: list[str] | None = None) -> Path:
    """Check and time every variant (of ``rungs``); writes ``tune.csv`` to ``out``."""
    import torch
    from triton.testing import do_bench

    from swizzlekit.kernels.cuda.ladder import build, expressions, run
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    out.mkdir(parents=True, exist_ok=True)
    major, minor = torch.cuda.get_device_capability()
    rows = []
    cublas = {}
    for n in sizes:
        a, b = random_operands(n, n, n, torch.float32, "cuda")
        for tf32 in (False, True):
            torch.backends.cuda.matmul.allow_tf32 = tf32
            ms = do_bench(lambda: torch.matmul(a, b), warmup=100, rep=400, return_mode="median")
            cublas[(n, tf32)] = ms
    torch.backends.cuda.matmul.allow_tf32 = False
    for label, r in variants(rungs):
        compiled = build(f"sm_{major}{minor}", [r])[r.source]
        res, vec = compiled.resources, compiled.lowered[expressions(r)[0]]
        errs = []
        for m, n, k in ((1000, 1100, 300), (515, 260, 129), (1024, 1024, 512)):
            a, b = random_operands(m, n, k, torch.float32, "cuda")
            c = poisoned(m, n, torch.float32, "cuda")
            run(r, a, b, out=c)
            errs.append(relative_error(c, a, b))
        tf32 = r.tolerance > 1e-5
        for n in sizes:
            a, b = random_operands(n, n, n, torch.float32, "cuda")
            c = poisoned(n, n, torch.float32, "cuda")
            run(r, a, b, out=c)
            err = relative_error(c, a, b)
            ms = do_bench(lambda: run(r, a, b, out=c), warmup=50, rep=300, return_mode="median")
            row = {"rung": r.name.split("[")[0], "variant": label, "size": n,
                   "registers": res[vec]["registers"], "spills": res[vec]["spill_stores"],
                   "ms": round(ms, 4), "tflops": round(2 * n**3 / ms / 1e9, 2),
                   "vs_cublas": round(cublas[(n, tf32)] / ms, 3),
                   "cublas": "tf32" if tf32 else "fp32",
                   "rel_err": f"{max(errs + [err]):.2e}",
                   "ok": max(errs + [err]) < r.tolerance}
            rows.append(row)
            print(row, flush=True)
    with open(out / "tune.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return out / "tune.csv"
