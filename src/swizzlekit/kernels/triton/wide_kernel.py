"""Kernel and launch stage: the 16-bit GEMM in composite tiles, ``BLOCK_M x (BN1 + BN2)``
(:class:`.waves.WideTile`), under any CTA order: ``_matmul_wide_kernel``, which
:mod:`.matmul` times against its autotuned config where :func:`.waves.wide_for` names a tile.

Each K step loads A's tile once and B's in two TMA boxes, and runs two products side by side
into two accumulators; C leaves in two boxes. TMA zero-fills past K and N and clips the stores
at M and N, so ragged edges cost no mask::

       n0           n0 + BN1      n0 + BN1 + BN2
       |--- BN1 (128) ---|-- BN2 --|
    A [BM x BK] . B1 [BK x BN1]  ->  acc1 [BM x BN1]   C1 box at (m0, n0)
    A [BM x BK] . B2 [BK x BN2]  ->  acc2 [BM x BN2]   C2 box at (m0, n0 + BN1)

Reads top to bottom: kernel, descriptors, launch (a :class:`.plans.Plan`, so that a repeat
call launches it as it does the other kernels). Its checks against float64 are the tests'
(``tests/kernels/test_wide_interp.py``, ``tests/gpu/test_wide_gpu.py``).
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.kernels.triton.plans import Plan, plannable
from swizzlekit.kernels.triton.tiles import _tile
from swizzlekit.kernels.triton.waves import WideTile

__all__ = ["wide_descriptors", "wide_plan", "launch_wide", "wide_label"]


# ------------------------------------------------------------------------------------ kernel
@triton.jit
def _matmul_wide_kernel(a_desc, b1_desc, b2_desc, c1_desc, c2_desc, M, N, K,
                        ORDER: tl.constexpr, P: tl.constexpr, BLOCK_M: tl.constexpr,
                        BN1: tl.constexpr, BN2: tl.constexpr, BLOCK_K: tl.constexpr):
    """The tile of launch slot ``program_id(0)`` under ``ORDER`` (none where the slot lands
    outside the grid: CUTLASS, zlayer, Morton and Hilbert launch more slots than tiles)."""
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BN1 + BN2)
    pid_m, pid_n = _tile(tl.program_id(0), tiles_m, tiles_n, ORDER, P)
    if (pid_m < tiles_m) & (pid_n < tiles_n):
        m0 = pid_m * BLOCK_M
        n0 = pid_n * (BN1 + BN2)
        acc1 = tl.zeros((BLOCK_M, BN1), dtype=tl.float32)
        acc2 = tl.zeros((BLOCK_M, BN2), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = a_desc.load([m0, k * BLOCK_K])
            acc1 = tl.dot(a, b1_desc.load([k * BLOCK_K, n0]), acc1)
            acc2 = tl.dot(a, b2_desc.load([k * BLOCK_K, n0 + BN1]), acc2)
        c1_desc.store([m0, n0], acc1.to(c1_desc.dtype))
        c2_desc.store([m0, n0 + BN1], acc2.to(c2_desc.dtype))


# ------------------------------------------------------------------------------- descriptors
def _config(tile: WideTile) -> dict:
    """A composite tile as the kernel's block constants."""
    return {"BLOCK_M": tile.block_m, "BN1": tile.bn1, "BN2": tile.bn2, "BLOCK_K": tile.block_k}


def wide_descriptors(a, b, c, config: dict) -> list:
    """The kernel's five TMA descriptors: A's tile, B's two boxes and C's two, under
    ``config`` (the kernel's block constants, :func:`_config`)."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    bm, bn1, bn2, bk = (config[k] for k in ("BLOCK_M", "BN1", "BN2", "BLOCK_K"))
    blocks = ((a, [bm, bk]), (b, [bk, bn1]), (b, [bk, bn2]), (c, [bm, bn1]), (c, [bm, bn2]))
    return [TensorDescriptor(t, list(t.shape), list(t.stride()), block) for t, block in blocks]


def wide_label(config: dict, info: dict) -> str:
    """A wide plan's tile, as :attr:`.waves.WideTile.label` writes it.

    >>> wide_label({"BLOCK_M": 128, "BN1": 128, "BN2": 32, "BLOCK_K": 64},
    ...            {"num_stages": 4, "num_warps": 8})
    '128x(128+32)x64/s4/w8'
    """
    return WideTile(config["BLOCK_M"], config["BN1"], config["BN2"], config["BLOCK_K"],
                    info["num_stages"], info["num_warps"]).label


# ------------------------------------------------------------------------------------ launch
def wide_plan(a, b, c, tile: WideTile, order: str, p: int, slots) -> Plan | None:
    """Compute ``c = a @ b`` in ``tile`` under the kernel order ``order`` and parameter ``p``
    (``slots(tiles_m, tiles_n)``: the order's launch slots), compiling on first use, and
    return the launch as a :class:`.plans.Plan` for repeat calls (None where this Triton's
    compiled kernel cannot be planned). A, B and C row-major, their rows 16-byte aligned."""
    M, K = a.shape
    N = b.shape[1]
    config = _config(tile)
    grid = (slots(-(-M // tile.block_m), -(-N // tile.width)), 1, 1)
    consts = dict(ORDER=order, P=p, **config)
    compiled = _matmul_wide_kernel[grid](*wide_descriptors(a, b, c, config), M, N, K,
                                         **consts, num_stages=tile.stages,
                                         num_warps=tile.warps)
    if not plannable(compiled, _matmul_wide_kernel):
        return None
    names = _matmul_wide_kernel.arg_names[5:]
    values = dict(M=M, N=N, K=K, **consts)
    return Plan(compiled, grid, tuple(values[n] for n in names), config,
                {"num_stages": tile.stages, "num_warps": tile.warps, "ORDER": order, "P": p})


def launch_wide(plan: Plan, a, b, c) -> None:
    """A repeat call of a wide plan (:func:`wide_plan`) on A, B and C: the encoded descriptors
    of addresses seen before are reused (:meth:`.plans.Plan.tma`)."""
    plan.tma((a, b, c), lambda: wide_descriptors(a, b, c, plan.config))

