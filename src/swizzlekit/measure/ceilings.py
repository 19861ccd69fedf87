"""Measure this GPU's ceilings: cuBLAS matmul rates per precision and device copy bandwidth.

``python -m swizzlekit.measure.ceilings --out DIR`` writes ``ceilings.json``: the median
TFLOP/s of ``torch.matmul`` on fresh random inputs (bf16, fp16, TF32, fp32 with TF32 off)
at 4096^3 and 8192^3, and the bandwidth of a large device-to-device copy (bytes read plus
bytes written). Timing is ``triton.testing.do_bench``'s median, which uses CUDA events.
Needs torch and triton with a GPU; both are imported only when :func:`measure` runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["environment", "measure", "main"]


def environment() -> dict[str, str]:
    """GPU, driver, CUDA, torch and triton versions, for tagging every measured number."""
    import datetime as dt
    import subprocess

    import torch
    import triton

    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        smi = "unavailable"
    props = torch.cuda.get_device_properties(0)
    return {
        "date": dt.date.today().isoformat(),
        "gpu": props.name,
        "sms": str(props.multi_processor_count),
        "l2_bytes": str(getattr(props, "L2_cache_size", "unknown")),
        "nvidia_smi": smi,
        "cuda": str(torch.version.cuda),
        "torch": torch.__version__,
        "triton": triton.__version__,
    }


def measure(sizes: tuple[int, ...] = (4096, 8192)) -> dict:
    """Median TFLOP/s of torch.matmul per precision and size, and copy bandwidth in GB/s."""
    import torch
    from triton.testing import do_bench

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    result = measure()
    (args.out / "ceilings.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
