"""The L2 model: DRAM traffic and Nsight Compute's L2 hit rate of a tiled GEMM under a CTA order.

The picture, fitted on the fit half of ``src/swizzlekit/data/l2_sweep_h200.csv`` and judged on
its held-out half (docs/cta.md; :mod:`swizzlekit.compare`):

* CTAs run in *waves* of ``concurrent`` consecutive CTAs of the order, in lockstep over the K
  loop: at step k, the wave reads A tile (m, k) for each of its tile-rows m and B tile (k, n)
  for each of its tile-columns n. The wave is ``sms * ctas_per_sm ** window_exponent``
  (:data:`FITTED`: the fit chose exponent 0, one CTA per SM, whatever the residency: CTAs that
  share an SM drift apart in K, and only about one per SM shares its reads in step).
* The L2 is split into ``partitions`` (two on Hopper), each caching for the SMs beside it.
  Which partition serves a CTA is a seeded coin per CTA (:func:`lanes`), per program for a
  persistent grid. Each partition is an LRU cache of ``l2_bytes / partitions`` at tile
  granularity, set-associative with ``ways`` ways (fitted: 8) whose lines land in sets by a
  hash, so reuse fades around the capacity instead of falling off a cliff
  (:func:`swizzlekit.cta.reuse.hit_share`).
* C's tiles take room too: each CTA writes its C tile into its partition as it ends, and
  those bytes stand between a tile's reads like A and B do (no parameter).
* Reads of a tile that the same wave already read in the same partition are hits, and a
  share ``coalesce`` of them (fitted: 0) is merged before the L2 and never looked up. In a
  wave whose CTAs run in step (:func:`in_step`: the first wave, whose CTAs start together,
  and every wave of a kernel of one CTA per SM, whose waves keep that pace), a share
  ``inflight`` (fitted) of those behind a miss that do reach the L2 find the miss still
  pending, and count as misses (no DRAM bytes).
* Every tile is spread evenly over the partitions' home address ranges. A partition that
  misses a tile fetches its own share from DRAM, and asks the other partition for the rest
  (a "fabric" lookup). The other partition hits if it read the tile in the same wave;
  otherwise the data also comes from DRAM. That gives the hit rate's lookups.
* The DRAM bytes come from a second pass (the "mirror"), as if one L2 held what every CTA
  reads: an LRU of ``mirror`` (fitted: 0.6) of the preset's bytes with ``mirror_ways``
  (fitted: 16) ways, C's tiles between the reads as above. Each partition keeps its own copy
  of what its SMs read from either half, so that one L2 of part of the bytes counts the
  misses that reach DRAM better than the two partitions do (on the H200's fit half, median
  DRAM error 1.3% against 1.8%, docs/data/l2_checks/fit_mirror.txt; worst over non-random
  orders 91% against 317%, mirror.txt). It
  ranks the orders of short K at high residency as ncu does, where the partitions rank them
  the other way round. ``mirror=0`` takes the DRAM bytes from the partitions instead.
* Nsight Compute's ``lts__t_sector_hit_rate`` is ``lookup hits / lookups`` over near reads,
  fabric lookups and C's writes, which count as hits.
* An operand whose rows do not all start on a 32-byte sector (``row_bytes`` not a multiple
  of it: a ragged K or N) reaches the L2 with more than one lookup per sector it reads, and
  the extra lookups hit: the same misses and DRAM bytes, more hits (measured by padding the
  rows of one ragged problem: ``docs/data/l2_checks/pitch.py``). Rows every other one half a
  sector off (:func:`row_classes` "half") take ``unaligned_lookups`` (fitted) per sector;
  rows whose offsets step through other values ("skewed") take ``skewed_lookups``.

The prediction also carries ``time_s``, the kernel's time by the time model
(:func:`swizzlekit.cta.timing.kernel_time`: each wave's compute and DRAM times, fitted per
GPU on replicate-timed orders).

The LRU needs no per-access loop. A tile read by a partition in wave w was last read in wave
w' (same k). Between the two, the distinct bytes that partition read are
``(tk-1-k) U(w', w-1) + k U(w'+1, w) + U(w'+1, w-1)``, where ``U(a, b)`` is the A and B bytes
of the distinct tile-rows and tile-columns over waves a..b, read from a 2-D table. The access
hit share of that plus its own size and the C written since wave w' is one function of it,
so the hits over all k follow in closed form (:mod:`swizzlekit.cta.reuse`).
:func:`swizzlekit.cta.l2_oracle.simulate_naive` computes the same by brute force from the
definition; the tests hold the two equal.

>>> from swizzlekit.cta import order
>>> p = simulate(4096, 4096, 4096, order("grouped", 32, 32, group=8), ctas_per_sm=2)
>>> round(p.l2_hit_rate, 1), p.dram_read_bytes // 2**20        # the H200: 82.8%, 178 MiB
(83.2, 172)
>>> round(simulate(4096, 4096, 4096, order("grouped", 32, 32, group=8)).l2_hit_rate, 1)
78.5
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swizzlekit.cta.families import time_family
from swizzlekit.cta.l2_settings import (ELEM_BYTES, FITTED, FRESH, HELDOUT, HELDOUT_BY_DISPATCH,
                                        HELDOUT_BY_GPU, MAX_TILE_SIDE, MAX_TILE_STEPS, MAX_TILES,
                                        MAX_WAVES, RAGGED_CHECK, settings)
from swizzlekit.cta.orders import check_order
from swizzlekit.cta.reuse import partition_hits
from swizzlekit.cta.schedule import DISPATCH, _schedule, in_step, lanes, run_order
from swizzlekit.cta.timing import kernel_time
from swizzlekit.errors import SwizzleKitError, check_choice, check_int, check_ints

__all__ = ["L2Prediction", "simulate", "settings", "lanes", "in_step", "run_order", "FITTED",
           "HELDOUT", "FRESH", "RAGGED_CHECK", "DISPATCH", "HELDOUT_BY_DISPATCH",
           "HELDOUT_BY_GPU", "check_problem", "row_classes", "ELEM_BYTES", "MAX_TILES",
           "MAX_TILE_STEPS", "MAX_TILE_SIDE", "MAX_WAVES"]


@dataclass(frozen=True)
class L2Prediction:
    l2_hit_rate: float          # percent, as ncu's lts__t_sector_hit_rate.pct
    dram_read_bytes: int
    dram_write_bytes: int
    lookups: int                # sectors looked up (near reads + fabric + writes)
    waves: int
    per_wave_dram_read_bytes: tuple[int, ...]
    time_s: float               # the kernel's predicted time (swizzlekit.cta.timing)

    def to_dict(self) -> dict:
        return {"l2_hit_rate": self.l2_hit_rate, "dram_read_bytes": self.dram_read_bytes,
                "dram_write_bytes": self.dram_write_bytes, "lookups": self.lookups,
                "waves": self.waves, "per_wave_dram_read_bytes": list(self.per_wave_dram_read_bytes),
                "time_s": self.time_s}


def check_problem(M, N, K, order, tile, elem_bytes):
    """Validate a GEMM problem for the model; returns ``M, N, K, tile, order`` cleaned up.

    >>> check_problem(1024, 1024, -64, None, (128, 128, 64), 2)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: K must be at least 1; got -64
    """
    M, N, K = check_int("M", M), check_int("N", N), check_int("K", K)
    bm, bn, bk = check_ints("tile", tile, 3, hi=MAX_TILE_SIDE)
    _element_bytes("elem_bytes", elem_bytes)
    tm, tn, tk = -(-M // bm), -(-N // bn), -(-K // bk)
    if tm * tn > MAX_TILES or tm * tn * tk > MAX_TILE_STEPS:
        raise SwizzleKitError(
            f"{M}x{N}x{K} in {bm}x{bn}x{bk} tiles is {tm * tn} tiles x {tk} K steps; the model "
            f"answers at most {MAX_TILES} tiles and {MAX_TILE_STEPS} tile-steps (e.g. "
            f"32768x32768x8192 in 128x128x64 tiles)")
    if order is not None:
        order = check_order(order, tm, tn)
    return M, N, K, (bm, bn, bk), order


def simulate(M: int, N: int, K: int, order: np.ndarray, *, tile: tuple[int, int, int] = (128, 128, 64),
             elem_bytes: int = 2, gpu: str = "h200", ctas_per_sm: int = 1,
             persistent: bool = False, l2_bytes: int | None = None,
             concurrent: int | None = None, partitions: int | None = None,
             coalesce: float | None = None,
             window_exponent: float | None = None, dispatch: str = "coin",
             out_bytes: int | None = None, ways: int | None = None,
             inflight: float | None = None, programs: int | None = None,
             row_bytes: tuple[int, int] | None = None,
             unaligned_lookups: float | None = None,
             skewed_lookups: float | None = None,
             duration_spread: float | None = None, mirror: float | None = None,
             mirror_ways: int | None = None) -> L2Prediction:
    """Predict DRAM bytes and ncu's L2 hit rate for ``C = A @ B`` tiled by ``tile`` in ``order``.

    ``elem_bytes``: A's and B's element size; ``out_bytes``: C's (default ``elem_bytes``; an
    fp8 GEMM writing fp16 C has 1 and 2).
    ``gpu``: a preset of :mod:`swizzlekit.gpus` (SMs, L2 bytes, partitions). ``ctas_per_sm``:
    the kernel's residency (:func:`swizzlekit.gpus.residency`). ``persistent``: SMs x
    residency programs walk the order with a stride, each staying beside one partition;
    ``programs`` launches another count (more than fit run in batches: :func:`run_order`).
    ``l2_bytes``, ``concurrent`` (the wave) and ``partitions`` override the preset, and
    ``coalesce``, ``ways``, ``inflight``, ``window_exponent``, ``mirror`` and ``mirror_ways``
    the fitted parameters (:data:`FITTED`; docs/cta.md).
    ``dispatch``: how CTAs land on the L2's partitions (:func:`lanes`; :data:`DISPATCH`).
    ``row_bytes``: the bytes from one row of A and of B to the next (default: contiguous
    row-major A, M x K, and B, K x N; a K-major B has ``K * elem_bytes``); rows that do not
    start on a sector cost ``unaligned_lookups`` or ``skewed_lookups`` lookups per sector
    (:func:`row_classes`; :data:`FITTED`). ``duration_spread`` overrides the preset's
    measured spread of CTA durations, by which a persistent grid's programs drift apart
    (:func:`swizzlekit.cta.schedule.run_order`).
    """
    if order is None:
        raise SwizzleKitError("simulate needs an order: a (tiles, 2) array such as "
                              "swizzlekit.cta.order('grouped', tiles_m, tiles_n)")
    M, N, K, (bm, bn, bk), order = check_problem(M, N, K, order, tile, elem_bytes)
    elem_bytes = _element_bytes("elem_bytes", elem_bytes)
    out_bytes = _out_bytes(out_bytes, elem_bytes)
    s = settings(gpu, ctas_per_sm, persistent=persistent, l2_bytes=l2_bytes,
                 concurrent=concurrent, partitions=partitions, coalesce=coalesce,
                 window_exponent=window_exponent, dispatch=dispatch, ways=ways,
                 inflight=inflight, programs=programs, unaligned_lookups=unaligned_lookups,
                 skewed_lookups=skewed_lookups, duration_spread=duration_spread, mirror=mirror,
                 mirror_ways=mirror_ways)
    rows = row_classes(row_bytes, K, N, elem_bytes, s["sector_bytes"])
    concurrent, partitions, l2_bytes, q = (s["concurrent"], s["partitions"], s["l2_bytes"],
                                           s["coalesce"])
    tm, tn, tk = -(-M // bm), -(-N // bn), -(-K // bk)
    a_bytes, b_bytes = bm * bk * elem_bytes, bk * bn * elem_bytes
    n_waves = -(-len(order) // concurrent)
    if n_waves > MAX_WAVES:
        raise SwizzleKitError(f"{len(order)} CTAs in waves of {concurrent} are {n_waves} waves; "
                              f"the model answers at most {MAX_WAVES} (use a larger wave)")
    cap = l2_bytes / partitions
    order_in = order
    order, lane = _schedule(order, s, persistent)
    wave_of = np.arange(len(order)) // concurrent
    near_hits = near_total = fab_hits = fab_total = dup_bytes = pending = 0.0
    span = max(tm, tn) + 1
    dram = np.zeros(n_waves)
    served = []         # per partition: (wave, tile id, near misses over k, tile bytes) for A, B
    for p in range(partitions):
        sel = lane == p
        hm, hn, (wa, va), (wb, vb) = _cache_hits(order[sel], wave_of[sel], n_waves, span, tk,
                                                 a_bytes, b_bytes, bm * bn * out_bytes, cap,
                                                 s["ways"])
        ctas = int(sel.sum())
        miss_a, miss_b = tk - hm, tk - hn
        reads = ctas * tk * (a_bytes + b_bytes)
        # reads of a tile a wave already read in this partition (some never reach L2)
        dup_bytes += reads - tk * (len(wa) * a_bytes + len(wb) * b_bytes)
        near_total += reads * partitions
        # near misses: the first CTA of the wave misses, the others of the wave then hit
        near_hits += (reads - (miss_a.sum() * a_bytes + miss_b.sum() * b_bytes)) * partitions
        # ... but in a wave whose CTAs run in step, some arrive while it is pending
        for ids, w, v, miss, size in ((order[:, 0], wa, va, miss_a, a_bytes),
                                      (order[:, 1], wb, vb, miss_b, b_bytes)):
            keys, readers = np.unique(wave_of[sel] * span + ids[sel], return_counts=True)
            behind = (readers[np.searchsorted(keys, w * span + v)] - 1) * miss * size
            pending += behind[in_step(w, s["ctas_per_sm"])].sum()
        served.append(((wa, va, miss_a, a_bytes), (wb, vb, miss_b, b_bytes)))
    for p in range(partitions):
        for idx in (0, 1):
            w, v, miss, size = served[p][idx]
            local = miss * size                              # own share straight from DRAM
            far = miss * size * (partitions - 1)             # the rest asked of the others
            others = np.zeros(len(w), dtype=bool)
            for other in range(partitions):
                if other != p:
                    qw, qv = served[other][idx][:2]
                    others |= np.isin(w * span + v, qw * span + qv)
            fab_total += far.sum()
            fab_hits += far[others].sum()
            np.add.at(dram, w, local + np.where(others, 0, far))
    if s["mirror"] > 0:                                      # DRAM bytes from the mirror
        dram = _mirror_dram(order, wave_of, n_waves, tk, a_bytes, b_bytes, bm * bn * out_bytes,
                            l2_bytes * s["mirror"], s["mirror_ways"], span) * partitions
    gone = q * dup_bytes * partitions
    near_hits -= s["inflight"] * (1 - q) * pending * partitions
    # the extra lookups of rows that do not start on a sector, all hits
    extra = _extra_lookups(s, rows, len(order) * tk * a_bytes, len(order) * tk * b_bytes)
    kind = time_family(order_in, tm, tn, persistent)
    return _prediction(near_hits - gone + extra, near_total - gone + extra, fab_hits, fab_total,
                       dram, M * N * out_bytes, partitions, (M, N, K, elem_bytes, gpu, kind))


def _wave_sets(wave_of: np.ndarray, ids: np.ndarray, n_waves: int, span: int) -> list:
    """The distinct ``ids`` (below ``span``) each wave reads, sorted: one array a wave.

    >>> [s.tolist() for s in _wave_sets(np.array([0, 0, 0, 2]), np.array([3, 1, 3, 0]), 3, 4)]
    [[1, 3], [], [0]]
    """
    keys = np.unique(wave_of * span + ids)
    bounds = np.searchsorted(keys // span, np.arange(n_waves + 1))
    ids = keys % span
    return [ids[bounds[w]:bounds[w + 1]] for w in range(n_waves)]


def _cache_hits(order: np.ndarray, wave_of: np.ndarray, n_waves: int, span: int, tk: int,
                a_bytes: int, b_bytes: int, c_bytes: int, capacity: float, ways: int):
    """:func:`swizzlekit.cta.reuse.partition_hits` of the CTAs of ``order`` (in waves
    ``wave_of``, tile ids below ``span``) that read through one cache of ``capacity`` bytes
    and ``ways`` ways, each writing a C tile of ``c_bytes`` into it as it ends: one
    partition's CTAs, or every CTA for the mirror."""
    m_sets = _wave_sets(wave_of, order[:, 0], n_waves, span)
    n_sets = _wave_sets(wave_of, order[:, 1], n_waves, span)
    written = np.bincount(wave_of, minlength=n_waves) * c_bytes
    return partition_hits(m_sets, n_sets, tk, a_bytes, b_bytes, capacity, ways, written)


