"""The H100's measured DRAM bytes against the L2 model and a time-ordered LRU simulation.

``sim.py`` plays every tile read of a launch in time order: each CTA takes the first free
slot of ``132 x ctas_per_sm``, runs a duration of ``1 + cv z`` (``z`` a seeded normal) and
reads its A and B tiles at even steps through it, then writes its C tile. Each of the two L2
partitions (an SM's side as measured, ``gpus.gpu("h100-sxm").l2_side_of_sm``) is an LRU of
25 MiB in 8-way sets hashed by tile, and a read its own partition misses is served across
the fabric where the other holds the tile, else from DRAM. Nothing is fitted. It is a study,
not a model: it takes seconds a launch where the L2 model takes milliseconds.

    PYTHONHASHSEED=0 python3 docs/data/order_times/time_sim/compare.py   (output: compare.txt)

for the shapes below (one fit-half and one held-out shape at 3-4 CTAs per SM, one fresh),
every non-random order, ncu's DRAM bytes (``src/swizzlekit/data/l2_*_h100.csv``), the L2
model's (``swizzlekit.cta.l2.simulate``, waves of 132 CTAs in lockstep), and the
simulation's at two spreads of CTA durations (0.05: the dispatch probe's after the first
wave; 0.15: about the spread of the second batch's starts in its traces).
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from sim import simulate_time  # noqa: E402

from swizzlekit.cta.l2 import simulate  # noqa: E402
from swizzlekit.data import FOLDER  # noqa: E402
from swizzlekit.gpus import GPUS  # noqa: E402
from swizzlekit.lab.experiments.l2_sweep import (ELEM_BYTES, OUT_BYTES, row_bytes,  # noqa: E402
                                                 sweep_order)
from swizzlekit.lab.records import L2SweepRow, read_csv  # noqa: E402

SHAPES = {(8192, 8192, 8192): "fit", (4096, 4096, 4096): "heldout",
          (4096, 14336, 4096): "fresh"}
CONFIGS = ("64x64x64", "64x128x64", "128x128x32")
G = GPUS["h100-sxm"]
SIDES = np.array([int(x) for x in G.l2_side_of_sm])[list(G.dispatch_order)]

rows = [r for f in ("l2_sweep_h100.csv", "l2_fresh_h100.csv")
        for r in read_csv(FOLDER / f, L2SweepRow)]
ratios = {"model": [], "sim 0.05": [], "sim 0.15": []}
for r in rows:
    if r.shape not in SHAPES or r.order == "random" or r.config not in CONFIGS:
        continue
    bm, bn, _ = r.tile
    o = sweep_order(r.order, -(-r.M // bm), -(-r.N // bn), r.params_dict)
    eb, ob = ELEM_BYTES[r.dtype], OUT_BYTES[r.dtype]
    model = simulate(r.M, r.N, r.K, o, tile=r.tile, elem_bytes=eb, out_bytes=ob,
                     ctas_per_sm=r.ctas_per_sm, row_bytes=row_bytes(r.N, r.K, r.dtype),
                     gpu="h100-sxm").dram_read_bytes
    sims = [simulate_time(r.M, r.N, r.K, o, r.tile, eb, ob, r.ctas_per_sm, G.l2_bytes, cv=cv,
                          partitions=2, sides=SIDES, ways=8) for cv in (0.05, 0.15)]
    for key, v in zip(ratios, (model, *sims)):
        ratios[key].append(v / r.dram_read_bytes)
    print(f"{SHAPES[r.shape]:7s} {r.M}x{r.N}x{r.K} {r.config:10s} c{r.ctas_per_sm} "
          f"{r.order:8s} {r.params:26s} MiB: ncu {r.dram_read_bytes / 2**20:6.0f}  model "
          f"{model / 2**20:6.0f}  sim {sims[0] / 2**20:6.0f} / {sims[1] / 2**20:6.0f}",
          flush=True)
for key, v in ratios.items():
    v = np.array(v)
    print(f"{key:9s} over ncu: median {np.median(v):.2f}, mean |log| {np.mean(np.abs(np.log(v))):.3f}, "
          f"p10-p90 {np.quantile(v, 0.1):.2f}-{np.quantile(v, 0.9):.2f}")
