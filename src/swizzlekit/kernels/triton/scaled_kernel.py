"""Kernel: the fp8 GEMM with scales that :mod:`.scaled` launches, by pointer loads
(``_scaled_kernel``) and by the tensor memory accelerator (``_scaled_tma_kernel``), under any
CTA order.

Each tile runs its K loop into an fp32 accumulator, then the scaled epilogue: the scales
(one value per tensor, or one per row of A and column of B) and C's store, by TMA or masked
stores (:func:`.tiles._store_c`). Split K's partial sums (``SPLIT_K``) and the tail split's
(``TAIL``) are :mod:`.split_k`'s; config lists, prune and order pick are
:mod:`.scaled_configs`'s; the tile order is :mod:`.tiles`'s.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.kernels.triton.scaled_configs import _configs, _prune
from swizzlekit.kernels.triton.split_k import (_k_range, _split_sum, _tail_plan, _tail_share,
                                              _tail_sum)
from swizzlekit.kernels.triton.tiles import (_launch_slots, _pointer_acc, _set_blocks_of,
                                             _store_c, _tile)
from swizzlekit.kernels.triton.tuning import _autotune

__all__: list[str] = []     # kernel internals: imported by name by .scaled


@triton.jit
def _scaled(acc, sa_ptr, sb_ptr, offs_m, offs_n, M, N, ROWWISE: tl.constexpr):
    """The accumulator times the scales: per tensor, or per row of A and column of B."""
    if ROWWISE:
        sa = tl.load(sa_ptr + offs_m, mask=offs_m < M, other=0.0)
        sb = tl.load(sb_ptr + offs_n, mask=offs_n < N, other=0.0)
        return acc * sa[:, None] * sb[None, :]
    return acc * (tl.load(sa_ptr) * tl.load(sb_ptr))


@_autotune("fp8_pointer", configs=_configs(),
           key=["M", "N", "K", "ORDER", "P", "ROWWISE", "SPLIT_K"],
           prune_configs_by={"early_config_prune": _prune})
@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0})
@triton.jit
def _scaled_kernel(a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, ws_ptr, counts_ptr, M, N, K, stride_am,
                   stride_ak, stride_bk, stride_bn, stride_cm, stride_cn, ORDER: tl.constexpr,
                   P: tl.constexpr, ROWWISE: tl.constexpr, SPLIT_K: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   EVEN_K: tl.constexpr):
    """Pointer loads: any strides of A and B (the K loop masks a short last step).
    ``SPLIT_K``: the K loop split over program id 1, the last split adding (:mod:`.split_k`)."""
    tiles_m, tiles_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
    pid_m, pid_n = _tile(tl.program_id(0), tiles_m, tiles_n, ORDER, P)
    if (pid_m < tiles_m) & (pid_n < tiles_n):
        # the 16-bit GEMM's K loop; "tf32" is Triton's default input precision, which fp8
        # operands ignore
        first, last = _k_range(K, BLOCK_K, SPLIT_K)
        acc = _pointer_acc(a_ptr, b_ptr, pid_m, pid_n, M, N, K, first, last, stride_am,
                           stride_ak, stride_bk, stride_bn, "tf32", BLOCK_M, BLOCK_N, BLOCK_K,
                           EVEN_K, False, False, 1)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
        inside = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        if SPLIT_K > 1:     # the last split of the tile scales and writes the sum of all S
            acc, last_split = _split_sum(acc, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M,
                                         BLOCK_M, BLOCK_N)
            if last_split:
                acc = _scaled(acc, sa_ptr, sb_ptr, offs_cm, offs_cn, M, N, ROWWISE)
                tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=inside)
        else:
            acc = _scaled(acc, sa_ptr, sb_ptr, offs_cm, offs_cn, M, N, ROWWISE)
            tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=inside)


def _set_blocks(nargs):
    """Autotune pre-hook: the descriptors' block shapes follow the config being tried (C's
    only where it is one: ``C_PTR`` passes C as a pointer)."""
    _set_blocks_of(nargs, True)


@_autotune("fp8_tma", configs=_configs(_set_blocks, flat=True),
           key=["M", "N", "K", "ORDER", "P", "PERSISTENT", "ROWWISE", "OUT_BYTES", "SPLIT_K",
                "TAIL", "C_PTR"],
           prune_configs_by={"early_config_prune": _prune})
@triton.jit
def _scaled_tma_kernel(a_desc, b_desc, c_desc, sa_ptr, sb_ptr, ws_ptr, counts_ptr, M, N, K,
                       stride_cm, stride_cn, ORDER: tl.constexpr, P: tl.constexpr,
                       PERSISTENT: tl.constexpr, NUM_PROGRAMS, ROWWISE: tl.constexpr,
                       OUT_BYTES: tl.constexpr, SPLIT_K: tl.constexpr, TAIL: tl.constexpr,
                       C_PTR: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr, FLAT: tl.constexpr):
    """Tiles moved by TMA (zero-filled past the edges, stores clipped); ``b_desc`` describes
    Bᵀ (N x K), and its tiles are transposed on load. ``PERSISTENT``: ``NUM_PROGRAMS``
    programs walk the launch slots with a stride. ``FLAT``: one program per SM walks the
    tiles in a loop Triton flattens with the K loop (an order whose slots are the tiles).
    ``OUT_BYTES`` (C's element size) only keys the autotuner: descriptors carry no dtype it
    would key on, and the staged C tile's size decides which configs fit. ``SPLIT_K``: as
    the pointer kernel (not with ``FLAT`` or ``PERSISTENT``). ``C_PTR``: ``c_desc`` is C's
    pointer (strides ``stride_cm`` and ``stride_cn``: rows not 16-byte aligned, or C not
    row-major), written by masked stores (:func:`.tiles._store_c`). ``TAIL``: one program per
    SM (``NUM_PROGRAMS``) walks whole waves of tiles in a loop flattened with the K loop, then
    the last partial wave's tiles are split in even shares of their K steps, one program a
    share, as in the 16-bit kernel (:mod:`.tma_kernel`, :func:`.split_k._tail_plan`); the
    share that counts last scales and stores the tile."""
    tiles_m, tiles_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
    slots = _launch_slots(tiles_m, tiles_n, ORDER, P)
    if FLAT:
        for slot in tl.range(tl.program_id(0), slots, tl.num_programs(0), flatten=True):
            pid_m, pid_n = _tile(slot, tiles_m, tiles_n, ORDER, P)
            _scaled_tile(a_desc, b_desc, c_desc, sa_ptr, sb_ptr, ws_ptr, counts_ptr, pid_m,
                         pid_n, tiles_n, M, N, K, stride_cm, stride_cn, ROWWISE, SPLIT_K, C_PTR,
                         BLOCK_M, BLOCK_N, BLOCK_K)
    elif TAIL:
        steps = tl.cdiv(K, BLOCK_K)
        whole, ways = _tail_plan(tiles_m * tiles_n, NUM_PROGRAMS, steps)
        for slot in tl.range(tl.program_id(0), whole, NUM_PROGRAMS, flatten=True):
            pid_m, pid_n = _tile(slot, tiles_m, tiles_n, ORDER, P)
            _scaled_tile(a_desc, b_desc, c_desc, sa_ptr, sb_ptr, ws_ptr, counts_ptr, pid_m,
                         pid_n, tiles_n, M, N, K, stride_cm, stride_cn, ROWWISE, 1, C_PTR,
                         BLOCK_M, BLOCK_N, BLOCK_K)
        tail_tile, first, last = _tail_share(ways, steps)
        if (ways > 1) & (whole + tail_tile < tiles_m * tiles_n):
            pid_m, pid_n = _tile(whole + tail_tile, tiles_m, tiles_n, ORDER, P)
            acc = _scaled_acc(a_desc, b_desc, pid_m, pid_n, first, last, BLOCK_M, BLOCK_N,
                              BLOCK_K)
            acc, added = _tail_sum(acc, ws_ptr, counts_ptr, tail_tile, ways, BLOCK_M, BLOCK_N)
            if added:
                _scaled_store(acc, c_desc, sa_ptr, sb_ptr, pid_m, pid_n, M, N, stride_cm,
                              stride_cn, ROWWISE, C_PTR, BLOCK_M, BLOCK_N)
    else:
        step = NUM_PROGRAMS if PERSISTENT else slots
        for slot in range(tl.program_id(0), slots, step):
            pid_m, pid_n = _tile(slot, tiles_m, tiles_n, ORDER, P)
            if (pid_m < tiles_m) & (pid_n < tiles_n):
                _scaled_tile(a_desc, b_desc, c_desc, sa_ptr, sb_ptr, ws_ptr, counts_ptr, pid_m,
                             pid_n, tiles_n, M, N, K, stride_cm, stride_cn, ROWWISE, SPLIT_K,
                             C_PTR, BLOCK_M, BLOCK_N, BLOCK_K)


@triton.jit
def _scaled_tile(a_desc, b_desc, c_desc, sa_ptr, sb_ptr, ws_ptr, counts_ptr, pid_m, pid_n,
                 tiles_n, M, N, K, stride_cm, stride_cn, ROWWISE: tl.constexpr,
                 SPLIT_K: tl.constexpr, C_PTR: tl.constexpr, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """One tile by TMA: the K loop (this split's share of it), the scales, and the store."""
    first, last = _k_range(K, BLOCK_K, SPLIT_K)
    acc = _scaled_acc(a_desc, b_desc, pid_m, pid_n, first, last, BLOCK_M, BLOCK_N, BLOCK_K)
    if SPLIT_K > 1:         # the last split of the tile scales and writes the sum of all S
        acc, last_split = _split_sum(acc, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M,
                                     BLOCK_M, BLOCK_N)
        if last_split:
            _scaled_store(acc, c_desc, sa_ptr, sb_ptr, pid_m, pid_n, M, N, stride_cm,
                          stride_cn, ROWWISE, C_PTR, BLOCK_M, BLOCK_N)
    else:
        _scaled_store(acc, c_desc, sa_ptr, sb_ptr, pid_m, pid_n, M, N, stride_cm, stride_cn,
                      ROWWISE, C_PTR, BLOCK_M, BLOCK_N)


@triton.jit
def _scaled_acc(a_desc, b_desc, pid_m, pid_n, first, last, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """The fp32 sum over K steps ``first`` to ``last`` of tile ``(pid_m, pid_n)``, by TMA."""
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(first, last):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K]).T
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def _scaled_store(acc, c_desc, sa_ptr, sb_ptr, pid_m, pid_n, M, N, stride_cm, stride_cn,
                  ROWWISE: tl.constexpr, C_PTR: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr):
    """The epilogue of a finished tile: the scales, then C's store (:func:`.tiles._store_c`)."""
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = _scaled(acc, sa_ptr, sb_ptr, offs_cm, offs_cn, M, N, ROWWISE)
    _store_c(c_desc, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, C_PTR, BLOCK_M, BLOCK_N)
