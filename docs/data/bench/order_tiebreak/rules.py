"""Pick rules on the library's GEMM: over the H100 passes of ``probe.py`` (row, column,
grouped(8), grouped(16) timed in interleaved replicates), how often each rule's order runs
within 2% (and 5%) of the shape's fastest: the predicted fastest (``argmin``), always
grouped(16), grouped(16) unless another order is predicted faster by more than a band
(4.8%, the H100's noise band; 1%), and the predicted fastest with ties to grouped(16)
(``band0``). The time model on the ``h100-sxm`` preset for the config ``order="auto"``
sizes each call for, as ``model_check.py``. No GPU needed:

    cd docs/data/bench/order_tiebreak && python3 rules.py > rules.txt
"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from swizzlekit.cta.l2 import simulate
from swizzlekit.cta.orders import order
from swizzlekit.kernels.triton import choose
from swizzlekit.kernels.triton.matmul_configs import _order_pick
from swizzlekit.kernels.triton.scaled_configs import _order_pick as _scaled_pick
from probe import ORDERS
GPU="h100-sxm"
def run(path, precision):
    elem = 1 if precision == "fp8" else 2
    res={"argmin":[], "g16":[], "band4.8":[], "band1":[], "band0":[]}
    for line in open(path):
        r=json.loads(line); M,N,K=r["shape"]
        pick = (_scaled_pick(M, N, K, 2, True, False, GPU) if precision == "fp8" else _order_pick(2, M, N, K, "ieee", True, False, False, GPU))
        bm, bn, bk, stages, warps, _ = choose._parse(pick.config)
        ctas = choose._residency(bm, bn, bk, stages, warps, elem, 2, GPU)
        tm, tn = -(-M // bm), -(-N // bn)
        t={n: simulate(M, N, K, order(o, tm, tn, **p), tile=(bm, bn, bk), elem_bytes=elem, out_bytes=2, gpu=GPU, ctas_per_sm=ctas).time_s for n,(o,p) in ORDERS.items()}
        ms=r["ms"]; best=min(ms.values())
        reg=lambda n: ms[n]/best-1
        names=list(ORDERS); d=[n for n in names if "16" in n][0]
        am=min(names,key=lambda n:t[n])
        res["argmin"].append(reg(am)); res["g16"].append(reg(d))
        for b in (4.8,1,0):
            res[f"band{b}" if b!=0 else "band0"].append(reg(d) if t[d]<=min(t.values())*(1+b/100) else reg(am))
    return res
tot={}
for folder,prec,fn in (("h100","bf16","matmul_orders.jsonl"),("h100_second","bf16","matmul_orders.jsonl"),("h100_third","bf16","matmul_orders.jsonl"),("h100","fp8","scaled_orders.jsonl"),("h100_second","fp8","scaled_orders.jsonl")):
    res=run(Path(folder)/fn,prec)
    print(folder,prec,{k:f"{np.mean(np.array(v)<=0.02):.2f}/{np.mean(np.array(v)<=0.05):.2f}" for k,v in res.items()}, "names", list(ORDERS))
    for k,v in res.items(): tot.setdefault(k,[]).extend(v)
print("all",{k:f"{np.sum(np.array(v)<=0.02)}/{len(v)}" for k,v in tot.items()})
