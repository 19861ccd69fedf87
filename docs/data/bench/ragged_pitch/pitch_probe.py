"""Where raggedness costs: the same ragged bf16 GEMM on contiguous operands and on operands
whose rows are padded to a 128-byte pitch (the same logical tensors, views into wider
buffers), beside the tile-aligned neighbour, each timed in 5 interleaved replicates
(do_bench medians, L2 flushed) after a float64 check.

    python3 docs/data/bench/ragged_pitch/pitch_probe.py > pitch_probe.txt     (on a GPU)
"""
import statistics

import torch
import triton

from swizzlekit.kernels import matmul

SHAPES = [((3000, 5000, 4000), (3072, 5120, 4032)), ((6000, 7000, 3000), (6016, 7040, 3008)),
          ((9000, 7000, 3000), (9088, 7040, 3008)), ((317, 4096, 14336), (384, 4096, 14336))]


def pitched(rows, cols, pitch_elems):
    """A rows x cols bf16 view into a buffer of rows x pitch (the pitch a multiple of 64)."""
    buf = torch.randn(rows, pitch_elems, device="cuda", dtype=torch.bfloat16)
    return buf[:, :cols]


def up(x, m):
    return -(-x // m) * m


for (M, N, K), aligned in SHAPES:
    a, b = (torch.randn(M, K, device="cuda", dtype=torch.bfloat16),
            torch.randn(K, N, device="cuda", dtype=torch.bfloat16))
    ap, bp = pitched(M, K, up(K, 64)), pitched(K, N, up(N, 64))
    ap.copy_(a), bp.copy_(b)
    cp = pitched(M, N, up(N, 64))
    am, an, ak = aligned
    a2, b2 = (torch.randn(am, ak, device="cuda", dtype=torch.bfloat16),
              torch.randn(ak, an, device="cuda", dtype=torch.bfloat16))
    ref = a.double() @ b.double()
    for name, fn in (("contiguous", lambda: matmul(a, b)),
                     ("128-byte pitch", lambda: matmul(ap, bp, out=cp))):
        out = fn()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (name, err)
    runs = {"contiguous": lambda: matmul(a, b), "128-byte pitch": lambda: matmul(ap, bp, out=cp),
            "aligned neighbour": lambda: matmul(a2, b2)}
    times = {k: [] for k in runs}
    for f in runs.values():
        f()
    for turn in range(5):
        names = list(runs)[turn % 3:] + list(runs)[:turn % 3]
        for k in names:
            times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                    return_mode="median"))
    flops = {"contiguous": 2 * M * N * K, "128-byte pitch": 2 * M * N * K,
             "aligned neighbour": 2 * am * an * ak}
    line = [f"{M}x{N}x{K} (neighbour {am}x{an}x{ak}):"]
    for k, ts in times.items():
        ms = statistics.median(ts)
        line.append(f"{k} {ms:.4f} ms {flops[k] / ms / 1e9:.0f} TFLOP/s")
    print("  ".join(line), flush=True)
print(torch.cuda.get_device_name(), torch.__version__, triton.__version__)
