"""Plan stage: the tile configs of :func:`swizzlekit.kernels.matmul` and the rule that keeps
those a call can run: the plain ones, and the swapped ones (``SWAP_AB``, Cᵀ = Bᵀ Aᵀ) that
TF32 with a row-major B (TMA kernel) and 16-bit operands with few rows (both kernels) take.

>>> [c.kwargs["SWAP_AB"] for c in _configs(swap=True)][-1]
True
>>> _swap_ab(4, "tf32", False, M=4096), _swap_ab(2, "tf32", False, M=16)
(True, True)
>>> _swap_ab(2, "tf32", False, M=4096), _swap_ab(2, "tf32", True, M=16)
(False, False)
"""

from __future__ import annotations

import functools
import math

from swizzlekit.errors import check_bool, check_choice, check_int
from swizzlekit.kernels.triton.configs import (_INTERPRET, DEEP_MAX_M, DEEP_SWAPPED, DEEP_TILES,
                                               INTERPRETER_TILE, SMALL_M, _config_list,
                                               _fitting, _key, _with_flat, current_mode)
from swizzlekit.kernels.triton.footprint import ONE_TILE_AREA, element_size

__all__ = ["SWAP_16BIT_MAX_M", "FLAT_TILES", "FLAT_TILES_FP32", "FLAT_ORDERS", "flat_ok",
           "config_labels", "TMA_MIN_M", "TMA_MIN_MNK", "tma_by_size", "TF32_COPY_MIN_M",
           "TF32_COPY_PAYOFF", "tf32_copy_min_m", "C_REGS", "C_REGS_TILES", "c_regs_ok",
           "C_REGS_RULE_MIN_M", "c_regs_taken", "c_regs_timed", "MAX_TILE_AREA"]


def _configs(pre_hook=None, swap: bool = False, flat: bool = False):
    """The tile configs; ``swap``: with the swapped ones (``SWAP_AB=True``) beside the plain
    ones (``SWAP_AB=False``); ``flat`` (the TMA kernel): every config says ``FLAT``, and the
    :data:`FLAT_TILES` come twice, the second time flattened (``FLAT=True``)."""
    configs = _tile_configs(pre_hook, swap)
    if flat:
        return _with_flat(configs, [] if _INTERPRET else FLAT_TILES + FLAT_TILES_FP32, pre_hook,
                          SWAP_AB=False)
    return configs


def _max_area() -> int:
    """The largest ``BLOCK_M x BLOCK_N`` of the TMA kernel's configs (a tail split's workspace
    block, :func:`.split_k.tail_buffers`)."""
    return max(c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] for c in _configs(swap=True, flat=True))


