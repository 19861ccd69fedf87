"""Peak issue rates: FFMA and the ``mma.sync`` instructions WMMA compiles to, measured.

These are the ceilings the CUDA SGEMM ladder answers to. An FP32 CUDA-core SGEMM cannot beat
the FFMA rate, and a WMMA kernel on sm_90 compiles to ``mma.sync`` (HMMA), not Hopper's
``wgmma``, so it cannot beat the ``mma.sync`` TF32 rate, whatever cuBLAS reaches with wgmma.

``swizzlekit lab peak --out DIR`` writes ``peak.json``: the median TFLOP/s of
each kernel in ``peak.cu`` (no memory traffic, independent accumulators), launched with
enough warps to fill every SM. Needs a GPU, torch and cuda-python.

>>> FLOPS_PER_INSTR["mma_tf32_peak"], FLOPS_PER_INSTR["ffma_peak"]
(2048, 2)
"""

from __future__ import annotations

import json
from pathlib import Path

from swizzlekit.errors import SwizzleKitError

__all__ = ["FLOPS_PER_INSTR", "KERNELS", "measure", "run"]

#: flops of one instruction: per thread for FFMA, per warp for mma.sync.
FLOPS_PER_INSTR = {"ffma_peak": 2, "mma_tf32_peak": 2 * 16 * 8 * 8, "mma_f16_peak": 2 * 16 * 8 * 16}
KERNELS = tuple(FLOPS_PER_INSTR)
_CHAINS, _UNROLL = 8, {"ffma_peak": 8, "mma_tf32_peak": 1, "mma_f16_peak": 1}


def _flops(name: str, blocks: int, threads: int, iters: int) -> float:
    per = blocks * threads if name == "ffma_peak" else blocks * threads // 32
    return float(per) * iters * _CHAINS * _UNROLL[name] * FLOPS_PER_INSTR[name]


def measure(iters: int = 4096, blocks_per_sm: int = 4, threads: int = 512) -> dict:
    """Median TFLOP/s of each peak kernel over 10 timed launches (after 3 warm-ups)."""
    import torch

    from swizzlekit.kernels.cuda.launch import function, i32, launch, ptr
    from swizzlekit.kernels.cuda.nvrtc import compile_cuda
    from swizzlekit.lab.harness import environment

    major, minor = torch.cuda.get_device_capability()
    compiled = compile_cuda((Path(__file__).with_name("peak.cu")).read_text(), list(KERNELS),
                            arch=f"sm_{major}{minor}", filename="peak.cu")
    blocks = torch.cuda.get_device_properties(0).multi_processor_count * blocks_per_sm
    out = torch.full((blocks * threads,), float("nan"), device="cuda")
    result: dict = {"env": environment(), "iters": iters, "blocks": blocks, "threads": threads,
                    "tflops": {}, "resources": compiled.resources}
    for name in KERNELS:
        fn = function(compiled, name)
        out.fill_(float("nan"))
        times = []
        for rep in range(13):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            launch(fn, (blocks,), (threads,), [ptr(out), i32(iters)])
            end.record()
            end.synchronize()
            if rep >= 3:                      # three warm-up launches
                times.append(start.elapsed_time(end))
        if torch.isnan(out).any():            # every thread writes its sum: none may be missing
            raise SwizzleKitError(f"{name} left outputs unwritten")
        times.sort()
        ms = times[len(times) // 2]
        result["tflops"][name] = round(_flops(name, blocks, threads, iters) / (ms * 1e-3) / 1e12, 1)
        result.setdefault("ms", {})[name] = round(ms, 3)
    return result


def run(out: Path) -> Path:
    """Measure, and write ``peak.json`` to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "peak.json"
    path.write_text(json.dumps(measure(), indent=2) + "\n")
    return path
