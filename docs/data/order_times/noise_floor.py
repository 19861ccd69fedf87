"""The noise floor of the pick goal: one H100 pass's fastest order (per problem, over
non-random, non-persistent orders) picked against the other pass's medians, both ways:

    python3 docs/data/order_times/noise_floor.py     (output: noise_floor.txt)
"""
import collections

import numpy as np
from swizzlekit.lab.records import OrderTimeRow, read_csv
from swizzlekit.data import path
a=read_csv(path("order_times_h100.csv"),OrderTimeRow)
b={r.key():r for r in read_csv("docs/data/order_times/h100_second_pass/order_times.csv",OrderTimeRow)}
probs=collections.defaultdict(list)
for r in a:
    if r.order=="random" or r.persistent: continue
    probs[(r.shape,r.config,r.dtype)].append(r)
reg=[];regb=[]
for k,g in probs.items():
    m1=np.array([r.ms for r in g]); m2=np.array([b[r.key()].ms for r in g])
    reg.append(m1[m2.argmin()]/m1.min()-1); regb.append(m2[m1.argmin()]/m2.min()-1)
    # also the min-of-both estimate
reg=np.array(reg+regb)
print(len(reg), "within2", np.mean(reg<=0.02), "within5", np.mean(reg<=0.05), "worst", reg.max())
