"""The running cost of a bijection under swaps: each placement's wavefronts kept up to date as
elements change offsets, for the local search over bijections (:mod:`.permuted`).

A placement's cost is the bank model's (:func:`~swizzlekit.smem.analyze.set_costs`): an
element covers ``max(elem_bytes, 4)``-byte cells, a wavefront serves one cell per group of
``128 / cell`` groups, and the cost is the most distinct cells in one group. The ledger keeps,
per placement, how many of its elements lie in each cell and how many distinct cells each
group holds, so moving one element recounts only the placements it lies in::

    placement t:   cells {c: elements in c}     groups [distinct cells of group g]
    move e: x -> y   cell x loses e (group x % G loses x if x empties)
                     cell y gains e (group y % G gains y if y was empty)

>>> import numpy as np
>>> led = Ledger([0, 1, 2, 3], np.array([[0, 2], [1, 3]]), 16)
>>> led.total, led.move([(2, 8), (0, 16)]), led.total, led.cost(0)
(2, {0}, 2, 2)
"""

from __future__ import annotations

import numpy as np

from swizzlekit.smem.access import WAVEFRONT_BYTES

__all__ = ["Ledger"]


class Ledger:
    """Offsets of a tile's elements (row-major), and the cost of each placement row of
    ``idx`` (element indices, -1 for none) under them. :meth:`move` changes offsets and
    recounts the placements touched; their costs are read by :meth:`cost` and written back
    by :meth:`settle` (the search decides whether a move stays)."""

    def __init__(self, offsets, idx: np.ndarray, elem_bytes: int) -> None:
        self.elem_bytes = elem_bytes
        self.unit = max(elem_bytes, 4)
        self.groups = WAVEFRONT_BYTES // self.unit
        # an element twice in one placement is one element there (one set of cells)
        self.members = [sorted(set(row[row >= 0].tolist())) for row in idx]
        self.rows_of: dict[int, list[int]] = {}
        for t, row in enumerate(self.members):
            for e in row:
                self.rows_of.setdefault(e, []).append(t)
        self.reset(offsets)

    def reset(self, offsets) -> None:
        """Start over from ``offsets``: every placement recounted."""
        self.off = [int(v) for v in offsets]
        g, eb, unit = self.groups, self.elem_bytes, self.unit
        self.cells, self.counts = [], []
        for row in self.members:
            cells: dict[int, int] = {}
            for e in row:
                x = self.off[e] * eb // unit
                cells[x] = cells.get(x, 0) + 1
            counts = [0] * g
            for x in cells:
                counts[x % g] += 1
            self.cells.append(cells)
            self.counts.append(counts)
        self.per = [max(c) for c in self.counts]
        self.total = sum(self.per)

    def move(self, changes) -> set:
        """Give each element ``e`` of ``changes`` (pairs ``(e, offset)``) its new offset, in
        order, and return the placements whose counts changed. :attr:`per` and
        :attr:`total` are left as they were until :meth:`settle`."""
        g, eb, unit = self.groups, self.elem_bytes, self.unit
        touched = set()
        for e, new in changes:
            old, self.off[e] = self.off[e], new
            xo, xn = old * eb // unit, new * eb // unit
            if xo == xn:
                continue
            for t in self.rows_of.get(e, ()):
                cells, counts = self.cells[t], self.counts[t]
                k = cells[xo] - 1
                if k:
                    cells[xo] = k
                else:
                    del cells[xo]
                    counts[xo % g] -= 1
                k = cells.get(xn, 0)
                if not k:
                    counts[xn % g] += 1
                cells[xn] = k + 1
                touched.add(t)
        return touched

    def cost(self, t: int) -> int:
        """Placement ``t``'s wavefronts under the offsets as they are now."""
        return max(self.counts[t])

    def settle(self, costs: dict) -> None:
        """Take the costs of the placements in ``costs`` (from :meth:`cost` after a move
        that stays) as theirs."""
        for t, v in costs.items():
            self.total += v - self.per[t]
            self.per[t] = v

    def over(self, t: int) -> bool:
        """Whether placement ``t``'s settled cost is above its ideal (its distinct cells over
        the groups, rounded up)."""
        return self.per[t] > -(-len(self.cells[t]) // self.groups)

    def hot(self) -> list[int]:
        """The placements above their ideal (:meth:`over`)."""
        return [t for t in range(len(self.per)) if self.over(t)]

    def crowded(self, t: int) -> list[int]:
        """Placement ``t``'s elements in its most crowded groups."""
        g, eb, unit, counts = self.groups, self.elem_bytes, self.unit, self.counts[t]
        top = max(counts)
        return [e for e in self.members[t] if counts[self.off[e] * eb // unit % g] == top]
