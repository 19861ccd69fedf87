"""Plan stage: where a 16-bit call's B rows do not start on 64-byte boundaries, its first call
also times CUTLASS's GEMM in clusters of two CTAs (:mod:`swizzlekit.kernels.cuda.cutlass`),
in each of its tiles (:data:`CUTLASS_CANDIDATES`), against the Triton plan it made, and
:mod:`.matmul` keeps the fastest for the call's fingerprint; an fp8 call of 256 to 1024 rows
does the same with CUTLASS's fp8 GEMM in whole tiles and in stream-K, and in swapped tiles
where its own pad M (:mod:`swizzlekit.kernels.cuda.cutlass_fp8`, :func:`fp8_candidates`), in
:mod:`.scaled`.

A TMA read of such a B runs up to 30% slower, and the Triton plan either reads it so or
copies B into rows of a 128-byte pitch first (:func:`.copies.pitch_copy`). CUTLASS's CTAs pair
up along M and share each tile of B by TMA multicast, which Triton 3.6 cannot do: at
3000x5000x4000 bf16 on an H100 it ran 0.92x cuBLAS where the Triton plan ran 0.84x, while
at 6000x7000x3000 the Triton plan on B's copy ran 6% faster than it
(docs/data/bench/cutlass_probe/). So neither is taken by rule: the first call times both in
interleaved replicates (:func:`.split_k.pick_split`), the Triton side with its copies.

The route needs an sm_90 GPU, nvcc and CUTLASS's headers (:func:`available`; CUTLASS's
library is built once, in about a minute, then cached), the order left to the model
("auto"), no persistent grid, no split of K asked for, and A, B and C row-major in rows of
16-byte multiples on 16-byte-aligned pointers, from :data:`CLUSTER_MIN_M` rows and
M*N*K = :data:`CLUSTER_MIN_MNK`. ``SWIZZLEKIT_CUTLASS=0`` (read once a process) turns it
off, and ``SWIZZLEKIT_AUTOTUNE=0`` (no timing at all) leaves the Triton plan.

>>> misaligned_b(2, 5000), misaligned_b(2, 5120), misaligned_b(4, 5000)
(True, False, False)
"""

from __future__ import annotations

import functools
import os

from swizzlekit.kernels.cuda.cutlass import CONFIG as CUTLASS_CONFIG
from swizzlekit.kernels.cuda.cutlass import build as build_cutlass
from swizzlekit.kernels.cuda.cutlass import (TILES16, build_all, cutlass_matmul, headers,
                                             launch_matmul, nvcc, rows_aligned)
from swizzlekit.kernels.cuda.cutlass_fp8 import build as build_fp8
from swizzlekit.kernels.cuda.cutlass_fp8 import (SWAPPED, TILES, cutlass_scaled_matmul,
                                                 launch_scaled, padded_rows)
from swizzlekit.kernels.triton.auto_order import AUTO
from swizzlekit.kernels.triton.configs import current_mode

__all__ = ["CUTLASS_CONFIG", "CUTLASS_CANDIDATES", "CLUSTER_MIN_MNK", "CLUSTER_MIN_M",
           "available", "misaligned_b", "sized", "clustered_route", "pick_clustered",
           "build_cutlass", "build_fp8", "cutlass_matmul", "FP8_CLUSTER_M",
           "FP8_CLUSTER_MIN_MNK", "FP8_SWAP_PAD", "fp8_sized", "fp8_tiles", "fp8_candidates",
           "fp8_clustered_route", "cutlass_scaled_matmul", "described", "launch_matmul",
           "launch_scaled"]

