"""Which tiles a tail split ran whole on the GPU: the tail split's C against the unsplit
and the 4-way split runs, tile by tile (bitwise), and the three timed (do_bench medians,
5 interleaved replicates). Usage: python3 diag.py"""
import torch
from triton.testing import do_bench

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.scaled import scaled_matmul

torch.manual_seed(0)
for M, N, K, prec in ((256, 14336, 4096, "fp8"), (3000, 5120, 4096, "bf16")):
    a = torch.randn(M, K, device="cuda")
    bt = torch.randn(N, K, device="cuda")
    if prec == "fp8":
        a8, b8 = a.to(torch.float8_e4m3fn), bt.to(torch.float8_e4m3fn).T
        one = torch.ones((), device="cuda")
        run = {s: (lambda s=s: scaled_matmul(a8, b8, one, one, split_k=s)) for s in (1, 4, "tail")}
    else:
        a16, b16 = a.bfloat16(), bt.bfloat16().T.contiguous()
        run = {s: (lambda s=s: matmul(a16, b16, split_k=s)) for s in (1, 4, "tail")}
    outs = {s: f().float() for s, f in run.items()}
    for bm, bn in ((128, 128), (128, 256), (256, 128)):
        tm, tn = -(-M // bm), -(-N // bn)
        whole = split = 0
        for i in range(tm):
            for j in range(tn):
                blk = (slice(i * bm, (i + 1) * bm), slice(j * bn, (j + 1) * bn))
                whole += torch.equal(outs["tail"][blk], outs[1][blk])
                split += torch.equal(outs["tail"][blk], outs[4][blk])
        print(f"{M}x{N}x{K} {prec} tiles {bm}x{bn}: {tm * tn} tiles, equal to unsplit {whole}, "
              f"to split-4 {split}")
    t = {str(s): [] for s in run}
    names = list(run)
    for r in range(5):
        for s in names[r % 3:] + names[:r % 3]:
            t[str(s)].append(do_bench(run[s], warmup=25, rep=100, return_mode="median"))
    print({s: round(sorted(v)[2] * 1e3, 1) for s, v in t.items()}, "us")
    for key, plan in list(mm.PLANS._plans.items())[-3:]:
        print(key[-1], plan.grid, plan.config)
