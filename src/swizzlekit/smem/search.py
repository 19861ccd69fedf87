"""The searches over GF(2) maps behind :func:`swizzlekit.smem.solve`: the candidate families
in the solver's order of preference, and the two searches over maps.

* :func:`cute_candidates`: every CuTe ``Swizzle<B,M,S>`` on ``n`` offset bits, fewest bits
  first; :func:`forbidden_candidates`: CuTe's formula with the overlap it forbids
  (``|S| < B``);
* :func:`xor_search`: every map (or a seeded sample) that XORs the high offset bits into the
  bank bits, costed by a rank count over each access subspace;
* :func:`transvection_search`: a seeded hill-climb over every invertible map.

>>> len(cute_candidates(4)), str(cute_candidates(4)[0])
(14, 'Swizzle<1,0,1>')
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from swizzlekit.smem import gf2
from swizzlekit.smem.access import WAVEFRONT_BYTES
from swizzlekit.smem.core import Core, apply_bases
from swizzlekit.smem.layouts import LinearLayout, Swizzle, log2

__all__ = ["cute_candidates", "forbidden_candidates", "xor_search", "transvection_search",
           "EXHAUSTIVE_LIMIT", "LOCAL_SEARCH", "LOCAL_SEARCH_WORK", "LOCAL_SEARCH_STALL"]

#: :func:`xor_search` tries every map up to this many, a seeded sample of ``_SAMPLES`` above.
EXHAUSTIVE_LIMIT = 1 << 16
_SAMPLES = 1 << 14


@functools.lru_cache(maxsize=None)
def cute_candidates(n: int) -> tuple[Swizzle, ...]:
    out: list[Swizzle] = []
    for b in range(1, n + 1):
        for s_abs in range(b, n - b + 1):
            for m in range(0, n - b - s_abs + 1):
                out += [Swizzle(b, m, s_abs), Swizzle(b, m, -s_abs)]
    return tuple(out)


@functools.lru_cache(maxsize=None)
def forbidden_candidates(n: int) -> tuple[LinearLayout, ...]:
    out: list[LinearLayout] = []
    for b in range(2, n + 1):
        for s_abs in range(1, b):
            for m in range(0, n - b - s_abs + 1):
                out += [LinearLayout.from_xor(b, m, s_abs), LinearLayout.from_xor(b, m, -s_abs)]
    return tuple(out)


def xor_search(n: int, elem_bytes: int, groups: list[tuple[list[int], int]]
                ) -> tuple[LinearLayout, int, int] | None:
    """Best ``x ^ U(x >> hi)`` over all (or sampled) U: high bits XORed into the bank bits.

    ``groups``: (subspace basis, number of placements) per access. A linear layout costs a
    coset what it costs the subspace: distinct words over banks hit, counted over the span.
    """
    w0 = max(0, 2 - log2(elem_bytes)) if elem_bytes < 4 else 0   # offset bits inside a word
    g = log2(WAVEFRONT_BYTES // max(elem_bytes, 4))               # bank-group bits
    lo, hi = w0, w0 + g
    if hi >= n:
        return None
    nhi = n - hi
    total = 1 << (g * nhi)
    rng = np.random.default_rng(0)
    if total <= EXHAUSTIVE_LIMIT:
        codes = np.arange(total, dtype=np.int64)
    else:
        codes = rng.integers(0, total, _SAMPLES, dtype=np.int64)
    # column j of U (image of high bit j, placed at bit lo) for every candidate
    cols = [((codes >> (g * j)) & ((1 << g) - 1)) << lo for j in range(nhi)]
    cost = np.zeros(len(codes), dtype=np.int64)
    for basis, count in groups:
        xs = gf2.span(basis)
        y = np.broadcast_to(xs, (len(codes), len(xs))).copy()
        for j in range(nhi):
            bit = ((xs >> (hi + j)) & 1).astype(bool)
            y[:, bit] ^= cols[j][:, None]
        in_word = ((y >> lo) == 0).sum(axis=1)                       # |V ∩ ker(word)|
        in_bank = (((y >> lo) & ((1 << g) - 1)) == 0).sum(axis=1)    # |V ∩ ker(bank)|
        cost += count * (in_bank // in_word)
    best = int(np.argmin(cost))
    bases = []
    for j in range(n):
        v = 1 << j
        if j >= hi:
            v ^= int(cols[j - hi][best])
        bases.append(v)
    return LinearLayout(tuple(bases)), int(cost[best]), len(codes)


#: Steps of the local search over invertible GF(2) maps (seeded: the same answer every run),
#: fewer for big problems: at most ``LOCAL_SEARCH_WORK`` placement elements costed in all.
LOCAL_SEARCH = 2000
LOCAL_SEARCH_WORK = 2_000_000
#: A restart ends after this many steps in a row without lowering its cost.
LOCAL_SEARCH_STALL = 200


def transvection_search(n: int, core: Core, elem_bytes: int, bound: int,
                        start: Sequence[int] | None) -> tuple[tuple[int, ...], int]:
    """Hill-climb over every invertible GF(2) map on ``n`` offset bits: a step adds one basis
    image into another (a transvection; they generate the whole group), kept when the total
    wavefronts do not grow. Four seeded restarts share :data:`LOCAL_SEARCH` steps; stops at
    ``bound``. Costed on the tile's periodic ``core``. Returns the best bases found and the
    steps taken."""
    xs = core.elements                                   # the elements costed
    bits = [(xs >> j) & 1 for j in range(n)]

    def cost(off) -> int:
        return core.cost(lambda _: off, elem_bytes)

    rng = np.random.default_rng(0x5A17)
    best = list(start) if start is not None else [1 << j for j in range(n)]
    best_cost, steps = cost(apply_bases(best, xs)), 0
    budget = max(24, min(LOCAL_SEARCH, LOCAL_SEARCH_WORK // max(core.idx.size, 1)))
    for restart in range(4):
        cur = list(best) if restart == 0 else [1 << j for j in range(n)]
        cur_off = apply_bases(cur, xs)
        cur_cost = cost(cur_off)
        stalled = 0
        for _ in range(budget // 4):
            if best_cost <= bound or n < 2:
                return tuple(best), steps
            if stalled >= LOCAL_SEARCH_STALL:          # this restart has stopped improving
                break
            i, j = rng.choice(n, 2, replace=False)
            # bit i's image gains bit j's: every element with bit i set moves by cur[j]
            off = cur_off ^ (bits[i] * cur[j])
            c = cost(off)
            steps += 1
            stalled = 0 if c < cur_cost else stalled + 1
            if c <= cur_cost:
                cur[i] ^= cur[j]
                cur_off, cur_cost = off, c
                if c < best_cost:
                    best, best_cost = list(cur), c
    return tuple(best), steps
