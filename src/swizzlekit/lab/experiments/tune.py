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

import functools
from dataclasses import replace
from pathlib import Path

from swizzlekit.kernels.cuda.ladder import wmma_smem

__all__ = ["VARIANTS", "variants", "run", "measure"]

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


def run(out: Path, sizes: tuple[int, ...] = (4096, 8192), rungs: list[str] | None = None,
        client=None, progress: bool = True) -> Path:
    """Check and time every variant (of ``rungs``): one job per variant, here or on the
    workers of ``client``; rows stream into ``tune.csv``, which a later call resumes."""
    from swizzlekit.lab.cluster import Job, run_jobs
    from swizzlekit.lab.records import Table, TuneRow

    out.mkdir(parents=True, exist_ok=True)
    table = Table(out / "tune.csv", TuneRow, TuneRow.key)
    jobs = [Job(r.name, "swizzlekit.lab.experiments.tune:measure",
                {"name": r.name.split("[")[0], "label": label, "sizes": tuple(sizes)})
            for label, r in variants(rungs)
            if any((r.name.split("[")[0], label, n) not in table for n in sizes)]
    run_jobs(jobs, lambda d: table.add(TuneRow(**row, gpu=d.gpu, gpu_uuid=d.gpu_uuid)
                                       for row in d.result),
             client=client, progress=progress, label="variants", journal=out / "jobs.jsonl")
    return out / "tune.csv"


@functools.lru_cache(maxsize=None)
def _cublas_ms(n: int, tf32: bool) -> float:
    """cuBLAS at n^3, fp32 with TF32 off or on, on this process's GPU (once per process)."""
    import torch
    from triton.testing import do_bench

    from swizzlekit.lab.verify import random_operands

    a, b = random_operands(n, n, n, torch.float32, "cuda")
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        return do_bench(lambda: torch.matmul(a, b), warmup=100, rep=400, return_mode="median")
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False


def measure(name: str, label: str, sizes: tuple[int, ...]) -> list[dict]:
    """One job: build variant ``label`` of rung ``name``, check it against float64 on a
    ragged and an aligned shape (outputs poisoned), and time it at each size beside cuBLAS."""
    import torch
    from triton.testing import do_bench

    from swizzlekit.kernels.cuda.ladder import build, expressions, run
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    r = dict(variants([name]))[label]
    major, minor = torch.cuda.get_device_capability()
    compiled = build(f"sm_{major}{minor}", [r])[r.source]
    res, vec = compiled.resources, compiled.lowered[expressions(r)[0]]
    errs = []
    for m, n, k in ((1000, 1100, 300), (515, 260, 129), (1024, 1024, 512)):
        a, b = random_operands(m, n, k, torch.float32, "cuda")
        c = poisoned(m, n, torch.float32, "cuda")
        run(r, a, b, out=c)
        errs.append(relative_error(c, a, b))
    tf32 = r.tolerance > 1e-5
    rows = []
    for n in sizes:
        base = _cublas_ms(n, tf32)
        a, b = random_operands(n, n, n, torch.float32, "cuda")
        c = poisoned(n, n, torch.float32, "cuda")
        run(r, a, b, out=c)
        err = relative_error(c, a, b)
        ms = do_bench(lambda: run(r, a, b, out=c), warmup=50, rep=300, return_mode="median")
        rows.append({"rung": name, "variant": label, "size": n,
                     "registers": res[vec]["registers"], "spills": res[vec]["spill_stores"],
                     "ms": round(ms, 4), "tflops": round(2 * n**3 / ms / 1e9, 2),
                     "vs_cublas": round(base / ms, 3), "cublas": "tf32" if tf32 else "fp32",
                     "rel_err": float(f"{max(errs + [err]):.2e}"),
                     "ok": max(errs + [err]) < r.tolerance})
        print(rows[-1], flush=True)
    return rows
