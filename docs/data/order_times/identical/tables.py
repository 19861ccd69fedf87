"""Identical launch orders in the committed order tables: how far apart the tables measured
runs whose order tables hold the same tiles in the same order (the row order and grouped(8)
along N where the grid has at most 8 tile columns, the column order and grouped(g) where it
has at most g tile rows, grouped(8) along N and strip(8) everywhere). No GPU; run from the
repository root: python3 docs/data/order_times/identical/tables.py > tables.txt
"""
import collections
import statistics

import numpy as np

from swizzlekit.compare_time import CARDS, PARTS, _problems, runs, twin_sets

for card in CARDS:
    spreads, worst = [], []
    for part in PARTS:
        for group in _problems(runs(card, part)):
            r0 = group[0][0]
            fastest = min(r.ms for r, _ in group)
            for same in twin_sets(group):
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
    for part in PARTS:
        problems = _problems(runs(card, part))
        hit = 0
        for group in problems:
            best = min((r for r, _ in group), key=lambda r: r.ms)
            twins = next(same for same in twin_sets(group) if best in same)
            hit += max(r.ms for r in twins) > best.ms * 1.02
        print(f"{card} {part}: {hit} of {len(problems)} problems' fastest run has an identical "
              f"twin more than 2% slower")

# Carry-over in the tables: their turns were rotated by one over the runs in the sweep's
# order (row, col, grouped(4), ...), so grouped(4) ran behind the column order in 4 of its 5
# replicates, and behind the row order in turn 2, where it ran first. Where the column order
# is heavy (more than 15% slower than the fastest run), how did that one replicate compare?
print()
import csv  # noqa: E402
import json  # noqa: E402

from swizzlekit.data import path  # noqa: E402
from swizzlekit.lab.experiments.l2_sweep import ORDER_SET, PERSISTENT_SET  # noqa: E402

assert ORDER_SET[:3] == [("row", {}), ("col", {}), ("grouped", {"group": 4})]
runs_per_problem = len(ORDER_SET) + len(PERSISTENT_SET)
for card in CARDS:
    for table in (f"order_times_{card}.csv", f"order_times_fresh_{card}.csv"):
        problems = collections.defaultdict(list)
        with open(path(table)) as f:
            for r in csv.DictReader(f):
                problems[(r["M"], r["N"], r["K"], r["config"], r["dtype"])].append(r)
        heavy, light = [], []
        for group in problems.values():
            assert len(group) == runs_per_problem and group[1]["order"] == "col"
            assert group[2]["order"] == "grouped" and json.loads(group[2]["params"]) == {"group": 4}
            fastest = min(float(r["ms"]) for r in group)
            reps = [float(x) for x in group[2]["replicates"].split(";")]
            ratio = reps[2] / statistics.median(reps[:2] + reps[3:])
            (heavy if float(group[1]["ms"]) > 1.15 * fastest else light).append(ratio)
        print(f"{table}: grouped(4)'s replicate behind the row order over its replicates behind "
              f"the column order: {statistics.median(heavy):.3f} where the column order is "
              f"heavy ({len(heavy)} problems), {statistics.median(light):.3f} elsewhere "
              f"({len(light)})")
