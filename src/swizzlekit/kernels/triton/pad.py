"""Launch stage: aligned copies of GEMM operands: an fp8 call's A (M x K) and Bᵀ (N x K) in one
launch into row-major buffers whose rows are K rounded up to 16 bytes, zeros past K
(:func:`pad_k`), or any one tensor into a larger zero-padded row-major buffer (:func:`pad_to`,
for ``matmul``).

TMA takes rows only in multiples of 16 bytes, so an fp8 call whose K is not one
(:func:`swizzlekit.kernels.triton.scaled.scaled_matmul`) runs on such copies. Zeros past K
add nothing to the product. Two ``torch.nn.functional.pad`` calls made them before: each
fills its whole buffer and then copies one byte per element, and on the H200 the pair took
56 us at 1999 x 4097 x 3001 (36 MB moved), longer than the GEMM on the copies (49 us).
Here one launch reads each source byte once and writes each destination byte once, one
tile of R rows and C bytes per program::

    program (i, j), i < ceil(M/R)     rows iR.. of A,  bytes jC.. of them  ->  a2 (M x K16)
    program (i, j), i >= ceil(M/R)    rows of Bᵀ the same way               ->  b2 (N x K16)
    each: load (masked at K, zeros past it), store (nothing where jC is past the row)

Rows past the source's (``pad_to``'s larger row counts) are stored as zeros too. Elements of
2 and 4 bytes move as integers of their size, C = 2048 bytes either way.

The first call of a shape and layout compiles and keeps a :class:`~.plans.Plan`; later calls
launch it directly (no JIT binding on the host). tests/kernels/test_pad_interp.py holds the
copies equal to ``torch.nn.functional.pad``'s, byte for byte, under Triton's interpreter.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.configs import _INTERPRET
from swizzlekit.kernels.triton.plans import PlanCache, launch_planned
from swizzlekit.kernels.triton.routes import fingerprint

__all__ = ["pad_k", "pad_pair", "pad_to", "PAD_PLANS"]

#: Rows, and bytes of a row, each program moves: 16 KiB, 4 warps, 128 bytes a thread. Of the
#: five tiles timed on the H100 (2026-11-26, docs/data/bench/pad_copy/), the only one within
#: 5% of the fastest in all four cases: against the row-looping copy before it, a pitched
#: bf16 B of 40 and 42 MB in 34.0 and 35.3 us (39.0, 43.6), a ragged call's A and B in
#: 17.3 us (21.6), an fp8 call's A and Bᵀ in 11.7 us (12.2).
BLOCK_R, BLOCK_C = 8, 2048

#: Compiled copies by shape, strides and base alignment (:func:`pad_k`).
PAD_PLANS = PlanCache(256)
#: Repeat calls by the tensors' print (:func:`_print`): the plan, so that a call seen before
#: skips the door and the key (host time: the ragged GEMM's repeat calls are bound by it,
#: docs/data/bench/host_ragged/).
_REPEATS = PlanCache(256)


def _print(a, a_to, b, b_to) -> tuple | None:
    """What decides a copy's plan: the tensors' fingerprint as the GEMM's routes read it
    (:func:`.routes.fingerprint`: shape, strides, dtype, device, base alignment), the
    buffers' shapes and the tile (:data:`BLOCK_R`, :data:`BLOCK_C`); None where an argument
    lacks them (the door then says what is wrong)."""
    return fingerprint((a, b), (BLOCK_R, BLOCK_C, a_to, b_to))


# ------------------------------------------------------------------------------------ kernel
@triton.jit
def _pad_tile(src, dst, rblock, cblock, rows, cols_v, rows2, cols2_v, stride_rv, stride_c,
              BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr, VEC: tl.constexpr):
    # the column counts and the row stride come divided by VEC, so that Triton sees them as
    # multiples of VEC: 16-byte loads and stores, and masks constant over each 16 bytes
    cols, cols2, stride_r = cols_v * VEC, cols2_v * VEC, stride_rv * VEC
    if cblock * BLOCK_C < cols2:        # else past this tensor's rows: nothing to move
        r = (rblock * BLOCK_R + tl.arange(0, BLOCK_R)).to(tl.int64)
        c = cblock * BLOCK_C + tl.arange(0, BLOCK_C)
        x = tl.load(src + r[:, None] * stride_r + c[None, :] * stride_c,
                    mask=(r[:, None] < rows) & (c[None, :] < cols), other=0)
        tl.store(dst + r[:, None] * cols2 + c[None, :], x,
                 mask=(r[:, None] < rows2) & (c[None, :] < cols2))


@triton.jit
def _pad_pair_kernel(a_ptr, a2_ptr, b_ptr, b2_ptr, rows_a, cols_a, rows2_a, cols2_a, stride_a0,
                     stride_a1, rows_b, cols_b, rows2_b, cols2_b, stride_b0, stride_b1,
                     BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr, VEC_A: tl.constexpr,
                     VEC_B: tl.constexpr):
    pid, cblock = tl.program_id(0), tl.program_id(1)
    blocks_a = tl.cdiv(rows2_a, BLOCK_R)
    if pid < blocks_a:
        _pad_tile(a_ptr, a2_ptr, pid, cblock, rows_a, cols_a, rows2_a, cols2_a, stride_a0,
                  stride_a1, BLOCK_R, BLOCK_C, VEC_A)
    else:
        _pad_tile(b_ptr, b2_ptr, pid - blocks_a, cblock, rows_b, cols_b, rows2_b, cols2_b,
                  stride_b0, stride_b1, BLOCK_R, BLOCK_C, VEC_B)


def _vec(t, cols2: int) -> int:
    """Elements per 16 bytes where ``t``'s rows, and the copy's, can move 16 bytes at a time
    (unit column stride, a 16-byte aligned base, row stride and both row lengths multiples of
    16 bytes), else 1. Triton sees an integer's divisibility only by 16 elements, so a row
    stride such as B's 5000 in 3000x5000x4000 bf16 hid the rows' alignment from it. On the
    H100 that copy (40 MB) took 40.0 us before and 38.8 us with the hint
    (docs/data/bench/pitch_h100_2026-11-25/), and 34.0 us as tiles of 8 rows (BLOCK_R)."""
    per = 16 // t.element_size()
    whole = t.stride(1) == 1 and t.data_ptr() % 16 == 0
    return per if whole and all(v % per == 0 for v in (t.stride(0), t.shape[1], cols2)) else 1


# ---------------------------------------------------------------------------------- launcher
def pad_k(a, bt):
    """``(a2, b2)``: one-byte ``a`` (M x K) and ``bt`` (N x K), any strides, copied into fresh
    row-major M x K16 and N x K16 buffers of their dtype, K16 = K rounded up to 16, zeros
    past K."""
    if a.dim() != 2 or bt.dim() != 2 or a.shape[1] != bt.shape[1]:
        raise SwizzleKitError(f"pad_k takes M x K and N x K tensors, got {tuple(a.shape)} and "
                              f"{tuple(bt.shape)}")
    if a.element_size() != 1 or bt.element_size() != 1 or a.device != bt.device:
        raise SwizzleKitError(f"pad_k takes one-byte tensors on one device, got {a.dtype} on "
                              f"{a.device} and {bt.dtype} on {bt.device}")
    k16 = -(-a.shape[1] // 16) * 16
    return pad_pair(a, (a.shape[0], k16), bt, (bt.shape[0], k16))


def pad_to(t, rows: int, cols: int):
    """``t`` (2-D, elements of 1, 2 or 4 bytes, any strides) copied into a fresh row-major
    ``rows`` x ``cols`` buffer of its dtype, zeros past its own rows and columns."""
    return pad_pair(t, (rows, cols), None, (0, 0))[0]


def planned_copy(a, a_to: tuple, b, b_to: tuple):
    """The plan a repeat :func:`pad_pair` of these arguments launches, or None where none was
    planned (no call yet, or Triton's interpreter)."""
    print_ = _print(a, a_to, b, b_to)
    return _REPEATS.get(print_) if print_ is not None else None


def launch_copy(plan, a: int, a2: int, b: int | None = None, b2: int | None = None) -> None:
    """Launch a :func:`planned_copy` answer on the device addresses of ``a`` and its buffer
    ``a2``, and of ``b`` and ``b2`` (None: ``a`` alone). Integers, not tensors: Triton's
    launcher takes an integer as the address itself, where a tensor costs it a call for
    ``data_ptr`` and a driver query of the pointer, and the caller a view of each as the
    plan's integers."""
    if b is None:
        b, b2 = a, a2                                   # no B: A's, never read
    plan(a, a2, b, b2)


def pad_pair(a, a_to: tuple, b, b_to: tuple):
    """``(a2, b2)``: ``a`` and ``b`` (2-D, elements of one size: 1, 2 or 4 bytes; any strides)
    copied in one launch into fresh row-major buffers of shapes ``a_to`` and ``b_to``, zeros
    past their own rows and columns (``b`` None: ``a``'s only, and ``b2`` None). From the
    second call of a shape, layout and base alignment on, the launch goes through a plan."""
    import torch

    print_ = _print(a, a_to, b, b_to)
    repeat = _REPEATS.get(print_) if print_ is not None else None
    if repeat is not None:          # the same tensors' layout as a call that passed the door
        a2 = torch.empty(a_to, device=a.device, dtype=a.dtype)
        b2 = torch.empty(b_to, device=a.device, dtype=b.dtype) if b is not None else None
        if b is None:
            launch_copy(repeat, a.data_ptr(), a2.data_ptr())
        else:
            launch_copy(repeat, a.data_ptr(), a2.data_ptr(), b.data_ptr(), b2.data_ptr())
        return a2, b2
    for t in (a, b) if b is not None else (a,):
        if not isinstance(t, torch.Tensor):
            raise SwizzleKitError(f"aligned copies take torch tensors, got {type(t).__name__}")
    for t, to in ((a, a_to), (b, b_to)):
        if t is not None and (t.dim() != 2 or len(to) != 2 or to[0] < t.shape[0]
                              or to[1] < t.shape[1]):
            raise SwizzleKitError(f"aligned copies take 2-D tensors into buffers no smaller, "
                                  f"got {tuple(t.shape)} into {tuple(to)}")
    ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32}
    size = a.element_size()
    if size not in ints or (b is not None and (b.element_size() != size or b.device != a.device)):
        raise SwizzleKitError(f"aligned copies take elements of 1, 2 or 4 bytes on one device, "
                              f"got {a.dtype}" + (f" and {b.dtype}" if b is not None else ""))
    if a.device.type != "cuda" and not _INTERPRET:
        raise SwizzleKitError(f"tensors on {a.device} need a GPU, or TRITON_INTERPRET=1 for "
                              f"Triton's interpreter")
    a2 = torch.empty(a_to, device=a.device, dtype=a.dtype)
    b2 = torch.empty(b_to, device=a.device, dtype=b.dtype) if b is not None else None
    if b is None:
        b, b2 = a, a2                                   # never read: no program of b's
    rows2_b = b_to[0] if b2 is not a2 else 0
    if a2.numel() == 0 and (rows2_b == 0 or b2.numel() == 0):
        return a2, (b2 if b2 is not a2 else None)
    as_int = ints[size]
    tensors = (a.view(as_int), a2.view(as_int), b.view(as_int), b2.view(as_int))
    va, vb = _vec(a, a_to[1]), _vec(b, b_to[1])
    args = (a.shape[0], a.shape[1] // va, a_to[0], a_to[1] // va, a.stride(0) // va,
            a.stride(1), b.shape[0], b.shape[1] // vb, rows2_b, b_to[1] // vb,
            b.stride(0) // vb, b.stride(1))
    constexprs = dict(BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C // size, VEC_A=va, VEC_B=vb)
    key = ((a.device.index, *args, *constexprs.values(), a.data_ptr() % 16, b.data_ptr() % 16)
           if a.device.type == "cuda" and not _INTERPRET else None)
    widest = max(a_to[1], b_to[1] if rows2_b else 0)
    grid = (triton.cdiv(a_to[0], BLOCK_R) + triton.cdiv(rows2_b, BLOCK_R),
            triton.cdiv(widest, BLOCK_C // size), 1)
    plan = launch_planned(PAD_PLANS, key, _pad_pair_kernel, grid, tensors, args, constexprs)
    if plan is not None and print_ is not None:
        _REPEATS.put(print_, plan)
    return a2, (b2 if b2 is not a2 else None)

