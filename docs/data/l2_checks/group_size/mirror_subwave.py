"""The mirror pass (swizzlekit.cta.l2._mirror_dram) run over sub-waves of a fraction F of the
model's wave (132 CTAs), the bins summed back into its waves, against ncu's DRAM bytes on
both cards' sweep tables (fit half, held-out half, fresh set): median |error| and mean
|log ratio|, %. MIR=S also sets the mirror's share. No GPU; from the repository root:

    python3 docs/data/l2_checks/group_size/mirror_subwave.py 1.0 0.5
"""
import sys, time, numpy as np
import swizzlekit.cta.l2 as l2
from swizzlekit import compare as c
orig = l2._mirror_dram
F = [1.0]
import os
MIR = float(os.environ.get("MIR", "0"))
def patched(order, wave_of, n_waves, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span):
    f = F[0]
    if f >= 1.0:
        return orig(order, wave_of, n_waves, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span)
    conc = int((wave_of == 0).sum())
    sub = max(1, int(round(conc * f)))
    idx = np.arange(len(order))
    fine = idx // sub
    nf = int(fine.max()) + 1
    d = orig(order, fine, nf, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span)
    # fine wave i starts at CTA i*sub: its coarse wave
    coarse = (np.arange(nf) * sub) // conc
    out = np.zeros(n_waves); np.add.at(out, coarse, d)
    return out
l2._mirror_dram = patched
from swizzlekit.compare import CARD_TABLES
for f in [float(x) for x in sys.argv[1:]]:
    F[0] = f
    t = time.time()
    res = []
    for gpu in ("h200", "h100-sxm"):
        for split, path in (("fit", CARD_TABLES[gpu][0]), ("heldout", CARD_TABLES[gpu][0]), (None, CARD_TABLES[gpu][1])):
            rows = c.compare_sweep(split, path=path, gpu=gpu, **({"mirror": MIR} if MIR else {}))
            dram = np.array([r["model_dram"] / r["measured_dram"] for r in rows])
            res.append(f"{gpu[:4]}-{(split or 'fresh')[:3]} med {np.median(np.abs(dram-1))*100:.1f} logmean {np.mean(np.abs(np.log(dram)))*100:.1f}")
    print(f, " | ".join(res), f"{time.time()-t:.0f}s", flush=True)
