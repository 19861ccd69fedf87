"""The L2 model: DRAM traffic and Nsight Compute's L2 hit rate of a tiled GEMM under a CTA order.

The picture, fitted to and judged against ``src/swizzlekit/data/l2_h200*.csv`` (docs/cta.md):

* CTAs run in *waves* of ``concurrent`` consecutive CTAs of the order, in lockstep over the K
  loop: at step k, the wave reads A tile (m, k) for each of its tile-rows m and B tile (k, n)
  for each of its tile-columns n.
* The L2 is split into ``partitions`` (two on Hopper), each caching for the SMs beside it; CTA
  i of a wave runs beside partition ``i % partitions``. Each partition is a fully associative
  LRU cache of ``l2_bytes / partitions`` at tile granularity.
* Every tile is spread evenly over the partitions' home address ranges. A partition that
  misses a tile fetches its own share from DRAM, and asks the other partition for the rest
  (a "fabric" lookup). The other partition hits if it read the tile in the same wave;
  otherwise the data also comes from DRAM.
* Nsight Compute's ``lts__t_sector_hit_rate`` is ``lookup hits / lookups`` over near reads,
  fabric lookups and C's writes, which count as hits.

The LRU needs no per-access loop. A tile read by a partition in wave w was last read in wave
w' (same k). Between the two, the distinct bytes that partition read are
``(tk-1-k) U(w', w-1) + k U(w'+1, w) + U(w'+1, w-1)``, where ``U(a, b)`` is the A and B bytes
of the distinct tile-rows and tile-columns over waves a..b, read from a 2-D table. The access
hits when that plus its own size fits, so the hits over all k follow in closed form.
:func:`simulate_naive` computes the same by brute force from the definition; the tests hold
the two equal.

>>> from swizzlekit.cta import order
>>> p = simulate(4096, 4096, 4096, order("grouped", 32, 32, group=8))
>>> round(p.l2_hit_rate, 1), p.dram_read_bytes // 2**20
(87.1, 151)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swizzlekit.cta.orders import check_order
from swizzlekit.errors import SwizzleKitError, check_choice, check_int, check_ints
from swizzlekit.gpus import GPUS

_H200 = GPUS["h200"]     # the defaults: the GPU the model was fitted on

__all__ = ["L2Prediction", "simulate", "simulate_naive", "check_problem", "ELEM_BYTES",
           "MAX_TILES", "MAX_TILE_STEPS"]


@dataclass(frozen=True)
class L2Prediction:
    l2_hit_rate: float          # percent, as ncu's lts__t_sector_hit_rate.pct
    dram_read_bytes: int
    dram_write_bytes: int
    lookups: int                # sectors looked up (near reads + fabric + writes)
    waves: int
    per_wave_dram_read_bytes: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"l2_hit_rate": self.l2_hit_rate, "dram_read_bytes": self.dram_read_bytes,
                "dram_write_bytes": self.dram_write_bytes, "lookups": self.lookups,
                "waves": self.waves, "per_wave_dram_read_bytes": list(self.per_wave_dram_read_bytes)}


def _occurrences(ids: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every (wave, id) occurrence: its wave, id, and the previous wave with that id (-1)."""
    waves = np.concatenate([np.full(len(x), w) for w, x in enumerate(ids)]) if ids else np.zeros(0, int)
    vals = np.concatenate(ids) if ids else np.zeros(0, int)
    order_ = np.lexsort((waves, vals))
    prev = np.full(len(vals), -1)
    same = np.zeros(len(vals), dtype=bool)
    same[1:] = vals[order_][1:] == vals[order_][:-1]
    prev_sorted = np.where(same, np.concatenate([[-1], waves[order_][:-1]]), -1)
    prev[order_] = prev_sorted
    return waves, vals, prev


def _union_table(waves: np.ndarray, prev: np.ndarray, n_waves: int) -> np.ndarray:
    """``T[a, b]`` = distinct ids over waves a..b (a <= b): occurrences in [a, b] whose
    previous occurrence is before a. Built from a 2-D difference array."""
    diff = np.zeros((n_waves + 2, n_waves + 2), dtype=np.int64)
    # an occurrence at wave v with previous u counts for every a in (u, v], b in [v, n)
    np.add.at(diff, (prev + 1, waves), 1)
    np.add.at(diff, (waves + 1, waves), -1)
    table = np.cumsum(np.cumsum(diff, axis=0), axis=1)
    return table[:n_waves, :n_waves]


