"""Load NVRTC-compiled kernels and launch them through the CUDA driver API (``cuda.bindings``).

The one way swizzlekit runs CUDA C++: :func:`~swizzlekit.kernels.cuda.nvrtc.compile_cuda`
builds a cubin, :func:`function` loads one of its kernels (once per process), and
:func:`launch` starts it on torch's current stream. The SGEMM ladder, seed 001's kernels and
the lab's probes (bank microbenchmark, peak rates) all go through here.

Arguments are ``(value, ctypes type)`` pairs: pointers as ``(tensor.data_ptr(), c_void_p)``,
scalars as ``(n, c_int)``.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.cuda.nvrtc import Compiled

__all__ = ["function", "launch", "ptr", "i32"]

_loaded: dict = {}


def _check(err, what: str) -> None:
    if int(err):
        raise SwizzleKitError(f"{what} failed: {err}")


def function(compiled: Compiled, expression: str, dynamic_smem: int = 0):
    """The kernel ``expression`` (a name expression given to ``compile_cuda``) of
    ``compiled``, loaded into the current context; kernels above 48 KiB of dynamic shared
    memory are opted in to it."""
    from cuda.bindings import driver

    key = (compiled.cubin, expression, dynamic_smem)
    if key not in _loaded:
        import torch

        torch.zeros(1, device="cuda")      # torch's primary context, current for the driver
        if expression not in compiled.lowered:
            raise SwizzleKitError(f"kernel {expression!r} was not compiled; compiled: "
                                  + ", ".join(compiled.lowered))
        err, module = driver.cuModuleLoadData(compiled.cubin)
        _check(err, "cuModuleLoadData")
        err, fn = driver.cuModuleGetFunction(module, compiled.lowered[expression].encode())
        _check(err, f"cuModuleGetFunction({expression})")
        if dynamic_smem > 48 * 1024:
            attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            (err,) = driver.cuFuncSetAttribute(fn, attr, dynamic_smem)
            _check(err, f"cuFuncSetAttribute({dynamic_smem} B of shared memory)")
        _loaded[key] = (module, fn)
    return _loaded[key][1]


def ptr(tensor) -> tuple[int, type]:
    """A device pointer argument from a torch tensor."""
    return (tensor.data_ptr(), ctypes.c_void_p)


def i32(value: int) -> tuple[int, type]:
    """A 32-bit integer argument."""
    return (int(value), ctypes.c_int)


def launch(fn, grid: Sequence[int], block: Sequence[int], args: Sequence[tuple[int, type]],
           dynamic_smem: int = 0, device=None) -> None:
    """Launch ``fn`` over ``grid`` x ``block`` on torch's current stream of ``device``."""
    import torch
    from cuda.bindings import driver

    gx, gy, gz = (*grid, 1, 1)[:3]
    bx, by, bz = (*block, 1, 1)[:3]
    values, types = tuple(a[0] for a in args), tuple(a[1] for a in args)
    stream = driver.CUstream(torch.cuda.current_stream(device).cuda_stream)
    (err,) = driver.cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, dynamic_smem, stream,
                                   (values, types), 0)
    _check(err, "cuLaunchKernel")
