"""Where an fp8 call on a ragged shape spends its time (H100): the whole call, the same call
on operands already padded to multiples of 16 (the GEMM alone), the padding copy alone, and
torch._scaled_mm on the padded operands. Medians of 5 interleaved do_bench rounds, L2 flushed.

    python3 docs/data/bench/fp8_ragged_h100/probe.py OUT.txt
"""
import sys
import torch
import triton.testing as tt
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.verify import scaled_operands

def pad(t, rows, cols):
    out = torch.zeros((rows, cols), dtype=t.dtype, device=t.device)
    out[:t.shape[0], :t.shape[1]] = t
    return out

lines = [torch.cuda.get_device_name(), f"torch {torch.__version__}"]
for m, n, k in [(777, 4095, 1234), (1999, 4097, 3001), (5003, 2999, 1000), (1024, 4096, 1248)]:
    a, b, sa, sb, _ = scaled_operands(m, n, k, "cuda")        # b K-major: b.T is N x K
    k16, n16 = -(-k // 16) * 16, -(-n // 16) * 16
    ap, bpt = pad(a, m, k16), pad(b.T, n16, k16)
    sbp = sb if sb.numel() == 1 else pad(sb, 1, n16)
    runs = {
        "call": lambda: scaled_matmul(a, b, sa, sb),
        "gemm on padded": lambda: scaled_matmul(ap, bpt.T, sa, sbp),
        "pad A and B": lambda: (pad(a, m, k16), pad(b.T, n16, k16)),
        "_scaled_mm padded": lambda: torch._scaled_mm(ap, bpt.T, sa, sbp, out_dtype=torch.bfloat16,
                                                      use_fast_accum=True),
    }
    for f in runs.values():
        f()
    torch.cuda.synchronize()
    res = {name: [] for name in runs}
    for _ in range(5):
        for name, f in runs.items():
            res[name].append(tt.do_bench(f, warmup=5, rep=30))
    med = {name: sorted(v)[2] * 1e3 for name, v in res.items()}
    lines.append(f"{m}x{n}x{k}: " + "  ".join(f"{name} {us:.1f} us" for name, us in med.items()))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
