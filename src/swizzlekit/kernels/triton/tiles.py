"""Kernel parts: a GEMM program's tile: which tile it computes (the CTA order, in the kernel)
and how its operands arrive (the pointer-load K loop, TMA blocks and descriptors). The 16-bit
and TF32 GEMM (:mod:`.matmul`) and the fp8 one (:mod:`.scaled`) share these."""

from __future__ import annotations

import functools

import triton
import triton.language as tl

from swizzlekit.cta import triton as tri

__all__: list[str] = []     # kernel internals: imported by name by .matmul and .scaled


# ------------------------------------------------------------------------------ which tile
@triton.jit
def _log2_square(tiles_m, tiles_n):
    """log2 of the smallest power-of-two square holding the grid (at least 2 x 2)."""
    side = tl.maximum(tiles_m, tiles_n)
    lg = 1
    while (1 << lg) < side:
        lg += 1
    return lg


@triton.jit
def _tile(pid, tiles_m, tiles_n, ORDER: tl.constexpr, P: tl.constexpr):
    if ORDER == "row":
        m, n = tri.row(pid, tiles_m, tiles_n)
    elif ORDER == "col":
        m, n = tri.col(pid, tiles_m, tiles_n)
    elif ORDER == "grouped":
        m, n = tri.grouped(pid, tiles_m, tiles_n, P)
    elif ORDER == "grouped_n":
        m, n = tri.grouped_n(pid, tiles_m, tiles_n, P)
    elif ORDER == "grouped_persistent":
        m, n = tri.grouped_persistent(pid, tiles_m, tiles_n, P)
    elif ORDER == "strip":
        m, n = tri.strip(pid, tiles_m, tiles_n, P)
    elif ORDER == "strip_snake":
        m, n = tri.strip_snake(pid, tiles_m, tiles_n, P)
    elif ORDER == "snake":
        m, n = tri.snake(pid, tiles_m, tiles_n)
    elif ORDER == "cutlass":
        m, n = tri.cutlass(pid, tiles_m, tiles_n, P)
    elif ORDER == "zlayer":
        m, n = tri.zlayer(pid, tiles_m, tiles_n, P)
    elif ORDER == "morton":
        m, n = tri.morton(pid, _log2_square(tiles_m, tiles_n))
    else:
        tl.static_assert(ORDER == "hilbert")
        m, n = tri.hilbert(pid, _log2_square(tiles_m, tiles_n))
    return m, n


@triton.jit
def _launch_slots(tiles_m, tiles_n, ORDER: tl.constexpr, P: tl.constexpr):
    """Launch slots of the order: CUTLASS and zlayer launch grids of their own, Morton and
    Hilbert the enclosing power-of-two square, the others one slot per tile."""
    if ORDER == "cutlass":
        slots = (tiles_m << P) * tl.cdiv(tiles_n, 1 << P)
    elif ORDER == "zlayer":
        slots = tl.cdiv(tiles_n, P) * tiles_m * P
    elif (ORDER == "morton") | (ORDER == "hilbert"):
        slots = 1 << (2 * _log2_square(tiles_m, tiles_n))
    else:
        slots = tiles_m * tiles_n
    return slots


