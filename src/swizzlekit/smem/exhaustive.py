"""Every invertible GF(2) map on a small tile's offset bits, searched through the two
subspaces that decide what a map costs.

A linear layout stores element ``x`` (its row-major index, ``n`` bits) at ``y = L x``. The bank
model looks at three kinds of offset bit::

    offset bits (2-byte elements):   l l l l l l | g g g g g | w
                                     line          bank group  byte pair in the 4-byte word
    w: same word (no conflict), g: which bank, l: which 128-byte line (a conflict if g agrees)

A set ``S`` of elements read together that is a subspace (a coset costs the same) takes
``2 ** (dim(S & K2) - dim(S & K1))`` wavefronts, where ``K1 = L^-1(w bits)`` and
``K2 = L^-1(w and l bits)``: ``S & K2`` are the elements that share the bank of the first, and
``S & K1`` those that share its word. So every map with the same pair ``K1 <= K2`` costs the
same on every access, and one map per pair covers the whole group GL(n, 2). A vector of
``keep`` elements must stay whole, so ``L`` is the identity on the vector bits beside a map
``M`` of the rest; the pairs are then those of ``M``.

:func:`exhaustive_search` builds one map per pair (all of them while there are at most
:data:`EXHAUSTIVE_PAIRS`; a 64-element tile has at most 1,395) and costs them all exactly. The
tests hold it equal to the brute force over all 20,160 maps of 16-element tiles, and the cost
of random maps equal to that of the map built from their pair.

>>> from swizzlekit.smem.core import Core, apply_bases
>>> core = Core.of([np.arange(8) * 8 + c for c in range(8)])   # the columns of 8x8
>>> lay, cost, tried = exhaustive_search(6, 16, 1, core)
>>> cost, tried                     # 16-byte elements: 8 a wavefront; 1395 pairs searched
(8, 1395)
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.smem import gf2
from swizzlekit.smem.access import WAVEFRONT_BYTES
from swizzlekit.smem.core import Core, apply_bases
from swizzlekit.smem.layouts import MAX_BITS, LinearLayout, log2

__all__ = ["exhaustive_search", "subspaces", "pair_count", "bit_kinds", "EXHAUSTIVE_PAIRS",
           "EXHAUSTIVE_WORK"]

#: The most (K1, K2) pairs searched, and pairs times the elements costed per pair, past 64
#: elements (a tile of up to 64 is always searched: at most 1,395 pairs); larger problems are
#: left to the other searches. 8001 pairs on 192 elements take 0.35 s on one core, cold.
EXHAUSTIVE_PAIRS = 4096
EXHAUSTIVE_WORK = 1_000_000


def bit_kinds(n: int, elem_bytes: int, keep: int = 1) -> tuple[int, int, int]:
    """How many of the offset bits above the ``keep``-element vector are word (same 4-byte
    cell), bank-group and line bits.

    >>> bit_kinds(12, 2), bit_kinds(12, 4, keep=4), bit_kinds(6, 1)
    ((1, 5, 6), (0, 3, 7), (2, 4, 0))
    """
    n = check_int("n", n, 0, MAX_BITS)
    elem_bytes = check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    keep = check_int("keep", keep, 1, 1 << n)
    w0 = log2(4 // elem_bytes) if elem_bytes < 4 else 0
    g = log2(WAVEFRONT_BYTES // max(elem_bytes, 4))
    k = log2(keep)

    def count(lo: int, hi: int) -> int:
        return max(0, min(hi, n) - max(lo, k))

    return count(0, w0), count(w0, w0 + g), count(w0 + g, n)


@functools.lru_cache(maxsize=64)
def subspaces(m: int, d: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every ``d``-dimensional subspace of GF(2)^m, once each, in reduced echelon form: its
    basis (each vector's highest bit is a pivot no other vector has) and the unit vectors of
    the other bits, which complete it to the whole space.

    >>> len(subspaces(3, 1)), len(subspaces(4, 2)), subspaces(2, 1)[0]
    (7, 35, ((1,), (2,)))
    """
    out = []
    for pivots in itertools.combinations(range(m), d):
        free = [[q for q in range(p) if q not in pivots] for p in pivots]
        for fill in itertools.product(*(range(1 << len(f)) for f in free)):
            basis = tuple((1 << p) | sum(((v >> i) & 1) << q for i, q in enumerate(f))
                          for p, f, v in zip(pivots, free, fill))
            out.append((basis, tuple(1 << q for q in range(m) if q not in pivots)))
    return tuple(out)


