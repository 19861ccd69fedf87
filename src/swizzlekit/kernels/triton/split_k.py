"""Split-K: the K loop split S ways into fp32 planes, and the pass that adds them.

``matmul(..., split_k=S)`` launches its tiles S times over (program id 1). Split s of S takes
an even share of the K steps (:func:`_k_range`; the last shares may be short or empty) and
stores its fp32 partial tile into plane s of an S x M x N workspace (:func:`_store_partial`).
A second kernel, :func:`_sum_splits`, adds the planes into C in C's dtype and strides::

    K steps   0 1 2 3 | 4 5 6 7 | 8 9 . .        S = 3, 10 steps: shares of 4, 4, 2
    planes    ws[0]     ws[1]     ws[2]    ->  C = ws[0] + ws[1] + ws[2]

:func:`split_k_for` suggests S by shape. It is not the default (docs/benchmarks.md: on the
H200 it cut GPU time but its extra host work made small calls host-bound).
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.errors import SwizzleKitError, check_int
from swizzlekit.kernels.triton.call import _INTERPRET

__all__ = ["split_k_for", "check_split", "MAX_SPLIT_K", "MIN_STEPS_PER_SPLIT", "MAX_WORKSPACE"]


#: Split-K: at most this many splits, and never fewer than this many K steps of 64 a split.
MAX_SPLIT_K, MIN_STEPS_PER_SPLIT = 8, 4


def split_k_for(M: int, N: int, K: int, sms: int) -> int:
    """How many ways to split K when the output is too small to fill the GPU: for M up to
    512 (decode-like calls), doubling while the 128x128 tiles times the splits still fit in
    one wave of ``sms`` and each split keeps at least 4 steps of 64.

    >>> split_k_for(64, 4096, 4096, 132), split_k_for(16, 14336, 4096, 132)
    (4, 1)
    >>> split_k_for(4096, 4096, 4096, 132)
    1
    """
    M, N, K, sms = (check_int(name, v) for name, v in (("M", M), ("N", N), ("K", K),
                                                        ("sms", sms)))
    tiles = triton.cdiv(M, 128) * triton.cdiv(N, 128)
    steps = triton.cdiv(K, 64)
    s = 1
    while (M <= 512 and 2 * s <= MAX_SPLIT_K and 2 * s * tiles <= sms
           and steps // (2 * s) >= MIN_STEPS_PER_SPLIT):
        s *= 2
    return s


#: The workspace is indexed in 32-bit arithmetic by the adding pass: S x M x N elements.
MAX_WORKSPACE = 2**31 - 1


def check_split(split_k, persistent: bool, M: int = 1, N: int = 1) -> None:
    """The door for ``matmul``'s ``split_k``: None or 1 to 16, not with a persistent grid,
    and a workspace of S x M x N fp32 elements within :data:`MAX_WORKSPACE`."""
    if split_k is None:
        return
    if isinstance(split_k, bool) or not isinstance(split_k, int) or not 1 <= split_k <= 16:
        raise SwizzleKitError(f"split_k must be an integer from 1 to 16 (None means 1); got "
                              f"{split_k!r}")
    if persistent and split_k > 1:
        raise SwizzleKitError("split_k > 1 does not combine with persistent=True; choose one")
    if split_k > 1 and split_k * M * N > MAX_WORKSPACE:
        raise SwizzleKitError(f"split_k={split_k} on a {M}x{N} output needs {split_k * M * N} "
                              f"workspace elements; at most {MAX_WORKSPACE} (2**31 - 1) are "
                              f"addressed: use a smaller split_k")


@triton.jit
def _k_range(K, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """The K steps of this program's split (program id 1): split s of S takes an even share."""
    steps = tl.cdiv(K, BLOCK_K)
    share = tl.cdiv(steps, SPLIT_K)
    first = tl.program_id(1) * share
    return first, tl.minimum(steps, first + share)


@triton.jit
def _store_partial(ws_ptr, acc, pid_m, pid_n, M, N, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr):
    """Split-K: this split's fp32 partial tile into plane ``program_id(1)`` of the workspace
    (S x M x N, row-major); :func:`_sum_splits` adds the planes."""
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    plane = ws_ptr + tl.program_id(1).to(tl.int64) * M * N
    tl.store(plane + offs_m[:, None].to(tl.int64) * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.autotune(configs=[triton.Config({"BLOCK": 32 if _INTERPRET else 1024}, num_warps=4)],
                 key=[])                 # one config: nothing to tune, but a plan can take it
@triton.jit
def _sum_splits(ws_ptr, c_ptr, M, N, stride_cm, stride_cn, SPLIT_K: tl.constexpr,
                BLOCK: tl.constexpr):
    """Split-K's second pass: C = the sum of the S fp32 planes, in C's dtype and strides."""
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < M * N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in tl.static_range(SPLIT_K):
        acc += tl.load(ws_ptr + s * M * N + offs, mask=inside, other=0.0)
    m, n = offs // N, offs % N
    tl.store(c_ptr + m * stride_cm + n * stride_cn, acc.to(c_ptr.dtype.element_ty), mask=inside)