def _tile_configs(pre_hook=None, swap: bool = False):
    """:func:`_configs` before flattening."""
    if _INTERPRET:
        if not swap:
            return _config_list([INTERPRETER_TILE], pre_hook)
        return (_config_list([INTERPRETER_TILE], pre_hook, SWAP_AB=False)
                + _config_list([INTERPRETER_TILE], pre_hook, SWAP_AB=True))
    shapes = [(128, 256, 64, 3, 8), (128, 256, 64, 4, 8), (256, 128, 64, 3, 8),
              (128, 128, 64, 4, 8), (128, 128, 64, 4, 4), (128, 256, 32, 4, 8),
              (128, 128, 32, 4, 4), (64, 128, 64, 4, 4),
              # smaller ones that fit fp32 operands (TF32 and IEEE)
              (128, 128, 32, 3, 8), (64, 256, 32, 4, 8), (128, 64, 64, 3, 4),
              # narrow tiles for M <= SMALL_M, where 128-wide tiles leave most SMs idle
              # (64x4096 is 32 tiles of 64x128 for 132 SMs); _prune drops them above it
              (64, 64, 128, 3, 4), (64, 32, 128, 4, 4), (32, 64, 128, 4, 4),
              (16, 32, 256, 3, 4),
              # deep pipelines, for few rows or few tiles only (configs.deep_ok)
              *DEEP_TILES,
              # TF32 with C stored from registers only (C_PTR = C_REGS; _prune)
              *C_REGS_TILES]
    # swapped (Cᵀ = Bᵀ Aᵀ; BLOCK_N is wgmma's M, at least 64): the H200's picks of 13 for nine
    # shapes from 16x14336x4096 to 8192³ (docs/data/bench/tf32_probe2.json). The first fits
    # one tile per program only (ONE_TILE_AREA), so persistent grids take it in 2 stages;
    # the probe's 128x128x64 in 3 stages fits neither, and runs in 2.
    swapped = [(256, 128, 32, 3, 8), (128, 128, 32, 4, 8), (256, 128, 32, 2, 8),
               (128, 128, 64, 2, 8), (64, 128, 64, 3, 4), (64, 64, 64, 3, 4), (32, 64, 64, 4, 4),
               (16, 64, 128, 3, 4)]
    # swapped for 16-bit operands at M <= SWAP_16BIT_MAX_M (BLOCK_M is wgmma's N, 16-64): the
    # probe's ten tiles (docs/data/bench/bf16_swap_ptr_probe.json)
    swapped += [(16, 128, 128, 4, 4), (32, 128, 128, 4, 4), (16, 64, 256, 4, 4),
                (32, 64, 128, 5, 4), (64, 64, 128, 4, 4), (64, 128, 64, 5, 4),
                (16, 128, 64, 6, 4), (32, 128, 64, 6, 4), (16, 256, 64, 4, 8), (64, 256, 64, 4, 8),
                *DEEP_SWAPPED]
    if not swap:
        return _config_list(shapes, pre_hook)
    return (_config_list(shapes, pre_hook, SWAP_AB=False)
            + _config_list(swapped, pre_hook, SWAP_AB=True))


#: The TMA kernel's flattened configs: one program per SM walks its tiles in one loop over
#: tiles and K steps, which Triton pipelines across tiles (``tl.range(..., flatten=True)``).
#: On the H200 (2026-11-23, docs/data/bench/JOURNAL.md) that ran 8192x8192x512 in bf16 at 563
#: against 506 TFLOP/s for the same tile one per program; at K >= 2048, within 1%.
FLAT_TILES = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 8)]
#: ... and for 4-byte operands only (TF32 and IEEE on B K-major): the two plain tiles fastest
#: in both cards' TF32 tables, flattened. On the H100 (2026-11-26, B K-major;
#: docs/data/bench/tf32_configs_h100/) 128x128x32/s4/w4 ran 2-5% faster flattened than one
#: tile per program at all seven shapes from 2048³ to 8192³ (4096³: 0.416 against 0.439 ms),
#: and 64x256x32/s4/w8 flattened ran 4096 x 8192 x 28672 at 311 TFLOP/s against the other's
#: 284, and within 7% of it at four other shapes (flat/, 5 interleaved replicates).
FLAT_TILES_FP32 = [(128, 128, 32, 4, 4), (64, 256, 32, 4, 8)]
_FLAT_FP32 = {(*t, False) for t in FLAT_TILES_FP32}
#: The orders whose launch slots are exactly the tiles, the only ones a flattened loop takes
#: (the others' slots outside the grid would need a branch around the K loop).
FLAT_ORDERS = ("row", "col", "grouped", "grouped_n", "grouped_persistent", "strip",
               "strip_snake", "snake")

#: ``C_PTR`` of a TMA launch whose C leaves by stores from registers by choice, not because
#: TMA cannot store it (``C_PTR = 1``): TF32 on B K-major in the tiles of :data:`C_REGS_TILES`,
#: whose fp32 C tile would not fit in shared memory beside their pipeline.
C_REGS = 2
#: The tiles a TF32 call on B K-major times with C stored from registers (:func:`c_regs_ok`),
#: against its autotuned config: 128x256, two warpgroups, as cuBLAS's TF32 kernel. Staged for
#: a TMA store, its 128 KB fp32 C tile leaves room for no pipeline; from registers, 3 stages
#: take 144 KB. On the H100 (2026-11-26, docs/data/bench/tf32_wide/) 128x256x32/s3/w8 so ran
#: 360-370 TFLOP/s at 2048x4096x4096 to 8192³, 1.01-1.11x cuBLAS, where the best plain tile
#: (128x128x32/s5/w4, C by TMA) ran 294-331, 0.82-0.97x.
C_REGS_TILES = [(128, 256, 32, 3, 8)]
_C_REGS = {(*t, False) for t in C_REGS_TILES}