# ------------------------------------------------------------------- how operands arrive
@triton.jit
def _multiple(x, VEC: tl.constexpr):
    """``x``, which the caller knows to be a multiple of ``VEC``, written so that Triton
    knows it too (its divisibility analysis carries through a product by a constant)."""
    if VEC > 1:
        x = (x // VEC) * VEC
    return x


@triton.jit
def _pointer_acc(a_ptr, b_ptr, pid_m, pid_n, M, N, K, first, last, stride_am, stride_ak,
                 stride_bk, stride_bn, PRECISION: tl.constexpr, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr,
                 SWAP_AB: tl.constexpr, MASK_N: tl.constexpr, VEC: tl.constexpr):
    """The tile's fp32 accumulator, A·B over K steps ``[first, last)``, by pointer loads of
    any strides; the 16-bit GEMM and the fp8 one (:mod:`.scaled`) share it. A short last step
    is masked unless ``EVEN_K``; columns past N are masked when ``MASK_N``. ``VEC``
    (:func:`.footprint.vec_hint`) says that A's and B's row strides, K and N are multiples of it."""
    stride_am, stride_bk = _multiple(stride_am, VEC), _multiple(stride_bk, VEC)
    N, K = _multiple(N, VEC), _multiple(K, VEC)
    # rows and columns past the edge wrap around for the loads (always in bounds, no mask);
    # the caller's store is masked, so they are never written
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    if MASK_N:      # B's rows run along N, and N is no multiple of 16: "% N" would hide from
        # Triton that the columns are contiguous, and it would load B element by element
        offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    else:
        offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = (a_ptr + offs_am[:, None] * stride_am
              + (first * BLOCK_K + offs_k[None, :]).to(tl.int64) * stride_ak)
    b_ptrs = (b_ptr + (first * BLOCK_K + offs_k[:, None]).to(tl.int64) * stride_bk
              + offs_bn[None, :] * stride_bn)
    if SWAP_AB:     # 16-bit, few rows: Cᵀ = Bᵀ Aᵀ, so that N fills wgmma's 64-row side
        acc_t = tl.zeros((BLOCK_N, BLOCK_M), dtype=tl.float32)
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(first, last):
        if EVEN_K:
            a = tl.load(a_ptrs)
            if MASK_N:
                b = tl.load(b_ptrs, mask=offs_bn[None, :] < N, other=0.0)
            else:
                b = tl.load(b_ptrs)
        else:
            k_left = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
            b_mask = offs_k[:, None] < k_left
            if MASK_N:
                b_mask = b_mask & (offs_bn[None, :] < N)
            b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        if SWAP_AB:
            acc_t = tl.dot(b.T, a.T, acc_t, input_precision=PRECISION)
        else:
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if SWAP_AB:
        acc = acc_t.T
    return acc


@triton.jit
def _store_c(c, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, C_PTR: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """A TMA kernel's tile into C: ``c`` a descriptor (the copy engine clips the tile at M
    and N), or with ``C_PTR`` C's pointer, written by stores masked at M and N with strides
    ``stride_cm`` and ``stride_cn``: any alignment and any layout, for a C whose rows TMA
    cannot store (no 16-byte multiple apart, or C not row-major)."""
    if C_PTR:
        rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
        cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)).to(tl.int64)
        tl.store(c + rows[:, None] * stride_cm + cols[None, :] * stride_cn,
                 acc.to(c.dtype.element_ty), mask=(rows[:, None] < M) & (cols[None, :] < N))
    else:
        c.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c.dtype))


def _by_tma(a, b, c, c_ptr: bool) -> tuple[tuple, tuple]:
    """A TMA kernel's first three arguments, split into those it takes as descriptors (A, B,
    and C unless ``c_ptr``) and those it takes as pointers (C where ``c_ptr``)."""
    return ((a, b), (c,)) if c_ptr else ((a, b, c), ())


def _set_blocks_of(nargs, b_kmajor: bool) -> None:
    """An autotune pre-hook's work: the descriptors' block shapes follow the config being
    tried (C has none where it comes as a pointer)."""
    for name, block in zip(("a_desc", "b_desc", "c_desc"), _block_shapes(nargs, b_kmajor)):
        if hasattr(nargs[name], "block_shape"):
            nargs[name].block_shape = block


def _block_shapes(meta: dict, b_kmajor: bool) -> tuple[list, list, list]:
    """The TMA blocks of A, B (Bᵀ's when ``b_kmajor``) and C under a config's tile sizes."""
    bm, bn, bk = meta["BLOCK_M"], meta["BLOCK_N"], meta["BLOCK_K"]
    return [bm, bk], [bn, bk] if b_kmajor else [bk, bn], [bm, bn]


@functools.lru_cache(maxsize=16)
def _sms(device) -> int:
    import torch

    return torch.cuda.get_device_properties(device).multi_processor_count


def _one_per_sm(device) -> int:
    """Programs of a launch that runs one per SM (flattened configs, a tail split): the
    device's SMs, or 4 in the interpreter."""
    return _sms(device) if device.type == "cuda" else 4


def _descriptors(tensors, b_kmajor: bool, blocks: dict):
    """TMA descriptors of A, B (or Bᵀ when ``b_kmajor``) and C with the config's blocks."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    return [TensorDescriptor(t, list(t.shape), list(t.stride()), s)
            for t, s in zip(tensors, _block_shapes(blocks, b_kmajor))]
