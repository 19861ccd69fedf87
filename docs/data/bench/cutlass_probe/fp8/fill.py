"""How full a grid of 128xBN tiles in clusters of two along M keeps 132 SMs, against the tile
cuBLAS's nvjet kernel ran (variants_h100b/cublas_kernels.txt): M*N over the area the waves'
CTAs cover. A count, not a measurement: it says which widths are worth timing.

    python3 fill.py > fill.txt
"""
import math
import os
import re

SMS = 132
WIDTHS = (128, 160, 192, 224, 256)


def fill(M, N, bm, bn, cm, cn):
    tm = math.ceil(math.ceil(M / bm) / cm) * cm
    tn = math.ceil(math.ceil(N / bn) / cn) * cn
    per_wave = SMS // (cm * cn) * (cm * cn)
    waves = math.ceil(tm * tn / per_wave)
    return M * N / (waves * per_wave * bm * bn), waves


here = os.path.dirname(os.path.abspath(__file__))
for line in open(os.path.join(here, "variants_h100b", "cublas_kernels.txt")):
    found = re.search(r"_(\d+)x(\d+)_128x\d+_(\d)x(\d)_", line)
    if "|" not in line or not found:
        continue
    shape = line.split("|")[0].strip()
    M, N, _ = map(int, shape.split("x"))
    ours = {bn: fill(M, N, 128, bn, 2, 1) for bn in WIDTHS}
    best = max(WIDTHS, key=lambda bn: ours[bn][0])
    theirs = fill(M, N, *map(int, found.groups()))
    print(f"{shape:16s} " + " ".join(f"{bn}:{f:.2f}/{w}w" for bn, (f, w) in ours.items())
          + f" | best {best} | nvjet {'x'.join(found.groups()[:2])}: {theirs[0]:.2f}/{theirs[1]}w")