def c_regs_ok(elem: int, precision: str, b_kmajor: bool, persistent: bool) -> bool:
    """Whether a TMA call times :data:`C_REGS_TILES` with C stored from registers on its
    first call: TF32 (4-byte operands) on B K-major, given so or copied (the plain kernel,
    not Cᵀ = Bᵀ Aᵀ), one program a tile.

    >>> c_regs_ok(4, "tf32", True, False), c_regs_ok(4, "tf32", False, False)
    (True, False)
    >>> c_regs_ok(2, "tf32", True, False), c_regs_ok(4, "ieee", True, False)
    (False, False)
    """
    return elem == 4 and precision == "tf32" and b_kmajor and not persistent


#: From this many rows a call takes C from registers untimed (:func:`c_regs_taken`); below, its
#: first call times it against the autotuned plan (:func:`c_regs_timed`,
#: ``first_call.pick_regs``). Forced both ways in 5 interleaved replicates (2026-11-27,
#: docs/data/bench/tf32_2048/), C from registers ran 2.4-16% faster than the autotuned plan on
#: an H100 and 2.5-12% on an H200 at all 19 such shapes of the ``full`` suite above 2048^3,
#: 2048 to 32768 rows, among them the four where the timed pick had kept the autotuned plan
#: in every run; that pick, from run to run, kept either plan at a third of those shapes. No
#: shape of fewer rows was forced both ways (a B given K-major reaches the kernel at any M).
C_REGS_RULE_MIN_M = 2048


def c_regs_taken(elem: int, precision: str, use_tma: bool, b_kmajor: bool, persistent: bool,
                 M: int) -> bool:
    """Whether a call of ``M`` rows whose split of K is 1 runs :data:`C_REGS_TILES` with C
    stored from registers untimed (``matmul._plan``, ``kernels configs``): a TMA call that
    :func:`c_regs_ok` names, from :data:`C_REGS_RULE_MIN_M` rows.

    >>> c_regs_taken(4, "tf32", True, True, False, 4096)
    True
    >>> c_regs_taken(4, "tf32", True, True, False, 1024)    # fewer rows: timed instead
    False
    >>> c_regs_taken(4, "tf32", False, True, False, 4096)   # pointer loads: never
    False
    """
    return use_tma and c_regs_ok(elem, precision, b_kmajor, persistent) and M >= C_REGS_RULE_MIN_M


def c_regs_timed(elem: int, precision: str, use_tma: bool, b_kmajor: bool, persistent: bool,
                 M: int) -> tuple:
    """The tiles of :data:`C_REGS_TILES` a call of fewer than :data:`C_REGS_RULE_MIN_M` rows
    times on its first call against its autotuned plan, keeping the faster (``matmul._plan``,
    ``kernels configs``): a TMA call that :func:`c_regs_ok` names, where this process times
    anything (not under ``SWIZZLEKIT_AUTOTUNE=0``, which takes the model's first pick
    untimed); else none.

    >>> c_regs_timed(4, "tf32", True, True, False, 1024) == tuple(C_REGS_TILES)
    True
    >>> c_regs_timed(4, "tf32", True, True, False, 4096)    # the rule's rows: taken untimed
    ()
    """
    ok = (use_tma and current_mode() != "0" and c_regs_ok(elem, precision, b_kmajor, persistent)
          and M < C_REGS_RULE_MIN_M)
    return tuple(C_REGS_TILES) if ok else ()


#: Up to this M a 16-bit call with B row-major computes Cᵀ = Bᵀ Aᵀ (both kernels). The H200
#: ran the swapped probe above the library's tiles at every M up to 128, and below them at
#: 256x8192x8192 and at M = 512 (docs/data/bench/JOURNAL.md).
SWAP_16BIT_MAX_M = 128