def _mirror_dram(order: np.ndarray, wave_of: np.ndarray, n_waves: int, tk: int, a_bytes: int,
                 b_bytes: int, c_bytes: int, capacity: float, ways: int,
                 span: int) -> np.ndarray:
    """DRAM bytes per wave of one L2 of ``capacity`` bytes and ``ways`` ways that every CTA
    of the (scheduled) ``order`` reads through, C's tiles of ``c_bytes`` written into it
    (tile ids below ``span``)."""
    hm, hn, (wa, _), (wb, _) = _cache_hits(order, wave_of, n_waves, span, tk, a_bytes, b_bytes,
                                           c_bytes, capacity, ways)
    dram = np.zeros(n_waves)
    np.add.at(dram, wa, (tk - hm) * a_bytes)
    np.add.at(dram, wb, (tk - hn) * b_bytes)
    return dram


def row_classes(row_bytes, K: int, N: int, elem_bytes: int,
                sector_bytes: int = 32) -> tuple[str, str]:
    """How A's rows and B's rows sit on the L2's sectors, by their pitch in bytes
    (``row_bytes``; default contiguous row-major, ``K`` and ``N`` elements): "on" (a multiple
    of ``sector_bytes``: every row starts on a sector), "half" (an odd multiple of half a
    sector: every other row starts half a sector off), or "skewed" (the rows' offsets step
    through other values)::

        pitch % 32 == 0    |0 ..|0 ..|0 ..      on
        pitch % 32 == 16   |0 ..|16..|0 ..      half
        pitch % 32 == 8    |0 ..|8 ..|16..|24.. skewed (so 4, 2, odd)

    >>> row_classes(None, 4000, 5000, 2)          # A: 8000 bytes a row; B: 10000
    ('on', 'half')
    >>> row_classes((8064, 10112), 4000, 5000, 2)  # the same operands in padded rows
    ('on', 'on')
    >>> row_classes(None, 3999, 4096, 2)          # an odd K: 7998-byte rows
    ('skewed', 'on')
    """
    K, N = check_int("K", K, 1, 2**40), check_int("N", N, 1, 2**40)
    elem_bytes = _element_bytes("elem_bytes", elem_bytes)
    sector_bytes = check_int("sector_bytes", sector_bytes, 1, 1024)
    if row_bytes is None:
        row_bytes = (K * elem_bytes, N * elem_bytes)
    row_bytes = check_ints("row_bytes", row_bytes, 2)
    shortest = ((K * elem_bytes, "A's", "K"),                 # B's rows: N, or K if K-major
                (min(K, N) * elem_bytes, "B's", "N or K"))
    for pitch, (least, name, elems) in zip(row_bytes, shortest):
        if pitch < least:
            raise SwizzleKitError(f"row_bytes: {name} rows {pitch} bytes apart would overlap; "
                                  f"give at least {least} ({elems} elements of {elem_bytes} "
                                  f"bytes)")
    return tuple("on" if pitch % sector_bytes == 0 else
                 "half" if 2 * pitch % sector_bytes == 0 else "skewed"
                 for pitch in row_bytes)


