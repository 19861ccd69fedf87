"""Linear time models of the order on the H200's *measured* ncu counters (DRAM bytes,
L2 sectors read by the SMs, fabric and L2 sectors): per problem, time minus its mean
regressed on the counters minus theirs (least squares on the fit half, a bandwidth per
counter), the pick judged on the held-out half against order_times_h200.csv:

    python3 docs/data/order_times/counters_linear.py     (output: counters_linear.txt)

"bw TB/s" is one over each fitted weight (neg: the fit gave the counter a negative weight).
"""
import collections

import numpy as np

from swizzlekit.lab.records import read_csv, L2SweepRow, OrderTimeRow
from swizzlekit.data import path
rows = read_csv(path("l2_sweep_h200.csv"), L2SweepRow)
times = {r.key(): r.ms*1e-3 for r in read_csv(path("order_times_h200.csv"), OrderTimeRow)}
P=collections.defaultdict(list)
for r in rows:
    if r.order=="random" or r.persistent: continue
    P[(r.split,r.shape,r.config,r.dtype)].append(r)
FEATS={"dram":lambda r:r.dram_read_bytes+r.dram_write_bytes,"tex":lambda r:r.tex_read_sectors*32,
       "fab":lambda r:r.fabric_sectors*32,"lts":lambda r:r.lts_sectors*32,"texmiss":lambda r:(r.tex_read_sectors-r.tex_read_hit_sectors)*32}
def data(split,names):
    X=[];Y=[];G=[]
    for k,g in P.items():
        if k[0]!=split: continue
        t=np.array([times[r.key()] for r in g]); tb=t.mean()
        F=np.array([[FEATS[n](r) for n in names] for r in g],float)
        X.append((F-F.mean(0))/tb); Y.append((t-tb)/tb); G.append((g,t))
    return np.vstack(X),np.concatenate(Y),G
def ev(G,w,names):
    reg=[]
    for g,t in G:
        F=np.array([[FEATS[n](r) for n in names] for r in g],float)
        p=F@w; reg.append(t[p.argmin()]/t.min()-1)
    reg=np.array(reg); return f"w2 {np.mean(reg<=.02):.2f} w5 {np.mean(reg<=.05):.2f} worst {reg.max()*100:.1f}"
for names in [("dram",),("tex",),("dram","tex"),("dram","tex","fab"),("dram","lts"),("dram","fab"),("dram","tex","fab","lts"),("texmiss",),("dram","texmiss","tex")]:
    X,Y,_=data("fit",names); w=np.linalg.lstsq(X,Y,rcond=None)[0]
    _,_,Gf=data("fit",names); _,_,Gh=data("heldout",names)
    print(names, "bw TB/s", [f"{1/x/1e12:.2f}" if x>0 else f"neg{x:.1e}" for x in w], "fit", ev(Gf,w,names), "| held", ev(Gh,w,names))
