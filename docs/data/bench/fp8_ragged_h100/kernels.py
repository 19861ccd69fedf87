"""The GPU kernels of one fp8 call on a ragged shape, by torch.profiler: each kernel's device
time per call, against the call's wall time per call (20 calls, after 5 warm-up calls).

    python3 docs/data/bench/fp8_ragged_h100/kernels.py OUT.txt
"""
import sys, time
import torch
from torch.profiler import ProfilerActivity, profile
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.verify import scaled_operands

lines = [torch.cuda.get_device_name()]
for m, n, k in [(777, 4095, 1234), (5003, 2999, 1000)]:
    a, b, sa, sb, _ = scaled_operands(m, n, k, "cuda")
    for _ in range(5):
        scaled_matmul(a, b, sa, sb)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        t0 = time.perf_counter()
        for _ in range(20):
            scaled_matmul(a, b, sa, sb)
        torch.cuda.synchronize()
        wall = (time.perf_counter() - t0) / 20
    per = {}
    for e in prof.key_averages():
        dev = getattr(e, "device_time_total", 0) or getattr(e, "cuda_time_total", 0)
        if dev and e.count >= 20 and not e.key.startswith(("cuda", "aten::")):
            per[e.key] = dev / 20
    lines.append(f"{m}x{n}x{k}: wall {wall * 1e6:.1f} us per call; kernels: " +
                 "; ".join(f"{key[:40]} {us:.1f} us" for key, us in per.items()))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
