"""A drift term in the mirror pass. Within a wave, the second and later readers of
an A or B panel hit only with the share a reuse at distance gap * tk * (a + b) * LAMBDA has in
the mirror cache (gap: launches since the panel's previous reader in that wave). From 0.02 it
raises the DRAM error on every sweep table; at 0.3-0.5, where it parts grouped(16) from
grouped(8) on the probe, it doubles the row order's bytes at 8192^3. No GPU; from the repository root:

    python3 docs/data/l2_checks/group_size/drift.py 0 0.02 0.05 0.1 0.2
        (each table: DRAM median |error| / mean |log ratio|, %)
    python3 docs/data/l2_checks/group_size/drift.py --probe 0 0.3 0.5 1.0
        (h100/probe.json's DRAM bytes, GB, ncu's first)
"""
import sys, time, numpy as np
import swizzlekit.cta.l2 as l2
from swizzlekit.cta.reuse import hit_share
from swizzlekit import compare as c
orig = l2._mirror_dram
LAM = [0.0]
def extra(ids, wave_of, tk, bytes_, unit, capacity, ways):
    pos = np.arange(len(ids))
    o = np.lexsort((pos, ids, wave_of))
    same = np.zeros(len(o), bool)
    same[1:] = (ids[o][1:] == ids[o][:-1]) & (wave_of[o][1:] == wave_of[o][:-1])
    gap = np.zeros(len(o)); gap[1:] = pos[o][1:] - pos[o][:-1]
    d = gap[same] * unit
    miss = tk * (1 - hit_share(d, capacity, ways)) * bytes_
    out = np.zeros(int(wave_of.max()) + 1)
    np.add.at(out, wave_of[o][same], miss)
    return out
def patched(order, wave_of, n_waves, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span):
    base = orig(order, wave_of, n_waves, tk, a_bytes, b_bytes, c_bytes, capacity, ways, span)
    lam = LAM[0]
    if lam <= 0:
        return base
    unit = tk * (a_bytes + b_bytes) * lam
    e = extra(order[:, 0], wave_of, tk, a_bytes, unit, capacity, ways) + \
        extra(order[:, 1], wave_of, tk, b_bytes, unit, capacity, ways)
    out = base.copy(); out[:len(e)] += e[:n_waves]
    return out
l2._mirror_dram = patched
from swizzlekit.compare import CARD_TABLES

def probe(lams):
    import json

    from swizzlekit.cta.l2 import simulate
    from swizzlekit.lab.experiments.l2_sweep import sweep_order

    rows = json.load(open("docs/data/l2_checks/group_size/h100/probe.json"))["rows"]
    print("ncu ", " ".join(f"{r['dram_read'] / 1e9:.1f}" for r in rows))
    for lam in lams:
        LAM[0] = lam
        out = []
        for r in rows:
            o = sweep_order(r["order"], r["M"] // 128, r["N"] // 128, json.loads(r["params"]))
            p = simulate(r["M"], r["N"], r["K"], o, tile=(128, 128, 64), elem_bytes=2,
                         ctas_per_sm=2, gpu="h100-sxm")
            out.append(f"{p.dram_read_bytes / 1e9:.1f}")
        print(lam, " ".join(out))


if __name__ == "__main__" and sys.argv[1:2] == ["--probe"]:
    probe([float(x) for x in sys.argv[2:]])
elif __name__ == "__main__":
    for lam in [float(x) for x in sys.argv[1:]]:
        LAM[0] = lam
        t = time.time(); res = []
        for gpu in ("h200", "h100-sxm"):
            for split, path in (("fit", CARD_TABLES[gpu][0]), ("heldout", CARD_TABLES[gpu][0]), (None, CARD_TABLES[gpu][1])):
                rows = c.compare_sweep(split, path=path, gpu=gpu)
                dram = np.array([r["model_dram"] / r["measured_dram"] for r in rows])
                res.append(f"{gpu[:4]}-{(split or 'fresh')[:3]} {np.median(np.abs(dram-1))*100:.1f}/{np.mean(np.abs(np.log(dram)))*100:.1f}")
        print(lam, " | ".join(res), f"{time.time()-t:.0f}s", flush=True)
