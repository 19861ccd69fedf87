"""Every tile config the GEMM's autotuner tries, timed per shape: the table that
:mod:`swizzlekit.kernels.triton.choose` (the config model) is fitted on and judged with.

``swizzlekit lab tiles --out DIR [--precision bf16 --precision tf32 ...]`` runs, per precision
and shape, one call of ``swizzlekit.kernels.matmul`` (``scaled_matmul`` for fp8) with full
autotuning and K unsplit, on fresh operands and a poisoned output checked against float64.
It writes every config the autotuner timed (its GPU time,
:func:`~swizzlekit.kernels.triton.timing.gpu_time`: L2 flushed before each repetition, the
host's launch hidden, the median) to ``tiles.csv``: one
:class:`~swizzlekit.lab.records.TileRow` per config, the winner marked. The autotuner's disk
cache and the config model's pruning are bypassed, so every config that fits is timed afresh.

The shapes carry their split (:data:`SHAPES`): issue 13's ``full`` suite and six small shapes
with rows that are not 16-byte multiples (:data:`RAGGED_SMALL`) alternate between ``fit`` and
``heldout`` in that order (so each kind of shape lands in both), and 24
shapes drawn once from a seeded log-uniform law (M 16-16384, N and K 1024-16384; a third
ragged) are ``fresh``: judged, never fitted on. ``--set narrow`` times instead
:data:`NARROW`, 16 shapes with both operands narrow, fixed before they were measured.

>>> from collections import Counter
>>> Counter(split for *_, split in SHAPES)
Counter({'fresh': 24, 'fit': 23, 'heldout': 23})
"""

from __future__ import annotations

import json
from pathlib import Path

from swizzlekit.lab.bench import SUITES

__all__ = ["SHAPES", "NARROW", "SETS", "PRECISIONS", "run", "measure", "label"]

#: numpy.random.default_rng(20261123): M = 2^U(4, 14), N = 2^U(10, 14.5), K = 2^U(10, 14),
#: two in three rounded to multiples of 16 (M < 256) or 64, the others left ragged.
FRESH = [(22, 2143, 1229), (320, 10048, 4288), (640, 1280, 10688), (17, 20217, 4261),
         (1344, 18880, 9216), (384, 22080, 1280), (9379, 1556, 1298), (256, 8256, 15232),
         (9280, 1408, 16064), (275, 2325, 1789), (704, 1344, 1024), (13056, 10496, 9792),
         (24, 2067, 11259), (14080, 16704, 4608), (2624, 5568, 14912), (50, 3559, 1456),
         (1920, 2368, 2112), (144, 1152, 1856), (170, 1740, 10843), (4864, 1280, 1408),
         (96, 5312, 3264), (799, 12257, 5249), (176, 10624, 1792), (15936, 2240, 1856)]


#: Rows that are not 16-byte multiples, at sizes where the table's pointer-kernel rows read
#: them as they are (below ``copies.PAD_MIN_MNK``). A 16-bit call copies them for TMA from
#: ``copies.COPY_MIN_MNK``, so the config model's pointer rows serve fp32, ``tma=False`` and
#: calls below that.
RAGGED_SMALL = [(96, 3001, 2048), (640, 1537, 1000), (33, 8191, 4096), (300, 2000, 1999),
                (1500, 1000, 777), (200, 4100, 3000)]


def _shapes() -> list[tuple[int, int, int, str]]:
    suite = list(dict.fromkeys(SUITES["full"]))         # the suite lists 16384x2048x8192 twice
    return ([(*s, ("fit", "heldout")[i % 2]) for i, s in enumerate(suite + RAGGED_SMALL)]
            + [(*s, "fresh") for s in FRESH])


#: (M, N, K, split) for every shape the table holds.
SHAPES = _shapes()

#: A set fixed before it was measured (2026-11-23), to judge a lead of the config model's
#: table (docs/data/bench/JOURNAL.md): with both operands' rows no multiple of 16 elements, configs
#: that differ only in stages seemed to run alike, a pattern seen only in the fresh set.
#: numpy.random.default_rng(20261124): M = 2^U(4, 9), N = 2^U(10, 14), K = 2^U(10, 13.5),
#: rounded, kept where N and K are no multiples of 16 and M*N*K < 2^31 (``PAD_MIN_MNK``: rows
#: read as given by the pointer kernel when the set was measured; a 16-bit call now copies
#: them for TMA from ``copies.COPY_MIN_MNK`` and, for B, ``COPY_B_MIN_M`` rows, so a new run of
#: this set times that route where ``copies.copy_route`` takes it).
NARROW = [(53, 5041, 6232), (17, 10776, 2522), (68, 1391, 3134), (26, 11551, 2014),
          (145, 1953, 5007), (20, 8123, 1591), (43, 4552, 3779), (80, 1052, 1759),
          (63, 10465, 1778), (23, 7342, 6165), (174, 1298, 1255), (98, 2977, 5514),
          (18, 14388, 2647), (23, 3091, 6390), (16, 3177, 7481), (487, 1939, 1707)]
#: The shape sets ``lab tiles --set`` takes: the table's (fit, heldout, fresh), or the
#: narrow set, its rows marked ``narrow``.
SETS = {"table": SHAPES, "narrow": [(*s, "narrow") for s in NARROW]}
#: The precisions the table covers (``swizzlekit bench``'s names).
PRECISIONS = ("bf16", "fp16", "tf32", "fp8")


