"""Aligned copies of an fp8 GEMM's operands in one launch: A (M x K) and Bᵀ (N x K) into
row-major buffers whose rows are K rounded up to 16 bytes, zeros past K.

TMA takes rows only in multiples of 16 bytes, so an fp8 call whose K is not one
(:func:`swizzlekit.kernels.triton.scaled.scaled_matmul`) runs on such copies. Zeros past K
add nothing to the product. Two ``torch.nn.functional.pad`` calls made them before: each
fills its whole buffer and then copies one byte per element, and on the H200 the pair took
56 us at 1999 x 4097 x 3001 (36 MB moved), longer than the GEMM on the copies (49 us).
Here one launch reads each source byte once and writes each destination byte once::

    programs 0 .. ceil(M/R)-1         rows of A,  R at a time   ->  a2 (M x K16)
    programs ceil(M/R) .. +ceil(N/R)  rows of Bᵀ, R at a time   ->  b2 (N x K16)
    each: for every C-wide column block of K16: load (masked at K, zeros past it), store

The first call of a shape and layout compiles and keeps a :class:`~.plans.Plan`; later calls
launch it directly (no JIT binding on the host). tests/kernels/test_pad_interp.py holds the
copies equal to ``torch.nn.functional.pad``'s, byte for byte, under Triton's interpreter.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.call import _INTERPRET
from swizzlekit.kernels.triton.plans import Plan, PlanCache

__all__ = ["pad_k", "PAD_PLANS"]

#: Rows and columns (bytes) each program moves per step; 4 warps, 32 bytes per thread.
BLOCK_R, BLOCK_C = 8, 512

#: Compiled copies by shape, strides and base alignment (:func:`pad_k`).
PAD_PLANS = PlanCache(256)


# ------------------------------------------------------------------------------------ kernel
@triton.jit
def _pad_rows(src, dst, block, rows, K, K16, stride_r, stride_k, BLOCK_R: tl.constexpr,
              BLOCK_C: tl.constexpr):
    r = (block * BLOCK_R + tl.arange(0, BLOCK_R)).to(tl.int64)
    inside = r[:, None] < rows
    for c0 in range(0, K16, BLOCK_C):
        c = c0 + tl.arange(0, BLOCK_C)
        x = tl.load(src + r[:, None] * stride_r + c[None, :] * stride_k,
                    mask=inside & (c[None, :] < K), other=0)
        tl.store(dst + r[:, None] * K16 + c[None, :], x, mask=inside & (c[None, :] < K16))


@triton.jit
def _pad_pair_kernel(a_ptr, a2_ptr, b_ptr, b2_ptr, M, N, K, K16, stride_am, stride_ak,
                     stride_bn, stride_bk, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    blocks_a = tl.cdiv(M, BLOCK_R)
    if pid < blocks_a:
        _pad_rows(a_ptr, a2_ptr, pid, M, K, K16, stride_am, stride_ak, BLOCK_R, BLOCK_C)
    else:
        _pad_rows(b_ptr, b2_ptr, pid - blocks_a, N, K, K16, stride_bn, stride_bk, BLOCK_R,
                  BLOCK_C)


# ---------------------------------------------------------------------------------- launcher
def pad_k(a, bt):
    """``(a2, b2)``: one-byte ``a`` (M x K) and ``bt`` (N x K), any strides, copied into fresh
    row-major M x K16 and N x K16 buffers of their dtype, K16 = K rounded up to 16, zeros
    past K."""
    import torch

    if a.dim() != 2 or bt.dim() != 2 or a.shape[1] != bt.shape[1]:
        raise SwizzleKitError(f"pad_k takes M x K and N x K tensors, got {tuple(a.shape)} and "
                              f"{tuple(bt.shape)}")
    if a.element_size() != 1 or bt.element_size() != 1 or a.device != bt.device:
        raise SwizzleKitError(f"pad_k takes one-byte tensors on one device, got {a.dtype} on "
                              f"{a.device} and {bt.dtype} on {bt.device}")
    if a.device.type != "cuda" and not _INTERPRET:
        raise SwizzleKitError(f"tensors on {a.device} need a GPU, or TRITON_INTERPRET=1 for "
                              f"Triton's interpreter")
    (M, K), N = a.shape, bt.shape[0]
    k16 = -(-K // 16) * 16
    a2 = torch.empty((M, k16), device=a.device, dtype=a.dtype)
    b2 = torch.empty((N, k16), device=a.device, dtype=bt.dtype)
    if (M == 0 and N == 0) or k16 == 0:
        return a2, b2
    tensors = (a.view(torch.uint8), a2.view(torch.uint8), bt.view(torch.uint8),
               b2.view(torch.uint8))
    rest = (M, N, K, k16, *a.stride(), *bt.stride(), BLOCK_R, BLOCK_C)
    on_gpu = a.device.type == "cuda"
    key = ((a.device.index, *rest, a.data_ptr() % 16, bt.data_ptr() % 16) if on_gpu else None)
    plan = PAD_PLANS.get(key) if key is not None else None
    if plan is not None:
        plan(*tensors)
        return a2, b2
    grid = (triton.cdiv(M, BLOCK_R) + triton.cdiv(N, BLOCK_R), 1, 1)
    compiled = _pad_pair_kernel[grid](*tensors, *rest[:-2], BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    if key is not None and _plannable(compiled):
        PAD_PLANS.put(key, Plan(compiled, grid, rest, {}))
    return a2, b2


def _plannable(compiled) -> bool:
    """Whether the compiled kernel takes its arguments as :class:`Plan` passes them (every
    argument of the JIT signature, in order); elsewhere each call goes through the JIT."""
    signature = getattr(getattr(compiled, "src", None), "signature", None)
    return (signature is not None and hasattr(compiled, "packed_metadata")
            and list(signature) == list(_pad_pair_kernel.arg_names))
