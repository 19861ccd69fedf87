"""Reuse distances of tile reads in waves, and the share of a partition's reads that hit.

The L2 model (:mod:`swizzlekit.cta.l2`) reads every tile-row of A and tile-column of B of a
wave at every K step. A read of tile (m, k) in wave w was last made in wave w' < w at the same
k; between the two its partition read the distinct bytes

    distance(k) = (tk-1-k) U(w', w-1) + k U(w'+1, w) + U(w'+1, w-1)

where ``U(a, b)`` is the A and B bytes of the distinct tile-rows and tile-columns over waves
a..b (steps k+1.. of wave w', every step of the waves between, steps ..k-1 of wave w). So the
hits over all k of one occurrence follow from three table lookups, without a per-access loop.

Whether a read at reuse distance ``d`` hits is :func:`hit_share`: a set-associative cache of
``ways`` ways whose lines land in sets by a hash. The ``d`` bytes read in between fall into
the read line's set as a Poisson count of mean ``ways * d / capacity``; the line survives when
fewer than ``ways`` of them land there. ``ways = 0`` is the fully associative LRU (a hit
exactly when ``d`` fits)::

    hit share
      1 |‾‾‾‾‾‾‾‾‾‾‾‾‾\\            ways = 0: a cliff at d = capacity
        |‾‾‾‾‾‾‾‾‾‾‾‾\\ \\  ·.       ways = 8: some reads miss before the cliff,
        |             \\ \\   ·.     some hit past it
      0 +--------------'-'-----'··-> d / capacity
                      1

>>> round(float(hit_share(np.array([0.5]), 1.0, 0)[0]), 3), round(float(hit_share(np.array([0.5]), 1.0, 8)[0]), 3)
(1.0, 0.949)
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["hit_share", "summed_share", "occurrences", "union_table", "partition_hits"]


def hit_share(distance: np.ndarray, capacity: float, ways: int) -> np.ndarray:
    """The expected share of a read's lines that hit, at reuse distance ``distance`` bytes
    (its own size included), in a cache of ``capacity`` bytes with ``ways`` ways (0: fully
    associative LRU). Read off :func:`_share_table` (within 1e-7 of the exact sum)."""
    distance = np.asarray(distance, dtype=float)
    if ways == 0:
        return (distance <= capacity).astype(float)
    top, table, _, _ = _share_table(ways)
    steps = len(table) - 1
    pos = np.minimum(ways * distance / capacity, top) * (steps / top)
    i = np.minimum(pos.astype(np.int64), steps - 1)
    return table[i] + (table[i + 1] - table[i]) * (pos - i)


@functools.lru_cache(maxsize=None)
def _share_table(ways: int, steps: int = 2**16) -> tuple[float, np.ndarray, float, float]:
    """``P(Poisson(lam) <= ways - 1)`` on an even grid of ``lam`` from 0 to a top past which
    it is below 1e-20: the chance that fewer than ``ways`` other lines of a read's set came in
    between, when ``lam`` of them are expected there. With the top, the table, and the
    ``lam`` up to which the share reads exactly 1 and from which it reads exactly 0."""
    top = ways + 12 * ways ** 0.5 + 40
    lam = np.linspace(0.0, top, steps + 1)
    share = np.zeros_like(lam)
    term = np.exp(-lam)
    for j in range(ways):
        share += term
        term = term * lam / (j + 1)
    share[share < 1e-18] = 0.0          # exact zeros, so that whole rows can be skipped
    full = lam[np.argmin(share == 1.0) - 1] if share[0] == 1.0 else -1.0
    none = lam[np.argmax(share == 0.0)] if share[-1] == 0.0 else np.inf
    return top, share, full, none


def summed_share(start: np.ndarray, slope: np.ndarray, steps: int, capacity: float,
                 ways: int) -> np.ndarray:
    """``sum(hit_share(start + slope * k) for k in range(steps))`` per row: rows whose
    distances all lie where the share is exactly 1 or exactly 0 are not expanded over k."""
    start, slope = np.asarray(start, dtype=float), np.asarray(slope, dtype=float)
    lo = np.minimum(start, start + slope * (steps - 1))
    hi = np.maximum(start, start + slope * (steps - 1))
    if ways == 0:
        sure, never = hi <= capacity, lo > capacity
    else:
        _, _, full, none = _share_table(ways)
        sure, never = ways * hi / capacity <= full, ways * lo / capacity >= none
    out = np.where(sure, float(steps), 0.0)
    rest = ~(sure | never)
    ks = np.arange(steps)
    out[rest] = hit_share(start[rest, None] + slope[rest, None] * ks[None, :], capacity,
                          ways).sum(axis=1)
    return out


def occurrences(ids: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def union_table(waves: np.ndarray, prev: np.ndarray, n_waves: int) -> np.ndarray:
    """``T[a, b]`` = distinct ids over waves a..b (a <= b): occurrences in [a, b] whose
    previous occurrence is before a. Built from a 2-D difference array."""
    diff = np.zeros((n_waves + 2, n_waves + 2), dtype=np.int64)
    # an occurrence at wave v with previous u counts for every a in (u, v], b in [v, n)
    np.add.at(diff, (prev + 1, waves), 1)
    np.add.at(diff, (waves + 1, waves), -1)
    table = np.cumsum(np.cumsum(diff, axis=0), axis=1)
    return table[:n_waves, :n_waves]


def partition_hits(m_sets: list[np.ndarray], n_sets: list[np.ndarray], tk: int, a_bytes: int,
                   b_bytes: int, capacity: float, ways: int, written: np.ndarray | None = None):
    """Expected hits, summed over k, of every (wave, tile-row) and (wave, tile-column) read of
    one partition; with the occurrences ``(waves, ids)`` of each, in :func:`occurrences`' order.
    ``written``: the bytes of C each wave writes into the partition when its CTAs end; a read
    in wave w last made in wave w' has the writes of waves w'..w-1 in its distance too.

    >>> hm, hn, _, _ = partition_hits([np.array([0]), np.array([0])], [np.array([0]), np.array([1])],
    ...                               2, 100, 100, 1000, 0)
    >>> hm.tolist(), hn.tolist()         # row 0 again in wave 1 hits at both steps; column 1 is new
    ([0.0, 2.0], [0.0, 0.0])
    """
    n_waves = len(m_sets)
    wa, va, pa = occurrences(m_sets)
    wb, vb, pb = occurrences(n_sets)
    ta, tb = union_table(wa, pa, n_waves), union_table(wb, pb, n_waves)
    written = np.zeros(n_waves) if written is None else np.asarray(written, dtype=float)
    before = np.concatenate([[0.0], np.cumsum(written)])      # C bytes written before wave v

    def U(lo, hi):
        ok = lo <= hi
        lo_c, hi_c = np.clip(lo, 0, n_waves - 1), np.clip(hi, 0, n_waves - 1)
        return np.where(ok, ta[lo_c, hi_c] * a_bytes + tb[lo_c, hi_c] * b_bytes, 0)

    def hits(w, p, own):
        reused = p >= 0
        u1, u2, u3 = U(p, w - 1), U(p + 1, w), U(p + 1, w - 1)
        base = (tk - 1) * u1 + u3 + own           # distance + own size at k = 0
        base = base + np.where(reused, before[w] - before[np.maximum(p, 0)], 0.0)
        slope = u2 - u1                            # per step of k (<= 0: u2 <= u1)
        out = np.zeros(len(w))
        out[reused] = summed_share(base[reused], slope[reused], tk, capacity, ways)
        return out

    return hits(wa, pa, a_bytes), hits(wb, pb, b_bytes), (wa, va), (wb, vb)
