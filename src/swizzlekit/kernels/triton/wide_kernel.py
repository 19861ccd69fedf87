"""Kernel and launch stage: the 16-bit GEMM in composite tiles, ``(BM1 + BM2) x (BN1 + BN2)``
(:class:`.waves.WideTile`), under any CTA order: ``_matmul_wide_kernel``, which :mod:`.matmul`
times against its autotuned config where :func:`.waves.wide_for` names tiles.

Each K step loads A's tile in one or two TMA boxes and B's in one or two, and runs up to four
products side by side into as many accumulators; C leaves in as many boxes. TMA zero-fills
past M, N and K and clips the stores, so ragged edges cost no mask::

                  n0 -- BN1 (128) --|-- BN2 --|
    m0        A1 [BM1 x BK] . B1 -> acc11    A1 . B2 -> acc12
    m0 + BM1  A2 [BM2 x BK] . B1 -> acc21    A2 . B2 -> acc22      (BM2 = 0: no second row)

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
def _matmul_wide_kernel(a1_desc, a2_desc, b1_desc, b2_desc, c11_desc, c12_desc, c21_desc,
                        c22_desc, M, N, K, ORDER: tl.constexpr, P: tl.constexpr,
                        BM1: tl.constexpr, BM2: tl.constexpr, BN1: tl.constexpr,
                        BN2: tl.constexpr, BLOCK_K: tl.constexpr):
    """The tile of launch slot ``program_id(0)`` under ``ORDER`` (none where the slot lands
    outside the grid: CUTLASS, zlayer, Morton and Hilbert launch more slots than tiles). The
    descriptors of a part that is 0 wide are passed but never read."""
    tiles_m = tl.cdiv(M, BM1 + BM2)
    tiles_n = tl.cdiv(N, BN1 + BN2)
    pid_m, pid_n = _tile(tl.program_id(0), tiles_m, tiles_n, ORDER, P)
    if (pid_m < tiles_m) & (pid_n < tiles_n):
        m0 = pid_m * (BM1 + BM2)
        n0 = pid_n * (BN1 + BN2)
        acc11 = tl.zeros((BM1, BN1), dtype=tl.float32)
        if BN2 > 0:
            acc12 = tl.zeros((BM1, BN2), dtype=tl.float32)
        if BM2 > 0:
            acc21 = tl.zeros((BM2, BN1), dtype=tl.float32)
            if BN2 > 0:
                acc22 = tl.zeros((BM2, BN2), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a1 = a1_desc.load([m0, k * BLOCK_K])
            b1 = b1_desc.load([k * BLOCK_K, n0])
            acc11 = tl.dot(a1, b1, acc11)
            if BN2 > 0:
                b2 = b2_desc.load([k * BLOCK_K, n0 + BN1])
                acc12 = tl.dot(a1, b2, acc12)
            if BM2 > 0:
                a2 = a2_desc.load([m0 + BM1, k * BLOCK_K])
                acc21 = tl.dot(a2, b1, acc21)
                if BN2 > 0:
                    acc22 = tl.dot(a2, b2, acc22)
        c11_desc.store([m0, n0], acc11.to(c11_desc.dtype))
        if BN2 > 0:
            c12_desc.store([m0, n0 + BN1], acc12.to(c12_desc.dtype))
        if BM2 > 0:
            c21_desc.store([m0 + BM1, n0], acc21.to(c21_desc.dtype))
            if BN2 > 0:
                c22_desc.store([m0 + BM1, n0 + BN1], acc22.to(c22_desc.dtype))


# ------------------------------------------------------------------------------- descriptors
def _config(tile: WideTile) -> dict:
    """A composite tile as the kernel's block constants."""
    return {"BM1": tile.bm1, "BM2": tile.bm2, "BN1": tile.bn1, "BN2": tile.bn2,
            "BLOCK_K": tile.block_k}


def wide_descriptors(a, b, c, config: dict) -> list:
    """The kernel's eight TMA descriptors: A's two boxes, B's two and C's four, under
    ``config`` (the kernel's block constants, :func:`_config`); a part 0 wide takes the other
    part's box (never read)."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    bm1, bn1, bk = config["BM1"], config["BN1"], config["BLOCK_K"]
    bm2, bn2 = config["BM2"] or bm1, config["BN2"] or bn1
    blocks = ((a, [bm1, bk]), (a, [bm2, bk]), (b, [bk, bn1]), (b, [bk, bn2]), (c, [bm1, bn1]),
              (c, [bm1, bn2]), (c, [bm2, bn1]), (c, [bm2, bn2]))
    return [TensorDescriptor(t, list(t.shape), list(t.stride()), block) for t, block in blocks]


def wide_label(config: dict, info: dict) -> str:
    """A wide plan's tile, as :attr:`.waves.WideTile.label` writes it.

    >>> wide_label({"BM1": 128, "BM2": 0, "BN1": 128, "BN2": 32, "BLOCK_K": 64},
    ...            {"num_stages": 4, "num_warps": 8})
    '128x(128+32)x64/s4/w8'
    """
    return WideTile(config["BM1"], config["BM2"], config["BN1"], config["BN2"],
                    config["BLOCK_K"], info["num_stages"], info["num_warps"]).label


# ------------------------------------------------------------------------------------ launch
def wide_plan(a, b, c, tile: WideTile, order: str, p: int, slots) -> Plan | None:
    """Compute ``c = a @ b`` in ``tile`` under the kernel order ``order`` and parameter ``p``
    (``slots(tiles_m, tiles_n)``: the order's launch slots), compiling on first use, and
    return the launch as a :class:`.plans.Plan` for repeat calls (None where this Triton's
    compiled kernel cannot be planned). A, B and C row-major, their rows 16-byte aligned."""
    M, K = a.shape
    N = b.shape[1]
    config = _config(tile)
    grid = (slots(-(-M // tile.height), -(-N // tile.width)), 1, 1)
    consts = dict(ORDER=order, P=p, **config)
    compiled = _matmul_wide_kernel[grid](*wide_descriptors(a, b, c, config), M, N, K,
                                         **consts, num_stages=tile.stages,
                                         num_warps=tile.warps)
    if not plannable(compiled, _matmul_wide_kernel):
        return None
    names = _matmul_wide_kernel.arg_names[8:]
    values = dict(M=M, N=N, K=K, **consts)
    return Plan(compiled, grid, tuple(values[n] for n in names), config,
                {"num_stages": tile.stages, "num_warps": tile.warps, "ORDER": order, "P": p})


def launch_wide(plan: Plan, a, b, c) -> None:
    """A repeat call of a wide plan (:func:`wide_plan`) on A, B and C: the encoded descriptors
    of addresses seen before are reused (:meth:`.plans.Plan.tma`)."""
    plan.tma((a, b, c), lambda: wide_descriptors(a, b, c, plan.config))

