"""Tie-breaks for equal predictions, tried on the fit half (CPU): which k the fit rule gives, and
the held-out, fresh and narrow figures at that k (mean %, worst %, share within 1%).
Run: PYTHONPATH=src python3 docs/data/bench/config_model/ties.py"""
import re
from swizzlekit.lab import tile_fit
from swizzlekit.kernels.triton import choose
from swizzlekit.kernels.triton.choose import seconds, terms
params = choose.fitted()
def parse(cfg):
    m = re.match(r"(\d+)x(\d+)x(\d+)/s(\d+)/w(\d+)", cfg); return tuple(map(int, m.groups()))
KEYS = {
 "list order": lambda cfg, tm, eff: 0,
 "fewer warps": lambda cfg, tm, eff: parse(cfg)[4],
 "more warps": lambda cfg, tm, eff: -parse(cfg)[4],
 "more stages": lambda cfg, tm, eff: -parse(cfg)[3],
 "fewer stages": lambda cfg, tm, eff: parse(cfg)[3],
 "larger tile": lambda cfg, tm, eff: -parse(cfg)[0]*parse(cfg)[1],
 "higher efficiency": lambda cfg, tm, eff: -eff,
 "flat first": lambda cfg, tm, eff: 0 if cfg.endswith('/flat') else 1,
}
def judge(split, path, key):
    probs = {k: v for k, v in tile_fit._problems(path).items() if k[0] == split}
    res = {}
    for k, rows in probs.items():
        runs = []
        for i, (cfg, t, na, nb, M, N, K) in enumerate(rows):
            tm = terms(M, N, K, k[6], cfg, narrow_a=na, narrow_b=nb)
            eff = tile_fit._efficiency(params, k, cfg)
            runs.append((seconds(tm, eff, params), key(cfg, tm, eff), i, cfg, t))
        runs.sort(key=lambda r: (r[0], r[1], r[2]))
        best = min(r[4] for r in runs)
        for kk in range(1, 9):
            res.setdefault(kk, []).append(min(r[4] for r in runs[:kk]) / best - 1)
    return {kk: (round(100*sum(v)/len(v),2), round(100*max(v),1), round(sum(x<=0.01 for x in v)/len(v),3)) for kk, v in res.items()}
for name, key in KEYS.items():
    fit = judge("fit", choose.TABLE, key)
    k = next((kk for kk in range(1, 9) if fit[kk][2] >= 0.95), 8)
    held = judge("heldout", choose.TABLE, key); fresh = judge("fresh", choose.TABLE, key); nar = judge("narrow", tile_fit.NARROW_TABLE, key)
    print(f"{name:18s} fit-rule k={k}  fit {fit[k]}  held {held[k]}  fresh {fresh[k]}  narrow {nar[k]}")
