"""Kernel: the 16-bit and fp32 GEMM with tiles loaded by pointers, any strides and any
alignment, under any CTA order: ``_matmul_kernel``, which :mod:`.matmul` launches (where TMA
cannot read the operands, or measured no faster: ``matmul_configs.tma_by_size``).

The K loop is :func:`.tiles._pointer_acc`, shared with the fp8 kernel; split K's partial sums
are :mod:`.split_k`'s. Config selection, the prune and the block shapes are
:mod:`.matmul_configs`'s; the tile order is :mod:`.tiles`'s.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.kernels.triton.footprint import vec_hint
from swizzlekit.kernels.triton.matmul_configs import _configs, _prune
from swizzlekit.kernels.triton.split_k import _k_range, _split_sum
from swizzlekit.kernels.triton.tiles import _launch_slots, _multiple, _pointer_acc, _tile
from swizzlekit.kernels.triton.tuning import _autotune

__all__: list[str] = []     # kernel internals: imported by name by .matmul


#: Whether the pointer kernel masks B's columns instead of wrapping them (:func:`_mask_n`);
#: a switch for measuring the two against each other (docs/data/bench/JOURNAL.md), on by default.
MASK_UNALIGNED_N = True


def _mask_n(N: int, stride_bn: int) -> bool:
    """Mask B's columns past N where B's rows run along N and N is no multiple of 16 (Triton
    specializes integers on divisibility by 16, so it then cannot see past ``% N``)."""
    return MASK_UNALIGNED_N and stride_bn == 1 and N % 16 != 0


@triton.jit
def _compute_tile(a_ptr, b_ptr, c_ptr, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  PRECISION: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  EVEN_K: tl.constexpr, SPLIT_K: tl.constexpr, SWAP_AB: tl.constexpr,
                  MASK_N: tl.constexpr, VEC: tl.constexpr):
    first, last = _k_range(K, BLOCK_K, SPLIT_K)
    acc = _pointer_acc(a_ptr, b_ptr, pid_m, pid_n, M, N, K, first, last, stride_am, stride_ak,
                       stride_bk, stride_bn, PRECISION, BLOCK_M, BLOCK_N, BLOCK_K, EVEN_K,
                       SWAP_AB, MASK_N, VEC)
    stride_cm, N = _multiple(stride_cm, VEC), _multiple(N, VEC)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    inside = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    if SPLIT_K > 1:         # the last split of the tile writes the sum of all S
        acc, last = _split_sum(acc, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M, BLOCK_M,
                               BLOCK_N)
        if last:
            tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=inside)
    else:
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=inside)


@_autotune("pointer", configs=_configs(swap=True), key=["M", "N", "K", "ORDER", "P", "PERSISTENT",
                                            "PRECISION", "SPLIT_K"],
           prune_configs_by={"early_config_prune": _prune})
@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0,
                    "MASK_N": lambda args: _mask_n(args["N"], args["stride_bn"]),
                    "VEC": lambda args: vec_hint(args, args["a_ptr"].element_size())})
@triton.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, ws_ptr, counts_ptr, M, N, K, stride_am, stride_ak,
                   stride_bk, stride_bn, stride_cm, stride_cn, ORDER: tl.constexpr, P: tl.constexpr,
                   PERSISTENT: tl.constexpr, NUM_PROGRAMS, PRECISION: tl.constexpr,
                   SPLIT_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr, SWAP_AB: tl.constexpr,
                   MASK_N: tl.constexpr, VEC: tl.constexpr):
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    slots = _launch_slots(tiles_m, tiles_n, ORDER, P)
    # Two branches on purpose: folding the one-tile case into the persistent loop (a loop of
    # one iteration) measured 4% slower on the H200 for this pointer-load kernel.
    if PERSISTENT:
        for slot in range(tl.program_id(0), slots, NUM_PROGRAMS):
            pid_m, pid_n = _tile(slot, tiles_m, tiles_n, ORDER, P)
            if (pid_m < tiles_m) & (pid_n < tiles_n):
                _compute_tile(a_ptr, b_ptr, c_ptr, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M,
                              N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                              stride_cn, PRECISION, BLOCK_M, BLOCK_N, BLOCK_K, EVEN_K, SPLIT_K,
                              SWAP_AB, MASK_N, VEC)
    else:
        pid_m, pid_n = _tile(tl.program_id(0), tiles_m, tiles_n, ORDER, P)
        if (pid_m < tiles_m) & (pid_n < tiles_n):
            _compute_tile(a_ptr, b_ptr, c_ptr, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M, N,
                          K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                          PRECISION, BLOCK_M, BLOCK_N, BLOCK_K, EVEN_K, SPLIT_K, SWAP_AB, MASK_N,
                          VEC)
