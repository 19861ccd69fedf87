"""The pay-off constant g / (c p) of ``kernels/triton/copies.PITCH_PAYOFF`` from one card's probe
outputs (one or more runs, pooled): g the GEMM on the copy over the bf16 peak, c the copy over the DRAM bandwidth (bytes
read and written), p what B as given costs the GEMM more; medians over the shapes. Also the
rows from which the copy pays by that rule, and where it paid as measured.

    python3 fit.py h100-sxm h100/pitch.jsonl h100_b/pitch.jsonl
"""
import json
import statistics
import sys

from swizzlekit.gpus import gpu

card = gpu(sys.argv[1])
peak, bw = card.peak_tflops["bf16"] * 1e12, card.dram_gbps * 1e9
g, c, p = [], [], []
for line in (line for name in sys.argv[2:] for line in open(name)):
    r = json.loads(line)
    M, N, K = r["shape"]
    ms = r["ms"]
    g.append(2 * M * N * K / (ms["gemm on the copy"] * 1e-3) / peak)
    c.append(2 * K * N * 2 / (ms["copy alone"] * 1e-3) / bw)
    p.append(ms["as given"] / ms["gemm on the copy"] - 1)
    gain = ms["as given"] / ms["copy + gemm"] - 1
    print(f"{M}x{N}x{K}: g {g[-1]:.3f} c {c[-1]:.3f} p {p[-1]:.3f}  the copy "
          f"{'pays' if gain > 0 else 'loses'} {abs(gain) * 100:.1f}%")
G, C, P = (statistics.median(v) for v in (g, c, p))
print(f"medians: g {G:.2f} c {C:.2f} p {P:.2f}  pay-off g/(c p) {G / (C * P):.1f}  "
      f"from M = {2 * peak / bw * G / (C * P):.0f} rows in 16-bit ({sys.argv[1]})")
