"""Where a repeat call's host time goes on the copies route, against the same call as given
(``tma=False``) and an aligned one: cProfile of 2000 back-to-back calls each (functions by own
time), then the copier and the GEMM launch timed apart with the GPU kept busy.

    python3 docs/data/bench/host_copies/host_profile.py        (on a GPU)
"""
import torch

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import copies
from swizzlekit.kernels.triton.routes import fingerprint
from swizzlekit.lab import harness

busy = harness.queued_work(40)


def host_us(fn):
    return harness.host_us(fn, calls=300, rounds=5, behind=busy)


def tensors(n):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    return a, b, torch.empty(n, n, device="cuda", dtype=torch.bfloat16)


a, b, c = tensors(1001)
a2, b2, c2 = tensors(1024)
calls = {"copies 1001": lambda: matmul(a, b, out=c),
         "as given 1001": lambda: matmul(a, b, out=c, tma=False),
         "aligned 1024": lambda: matmul(a2, b2, out=c2),
         "cublas 1001": lambda: torch.matmul(a, b, out=c),
         "torch copy_ of A into a pitched buffer": lambda: torch.empty(
             1001, 1024, device="cuda", dtype=torch.bfloat16)[:, :1001].copy_(a),
         "torch.empty x2": lambda: (torch.empty(1001, 1024, device="cuda", dtype=torch.bfloat16),
                                    torch.empty(1001, 1024, device="cuda", dtype=torch.bfloat16))}
for fn in calls.values():
    for _ in range(5):
        fn()
torch.cuda.synchronize()
print(torch.cuda.get_device_name(), flush=True)
for name, fn in calls.items():
    print(f"{name}: {host_us(fn):.1f} us host a call", flush=True)
print_ = fingerprint((a, b, c), ("auto", "tf32", False, None, None))
assert copies.copiers().get(print_) is not None
print(f"copier alone: {host_us(lambda: copies._tma_copies(a, b, print_)):.1f} us host a call")
print(f"fingerprint alone: {host_us(lambda: fingerprint((a, b, c), ('auto', 'tf32', False, None, None))):.1f} us")
for name in ("copies 1001", "as given 1001"):
    print(f"--- {name}: cProfile, 2000 calls, by own time")
    print(harness.host_profile(calls[name], calls=2000, behind=busy, top=22))
