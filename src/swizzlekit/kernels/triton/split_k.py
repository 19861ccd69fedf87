"""Plan stage and kernel: split-K in one launch: the K loop split S ways, and the last split of
a tile adds them.

``matmul(..., split_k=S)`` launches its tiles S times over (program id 1). Split s of S takes
an even share of the K steps (:func:`_k_range`; the last shares may be short or empty),
stores its fp32 partial tile into its tile's block of plane s of the workspace (each plane
the tiles' blocks, each contiguous), and counts itself in the tile's counter. The split that
counts last adds the S blocks, in plane order, and the kernel's epilogue writes C
(:func:`_split_sum`)::

    K steps   0 1 2 3 | 4 5 6 7 | 8 9 . .        S = 3, 10 steps: shares of 4, 4, 2
    planes    ws[0]     ws[1]     ws[2]          each split: store, then count
    last to count:  C = ws[0] + ws[1] + ws[2]    and sets the counter back to 0

No split waits for another, so any grid size and any dispatch order finish. The sum's order
is fixed, so the result is the same bits whichever split comes last. The counters
(:func:`counters`) are zero before and after every launch, kept one set per device and
stream, so that launches on two streams never share one.

:mod:`.splits` holds the rules (which S a call may take, with no Triton import, so that
``kernels configs`` states them): :func:`.splits.split_k_for` suggests S by shape.
A tail split (``TAIL``, :mod:`.waves`) splits only the last partial wave's tiles, each
into an even share of its K steps per program (:func:`_tail_plan`); each share stores its
partial into its program's own block and counts, and the last adds the tile's blocks
(:func:`_tail_sum`).

``split_k=None`` (the default) lets the first call of a signature time S = 1 and 2 where
M <= :data:`.splits.AUTO_SPLIT_MAX_M` and keep the faster (:func:`.splits.auto_split`,
:func:`pick_split`): on the H200 a split of 2 ran 3-11% faster on 4 of 13 decode-like shapes
and slower on the rest (docs/data/bench/JOURNAL.md), which no shape rule told apart.
"""

from __future__ import annotations

import os
import sys

import triton
import triton.language as tl

from swizzlekit.kernels.triton.tiles import _one_per_sm
from swizzlekit.kernels.triton.splits import (AUTO_SPLITS, WORKSPACE_SIDE, auto_split,
                                              workspace_elements)

__all__ = ["counters", "pick_split", "picked_line", "resolve", "buffers", "tail_buffers",
           "launch_buffers", "PICK_REPLICATES", "PICK_REP_MS", "PICK_WARMUP_MS"]


#: Replicates of each candidate :func:`pick_split` times, interleaved in the turns of
#: :func:`swizzlekit.turns.turn_order`, and the ``do_bench`` window (ms) of each. With one
#: window of 25 ms each, timed one candidate after the other, two runs of the H100's TF32
#: `full` suite (2026-11-26, commits a118a21 and 06171f9, two machines) kept different plans
#: at 5 shapes, 4 of them turning from C from registers to the autotuned config, which at
#: four such shapes ran 4-7% slower in 5 interleaved replicates
#: (docs/data/bench/tf32_wide/pick_check.txt), the rule by which the benchmarks here call
#: anything fastest.
PICK_REPLICATES, PICK_REP_MS = 5, 10
#: The ``do_bench`` warm-up (ms) before each of those windows: ``do_bench``'s default, as the
#: benchmarks here run it. With a warm-up of 2 ms, on an H100 (2026-11-28), CUTLASS's GEMM
#: and the Triton plan timed within 4% of each other either way at 5897x9208x3080 and
#: 5893x10504x7352 bf16, and 3 of 12 picks kept CUTLASS; after 25 ms the Triton plan led in
#: 18 of 18, by 1-8%, as in the benchmarks' replicates
#: (docs/data/bench/cutlass_probe/pick_warmup_h100/).
PICK_WARMUP_MS = 25

#: The longest tile side a split may take: its workspace's planes hold whole blocks of tiles
#: up to this side (:func:`.splits.workspace_elements`).
MAX_BLOCK = tl.constexpr(WORKSPACE_SIDE)


