"""Offset functors, as in CuTe: frozen values whose call maps a linear offset to a linear offset.

* :class:`Swizzle`: CuTe's ``Swizzle<B,M,S>``, exactly;
* :class:`LinearLayout`: any invertible GF(2) bit matrix, CuTe-forbidden forms included.

The tile layouts of :mod:`swizzlekit.smem.layouts` apply them to a row-major offset.

>>> sw = Swizzle(3, 0, 3)
>>> print(sw)
Swizzle<3,0,3>
>>> sw(0b001_010)          # row 1, col 2 of an 8x8 tile lands in column 3
11
>>> print(LinearLayout.from_xor(3, 0, 3).as_swizzle())
Swizzle<3,0,3>
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_int
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem import gf2

__all__ = ["Swizzle", "LinearLayout", "is_pow2", "log2", "MAX_BITS"]


#: No tile layout has more elements than shared memory has bytes (:data:`SMEM_LIMIT`, 228 KiB
#: on the presets), and no offset or swizzle reaches past this many bits.
MAX_BITS = (SMEM_LIMIT - 1).bit_length()


def _set_ints(obj, what: str, **ranges) -> None:
    """Check each named field of a frozen dataclass as an integer in ``(lo, hi)`` and store it
    as a Python int (numpy integers are integers)."""
    for name, (lo, hi) in ranges.items():
        object.__setattr__(obj, name, check_int(f"{what}: {name}", getattr(obj, name), lo, hi))


def is_pow2(n: int) -> bool:
    """Whether the integer ``n`` is a power of two (1, 2, 4, ...).

    >>> is_pow2(64), is_pow2(48), is_pow2(0)
    (True, False, False)
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise SwizzleKitError(f"is_pow2: n must be an integer; got {n!r} ({type(n).__name__})")
    return n > 0 and n & (n - 1) == 0


def log2(n: int) -> int:
    """The exponent of the power of two ``n``; :class:`SwizzleKitError` for any other value.

    >>> log2(128)
    7
    """
    if not is_pow2(n):
        raise SwizzleKitError(f"{n} is not a power of two")
    return int(n).bit_length() - 1


def _shift(x, s: int):
    """Shift right by ``s`` (left when negative), on ints or arrays."""
    return x >> s if s >= 0 else x << -s


# --------------------------------------------------------------------------- offset functors

@dataclass(frozen=True)
class Swizzle:
    """CuTe's ``Swizzle<B,M,S>``: XOR the ``B`` bits ``M+S`` up into the ``B`` bits at ``M``.

    ::

        0bxxxxxxxxxxxxxxxYYYxxxxxxxZZZxxxx    S > 0: YYY sits S bits above ZZZ
                                     ^--^ M   (S < 0: YYY sits |S| bits below ZZZ)
                         ^-^       ^-^    B
        result: ZZZ ^= YYY

    CuTe requires ``|S| >= B`` (YYY and ZZZ must not overlap) and ``B, M >= 0``; those it
    rejects are rejected here with CuTe's own message. :class:`LinearLayout` takes the
    overlapping forms (seed 004's ``Swizzle<3,0,2>``).

    >>> [Swizzle(2, 1, -3)(x) for x in (0b10_0000, 0b00_0010)]   # negative: YYY below ZZZ
    [32, 18]
    """

    b: int
    m: int
    s: int

    def __post_init__(self) -> None:
        _set_ints(self, "Swizzle<B,M,S>", b=(None, None), m=(None, None), s=(None, None))
        if self.m < 0:
            raise SwizzleKitError(f"Swizzle<{self.b},{self.m},{self.s}>: MBase must be positive.")
        if self.b < 0:
            raise SwizzleKitError(f"Swizzle<{self.b},{self.m},{self.s}>: BBits must be positive.")
        if abs(self.s) < self.b:
            raise SwizzleKitError(f"Swizzle<{self.b},{self.m},{self.s}>: abs(SShift) must be "
                                  f"more than BBits. (CuTe's static_assert; the general XOR form "
                                  f"takes it: xor:{self.b},{self.m},{self.s} on the command line, "
                                  f"LinearLayout.from_xor in Python)")
        if self.bits > MAX_BITS:
            raise SwizzleKitError(f"{self} touches {self.bits} bits of the offset; shared "
                                  f"memory ({SMEM_LIMIT // 1024} KiB at most) has {MAX_BITS}")

    @property
    def yyy_mask(self) -> int:
        return ((1 << self.b) - 1) << (self.m + max(0, self.s))

    @property
    def zzz_mask(self) -> int:
        return ((1 << self.b) - 1) << (self.m - min(0, self.s))

    def __call__(self, offset):
        return offset ^ _shift(offset & self.yyy_mask, self.s)

    @property
    def bits(self) -> int:
        """Bits the functor touches: its domain is ``2 ** bits`` offsets (CuTe's ``size``)."""
        return self.b + self.m + abs(self.s)

    def size(self) -> int:
        return 1 << self.bits

    def inverse(self) -> Swizzle:
        """A CuTe swizzle is an involution: YYY is left alone, so XORing again undoes it."""
        return self

    def linear(self, bits: int | None = None) -> LinearLayout:
        n = max(self.bits, bits or 0)
        return LinearLayout(tuple(self(1 << j) for j in range(n)))

    def __str__(self) -> str:
        return f"Swizzle<{self.b},{self.m},{self.s}>"


