"""Host time of one repeat call, per route, at 1001^3 bf16: the mean wall time of 200 calls
issued back to back with the GPU kept busy (a long matmul queued first, so no call waits on
the GPU), and cProfile's top entries of the copies route.

    python3 docs/data/bench/ragged_small/host_time.py        (on a GPU)
"""
import cProfile
import pstats
import time

import torch

from swizzlekit.kernels import matmul

a = torch.randn(1001, 1001, device="cuda", dtype=torch.bfloat16)
b = torch.randn(1001, 1001, device="cuda", dtype=torch.bfloat16)
c = torch.empty(1001, 1001, device="cuda", dtype=torch.bfloat16)
big = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
runs = {"cublas": lambda: torch.matmul(a, b, out=c),
        "copies (default)": lambda: matmul(a, b, out=c),
        "as given (tma=False)": lambda: matmul(a, b, out=c, tma=False)}
for name, fn in runs.items():
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(3):
        for _ in range(30):
            big @ big                        # ~60 ms of GPU work ahead of the calls
        t = time.perf_counter()
        for _ in range(200):
            fn()
        best = min(best, (time.perf_counter() - t) / 200)
        torch.cuda.synchronize()
    print(f"{name}: {best * 1e6:.1f} us host per call", flush=True)
for _ in range(30):
    big @ big
prof = cProfile.Profile()
prof.enable()
for _ in range(200):
    runs["copies (default)"]()
prof.disable()
torch.cuda.synchronize()
pstats.Stats(prof).sort_stats("tottime").print_stats(14)