def label(config) -> str:
    """A triton.Config's name in the table (:func:`~swizzlekit.kernels.triton.choose.config_label`).

    >>> import triton
    >>> label(triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "SWAP_AB": True},
    ...                     num_stages=3, num_warps=8))
    '128x256x64/s3/w8/swap'
    """
    from swizzlekit.kernels.triton.choose import config_label

    return config_label(config.kwargs, config.num_stages, config.num_warps)


def _autotuners() -> dict:
    from swizzlekit.kernels.triton import matmul, scaled

    return {"pointer": matmul._matmul_kernel, "tma": matmul._matmul_tma_kernel,
            "fp8_pointer": scaled._scaled_kernel, "fp8_tma": scaled._scaled_tma_kernel}


def measure(M: int, N: int, K: int, precision: str, split: str) -> list[dict]:
    """One job: the call at this shape and precision, fully autotuned afresh; every config
    the autotuner timed, with the call's error against float64 (output poisoned first)."""
    import functools

    from swizzlekit.kernels import KERNELS
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.timing import gpu_time
    from swizzlekit.lab.bench import PRECISIONS as BENCH_PRECISIONS, operands
    from swizzlekit.lab.verify import poisoned, relative_error

    _, mm_precision, bound = BENCH_PRECISIONS[precision]
    tuners = _autotuners()
    for t in tuners.values():             # time every config now, not the disk's old choice
        t.cache.clear()                   # nor only those the config model picks (Prune):
        t.cache_results = False           # every one the kernel's own prune keeps
        t.early_config_prune = getattr(t.early_config_prune, "fits", t.early_config_prune)
        t._do_bench = functools.partial(gpu_time, warmup=10, rep=50)   # kernel, not launch
        t.configs_timings = None
    mm.PLANS.clear()
    a, b, out_dtype, extra, ref = operands(M, N, K, precision)
    c = poisoned(M, N, out_dtype, "cuda")
    # split_k=1: the table holds whole-K launches, what the config model predicts with split 1.
    # split_k=None would time S = 1 and then 2 at M <= 512, and configs_timings would keep
    # the second autotune's timings (SPLIT_K is in the autotuner's key), split 2's.
    KERNELS["triton"].run(a, b, out=c, precision=mm_precision, order="grouped", group=8,
                          split_k=1, **extra)
    err = relative_error(c, ref=ref)
    rows = []
    for name, t in tuners.items():
        timings = getattr(t, "configs_timings", None)
        if not timings:
            continue
        best = min(timings, key=lambda cfg: timings[cfg][0])
        for cfg, ms in timings.items():
            if ms[0] == float("inf"):
                continue                  # did not compile for this shape (out of resources)
            rows.append({"split": split, "M": M, "N": N, "K": K, "precision": precision,
                         "kernel": name, "config": label(cfg), "ms": round(float(ms[0]), 5),
                         "chosen": cfg is best, "rel_err": float(f"{err:.3e}"),
                         "ok": err == err and err < bound})
    if not rows:
        from swizzlekit.errors import ToolError

        raise ToolError(f"{M}x{N}x{K} {precision}: the autotuner timed no configs (one fits, or "
                        f"this Triton keeps no configs_timings)")
    print(f"{M}x{N}x{K} {precision}: {len(rows)} configs, best "
          f"{min(r['ms'] for r in rows) * 1e3:.1f} us, err {err:.1e}", flush=True)
    return rows


def run(out: Path, precisions: tuple[str, ...] = ("bf16", "tf32", "fp8"), client=None,
        progress: bool = True, which: str = "table") -> Path:
    """Time every config at every shape of the set ``which`` (:data:`SETS`; the table's
    :data:`SHAPES` by default) in ``precisions``: one job per shape and precision (here, or on
    the workers of ``client``); rows stream into ``tiles.csv``, which a later call resumes."""
    from swizzlekit.errors import check_choice
    from swizzlekit.lab.cluster import Job, provenance_soon, run_jobs
    from swizzlekit.lab.records import Table, TileRow

    for p in precisions:
        check_choice("precision", p, PRECISIONS)
    check_choice("set", which, SETS)
    out.mkdir(parents=True, exist_ok=True)
    env = provenance_soon(client)
    table = Table(out / "tiles.csv", TileRow, TileRow.key)
    done = {(r.M, r.N, r.K, r.precision) for r in table.rows}
    jobs = [Job(f"{m}x{n}x{k}:{p}", "swizzlekit.lab.experiments.tiles:measure",
                {"M": m, "N": n, "K": k, "precision": p, "split": split}, cost=m * n * k)
            for p in precisions for m, n, k, split in SETS[which] if (m, n, k, p) not in done]
    run_jobs(jobs, lambda d: table.add(TileRow(**row, gpu=d.gpu, gpu_uuid=d.gpu_uuid)
                                       for row in d.result),
             client=client, progress=progress, label="shapes", journal=out / "jobs.jsonl")
    (out / "tiles.json").write_text(json.dumps(
        {"env": env.result(), "command": "swizzlekit lab tiles --out DIR "
         + " ".join(f"--precision {p}" for p in precisions)
         + ("" if which == "table" else f" --set {which}")}, indent=1) + "\n")
    return out / "tiles.csv"
