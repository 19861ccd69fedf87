"""Launch stage: a K-major copy of B (K x N, any strides) for TF32: Bᵀ as a fresh row-major
N x K buffer, one tile of R rows of B by C of its columns per program::

    program (i, j):  B[iR : iR+R, jC : jC+C]   (loaded along B's rows)
                     -> transposed in registers and shared memory
                     -> Bᵀ[jC : jC+C, iR : iR+R]   (stored along Bᵀ's rows)

Hopper's wgmma takes TF32 operands from shared memory only K-major, so from
:func:`~.matmul_configs.tf32_copy_min_m` rows :func:`swizzlekit.kernels.matmul` runs the plain
TMA kernel on such a copy of a row-major B. ``b.T.contiguous()`` made it before: torch's
transposing copy moved 8192² fp32 (512 MB read and written) in 0.554 ms on the H100, 0.92
TB/s (2026-11-26, docs/data/bench/tf32_configs_h100/). Both sides here are read and written
along rows. Of eight tiles timed (docs/data/bench/tf32_copy/), 64 x 64 in 4 warps ran
fastest or within 2% of it at every size from 4096² to 8192²: 2.67-2.86 TB/s on the H100,
3.52-3.97 on the H200. Elements move as 4-byte integers, bit for bit. The first call of a
shape, layout and base alignment compiles and keeps a :class:`~.plans.Plan`; later calls
launch it directly, as :mod:`.pad` does.
tests/kernels/test_kmajor_interp.py holds the copy equal to ``b.T.contiguous()`` under
Triton's interpreter.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.configs import _INTERPRET
from swizzlekit.kernels.triton.plans import PlanCache, launch_planned

__all__ = ["kmajor_copy", "TILE", "KMAJOR_PLANS"]

#: Rows of B, columns of B, warps of one program (docs/data/bench/tf32_copy/).
TILE = (64, 64, 4)
#: Compiled copies by shape, strides, base alignment and tile.
KMAJOR_PLANS = PlanCache(256)


@triton.jit
def _transpose_kernel(src, dst, rows, cols, stride_r, stride_c,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = (tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)).to(tl.int64)
    c = (tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)).to(tl.int64)
    inside = (r[:, None] < rows) & (c[None, :] < cols)
    x = tl.load(src + r[:, None] * stride_r + c[None, :] * stride_c, mask=inside)
    tl.store(dst + c[:, None] * rows + r[None, :], tl.trans(x),
             mask=(c[:, None] < cols) & (r[None, :] < rows))


def kmajor_copy(b, tile: tuple[int, int, int] = TILE):
    """``b`` (2-D, elements of 4 bytes, any strides) transposed into a fresh row-major
    buffer: ``b.T.contiguous()``, bit for bit. ``tile``: rows, columns and warps of one
    program (powers of two)."""
    import torch

    if not isinstance(b, torch.Tensor) or b.dim() != 2 or b.element_size() != 4:
        raise SwizzleKitError(f"kmajor_copy takes a 2-D tensor of 4-byte elements, got "
                              f"{getattr(b, 'dtype', type(b).__name__)} of shape "
                              f"{tuple(getattr(b, 'shape', ()))}")
    if (not isinstance(tile, tuple) or len(tile) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 256
                       and v & (v - 1) == 0 for v in tile) or tile[2] > 16):
        raise SwizzleKitError(f"tile must be (rows, columns, warps), powers of two, rows and "
                              f"columns up to 256 and warps up to 16; got {tile!r}")
    if b.device.type != "cuda" and not _INTERPRET:
        raise SwizzleKitError(f"tensors on {b.device} need a GPU, or TRITON_INTERPRET=1 for "
                              f"Triton's interpreter")
    rows, cols = b.shape
    out = torch.empty((cols, rows), device=b.device, dtype=b.dtype)
    if out.numel() == 0:
        return out
    block_r, block_c, warps = tile
    tensors = (b.view(torch.int32), out.view(torch.int32))
    args = (rows, cols, *b.stride())
    key = ((b.device.index, *args, *tile, b.data_ptr() % 16)
           if b.device.type == "cuda" and not _INTERPRET else None)
    grid = (-(-rows // block_r), -(-cols // block_c), 1)    # not triton.cdiv: a JIT call
    launch_planned(KMAJOR_PLANS, key, _transpose_kernel, grid, tensors, args,
                   dict(BLOCK_R=block_r, BLOCK_C=block_c), num_warps=warps)
    return out