#: The least M*N*K whose first call times the clustered GEMM: the size from which 16-bit
#: calls copy the operands TMA cannot read (:data:`.copies.COPY_MIN_MNK`, a test holds them
#: equal; this module imports no Triton, so that ``kernels configs`` runs without it).
CLUSTER_MIN_MNK = 2**28
#: ... and the least M: at 1000x5000x4000 (bf16, H100) it ran level with the Triton plan
#: (92.3 against 91.3 us), and fewer rows leave its 128-row tiles in clusters of two mostly
#: empty.
CLUSTER_MIN_M = 1024
#: The tiles of CUTLASS's 16-bit GEMM its first call times, in this order: 128x256 in pairs
#: along M, 256x128 and 256x192 in pairs along N. None wins by rule: on an H100, at six
#: held-out shapes, 256x128 ran 4-5% ahead of 128x256 at 5810x11632x5008 and 6731x1560x5304
#: and level at the others (docs/data/bench/cutlass_probe/variants16_h100/); 256x192 ran
#: 5-7% ahead of both at 5810x11632x5008 and 5491x5488x4880 and 23-30% behind at
#: 2258x1456x1440 and 6731x1560x5304 (variants16b_h100/); at the probe's 11 shapes before,
#: 256x128 ran 2-4% behind 128x256 at 3, 3% ahead at 2, within 1.1% at 6 (h100b/).
CUTLASS_CANDIDATES = tuple(TILES16)
#: fp8: the rows (least, most) whose first call times CUTLASS's fp8 GEMM. On an H100, in whole
#: tiles, it ran 5-10% ahead of the Triton plan at 256 and 512 x 14336 x 4096 (where that
#: plan's one or two waves of 128-row tiles run below 0.90x ``_scaled_mm``), level with it
#: from 600 to 1200 rows and at 2048 rows and more, and behind it at 128 rows; in stream-K,
#: 6-60% ahead at 3 of 10 shapes drawn at random from 256 to 1024 rows, behind at 5
#: (docs/data/bench/cutlass_probe/fp8/).
FP8_CLUSTER_M = (256, 1024)
#: ... and M*N*K above this: up to it (256 and 512 x 4096 x 4096) it ran 0.58-0.73x
#: ``_scaled_mm`` where the Triton plan ran level.
FP8_CLUSTER_MIN_MNK = 2**33
#: ... in its own 128x256 tiles in pairs along M, and where those pad M by this ratio or
#: more (M of 257-384 or 513-576 rows) also in the swapped build that pads M least. Over 16
#: shapes of 256 to 992 rows (H200 and H100, docs/data/bench/cutlass_probe/fp8/swapped/) the
#: best swapped build ran 6-44% ahead of the library's tiles at the 6 shapes they pad by
#: 1.38-1.84 (279, 283, 302, 345, 353, 558 rows); at the 10 they pad by 1.25 or less, level
#: at 3 and 3-18% behind at 7. On a set drawn afterwards in the swapped rows it ran ahead of
#: them at 10 of 10 on an H200, and at 8 of 10 on an H100, behind at 529 and 569 rows (0.70
#: against 0.81x at 529): hence the first call times both.
FP8_SWAP_PAD = 4 / 3


@functools.lru_cache(maxsize=None)
def available() -> bool:
    """Whether CUTLASS's GEMM can be built here (nvcc and the headers found) and is not
    turned off (``SWIZZLEKIT_CUTLASS=0``)."""
    return os.environ.get("SWIZZLEKIT_CUTLASS", "1") != "0" and headers() is not None and (
        nvcc() is not None)


def misaligned_b(elem_bytes: int, row_stride: int) -> bool:
    """Whether a 16-bit B of rows ``row_stride`` elements apart has rows that do not all start
    on 64-byte boundaries."""
    return elem_bytes == 2 and row_stride * elem_bytes % 64 != 0


def sized(M: int, N: int, K: int, b_row_stride: int) -> bool:
    """Whether a 16-bit problem of this size, B's rows ``b_row_stride`` elements apart, is
    one the first call times the clustered GEMM for (the rest of the rules aside): from
    :data:`CLUSTER_MIN_M` rows and M*N*K = :data:`CLUSTER_MIN_MNK`, B's rows off 64-byte
    boundaries.

    >>> sized(3000, 5000, 4000, 5000), sized(1000, 5000, 4000, 5000)
    (True, False)
    """
    return M >= CLUSTER_MIN_M and M * N * K >= CLUSTER_MIN_MNK and misaligned_b(2, b_row_stride)


def fp8_sized(M: int, N: int, K: int) -> bool:
    """Whether an fp8 problem of this size is one the first call times CUTLASS's fp8 GEMM for
    (the rest of the rules aside): :data:`FP8_CLUSTER_M` rows, M*N*K above
    :data:`FP8_CLUSTER_MIN_MNK`.

    >>> fp8_sized(256, 14336, 4096), fp8_sized(256, 4096, 4096), fp8_sized(2048, 14336, 4096)
    (True, False, False)
    """
    return FP8_CLUSTER_M[0] <= M <= FP8_CLUSTER_M[1] and M * N * K > FP8_CLUSTER_MIN_MNK


@functools.lru_cache(maxsize=4096)
def fp8_tiles(M: int) -> str:
    """The tiles of CUTLASS's fp8 GEMM that fit ``M`` rows best: its own
    (:data:`~swizzlekit.kernels.cuda.cutlass_fp8.TILES`) unless they pad M by
    :data:`FP8_SWAP_PAD` or more, else the build of
    :data:`~swizzlekit.kernels.cuda.cutlass_fp8.SWAPPED` that pads M least (ties: the taller
    tile, then the cluster along M).

    >>> fp8_tiles(512), fp8_tiles(302), fp8_tiles(279), fp8_tiles(558)
    ('128x256x128/c2x1', '160x128x128/c2x1/swap-ab', '96x128x128/c1x2/swap-ab', \
'96x128x128/c2x1/swap-ab')
    """
    if padded_rows(M, TILES) < FP8_SWAP_PAD * M:
        return TILES
    return min(SWAPPED, key=lambda t: (padded_rows(M, t), -SWAPPED[t][0], -SWAPPED[t][1]))


