"""CUTLASS's Hopper fp8 GEMM in clusters of two CTAs (``cutlass_fp8.cu``), built by nvcc on
first use and called through ctypes: ``D = (scale_a * scale_b) * (A B)`` in bf16 for e4m3 A
(M x K, row-major) and B (K x N, K-major: ``b = bt.T``), one fp32 scale per tensor, read
from the device.

Its CTAs pair up along M and share each 128x256x128 tile of B by TMA multicast, with one
producer and two consumer warpgroups and fp32 accumulation without periodic promotion (as
``torch._scaled_mm``'s ``use_fast_accum``), in one of two schedules: whole tiles
(data-parallel), or ``stream_k``: every tile's K steps dealt out evenly over one wave of
CTAs, partial sums added through a workspace. On an H100 (docs/data/bench/cutlass_probe/fp8/)
whole tiles ran 256 and 512 x 14336 x 4096 at 0.96x and 0.98x ``_scaled_mm``, where
``scaled_matmul``'s Triton plan ran 0.90x; stream-K ran 727x5792x14064 at 0.92x (whole tiles
0.62x, Triton 0.57x) and 762x8256x9952 at 0.95x (0.83x, 0.89x); each ran behind the Triton
plan at other shapes (0.52x at 314x9664x14240 in whole tiles). It needs an sm_90 GPU, nvcc,
and CUTLASS's headers; the library is built once (about two minutes) and cached as
:mod:`.cutlass`'s.

The tiles may also be one of :data:`SWAPPED`'s: CUTLASS then runs on ``Dᵀ = Bᵀ Aᵀ``, in tiles
of 96, 160 or 192 rows of A and 128 columns of B, so that few of A's rows are wasted where M
is not near a multiple of 256 (each its own build of ``cutlass_fp8.cu``, made on first use).

>>> config(TILES, stream_k=True)
'128x256x128/c2x1/stream-k'
>>> padded_rows(302, "160x128x128/c2x1/swap-ab"), padded_rows(302, TILES)
(320, 512)
"""

from __future__ import annotations

import ctypes
import functools
import math
from pathlib import Path

from swizzlekit.errors import SwizzleKitError, ToolError, check_bool, check_choice
from swizzlekit.kernels.cuda.cutlass import (NVCC_FLAGS, compile_library, entry_points, failed,
                                             rows_aligned, run_entry)

__all__ = ["TILES", "SWAPPED", "config", "padded_rows", "build",
           "cutlass_scaled_matmul", "launch_scaled"]

#: The library's own tiles (rows of A x columns of B x K) and cluster (CTAs along M x N).
TILES = "128x256x128/c2x1"
#: Builds with A and B swapped, by their tiles (as :data:`TILES`; "/swap-ab"): (rows of A a
#: tile, CTAs a cluster along M, CTAs along N).
SWAPPED = {"96x128x128/c1x2/swap-ab": (96, 1, 2), "96x128x128/c2x1/swap-ab": (96, 2, 1),
           "160x128x128/c2x1/swap-ab": (160, 2, 1), "192x128x128/c2x1/swap-ab": (192, 2, 1)}
_SOURCE = Path(__file__).with_name("cutlass_fp8.cu")


def config(tiles: str, stream_k: bool) -> str:
    """A plan's config label: the tiles, and "/stream-k" in that schedule."""
    return f"{tiles}/stream-k" if stream_k else tiles


@functools.lru_cache(maxsize=4096)
def padded_rows(M: int, tiles: str) -> int:
    """The rows of A the grid of ``tiles`` covers for ``M`` rows: whole tiles, in whole
    clusters along M."""
    rows, along_m, _ = SWAPPED.get(tiles, (128, 2, 1))
    return math.ceil(math.ceil(M / rows) / along_m) * along_m * rows


def _flags(tiles: str) -> tuple:
    if tiles == TILES:
        return NVCC_FLAGS
    rows, along_m, along_n = SWAPPED[tiles]            # CUTLASS's M is our N, its N our M
    return (*NVCC_FLAGS, "-DSWIZZLEKIT_SWAP_AB=1", f"-DSWIZZLEKIT_TILE_M={rows}",
            f"-DSWIZZLEKIT_CLUSTER_N={along_n}", f"-DSWIZZLEKIT_CLUSTER_M={along_m}")


def _check_tiles(tiles) -> str:
    return check_choice("tiles", tiles, (TILES, *SWAPPED))


def build(tiles: str = TILES) -> Path:
    """The shared library of ``cutlass_fp8.cu`` in ``tiles`` (:data:`TILES` or one of
    :data:`SWAPPED`), compiled by nvcc unless cached. Raises
    :class:`~swizzlekit.errors.ToolError` where nvcc or CUTLASS's headers are missing, or
    nvcc fails."""
    tiles = _check_tiles(tiles)
    stem = "gemm_fp8"
    if tiles != TILES:
        rows, along_m, along_n = SWAPPED[tiles]
        stem = f"gemm_fp8_swap{rows}_c{along_m}x{along_n}"
    return compile_library(_SOURCE, _flags(tiles), stem, f"CUTLASS's fp8 GEMM in {tiles}")


