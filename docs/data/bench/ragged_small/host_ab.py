"""Host time of a repeat call on copies for TMA three ways, interleaved: by device addresses
(the default: ``matmul._follow_copies``, one buffer), by tensors through the copier that
skips the copies' checks (``copies.copiers``), and without the copier; 1001³ and 700³ bf16,
each route's best of 5 rounds of 200 calls issued back to back behind ~60 ms of queued GPU
work (so no call waits on the GPU), beside cuBLAS and the rows read as given (``tma=False``).
``SPLIT``: the calls' ``split_k`` (default None).

    python3 docs/data/bench/ragged_small/host_ab.py [SPLIT]       (on a GPU)
"""
import sys

import torch

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import copies
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.plans import PlanCache
from swizzlekit.lab import harness

split = int(sys.argv[1]) if len(sys.argv) > 1 else None
busy = harness.queued_work(30)


def host_us(fn):
    for _ in range(20):
        fn()
    return harness.host_us(fn, calls=200, rounds=5, behind=busy)


def by_tensors(fn):
    def run():
        saved, mm._express = mm._express, lambda route, print_: None
        try:
            fn()
        finally:
            mm._express = saved
    return run


def without_copier(fn):
    def run():
        saved, copies._COPIERS = copies._COPIERS, PlanCache(0)     # keeps nothing
        try:
            fn()
        finally:
            copies._COPIERS = saved
    return run


for n in (1001, 700):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    ref = a.double() @ b.double()
    runs = {"cublas": lambda: torch.matmul(a, b, out=c),
            "copies, by address": lambda: matmul(a, b, out=c, split_k=split),
            "copies, by tensors": by_tensors(lambda: matmul(a, b, out=c, split_k=split)),
            "copies, no copier": without_copier(lambda: matmul(a, b, out=c, split_k=split)),
            "as given": lambda: matmul(a, b, out=c, tma=False, split_k=split)}
    for name, fn in runs.items():
        c.fill_(float("nan"))
        fn()
        err = ((c.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (name, err)
    times = {k: [] for k in runs}
    for turn in range(3):
        names = list(runs)[turn:] + list(runs)[:turn]
        for k in names:
            times[k].append(host_us(runs[k]))
    print(f"{n}^3 bf16, split_k={split}, {torch.cuda.get_device_name()}: " + "  ".join(
        f"{k} {min(v):.1f}" for k, v in times.items()) + " us host a call", flush=True)
