"""The config model (:mod:`swizzlekit.kernels.triton.choose`) against each card's table: fitted
on its fit half, judged on its held-out half and on the fresh shapes, per GPU.

``python -m swizzlekit.lab.tile_fit [--gpu h200|h100-sxm]`` prints the figures docs/benchmarks.md
quotes; ``--fit`` fits again on the fit half and writes that card's ``data/tiles_model*.json``.
Per problem (a shape, precision and kernel of ``data/tiles_h200.csv`` or ``tiles_h100.csv``,
written by ``swizzlekit lab tiles``), the question is the autotuner's: does the fastest of the
model's k best configs run as fast as the fastest of all?
"""

from __future__ import annotations

import json
import math

from swizzlekit.kernels.triton import choose
from swizzlekit.kernels.triton.choose import EFFICIENCIES, GRID, TABLE, TABLES, seconds, terms

__all__ = ["NARROW_TABLE", "TOP_KS", "SPLITS", "splits", "fit", "judge", "main"]

#: The narrow set (``swizzlekit lab tiles --set narrow``): judged, never fitted on.
NARROW_TABLE = TABLE.with_name("tiles_h200_narrow.csv")
#: The k judged: how many of the model's best configs are timed.
TOP_KS = tuple(range(1, 9))
#: The splits judged on the H200, and the table each is in.
SPLITS = {"fit": TABLE, "heldout": TABLE, "fresh": TABLE, "narrow": NARROW_TABLE}


def splits(gpu_name: str = "h200") -> dict:
    """The splits judged on a fitted card (:data:`~swizzlekit.kernels.triton.choose.TABLES`)
    and the table each is in; the narrow set was measured on the H200 only."""
    if not isinstance(gpu_name, str) or gpu_name not in TABLES:
        from swizzlekit.errors import SwizzleKitError

        raise SwizzleKitError(f"no config table for GPU {gpu_name!r}; valid: {', '.join(TABLES)}")
    if gpu_name == "h200":
        return dict(SPLITS)
    return {s: TABLES[gpu_name] for s in ("fit", "heldout", "fresh")}


