"""The host side of a repeat fp8 call on a ragged shape (777x4095x1234): wall time per call
back to back, and cProfile of 200 calls.

    python3 docs/data/bench/fp8_ragged_h100/host_profile.py > host_profile.txt
"""
import cProfile, pstats, io, sys, time
import torch
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.verify import scaled_operands
a, b, sa, sb, _ = scaled_operands(777, 4095, 1234, "cuda")
for _ in range(10): scaled_matmul(a, b, sa, sb)
torch.cuda.synchronize()
t=time.perf_counter()
for _ in range(200): scaled_matmul(a, b, sa, sb)
torch.cuda.synchronize(); print("host+gpu per call us", (time.perf_counter()-t)/200*1e6)
pr=cProfile.Profile(); pr.enable()
for _ in range(200): scaled_matmul(a, b, sa, sb)
pr.disable(); torch.cuda.synchronize()
s=io.StringIO(); pstats.Stats(pr,stream=s).sort_stats("tottime").print_stats(25); print(s.getvalue()[:6000])
s=io.StringIO(); pstats.Stats(pr,stream=s).sort_stats("cumtime").print_stats(25); print(s.getvalue()[:5000])
