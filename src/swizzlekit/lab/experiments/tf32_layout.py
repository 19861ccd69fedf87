"""TF32 and the layout of B: ``swizzlekit lab tf32-layout --out DIR`` on a GPU.

Times ``swizzlekit.kernels.matmul`` in TF32 at 8192^3 with B row-major read by pointer loads
(``tma=False``: the kernel sees B N-major), with B handed over K-major (a transposed view, read
through a descriptor of its transpose), and by default (B row-major, copied K-major first).
Hopper's wgmma takes TF32 operands only K-major; docs/benchmarks.md quotes this output.
"""

import json
from pathlib import Path


def run(out: Path) -> Path:
    """Time the three cases; writes ``tf32_layout.json`` (TFLOP/s per case) to ``out``."""
    import torch
    from swizzlekit.lab.harness import environment, median_ms

    from swizzlekit.kernels import matmul

    n = 8192
    a = torch.randn(n, n, device="cuda")
    b_row = torch.randn(n, n, device="cuda")
    b_kmajor = torch.randn(n, n, device="cuda").T          # K-major view of a K x N matrix
    c = torch.empty(n, n, device="cuda")
    cases = [("B row-major, pointer loads (tma=False)", b_row, {"tma": False}),
             ("B K-major view, TMA", b_kmajor, {}),
             ("B row-major, default (copied K-major, TMA)", b_row, {})]
    result = {}
    for label, b, kw in cases:
        matmul(a, b, out=c, precision="tf32", **kw)
        ms = median_ms(lambda: matmul(a, b, out=c, precision="tf32", **kw))
        result[label] = round(2 * n**3 / (ms * 1e-3) / 1e12, 1)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "tf32_layout.json"
    path.write_text(json.dumps({"env": environment(), "tflops": result}, indent=2) + "\n")
    return path