@functools.lru_cache(maxsize=4096)
def fp8_candidates(M: int) -> tuple:
    """``(tiles, stream_k)`` of each CUTLASS candidate the first call of ``M`` rows times
    against its Triton plan: its own tiles in whole tiles and in stream-K, then, where
    :func:`fp8_tiles` swaps, that build in both too.

    >>> len(fp8_candidates(512)), fp8_candidates(302)[2:]
    (2, (('160x128x128/c2x1/swap-ab', False), ('160x128x128/c2x1/swap-ab', True)))
    """
    return tuple((tiles, stream_k) for tiles in dict.fromkeys((TILES, fp8_tiles(M)))
                 for stream_k in (False, True))


def _plain_call(a, order, persistent: bool, tma, split_k, order_params: dict) -> bool:
    """What both routes ask of the call itself: the order left to the model, no persistent
    grid, no split of K asked for, TMA not turned off, a CUDA tensor."""
    return (order == AUTO and not order_params and not persistent and tma is not False
            and split_k in (None, 1) and a.device.type == "cuda")


def _may_time_here(a) -> bool:
    """What both routes ask of the process and the GPU: timing allowed (not
    ``SWIZZLEKIT_AUTOTUNE=0``), an sm_90 GPU, nvcc and CUTLASS's headers found."""
    import torch

    return (current_mode() != "0" and torch.cuda.get_device_capability(a.device) == (9, 0)
            and available())


def fp8_clustered_route(a, b, c, scale_a, scale_b, order, persistent: bool, tma, split_k,
                        order_params: dict) -> bool:
    """Whether a checked fp8 call's first call times CUTLASS's fp8 GEMM: the order left to
    the model, no persistent grid, no split of K asked for, one scale per tensor, a bf16 C,
    A and Bᵀ and C row-major in rows of 16-byte multiples on 16-byte-aligned pointers, an
    sm_90 GPU, :func:`fp8_sized`, nvcc and CUTLASS's headers found, and timing allowed (not
    ``SWIZZLEKIT_AUTOTUNE=0``)."""
    import torch

    M, K = a.shape
    N = b.shape[1]
    return (_plain_call(a, order, persistent, tma, split_k, order_params)
            and scale_a.numel() == 1 and scale_b.numel() == 1 and c.dtype == torch.bfloat16
            and all(rows_aligned(t) for t in (a, b.T, c)) and fp8_sized(M, N, K)
            and _may_time_here(a))


def clustered_route(a, b, c, order, persistent: bool, tma, split_k, order_params: dict) -> bool:
    """Whether a checked 16-bit call's first call times the clustered GEMM (the module's
    rules; never under ``SWIZZLEKIT_AUTOTUNE=0``, which times nothing)."""
    import torch

    M, K = a.shape
    N = b.shape[1]
    return (_plain_call(a, order, persistent, tma, split_k, order_params)
            and a.dtype in (torch.float16, torch.bfloat16) and b.dtype == a.dtype
            and c.dtype == a.dtype and all(rows_aligned(t) for t in (a, b, c))
            and sized(M, N, K, b.stride(0)) and _may_time_here(a))


def described(config: str) -> dict:
    """What ``describe`` and ``scaled_describe`` say of a call whose first call kept CUTLASS's
    GEMM of ``config``: its own persistent scheduler, K whole, no copies.

    >>> described(CUTLASS_CONFIG)["order"]
    'sm90-persistent'
    """
    return {"kernel": "cutlass", "config": config, "order": "sm90-persistent", "p": None,
            "split_k": 1, "copies": "", "b_pitch_copy": False, "b_kmajor_copy": False,
            "c_masked": False, "c_registers": False, "tail_split": False}


def pick_clustered(triton_call, *cutlass_calls, names=None, builds=()) -> int:
    """Which runs fastest: 0 for ``triton_call()``, i for ``cutlass_calls[i - 1]()`` (each run
    once first, then interleaved replicates, :func:`.split_k.pick_split`; ``names`` label
    them for ``SWIZZLEKIT_PRINT_PICKS=1``). ``builds`` (callables that build the calls'
    libraries where they are not cached) run first, side by side: nvcc builds each in about
    a minute. 0, with a warning, where CUTLASS's library cannot be built or run here."""
    import warnings

    from swizzlekit.errors import ToolError
    from swizzlekit.kernels.triton.split_k import pick_split

    try:
        build_all(builds)
        for call in cutlass_calls:
            call()
    except ToolError as e:
        warnings.warn(f"swizzlekit: the Triton plan runs, CUTLASS's clustered GEMM failed: {e}",
                      stacklevel=3)
        return 0
    runs = (triton_call, *cutlass_calls)
    return int(pick_split(lambda i: runs[i](), tuple(range(len(runs))), names))