def pick_split(run, splits=AUTO_SPLITS, names=None) -> int:
    """The candidate of ``splits`` whose ``run(candidate)`` is fastest: each run once first (it
    compiles and autotunes), then :data:`PICK_REPLICATES` interleaved turns of
    ``triton.testing.do_bench`` each (medians, after :data:`PICK_WARMUP_MS` of warm-up), each
    turn in the order of :func:`swizzlekit.turns.turn_order` (no candidate always timed behind
    the same one); the least median of the replicates wins (the first, on a tie). Under
    ``SWIZZLEKIT_PRINT_PICKS=1`` (as Triton's ``TRITON_PRINT_AUTOTUNING``) each pick prints
    one line to stderr: every candidate's median in µs, by ``names`` (default: the
    candidates), and the one kept."""
    import statistics

    from triton.testing import do_bench

    from swizzlekit.turns import turn_order

    for s in splits:
        run(s)
    times = {s: [] for s in splits}
    for turn in range(PICK_REPLICATES):
        for s in turn_order(splits, turn):
            times[s].append(do_bench(lambda: run(s), warmup=PICK_WARMUP_MS, rep=PICK_REP_MS,
                                     return_mode="median"))
    medians = [statistics.median(times[s]) for s in splits]
    best = medians.index(min(medians))
    if os.environ.get("SWIZZLEKIT_PRINT_PICKS") == "1":
        print(picked_line(names or [str(s) for s in splits], medians, best), file=sys.stderr,
              flush=True)
    return splits[best]


def picked_line(names, medians_ms, best: int) -> str:
    """The line ``SWIZZLEKIT_PRINT_PICKS=1`` prints for a pick: each candidate's median
    replicate in µs, then the one kept.

    >>> picked_line(["triton", "128x256x64/c2x1"], [0.0601, 0.0512], 1)
    'swizzlekit: first-call pick: triton 60.1 us, 128x256x64/c2x1 51.2 us -> 128x256x64/c2x1'
    """
    timed = ", ".join(f"{n} {m * 1e3:.1f} us" for n, m in zip(names, medians_ms))
    return f"swizzlekit: first-call pick: {timed} -> {names[best]}"


