"""Linear algebra over GF(2): bit matrices that map the bits of an offset to new bits.

A matrix is a numpy ``uint8`` array of shape ``(n_out, n_in)``: column ``j`` is the image of
input bit ``j`` and row ``i`` says which input bits are XORed into output bit ``i``. Bit 0 is
the least significant. This is the "linear layout" view of swizzles (seed 004): CuTe's
``Swizzle<3,0,3>`` on 6 bits is the identity plus three ones above the diagonal.

>>> m = from_columns([1, 2, 4, 9, 18, 36], 6)      # Swizzle<3,0,3>: bits 3..5 into 0..2
>>> rank(m), apply(m, 0b001_010)
(6, 11)
>>> (compose(inverse(m), m) == identity(6)).all()
np.True_
>>> nullspace(from_columns([1, 1, 2], 2))          # bits 0 and 1 both map to bit 0
[3]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from swizzlekit.errors import SwizzleKitError

__all__ = ["identity", "from_columns", "columns", "from_function", "apply", "compose",
           "rank", "row_reduce", "inverse", "inverse_images", "nullspace", "is_invertible",
           "span"]


def identity(n: int) -> np.ndarray:
    """The ``n`` x ``n`` identity."""
    return np.eye(n, dtype=np.uint8)


def from_columns(images: Sequence[int], n_out: int) -> np.ndarray:
    """The matrix whose column ``j`` is the bits of ``images[j]`` (the image of bit ``j``)."""
    m = np.zeros((n_out, len(images)), dtype=np.uint8)
    for j, image in enumerate(images):
        if image < 0 or image >> n_out:
            raise SwizzleKitError(f"image {image} of bit {j} does not fit in {n_out} bits")
        for i in range(n_out):
            m[i, j] = (image >> i) & 1
    return m


def columns(m: np.ndarray) -> list[int]:
    """Each column as an integer: the image of each input bit."""
    weights = (1 << np.arange(m.shape[0], dtype=np.int64))
    return [int(v) for v in (m.astype(np.int64) * weights[:, None]).sum(axis=0)]


def from_function(f: Callable[[int], int], n_in: int, n_out: int | None = None) -> np.ndarray:
    """The matrix of ``f`` read off the images of the basis vectors.

    Exact only when ``f`` is linear; check with :func:`apply` over the domain when unsure.
    """
    return from_columns([f(1 << j) for j in range(n_in)], n_in if n_out is None else n_out)


def apply(m: np.ndarray, x):
    """``m`` applied to the bits of ``x`` (an int or an integer array), as an integer."""
    arr = np.asarray(x, dtype=np.int64)
    out = np.zeros_like(arr)
    for j, image in enumerate(columns(m)):
        out ^= ((arr >> j) & 1) * image
    return int(out) if np.ndim(x) == 0 else out


def compose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a`` after ``b``: the matrix product over GF(2)."""
    if a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"cannot compose a {a.shape} matrix after a {b.shape} one")
    return ((a.astype(np.int64) @ b.astype(np.int64)) & 1).astype(np.uint8)


def row_reduce(m: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form and the pivot columns."""
    r = (np.asarray(m, dtype=np.uint8) & 1).copy()
    pivots: list[int] = []
    row = 0
    for col in range(r.shape[1]):
        hits = np.nonzero(r[row:, col])[0]
        if hits.size == 0:
            continue
        p = row + hits[0]
        r[[row, p]] = r[[p, row]]
        others = np.nonzero(r[:, col])[0]
        others = others[others != row]
        r[others] ^= r[row]
        pivots.append(col)
        row += 1
        if row == r.shape[0]:
            break
    return r, pivots


def rank(m: np.ndarray) -> int:
    """The rank over GF(2)."""
    return len(row_reduce(m)[1])


def is_invertible(m: np.ndarray) -> bool:
    return m.shape[0] == m.shape[1] and rank(m) == m.shape[0]


def inverse(m: np.ndarray) -> np.ndarray:
    """The inverse over GF(2); :class:`SwizzleKitError` if ``m`` is singular or not square."""
    n = m.shape[0]
    if m.shape != (n, n):
        raise SwizzleKitError(f"only square matrices have inverses, got shape {m.shape}")
    reduced, pivots = row_reduce(np.concatenate([m & 1, identity(n)], axis=1))
    if pivots[:n] != list(range(n)):
        raise SwizzleKitError("the bit matrix is singular: the layout is not a bijection")
    return reduced[:, n:]


def inverse_images(images: Sequence[int], n: int) -> tuple[int, ...] | None:
    """:func:`inverse` on a map given as the images of its ``n`` input bits (integers), for
    the searches that build many small maps: Gauss-Jordan on bit masks, without matrices.
    None if the map is singular.

    >>> inverse_images([1, 3], 2)            # x1 -> x0 ^ x1 is its own inverse
    (1, 3)
    >>> inverse_images([1, 1], 2) is None
    True
    """
    rows = [[v, 1 << j] for j, v in enumerate(images)]
    pivots: list[list[int]] = []
    for bit in range(n):
        piv = next((r for r in rows if r[0] >> bit & 1), None)
        if piv is None:
            return None
        rows.remove(piv)
        for r in rows + pivots:              # clear the bit everywhere else
            if r[0] >> bit & 1:
                r[0] ^= piv[0]
                r[1] ^= piv[1]
        pivots.append(piv)
    return tuple(row[1] for row in pivots)


def nullspace(m: np.ndarray) -> list[int]:
    """A basis of the kernel, each vector as an integer over the input bits."""
    reduced, pivots = row_reduce(m)
    free = [c for c in range(m.shape[1]) if c not in pivots]
    basis = []
    for f in free:
        v = 1 << f
        for row, p in enumerate(pivots):
            if reduced[row, f]:
                v |= 1 << p
        basis.append(v)
    return basis


def span(vectors: Sequence[int]) -> np.ndarray:
    """Every XOR combination of ``vectors`` (with repeats if they are dependent)."""
    out = np.zeros(1, dtype=np.int64)
    for v in vectors:
        out = np.concatenate([out, out ^ v])
    return out
