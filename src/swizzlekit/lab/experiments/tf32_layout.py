"""TF32 and the layout of B: ``swizzlekit lab tf32-layout --out DIR`` on a GPU.

Times ``swizzlekit.kernels.matmul`` in TF32 at 4096^3 and 8192^3 with B:
- row-major, read by pointer loads (``tma=False``: the kernel sees B N-major);
- K-major (a transposed view, read through a descriptor of its transpose);
- row-major, swapped: the TMA kernel computes Cᵀ = Bᵀ Aᵀ on B as given;
- row-major, copied K-major first.

Hopper's wgmma takes TF32 from shared memory only K-major. The default takes the swapped
kernel below ``tf32_copy_min_m()`` rows and the copy from them; this experiment times both at
each size (the threshold set around each call). docs/data/bench/JOURNAL.md quotes its output.
"""

import json
from pathlib import Path


def run(out: Path) -> Path:
    """Time the four cases at two sizes; writes ``tf32_layout.json`` (TFLOP/s per case)."""
    import torch
    from swizzlekit.lab.harness import environment, median_ms

    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm, matmul_configs as mc

    cases = [("B row-major, pointer loads (tma=False)", False, {"tma": False}, None),
             ("B K-major view, TMA", True, {}, None),
             ("B row-major, swapped (C^T = B^T A^T, no copy)", False, {}, 2**62),
             ("B row-major, copied K-major, TMA", False, {}, 1)]
    result, default = {}, mc.TF32_COPY_MIN_M
    try:
        for n in (4096, 8192):
            a = torch.randn(n, n, device="cuda")
            b_row = torch.randn(n, n, device="cuda")
            b_kmajor = torch.randn(n, n, device="cuda").T     # K-major view of a K x N matrix
            c = torch.empty(n, n, device="cuda")
            for label, kmajor, kw, copy_from in cases:
                mc.TF32_COPY_MIN_M = default if copy_from is None else copy_from
                mm.ROUTES.clear()           # the same tensors: each case takes its own route
                b = b_kmajor if kmajor else b_row
                matmul(a, b, out=c, precision="tf32", **kw)
                ms = median_ms(lambda: matmul(a, b, out=c, precision="tf32", **kw))
                result[f"{n}^3: {label}"] = round(2 * n**3 / (ms * 1e-3) / 1e12, 1)
    finally:
        mc.TF32_COPY_MIN_M = default
    out.mkdir(parents=True, exist_ok=True)
    path = out / "tf32_layout.json"
    path.write_text(json.dumps({"env": environment(), "tflops": result,
                                "tf32_copy_min_m": mc.tf32_copy_min_m()}, indent=2) + "\n")
    return path
