"""Would the time model fitted to another objective err less at its worst? ``compare_time.fit``
chooses the overlap ``p`` (of ``P_GRID``) and each element size's efficiency (every other
point of ``EFFICIENCY_GRID``, the DRAM share held at 1) by the least mean error of order times
relative to the problem's fastest on the fit half. Here the same grid search minimizes the
mean (the fit as shipped, on a coarser grid), the 90th percentile, the mean plus a tenth of
the worst, or the root mean square; each is judged on the held-out half and the fresh set
(``compare_time.judge``: errors of relative times, median and worst, points of %; the pick
within 2% of the fastest; the "does not matter" claims true).

    python3 docs/data/order_times/fit_objective.py      (output: fit_objective.txt; no GPU)
"""
import collections

import numpy as np

from swizzlekit import compare_time as ct
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES

OBJECTIVES = {"mean": np.mean, "p90": lambda e: np.quantile(e, 0.9),
              "mean + worst / 10": lambda e: e.mean() + e.max() / 10,
              "rms": lambda e: np.sqrt((e ** 2).mean())}


def errors(card, groups, parameters):
    out = []
    for g in groups:
        m, t = np.array([r.ms for r, _ in g]), ct._times(card, g, parameters)
        out += list(np.abs(t / t.min() - m / m.min()))
    return np.array(out)


def fitted(card, objective):
    by_size = collections.defaultdict(list)
    for g in ct._problems(ct.runs(card, "fit")):
        by_size[ELEM_BYTES[g[0][0].dtype]].append(g)
    best = None
    for p in ct.P_GRID:
        eff, errs = {}, []
        for size, groups in sorted(by_size.items()):
            loss = {e: errors(card, groups, {"p": p, "share": 1.0, "efficiency": {size: e, 4: e}})
                    for e in ct.EFFICIENCY_GRID[::2]}
            eff[size] = min(loss, key=lambda e: objective(loss[e]))
            errs.append(loss[eff[size]])
        total = objective(np.concatenate(errs))
        if best is None or total < best[0]:
            best = (total, p, eff)
    return {"p": best[1], "share": 1.0, "efficiency": {s: float(e) for s, e in best[2].items()}}


if __name__ == "__main__":
    keys = ("rel_err_median_pct", "rel_err_worst_pct", "pick_within_2pct", "claims_true")
    for card in ct.CARDS:
        for name, objective in OBJECTIVES.items():
            par = fitted(card, objective)
            got = {part: {k: ct.judge(card, part, par)[k] for k in keys}
                   for part in ("heldout", "fresh")}
            print(f"{ct.CARDS[card]:9s} {name:18s} p {par['p']}, efficiency "
                  f"{ {s: round(e, 3) for s, e in par['efficiency'].items()} }: {got}",
                  flush=True)
    for card in ct.CARDS:
        got = {part: {k: ct.judge(card, part)[k] for k in keys} for part in ("heldout", "fresh")}
        print(f"{ct.CARDS[card]:9s} as shipped (TIME_FITTED): {got}")