def _one_tile_may_take(bm: int, bn: int, swap: bool, split_k: int = 1,
                       c_masked: bool = False) -> bool:
    """Whether a TMA launch of one tile a program may take a ``bm x bn`` tile, given its split
    of K and whether C is written by masked stores (``C_PTR``): a swapped tile of
    :data:`.footprint.ONE_TILE_AREA` or more runs in the one-tile path (``ONE_TILE``; the
    loop does not fit it in 3 stages), whose sums were right only where K is whole and C
    leaves through its TMA store. Forced alone (docs/data/bench/split_one_tile/),
    256x128x32/s3/w8 gave wrong sums in every call at four shapes with K split 2 ways (the
    H200, and the H100 at three of them, one call of three at the fourth) and with C written
    by masked stores, split or not (the H100; the H200 at 256x2048x1024). The H200's TF32
    `full` run at e9f671c had met the split case at three shapes
    (docs/data/bench/h200_2026-11-27/tf32/).

    >>> [_one_tile_may_take(*tile) for tile in ((256, 128, True), (128, 128, True, 2))]
    [True, True]
    >>> [_one_tile_may_take(256, 128, True, *how) for how in ((2, False), (1, True))]
    [False, False]
    """
    return not swap or bm * bn < ONE_TILE_AREA or (split_k == 1 and not c_masked)


def _prune(configs, named_args, **kwargs):
    """:func:`_fitting`, C in the operands' dtype, with the swapped configs exactly when the
    call swaps (:func:`_swap_ab`) and the plain ones otherwise; a TMA launch that splits K,
    or of one tile a program that writes C by masked stores, keeps only the tiles
    :func:`_one_tile_may_take`."""
    elem = element_size(named_args.get("a_ptr", named_args.get("a_desc")))
    M = named_args.get("M", 0)
    if "B_KMAJOR" in kwargs:                        # the TMA kernel
        swap = _swap_ab(elem, kwargs["PRECISION"], kwargs["B_KMAJOR"], M)
        single = not kwargs["PERSISTENT"]
        split, c_ptr = kwargs.get("SPLIT_K", 1), kwargs.get("C_PTR")
        masked = single and bool(c_ptr) and c_ptr != C_REGS
        if split > 1 or masked:
            configs = [c for c in configs if _one_tile_may_take(
                c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["SWAP_AB"], split, masked)]
        if c_ptr == C_REGS:                         # C from registers: those tiles alone
            regs = [c for c in configs              # (the interpreter's one), no C staged
                    if not c.kwargs.get("FLAT") and not c.kwargs["SWAP_AB"]
                    and (_INTERPRET or _key(c) in _C_REGS)]
            return _fitting(regs, M, elem, 0, single, N=named_args.get("N"))
        configs = [c for c in configs if not c.kwargs.get("FLAT")
                   or (flat_ok(kwargs) and (elem == 4 or _key(c) not in _FLAT_FP32))]
    else:                                           # pointer loads: 16-bit only, B by strides
        b_kmajor = named_args["stride_bk"] == 1 and named_args["stride_bn"] != 1
        swap = elem == 2 and _swap_ab(elem, kwargs["PRECISION"], b_kmajor, M)
        single = False
    configs = [c for c in configs if c.kwargs["SWAP_AB"] == swap
               and (c.kwargs.get("FLAT") or _key(c) not in _C_REGS)]
    return _fitting(configs, M, elem, elem, single, N=named_args.get("N"))


def flat_ok(kwargs: dict) -> bool:
    """Whether a TMA launch with these constexprs may take a flattened config: one program
    per tile otherwise (not ``persistent=True``, which has its own loop), no split K, and an
    order of :data:`FLAT_ORDERS`, no tail split (``TAIL``, which has its own loop)."""
    return (not kwargs["PERSISTENT"] and kwargs.get("SPLIT_K", 1) == 1
            and not kwargs.get("TAIL") and kwargs["ORDER"] in FLAT_ORDERS)


def _swap_ab(elem: int, precision: str, b_kmajor: bool, M: int) -> bool:
    """Whether a call computes Cᵀ = Bᵀ Aᵀ, B row-major (N-major tiles) either way: TF32, which
    wgmma takes from shared memory only K-major (Bᵀ's tile goes as its A operand, from
    registers); and 16-bit operands up to M = :data:`SWAP_16BIT_MAX_M`, where N fills wgmma's
    64-row side and M its 16-64 columns."""
    if b_kmajor:
        return False
    return (elem == 4 and precision == "tf32") or (elem == 2 and M <= SWAP_16BIT_MAX_M)


