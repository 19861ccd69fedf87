"""The L2 model's error on the random order, by residency, beside the other orders.

    python3 docs/data/l2_checks/random_by_residency.py

Reads the committed tables only (the sweep's fit and held-out halves and the fresh set) and
fits nothing. Prints, per group (random or not; one CTA per SM or more): the runs, the mean
absolute and signed hit-rate error, the median of model/measured DRAM bytes, and how often the
hit-rate error and the DRAM error point in opposite directions (too many hits with too few
bytes read, or the reverse: one mechanism moving both), then every random run.
"""

import numpy as np

from swizzlekit.compare import FRESH_TABLE, compare_sweep


def main() -> None:
    rows = [dict(r, set=s) for s in ("fit", "heldout") for r in compare_sweep(s)]
    rows += [dict(r, set="fresh") for r in compare_sweep("fresh", FRESH_TABLE)]
    groups = {}
    for r in rows:
        key = ("random" if r["order"] == "random" else "other orders",
               "1 CTA per SM" if r["ctas_per_sm"] == 1 else "2-4 CTAs per SM")
        groups.setdefault(key, []).append(r)
    print(f"{'group':40s} {'runs':>5s} {'|hit err|':>10s} {'signed':>7s} {'DRAM model/meas':>16s} "
          f"{'opposite':>9s}")
    for key in sorted(groups):
        g = groups[key]
        hit = np.array([r["model_hit"] - r["measured_hit"] for r in g])
        dram = np.array([r["model_dram"] / r["measured_dram"] for r in g])
        big = np.abs(hit) > 3
        opposite = np.mean(np.sign(hit[big]) != np.sign(dram[big] - 1)) if big.any() else float("nan")
        print(f"{' / '.join(key):40s} {len(g):5d} {np.abs(hit).mean():10.2f} {hit.mean():+7.2f} "
              f"{np.median(dram):16.2f} {opposite:9.2f}")
    print("\n(opposite: the share of runs off by more than 3 points whose DRAM error has the other sign)\n")
    for r in sorted((r for r in rows if r["order"] == "random"),
                    key=lambda r: (r["ctas_per_sm"] > 1, r["model_hit"] - r["measured_hit"])):
        print(f"{r['set']:8s} {r['shape']:>17s} {r['config']:>11s} {r['dtype']:>5s} "
              f"r{r['ctas_per_sm']}  hit measured {r['measured_hit']:5.1f} model {r['model_hit']:5.1f}"
              f"  DRAM model/measured {r['model_dram'] / r['measured_dram']:.2f}")


if __name__ == "__main__":
    main()
