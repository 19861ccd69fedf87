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

from swizzlekit.errors import SwizzleKitError, check_int

__all__ = ["identity", "from_columns", "columns", "from_function", "apply", "compose",
           "rank", "row_reduce", "inverse", "inverse_images", "nullspace", "is_invertible",
           "span", "MAX_BITS", "MAX_SPAN"]

#: The most bits a map here takes in or gives out: vectors are int64s.
MAX_BITS = 62
#: The most vectors :func:`span` combines (2^20 combinations).
MAX_SPAN = 20


def _matrix(m, what: str = "m") -> np.ndarray:
    """``m`` as a bit matrix: a 2-D integer (or bool) array of 0s and 1s, at most
    :data:`MAX_BITS` a side; :class:`SwizzleKitError` otherwise.

    >>> _matrix([[1, 0], [1, 1]]).dtype
    dtype('uint8')
    >>> _matrix([[2]])
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: m must hold only 0s and 1s; got values from 2 to 2
    """
    try:
        arr = np.asarray(m)
    except (TypeError, ValueError):
        arr = np.asarray(None)
    if arr.ndim != 2 or arr.dtype.kind not in "biu":
        raise SwizzleKitError(f"{what} must be a 2-D bit matrix (an integer array of 0s and 1s); "
                              f"got {type(m).__name__} of dtype {arr.dtype} and shape {arr.shape}")
    if max(arr.shape) > MAX_BITS:
        raise SwizzleKitError(f"{what} has shape {arr.shape}: at most {MAX_BITS} bits a side")
    if arr.size and (arr.min() < 0 or arr.max() > 1):
        raise SwizzleKitError(f"{what} must hold only 0s and 1s; got values from {arr.min()} to "
                              f"{arr.max()}")
    return arr.astype(np.uint8, copy=False)


def _vectors(values, what: str, bits: int = MAX_BITS) -> list[int]:
    """``values`` as a list of integers from 0 to 2^bits - 1."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise SwizzleKitError(f"{what} must be a sequence of integers; got {values!r}")
    return [check_int(f"{what}[{j}]", v, 0, (1 << bits) - 1) for j, v in enumerate(values)]


def identity(n: int) -> np.ndarray:
    """The ``n`` x ``n`` identity."""
    return np.eye(check_int("n", n, 0, MAX_BITS), dtype=np.uint8)


def from_columns(images: Sequence[int], n_out: int) -> np.ndarray:
    """The matrix whose column ``j`` is the bits of ``images[j]`` (the image of bit ``j``)."""
    n_out = check_int("n_out", n_out, 0, MAX_BITS)
    images = _vectors(images, "images")
    if len(images) > MAX_BITS:
        raise SwizzleKitError(f"{len(images)} images: a map takes at most {MAX_BITS} bits")
    m = np.zeros((n_out, len(images)), dtype=np.uint8)
    for j, image in enumerate(images):
        if image >> n_out:
            raise SwizzleKitError(f"image {image} of bit {j} does not fit in {n_out} bits")
        for i in range(n_out):
            m[i, j] = (image >> i) & 1
    return m


def columns(m: np.ndarray) -> list[int]:
    """Each column as an integer: the image of each input bit."""
    m = _matrix(m)
    weights = (1 << np.arange(m.shape[0], dtype=np.int64))
    return [int(v) for v in (m.astype(np.int64) * weights[:, None]).sum(axis=0)]


def from_function(f: Callable[[int], int], n_in: int, n_out: int | None = None) -> np.ndarray:
    """The matrix of ``f`` read off the images of the basis vectors.

    Exact only when ``f`` is linear; check with :func:`apply` over the domain when unsure.
    """
    if not callable(f):
        raise SwizzleKitError(f"f must be a function of an int; got {f!r}")
    n_in = check_int("n_in", n_in, 0, MAX_BITS)
    return from_columns([f(1 << j) for j in range(n_in)], n_in if n_out is None else n_out)


def apply(m: np.ndarray, x):
    """``m`` applied to the bits of ``x`` (an int or an integer array, each from 0 to
    2^(m's columns) - 1), as an integer."""
    m = _matrix(m)
    if isinstance(x, bool) or np.asarray(x).dtype.kind not in "iu":
        raise SwizzleKitError(f"x must be an integer or an integer array; got {x!r}")
    arr = np.asarray(x, dtype=np.int64)
    if arr.size and (arr.min() < 0 or arr.max() >> m.shape[1]):
        raise SwizzleKitError(f"x must be from 0 to {(1 << m.shape[1]) - 1} (the map takes "
                              f"{m.shape[1]} bits); got values from {arr.min()} to {arr.max()}")
    out = np.zeros_like(arr)
    for j, image in enumerate(columns(m)):
        out ^= ((arr >> j) & 1) * image
    return int(out) if np.ndim(x) == 0 else out


def compose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a`` after ``b``: the matrix product over GF(2)."""
    a, b = _matrix(a, "a"), _matrix(b, "b")
    if a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"cannot compose a {a.shape} matrix after a {b.shape} one")
    return ((a.astype(np.int64) @ b.astype(np.int64)) & 1).astype(np.uint8)


def row_reduce(m: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form and the pivot columns."""
    return _row_reduce(_matrix(m))


def _row_reduce(m: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """:func:`row_reduce` on a checked bit matrix (any width: :func:`inverse` appends the
    identity)."""
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
    """Whether ``m`` is square and of full rank."""
    m = _matrix(m)
    return m.shape[0] == m.shape[1] and rank(m) == m.shape[0]


def inverse(m: np.ndarray) -> np.ndarray:
    """The inverse over GF(2); :class:`SwizzleKitError` if ``m`` is singular or not square."""
    m = _matrix(m)
    n = m.shape[0]
    if m.shape != (n, n):
        raise SwizzleKitError(f"only square matrices have inverses, got shape {m.shape}")
    reduced, pivots = _row_reduce(np.concatenate([m, identity(n)], axis=1))
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
    n = check_int("n", n, 0, MAX_BITS)
    if isinstance(images, (str, bytes)) or not hasattr(images, "__len__") or len(images) != n:
        raise SwizzleKitError(f"images must be {n} integers, one per input bit; got {images!r}")
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v < 1 << n
               for v in images):
        _vectors(images, "images", n)               # names the first bad one
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
    m = _matrix(m)
    reduced, pivots = _row_reduce(m)
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
    """Every XOR combination of ``vectors`` (with repeats if they are dependent), at most
    :data:`MAX_SPAN` of them."""
    vectors = _vectors(vectors, "vectors")
    if len(vectors) > MAX_SPAN:
        raise SwizzleKitError(f"span of {len(vectors)} vectors: at most {MAX_SPAN} "
                              f"(2^{MAX_SPAN} combinations)")
    out = np.zeros(1, dtype=np.int64)
    for v in vectors:
        out = np.concatenate([out, out ^ v])
    return out
