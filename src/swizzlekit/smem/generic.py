"""Triton's generic swizzling (``optimalSwizzling``, Triton PRs #6982 and #7565), restated
over this package's wavefront footprints: one more family for the solver, and the floor the
tests hold :func:`~swizzlekit.smem.solve` to on power-of-two tiles.

Triton builds the shared layout as a map from offset bits to tensor bits, in three parts::

    offset bits:   s s s s | b b b | v v v
                   segment   bank    vector
    v: the elements both sides move as one vector (kept whole, never swizzled)
    b: whatever completes a 128-byte bank line
    s: chosen so that neither side's wavefront tile lands twice on one bank: first tensor
       bits neither tile uses, then a ^ b for a bit a only the writer's tile has and a bit b
       only the reader's has (both tiles then see it as their own bank bit), and only when
       those run out, a bit of one tile alone (a 2-way conflict for that side)

Here each side's *tile* is the span of one of its wavefront footprints (an ``ld.v4:row``
phase, an 8x8 ``ldmatrix`` matrix, a ``cp.async`` row of 128 bytes), and the vector is the
widest both sides keep whole. The code is written from the algorithm's description; it shares
none of Triton's.

>>> lay = generic_swizzle(6, 16, 1, [1, 2, 4], [8, 16, 32])   # 8x8 of 16 B: rows, columns
>>> print(lay)
Linear[9,18,36,1,2,4]
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.smem import gf2
from swizzlekit.smem.layouts import MAX_BITS, LinearLayout, log2

__all__ = ["generic_swizzle", "segment_bases"]

_BANK_LINE_BITS = 32 * 32          # 32 banks of 32 bits


def segment_bases(tile_w: Sequence[int], tile_r: Sequence[int], n: int, count: int
                  ) -> list[int]:
    """The ``count`` segment bases: tensor bits in neither side's bank set first, then
    ``a ^ b`` pairs of a bit only the writer has and one only the reader has, then single
    bits (the conflicts), as Triton's ``computeSegment``.

    >>> segment_bases([1, 2], [4, 8], 4, 2)      # every bit is in a tile: pair them
    [5, 10]
    """
    w, r = set(tile_w) - {0}, set(tile_r) - {0}
    seg = [1 << b for b in range(n) if (1 << b) not in w and (1 << b) not in r]
    if len(seg) >= count:
        return seg[:count]
    a, b = sorted(w - r), sorted(r - w)
    if len(a) > len(b):
        a, b = b, a
    conflicts = min(max(0, count - len(a) - len(seg)), len(a))
    seg += [a[i] ^ b[i] for i in range(conflicts, len(a))]
    seg += a[:conflicts] + b[:conflicts]
    return seg[:count]


def _complement(basis: Sequence[int], n: int) -> list[int]:
    """Unit vectors completing ``basis`` to all ``n`` bits: those at the non-pivot positions
    of its echelon form (pivot: each row's lowest bit)."""
    rows: list[int] = []
    for v in basis:
        for r in rows:
            if v & (r & -r):
                v ^= r
        if v:
            rows = [r ^ v if r & (v & -v) else r for r in rows] + [v]
    pivots = {(r & -r).bit_length() - 1 for r in rows}
    return [1 << j for j in range(n) if j not in pivots]


def generic_swizzle(n: int, elem_bytes: int, vector: int, tile_w: Sequence[int],
                    tile_r: Sequence[int]) -> LinearLayout | None:
    """The layout (row-major index bits -> offset bits) Triton's algorithm builds on ``n``
    bits for a writer and a reader whose wavefront tiles span ``tile_w`` and ``tile_r``
    (tensor bits), moving ``vector``-element vectors (kept at the offset's low bits); None
    where tiles that are not spans of single bits leave its bases dependent."""
    n = check_int("n", n, 0, MAX_BITS)
    check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    vector = check_int("vector", vector, 1, 1 << n)
    if vector & (vector - 1) or vector * elem_bytes > 16 * 8:
        raise SwizzleKitError(f"vector must be a power of two of at most 128 bytes; got {vector}"
                              f" elements of {elem_bytes} bytes")
    for name, tile in (("tile_w", tile_w), ("tile_r", tile_r)):
        if isinstance(tile, (str, bytes)) or not all(
                isinstance(t, Integral) and not isinstance(t, bool) and 0 <= t < 1 << n
                for t in tile):
            raise SwizzleKitError(f"{name} must be tensor bits below 2**{n}; got {tile!r}")
    vbasis = [1 << j for j in range(log2(vector))]
    tile_w, tile_r = [int(t) for t in tile_w], [int(t) for t in tile_r]
    bank_w = vbasis + [t for t in tile_w if t not in vbasis]
    bank_r = vbasis + [t for t in tile_r if t not in vbasis]
    len_bank = min(log2(_BANK_LINE_BITS // (vector * elem_bytes * 8)), n - len(vbasis))
    seg = segment_bases(bank_w, bank_r, n, n - len_bank - len(vbasis))
    bank = _complement(vbasis + seg, n)
    images = gf2.inverse_images(vbasis + bank + seg, n) if len(vbasis + bank + seg) == n \
        else None
    return None if images is None else LinearLayout(images)
