"""The L2 model at short K and high residency: 16384x16384x512 in 64x64 tiles, four CTAs an
SM, on the H200's fit half, where ncu's DRAM bytes rank the orders the other way round from
the model's: the row and snake orders read near the operands' own size, the grouped orders
four times that. Beside the model as shipped: one partition of the whole L2, and a fully
associative LRU (``ways=0``). Then the fit half's scores (hit-rate mean / 3 + DRAM median /
15, :func:`swizzlekit.compare.chosen`'s) with the L2's capacity scaled to 0.65-1.0 of the
preset's, under 8, 16 and no ways: whether a smaller effective L2 explains it.

    python3 docs/data/l2_checks/short_k.py     (output: short_k.txt, about 2 minutes)
"""
import json

from swizzlekit import compare as c
from swizzlekit.gpus import gpu
from swizzlekit.lab.records import L2SweepRow, read_csv

if __name__ == "__main__":
    rows = [r for r in read_csv(c.SWEEP_TABLE, L2SweepRow) if r.split == "fit"
            and r.shape == (16384, 16384, 512) and r.config.startswith("64x64")
            and r.order != "random" and not r.persistent]
    runs = zip(c.predict(rows, {"gpu": "h200"}),
               c.predict(rows, {"gpu": "h200", "partitions": 1}),
               c.predict(rows, {"gpu": "h200", "ways": 0}))
    print("16384x16384x512, 64x64x64 fp16, 4 CTAs an SM, H200: DRAM read MB")
    print(f"{'order':36s} {'ncu':>6s} {'model':>6s} {'1 part':>7s} {'no ways':>8s}")
    for base, one, full in runs:
        name = base["order"] + (f" {json.dumps(base['params'])}" if base["params"] else "")
        print(f"{name:36s} {base['measured_dram'] / 1e6:6.0f} {base['model_dram'] / 1e6:6.0f} "
              f"{one['model_dram'] / 1e6:7.0f} {full['model_dram'] / 1e6:8.0f}")
    print("\nthe H200's fit half under a scaled L2 capacity")
    size = gpu("h200").l2_bytes
    for ways in (8, 16, 0):
        for share in (1.0, 0.85, 0.75, 0.65):
            e = c.errors(c.compare_sweep("fit", gpu="h200", ways=ways, l2_bytes=int(size * share)))
            score = sum(e[k] / g for k, g in c.GOALS.items())
            print(f"ways {ways:2d} capacity {share:.2f}: hit mean {e['hit_mean']:.2f} worst "
                  f"{e['hit_worst']:.1f} DRAM median {e['dram_median_pct']:.1f}%  score {score:.3f}")
