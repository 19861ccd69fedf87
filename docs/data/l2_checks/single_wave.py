"""Where the model errs most: runs whose whole grid is one resident wave.

    python3 docs/data/l2_checks/single_wave.py

From the committed sweep (``src/swizzlekit/data/l2_sweep_h200.csv``, both halves) and the
model's prediction for each run (``swizzlekit.compare.compare_sweep``), for every run whose
tiles fit in one wave (tiles <= 132 x CTAs per SM), not persistent, it prints:

* ``looked up``: the share of the demand sectors (every CTA's A and B tiles, 32-byte sectors)
  that reached an L2 lookup (``lts__t_sectors_srcunit_tex_op_read``); the rest merged before;
* ``near hit``: the lookup hit rate of those reads;
* ``misses/compulsory``: near lookup misses over the compulsory sectors (A and B once);
* ``dram/compulsory``: DRAM read sectors over the compulsory ones;
* the measured and the modelled hit rate (ncu's ``lts__t_sector_hit_rate``).
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "src"))

from swizzlekit.compare import compare_sweep  # noqa: E402
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES  # noqa: E402

model = {(r["shape"], r["config"], r["dtype"], r["order"], str(r["params"]), r["persistent"]):
         r["model_hit"] for r in compare_sweep()}
print(f"{'shape':>16} {'tile':>11} {'type':>4} {'order':>30} {'looked up':>9} {'near hit':>8} "
      f"{'misses/comp':>11} {'dram/comp':>9} {'measured':>8} {'model':>6}")
for r in csv.DictReader(open(ROOT / "src/swizzlekit/data/l2_sweep_h200.csv")):
    M, N, K = int(r["M"]), int(r["N"]), int(r["K"])
    bm, bn, _ = map(int, r["config"].split("x"))
    tiles = -(-M // bm) * -(-N // bn)
    if r["persistent"] == "True" or tiles > 132 * int(r["ctas_per_sm"]):
        continue
    e = ELEM_BYTES[r["dtype"]]
    demand = tiles * (bm + bn) * K * e / 32
    compulsory = (M * K + K * N) * e / 32
    looked, hits = float(r["tex_read_sectors"]), float(r["tex_read_hit_sectors"])
    params = json.loads(r["params"])
    key = (f"{M}x{N}x{K}", r["config"], r["dtype"], r["order"], str(params), False)
    label = r["order"] + ("" if not params else str(params).replace(" ", ""))
    print(f"{f'{M}x{N}x{K}':>16} {r['config']:>11} {r['dtype']:>4} {label:>30} "
          f"{looked / demand:9.2f} {hits / looked:8.2f} {(looked - hits) / compulsory:11.2f} "
          f"{int(r['dram_read_bytes']) / 32 / compulsory:9.2f} {float(r['l2_hit_rate_pct']):8.1f} "
          f"{model.get(key, float('nan')):6.1f}")
