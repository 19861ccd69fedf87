"""Identical launch orders in the committed order tables: how far apart the tables measured
runs whose order tables hold the same tiles in the same order (the row order and grouped(8)
along N where the grid has at most 8 tile columns, the column order and grouped(g) where it
has at most g tile rows, grouped(8) along N and strip(8) everywhere). No GPU; run from the
repository root: python3 docs/data/order_times/identical/tables.py > tables.txt
"""
import collections

import numpy as np

from swizzlekit.compare_time import CARDS, _problems, runs
from swizzlekit.lab.experiments.l2_sweep import sweep_order

for card in CARDS:
    spreads, worst = [], []
    for part in ("fit", "heldout", "fresh"):
        for group in _problems(runs(card, part)):
            r0 = group[0][0]
            bm, bn, _ = r0.tile
            tm, tn = -(-r0.M // bm), -(-r0.N // bn)
            classes = collections.defaultdict(list)
            for r, _ in group:
                classes[sweep_order(r.order, tm, tn, r.params_dict).tobytes()].append(r)
            fastest = min(r.ms for r, _ in group)
            for same in classes.values():
                if len(same) > 1:
                    ms = [r.ms for r in same]
                    spreads.append(max(ms) / min(ms) - 1)
                    worst.append((spreads[-1], part, r0.shape, r0.config, r0.ctas_per_sm,
                                  [(r.order, r.params_dict, round(r.ms / fastest, 3))
                                   for r in same]))
    s = np.array(spreads) * 100
    print(f"{card}: {len(s)} sets of identical orders; spread of their medians "
          f"(slowest over fastest): median {np.median(s):.1f}%, 90th percentile "
          f"{np.percentile(s, 90):.1f}%, worst {s.max():.1f}%; above 2%: {(s > 2).sum()}, "
          f"above 4%: {(s > 4).sum()}")
    for w in sorted(worst, key=lambda w: -w[0])[:6]:
        print(f"  {w[0] * 100:4.1f}%  {w[1]:7s} {'x'.join(map(str, w[2]))} {w[3]} "
              f"{w[4]}/SM: " + ", ".join(f"{o}{p or ''} {t}" for o, p, t in w[5]))

# What this costs the pick goal: problems whose measured fastest run has an identical twin
# measured more than 2% slower, where picking by the order alone (any model) cannot be sure
# to land within 2% of the fastest median.
print()
for card in CARDS:
    for part in ("fit", "heldout", "fresh"):
        problems = _problems(runs(card, part))
        hit = 0
        for group in problems:
            r0 = group[0][0]
            bm, bn, _ = r0.tile
            tm, tn = -(-r0.M // bm), -(-r0.N // bn)
            best = min((r for r, _ in group), key=lambda r: r.ms)
            key = sweep_order(best.order, tm, tn, best.params_dict).tobytes()
            twins = [r.ms for r, _ in group
                     if sweep_order(r.order, tm, tn, r.params_dict).tobytes() == key]
            hit += max(twins) > best.ms * 1.02
        print(f"{card} {part}: {hit} of {len(problems)} problems' fastest run has an identical "
              f"twin more than 2% slower")
