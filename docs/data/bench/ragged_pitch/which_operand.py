"""Which operand's row pitch costs the ragged GEMM its speed: 3000x5000x4000 and
6000x7000x3000 in bf16 with each of A, B and C alone given a 128-byte pitch (views into wider
buffers), each timed in 5 interleaved replicates (do_bench medians, L2 flushed).

    python3 docs/data/bench/ragged_pitch/which_operand.py > which_operand.txt     (on a GPU)
"""
import statistics

import torch
import triton

from swizzlekit.kernels import matmul


def tensor(rows, cols, pitched):
    width = -(-cols // 64) * 64 if pitched else cols
    return torch.randn(rows, width, device="cuda", dtype=torch.bfloat16)[:, :cols]


for M, N, K in ((3000, 5000, 4000), (6000, 7000, 3000)):
    runs = {}
    for name, (pa, pb, pc) in {"none": (0, 0, 0), "A": (1, 0, 0), "B": (0, 1, 0), "C": (0, 0, 1),
                               "A+B": (1, 1, 0), "all": (1, 1, 1)}.items():
        a, b, c = tensor(M, K, pa), tensor(K, N, pb), tensor(M, N, pc)
        ref = a.double() @ b.double()
        out = matmul(a, b, out=c)
        assert ((out.double() - ref).norm() / ref.norm()).item() < 1e-2
        runs[name] = (lambda a=a, b=b, c=c: matmul(a, b, out=c))
    times = {k: [] for k in runs}
    for turn in range(5):
        names = list(runs)[turn % len(runs):] + list(runs)[:turn % len(runs)]
        for k in names:
            times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                    return_mode="median"))
    print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {statistics.median(v):.4f} ms"
                                       for k, v in times.items()), flush=True)
print(torch.cuda.get_device_name(), torch.__version__, triton.__version__)
