"""Which family of the order tables an order array is: the time model's per-family factor.

The order tables time nine named orders. Beyond their DRAM bytes, some families run a steady
few percent slower than the time model says, on both cards and both halves (morton, grouped
along N and strip, hilbert). :data:`swizzlekit.cta.timing.TIME_FITTED` keeps one factor per
family, fitted on the fit half. :func:`swizzlekit.cta.l2.simulate` is given an array, not a
name, so the family is read off the array: it is the first of :data:`FAMILIES` whose order,
on the same grid, is this very array. Two names that launch the same tiles in the same
sequence (the row order and grouped(8) along N on a grid of at most 8 tile columns; strip(w)
and grouped(w) along N everywhere) are one family, so one launch sequence gets one time.
Arrays of no family (a hand-made order, strip_snake, ...) get none.

>>> from swizzlekit.cta.orders import order
>>> family(order("grouped", 12, 20, group=4), 12, 20), family(order("strip", 4, 9, width=3), 4, 9)
('grouped along=m', 'grouped along=n')
>>> family(order("grouped", 12, 20, group=16), 12, 20)   # 16 rows of 12: the column order
'col'
>>> family(order("grouped", 12, 6, along="n"), 12, 6)      # 8 along N on 6 columns: rows
'row'
>>> family(order("zlayer", 8, 8), 8, 8)       # seed 002's two layers: grouped(2) along N
'grouped along=n'
>>> family(order("strip_snake", 8, 8), 8, 8) is None
True
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np

from swizzlekit.cta.orders import MAX_TILES, order
from swizzlekit.errors import check_bool, check_int

__all__ = ["FAMILIES", "OTHER", "family", "time_family"]

#: The families, in the order :func:`family` tries them.
FAMILIES = ("row", "col", "snake", "grouped along=m", "grouped along=n", "morton", "hilbert")
#: What the time model calls an order of none of them (it takes the largest family factor).
OTHER = "other"


def _digest(o: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(o, dtype=np.int64).tobytes(),
                           digest_size=20).digest()


@functools.lru_cache(maxsize=1024)
def _built(name: str, tiles_m: int, tiles_n: int, group: int = 0) -> bytes:
    """A digest of the family's order on the grid (a digest, so the cache stays small)."""
    params = {} if not group else {"group": group, "along": name[-1]}
    return _digest(order("grouped" if group else name, tiles_m, tiles_n, **params))


def _group(o: np.ndarray, axis: int) -> int:
    """The group size a grouped order along ``axis`` (0: M, 1: N) would have: how many tiles
    it launches before it leaves the first tile's column (along M) or row (along N)."""
    off = np.flatnonzero(o[:, 1 - axis] != o[0, 1 - axis])
    return int(off[0]) if len(off) else len(o)


def family(order_, tiles_m: int, tiles_n: int) -> str | None:
    """The family of :data:`FAMILIES` whose order on the ``tiles_m x tiles_n`` grid is
    ``order_`` (a ``(tiles, 2)`` integer array), the first that matches; None for none."""
    tiles_m, tiles_n = check_int("tiles_m", tiles_m), check_int("tiles_n", tiles_n)
    o = np.asarray(order_)
    if (tiles_m * tiles_n > MAX_TILES or o.shape != (tiles_m * tiles_n, 2)
            or not np.issubdtype(o.dtype, np.integer)):
        return None
    mine = _digest(o)
    for name in FAMILIES:
        if name.startswith("grouped"):
            if o[0].any():
                continue
            group = _group(o, 0 if name.endswith("m") else 1)
            if mine == _built(name, tiles_m, tiles_n, group):
                return name
        elif mine == _built(name, tiles_m, tiles_n):
            return name
    return None


def time_family(order_, tiles_m: int, tiles_n: int, persistent: bool) -> str | None:
    """The family whose factor :func:`swizzlekit.cta.timing.kernel_time` takes for this launch:
    :func:`family`, or :data:`OTHER` for an order of none; None (no factor) for a persistent
    grid, whose programs walk the order in strides the tables never timed as orders.

    >>> time_family(order("strip_snake", 8, 8), 8, 8, False)
    'other'
    >>> time_family(order("row", 2, 2), 2, 2, True) is None
    True
    """
    if check_bool("persistent", persistent):
        return None
    return family(order_, tiles_m, tiles_n) or OTHER
