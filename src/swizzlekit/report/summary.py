"""The report's first screen: the answers, each from the section that proves it.

* per GEMM tile of the shared-memory section: the solver's layout, and its wavefronts
  before (row-major) and after;
* per GEMM shape of the CTA section: the recommended order, its predicted gain in time, and
  what the timings on the page say of it;
* per precision: the Triton GEMM against cuBLAS in the latest benchmark run the page holds
  (measured now with ``--measure``, else the shipped ``full``-suite table), naming its GPU.

>>> rows = [{"M": 8, "N": 8, "K": 8, "precision": "bf16", "kernel": k, "order": o,
...          "params": "{}", "vs_cublas": v}
...         for k, o, v in (("cublas", "", 1.0), ("triton", "auto", 0.9),
...                         ("triton_baseline", "", 0.5))]
>>> kernel_summary(rows)[0]["geomean"], kernel_summary(rows)[0]["baseline_geomean"]
(0.9, 0.5)
"""

from __future__ import annotations

import json
import math

__all__ = ["summary", "kernel_summary", "SHORTFALL"]

#: A shape runs short of cuBLAS below this ratio (the benchmark goals' floor).
SHORTFALL = 0.90


def _geomean(values: list[float]) -> float:
    return round(math.exp(sum(math.log(v) for v in values) / len(values)), 3)


def _ours(rows: list[dict]) -> dict:
    """One Triton row per (shape, precision): ``order="auto"`` (the default call) where
    timed, else grouped(8), else the first."""
    def rank(r):
        params = json.loads(r.get("params") or "{}")
        return (r.get("order") != "auto", not (r.get("order") == "grouped"
                                                and params.get("group") == 8))
    best: dict = {}
    for r in rows:
        if r["kernel"] != "triton":
            continue
        key = (int(r["M"]), int(r["N"]), int(r["K"]), r["precision"])
        if key not in best or rank(r) < rank(best[key]):
            best[key] = r
    return best


def kernel_summary(rows: list[dict]) -> list[dict]:
    """Per precision: shapes timed, the Triton GEMM's geomean against cuBLAS (fp8: against
    ``torch._scaled_mm``), how many run below :data:`SHORTFALL`, the worst shape, the
    tutorial-style baseline's geomean where it was timed and how many shapes run below it.
    For fp8 also ``as_given``: the same figures over the shapes ``torch._scaled_mm`` takes as
    given (M, N and K multiples of 16; the others it was timed on padded copies of), the
    set the fp8 goal names; None for the other precisions.

    >>> rows = [{"M": m, "N": 64, "K": 64, "precision": "fp8", "kernel": "triton",
    ...          "order": "auto", "params": "{}", "vs_cublas": v}
    ...         for m, v in ((64, 0.95), (100, 0.5))]
    >>> s = kernel_summary(rows)[0]
    >>> s["geomean"], s["as_given"]["shapes"], s["as_given"]["geomean"]
    (0.689, 1, 0.95)
    """
    rows = list(rows) if isinstance(rows, (list, tuple)) or hasattr(rows, "__next__") else rows
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        from swizzlekit.errors import SwizzleKitError

        raise SwizzleKitError(f"kernel_summary: rows must be a list of benchmark rows (dicts, "
                              f"as swizzlekit bench writes them); got {str(rows)[:80]}")
    ours = _ours(rows)
    base = {(int(r["M"]), int(r["N"]), int(r["K"]), r["precision"]): float(r["vs_cublas"])
            for r in rows if r["kernel"] == "triton_baseline"}
    out = []
    for prec in dict.fromkeys(key[3] for key in ours):
        mine = {key: float(r["vs_cublas"]) for key, r in ours.items() if key[3] == prec}
        baseline = [v for key, v in base.items() if key[3] == prec]
        given = {key: v for key, v in mine.items() if all(d % 16 == 0 for d in key[:3])}
        out.append({"precision": prec, **_figures(mine),
                    "baseline_geomean": _geomean(baseline) if baseline else None,
                    "below_baseline": (sum(v < base[key] for key, v in mine.items() if key in base)
                                       if baseline else None),
                    "as_given": _figures(given) if prec == "fp8" and given else None})
    return out


def _figures(ratios: dict) -> dict:
    worst = min(ratios, key=ratios.get)
    return {"shapes": len(ratios), "geomean": _geomean(list(ratios.values())),
            "below": sum(v < SHORTFALL for v in ratios.values()),
            "worst": round(ratios[worst], 3), "worst_shape": "×".join(map(str, worst[:3]))}


def _status(s: dict) -> str:
    status = s["status"]
    if status.startswith("contradicted"):
        return "contradicted: " + s["recommended"] + " measured faster"
    if status.startswith("confirmed"):
        return "confirmed within noise"
    return "model only"


def summary(data: dict) -> dict:
    """The first screen's three tables from ``data`` (:func:`swizzlekit.report.build`)."""
    tiles = [{"tile": t["name"], "layout": t["cute"] or t["layout"],
              "before": t["wavefronts_before"], "after": t["wavefronts_after"],
              "proof": "optimal" if t["optimal"] else "best found"}
             for t in data["smem"]["gemm_tiles"]]
    orders = [{"shape": "×".join(map(str, s["shape"])), "recommended": s["recommended"],
               "gain_vs_grouped8_pct": s["verdict"]["gain_vs_grouped8_pct"]
               if s["recommended"] == s["model_pick"] else None,
               "row_slower_pct": s["verdict"]["row_over_pick_pct"]
               - s["verdict"]["pick_over_row_pct"]
               if s["recommended"] == s["model_pick"] else None,
               "status": _status(s)} for s in data["cta"]["shapes"]]
    k = data["kernels"]
    if k["source"] == "measured":
        env, file, commit = k.get("env", {}), "measured now (--measure)", ""
        kernels = kernel_summary(k["rows"])
    else:
        full = k["tables"][0]
        env, file, commit = full["env"], full["file"], full["commit"]
        kernels = full["summary"]
    return {"tiles": tiles, "orders": orders, "kernels": kernels,
            "kernels_source": {"gpu": env.get("gpu", ""), "date": env.get("date", ""),
                               "file": file, "commit": commit,
                               "versions": f"CUDA {env.get('cuda', '?')}, torch "
                                           f"{env.get('torch', '?')}, triton "
                                           f"{env.get('triton', '?')}"}}
