"""The GEMMs' order="auto" rule on the table kernel's L2 sweep (CPU, on the committed tables):
for every shape and tile config (one CTA per tile), the least-DRAM grouped order by the L2
model, kept at grouped(8) unless it saves more than the held-out DRAM error, against the
measured grouped(8) time. The sweep has four of the rule's six candidates: grouped 4, 8 and 16
along M, and 8 along N. Prints each problem where the time differs by more than 2%, and the
geomean time ratio per split. Output: auto_pick_table.txt."""
import math
from collections import defaultdict

from swizzlekit.compare import compare_sweep
from swizzlekit.cta.l2 import HELDOUT
from swizzlekit.data import FOLDER

rows = compare_sweep(None) + compare_sweep(None, path=FOLDER / "l2_fresh_h200.csv")
groups = defaultdict(list)
for r in rows:
    if not r["persistent"]:
        groups[(r["split"], r["shape"], r["config"], r["dtype"])].append(r)

ratios = defaultdict(list)
for key, runs in sorted(groups.items()):
    g8 = next(r for r in runs if r["order"] == "grouped" and r["params"] == {"group": 8})
    pick = min((r for r in runs if r["order"] == "grouped"),
               key=lambda r: (r["model_dram"], -r["model_hit"]))
    if pick["model_dram"] >= g8["model_dram"] * (1 - HELDOUT["dram_median_pct"] / 100):
        pick = g8
    ratio = pick["ms"] / g8["ms"]
    ratios[key[0]].append(ratio)
    if abs(ratio - 1) > 0.02:
        print(*key, pick["params"], f"time {ratio:.3f}x grouped(8)")
for split, rs in ratios.items():
    gm = math.exp(sum(map(math.log, rs)) / len(rs))
    print(f"{split}: {len(rs)} problems, geomean {gm:.4f}x grouped(8), "
          f"{min(rs):.3f}-{max(rs):.3f}")
