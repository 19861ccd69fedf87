"""Host time against GPU time of one GEMM call, on small problems where the launch path can
dominate: cuBLAS, swizzlekit's GEMM (TMA and pointer loads) and the tutorial-shaped baseline.

``swizzlekit lab overhead --out DIR`` writes ``overhead.json``: per shape and kernel, the
``do_bench`` median (L2 flushed, what the benchmarks report) and the host time per call
(200 calls issued back to back without synchronizing, divided by 200). When the host time is
the larger, the GPU waits for the host and the call is launch-bound. Beside it,
``overhead_profile.txt``: 2000 repeat calls of swizzlekit's GEMM (TMA) on the first shape under
``cProfile``, the functions sorted by their own time, to show where the host time goes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

__all__ = ["SHAPES", "run"]

#: Calls profiled for ``overhead_profile.txt``.
PROFILED_CALLS = 2000

SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (64, 4096, 4096), (512, 4096, 4096)]


def run(out: Path) -> Path:
    import torch

    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton.baseline import matmul_baseline
    from swizzlekit.lab.harness import environment, median_ms

    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        calls = {"cublas": lambda: torch.matmul(a, b, out=c),
                 "triton (TMA)": lambda: matmul(a, b, out=c, tma=True),
                 "triton (pointer loads)": lambda: matmul(a, b, out=c, tma=False),
                 "triton_baseline": lambda: matmul_baseline(a, b, out=c)}
        for name, fn in calls.items():
            fn()
            torch.cuda.synchronize()
            ms = median_ms(fn, warmup_ms=25, rep_ms=100)
            start = time.perf_counter()
            for _ in range(200):
                fn()
            host_us = (time.perf_counter() - start) / 200 * 1e6
            torch.cuda.synchronize()
            rows.append({"shape": [m, n, k], "kernel": name, "do_bench_us": round(ms * 1e3, 1),
                         "host_us_per_call": round(host_us, 1)})
            print(f"{m}x{n}x{k} {name:24s} {ms * 1e3:8.1f} us  host {host_us:7.1f} us/call",
                  flush=True)
        if (m, n, k) == SHAPES[0]:
            _profile(out / "overhead_profile.txt", calls["triton (TMA)"])
    path = out / "overhead.json"
    path.write_text(json.dumps({"env": environment(), "command": "swizzlekit lab overhead "
                                "--out DIR", "rows": rows}, indent=1) + "\n")
    return path


def _profile(path: Path, fn) -> Path:
    """``fn``'s repeat calls under cProfile, the 30 costliest functions by own time."""
    import cProfile
    import io
    import pstats

    import torch

    fn()
    torch.cuda.synchronize()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(PROFILED_CALLS):
        fn()
    prof.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(30)
    path.write_text(f"# {PROFILED_CALLS} calls of matmul(a, b, out=c, tma=True), bf16 {SHAPES[0]}, "
                    f"under cProfile (which slows every call)\n" + text.getvalue())
    return path
