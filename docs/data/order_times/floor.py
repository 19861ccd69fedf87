"""How far a card's three Williams passes (DIR/pass_a, pass_b, pass_c) agree: the floor under
any pick, from the timings alone. No GPU; run from the repository root:

    python3 docs/data/order_times/floor.py DIR > DIR/floor.txt

For each pass and each half (fit, heldout, fresh), the fastest median order of the pool of
the two other passes is looked up in this pass: how often it runs within 2% and 5% of this
pass's fastest, and its worst regret (what a perfect predictor of the other passes' timings
would score here). Then each pass's own identical launch orders (compare_time.twin_sets):
how many sets lie more than 2% apart.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from pool import PASSES, passes, pooled  # noqa: E402

from swizzlekit.lab.experiments.l2_sweep import sweep_order  # noqa: E402


def problems(rows):
    out = {}
    for r in rows:
        if r.order != "random" and not r.persistent:
            out.setdefault((r.split, r.M, r.N, r.K, r.config, r.dtype), []).append(r)
    return out


if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
    raise SystemExit(f"usage: floor.py DIR (DIR holds {', '.join(PASSES)})")
FOLDER = Path(sys.argv[1])
for name in ("sweep", "fresh"):
    tables = passes(FOLDER, name)
    for i, mine in enumerate(tables):
        others = pooled([t for j, t in enumerate(tables) if j != i])
        here, there = problems(mine), problems(others)
        for split in sorted({k[0] for k in here}):
            regrets = []
            for key in (k for k in here if k[0] == split):
                ms = {r.key(): r.ms for r in here[key]}
                pick = min(there[key], key=lambda r: r.ms).key()
                regrets.append(ms[pick] / min(ms.values()) - 1)
            g = np.array(regrets)
            print(f"{PASSES[i]} {split:7s}: the other two passes' fastest runs within 2% of this "
                  f"pass's fastest on {np.mean(g <= 0.02):.0%} of {len(g)}, within 5% on "
                  f"{np.mean(g <= 0.05):.0%}, worst {g.max() * 100:.1f}%")
print()
for name in ("sweep", "fresh"):
    for i, mine in enumerate(passes(FOLDER, name)):
        spreads = []
        for rows in problems(mine).values():
            bm, bn, _ = rows[0].tile
            tm, tn = -(-rows[0].M // bm), -(-rows[0].N // bn)
            sets = {}
            for r in rows:
                sets.setdefault(sweep_order(r.order, tm, tn, r.params_dict).tobytes(),
                                []).append(r.ms)
            spreads += [max(v) / min(v) - 1 for v in sets.values() if len(v) > 1]
        s = np.array(spreads) * 100
        print(f"{PASSES[i]} {name}: {len(s)} sets of identical orders, {(s > 2).sum()} more than "
              f"2% apart, worst {s.max():.1f}%")
