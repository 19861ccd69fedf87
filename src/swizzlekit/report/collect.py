"""The report's numbers, from the library and the measured tables it ships (no GPU needed).

Every function returns plain data (dicts, lists, numbers, strings) that goes into the JSON
as it is, and names the PNGs it drew under ``img``.

>>> rows = seed003()["rows"]
>>> [(r["order"], r["published"], r["computed"]) for r in rows]
[('row', 90, 90), ('grouped', 54, 54)]
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from swizzlekit.cta.rank import canonical
from swizzlekit.data import FOLDER

__all__ = ["SHAPES", "smem_section", "cta_section", "judge_picks", "committed_kernels",
           "seed001", "seed002", "seed003", "seed004", "slug", "canonical"]

#: The GEMM shapes the CTA section ranks orders for (fp16, 128x128x64 tiles).
SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (16384, 16384, 2048), (4096, 14336, 4096),
          (8192, 28672, 8192), (2048, 16384, 8192))


def slug(text: str) -> str:
    """``text`` as an anchor name: lower case, runs of other characters as one underscore.

    >>> slug("Seed 001: CTA swizzle")
    'seed_001_cta_swizzle'
    """
    if not isinstance(text, str):
        from swizzlekit.errors import SwizzleKitError

        raise SwizzleKitError(f"slug: text must be a string; got {text!r}")
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _solved(c):
    """The report's entry for case ``c``, and the solver's layout (for its bank map)."""
    from swizzlekit.smem import analyze, cute_type, solve, triton_expr
    from swizzlekit.smem.layouts import RowMajor

    sol = solve(c.rows, c.cols, c.elem_bytes, c.accesses)
    plain = analyze(RowMajor(c.rows, c.cols), c.accesses, c.elem_bytes)
    return sol.layout, {"name": c.name, "source": c.source, "shape": [c.rows, c.cols],
            "elem_bytes": c.elem_bytes, "accesses": list(c.accesses), "answer": c.seed_answer,
            "note": c.note, "layout": str(sol.layout), "family": sol.family,
            "cute": None if sol.cute is None else str(sol.cute),
            "cute_forbidden": None if sol.cute_forbidden is None else
            "Swizzle<{},{},{}>".format(*sol.cute_forbidden),
            "cute_type": cute_type(sol.layout),
            "tma": f"SWIZZLE_{sol.tma_mode}B" if sol.tma_mode else
            None if sol.tma_equivalent is None else f"as good: {sol.tma_equivalent}",
            "triton": triton_expr(sol.layout), "conflict_free": sol.conflict_free,
            "wavefronts_before": plain.total, "wavefronts_after": sol.wavefronts,
            "lower_bound": sol.lower_bound, "optimal": sol.optimal, "storage": sol.storage,
            "worst_before": max(r.conflict_degree for r in plain.reports)}


def _bank_png(c, after, path: Path) -> str:
    """Bank maps of ``c`` before (row-major) and after (the solver's layout), at the access
    row-major serves worst. A top-level function: the report draws these in parallel."""
    from swizzlekit.plots import save_bank_maps, worst_placement
    from swizzlekit.smem.layouts import RowMajor

    before = RowMajor(c.rows, c.cols)
    conflicted = max(c.accesses, key=lambda a: worst_placement(before, a, c.elem_bytes)[1])
    return save_bank_maps(path, [(before, conflicted, f"before: {before}"),
                                 (after, conflicted, f"after: {after}")],
                          c.elem_bytes, f"{c.name}, {c.elem_bytes}-byte elements").name


def smem_section(img: Path | None) -> dict:
    """The solver on the common GEMM tiles and on every built-in case, with bank maps drawn
    by a pool of processes (one per core). A case that poses an earlier tile's or case's
    problem again (shape, element size and accesses) is marked ``same_as`` it, and neither
    listed nor drawn twice."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    from swizzlekit.smem import CASES, GEMM_TILES

    def problem(c):
        return (c.rows, c.cols, c.elem_bytes, tuple(sorted(c.accesses)))

    groups = (("gemm_tiles", "smem", GEMM_TILES), ("cases", "case", CASES))
    solved = {key: [_solved(c) for c in cases] for key, _, cases in groups}
    out = {key: [entry for _, entry in pairs] for key, pairs in solved.items()}
    first: dict = {}
    for entry, c in zip(out["gemm_tiles"] + out["cases"], GEMM_TILES + CASES):
        if problem(c) in first:
            entry["same_as"] = first[problem(c)]
        else:
            first[problem(c)] = c.name
    if img is not None:
        img.mkdir(parents=True, exist_ok=True)
        jobs = [(entry, c, layout, img / f"{prefix}_{slug(c.name)}.png")
                for key, prefix, cases in groups
                for (layout, entry), c in zip(solved[key], cases) if "same_as" not in entry]
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            pngs = pool.map(_bank_png, *zip(*[j[1:] for j in jobs]))
            for (entry, *_), png in zip(jobs, pngs):
                entry["png"] = png
    return out


#: The kernel the CTA section ranks orders for: the order-table GEMM in 128x128x64 fp16 tiles,
#: two CTAs per SM on the H200 (its compiled registers and shared memory, l2_sweep_h200.csv).
KERNEL = {"tile": (128, 128, 64), "elem_bytes": 2, "ctas_per_sm": 2}


def cta_section(gpu: str, img: Path | None) -> dict:
    """Orders ranked by the L2 model per shape, the recommendation with its confidence,
    heatmaps, the H200 measurements beside the model's predictions, and a parity plot."""
    from swizzlekit.compare import CARD_TABLES
    from swizzlekit.cta import order
    from swizzlekit.cta.rank import label, rank, verdict
    from swizzlekit.gpus import gpu as preset

    g = preset(gpu)
    shapes = []
    for m, n, k in SHAPES:
        ranked = rank(m, n, k, gpu=gpu, ctas_per_sm=KERNEL["ctas_per_sm"])
        grouped = [r for r in ranked if r["order"] == "grouped"]
        v = verdict(ranked, gpu)
        entry = {"shape": [m, n, k], "ranking": ranked,
                 "model_pick": v["pick"], "recommended": v["pick"],
                 "confidence": v["reason"],
                 "status": "model only", "verdict": v,
                 "best_grouped": label(grouped[0]["order"], grouped[0]["params"]),
                 "row": next(r for r in ranked if r["order"] == "row")}
        if img is not None and (m, n, k) == SHAPES[1]:
            tm, tn = -(-m // 128), -(-n // 128)
            for name, params in ((ranked[0]["order"], ranked[0]["params"]), ("row", {}),
                                 ("grouped", {"group": 8})):
                path = _order_png(img, order(name, tm, tn, **params), tm, tn, g.sms,
                                  f"{label(name, params)}, {m}x{n} ({tm}x{tn} tiles)")
                entry.setdefault("pngs", []).append(path)
                entry.setdefault("png_labels", []).append(label(name, params))
        shapes.append(entry)
    out = {"gpu": gpu, "gpu_name": g.name, "sms": g.sms, "l2_bytes": g.l2_bytes,
           "tile": list(KERNEL["tile"]), "elem_bytes": KERNEL["elem_bytes"],
           "ctas_per_sm": KERNEL["ctas_per_sm"], "shapes": shapes}
    if gpu in CARD_TABLES:
        out["heldout"] = _heldout(img, gpu)
    if gpu == "h200":
        out["measured"] = _measured_l2()
        judge_picks(out)
    return out


def judge_picks(cta: dict, kernels: dict | None = None) -> None:
    """Hold each shape's recommendation (the time model's pick, :func:`swizzlekit.cta.rank.
    verdict`) to the timings on the page for the same shape, within the noise band of the
    verdict's GPU: first the order-table GEMM timed in replicates (``--measure``'s order-times
    step, ``cta["order_times"]``), else the single timings of the Triton GEMM under several
    orders (``kernels``) and of the L2 runs. A pick that runs slower than the fastest order
    timed beside it by more than the band is "contradicted", and the fastest measured order is
    recommended in its place; one within it is "confirmed within noise". Measured DRAM bytes
    alone judge the L2 model, not the pick (the page's L2 tables show them).

    >>> cta = {"shapes": [{"shape": [64, 64, 64], "model_pick": "row", "recommended": "row",
    ...                    "status": "model only", "verdict": {"pick_order": "row",
    ...                    "pick_params": {}, "noise_band_pct": 3.5},
    ...                    "ranking": [{"order": "row", "params": {}}]}]}
    >>> timed = {"rows": [{"M": 64, "N": 64, "K": 64, "kernel": "triton", "precision": "bf16",
    ...                    "order": o, "params": "{}", "ms": ms}
    ...                   for o, ms in (("row", 1.05), ("col", 1.0))]}
    >>> judge_picks(cta, timed)
    >>> cta["shapes"][0]["recommended"], cta["shapes"][0]["status"][:41]
    ('col', 'contradicted: timed here, the Triton bf16')
    """
    replicated = cta.get("order_times", {}).get("rows", [])
    for s in cta["shapes"]:
        v = s["verdict"]
        band = v["noise_band_pct"] / 100
        pick = canonical(v["pick_order"], v["pick_params"])
        shape = [int(x) for x in s["shape"]]
        mine = {canonical(r["order"], r["params"]): r for r in replicated
                if [int(r["M"]), int(r["N"]), int(r["K"])] == shape}
        if pick in mine and len(mine) > 1:
            best = min(mine, key=lambda k: mine[k]["ms"])
            slower = mine[pick]["ms"] / mine[best]["ms"] - 1
            s["timing"] = {"source": "replicates", "pick_ms": mine[pick]["ms"], "best": best,
                           "best_ms": mine[best]["ms"], "slower_pct": round(slower * 100, 1)}
            if slower > band:
                s["status"] = (f"contradicted: timed here in replicates, {pick} ran "
                               f"{slower * 100:.1f}% slower than {best} (median of "
                               f"{len(mine[pick]['times'])}; noise band {v['noise_band_pct']}%); "
                               f"recommending {best} instead")
                s["recommended"] = best
            else:
                s["status"] = (f"confirmed within noise: timed here in replicates, {pick} ran "
                               f"within {max(slower, 0) * 100:.1f}% of the fastest order timed "
                               f"({best}; noise band {v['noise_band_pct']}%)")
            continue
        timing = _timing_verdict(pick, shape, kernels, band, cta)
        if timing:
            s["timing"] = timing
        if timing and timing["status"] == "contradicted":
            s["status"] = (f"contradicted: timed here, the {timing['kernel']} ran {pick} in "
                           f"{timing['pick_ms']:.4g} ms, {timing['best']} in "
                           f"{timing['best_ms']:.4g} ms; recommending {timing['best']} instead")
            s["recommended"] = timing["best"]
        elif timing:
            s["status"] = (f"confirmed within noise by the timing on this page (the "
                           f"{timing['kernel']}; noise band {v['noise_band_pct']}%)")


def _timing_verdict(pick: str, shape, kernels: dict | None, band: float,
                    cta: dict) -> dict | None:
    """The pick against the other orders timed once each at ``shape``: the Triton GEMM per
    precision (``kernels``), then the order-table GEMM's L2 runs that carry a time. The first
    set that runs the pick more than ``band`` slower than its fastest ("contradicted"), else
    the last ("confirmed"); None where the page timed no such pair."""
    m, n, k = map(int, shape)
    sets: dict = {}
    for r in (kernels or {}).get("rows", []):
        if (int(r["M"]), int(r["N"]), int(r["K"])) == (m, n, k) and r["kernel"] == "triton" \
                and r.get("order") and r.get("ms"):
            label_ = canonical(r["order"], json.loads(r["params"] or "{}"))
            sets.setdefault(f"Triton {r['precision']} GEMM", {})[label_] = float(r["ms"])
    for key in ("measured", "measured_now"):
        for r in cta.get(key, {}).get("rows", []):
            if r.get("shape") == "x".join(map(str, shape)) and r.get("ms"):
                sets.setdefault("order-table GEMM", {})[
                    canonical(r["order"], r["params"])] = float(r["ms"])
    verdict = None
    for kernel, times in sets.items():
        if pick not in times or len(times) < 2:
            continue
        best = min(times, key=times.get)
        slow = times[pick] > (1 + band) * times[best]
        verdict = {"kernel": kernel, "status": "contradicted" if slow else "confirmed",
                   "pick_ms": times[pick], "best": best, "best_ms": times[best]}
        if slow:
            break
    return verdict


def _heldout(img: Path | None, gpu: str = "h200") -> dict:
    """The model against the held-out half of ``gpu``'s sweep (a card of
    :data:`swizzlekit.compare.CARD_TABLES`): errors, and a parity plot."""
    from swizzlekit.compare import CARD_TABLES, compare_sweep, errors
    from swizzlekit.cta.l2 import HELDOUT_BY_GPU
    from swizzlekit.gpus import gpu as preset

    table = CARD_TABLES[gpu][0]
    rows = compare_sweep("heldout", table, gpu=gpu)
    flag = "" if gpu == "h200" else f" --gpu {gpu}"
    out = {"source": f"swizzlekit/data/{table.name}, held-out half (swizzlekit lab "
                     f"l2-sweep; python -m swizzlekit.compare --heldout{flag})",
           "card": preset(gpu).name, **errors(rows), **HELDOUT_BY_GPU[gpu]["heldout"]}
    if img is not None:
        from swizzlekit.plots import parity_plot

        out["png"] = parity_plot(img / "parity_heldout.png", [r["measured_hit"] for r in rows],
                                 [r["model_hit"] for r in rows],
                                 [f"{r['config']} {r['dtype']}" for r in rows],
                                 "L2 hit rate, held-out runs: model against ncu").name
    return out


def _order_png(img: Path, o, tm: int, tn: int, concurrent: int, title: str) -> str:
    from swizzlekit.plots import save_order_map

    return save_order_map(img / f"order_{slug(title)}.png", o, tm, tn, concurrent, title).name


def _measured_l2() -> dict:
    """The shipped L2 table (every problem measured twice, in two passes of ``swizzlekit lab
    l2``), one row per problem and order: the two measurements' mean and spread beside the
    model; and the model's error over every run of both passes."""
    import numpy as np

    from swizzlekit.compare import compare

    every = compare()
    runs: dict = {}
    for r in every:
        key = (r["shape"], r["order"], json.dumps(r["params"], sort_keys=True))
        runs.setdefault(key, []).append(r)
    rows = []
    for (shape, order_, _), rs in runs.items():
        hits, dram = [r["measured_hit"] for r in rs], [r["measured_dram"] for r in rs]
        rows.append({"shape": shape, "order": order_, "params": rs[0]["params"],
                     "passes": len(rs), "measured_hit": round(float(np.mean(hits)), 2),
                     "measured_hit_spread": round(max(hits) - min(hits), 2),
                     "measured_dram": int(np.mean(dram)),
                     "measured_dram_spread": int(max(dram) - min(dram)),
                     "model_hit": rs[0]["model_hit"], "model_dram": rs[0]["model_dram"],
                     "ms": float(np.median([r["ms"] for r in rs])) if all(r.get("ms") for r in rs)
                     else None})
    # the model's error over every run of both passes, as python -m swizzlekit.compare gives it
    err = np.array([abs(r["model_hit"] - r["measured_hit"]) for r in every])
    meta = json.loads((FOLDER / "l2_h200.json").read_text())
    return {"source": "swizzlekit/data/l2_h200.csv and l2_h200_counters.csv: two passes of "
                      "swizzlekit lab l2 over the same problems, merged (mean, and the spread "
                      "between the passes)",
            "env": meta.get("env", {}), "rows": rows,
            "mean_abs_error": round(float(err.mean()), 2), "worst_abs_error": round(float(err.max()), 1)}


def _bench_table(name: str) -> tuple[list[dict], dict]:
    from swizzlekit.lab.records import BenchRow, read_csv, to_dicts

    rows = to_dicts(read_csv(FOLDER / name, BenchRow))
    meta_path = (FOLDER / name).with_suffix(".json")
    env = json.loads(meta_path.read_text()).get("env", {}) if meta_path.exists() else {}
    return rows, env


#: The ladder at seed 002's sizes, every rung, on the H200.
LADDER_TABLE = "sgemm/ladder_h200.csv"
#: The latest pass of the ``full`` suite in every precision (H200; its JSON names the
#: commands and commit), and the SGEMM ladder: what the kernels section shows without a GPU.
FULL_TABLE = "bench/full_h200.csv"
COMMITTED = ((FULL_TABLE, "the Triton GEMM against cuBLAS: the full suite, every precision"),
             (LADDER_TABLE, "the CUDA SGEMM ladder against cuBLAS SGEMM"))


def committed_kernels(img: Path | None) -> dict:
    """The benchmark tables that ship with swizzlekit, each with its environment, commands
    and commit, and per precision the Triton GEMM's geomean against cuBLAS
    (:func:`swizzlekit.report.summary.kernel_summary`)."""
    from swizzlekit.report.summary import kernel_summary

    tables = []
    for name, what in COMMITTED:
        rows, env = _bench_table(name)
        meta = json.loads((FOLDER / name).with_suffix(".json").read_text())
        tables.append({"file": f"swizzlekit/data/{name}", "what": what, "env": env,
                       "rows": rows, "commit": meta.get("commit", ""),
                       "command": meta.get("command", ""),
                       "summary": kernel_summary(rows) if name == FULL_TABLE else []})
    return {"source": "committed", "tables": tables}


def seed001() -> dict:
    """Seed 001's L2 hit rates: published, measured on the H200, and the L2 model."""
    from swizzlekit.compare import compare_seed001
    from swizzlekit.seeds import SEED001_PUBLISHED

    rows = []
    for r in compare_seed001():
        shape = tuple(int(x) for x in r["shape"].split("x"))
        pub = SEED001_PUBLISHED[shape][0 if r["kernel"] == "matmul_smem<32>" else 1]
        rows.append({**r, "published": pub})
    return {"title": "Seed 001: L2 hit rate of matmul_smem<32> and matmul_swizzle<32,4>",
            "published_on": "the seed's GPU (ncu 'L2 Hit Rate')",
            "measured": "H200, ncu lts__t_sectors_lookup_hit / lts__t_sectors "
                        "(swizzlekit/data/l2_h200.csv)", "rows": rows}


def seed002() -> dict:
    """Seed 002's console table: baseline and optimized SGEMM, GFLOP/s and speedup, against
    cuda_naive and cuda_sgemmopt (and the best rung) on the H200."""
    from swizzlekit.seeds import SEED002_PUBLISHED

    rows, env = _bench_table(LADDER_TABLE)
    at = {(int(r["M"]), r["kernel"]): r for r in rows}
    out = []
    for n, (base, mine, speedup) in SEED002_PUBLISHED.items():
        naive, opt = at.get((n, "cuda_naive")), at.get((n, "cuda_sgemmopt"))
        if naive is None or opt is None:
            continue
        out.append({"size": n, "published_baseline_gflops": base, "published_gemm_gflops": mine,
                    "published_speedup": speedup,
                    "h200_naive_gflops": round(float(naive["tflops"]) * 1e3, 1),
                    "h200_sgemmopt_gflops": round(float(opt["tflops"]) * 1e3, 1),
                    "h200_speedup": round(float(naive["ms"]) / float(opt["ms"]), 2)})
    return {"title": "Seed 002: baseline against the optimized SGEMM",
            "published_on": "RTX 4050 Laptop GPU",
            "measured": f"H200 (swizzlekit/data/{LADDER_TABLE})", "env": env, "rows": out}


def seed003() -> dict:
    """Seed 003's hand count of tile loads, computed by :func:`~swizzlekit.cta.wave_tile_loads`."""
    from swizzlekit.cta import order, wave_tile_loads
    from swizzlekit.seeds import SEED003_PUBLISHED

    computed = {"row": wave_tile_loads(order("row", 9, 9), 9, 9)[0],
                "grouped": wave_tile_loads(order("grouped", 9, 9, group=3), 9, 9)[0]}
    return {"title": "Seed 003: A and B tile loads of the first wave (9x9 tiles, 9 CTAs, "
                     "9 K steps)",
            "rows": [{"order": k, "published": v, "computed": computed[k]}
                     for k, v in SEED003_PUBLISHED.items()]}


def seed004(cases: list[dict]) -> dict:
    """Seed 004's answers beside the solver's, from the smem section's cases."""
    return {"title": "Seed 004: the seed's swizzles against the solver's",
            "rows": [{"case": c["name"], "published": c["answer"],
                      "solver": c["cute"] or (f"{c['cute_forbidden']} (forbidden by CuTe)"
                                              if c["cute_forbidden"] else c["layout"]),
                      "conflict_free": c["conflict_free"]}
                     for c in cases if c["source"] == "seed 004"]}
