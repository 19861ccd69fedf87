"""Where TF32's K-major copy of B pays, per card, from this folder's measurements:
``python3 fit.py [FOLDER PRESET]`` (no GPU). Per M, the median over shapes of (copy, then the plain kernel)
over (the swapped kernel on B as given), from rule.jsonl (``matmul(a, kmajor_copy(b).T)``
against the swapped call) and calls.jsonl (both through the default call's routes). The
break-even M interpolates linearly between the last M whose median is above 1 and the first
below it, and the payoff is that M over 4 x TF32 peak / DRAM bandwidth (the preset's), which
``matmul_configs.TF32_COPY_PAYOFF`` rounds.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from swizzlekit.gpus import gpu

HERE = Path(__file__).parent
#: ``python3 fit.py FOLDER PRESET``: one folder's files (those of them there) for one preset
CARDS = ((("h100", "h100-sxm"), ("h200", "h200")) if len(sys.argv) < 3
         else ((sys.argv[1], sys.argv[2]),))
for card, preset in CARDS:
    ratios = defaultdict(list)
    for name, copy, swap in (("rule.jsonl", "copy_plain", "swapped"),
                             ("calls.jsonl", "copy", "swapped")):
        if not (HERE / card / name).exists():
            continue
        for line in (HERE / card / name).read_text().splitlines():
            r = json.loads(line)
            ratios[r["shape"][0]].append(r["ms"][copy] / r["ms"][swap])
    med = {m: statistics.median(v) for m, v in sorted(ratios.items())}
    ms = sorted(med)
    even = next(m0 + (med[m0] - 1) / (med[m0] - med[m1]) * (m1 - m0)
                for m0, m1 in zip(ms, ms[1:]) if med[m0] >= 1 > med[m1])
    g = gpu(preset)
    scale = 4 * g.peak_tflops["tf32"] * 1e12 / (g.dram_gbps * 1e9)
    print(f"{card}: " + ", ".join(f"M={m}: {v:.3f} ({len(ratios[m])})" for m, v in med.items()))
    print(f"  break-even M = {even:.0f}; 4 peak / bandwidth = {scale:.0f}; payoff "
          f"{even / scale:.2f}")
