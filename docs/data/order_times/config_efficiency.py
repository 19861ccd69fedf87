"""Would one compute efficiency per tile config (and residency) do better than one per
element size? Each config's efficiency is fitted on the fit half (the least total error of
relative times, ``p`` and ``share`` held at TIME_FITTED's), then both models are judged on
the held-out half and the fresh set of each card: errors of order times relative to the
problem's fastest (points of %: median, 90th percentile, worst), and how often the
predicted fastest order runs within 2% of the measured fastest.

    python3 docs/data/order_times/config_efficiency.py     (output: config_efficiency.txt)
"""
import collections

import numpy as np

from swizzlekit import compare_time as ct
from swizzlekit.cta.timing import TIME_FITTED, kernel_time
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES


def times(card, pairs, parameters_of):
    return np.array([kernel_time(r.M, r.N, r.K, ELEM_BYTES[r.dtype], p.per_wave_dram_read_bytes,
                                 p.dram_write_bytes, ct.CARDS[card],
                                 parameters=parameters_of(r)) for r, p in pairs])


def judge(card, part, parameters_of):
    errs, regrets = [], []
    for g in ct._problems(ct.runs(card, part)):
        m, t = np.array([r.ms for r, _ in g]), times(card, g, parameters_of)
        errs += list(np.abs(t / t.min() - m / m.min()))
        regrets.append(m[np.argmin(t)] / m.min() - 1)
    return (f"median {np.median(errs) * 100:.1f} p90 {np.quantile(errs, 0.9) * 100:.1f} "
            f"worst {max(errs) * 100:.1f}, argmin within 2% {np.mean(np.array(regrets) <= .02):.2f}")


for card in ct.CARDS:
    base = TIME_FITTED[ct.CARDS[card]]
    groups = collections.defaultdict(list)
    for g in ct._problems(ct.runs(card, "fit")):
        r = g[0][0]
        groups[(r.config, r.dtype, r.ctas_per_sm)].append(g)
    eff = {}
    for key, gs in groups.items():
        size = ELEM_BYTES[key[1]]

        def loss(e):
            par = {"p": base["p"], "share": base["share"], "efficiency": {size: e, 4: e}}
            return sum(np.abs((t := times(card, g, lambda r: par)) / t.min()
                              - (m := np.array([r.ms for r, _ in g])) / m.min()).sum()
                       for g in gs)
        eff[key] = min(np.geomspace(0.02, 3, 60), key=loss)

    def per_config(r):
        e = eff.get((r.config, r.dtype, r.ctas_per_sm))
        return None if e is None else {"p": base["p"], "share": base["share"],
                                       "efficiency": {ELEM_BYTES[r.dtype]: e, 4: e}}
    print(f"{card}: efficiency per config {({k: round(float(v), 3) for k, v in eff.items()})}")
    for part in ("heldout", "fresh"):
        print(f"  {part:8s} per element size: {judge(card, part, lambda r: None)}")
        print(f"  {part:8s} per config:       {judge(card, part, per_config)}")
