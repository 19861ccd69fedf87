"""Kernel: the 16-bit and TF32 GEMM with tiles moved by the tensor memory accelerator (Hopper),
under any CTA order: ``_matmul_tma_kernel``, which :mod:`.matmul` launches.

The copy engine fetches whole tiles of A and B and zero-fills past the tensors' edges, so a
K that is no multiple of the tile (or of 16) costs no mask. C leaves one of two ways::

    C_PTR = False   c_desc.store: the tile staged in shared memory, clipped at M and N by TMA
    C_PTR = True    c_desc is C's pointer: tl.store masked at M and N, any strides, any alignment
    C_PTR = C_REGS  the same stores, by choice: TF32's 128x256 tiles, whose staged fp32 C tile
                    would leave their pipeline no shared memory (matmul_configs.C_REGS_TILES)

TMA stores need C's rows 16-byte aligned, as its loads need A's and B's; a C whose rows are
not (N = 2999 in bf16) is written by masked stores (``C_PTR``), so that a call whose A and B
TMA can read, as given or from copies in aligned rows (:func:`.copies._tma_copies`), writes
its result straight into C: no aligned buffer for C, and no copy back
(docs/data/bench/ragged_tma/). The fp8 kernel (:mod:`.scaled_kernel`) writes C the same way
(:func:`.tiles._store_c`).

Config selection, the prune and the block shapes are :mod:`.matmul_configs`'s; the tile order
is :mod:`.tiles`'s.
"""

from __future__ import annotations

import triton
import triton.language as tl

from swizzlekit.kernels.triton.configs import ONE_TILE_AREA
from swizzlekit.kernels.triton.matmul_configs import _configs, _prune
from swizzlekit.kernels.triton.split_k import (_k_range, _split_sum, _tail_plan, _tail_share,
                                              _tail_sum)
from swizzlekit.kernels.triton.tiles import _launch_slots, _set_blocks_of, _store_c, _tile
from swizzlekit.kernels.triton.tuning import _autotune

__all__: list[str] = []     # kernel internals: imported by name by .matmul


def _set_blocks(nargs):
    """Autotune pre-hook: the descriptors' block shapes follow the config being tried."""
    _set_blocks_of(nargs, nargs["B_KMAJOR"])


@_autotune("tma", configs=_configs(_set_blocks, swap=True, flat=True),
           key=["M", "N", "K", "ORDER", "P", "PERSISTENT", "PRECISION", "B_KMAJOR", "SPLIT_K",
                "TAIL", "ELEM_BYTES", "C_PTR"],
           prune_configs_by={"early_config_prune": _prune})
@triton.heuristics({"ONE_TILE": lambda args: not args["PERSISTENT"] and not args["TAIL"]
                    and args["SPLIT_K"] == 1 and not args["C_PTR"] and args["SWAP_AB"]
                    and args["BLOCK_M"] * args["BLOCK_N"] >= ONE_TILE_AREA})
