"""The clock probes' figures (README, "The clock"): per run, the median time and the spread
of its replicates (interquartile range over the median) in milliseconds and scaled to the
problem's median clock, and the correlation of the times with 1/clock. No GPU; run here:
python3 clock_spread.py h100_first/clocks_after.json h100_first/clocks.json > clock_spread.txt
"""
import collections
import json
import sys

import numpy as np


def spread(x):
    return (np.percentile(x, 75) - np.percentile(x, 25)) / np.median(x)


def report(runs, clock_keys):
    ref = {k: np.median([r[k] for rows in runs.values() for r in rows]) for k in clock_keys}
    for name, rows in runs.items():
        ms = np.array([r["ms"] for r in rows])
        parts = [f"ms {np.median(ms):.4f} spread {spread(ms):.3f}"]
        for k in clock_keys:
            c = np.array([r[k] for r in rows], dtype=float)
            scaled = ms * c / ref[k]
            parts.append(f"{k}: {c.min():.0f}-{c.max():.0f} MHz, scaled {np.median(scaled):.4f} "
                         f"spread {spread(scaled):.3f}, corr(ms, 1/clock) "
                         f"{np.corrcoef(ms, 1 / c)[0, 1]:.2f}")
        print(f"  {name:40s} " + " | ".join(parts))


for path in sys.argv[1:]:
    data = json.load(open(path))
    print(path, data["gpu"])
    problems = data.get("problems") or [data]
    for p in problems:
        runs = collections.defaultdict(list)
        for r in p["rows"]:
            runs[r["run"]].append(r)
        keys = [k for k in ("sm_mhz", "sm_mhz_mean", "sm_mhz_after") if k in p["rows"][0]]
        print(" ", "x".join(map(str, p["shape"])), p["config"], "power (W):",
              f"{min(r['power_mw'] for r in p['rows']) / 1e3:.0f}-"
              f"{max(r['power_mw'] for r in p['rows']) / 1e3:.0f}")
        report(runs, keys)
