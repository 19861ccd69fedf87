"""Host time per call (harness.host_us, 200 calls back to back behind queued work, least of 5
rounds) and do_bench time of scaled_matmul and matmul as kept, CUTLASS through its door, and
cuBLAS: python3 host.py f256x14336x4096 b2048x5000x4096 (f: fp8, b: bf16)."""
import sys

import torch
import triton

from swizzlekit.kernels.triton.scaled import scaled_matmul, scaled_describe
from swizzlekit.kernels.triton.matmul import matmul, describe
from swizzlekit.kernels.triton.clustered import cutlass_scaled_matmul, cutlass_matmul
from swizzlekit.lab.verify import scaled_operands, random_operands
from swizzlekit.lab.harness import host_us, queued_work
q = queued_work()
for s in sys.argv[1:]:
    M, N, K = map(int, s[1:].split("x"))
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    if s[0] == "f":
        a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
        runs = {"call": lambda: scaled_matmul(a, b, sa, sb, out=c),
                "call_noout": lambda: scaled_matmul(a, b, sa, sb),
                "cutlass": lambda: cutlass_scaled_matmul(a, b, sa, sb, out=c),
                "cublas": lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                                   use_fast_accum=True, out=c)}
        runs["call"]()
        runs["call_noout"]()
        print(s, scaled_describe(a, b, sa, sb, out=c)["config"])
    else:
        a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
        runs = {"call": lambda: matmul(a, b, out=c), "call_noout": lambda: matmul(a, b),
                "cutlass": lambda: cutlass_matmul(a, b, out=c),
                "cublas": lambda: torch.matmul(a, b, out=c)}
        runs["call"]()
        runs["call_noout"]()
        print(s, describe(a, b, out=c)["config"])
    for n, f in runs.items():
        f()
        ms = sorted(triton.testing.do_bench(f, warmup=25, rep=100) for _ in range(3))[1]
        host = host_us(f, calls=200, rounds=5, behind=q)
        print(f" {n}: do_bench {ms*1e3:.1f} us, host {host:.1f} us", flush=True)
