"""Host time of repeat calls at small M (64 x 1001 x 1001 and its aligned neighbour 64 x 1024
x 1024, bf16): the default split (``split_k=None``: S = 1 or 2, timed on the first call)
against ``split_k=1``, as given (``tma=False``) and on copies for TMA (``COPY_MIN_MNK`` set to
1 here), beside cuBLAS; each a best of 5 rounds of 300 calls issued behind queued GPU work,
and the split each signature kept; then cProfile of one (the slowest, or the one named).

    python3 docs/data/bench/host_copies/host_small.py ["copies, split 1"]       (on a GPU)
"""
import sys

import torch

import swizzlekit.kernels.triton.copies as copies
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab import harness

copies.COPY_MIN_MNK = 1
busy = harness.queued_work(40)


def host_us(fn):
    return harness.host_us(fn, calls=300, rounds=5, behind=busy)


def operands(m, n, k):
    return (torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
            torch.randn(k, n, device="cuda", dtype=torch.bfloat16),
            torch.empty(m, n, device="cuda", dtype=torch.bfloat16))


a, b, c = operands(64, 1001, 1001)
a2, b2, c2 = operands(64, 1024, 1024)
calls = {"cublas 1001": lambda: torch.matmul(a, b, out=c),
         "as given, split None": lambda: matmul(a, b, out=c, tma=False),
         "as given, split 1": lambda: matmul(a, b, out=c, tma=False, split_k=1),
         "copies, split None": lambda: matmul(a, b, out=c),
         "copies, split 1": lambda: matmul(a, b, out=c, split_k=1),
         "aligned 1024, split None": lambda: matmul(a2, b2, out=c2),
         "aligned 1024, split 1": lambda: matmul(a2, b2, out=c2, split_k=1)}
for fn in calls.values():
    for _ in range(3):
        fn()
torch.cuda.synchronize()
print(torch.cuda.get_device_name(), flush=True)
times = {name: host_us(fn) for name, fn in calls.items()}
for name, us in times.items():
    print(f"{name}: {us:.1f} us host a call", flush=True)
print("splits kept:", sorted({r.split for r in mm.ROUTES._plans.values()}),
      [(r.copies, r.tma, r.split) for r in mm.ROUTES._plans.values()])
slowest = (sys.argv[1] if len(sys.argv) > 1
           else max((n for n in times if not n.startswith("cublas")), key=times.get))
print(f"--- {slowest}: cProfile, 1000 calls, by own time")
print(harness.host_profile(calls[slowest], calls=1000, behind=busy, top=18))