def _problems(path=TABLE) -> dict:
    """The table's rows grouped by problem (split, shape, precision, kernel, and the
    precision's :func:`family`): ``(config, seconds,
    narrow_a, narrow_b, M, N, K)`` each, with the shape the kernel saw (aligned copies above
    ``PAD_MIN_MNK``, as ``matmul`` and ``scaled_matmul`` made them when the table was timed:
    fp8 calls copy from ``FP8_PAD_MIN_MNK`` since 2026-11-28)."""
    from swizzlekit.kernels.triton.copies import PAD_MIN_MNK
    from swizzlekit.lab.records import TileRow, read_csv

    out: dict = {}
    for r in read_csv(path, TileRow):
        fam = {"bf16": "16bit", "fp16": "16bit"}.get(r.precision, r.precision)
        M, N, K = r.M, r.N, r.K
        b_rows = K if fam == "fp8" else N                  # fp8's B is K-major
        e = choose._ELEM[fam]             # copies where a row is not 16 bytes (copies._aligned)
        if r.kernel.endswith("tma") or (M * N * K >= PAD_MIN_MNK
                                        and (K * e % 16 or b_rows * e % 16)):
            K, N = -(-K // 16) * 16, -(-N // 16) * 16      # aligned (copies, or TMA's rule)
            na = nb = False
        else:
            na, nb = K % 16 != 0, b_rows % 16 != 0
        key = (r.split, r.M, r.N, r.K, r.precision, r.kernel, fam)
        out.setdefault(key, []).append((r.config, r.ms * 1e-3, na, nb, M, N, K))
    return out


def _rows(problems: dict, split: str, gpu_name: str = "h200") -> list[tuple]:
    """``(problem key, config, seconds, terms)`` for every row of the split, on the preset."""
    return [(key, cfg, t, terms(M, N, K, key[6], cfg, narrow_a=na, narrow_b=nb,
                                gpu_name=gpu_name))
            for key, rows in problems.items() if key[0] == split
            for cfg, t, na, nb, M, N, K in rows]


def _log_error(rows: list[tuple], params: dict) -> float:
    errs = [abs(math.log(seconds(tm, _efficiency(params, key, cfg), params) / t))
            for key, cfg, t, tm in rows]
    return sum(errs) / len(errs)


def _efficiency(params: dict, key: tuple, config: str) -> float:
    return params["efficiency"].get(f"{key[6]}/{key[5]}/{config}", params["default_efficiency"])


def fit(path=None, gpu_name: str = "h200") -> dict:
    """Grid search on the fit half: for each setting of the globals (:data:`GRID`), each
    config's efficiency minimizes its mean |log(predicted / measured)|; the setting with the
    least mean error over the half wins. ``top_k``: the least k whose picks run within 1% of
    the fastest config on 95% of the fit half's problems it serves (:func:`_fit_ks`).
    ``path``: the table (default: the card's, :data:`~swizzlekit.kernels.triton.choose.TABLES`)."""
    import itertools

    import numpy as np

    path = path or splits(gpu_name)["fit"]
    rows = _rows(_problems(path), "fit", gpu_name)
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
    params["top_k"], params["narrow_top_k"] = _fit_ks(params, path, gpu_name)
    params["gpu"] = gpu_name
    params["fit_log_error"] = round(float(score), 3)
    return params


def _least_k(within, ks) -> int:
    """The fit half's rule: the least k of ``ks`` whose picks run within 1% of the fastest
    config on 95% of the problems (``within(k)``: that share), else the largest."""
    return next((k for k in ks if within(k) >= 0.95), ks[-1])


def _split(split: str, path) -> dict:
    return {k: v for k, v in _problems(path).items() if k[0] == split}


def _ranked(params: dict, problems: dict, split: str, gpu_name: str = "h200") -> dict:
    """Per problem of the split: its configs as the model ranks them, fastest predicted first,
    each ``(label, measured seconds)``, and whether both operands load narrow."""
    out: dict = {}
    for key, cfg, t, tm in _rows(problems, split, gpu_name):
        out.setdefault(key, []).append((seconds(tm, _efficiency(params, key, cfg), params), cfg, t))
    return {key: ([(cfg, t) for _, cfg, t in sorted(runs, key=lambda r: r[0])],
                  problems[key][0][2] and problems[key][0][3])
            for key, runs in out.items()}


def _regret(runs: list[tuple], picks: list[int]) -> float:
    """How much slower the fastest of ``picks`` runs than the fastest of all ``runs``."""
    return min(runs[i][1] for i in picks) / min(t for _, t in runs) - 1


def _figures(slow: list[float]) -> dict:
    return {"mean_pct": round(100 * sum(slow) / len(slow), 2),
            "worst_pct": round(100 * max(slow), 1),
            "within_1pct": round(sum(s <= 0.01 for s in slow) / len(slow), 3)}


def _fit_ks(params: dict, path=TABLE, gpu_name: str = "h200") -> tuple[int, int]:
    """``top_k`` and ``narrow_top_k``: each the fit half's rule (:func:`_least_k`) on the
    problems it serves. ``top_k`` takes the model's first k configs of the problems whose
    operands do not both load narrow; ``narrow_top_k`` the first k groups of stage twins
    (:func:`~swizzlekit.kernels.triton.choose.timed`) of those that do. A rule with no
    problems gives 1."""
    ranked = _ranked(params, _split("fit", path), "fit", gpu_name).values()

    def least(problems: list, picks, ks) -> int:
        def within(k: int) -> float:
            slow = [_regret(runs, picks(runs, k)) for runs in problems]
            return sum(s <= 0.01 for s in slow) / len(slow)

        return _least_k(within, ks) if problems else 1

    wide = least([runs for runs, both in ranked if not both],
                 lambda runs, k: list(range(min(k, len(runs)))), TOP_KS)
    narrow = least([runs for runs, both in ranked if both],
                   lambda runs, k: choose.timed([c for c, _ in runs], True, k=k), range(1, 13))
    return wide, narrow


def judge(params: dict | None = None, split: str = "heldout", path=None,
          gpu_name: str = "h200") -> dict:
    """Per k of :data:`TOP_KS`: how much slower the fastest of the model's k best configs runs
    than the fastest config measured, over the split's problems (mean and worst, %), and the
    share of problems within 1%. ``default``: the same for the configs the default autotune times
    (:func:`~swizzlekit.kernels.triton.choose.timed`), with how many it times on average;
    ``both_narrow``: that, over the problems whose operands both load narrow (absent if
    none). ``configs``: how many the full autotune timed, on average. ``path``: the table
    (default: the split's on the card, :func:`splits`)."""
    params = params or choose.fitted(gpu_name)
    problems = _split(split, path or splits(gpu_name)[split])
    ranked = _ranked(params, problems, split, gpu_name)
    out = {}
    for k in TOP_KS:
        out[f"top{k}"] = _figures([_regret(runs, list(range(min(k, len(runs)))))
                                   for runs, _ in ranked.values()])
    if "top_k" in params:                 # fitted (fit() judges before it sets top_k)
        picks = {key: _default_picks(params, runs, both) for key, (runs, both) in ranked.items()}

        def default(keys: list) -> dict:
            return {**_figures([_regret(ranked[key][0], picks[key]) for key in keys]),
                    "timed": round(sum(len(picks[key]) for key in keys) / len(keys), 1)}

        out["default"] = default(list(ranked))
        narrow = [key for key, (_, both) in ranked.items() if both]
        if narrow:
            out["both_narrow"] = {**default(narrow), "problems": len(narrow)}
    out["problems"] = len(problems)
    out["configs"] = round(sum(len(v) for v in problems.values()) / len(problems), 1)
    out["log_error"] = round(_log_error(_rows(problems, split, gpu_name), params), 3)
    return out


def _default_picks(params: dict, runs: list[tuple], both: bool) -> list[int]:
    """The configs the default autotune times, as ``configs.Prune`` picks them: ``top_k`` plus
    the flattened twins, or ``narrow_top_k`` groups of stage twins."""
    labels = [c for c, _ in runs]
    if both:
        return choose.timed(labels, True, k=params["narrow_top_k"])
    return choose.timed(labels, False, k=params["top_k"] + sum(c.endswith("/flat") for c in labels))


def main(argv: list[str] | None = None) -> int:
    """``python -m swizzlekit.lab.tile_fit [--gpu NAME] [--fit]``: the held-out and fresh
    figures of that card's fitted model; ``--fit`` fits it again on the fit half and writes
    its ``data/tiles_model*.json``."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m swizzlekit.lab.tile_fit")
    ap.add_argument("--gpu", default="h200", choices=list(TABLES), help="the card's table")
    ap.add_argument("--fit", action="store_true", help="fit on the fit half and write the JSON")
    args = ap.parse_args(argv)
    params = fit(gpu_name=args.gpu) if args.fit else choose.fitted(args.gpu)
    if args.fit:
        params["judged"] = {s: judge(params, s, p, args.gpu) for s, p in splits(args.gpu).items()}
        choose.FITTED_PATHS[args.gpu].write_text(json.dumps(params, indent=1, sort_keys=True)
                                                 + "\n")
        choose.fitted.cache_clear()
    show = lambda f: (f"{f['mean_pct']:.2f}% mean, {f['worst_pct']:.1f}% worst, "  # noqa: E731
                      f"{100 * f['within_1pct']:.0f}% within 1%")
    for split, path in splits(args.gpu).items():
        j = judge(params, split, path, args.gpu)
        narrow = j.get("both_narrow")
        print(f"{split:8s} {j['problems']:3d} problems ({j['configs']} configs each), "
              f"log error {j['log_error']:.3f}; top-1: {show(j['top1'])}; "
              f"default ({j['default']['timed']} timed): {show(j['default'])}"
              + (f"; {narrow['problems']} both narrow ({narrow['timed']} timed): {show(narrow)}"
                 if narrow else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
