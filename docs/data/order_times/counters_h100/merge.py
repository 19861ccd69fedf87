"""Which L2 requests merge? The L2 sectors the SMs read (ncu's
lts__t_sectors_srcunit_tex_op_read) over the sectors of every CTA's A and B tiles, against a
model in which a CTA's read of a tile merges with a share q0 exp(-(d-1)/tau) when the nearest
CTA launched before it that reads the same tile is d launches back. q0 and tau are chosen on
the fit half (the least median error of each run's ratio relative to its problem's mean),
per kernel class; the error on the held-out half and the fresh set is beside that of no
model (every order alike). Both cards' tables, no persistent grids:

    python3 docs/data/order_times/counters_h100/merge.py     (output: merge.txt)
"""
import collections
import functools
import json

import numpy as np

from swizzlekit.data import FOLDER
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, sweep_order
from swizzlekit.lab.records import L2SweepRow, read_csv

TABLES = {"h100": ("l2_sweep_h100.csv", "l2_fresh_h100.csv"),
          "h200": ("l2_sweep_h200.csv", "l2_fresh_h200.csv")}
CLASSES = {"one CTA an SM": lambda r: r.ctas_per_sm == 1,
           "2-4 CTAs an SM, fp16/fp8": lambda r: r.ctas_per_sm > 1 and r.dtype != "fp32",
           "TF32": lambda r: r.dtype == "fp32"}


@functools.lru_cache(maxsize=None)
def distances(M, N, config, order, params):
    bm, bn, _ = map(int, config.split("x"))
    tm, tn = -(-M // bm), -(-N // bn)
    o = sweep_order(order, tm, tn, json.loads(params))
    last_a, last_b = np.full(tm, -10**9), np.full(tn, -10**9)
    da, db = np.empty(len(o)), np.empty(len(o))
    for j, (m, n) in enumerate(o):
        da[j], db[j] = j - last_a[m], j - last_b[n]
        last_a[m], last_b[n] = j, j
    return da, db, bm / (bm + bn)


def model(r, q0, tau):
    da, db, fa = distances(r.M, r.N, r.config, r.order, r.params)
    return (fa * (1 - (q0 * np.exp(-(da - 1) / tau)).mean())
            + (1 - fa) * (1 - (q0 * np.exp(-(db - 1) / tau)).mean()))


def measured(r):
    bm, bn, _ = r.tile
    tiles = -(-r.M // bm) * -(-r.N // bn)
    return r.tex_read_sectors * 32 / (tiles * (bm + bn) * r.K * ELEM_BYTES[r.dtype])


def error(problems, f):
    e = []
    for g in problems:
        y, p = np.array([measured(r) for r in g]), np.array([f(r) for r in g])
        e += list(np.abs(p / p.mean() - y / y.mean()))
    return f"median {np.median(e) * 100:.1f} worst {np.max(e) * 100:.1f}"


for card, names in TABLES.items():
    rows = [r for n in names for r in read_csv(FOLDER / n, L2SweepRow) if not r.persistent]
    for label, cls in CLASSES.items():
        parts = {}
        for part in ("fit", "heldout", "fresh"):
            groups = collections.defaultdict(list)
            for r in rows:
                if r.split == part and cls(r):
                    groups[(r.shape, r.config)].append(r)
            parts[part] = list(groups.values())
        spread = [measured(r) for g in parts["fit"] for r in g]
        best = min(((q0, tau) for q0 in np.linspace(0, 1, 21)
                    for tau in (0.5, 1, 2, 4, 8, 16, 32, 64, 132, 264, 528)),
                   key=lambda a: float(error(parts["fit"], lambda r: model(r, *a)).split()[1]))
        f = lambda r: model(r, *best)                                      # noqa: E731
        print(f"{card} {label}: sectors / tile sectors {min(spread):.2f}-{max(spread):.2f} "
              f"(fit); q0 {best[0]:.2f} tau {best[1]}")
        for part in ("fit", "heldout", "fresh"):
            print(f"   {part:8s} model: {error(parts[part], f)} | no model: "
                  f"{error(parts[part], lambda r: 1.0)}")