def config_labels(elem: int, M: int, swap: bool, single: bool) -> tuple[str, ...]:
    """The labels (:func:`~swizzlekit.kernels.triton.choose.config_label`) of the configs the
    prune keeps for a call: ``elem``-byte operands and C, ``M`` rows, swapped or not, one tile
    per program (``single``) or a persistent grid.

    >>> all(label.count("/") == 2 for label in config_labels(2, 4096, False, True))
    True
    """
    return _labels(elem, _rows_class(M), swap, single)


def _rows_class(M: int) -> int:
    """One M for every M that :func:`~swizzlekit.kernels.triton.tuning._fitting` treats alike
    without N (it keeps configs by M <= SMALL_M and M <= DEEP_MAX_M only: the labels, for
    the order pick, leave out the deep pipelines that few tiles add), for :func:`_labels`'
    cache."""
    if M <= SMALL_M:
        return M
    return SMALL_M + 1 if M <= DEEP_MAX_M else DEEP_MAX_M + 1


@functools.lru_cache(maxsize=64)
def _labels(elem: int, M: int, swap: bool, single: bool) -> tuple[str, ...]:
    from swizzlekit.kernels.triton.choose import config_label

    keep = [c for c in _configs(swap=True) if c.kwargs["SWAP_AB"] == swap
            and _key(c) not in _C_REGS]
    return tuple(config_label(c.kwargs, c.num_stages, c.num_warps)
                 for c in _fitting(keep, M, elem, elem, single))


def _auto_order(a, M: int, N: int, K: int, precision: str, use_tma: bool, b_kmajor: bool,
                persistent: bool) -> tuple[str, dict]:
    """``order="auto"`` in :func:`swizzlekit.kernels.matmul`: the order and parameters of
    :func:`_order_pick`."""
    chosen = _order_pick(a.element_size(), M, N, K, precision, use_tma, b_kmajor, persistent)
    return chosen.order, chosen.params


def _order_pick(elem: int, M: int, N: int, K: int, precision: str, use_tma: bool,
                b_kmajor: bool, persistent: bool, gpu_name: str | None = None):
    """The L2 model's pick (:func:`.auto_order.pick`, with its reason) for the configs this
    call's autotuner keeps (swapped or not, by the same rule as :func:`_prune`)."""
    from swizzlekit.kernels.triton.auto_order import pick
    from swizzlekit.kernels.triton.choose import family

    swap = _swap_ab(elem, precision, b_kmajor, M) and (use_tma or elem == 2)
    return pick(M, N, K, family(elem, precision), "tma" if use_tma else "pointer",
                config_labels(elem, M, swap, not persistent), elem, elem, persistent, gpu_name)


#: A 16-bit GEMM takes pointer loads by default where M < TMA_MIN_M or M*N*K <= TMA_MIN_MNK,
#: and TMA elsewhere. Since plans keep encoded descriptors (plans.Plan.tma), a TMA call costs
#: the host time of a pointer-load call (about 22-25 us on the H200), where it was the reason
#: for pointer loads up to 2^33. Measured on the H200 (2026-11-23, docs/data/bench/JOURNAL.md, run 10):
#: TMA 4-8% faster at 2048^3 in all four same-run comparisons; elsewhere below 2^33 either
#: way within the +-10-30% that single medians of 10-40 us calls swing between passes. So the
#: threshold moved down to below 2048^3, and the decode-like calls (M < 128, most of which run
#: the swapped kernel) keep pointer loads as before, since nothing showed TMA ahead there.
TMA_MIN_M, TMA_MIN_MNK = 128, 2**31


