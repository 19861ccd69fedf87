"""One launch of each stream-K probe variant at one shape, for Nsight Compute: where the
stream-K pieces lose time (registers, local memory, L2 hits, DRAM bytes).

    ncu --clock-control none --kernel-name _stream_k --metrics ... \\
        python3 docs/data/bench/stream_k/ncu_once.py MxNxK      (on a GPU)

Prints the launch order: variant, programs, stream-K tiles, steps a program.
"""
import sys

import torch

from probe import plan, stream_k

M, N, K = (int(v) for v in sys.argv[1].split("x"))
VARIANTS = [((128, 128, 64, 4, 8, 1), "dp"), ((128, 128, 64, 4, 8, 1), "sk1"),
            ((128, 256, 64, 3, 8, 1), "dp"), ((128, 256, 64, 3, 8, 1), "all")]
torch.manual_seed(0)
a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
for cfg, mode in VARIANTS:
    stream_k(a, b, c, cfg, mode)
    torch.cuda.synchronize()
    print("{}x{}x{}/s{}/w{}".format(*cfg[:5]), mode, plan(M, N, K, cfg, mode), flush=True)
