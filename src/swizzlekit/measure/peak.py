"""Peak issue rates: FFMA and the ``mma.sync`` instructions WMMA compiles to, measured.

These are the ceilings the CUDA SGEMM ladder answers to. An FP32 CUDA-core SGEMM cannot beat
the FFMA rate, and a WMMA kernel on sm_90 compiles to ``mma.sync`` (HMMA), not Hopper's
``wgmma``, so it cannot beat the ``mma.sync`` TF32 rate, whatever cuBLAS reaches with wgmma.

``python -m swizzlekit.measure.peak --out DIR`` writes ``peak.json``: the median TFLOP/s of
each kernel in ``peak.cu`` (no memory traffic, independent accumulators), launched with
enough warps to fill every SM. Needs a GPU, torch and cuda-python.

>>> FLOPS_PER_INSTR["mma_tf32_peak"], FLOPS_PER_INSTR["ffma_peak"]
(2048, 2)
"""

from __future__ import annotations

import argparse
import ctypes
import json
import sys
from pathlib import Path

__all__ = ["FLOPS_PER_INSTR", "KERNELS", "measure", "main"]

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
    from cuda.bindings import driver

    from swizzlekit.kernels.cuda.nvrtc import compile_cuda
    from swizzlekit.measure.ceilings import environment

    from swizzlekit.errors import SwizzleKitError

    major, minor = torch.cuda.get_device_capability()
    compiled = compile_cuda((Path(__file__).with_name("peak.cu")).read_text(), list(KERNELS),
                            arch=f"sm_{major}{minor}", filename="peak.cu")
    blocks = torch.cuda.get_device_properties(0).multi_processor_count * blocks_per_sm
    # allocating first makes torch's context current for the driver-API calls below
    out = torch.full((blocks * threads,), float("nan"), device="cuda")

    def check(err, what):
        if int(err):
            raise SwizzleKitError(f"{what} failed: {err}")

    err, module = driver.cuModuleLoadData(compiled.cubin)
    check(err, "cuModuleLoadData")
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    result: dict = {"env": environment(), "iters": iters, "blocks": blocks, "threads": threads,
                    "tflops": {}, "resources": compiled.resources}
    for name in KERNELS:
        err, fn = driver.cuModuleGetFunction(module, compiled.lowered[name].encode())
        check(err, f"cuModuleGetFunction({name})")
        params = ((out.data_ptr(), iters), (ctypes.c_void_p, ctypes.c_int))
        out.fill_(float("nan"))
        times = []
        for rep in range(13):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            (err,) = driver.cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, 0, stream, params, 0)
            check(err, f"cuLaunchKernel({name})")
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    result = measure()
    (args.out / "peak.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["tflops"], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