def tma_by_size(elem: int, M: int, N: int, K: int, whole_sectors: bool = True) -> bool:
    """Whether a GPU call of ``elem``-byte operands takes TMA by default where its tensors
    allow it: always for fp32, and for 16-bit from :data:`TMA_MIN_M` rows and above
    :data:`TMA_MIN_MNK`, or at any size where its rows are not ``whole_sectors``: where K, N
    or a row stride is no multiple of 16 elements (32 bytes). Pointer loads then run 16-byte
    vectors at best (:func:`.footprint.vec_hint`). Timed against them (2026-11-26,
    docs/data/bench/pointer_vec/; M = 16 to 2000, bf16 and fp16), TMA ran faster at 15 of 17
    such calls on the H200 (up to 48% less time) and 16 of 18 on the H100, and at most 1.9%
    behind at the others (16 x 14336 x 3000); pointer loads kept their lead at the aligned
    64 x 4096 x 4096.

    >>> tma_by_size(2, 64, 4096, 4096), tma_by_size(2, 2048, 2048, 2048), tma_by_size(4, 1, 1, 1)
    (False, True, True)
    >>> tma_by_size(2, 64, 5000, 4000, whole_sectors=False)
    True
    """
    check_choice("elem", elem, (1, 2, 4))
    M, N, K = (check_int(name, v, 1) for name, v in (("M", M), ("N", N), ("K", K)))
    check_bool("whole_sectors", whole_sectors)
    if elem == 2 and not whole_sectors:
        return True
    return not (elem == 2 and (M < TMA_MIN_M or M * N * K <= TMA_MIN_MNK))


#: A TF32 call copies a row-major B K-major (:func:`.kmajor.kmajor_copy`) for the plain kernel
#: from :func:`tf32_copy_min_m` rows; below them the swapped kernel reads B as given. The
#: copy moves B's 4 K N bytes twice, the GEMM does 2 M N K flops, so the copy's share of the
#: call goes as 1 / M whatever N and K are, and it pays from M = payoff x 4 peak / bandwidth
#: (the preset's TF32 peak and DRAM bandwidth). Copy and plain kernel took as long as the
#: swapped kernel (medians over 15-17 shapes a card of 5 interleaved replicates each,
#: 2026-11-26, docs/data/bench/tf32_copy/fit.py) at M = 2412 on the H100 (4.09 x 590) and
#: 1837 on the H200 (3.99 x 460). Copy over swapped: 1.05-1.28x the time at M = 1024 on both
#: cards; at 2048, 0.95-1.07x on the H100 and 0.89-0.98x on the H200; from 3072, 0.80-1.04x
#: on the H100 (above 1 at two of 22 shapes, both N <= 1024) and 0.79-0.98x on the H200.
#: Once B K-major took C from registers (C_REGS_TILES), the H100 broke even at M = 1664
#: (2.82 x 590; tf32_copy/h100_regs/, 18 shapes of M = 512-3072): copy over swapped 1.03-1.14x
#: at M = 1536, 0.86-0.95x at 2048. The H200 keeps its fit of the tiles before them (its copy
#: pays from fewer rows, not yet measured).
TF32_COPY_PAYOFF = {"h100-sxm": 2.8, "h200": 4.0}
#: Where set (an int of rows), every card copies from there instead (tests, experiments).
TF32_COPY_MIN_M: int | None = None


def tf32_copy_min_m(gpu_name: str | None = None) -> int:
    """The fewest rows from which a TF32 call with a row-major B runs on B's K-major copy on
    ``gpu_name`` (default: the card this process plans for): :data:`TF32_COPY_MIN_M` where
    set, else the card's :data:`TF32_COPY_PAYOFF` (the H100's for a card without one) x 4 x
    TF32 peak / DRAM bandwidth.

    >>> tf32_copy_min_m("h100-sxm"), tf32_copy_min_m("h200")
    (1652, 1841)
    """
    from swizzlekit.gpus import gpu
    from swizzlekit.kernels.triton.device import current_gpu, planned

    if TF32_COPY_MIN_M is not None:
        return TF32_COPY_MIN_M
    name = planned(gpu_name or current_gpu())
    card = gpu(name)
    payoff = TF32_COPY_PAYOFF.get(name, TF32_COPY_PAYOFF["h100-sxm"])
    return math.ceil(payoff * 4 * card.peak_tflops["tf32"] * 1e12 / (card.dram_gbps * 1e9))


#: The largest tile of the TMA kernel's configs, in elements.
MAX_TILE_AREA = _max_area()
