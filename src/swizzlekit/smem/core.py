"""The periodic core of a tile: its placements as cosets of a few subspaces (for linear
layouts, :class:`Core`) or as translates of a few shapes (for padded ones, :class:`Translates`).

Under a GF(2)-linear layout ``L`` (row-major, a CuTe swizzle, any :class:`LinearLayout`), a
placement that is a coset ``x0 ^ S`` of a subspace ``S`` of row-major indices lands on
``L(x0) ^ L(S)``: the offsets of ``S`` itself, XORed with one constant. XORing every byte
address with one constant permutes the 4-byte words and the banks without merging or
splitting any, so the placement costs exactly what ``S`` costs. A 256x256 tile read by rows,
columns and 8x8 blocks has 3,072 placements but three subspaces; :class:`Core` costs a linear
layout on those three, weighted by how many placements each stands for. Placements that are
no coset (clipped at a ragged edge) are kept as they are. The tests hold it equal to the full
count for random linear maps.

::

    row-major index bits    r r r r r r r r | c c c c c c c c
    a row of 64 fp16:       x x x x x x x x | x x 0 0 0 0 0 0   (x: the coset's constant)
    its subspace S:         0 0 0 0 0 0 0 0 | 0 0 * * * * * *   (*: spanned)

>>> core = Core.of([np.array([0, 1, 2, 3]), np.array([4, 5, 6, 7]), np.array([0, 8, 16, 24]),
...                  np.array([32, 40, 48])])            # a ragged edge: no coset
>>> core.weights.tolist(), core.elements.tolist(), core.all_cosets
([2, 1, 1], [0, 1, 2, 3, 8, 16, 24, 32, 40, 48], False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from swizzlekit.smem import gf2
from swizzlekit.smem.analyze import set_costs

__all__ = ["subspace", "Core", "Translates", "apply_bases"]


def subspace(points: np.ndarray) -> list[int] | None:
    """A basis if ``points`` (flat indices) is a coset ``x0 ^ span(basis)``, else None.

    >>> subspace(np.array([4, 5, 6, 7])), subspace(np.array([0, 1, 2]))
    ([1, 2], None)
    """
    pts = np.unique(np.asarray(points, dtype=np.int64))
    if len(pts) != len(points) or len(pts) & (len(pts) - 1):
        return None
    x0 = int(points[0])
    basis: list[int] = []
    for d in sorted({int(p) ^ x0 for p in pts}):
        reduced = d
        for v in basis:
            reduced = min(reduced, reduced ^ v)
        if reduced:
            basis.append(reduced)
    if len(pts) != 1 << len(basis):
        return None
    spanned = np.sort(gf2.span(basis) ^ x0)
    return basis if np.array_equal(spanned, pts) else None


def apply_bases(bases: Sequence[int], x: np.ndarray) -> np.ndarray:
    """The linear map with ``bases[j]`` the image of bit ``j``, applied to the indices ``x``.

    >>> apply_bases([1, 3], np.array([0, 1, 2, 3])).tolist()
    [0, 1, 3, 2]
    """
    out = np.zeros(len(x), dtype=np.int64)
    for j, b in enumerate(bases):
        out ^= ((x >> j) & 1) * int(b)
    return out


@dataclass(frozen=True)
class Core:
    """The distinct subspaces of a tile's placements and how many placements each stands for,
    then every placement that is no coset (a tile's ragged edge), on its own with weight 1.
    ``idx`` rows are positions in ``elements``, -1 padded."""
    elements: np.ndarray      # the flat indices the rows read, sorted
    idx: np.ndarray           # (subspaces + others, k) positions into elements
    weights: np.ndarray       # placements per row
    bases: tuple              # a basis per subspace (the first len(bases) rows)

    @property
    def all_cosets(self) -> bool:
        """Every placement is a coset (so :func:`~swizzlekit.smem.search.xor_search` applies)."""
        return len(self.bases) == len(self.idx)

    @classmethod
    def of(cls, placements: Sequence[np.ndarray]) -> Core:
        """The core of ``placements`` (flat indices each)."""
        groups: dict[bytes, list] = {}
        others: list[np.ndarray] = []
        no_coset: set[bytes] = set()
        for p in placements:
            p = np.asarray(p, dtype=np.int64)
            # p is a coset of S exactly when {x ^ p[0]} is S: translates share the key
            key = np.sort(p ^ p[0]).tobytes()
            if key in groups:
                groups[key][1] += 1
                continue
            basis = None if key in no_coset else subspace(p)
            if basis is None:
                no_coset.add(key)
                others.append(np.sort(p))
                continue
            groups[key] = [basis, 1, np.sort(gf2.span(basis))]
        rows = [g[2] for g in groups.values()] + others
        elements = np.unique(np.concatenate(rows))
        k = max(len(r) for r in rows)
        idx = np.full((len(rows), k), -1, dtype=np.int64)
        for i, r in enumerate(rows):
            idx[i, :len(r)] = np.searchsorted(elements, r)
        weights = [g[1] for g in groups.values()] + [1] * len(others)
        return cls(elements, idx, np.array(weights, dtype=np.int64),
                   tuple(tuple(g[0]) for g in groups.values()))

    def cost(self, linear: Callable[[np.ndarray], np.ndarray], elem_bytes: int) -> int:
        """Total wavefronts of every placement under the linear map ``linear`` (flat index
        array -> offset array): each subspace's cost, times its placements."""
        return int(self.costs([linear], elem_bytes)[0])

    def costs(self, maps: Sequence[Callable[[np.ndarray], np.ndarray]],
              elem_bytes: int) -> np.ndarray:
        """:meth:`cost` of many linear maps in one vectorized count (a family of candidates:
        the subspaces of map ``i`` are costed on offsets shifted past those of map ``i-1``)."""
        if not maps:
            return np.zeros(0, dtype=np.int64)
        e = len(self.elements)
        off = np.stack([np.asarray(f(self.elements), dtype=np.int64) for f in maps])
        # map i's offsets moved past map i-1's by a power of two of at least 128 bytes, so
        # words and banks line up as before
        stride = max(1 << int(off.max()).bit_length(), 128 // min(elem_bytes, 128))
        off = off + (np.arange(len(maps), dtype=np.int64) * stride)[:, None]
        shift = (np.arange(len(maps), dtype=np.int64) * e)[:, None, None]
        idx = np.where(self.idx[None] >= 0, self.idx[None] + shift, -1).reshape(-1, self.idx.shape[1])
        per = set_costs(off.reshape(-1), idx, elem_bytes)[0].reshape(len(maps), -1)
        return (per * self.weights[None]).sum(axis=1)


@dataclass(frozen=True)
class Translates:
    """Placements grouped by shape, for padded row-major layouts (``r * ld + c``).

    There a placement's offsets are its first element's offset plus a pattern fixed by its
    shape. Moving every address by a whole number of ``max(elem_bytes, 4)``-byte cells
    rotates the banks and keeps the words, so a placement costs what any other of its shape
    costs whose first byte sits at the same place within a cell. One representative per
    (shape, place in the cell) is costed, weighted by how many it stands for.

    >>> t = Translates.of([np.array([[0, 0], [0, 1]]), np.array([[1, 0], [1, 1]])], cols=4)
    >>> t.cost(ld=4, cols=4, elem_bytes=4), t.cost(ld=5, cols=4, elem_bytes=2)
    (2, 2)
    """
    shape_of: np.ndarray      # per placement, the id of its shape (elements minus the first)
    first: np.ndarray         # per placement, its first element (row, col)
    idx: np.ndarray           # the placements as row-major indices, -1 padded

    @classmethod
    def of(cls, placements: Sequence[np.ndarray], cols: int) -> Translates:
        """``placements``: (k, 2) arrays of (row, col) in a tile ``cols`` wide."""
        shapes: dict[bytes, int] = {}
        ids = [shapes.setdefault((p - p[0]).tobytes(), len(shapes)) for p in placements]
        k = max(len(p) for p in placements)
        idx = np.full((len(placements), k), -1, dtype=np.int64)
        for i, p in enumerate(placements):
            idx[i, :len(p)] = p[:, 0] * cols + p[:, 1]
        return cls(np.array(ids, dtype=np.int64),
                   np.array([p[0] for p in placements], dtype=np.int64), idx)

    def cost(self, ld: int, cols: int, elem_bytes: int) -> int:
        """Total wavefronts of every placement under ``r * ld + c``."""
        unit = max(elem_bytes, 4)
        base = self.first[:, 0] * ld + self.first[:, 1]
        key = self.shape_of * unit + (base * elem_bytes) % unit
        _, rep, counts = np.unique(key, return_index=True, return_counts=True)
        flat = self.idx[rep]
        valid = flat >= 0
        table = np.where(valid, (flat // cols) * ld + flat % cols, 0).reshape(-1)
        pos = np.where(valid, np.arange(flat.size).reshape(flat.shape), -1)
        return int((set_costs(table, pos, elem_bytes)[0] * counts).sum())