@triton.jit
def _k_range(K, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """The K steps of this program's split (program id 1): split s of S takes an even share."""
    steps = tl.cdiv(K, BLOCK_K)
    share = tl.cdiv(steps, SPLIT_K)
    first = tl.program_id(1) * share
    return first, tl.minimum(steps, first + share)


@triton.jit
def _counted_last(count, parts):
    """After this program stored its partial: count it at ``count`` (released to the GPU, so
    that the partial is seen before the count) and say whether it counted last of ``parts``.
    The last adds the partials, then zeroes ``count`` for the next launch."""
    tl.debug_barrier()          # every thread's part of the partial is written before the count
    return tl.atomic_add(count, 1, sem="acq_rel", scope="gpu") == parts - 1


@triton.jit
def _split_sum(acc, ws_ptr, counts_ptr, pid_m, pid_n, tiles_n, M, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr):
    """This split's fp32 partial tile into its block of plane ``program_id(1)`` of the
    workspace (each plane the tiles' blocks in tile order, each block ``BLOCK_M x BLOCK_N``
    contiguous: :func:`buffers`), then the tile's count. Returns ``(total, last)``: ``last``
    for the split that counted last, whose ``total`` is the sum of the S blocks in plane order
    (the others' ``total`` is their own partial, not to be stored).

    Whole blocks, offsets of a constant stride and a loop the compiler cannot unroll keep the
    sum's registers few. With M x N planes, masked stores and 64-bit offsets, the 128x256
    and 256x128 variants took 255 registers and spilled (H100, Triton 3.6: ``n_spills`` 32-38
    at S = 2, 166-176 at S = 3); with blocks they take 132-178 and spill nothing
    (docs/data/bench/narrow_split/)."""
    tl.static_assert((BLOCK_M <= MAX_BLOCK) & (BLOCK_N <= MAX_BLOCK))
    area: tl.constexpr = BLOCK_M * BLOCK_N
    tile = pid_m * tiles_n + pid_n
    plane = tl.cdiv(M, BLOCK_M).to(tl.int64) * tiles_n * area
    block = ws_ptr + tile.to(tl.int64) * area
    return _add_blocks(acc, block + tl.program_id(1) * plane, block, plane,
                       counts_ptr + tile, tl.num_programs(1), BLOCK_M, BLOCK_N)


@triton.jit
def _add_blocks(acc, mine, first, stride, count, parts, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    """The sum of a tile's partials, :func:`_split_sum`'s and :func:`_tail_sum`'s: store this
    program's ``acc`` at block ``mine`` (``BLOCK_M x BLOCK_N`` fp32, contiguous), count it at
    ``count``, and if it counted last of ``parts``, add the ``parts`` blocks at ``first``,
    ``first + stride``, ... (L2 only, ``.cg``: other SMs wrote them) in that order and zero the
    count for the next launch. Returns ``(total, last)``. ``parts`` is a runtime value, so the
    sum's loop is never unrolled."""
    offs = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    tl.store(mine + offs, acc)
    last = _counted_last(count, parts)
    if last:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for j in range(0, parts):
            acc += tl.load(first + j * stride + offs, cache_modifier=".cg")
        tl.atomic_xchg(count, 0)
    return acc, last


@triton.jit
def _tail_plan(tiles, programs, steps):
    """The tail split of ``tiles`` tiles on ``programs`` programs (one an SM): ``(whole,
    ways)``, the tiles that run whole and the shares each of the rest is split into (1: none
    split); :func:`.waves.tail_ways` on the host."""
    rem = tiles % programs
    ways = tl.minimum(programs // tl.maximum(rem, 1), steps)
    share = tl.cdiv(steps, tl.maximum(ways, 1))
    ways = tl.cdiv(steps, share)                        # no share empty
    split = (tiles >= programs) & (rem > 0) & (ways >= 2)
    return tl.where(split, tiles - rem, tiles), tl.where(split, ways, 1)


@triton.jit
def _tail_share(ways, steps):
    """This program's share of a tail split into ``ways`` (:func:`_tail_plan`):
    ``(tail_tile, first, last)``, which of the last partial wave's tiles it adds to
    (``program_id // ways``) and its K steps ``first`` to ``last`` of ``steps`` (even shares,
    the last one short)."""
    share = tl.cdiv(steps, ways)
    first = (tl.program_id(0) % ways) * share
    return tl.program_id(0) // ways, first, tl.minimum(steps, first + share)


@triton.jit
def _tail_sum(acc, ws_ptr, counts_ptr, tail_tile, ways, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr):
    """A tail split's share (program ``tail_tile * ways + j``): its fp32 partial into the
    program's own block of the workspace (``BLOCK_M x BLOCK_N``, contiguous), then the tail
    tile's count. Returns ``(total, last)`` as :func:`_split_sum` does: the share that counted
    last adds the tile's ``ways`` blocks in share order."""
    area: tl.constexpr = BLOCK_M * BLOCK_N
    return _add_blocks(acc, ws_ptr + tl.program_id(0).to(tl.int64) * area,
                       ws_ptr + (tail_tile * ways).to(tl.int64) * area, area,
                       counts_ptr + tail_tile, ways, BLOCK_M, BLOCK_N)


def resolve(split_k, picks, sig, M: int, N: int, K: int, persistent: bool, run) -> int:
    """The split a call runs: ``split_k`` as given, or for ``None`` the one ``picks`` (a
    cache by call signature ``sig``; None off the GPU) holds, timed by :func:`pick_split`
    over ``run(split)`` on the signature's first call where :func:`auto_split` allows, else 1."""
    if split_k is None and sig is not None and auto_split(M, N, K, persistent):
        split_k = picks.kept(sig, lambda: pick_split(run))   # the first call times S = 1, 2
    return split_k or 1


def buffers(split: int, M: int, N: int, device, unused):
    """The workspace of a split (``split`` planes, each the blocks of the tiles that cover
    M x N, for any tile of sides up to :data:`MAX_BLOCK`: :func:`_split_sum`) and the
    counters (one per tile of the smallest config, 16 x 16) of a launch; ``unused`` for both
    when it does not split."""
    import torch

    if split == 1:
        return unused, unused
    return (torch.empty(workspace_elements(split, M, N), device=device, dtype=torch.float32),
            counters(device, -(-M // 16) * -(-N // 16)))      # not triton.cdiv: a JIT call


def tail_buffers(device, programs: int, area: int):
    """The workspace of a tail split (:func:`_tail_sum`: one fp32 block of ``area`` elements
    for each of ``programs`` programs, the largest tile's area) and its counters (one per tail
    tile, fewer than ``programs``). Kept one per device and stream, as :func:`counters`."""
    import torch

    key = _stream_key(device)
    have = _TAIL_WS.get(key)
    if have is None or have.numel() < programs * area:
        have = torch.empty(programs * area, device=device, dtype=torch.float32)
        _TAIL_WS[key] = have
    return have, counters(device, programs)


def launch_buffers(split: int, tail: bool, M: int, N: int, device, unused, area: int):
    """A launch's workspace and counters: a tail split's (:func:`tail_buffers`, one block of
    ``area`` elements a program, one program an SM), a split K's (:func:`buffers`), or
    ``unused`` for both."""
    if tail:
        return tail_buffers(device, _one_per_sm(device), area)
    return buffers(split, M, N, device, unused)


def counters(device, tiles: int):
    """The per-tile counters of :func:`_split_sum` for launches on ``device``'s current stream:
    at least ``tiles`` int32 zeros, which every launch leaves zero. One set per device and
    stream, grown (a fresh zeroed tensor) when a launch needs more."""
    import torch

    key = _stream_key(device)
    have = _COUNTERS.get(key)
    if have is None or have.numel() < tiles:
        have = torch.zeros(max(tiles, 1024), device=device, dtype=torch.int32)
        _COUNTERS[key] = have
    return have


def _stream_key(device) -> tuple:
    """The key of ``device``'s current stream: buffers kept per stream are never shared by
    launches that may overlap."""
    from triton.runtime.driver import driver

    stream = driver.active.get_current_stream(device.index) if device.type == "cuda" else 0
    return (device.type, device.index, stream)


_COUNTERS: dict = {}
_TAIL_WS: dict = {}