@dataclass(frozen=True)
class LinearLayout:
    """An invertible GF(2)-linear map of offset bits: ``bases[j]`` is the image of bit ``j``.

    >>> lay = LinearLayout.from_xor(3, 0, 2)         # the seed's Swizzle<3,0,2>
    >>> lay.as_swizzle() is None, lay.xor_form()
    (True, (3, 0, 2))
    >>> print(lay)
    Linear[1,2,5,10,20]
    """

    bases: tuple[int, ...]

    def __post_init__(self) -> None:
        if isinstance(self.bases, (str, bytes)) or not hasattr(self.bases, "__iter__"):
            raise SwizzleKitError(f"LinearLayout: bases must be a sequence of integers (the "
                                  f"image of each offset bit); got {self.bases!r}")
        bases = tuple(check_int(f"LinearLayout: bases[{j}]", v, 0, 2**MAX_BITS - 1)
                      for j, v in enumerate(self.bases))
        if len(bases) > MAX_BITS:
            raise SwizzleKitError(f"LinearLayout: {len(bases)} bases; a shared-memory offset "
                                  f"has at most {MAX_BITS} bits")
        object.__setattr__(self, "bases", bases)
        if any(v >= 1 << len(bases) for v in bases):
            raise SwizzleKitError(f"{self}: an image has bits past the {len(bases)} the map "
                                  f"takes, so it is not a layout of those offsets")
        if not gf2.is_invertible(self.matrix):
            raise SwizzleKitError(f"{self}: the bit matrix is singular, so it is not a layout "
                                  f"(two positions would share a storage offset)")

    @classmethod
    def from_xor(cls, b: int, m: int, s: int) -> LinearLayout:
        """``x ^ ((x & Ymask) >> s)`` with CuTe's masks, for any ``s != 0``, overlap allowed.

        ::

            0bxxxxYYYxxZZZxxx    with |S| < B, YYY and ZZZ overlap: still a bijection
        """
        b, m = (check_int(f"XOR form: {n}", v, 0, MAX_BITS) for n, v in (("B", b), ("M", m)))
        s = check_int("XOR form: S", s, -MAX_BITS, MAX_BITS)
        if b + m + abs(s) > MAX_BITS:
            raise SwizzleKitError(f"XOR form ({b},{m},{s}) touches {b + m + abs(s)} bits; shared "
                                  f"memory offsets have {MAX_BITS}")
        if s == 0 and b > 0:
            raise SwizzleKitError(f"XOR form ({b},{m},0) XORs bits onto themselves: not a bijection")
        ymask = ((1 << b) - 1) << (m + max(0, s))
        n = b + m + abs(s)
        # every bit gains at most one bit on one side of it (below for s > 0, above for s < 0):
        # a unitriangular matrix, always invertible, so the rank check is skipped
        lay = object.__new__(cls)
        object.__setattr__(lay, "bases",
                           tuple((1 << j) ^ _shift((1 << j) & ymask, s) for j in range(n)))
        return lay

    @property
    def bits(self) -> int:
        return len(self.bases)

    @cached_property
    def matrix(self) -> np.ndarray:
        return gf2.from_columns(self.bases, len(self.bases))

    def __call__(self, offset):
        """Bits above ``self.bits`` pass through unchanged, as with a CuTe swizzle. (The bases
        are the matrix's columns: ``gf2.apply(self.matrix, x)`` without rebuilding them.)"""
        arr = np.asarray(offset, dtype=np.int64)
        out = arr & ~((1 << self.bits) - 1)
        for j, image in enumerate(self.bases):
            out = out ^ (((arr >> j) & 1) * image)
        return int(out) if np.ndim(offset) == 0 else out

    def inverse(self) -> LinearLayout:
        return LinearLayout(tuple(gf2.columns(gf2.inverse(self.matrix))))

    def compose(self, inner: LinearLayout) -> LinearLayout:
        """``self`` after ``inner`` (both padded with identity bits to the wider one)."""
        n = max(self.bits, inner.bits)
        return LinearLayout(tuple(self._padded(n)(inner._padded(n)(1 << j)) for j in range(n)))

    def _padded(self, n: int) -> LinearLayout:
        return self if n <= self.bits else LinearLayout(
            self.bases + tuple(1 << j for j in range(self.bits, n)))

    def xor_form(self) -> tuple[int, int, int] | None:
        """``(B, M, S)`` if this is ``x ^ ((x & Ymask) >> S)``, CuTe-valid or not, else None.

        Read off the bases: each bit ``j`` of YYY maps to ``j`` plus bit ``j - S``, and every
        other bit to itself; YYY is ``B`` consecutive bits from ``M + max(0, S)``.

        >>> LinearLayout.from_xor(2, 1, -3).xor_form(), Swizzle(3, 4, 3).linear().xor_form()
        ((2, 1, -3), (3, 4, 3))
        """
        n = self.bits
        moved = {j: v ^ (1 << j) for j, v in enumerate(self.bases) if v != 1 << j}
        if not moved:
            return (0, 0, 0)
        if any(d & (d - 1) for d in moved.values()):          # more than one extra bit
            return None
        shifts = {j - (d.bit_length() - 1) for j, d in moved.items()}
        ys = sorted(moved)
        if len(shifts) != 1 or ys != list(range(ys[0], ys[-1] + 1)):
            return None
        b, s = len(ys), shifts.pop()
        m = ys[0] - max(0, s)
        if m < 0 or b + m + abs(s) > n:
            return None
        form = LinearLayout.from_xor(b, m, s)._padded(n)
        return (b, m, s) if form.bases == self.bases else None

    def as_swizzle(self) -> Swizzle | None:
        """The equal CuTe ``Swizzle`` (``|S| >= B``), or None when CuTe cannot express it."""
        form = self.xor_form()
        if form is None or abs(form[2]) < form[0]:
            return None
        return Swizzle(*form)

    def __str__(self) -> str:
        return "Linear[" + ",".join(str(v) for v in self.bases) + "]"