def pair_count(m: int, a: int, c: int) -> int:
    """Pairs ``K1 <= K2`` of dimensions ``a`` and ``a + c`` in GF(2)^m.

    >>> pair_count(2, 1, 1)               # the 3 lines of GF(2)^2, each in the whole plane
    3
    """
    m = check_int("m", m, 0, MAX_BITS)
    a, c = check_int("a", a, 0, m), check_int("c", c, 0, m)
    if a + c > m:
        raise SwizzleKitError(f"pair_count: a + c = {a + c} exceeds the dimension m = {m}")
    return _gauss(m, a + c) * _gauss(a + c, a)


def _gauss(m: int, d: int) -> int:
    num = den = 1
    for i in range(d):
        num *= (1 << (m - i)) - 1
        den *= (1 << (i + 1)) - 1
    return num // den


@functools.lru_cache(maxsize=32)
def _maps(n: int, elem_bytes: int, keep: int) -> tuple[tuple[int, ...], ...]:
    """One map per pair, identity on the vector bits: each as the images of the offset
    bits."""
    k = log2(keep)
    a, b, c = bit_kinds(n, elem_bytes, keep)
    m = n - k
    maps = []
    for big, rest in subspaces(m, a + c):               # K2, and unit vectors completing it
        for small, extra in subspaces(a + c, a):        # K1 in K2's coordinates
            def lift(v: int) -> int:
                return functools.reduce(lambda acc, i: acc ^ (big[i] if v >> i & 1 else 0),
                                        range(a + c), 0)
            # y positions k.. in order: word bits, bank-group bits, line bits; M^-1 sends each
            # to a vector of K1, of the complement of K2, of K2 beyond K1
            cols = [lift(v) for v in small] + list(rest) + [lift(v) for v in extra]
            maps.append(tuple(1 << j for j in range(k))
                        + tuple(v << k for v in gf2.inverse_images(cols, m)))
    return tuple(maps)


def exhaustive_search(n: int, elem_bytes: int, keep: int, core: Core
                      ) -> tuple[LinearLayout, int, int] | None:
    """The least-cost invertible GF(2) map on ``n`` offset bits that keeps ``keep``-element
    vectors whole, over all of them, costed on ``core``: (layout, wavefronts, pairs searched),
    or None where a placement is no coset (a clipped or strided one, whose cost the pair does
    not decide) or, past 64 elements, when the pairs or the work exceed
    :data:`EXHAUSTIVE_PAIRS` or :data:`EXHAUSTIVE_WORK`."""
    n = check_int("n", n, 0, MAX_BITS)
    check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    keep = check_int("keep", keep, 1, 1 << n)
    if keep & (keep - 1):
        raise SwizzleKitError(f"keep must be a power of two; got {keep}")
    if not isinstance(core, Core):
        raise SwizzleKitError(f"core must be a swizzlekit.smem.core.Core; got "
                              f"{type(core).__name__}")
    if not core.all_cosets:          # the reduction holds for subspaces and their cosets
        return None
    a, b, c = bit_kinds(n, elem_bytes, keep)
    pairs = pair_count(n - log2(keep), a, c)
    if n > 6 and (pairs > EXHAUSTIVE_PAIRS or pairs * core.idx.size > EXHAUSTIVE_WORK):
        return None
    maps = _maps(n, elem_bytes, keep)
    costs = np.concatenate([core.costs([functools.partial(apply_bases, b) for b in
                                        maps[i:i + 1024]], elem_bytes)
                            for i in range(0, len(maps), 1024)])
    best = int(np.argmin(costs))
    return LinearLayout(maps[best]), int(costs[best]), len(maps)
