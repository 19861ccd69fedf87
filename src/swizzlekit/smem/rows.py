"""Row-permuted layouts: "k rows as one", for rows whose length is not a power of two.

A row of 9 16-byte elements starts one bank (of eight) after the row above, since 9 = 1
(mod 8). A 4x2 block of rows 0..3 then lands on banks 0-1, 1-2, 2-3, 3-4 and conflicts, and
no XOR of the columns can help: 9 columns have no power-of-two part to XOR. Seed 004 reads the
8x9 tile as 4x18 instead ("two rows as one"); algebraic-layouts stores the rows interleaved.
Both are permutations of the rows, and neither uses a byte more than the tile::

    logical row     0  1  2  3 | 4  5  6  7         k = 2, R = 8
    stored at row   0  2  4  6 | 1  3  5  7         pi(r) = (r * k) % R + r // (R / k)

    logical row     0  1  2  3 | 4  5  6            k = 2, R = 7: the last group is short,
    stored at row   0  2  4  6 | 1  3  5            and the stored rows stay compact

Rows 0..3 now start on banks 0, 2, 4, 6 (stored rows 0, 2, 4, 6 times 9), so the four 2-wide
pieces of the block are disjoint. :class:`Interleaved` is that permutation over any inner
layout of the same shape (row-major, or a coordinate XOR when the row has a power-of-two
part), and :func:`interleavings` lists the ones the solver tries.

>>> lay = Interleaved(RowMajor(8, 9), k=2)
>>> [lay.stored_row(r) for r in range(8)]
[0, 2, 4, 6, 1, 3, 5, 7]
>>> lay(1, 0), lay.cosize()
(18, 72)
>>> print(lay)
rows interleaved by 2 (r -> (2*r) % 8 + r // 4) o (8,9):(9,1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_int
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem.layouts import RowMajor, TileLayout, XorCols

__all__ = ["Interleaved", "interleavings", "valid_ks", "MAX_INTERLEAVINGS"]


@dataclass(frozen=True)
class Interleaved(TileLayout):
    """``inner(pi(r), c)``: the rows cut into ``k`` groups of ``g = ceil(R/k)`` consecutive
    rows (the last one shorter, ``s`` rows), then stored round-robin, one row of each group
    in turn. Row ``r = a*g + b`` (group ``a``, ``b`` within it) is stored at ``pi(r) = b*k + a
    - max(0, b - s)``, which is ``(r*k) % R + r // (R/k)`` when ``k`` divides ``R``. A
    permutation of the rows, so a bijection whenever ``inner`` is.

    >>> [Interleaved(RowMajor(7, 9), k=2).stored_row(r) for r in range(7)]
    [0, 2, 4, 6, 1, 3, 5]
    """

    inner: TileLayout
    k: int

    def __post_init__(self) -> None:
        if not isinstance(self.inner, (RowMajor, XorCols)):
            raise SwizzleKitError(f"Interleaved takes a RowMajor or XorCols inner layout, got "
                                  f"{type(self.inner).__name__}")
        rows = self.inner.rows
        if isinstance(self.k, np.integer):                 # numpy integers are integers
            object.__setattr__(self, "k", int(self.k))
        if not isinstance(self.k, int) or isinstance(self.k, bool) \
                or self.k not in valid_ks(rows):
            raise SwizzleKitError(f"Interleaved: k={self.k!r} cannot deal {rows} rows into k "
                                  f"non-empty groups; valid: {valid_ks(rows) or 'none'}")

    @property
    def rows(self) -> int:
        return self.inner.rows

    @property
    def cols(self) -> int:
        return self.inner.cols

    @property
    def group(self) -> int:
        """Rows per group, ``g = ceil(R/k)``."""
        return -(-self.rows // self.k)

    @property
    def last(self) -> int:
        """Rows in the last group, ``s = R - (k-1)*g``."""
        return self.rows - (self.k - 1) * self.group

    def stored_row(self, r):
        """Where logical row ``r`` is stored (ints or arrays)."""
        a, b = r // self.group, r % self.group
        return b * self.k + a - (b > self.last) * (b - self.last)

    def __call__(self, r, c):
        return self.inner(self.stored_row(r), c)

    def __str__(self) -> str:
        if self.last == self.group:
            rule = f"({self.k}*r) % {self.rows} + r // {self.group}"
        else:
            rule = f"row b of group a of {self.group} -> {self.k}*b + a, compacted"
        return f"rows interleaved by {self.k} (r -> {rule}) o {self.inner}"


#: At most this many interleavings are costed for one tile (each is a full count, 4-10 ms
#: at 256x256), for k up to the 32 banks: the divisors of the row count and the powers of
#: two first, then the other k, smallest first.
MAX_INTERLEAVINGS = 16


def valid_ks(rows: int) -> list[int]:
    """Group counts ``k`` that deal ``rows`` rows into ``k`` non-empty groups of
    ``ceil(rows/k)`` (the last shorter), other than the identity (``k`` = 1 or ``rows``).

    >>> valid_ks(7), valid_ks(10)
    ([2, 3, 4], [2, 3, 4, 5])
    """
    rows = check_int("rows", rows, 1, SMEM_LIMIT)        # no tile has more rows than bytes
    return [k for k in range(2, rows) if (k - 1) * -(-rows // k) < rows]


def interleavings(rows: int, inners: list[TileLayout]) -> list[Interleaved]:
    """``Interleaved(inner, k)`` for ``k`` up to 32: the divisors of ``rows`` and the powers
    of two first, then the other valid ``k``, smallest first; at most
    :data:`MAX_INTERLEAVINGS`.

    >>> [lay.k for lay in interleavings(10, [RowMajor(10, 5)])]
    [2, 4, 5, 3]
    """
    ks = sorted((k for k in valid_ks(rows) if k <= 32),
                key=lambda k: (rows % k != 0 and k & (k - 1) != 0, k))
    out = [Interleaved(inner, k) for k in ks for inner in inners]
    return out[:MAX_INTERLEAVINGS]

