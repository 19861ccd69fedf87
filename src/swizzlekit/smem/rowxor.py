"""Row-XOR layouts: the column XORed with any function of the row, for any column count, and
the same on the transposed tile.

A coordinate XOR (:class:`~swizzlekit.smem.layouts.XorCols`) XORs the column with bits of the
row. Here the XOR mask of each row is free: ``masks[r % period]``, each below ``span``, a
power of two that divides the row, so ``c ^ mask`` stays in the row and the map is a
bijection onto the tile's own storage::

    offset(r, c) = r * cols + (c ^ masks[r % period])            rows stay rows
    offset(r, c) = c * rows + (r ^ masks[c % period])            transposed: columns stored as rows

Transposing is what packs a column of 1- or 2-byte elements into whole 4-byte words: 64 fp16
elements of one column then fill 32 words, one wavefront, where any layout that keeps rows
together needs 64 words and two. The masks are found by :func:`search` (coordinate descent,
each step costed exactly): masks linear in the row's bits (a bit-reversed row index, say),
emitted as an XOR of row bits, or any masks of a short period, read out of one constant.

>>> lay = RowXor(4, 8, (0, 1, 2, 3))
>>> lay.offsets().tolist()[1]
[9, 8, 11, 10, 13, 12, 15, 14]
>>> RowXor(4, 2, (0, 1), transposed=True).offsets().tolist()
[[0, 5], [1, 4], [2, 7], [3, 6]]
>>> row_xor_expression(lay, "r", "c")            # masks linear in the row's bits
'(r * 8 + (c ^ (((((r) >> 0) & 1) * 1) ^ ((((r) >> 1) & 1) * 2))))'
>>> row_xor_expression(RowXor(6, 8, (0, 5, 2)), "r", "c")        # any masks: one constant
'(r * 8 + (c ^ ((168 >> (3 * ((r) % 3))) & 7)))'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_bool, check_int
from swizzlekit.smem.layouts import MAX_BITS, TileLayout, is_pow2

__all__ = ["RowXor", "row_xor_expression", "linear_basis", "search", "CODE_BITS"]

#: The masks of one layout fit one constant of this many bits in the emitted code.
CODE_BITS = 62


@dataclass(frozen=True)
class RowXor(TileLayout):
    """``(r, c) -> r * cols + (c ^ masks[r % len(masks)])``, or with ``transposed`` the same
    on the transposed tile: ``c * rows + (r ^ masks[c % len(masks)])``."""

    rows: int
    cols: int
    masks: tuple
    transposed: bool = False
    #: (R, s): on the transposed tile, rows r, r+s, ..., r+(R-1)s stored next to each other
    #: (in groups of R*s rows; rows past the last whole group stay in order), so the R rows
    #: a strided block reads share 4-byte words
    gather: tuple = (1, 1)

    def __post_init__(self) -> None:
        self._check_shape()
        check_bool("RowXor: transposed", self.transposed)
        if not isinstance(self.gather, (tuple, list)) or len(self.gather) != 2:
            raise SwizzleKitError(f"RowXor: gather must be (rows, stride); got "
                                  f"{self.gather!r}")
        gather = tuple(check_int(f"RowXor: gather[{i}]", v, 1, self.rows)
                       for i, v in enumerate(self.gather))
        object.__setattr__(self, "gather", gather)
        if gather != (1, 1) and not self.transposed:
            raise SwizzleKitError("RowXor: gather reorders the rows of a column, so it needs "
                                  "transposed=True")
        if not isinstance(self.masks, (tuple, list)) or not self.masks:
            raise SwizzleKitError(f"RowXor: masks must be a non-empty tuple of integers; got "
                                  f"{self.masks!r}")
        masks = tuple(check_int(f"RowXor: masks[{i}]", m, 0, 2**MAX_BITS)
                      for i, m in enumerate(self.masks))
        object.__setattr__(self, "masks", masks)
        if self.span and self.extent % self.span:
            raise SwizzleKitError(f"RowXor: masks below {self.span} need a multiple of "
                                  f"{self.span} {'rows' if self.transposed else 'columns'}; "
                                  f"the tile has {self.extent}")

    @property
    def extent(self) -> int:
        """The length the masks act along: the row, or the column when transposed."""
        return self.rows if self.transposed else self.cols

    @property
    def span(self) -> int:
        """The least power of two above every mask (1 when all are 0)."""
        return 1 << max(self.masks).bit_length()

    @property
    def whole(self) -> int:
        """Rows in whole gather groups (those that are reordered)."""
        group = self.gather[0] * self.gather[1]
        return self.rows // group * group

    def __call__(self, r, c):
        table = np.asarray(self.masks, dtype=np.int64)
        if self.transposed:
            r = np.asarray(r)
            n, s = self.gather
            packed = r // (n * s) * (n * s) + r % s * n + r % (n * s) // s
            r = np.where(r < self.whole, packed, r)
            return c * self.rows + (r ^ table[np.asarray(c) % len(self.masks)])
        return r * self.cols + (c ^ table[np.asarray(r) % len(self.masks)])

    def __str__(self) -> str:
        masks = ",".join(map(str, self.masks))
        if self.transposed:
            row = "r" if self.gather == (1, 1) else "g(r)"
            text = f"(r, c) -> c*{self.rows} + ({row} ^ [{masks}][c % {len(self.masks)}])"
            if self.gather != (1, 1):
                n, s = self.gather
                text += (f", g(r) packs rows r, r+{s}, .., r+{(n - 1) * s} together (rows "
                         f"< {self.whole})")
            return text
        return f"(r, c) -> r*{self.cols} + (c ^ [{masks}][r % {len(self.masks)}])"


def linear_basis(masks: tuple) -> tuple | None:
    """The masks as a GF(2)-linear function of the row's low bits, ``masks[r] = XOR of
    basis[j] over the set bits j of r``, or None when they are not one (a power-of-two period
    is needed).

    >>> linear_basis((0, 4, 2, 6, 1, 5, 3, 7))        # bit-reversed rows
    (4, 2, 1)
    >>> linear_basis((0, 1, 2, 2)) is None
    True
    """
    if isinstance(masks, (str, bytes)) or not hasattr(masks, "__len__") or not len(masks):
        raise SwizzleKitError(f"masks must be a non-empty sequence of integers, one per row; "
                              f"got {masks!r}")
    masks = tuple(check_int(f"masks[{i}]", m, 0, 2**MAX_BITS) for i, m in enumerate(masks))
    if not is_pow2(len(masks)):
        return None
    basis = tuple(masks[1 << j] for j in range(len(masks).bit_length() - 1))
    return basis if _linear_masks(basis, len(masks)) == tuple(masks) else None


def row_xor_expression(layout: RowXor, r: str, c: str) -> str:
    """The offset as a C/Python integer expression: the mask as an XOR of row bits where it
    is linear in them, else each mask read out of one constant."""
    outer, inner = (c, r) if layout.transposed else (r, c)
    ld = layout.rows if layout.transposed else layout.cols
    if layout.gather != (1, 1):            # rows of one strided block side by side
        n, s = layout.gather
        g = n * s
        packed = f"(({r}) // {g} * {g} + ({r}) % {s} * {n} + ({r}) % {g} // {s})"
        inner = (packed if layout.whole == layout.rows else
                 f"(({r}) + (({r}) < {layout.whole}) * ({packed} - ({r})))")
    basis = linear_basis(layout.masks)
    if basis is not None:
        terms = [f"((({outer}) >> {j}) & 1) * {b}" for j, b in enumerate(basis) if b]
        mask = "(" + " ^ ".join(f"({t})" for t in terms) + ")" if terms else "0"
        return f"({outer} * {ld} + ({inner} ^ {mask}))"
    bits = max(1, (layout.span - 1).bit_length())
    if bits * len(layout.masks) > CODE_BITS:
        raise SwizzleKitError(f"{layout}: {len(layout.masks)} masks of {bits} bits do not fit "
                              f"one {CODE_BITS}-bit constant")
    packed = sum(m << (bits * i) for i, m in enumerate(layout.masks))
    mask = f"(({packed} >> ({bits} * (({outer}) % {len(layout.masks)}))) & {(1 << bits) - 1})"
    return f"({outer} * {ld} + ({inner} ^ {mask}))"


def _linear_masks(basis, period: int) -> tuple:
    """``masks[r]`` for ``r < period``: the XOR of ``basis[j]`` over the set bits j of r."""
    out = []
    for r in range(period):
        x = 0
        for j, b in enumerate(basis):
            if r >> j & 1:
                x ^= b
        out.append(x)
    return tuple(out)


def search(rows: int, cols: int, cost, keep: int = 1, transposed: bool = False,
           evals: int = 1000, gather: tuple = (1, 1), unit: int = 1
           ) -> tuple[RowXor, int, int] | None:
    """The best row-XOR layout found for ``cost`` (a function of a layout, in wavefronts), in
    two forms, each for every power-of-two span that divides the extent (largest first): masks
    linear in the row's bits, for periods up to 256 rows, and free masks for the periods whose
    masks fit one :data:`CODE_BITS` constant. Masks go in steps of ``keep`` (a vector must
    stay whole); each form is improved one basis vector or mask at a time until no change
    lowers the cost or ``evals`` calls of ``cost`` are spent: a count, not seconds, so that
    the search takes the same path on any machine, however busy. ``gather``: as
    :class:`RowXor`'s; ``unit``: the elements of one 4-byte word along the extent, the step the
    linear masks start from (they then move whole words). Returns the layout, its cost and the
    calls of ``cost`` made; None where no span fits."""
    extent, other = (rows, cols) if transposed else (cols, rows)
    best, calls = None, 0
    spans = [1 << b for b in range(1, extent.bit_length())
             if extent % (1 << b) == 0 and (1 << b) > keep]

    def costed(layout: RowXor) -> int:
        nonlocal calls
        calls += 1
        return cost(layout)

    def descend(slots: list, choices: list, make) -> tuple[RowXor, int]:
        current = costed(make(slots))
        improved = True
        while improved and calls < evals:
            improved = False
            for i in range(len(slots)):
                for m in choices:
                    if calls >= evals:
                        return make(slots), current
                    if m != slots[i]:
                        trial = slots[:i] + [m] + slots[i + 1:]
                        c = costed(make(trial))
                        if c < current:
                            slots, current, improved = trial, c, True
        return make(slots), current

    forms = []                     # (starting slots, mask choices, the layout of slots)
    for span in reversed(spans):
        choices = list(range(0, span, keep))
        bits = (span - 1).bit_length()
        for log_p in range(1, min(8, other.bit_length() - 1) + 1):      # linear masks
            period = 1 << log_p
            forms.append(([choices[((unit << j) % span) // keep] for j in range(log_p)],
                          choices, lambda b, p=period: RowXor(rows, cols, _linear_masks(b, p),
                                                              transposed, gather)))
        for period in (3, 5, 6, 12):                                      # free masks
            if period <= other and period * bits <= CODE_BITS:
                forms.append(([choices[i % len(choices)] for i in range(period)], choices,
                              lambda m: RowXor(rows, cols, tuple(m), transposed, gather)))
    # every form's start costed first, then each descended from the best start down
    starts = []
    for slots, choices, make in forms:
        starts.append((costed(make(slots)), len(starts), slots, choices, make))
        if calls >= evals:
            break
    for c0, _, slots, choices, make in sorted(starts, key=lambda t: t[:2]):
        if best is None or c0 < best[1]:
            best = (make(slots), c0)
        if calls >= evals:
            break
        found = descend(slots, choices, make)
        if found[1] < best[1]:
            best = found
    return None if best is None else (*best, calls)
