"""The mirror pass (swizzlekit.cta.l2._mirror_dram) over waves of 132 x residency CTAs (all
the CTAs resident at once) in place of the model's 132, each big wave's bytes spread evenly
over its waves, against ncu's DRAM bytes on both cards' sweep tables: DRAM median |error| /
mean |log ratio|, %. No GPU; from the repository root:

    python3 docs/data/l2_checks/group_size/superwave.py
"""
import numpy as np
import swizzlekit.cta.l2 as l2
from swizzlekit import compare as c
orig = l2._mirror_dram
MULT = [1]
def patched(order, wave_of, n_waves, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span):
    m = MULT[0]
    if m == 1:
        return orig(order, wave_of, n_waves, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span)
    conc = int((wave_of == 0).sum())
    big = np.arange(len(order)) // (conc * m)
    nb = int(big.max()) + 1
    d = orig(order, big, nb, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span)
    # spread each big wave's bytes evenly over its waves
    out = np.zeros(n_waves)
    for b in range(nb):
        ws = np.unique(wave_of[big == b]); out[ws] += d[b] / len(ws)
    return out
l2._mirror_dram = patched
from swizzlekit.compare import CARD_TABLES
orig_settings = l2.settings
def run(label):
    res = []
    for gpu in ("h200", "h100-sxm"):
        for split, path in (("fit", CARD_TABLES[gpu][0]), ("heldout", CARD_TABLES[gpu][0]), (None, CARD_TABLES[gpu][1])):
            rows = c.compare_sweep(split, path=path, gpu=gpu)
            dram = np.array([r["model_dram"] / r["measured_dram"] for r in rows])
            res.append(f"{gpu[:4]}-{(split or 'fresh')[:3]} {np.median(np.abs(dram-1))*100:.1f}/{np.mean(np.abs(np.log(dram)))*100:.1f}")
    print(label, " | ".join(res), flush=True)
run("132")
# residency-wide mirror waves: multiply by ctas_per_sm via a patched simulate wrapper
orig_sim = l2.simulate
def sim2(*a, **k):
    MULT[0] = k.get("ctas_per_sm", 1)
    try:
        return orig_sim(*a, **k)
    finally:
        MULT[0] = 1
c.simulate = sim2
run("132 x residency")