def _partition_hits(m_sets: list[np.ndarray], n_sets: list[np.ndarray], tk: int, a_bytes: int,
                    b_bytes: int, capacity: float) -> tuple[np.ndarray, np.ndarray, list, list]:
    """Near hits, counted over k, for every (wave, tile-row) and (wave, tile-column) read."""
    n_waves = len(m_sets)
    wa, va, pa = _occurrences(m_sets)
    wb, vb, pb = _occurrences(n_sets)
    ta, tb = _union_table(wa, pa, n_waves), _union_table(wb, pb, n_waves)

    def U(lo, hi):
        ok = lo <= hi
        lo_c, hi_c = np.clip(lo, 0, n_waves - 1), np.clip(hi, 0, n_waves - 1)
        return np.where(ok, ta[lo_c, hi_c] * a_bytes + tb[lo_c, hi_c] * b_bytes, 0)

    def hits(w, p, own):
        reused = p >= 0
        u1, u2, u3 = U(p, w - 1), U(p + 1, w), U(p + 1, w - 1)
        # distance(k) = (tk-1-k) u1 + k u2 + u3; hit when distance(k) + own <= capacity
        base = (tk - 1) * u1 + u3 + own           # at k = 0
        slope = u2 - u1                            # per step of k (<= 0: u2 <= u1)
        ks = np.arange(tk)
        count = ((base[:, None] + slope[:, None] * ks[None, :]) <= capacity).sum(axis=1)
        return np.where(reused, count, 0)

    return hits(wa, pa, a_bytes), hits(wb, pb, b_bytes), (wa, va), (wb, vb)


#: Element widths the model takes: fp8, fp16/bf16, fp32/tf32, fp64.
ELEM_BYTES = (1, 2, 4, 8)
#: The largest problem :func:`simulate` answers: tiles in the grid, and tiles times K steps.
#: 32768 x 32768 x 8192 in 128x128x64 tiles (65536 tiles, 128 steps) takes about 0.7 s on one
#: core; the cost grows with both.
MAX_TILES = 2**16
MAX_TILE_STEPS = 2**24


