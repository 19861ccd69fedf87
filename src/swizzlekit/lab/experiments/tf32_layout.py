"""TF32 and the layout of B: ``python -m swizzlekit.lab.experiments.tf32_layout`` on a GPU.

Times ``swizzlekit.kernels.matmul`` in TF32 at 8192^3 with B row-major read by pointer loads
(``tma=False``: the kernel sees B N-major), with B handed over K-major (a transposed view, read
through a descriptor of its transpose), and by default (B row-major, copied K-major first).
Hopper's wgmma takes TF32 operands only K-major; docs/benchmarks.md quotes this output.
"""

import sys


def main() -> int:
    import torch
    from triton.testing import do_bench

    from swizzlekit.kernels import matmul

    n = 8192
    a = torch.randn(n, n, device="cuda")
    b_row = torch.randn(n, n, device="cuda")
    b_kmajor = torch.randn(n, n, device="cuda").T          # K-major view of a K x N matrix
    c = torch.empty(n, n, device="cuda")
    cases = [("B row-major, pointer loads (tma=False)", b_row, {"tma": False}),
             ("B K-major view, TMA", b_kmajor, {}),
             ("B row-major, default (copied K-major, TMA)", b_row, {})]
    for label, b, kw in cases:
        matmul(a, b, out=c, precision="tf32", **kw)
        ms = do_bench(lambda: matmul(a, b, out=c, precision="tf32", **kw), return_mode="median")
        print(f"{label:45s} {2 * n**3 / (ms * 1e-3) / 1e12:6.1f} TFLOP/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