@triton.jit
def _matmul_tma_kernel(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, M, N, K, stride_cm,
                       stride_cn, ORDER: tl.constexpr, P: tl.constexpr,
                       PERSISTENT: tl.constexpr, NUM_PROGRAMS, PRECISION: tl.constexpr,
                       B_KMAJOR: tl.constexpr, SPLIT_K: tl.constexpr, TAIL: tl.constexpr,
                       C_PTR: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       SWAP_AB: tl.constexpr, ONE_TILE: tl.constexpr, FLAT: tl.constexpr,
                       ELEM_BYTES: tl.constexpr):
    """``B_KMAJOR``: ``b_desc`` describes B transposed (N x K, K contiguous); the tiles are
    transposed on load. ``SWAP_AB`` (TF32, B row-major): wgmma takes TF32 from shared memory
    only K-major, so the tile computes Cᵀ = Bᵀ Aᵀ, Bᵀ's tile from registers (wgmma's A) and
    A's tile, K-major, as wgmma's B. ``FLAT``: one program per SM walks the tiles in a loop
    that Triton flattens with the K loop, so its pipeline runs on across tiles. ``C_PTR``:
    ``c_desc`` is C's pointer, written by masked stores with strides ``stride_cm``,
    ``stride_cn`` (:func:`.tiles._store_c`). ``TAIL``: one program per SM (``NUM_PROGRAMS``)
    walks whole waves of tiles (a flattened loop), then the last partial wave's tiles are
    split in even shares of their K steps, one program a share (:func:`.split_k._tail_plan`,
    :mod:`.waves`); the order's launch slots are its tiles (:data:`.matmul_configs.FLAT_ORDERS`).
    ``ELEM_BYTES`` (the operands' element size) only keys the autotuner: descriptors carry no
    dtype it sees, and a 16-bit call's choice would otherwise be taken for an fp32 call of the
    same sizes (on the H100, a 16-bit deep pipeline that needs 327736 bytes in fp32).
    ``SWAP_AB`` never comes with ``B_KMAJOR`` (the prune's rule, ``_swap_ab``): forced
    together, 256x128x32 tiles gave wrong sums on the H100 (docs/data/bench/tf32_configs_h100/)."""
    tl.static_assert(not (SWAP_AB and B_KMAJOR), "SWAP_AB is for a row-major B only")
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    if FLAT:        # plain tiles, an order whose slots are the tiles (matmul_configs.flat_ok)
        slots = _launch_slots(tiles_m, tiles_n, ORDER, P)
        for slot in tl.range(tl.program_id(0), slots, tl.num_programs(0), flatten=True):
            pid_m, pid_n = _tile(slot, tiles_m, tiles_n, ORDER, P)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k in range(0, tl.cdiv(K, BLOCK_K)):
                a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
                if B_KMAJOR:
                    b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K]).T
                else:
                    b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
                acc = tl.dot(a, b, acc, input_precision=PRECISION)
            _store_c(c_desc, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, C_PTR, BLOCK_M,
                     BLOCK_N)
    elif TAIL:
        whole, ways = _tail_plan(tiles_m * tiles_n, NUM_PROGRAMS, tl.cdiv(K, BLOCK_K))
        # the whole tiles in a loop flattened with the K loop, as FLAT's (its pipeline runs on
        # across tiles): -0.4% to 2.1% faster than a plain loop in bf16, 1.6-16.8% in fp8, H100
        # (docs/data/bench/tail_flat/)
        for slot in tl.range(tl.program_id(0), whole, NUM_PROGRAMS, flatten=True):
            _tma_tile(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, slot, tiles_m, tiles_n,
                      M, N, K, stride_cm, stride_cn, ORDER, P, PRECISION, B_KMAJOR, 1,
                      C_PTR, BLOCK_M, BLOCK_N, BLOCK_K, SWAP_AB)
        tail_tile, first, last = _tail_share(ways, tl.cdiv(K, BLOCK_K))
        if (ways > 1) & (whole + tail_tile < tiles_m * tiles_n):
            pid_m, pid_n = _tile(whole + tail_tile, tiles_m, tiles_n, ORDER, P)
            acc = _tma_acc(a_desc, b_desc, pid_m, pid_n, first, last, PRECISION, B_KMAJOR,
                           BLOCK_M, BLOCK_N, BLOCK_K, SWAP_AB)
            acc, added = _tail_sum(acc, ws_ptr, counts_ptr, tail_tile, ways, BLOCK_M, BLOCK_N)
            if added:
                _store_c(c_desc, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, C_PTR,
                         BLOCK_M, BLOCK_N)
    elif ONE_TILE:
        # a swapped tile of ONE_TILE_AREA or more, not persistent, K whole, C stored by TMA:
        # no loop over tiles. There C's staging tile reuses the K loop's buffers (Triton 3.6),
        # so 256x128x32 fits in 3 stages, and the H200 ran 8192³ at 274 against 253 TFLOP/s.
        # K split 2 ways, or C written by masked stores, gave wrong sums in this path; the
        # prune keeps such launches off it (matmul_configs._one_tile_may_take,
        # docs/data/bench/split_one_tile/). Smaller tiles keep the loop, which ran them
        # faster (1024³: 13.5 against 20.9 us; docs/data/bench/JOURNAL.md).
        _tma_tile(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, tl.program_id(0), tiles_m,
                  tiles_n, M, N, K, stride_cm, stride_cn, ORDER, P, PRECISION, B_KMAJOR,
                  SPLIT_K, C_PTR, BLOCK_M, BLOCK_N, BLOCK_K, SWAP_AB)
    else:
        slots = _launch_slots(tiles_m, tiles_n, ORDER, P)
        for slot in range(tl.program_id(0), slots, NUM_PROGRAMS if PERSISTENT else slots):
            _tma_tile(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, slot, tiles_m, tiles_n,
                      M, N, K, stride_cm, stride_cn, ORDER, P, PRECISION, B_KMAJOR, SPLIT_K,
                      C_PTR, BLOCK_M, BLOCK_N, BLOCK_K, SWAP_AB)