def check_problem(M, N, K, order, tile, elem_bytes):
    """Validate a GEMM problem for the model; returns ``M, N, K, tile, order`` cleaned up.

    >>> check_problem(1024, 1024, -64, None, (128, 128, 64), 2)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: K must be at least 1; got -64
    """
    M, N, K = check_int("M", M), check_int("N", N), check_int("K", K)
    bm, bn, bk = check_ints("tile", tile, 3)
    check_choice("elem_bytes", elem_bytes, ELEM_BYTES)
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
             elem_bytes: int = 2, l2_bytes: int = _H200.l2_bytes, concurrent: int = _H200.sms,
             partitions: int = _H200.l2_partitions) -> L2Prediction:
    """Predict DRAM bytes and ncu's L2 hit rate for ``C = A @ B`` tiled by ``tile`` in ``order``.

    ``concurrent`` is the wave size: the CTAs that share the L2 at once. 132 is what fits the
    H200 measurements of the 128x128x64 fp16 kernel (docs/cta.md).
    """
    M, N, K, (bm, bn, bk), order = check_problem(M, N, K, order, tile, elem_bytes)
    tm, tn, tk = -(-M // bm), -(-N // bn), -(-K // bk)
    concurrent = check_int("concurrent", concurrent)
    partitions = check_int("partitions", partitions, 1, 16)
    l2_bytes = check_int("l2_bytes", l2_bytes)
    a_bytes, b_bytes = bm * bk * elem_bytes, bk * bn * elem_bytes
    n_waves = -(-len(order) // concurrent)
    cap = l2_bytes / partitions
    lane = np.arange(len(order)) % concurrent % partitions
    wave_of = np.arange(len(order)) // concurrent
    near_hits = near_total = fab_hits = fab_total = 0.0
    dram = np.zeros(n_waves)
    reads = []          # per partition: (wave, tile id, near misses over k, tile bytes) for A, B
    for p in range(partitions):
        sel = lane == p
        m_sets = [np.unique(order[sel & (wave_of == w), 0]) for w in range(n_waves)]
        n_sets = [np.unique(order[sel & (wave_of == w), 1]) for w in range(n_waves)]
        hm, hn, (wa, va), (wb, vb) = _partition_hits(m_sets, n_sets, tk, a_bytes, b_bytes, cap)
        ctas = int(sel.sum())
        miss_a, miss_b = tk - hm, tk - hn
        near_total += ctas * tk * (a_bytes + b_bytes) * partitions
        # near misses: the first CTA of the wave misses, the others of the wave then hit
        near_hits += (ctas * tk * (a_bytes + b_bytes) - (miss_a.sum() * a_bytes
                                                         + miss_b.sum() * b_bytes)) * partitions
        reads.append(((wa, va, miss_a, a_bytes), (wb, vb, miss_b, b_bytes)))
    span = max(tm, tn) + 1
    for p in range(partitions):
        for idx in (0, 1):
            w, v, miss, size = reads[p][idx]
            local = miss * size                              # own share straight from DRAM
            far = miss * size * (partitions - 1)             # the rest asked of the others
            others = np.zeros(len(w), dtype=bool)
            for q in range(partitions):
                if q != p:
                    qw, qv = reads[q][idx][:2]
                    others |= np.isin(w * span + v, qw * span + qv)
            fab_total += far.sum()
            fab_hits += far[others].sum()
            np.add.at(dram, w, local + np.where(others, 0, far))
    return _prediction(near_hits, near_total, fab_hits, fab_total, dram, M * N * elem_bytes,
                       partitions)


def _prediction(near_hits: float, near_total: float, fab_hits: float, fab_total: float,
                dram: np.ndarray, writes: int, scale: int) -> L2Prediction:
    """ncu's hit rate over near reads, fabric lookups and C's writes (which hit).

    Every byte count comes in multiplied by ``scale`` (the partition count), so that a
    partition's share of a tile is a whole number and the fast model and the oracle add up
    the same integers, whatever order they add them in."""
    lookups = near_total + fab_total + writes * scale
    hit = 100.0 * (near_hits + fab_hits + writes * scale) / lookups
    return L2Prediction(round(float(hit), 2), round(float(dram.sum()) / scale), writes,
                        round(lookups / scale / 32), len(dram),
                        tuple(round(float(x) / scale) for x in dram))


def simulate_naive(M: int, N: int, K: int, order: np.ndarray, *, tile=(128, 128, 64),
                   elem_bytes: int = 2, l2_bytes: int = _H200.l2_bytes, concurrent: int = _H200.sms,
                   partitions: int = _H200.l2_partitions) -> L2Prediction:
    """The oracle, straight from the definition: every read of every step, and for each, the
    union of every tile its partition touched between its previous read and now, by brute force.

    A read hits when that union's bytes plus its own size fit in the partition's share of L2
    (an LRU at step granularity: the tiles of one step are read together). Quadratic in the
    steps: for small problems only.
    """
    M, N, K, tile, order = check_problem(M, N, K, order, tile, elem_bytes)
    concurrent, partitions = check_int("concurrent", concurrent), check_int("partitions", partitions)
    bm, bn, bk = tile
    tk = -(-K // bk)
    size = {"a": bm * bk * elem_bytes, "b": bk * bn * elem_bytes}
    cap = l2_bytes / partitions
    history: list[list[set]] = [[] for _ in range(partitions)]   # per partition, per step
    last: list[dict] = [{} for _ in range(partitions)]           # key -> step of last read
    near_hits = near_total = fab_hits = fab_total = 0.0
    n_waves = -(-len(order) // concurrent)
    dram = np.zeros(n_waves)
    for w in range(n_waves):
        wave = order[w * concurrent:(w + 1) * concurrent]
        readers: dict = {}
        for i, (m, n) in enumerate(wave):
            for key in (("a", int(m)), ("b", int(n))):
                readers.setdefault(key, [0] * partitions)[i % partitions] += 1
        for k in range(tk):
            step = w * tk + k
            for p in range(partitions):
                touched = set()
                for (kind, idx), by in readers.items():
                    if not by[p]:
                        continue
                    s, key = size[kind], (kind, idx, k)
                    touched.add(key)
                    near_total += by[p] * s * partitions
                    prev = last[p].get(key)
                    if prev is not None:
                        between = set().union(*history[p][prev + 1:step]) - {key}
                        if sum(size[x[0]] for x in between) + s <= cap:
                            near_hits += by[p] * s * partitions
                            continue
                    near_hits += (by[p] - 1) * s * partitions
                    far = s * (partitions - 1)
                    fab_total += far
                    if any(by[q] for q in range(partitions) if q != p):
                        fab_hits += far
                        dram[w] += s
                    else:
                        dram[w] += s * partitions
                history[p].append(touched)
                for key in touched:
                    last[p][key] = step
    return _prediction(near_hits, near_total, fab_hits, fab_total, dram, M * N * elem_bytes,
                       partitions)
