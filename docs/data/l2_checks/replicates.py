"""How far one Nsight Compute measurement of the L2 sweep is from another of the same run: the
noise floor any model of it is judged through.

    python3 docs/data/l2_checks/replicates.py

Four measurements of the same 208 runs (shard 0/3 of ``swizzlekit lab l2-sweep``: 8 shapes,
four of each half): the committed table ``src/swizzlekit/data/l2_sweep_h200.csv`` and the
three sweeps of ``docs/data/cluster/l2_sweep_g/`` (one H200 lease, 2026-11-22). For each half
it prints:

* the model's error against each measurement (``swizzlekit.compare.errors``);
* a *replicate oracle*: each measurement predicted by the mean of the other three. No model
  of the run can be expected to beat it, since it knows the run's own other measurements;
* how often the order measured fastest in one sweep runs within 1% of the fastest order of
  another sweep of the same problem (the issue's third goal, applied to the measurements
  themselves).
"""

from __future__ import annotations

import itertools
import statistics
from pathlib import Path

import numpy as np

from swizzlekit.compare import SWEEP_TABLE, compare_sweep, errors

HERE = Path(__file__).resolve().parents[1] / "cluster" / "l2_sweep_g"
TABLES = [SWEEP_TABLE] + [HERE / name / "l2_sweep.csv" for name in ("1gpu", "2gpu_a", "2gpu_b")]


def _key(r: dict) -> tuple:
    return (r["shape"], r["config"], r["dtype"], r["order"], str(r["params"]), r["persistent"])


def main() -> None:
    reps = [{_key(r): r for r in compare_sweep(path=p)} for p in TABLES]
    common = [k for k in reps[1] if all(k in rep for rep in reps)]
    print(f"{len(common)} runs measured {len(reps)} times")
    for split in ("fit", "heldout"):
        keys = [k for k in common if reps[0][k]["split"] == split]
        for name, rep in zip(("committed", "1gpu", "2gpu_a", "2gpu_b"), reps):
            e = errors([rep[k] for k in keys])
            print(f"{split:8s} model vs {name:9s}: hit mean {e['hit_mean']:.2f} worst "
                  f"{e['hit_worst']:.1f} bias {e['hit_bias']:+.2f}, DRAM median "
                  f"{e['dram_median_pct']:.1f}%, least-DRAM pick within 1% "
                  f"{e['pick_within_1pct']:.3f} of {e['problems']}")
        hit, dram = [], []
        for i, rep in enumerate(reps):
            for k in keys:
                others = [reps[j][k] for j in range(len(reps)) if j != i]
                hit.append(statistics.mean(o["measured_hit"] for o in others)
                           - rep[k]["measured_hit"])
                dram.append(statistics.mean(o["measured_dram"] for o in others)
                            / rep[k]["measured_dram"] - 1)
        hit = np.abs(hit)
        print(f"{split:8s} replicate oracle: hit mean {hit.mean():.2f} p90 "
              f"{np.quantile(hit, 0.9):.2f} worst {hit.max():.1f}, DRAM median "
              f"{100 * np.median(np.abs(dram)):.2f}%")
        problems: dict = {}
        for k in keys:
            problems.setdefault(k[:3], []).append(k)
        same = [reps[j][min(ks, key=lambda k: reps[i][k]["ms"])]["ms"]
                <= 1.01 * min(reps[j][k]["ms"] for k in ks)
                for i, j in itertools.permutations(range(len(reps)), 2)
                for ks in problems.values()]
        print(f"{split:8s} fastest order of one sweep within 1% of another's fastest: "
              f"{np.mean(same):.3f} ({len(same)} pairs of sweep and problem)")


if __name__ == "__main__":
    main()
