"""Host time of repeat calls: the ragged 777x4095x1234 bf16 call (aligned copies of A and B,
the GEMM, C's copy back) beside an aligned 1024x4096x4096 call and cuBLAS: microseconds a
call over 2000 calls launched back to back (the launch queue fills, so the host waits on
the GPU where that is slower) and over 50 (the host's own time), then
cProfile over 500 calls of the ragged one, the top functions by own time.

    python3 host_profile.py > host_profile.txt      (on a GPU; a file named profile.py
    would hide the standard library's)
"""
import cProfile
import io
import pstats
import time

import torch

from swizzlekit.kernels import matmul


def host_us(fn, n=2000):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6, (time.perf_counter() - t0) / n * 1e6


torch.manual_seed(0)
ragged = [torch.randn(777, 1234, device="cuda", dtype=torch.bfloat16),
          torch.randn(1234, 4095, device="cuda", dtype=torch.bfloat16)]
aligned = [torch.randn(1024, 4096, device="cuda", dtype=torch.bfloat16),
           torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)]
for name, (a, b) in (("ragged 777x4095x1234", ragged), ("aligned 1024x4096x4096", aligned)):
    ref = a.double() @ b.double()
    out = matmul(a, b)
    err = ((out.double() - ref).norm() / ref.norm()).item()
    for label, fn in (("ours", lambda: matmul(a, b)), ("cublas", lambda: torch.matmul(a, b))):
        for n in (2000, 50):        # 50 calls stay inside the launch queue: the host alone
            host, total = host_us(fn, n)
            print(f"{name} {label}, {n} calls: host {host:.1f} us a call, host and GPU "
                  f"{total:.1f} us (error {err:.2e})", flush=True)
a, b = ragged
prof = cProfile.Profile()
prof.enable()
for _ in range(500):
    matmul(a, b)
prof.disable()
torch.cuda.synchronize()
s = io.StringIO()
pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(30)
print(s.getvalue())
print(torch.cuda.get_device_name(), torch.__version__)
