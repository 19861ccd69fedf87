"""The config model (:mod:`swizzlekit.kernels.triton.choose`) against the H200 table: fitted on
its fit half, judged on its held-out half and on the fresh shapes.

``python -m swizzlekit.lab.tile_fit`` prints the figures docs/benchmarks.md quotes; ``--fit``
fits again on the fit half and writes ``data/tiles_model.json``. Per problem (a shape,
precision and kernel of ``data/tiles_h200.csv``, written by ``swizzlekit lab tiles``), the
question is the autotuner's: does the fastest of the model's k best configs run as fast as
the fastest of all?
"""

from __future__ import annotations

import json
import math

from swizzlekit.kernels.triton import choose
from swizzlekit.kernels.triton.choose import EFFICIENCIES, GRID, TABLE, seconds, terms

__all__ = ["fit", "judge", "main"]


def _problems(path=TABLE) -> dict:
    """The table's rows grouped by problem (split, shape, precision, kernel, and the
    precision's :func:`family`): ``(config, seconds,
    narrow_a, narrow_b, M, N, K)`` each, with the shape the kernel saw (aligned copies above
    ``PAD_MIN_MNK``, as ``matmul`` and ``scaled_matmul`` make them)."""
    from swizzlekit.kernels.triton.call import PAD_MIN_MNK
    from swizzlekit.lab.records import TileRow, read_csv

    out: dict = {}
    for r in read_csv(path, TileRow):
        fam = {"bf16": "16bit", "fp16": "16bit"}.get(r.precision, r.precision)
        M, N, K = r.M, r.N, r.K
        b_rows = K if fam == "fp8" else N                  # fp8's B is K-major
        e = choose._ELEM[fam]             # copies where a row is not 16 bytes (call._aligned)
        if r.kernel.endswith("tma") or (M * N * K >= PAD_MIN_MNK
                                        and (K * e % 16 or b_rows * e % 16)):
            K, N = -(-K // 16) * 16, -(-N // 16) * 16      # aligned (copies, or TMA's rule)
            na = nb = False
        else:
            na, nb = K % 16 != 0, b_rows % 16 != 0
        key = (r.split, r.M, r.N, r.K, r.precision, r.kernel, fam)
        out.setdefault(key, []).append((r.config, r.ms * 1e-3, na, nb, M, N, K))
    return out


def _rows(problems: dict, split: str) -> list[tuple]:
    """``(problem key, config, seconds, terms)`` for every row of the split."""
    return [(key, cfg, t, terms(M, N, K, key[6], cfg, narrow_a=na, narrow_b=nb))
            for key, rows in problems.items() if key[0] == split
            for cfg, t, na, nb, M, N, K in rows]


def _log_error(rows: list[tuple], params: dict) -> float:
    errs = [abs(math.log(seconds(tm, _efficiency(params, key, cfg), params) / t))
            for key, cfg, t, tm in rows]
    return sum(errs) / len(errs)


def _efficiency(params: dict, key: tuple, config: str) -> float:
    return params["efficiency"].get(f"{key[6]}/{key[5]}/{config}", params["default_efficiency"])


def fit(path=TABLE) -> dict:
    """Grid search on the fit half: for each setting of the globals (:data:`GRID`), each
    config's efficiency minimizes its mean |log(predicted / measured)|; the setting with the
    least mean error over the half wins. ``top_k``: the least k whose picks run within 1% of
    the fastest config on 95% of the fit half's problems."""
    import itertools

    import numpy as np

    rows = _rows(_problems(path), "fit")
    names = sorted({f"{key[6]}/{key[5]}/{cfg}" for key, cfg, _, _ in rows})
    index = np.array([names.index(f"{key[6]}/{key[5]}/{cfg}") for key, cfg, _, _ in rows])
    t = np.array([r[2] for r in rows])
    rounds, compute, pipeline, l2, narrow, dram = (np.array(c, dtype=float)
                                                   for c in zip(*(r[3] for r in rows)))
    effs = np.array(EFFICIENCIES)
    best = None
    for values in itertools.product(*GRID.values()):
        g = dict(zip(GRID, values))
        other = np.maximum.reduce([g["latency"] / pipeline, l2 / g["l2_bandwidth"],
                                   narrow / g["narrow_rate"]])
        pred = np.maximum(rounds[:, None] * np.maximum(compute[:, None] / effs[None, :],
                                                       other[:, None]), dram[:, None])
        err = np.abs(np.log((pred + g["launch"]) / t[:, None]))       # rows x efficiencies
        per_config = np.zeros((len(names), len(effs)))
        np.add.at(per_config, index, err)
        choice = per_config.argmin(axis=1)
        score = per_config[np.arange(len(names)), choice].sum() / len(rows)
        if best is None or score < best[0]:
            best = (score, g, choice)
    score, g, choice = best
    chosen = [float(effs[c]) for c in choice]
    params = {**g, "efficiency": dict(zip(names, chosen)),
              "default_efficiency": sorted(chosen)[len(chosen) // 2]}
    fit_regret = judge(params, "fit", path)
    params["top_k"] = next((k for k in (1, 2, 3, 4, 5)
                            if fit_regret[f"top{k}"]["within_1pct"] >= 0.95), 5)
    params["fit_log_error"] = round(float(score), 3)
    return params


def judge(params: dict | None = None, split: str = "heldout", path=TABLE) -> dict:
    """Per k = 1..5: how much slower the fastest of the model's k best configs runs than the
    fastest config measured, over the split's problems (mean and worst, %), and the share of
    problems within 1%. ``configs``: how many the full autotune timed, on average."""
    params = params or choose.fitted()
    problems = {k: v for k, v in _problems(path).items() if k[0] == split}
    rows = _rows(problems, split)
    ranked: dict = {}
    for key, cfg, t, tm in rows:
        ranked.setdefault(key, []).append((seconds(tm, _efficiency(params, key, cfg), params), t))
    out = {}
    for k in (1, 2, 3, 4, 5):
        slow = [min(t for _, t in sorted(runs)[:k]) / min(t for _, t in runs) - 1
                for runs in ranked.values()]
        out[f"top{k}"] = {"mean_pct": round(100 * sum(slow) / len(slow), 2),
                  "worst_pct": round(100 * max(slow), 1),
                  "within_1pct": round(sum(s <= 0.01 for s in slow) / len(slow), 3)}
    out["problems"] = len(problems)
    out["configs"] = round(sum(len(v) for v in problems.values()) / len(problems), 1)
    out["log_error"] = round(_log_error(rows, params), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m swizzlekit.lab.tile_fit [--fit]``: the held-out and fresh figures
    of the fitted model; ``--fit`` fits it again on the fit half and writes
    ``data/tiles_model.json``."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m swizzlekit.lab.tile_fit")
    ap.add_argument("--fit", action="store_true", help="fit on the fit half and write the JSON")
    args = ap.parse_args(argv)
    params = fit() if args.fit else choose.fitted()
    if args.fit:
        params["judged"] = {s: judge(params, s) for s in ("fit", "heldout", "fresh")}
        choose.FITTED_PATH.write_text(json.dumps(params, indent=1, sort_keys=True) + "\n")
        choose.fitted.cache_clear()
    for split in ("fit", "heldout", "fresh"):
        j = judge(params, split)
        line = "  ".join(f"top-{k}: {j[f'top{k}']['mean_pct']:.2f}% mean, "
                         f"{j[f'top{k}']['worst_pct']:.1f}% worst, "
                         f"{100 * j[f'top{k}']['within_1pct']:.0f}% within 1%"
                         for k in (1, params["top_k"]))
        print(f"{split:8s} {j['problems']:3d} problems ({j['configs']} configs each), "
              f"log error {j['log_error']:.3f}; {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
