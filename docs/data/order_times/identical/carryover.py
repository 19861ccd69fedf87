"""Which run each replicate of ``probe.py`` followed, and what that did to its time: the
probe's turns were rotated by one (``swizzlekit.lab.harness.rotated``, as every table before
2026-11-27), so each run followed the same run in all turns but one. No GPU; run from the
repository root: python3 docs/data/order_times/identical/carryover.py h100_first/identical30.json
"""
import collections
import json
import statistics
import sys

from swizzlekit.lab.harness import rotated

data = json.load(open(sys.argv[1]))
for problem in data["problems"]:
    for times in problem["passes"]:
        names = list(times)
        replicates = len(times[names[0]])
        behind, prev = collections.defaultdict(list), "(start)"
        for turn in range(replicates):
            for name in rotated(names, turn):
                behind[(name, prev)].append(times[name][turn])
                prev = name
        print("x".join(map(str, problem["shape"])), problem["config"], f"{replicates} replicates")
        for name in names:
            parts = [f"behind {p}: {statistics.median(v):.4f} ms (n={len(v)})"
                     for (n, p), v in behind.items() if n == name]
            print(f"  {name:40s} " + "; ".join(parts))
