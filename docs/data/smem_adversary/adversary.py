"""Adversary: simulated annealing over bijections onto the tile's storage, on random small
problems; report any case where it beats solve() (fewer wavefronts in no more storage)."""
import sys, time, json, numpy as np
from swizzlekit.smem import solve
from swizzlekit.smem.access import parse_access
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.errors import SwizzleKitError
rng = np.random.default_rng(int(sys.argv[1]))
ACC = ["row","col","block:2x4","block:4x2","block:4x4","block:8x4","block:4x8","block:2x8","block:8x2","block:2x2:stride=2x1","block:4x2:stride=1x2","block:8x8","block:16x2","block:2x16"]
out=[]
t_end=time.time()+float(sys.argv[2])
while time.time()<t_end:
    rows=int(rng.choice([4,6,8,10,12,16,20,24,32,48,64])); cols=int(rng.choice([2,3,4,5,6,8,10,12,16,24,32,64]))
    if rows*cols>1024: continue
    eb=int(rng.choice([1,2,4,8,16]))
    acc=list(rng.choice(ACC, size=int(rng.integers(1,4)), replace=False))
    try:
        specs=[parse_access(a) for a in acc]
        pl=[p for s in specs for p in s.placements(rows,cols,eb)]
        sol=solve(rows,cols,eb,acc)
    except SwizzleKitError: continue
    if sol.optimal: continue
    idx=placement_index(pl,cols)
    n=rows*cols
    keep=max(s.vec for s in specs)
    perm=sol.layout.offsets().reshape(-1).copy() if sol.storage==n else np.arange(n)
    def cost(p): return int(set_costs(p,idx,eb)[0].sum())
    cur=cost(perm); best=cur; T=2.0
    for it in range(6000):
        if keep>1:
            # swap whole vectors
            nv=n//keep
            if cols%keep: break
            i,j=rng.choice(nv,2,replace=False)
            q=perm.copy(); a=slice(i*keep,(i+1)*keep); b=slice(j*keep,(j+1)*keep)
            q[a],q[b]=perm[b].copy(),perm[a].copy()
        else:
            i,j=rng.choice(n,2,replace=False); q=perm.copy(); q[i],q[j]=perm[j],perm[i]
        c=cost(q)
        if c<=cur or rng.random()<np.exp((cur-c)/T):
            perm,cur=q,c
            if c<best: best=c
        T=max(0.05,T*0.999)
    if (best, n) < (sol.wavefronts, sol.storage):
        rec=dict(rows=rows,cols=cols,eb=eb,acc=acc,solver=sol.wavefronts,storage=sol.storage,adv=best,bound=sol.lower_bound,family=sol.family)
        print(json.dumps(rec),flush=True); out.append(rec)
print("done",len(out))
