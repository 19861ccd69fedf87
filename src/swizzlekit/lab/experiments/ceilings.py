"""Measure this GPU's ceilings: cuBLAS matmul rates per precision and device copy bandwidth.

``swizzlekit lab ceilings --out DIR`` writes ``ceilings.json``: the median
TFLOP/s of ``torch.matmul`` on fresh random inputs (bf16, fp16, TF32, fp32 with TF32 off)
at 4096^3 and 8192^3, and the bandwidth of a large device-to-device copy (bytes read plus
bytes written). Timing is ``triton.testing.do_bench``'s median, which uses CUDA events.
Needs torch and triton with a GPU; both are imported only when :func:`measure` runs.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["measure", "run"]


def measure(sizes: tuple[int, ...] = (4096, 8192)) -> dict:
    """Median TFLOP/s of torch.matmul per precision and size, and copy bandwidth in GB/s."""
    import torch
    from triton.testing import do_bench

    from swizzlekit.lab.harness import environment

    result: dict = {"matmul_tflops": {}, "env": environment()}
    precisions = {"bf16": (torch.bfloat16, False), "fp16": (torch.float16, False),
                  "tf32": (torch.float32, True), "fp32": (torch.float32, False)}
    for name, (dtype, tf32) in precisions.items():
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for n in sizes:
            a = torch.randn(n, n, device="cuda", dtype=dtype)
            b = torch.randn(n, n, device="cuda", dtype=dtype)
            ms = do_bench(lambda: torch.matmul(a, b), warmup=100, rep=500, return_mode="median")
            result["matmul_tflops"][f"{name}_{n}"] = round(2 * n**3 / (ms * 1e-3) / 1e12, 1)
            del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    x = torch.randn(2**30, device="cuda")  # 4 GiB
    y = torch.empty_like(x)
    ms = do_bench(lambda: y.copy_(x), warmup=50, rep=300, return_mode="median")
    result["copy_gbps"] = round(2 * x.numel() * 4 / (ms * 1e-3) / 1e9, 1)
    return result


def run(out: Path) -> Path:
    """Measure, and write ``ceilings.json`` to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "ceilings.json"
    path.write_text(json.dumps(measure(), indent=2) + "\n")
    return path