@functools.lru_cache(maxsize=None)
def _library(tiles: str = TILES):
    args = ([ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_long] * 3
            + [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
               ctypes.POINTER(ctypes.c_int)])
    return entry_points(build(tiles), "CUTLASS's fp8 GEMM", "swizzlekit_cutlass_fp8_gemm",
                        args, "swizzlekit_cutlass_fp8_workspace", 4)


@functools.lru_cache(maxsize=1024)
def _workspace_bytes(device: int, M: int, N: int, K: int, stream_k: bool,
                     tiles: str = TILES) -> int:
    """The workspace a call of this shape, schedule and tiles needs on ``device`` (the SM
    count sets the stream-K share), asked of the library once."""
    return _library(tiles)[1](M, N, K, int(stream_k))


def _check(a, b, scale_a, scale_b, out) -> tuple[int, int, int]:
    import torch

    for name, t in (("a", a), ("b", b)):
        if not isinstance(t, torch.Tensor) or t.dim() != 2:
            raise SwizzleKitError(f"{name} must be a 2-D torch tensor; got {type(t).__name__}")
        if t.dtype != torch.float8_e4m3fn:
            raise SwizzleKitError(f"{name}'s dtype {t.dtype} is not valid; choose one of: "
                                  "float8_e4m3fn")
        if t.device.type != "cuda" or t.device != a.device:
            raise SwizzleKitError(f"{name} must be on a CUDA device, as a; it is on {t.device}")
    (M, K), N = a.shape, b.shape[1]
    if b.shape[0] != K:
        raise SwizzleKitError(f"a is {M} x {K} but b is {b.shape[0]} x {N}: inner sizes differ")
    if min(M, N, K) < 1 or max(M, N, K) >= 2**31:
        raise SwizzleKitError(f"sizes must be from 1 to 2**31 - 1; got {M}x{N}x{K}")
    if not rows_aligned(a) or not rows_aligned(b.T):
        raise SwizzleKitError("a must be row-major and b K-major (b = bt.T for a row-major bt), "
                              "K a multiple of 16, rows 16 bytes apart and aligned (TMA's rule); "
                              f"got {M}x{N}x{K} in strides {a.stride()} and {b.stride()}")
    if N % 8:
        raise SwizzleKitError(f"N must be a multiple of 8 (C's bf16 rows in 16-byte multiples); "
                              f"got {M}x{N}x{K}")
    for name, s in (("scale_a", scale_a), ("scale_b", scale_b)):
        if (not isinstance(s, torch.Tensor) or s.numel() != 1 or s.dtype != torch.float32
                or s.device != a.device):
            raise SwizzleKitError(f"{name} must be one float32 value on {a.device}, a tensor; "
                                  f"got {getattr(s, 'shape', type(s).__name__)}")
    if out is not None and (not isinstance(out, torch.Tensor) or out.dtype != torch.bfloat16
                            or tuple(out.shape) != (M, N) or out.device != a.device
                            or not rows_aligned(out)):
        raise SwizzleKitError(f"out must be a {M} x {N} bfloat16 tensor on {a.device}, "
                              "row-major in rows 16 bytes apart and aligned (N a multiple of 8)")
    return M, N, K


def cutlass_scaled_matmul(a, b, scale_a, scale_b, *, out=None, stream_k: bool = False,
                          tiles: str = TILES):
    """``(scale_a * a) @ (scale_b * b)`` in bf16 for e4m3 ``a`` (M x K, row-major) and K-major
    ``b`` (K x N, ``bt.T``) with one fp32 scale each, on an sm_90 GPU, by CUTLASS's fp8 GEMM
    in clusters of two CTAs, in whole tiles or ``stream_k``, in ``tiles`` (:data:`TILES` or
    one of :data:`SWAPPED`); ``out`` (M x N, bf16) may be given. K must be a multiple of 16
    and N of 8, rows 16-byte multiples apart and pointers 16-byte aligned (TMA's rule)."""
    import torch

    check_bool("stream_k", stream_k)
    tiles = _check_tiles(tiles)
    M, N, K = _check(a, b, scale_a, scale_b, out)
    if out is None:
        out = torch.empty((M, N), dtype=torch.bfloat16, device=a.device)
    capability = torch.cuda.get_device_capability(a.device)
    if capability != (9, 0):
        raise ToolError(f"CUTLASS's fp8 GEMM is built for sm_90a (Hopper); this GPU is "
                        f"sm_{capability[0]}{capability[1]}")
    return launch_scaled(a, b, scale_a, scale_b, out, stream_k, tiles)


def launch_scaled(a, b, scale_a, scale_b, out, stream_k: bool, tiles: str = TILES):
    """:func:`cutlass_scaled_matmul`'s launch, for arguments its door passed (a repeat call of
    a fingerprint whose first call was checked; ``out`` given): no checks, the least host
    time."""
    (M, K), N = a.shape, b.shape[1]
    code, error = run_entry(_library(tiles)[0], (a.data_ptr(), b.data_ptr(), out.data_ptr(),
                                                 scale_a.data_ptr(), scale_b.data_ptr(), M, N,
                                                 K, a.stride(0), b.stride(1), out.stride(0),
                                                 int(stream_k)),
                            a.device,
                            lambda: _workspace_bytes(a.device.index, M, N, K, stream_k, tiles))
    if code:
        raise failed(f"CUTLASS's fp8 GEMM in {tiles}", (M, N, K), code, error)
    return out
