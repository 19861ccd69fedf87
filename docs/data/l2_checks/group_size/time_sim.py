"""The time-ordered LRU study (docs/data/order_times/time_sim/sim.py: two 8-way partitions of
25 MiB, the H100's measured SM sides, CTA durations 1 + cv z) on the probe's problems, against
ncu's DRAM bytes in h100/probe.json. No GPU; from the repository root:

    PYTHONHASHSEED=0 python3 docs/data/l2_checks/group_size/time_sim.py 8192x28672x8192
"""
import sys, json, time, numpy as np
sys.path.insert(0,'docs/data/order_times/time_sim')
from sim import simulate_time
from swizzlekit.gpus import GPUS
from swizzlekit.lab.experiments.l2_sweep import sweep_order
G = GPUS["h100-sxm"]
SIDES = np.array([int(x) for x in G.l2_side_of_sm])[list(G.dispatch_order)]
shape=tuple(map(int,sys.argv[1].split('x')))
M,N,K=shape
PROBE = 'docs/data/l2_checks/group_size/h100/probe.json'
meas = {(r['order'], r['params']): r['dram_read'] for r in json.load(open(PROBE))['rows']
        if (r['M'], r['N'], r['K']) == shape}
for (name,params),d in meas.items():
    if name=='row': continue
    o=sweep_order(name, M//128, N//128, json.loads(params))
    t=time.time()
    out=[]
    for cv in (0.05,0.15):
        dr=simulate_time(M,N,K,o,(128,128,64),2,2,2,G.l2_bytes,cv=cv,partitions=2,sides=SIDES,ways=8)
        out.append(f"{dr/1e9:.2f}")
    print(name, params, "meas", f"{d/1e9:.2f}", "sim cv.05/.15", out, f"{time.time()-t:.0f}s", flush=True)
