"""The L2 model at short K and high residency: 16384x16384x512 in 64x64 tiles, four CTAs an
SM, on the H200's fit half, where ncu's DRAM bytes rank the orders the other way round from
the model's: the row and snake orders read near the operands' own size, the grouped orders
four times that. Beside the model as shipped: one partition of the whole L2, and a fully
associative LRU (``ways=0``). Then the fit half's scores (hit-rate mean / 3 + DRAM median /
15, :func:`swizzlekit.compare.chosen`'s) with the L2's capacity scaled to 0.65-1.0 of the
preset's, under 8, 16 and no ways: whether a smaller effective L2 explains it.

    python3 docs/data/l2_checks/short_k.py     (output: short_k.txt, about 2 minutes)
"""
from swizzlekit import compare as c
from swizzlekit import compare_time as ct
from swizzlekit.cta.l2 import simulate
from swizzlekit.data import path
from swizzlekit.gpus import gpu
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, OUT_BYTES, row_bytes, sweep_order
from swizzlekit.lab.records import L2SweepRow, read_csv


def predicted(r, card, **overrides):
    bm, bn, _ = r.tile
    o = sweep_order(r.order, -(-r.M // bm), -(-r.N // bn), r.params_dict)
    return simulate(r.M, r.N, r.K, o, tile=r.tile, elem_bytes=ELEM_BYTES[r.dtype],
                    out_bytes=OUT_BYTES[r.dtype], ctas_per_sm=r.ctas_per_sm,
                    row_bytes=row_bytes(r.N, r.K, r.dtype), gpu=ct.CARDS[card], **overrides)


if __name__ == "__main__":
    measured = {r.key(): r for r in read_csv(path("l2_sweep_h200.csv"), L2SweepRow)}
    print("16384x16384x512, 64x64x64 fp16, 4 CTAs an SM, H200: DRAM read MB")
    print(f"{'order':36s} {'ncu':>6s} {'model':>6s} {'1 part':>7s} {'no ways':>8s}")
    for r, p in ct.runs("h200", "fit"):
        if r.shape == (16384, 16384, 512) and r.config.startswith("64x64"):
            name = r.order + ("" if r.params == "{}" else " " + r.params)
            one = predicted(r, "h200", partitions=1).dram_read_bytes
            full = predicted(r, "h200", ways=0).dram_read_bytes
            print(f"{name:36s} {measured[r.key()].dram_read_bytes / 1e6:6.0f} "
                  f"{p.dram_read_bytes / 1e6:6.0f} {one / 1e6:7.0f} {full / 1e6:8.0f}")
    print("\nthe H200's fit half under a scaled L2 capacity")
    size = gpu("h200").l2_bytes
    for ways in (8, 16, 0):
        for share in (1.0, 0.85, 0.75, 0.65):
            e = c.errors(c.compare_sweep("fit", gpu="h200", ways=ways, l2_bytes=int(size * share)))
            score = sum(e[k] / g for k, g in c.GOALS.items())
            print(f"ways {ways:2d} capacity {share:.2f}: hit mean {e['hit_mean']:.2f} worst "
                  f"{e['hit_worst']:.1f} DRAM median {e['dram_median_pct']:.1f}%  score {score:.3f}")
