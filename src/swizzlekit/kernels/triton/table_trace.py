"""Kernel (the lab's dispatch probe): the order-table GEMM's traced twins.

The same tile code as :mod:`.table_gemm`'s two kernels, plus, per tile, the SM it ran on and the
global timer (ns) when it started and when it issued its stores, in
``TRACE[3 * slot : 3 * slot + 3]``: :func:`traced`, behind ``swizzlekit lab dispatch``
(:mod:`swizzlekit.lab.experiments.dispatch`).

Reads top to bottom: the trace's reads of the SM id and the timer, kernels, launcher.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.kernels.triton.table_gemm import _meta, _problem, _programs, _tile

__all__ = ["traced"]


# ------------------------------------------------------------------------------------ kernel
@triton.jit
def _smid():
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32,
                                     is_pure=False, pack=1)


@triton.jit
def _now():
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64,
                                     is_pure=False, pack=1)


@triton.jit
def _trace(trace_ptr, slot, start):
    tl.store(trace_ptr + 3 * slot, _smid().to(tl.int64))
    tl.store(trace_ptr + 3 * slot + 1, start)
    tl.store(trace_ptr + 3 * slot + 2, _now())


@triton.jit
def order_table_gemm_traced(a_ptr, b_ptr, c_ptr, order_ptr, trace_ptr, M, N, K,
                            stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            ALIGN: tl.constexpr, B_KMAJOR: tl.constexpr):
    pid = tl.program_id(0)
    start = _now()
    _tile(a_ptr, b_ptr, c_ptr, tl.load(order_ptr + 2 * pid), tl.load(order_ptr + 2 * pid + 1),
          M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
          BLOCK_M, BLOCK_N, BLOCK_K, ALIGN, B_KMAJOR)
    _trace(trace_ptr, pid, start)


@triton.jit
def order_table_gemm_persistent_traced(a_ptr, b_ptr, c_ptr, order_ptr, trace_ptr, M, N, K,
                                       stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                                       stride_cn, TILES, PROGRAMS, BLOCK_M: tl.constexpr,
                                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                       ALIGN: tl.constexpr, B_KMAJOR: tl.constexpr):
    for slot in range(tl.program_id(0), TILES, PROGRAMS):
        start = _now()
        _tile(a_ptr, b_ptr, c_ptr, tl.load(order_ptr + 2 * slot),
              tl.load(order_ptr + 2 * slot + 1), M, N, K, stride_am, stride_ak, stride_bk,
              stride_bn, stride_cm, stride_cn, BLOCK_M, BLOCK_N, BLOCK_K, ALIGN, B_KMAJOR)
        _trace(trace_ptr, slot, start)


# ---------------------------------------------------------------------------------- launcher
def traced(a, b, order, *, config: str = "128x128x64", programs: int | None = None):
    """Run the traced twin once: ``(C, trace, compiled kernel)``, with ``trace[i] = (smid,
    start_ns, end_ns)`` for tile slot ``i`` of ``order``. ``programs``: a persistent grid of
    that many CTAs; by default one CTA per tile. Shapes as in :func:`table_gemm`."""
    import torch

    cfg, M, N, K, table, tiles, out_dtype = _problem(a, b, order, config)
    programs = _programs(programs)
    c = torch.full((M, N), float("nan"), device=a.device, dtype=out_dtype)       # poisoned
    trace = torch.full((tiles, 3), -1, dtype=torch.int64, device=a.device)
    args = (a, b, c, table, trace, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1))
    meta = _meta(cfg, a, b, c, K, N)
    if programs is None:
        kernel = order_table_gemm_traced[(tiles,)](*args, **meta)
    else:
        programs = min(programs, tiles)
        kernel = order_table_gemm_persistent_traced[(programs,)](*args, tiles, programs, **meta)
    return c, trace, kernel