@triton.jit
def _tma_tile(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, slot, tiles_m, tiles_n, M, N,
              K, stride_cm, stride_cn, ORDER: tl.constexpr, P: tl.constexpr,
              PRECISION: tl.constexpr, B_KMAJOR: tl.constexpr, SPLIT_K: tl.constexpr,
              C_PTR: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              BLOCK_K: tl.constexpr, SWAP_AB: tl.constexpr):
    """The tile of launch slot ``slot`` (none where it lands outside the grid)."""
    pid_m, pid_n = _tile(slot, tiles_m, tiles_n, ORDER, P)
    if (pid_m < tiles_m) & (pid_n < tiles_n):
        first, last = _k_range(K, BLOCK_K, SPLIT_K)
        acc = _tma_acc(a_desc, b_desc, pid_m, pid_n, first, last, PRECISION, B_KMAJOR,
                       BLOCK_M, BLOCK_N, BLOCK_K, SWAP_AB)
        if SPLIT_K > 1:     # the last split of the tile writes the sum of all S
            acc, last = _split_sum(acc, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M,
                                   BLOCK_M, BLOCK_N)
            if last:
                _store_c(c_desc, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, C_PTR,
                         BLOCK_M, BLOCK_N)
        else:
            _store_c(c_desc, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, C_PTR, BLOCK_M,
                     BLOCK_N)


@triton.jit
def _tma_acc(a_desc, b_desc, pid_m, pid_n, first, last, PRECISION: tl.constexpr,
             B_KMAJOR: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             BLOCK_K: tl.constexpr, SWAP_AB: tl.constexpr):
    """The fp32 sum over K steps ``first`` to ``last`` of tile ``(pid_m, pid_n)``."""
    if SWAP_AB:
        acc_t = tl.zeros((BLOCK_N, BLOCK_M), dtype=tl.float32)
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(first, last):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        if B_KMAJOR:
            b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K]).T
        else:
            b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        if SWAP_AB & (b.dtype == tl.float32):   # "+ 0.0" keeps TF32's Bᵀ in registers:
            # a loaded tile would be staged transposed in shared memory and waited on each
            # step (H200: 115 against 273 TFLOP/s at 8192³, docs/data/bench/tf32_probe*.json)
            acc_t = tl.dot(b.T + 0.0, a.T, acc_t, input_precision=PRECISION)
        elif SWAP_AB:                             # 16-bit: both from shared memory
            acc_t = tl.dot(b.T, a.T, acc_t, input_precision=PRECISION)
        else:
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
    if SWAP_AB:
        acc = acc_t.T
    return acc