def _extra_lookups(s: dict, rows: tuple[str, str], a_bytes: int, b_bytes: int) -> float:
    """The lookups beyond one per sector of the ``a_bytes`` and ``b_bytes`` read from A and B
    whose rows sit as ``rows`` (:func:`row_classes`), in the model's units (bytes times
    partitions; one sum, so that the model and the oracle agree exactly)."""
    per_sector = {"on": 1.0, "half": s["unaligned_lookups"], "skewed": s["skewed_lookups"]}
    return ((per_sector[rows[0]] - 1) * a_bytes
            + (per_sector[rows[1]] - 1) * b_bytes) * s["partitions"]


def _out_bytes(out_bytes, elem_bytes: int) -> int:
    """C's element size: ``out_bytes`` checked, or ``elem_bytes`` when None."""
    return elem_bytes if out_bytes is None else _element_bytes("out_bytes", out_bytes)


def _element_bytes(name: str, value) -> int:
    """An element size of :data:`ELEM_BYTES`: an integer (not a bool, not 2.0)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SwizzleKitError(f"{name} must be an integer, one of "
                              f"{', '.join(map(str, ELEM_BYTES))}; got {value!r}")
    return int(check_choice(name, value, ELEM_BYTES))


def _prediction(near_hits: float, near_total: float, fab_hits: float, fab_total: float,
                dram: np.ndarray, writes: int, scale: int, problem: tuple) -> L2Prediction:
    """ncu's hit rate over near reads, fabric lookups and C's writes (which hit), and the
    time of ``problem`` (``M, N, K, elem_bytes, gpu``) by :func:`swizzlekit.cta.timing.kernel_time`.

    Every byte count comes in multiplied by ``scale`` (the partition count), so that a
    partition's share of a tile is a whole number and the fast model and the oracle add up
    the same integers, whatever order they add them in (the coalesced share is taken off
    once, at the end, from the same integer total)."""
    lookups = near_total + fab_total + writes * scale
    hit = 100.0 * (near_hits + fab_hits + writes * scale) / lookups
    per_wave = tuple(round(float(x) / scale) for x in dram)
    M, N, K, elem_bytes, gpu, kind = problem
    return L2Prediction(round(float(hit), 2), round(float(dram.sum()) / scale), writes,
                        round(lookups / scale / 32), len(dram), per_wave,
                        kernel_time(M, N, K, elem_bytes, per_wave, writes, gpu, family=kind))
