"""Shared-memory layouts: where element (row, col) of a tile is stored.

Two kinds of value live here, all frozen dataclasses whose call is the mapping:

* offset functors, as in CuTe: :class:`Swizzle` (CuTe's ``Swizzle<B,M,S>``, exactly) and
  :class:`LinearLayout` (any invertible GF(2) bit matrix, CuTe-forbidden forms included);
* tile layouts, called with ``(row, col)``: :class:`RowMajor` (with optional padding),
  :class:`Swizzled` (a functor over the row-major offset), :class:`XorCols` (coordinate XOR,
  for rows of any length), :class:`TritonShared` (Triton's ``vec/perPhase/maxPhase``
  encoding) and :class:`TmaSwizzle` (the 32/64/128-byte modes of the tensor memory
  accelerator).

Every tile layout gives ``offsets()``, the whole ``rows x cols`` table, and ``linear()``, its
exact GF(2) form when it has one, through which forms convert to each other.

>>> sw = Swizzle(3, 0, 3)
>>> print(sw)
Swizzle<3,0,3>
>>> sw(0b001_010)          # row 1, col 2 of an 8x8 tile lands in column 3
11
>>> t = TritonShared(8, 8, vec=1, per_phase=1, max_phase=8)
>>> print(t.linear().as_swizzle())
Swizzle<3,0,3>
>>> print(XorCols(8, 24, bits=3))
(r, c) -> r*24 + (c ^ (r & 7))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem import gf2

__all__ = ["Swizzle", "LinearLayout", "TileLayout", "RowMajor", "Swizzled", "XorCols",
           "Stacked", "TritonShared", "TmaSwizzle", "TMA_MODES", "is_pow2", "log2", "LAYOUT_FORMS",
           "parse_layout"]


#: No tile layout has more elements than shared memory has bytes (:data:`SMEM_LIMIT`, 228 KiB
#: on the presets), and no offset or swizzle reaches past this many bits.
MAX_BITS = (SMEM_LIMIT - 1).bit_length()


def _set_ints(obj, what: str, **ranges) -> None:
    """Check each named field of a frozen dataclass as an integer in ``(lo, hi)`` and store it
    as a Python int (numpy integers are integers)."""
    for name, (lo, hi) in ranges.items():
        object.__setattr__(obj, name, check_int(f"{what}: {name}", getattr(obj, name), lo, hi))


def is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def log2(n: int) -> int:
    if not is_pow2(n):
        raise SwizzleKitError(f"{n} is not a power of two")
    return n.bit_length() - 1


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


# ------------------------------------------------------------------------------ tile layouts

class TileLayout:
    """A rows x cols tile; ``layout(r, c)`` is the element offset of element (r, c)."""

    rows: int
    cols: int

    def __call__(self, r, c):  # pragma: no cover - each subclass defines it
        raise NotImplementedError

    def _check_shape(self) -> None:
        what = type(self).__name__
        _set_ints(self, what, rows=(1, SMEM_LIMIT), cols=(1, SMEM_LIMIT))
        if self.rows * self.cols > SMEM_LIMIT:
            raise SwizzleKitError(f"{what}: {self.rows}x{self.cols} is {self.rows * self.cols} "
                                  f"elements; shared memory holds at most {SMEM_LIMIT} "
                                  f"(one-byte elements, {SMEM_LIMIT // 1024} KiB)")

    def offsets(self) -> np.ndarray:
        """The ``rows x cols`` table of element offsets."""
        r, c = np.meshgrid(np.arange(self.rows), np.arange(self.cols), indexing="ij")
        return np.asarray(self(r.astype(np.int64), c.astype(np.int64)), dtype=np.int64)

    def cosize(self) -> int:
        """Elements of storage the tile spans (padding included)."""
        return int(self.offsets().max()) + 1

    def is_bijective(self) -> bool:
        off = self.offsets()
        return np.unique(off).size == off.size

    def linear(self) -> LinearLayout | None:
        """The exact GF(2) form over the row-major offset ``r*cols + c``, or None.

        Exists when the tile is a power of two in both directions and the offsets are a
        linear bijection of the row-major offset (checked on every element).
        """
        if not (is_pow2(self.rows) and is_pow2(self.cols)):
            return None
        off = self.offsets().reshape(-1)
        n = log2(off.size)
        if off.max() >= off.size:
            return None
        bases = tuple(int(off[1 << j]) for j in range(n))
        try:
            lay = LinearLayout(bases)
        except SwizzleKitError:
            return None
        return lay if np.array_equal(lay(np.arange(off.size)), off) else None


@dataclass(frozen=True)
class RowMajor(TileLayout):
    """Row-major, each row padded by ``pad`` elements: ``r * (cols + pad) + c``."""

    rows: int
    cols: int
    pad: int = 0

    def __post_init__(self) -> None:
        self._check_shape()
        _set_ints(self, "RowMajor", pad=(0, SMEM_LIMIT))

    def __call__(self, r, c):
        return r * (self.cols + self.pad) + c

    def __str__(self) -> str:  # CuTe's layout notation, shape:stride
        return f"({self.rows},{self.cols}):({self.cols + self.pad},1)"


@dataclass(frozen=True)
class Swizzled(TileLayout):
    """A functor (CuTe ``Swizzle`` or ``LinearLayout``) over the row-major offset.

    >>> print(Swizzled(8, 8, Swizzle(3, 0, 3)))
    Swizzle<3,0,3> o (8,8):(8,1)
    """

    rows: int
    cols: int
    functor: Swizzle | LinearLayout

    def __post_init__(self) -> None:
        self._check_shape()
        if not isinstance(self.functor, (Swizzle, LinearLayout)):
            raise SwizzleKitError(f"Swizzled: functor must be a Swizzle or a LinearLayout; got "
                                  f"{self.functor!r}")
        if not (is_pow2(self.rows) and is_pow2(self.cols)):
            raise SwizzleKitError(f"a bit swizzle needs power-of-two rows and cols, got "
                                  f"{self.rows}x{self.cols}; use XorCols or RowMajor(pad=...)")
        if self.functor.bits > log2(self.rows * self.cols):
            raise SwizzleKitError(f"{self.functor} touches {self.functor.bits} bits but a "
                                  f"{self.rows}x{self.cols} tile has only "
                                  f"{log2(self.rows * self.cols)}")

    def __call__(self, r, c):
        return self.functor(r * self.cols + c)

    def __str__(self) -> str:
        return f"{self.functor} o ({self.rows},{self.cols}):({self.cols},1)"


@dataclass(frozen=True)
class XorCols(TileLayout):
    """Coordinate XOR: ``r * ld + (c ^ (((r >> row_shift) & (2**bits - 1)) << col_shift))``.

    ::

        col bits: xxxxZZZxx   ZZZ ^= the bits of (r >> row_shift), at col_shift
        works for any row length that is a multiple of 2**(bits + col_shift): 24, 9 * 8, ...

    >>> XorCols(8, 24, bits=3)(3, 17)
    90
    """

    rows: int
    cols: int
    bits: int
    col_shift: int = 0
    row_shift: int = 0
    ld: int | None = None

    def __post_init__(self) -> None:
        self._check_shape()
        if self.ld is None:
            object.__setattr__(self, "ld", self.cols)
        _set_ints(self, "XorCols", bits=(0, MAX_BITS), col_shift=(0, MAX_BITS),
                  row_shift=(0, MAX_BITS), ld=(1, SMEM_LIMIT))
        span = 1 << (self.bits + self.col_shift)
        if self.cols % span:
            raise SwizzleKitError(f"XorCols: {self.cols} columns are not a multiple of "
                                  f"2**(bits+col_shift) = {span}, so XOR would leave the row")
        if self.ld < self.cols:
            raise SwizzleKitError(f"XorCols: ld={self.ld} is shorter than a row ({self.cols})")

    def __call__(self, r, c):
        phase = ((r >> self.row_shift) & ((1 << self.bits) - 1)) << self.col_shift
        return r * self.ld + (c ^ phase)

    def __str__(self) -> str:
        rr = f"(r >> {self.row_shift})" if self.row_shift else "r"
        ph = f"({rr} & {(1 << self.bits) - 1})"
        if self.col_shift:
            ph = f"({ph} << {self.col_shift})"
        return f"(r, c) -> r*{self.ld} + (c ^ {ph})"


@dataclass(frozen=True)
class TritonShared(TileLayout):
    """Triton's swizzled shared encoding with ``order = [1, 0]`` (rows contiguous).

    ``phase = (r // per_phase) % max_phase``, then the ``vec``-element group of the column is
    XORed with the phase: ``r * cols + ((c // vec) ^ phase) * vec + c % vec``. ::

        col bits: xxxPPPvvv    PPP (the vector index) ^= phase, vvv (within a vector) kept
    """

    rows: int
    cols: int
    vec: int
    per_phase: int
    max_phase: int

    def __post_init__(self) -> None:
        self._check_shape()
        _set_ints(self, "TritonShared", vec=(1, SMEM_LIMIT), per_phase=(1, SMEM_LIMIT),
                  max_phase=(1, SMEM_LIMIT))
        for name in ("vec", "per_phase", "max_phase"):
            if not is_pow2(getattr(self, name)):
                raise SwizzleKitError(f"Triton shared encoding: {name}={getattr(self, name)} "
                                      f"must be a power of two")
        if self.vec * self.max_phase > self.cols:
            raise SwizzleKitError(f"Triton shared encoding: vec*max_phase = "
                                  f"{self.vec * self.max_phase} exceeds the {self.cols} columns")

    def __call__(self, r, c):
        phase = (r // self.per_phase) % self.max_phase
        return r * self.cols + ((c // self.vec) ^ phase) * self.vec + c % self.vec

    def __str__(self) -> str:
        return (f"#ttg.swizzled_shared<{{vec = {self.vec}, perPhase = {self.per_phase}, "
                f"maxPhase = {self.max_phase}, order = [1, 0]}}>")


#: TMA swizzle modes and the CuTe swizzle each one applies to byte addresses.
TMA_MODES = {32: Swizzle(1, 4, 3), 64: Swizzle(2, 4, 3), 128: Swizzle(3, 4, 3)}


@dataclass(frozen=True)
class TmaSwizzle(TileLayout):
    """A tile as the tensor memory accelerator writes it with ``CU_TENSOR_MAP_SWIZZLE_{mode}B``.

    The swizzle acts on byte addresses inside each 1024-byte (128B mode) block::

        byte address: xxxxxxYYYxZZZxxxx   16-byte chunk ZZZ ^= row-in-pattern YYY (128B mode)

    A row of the tile is ``mode`` bytes (the inner box dimension), or a multiple of it: then
    the tile is loaded as ``cols * elem_bytes / mode`` boxes of ``mode``-byte rows, each box
    stored after the one before (CUTLASS's K-major swizzle atoms tiled down the rows first)::

        fp16, 128 columns, 128B mode: columns 0..63 -> panel 0, 64..127 -> panel 1
        byte = panel * rows * 128 + r * 128 + (c % 64) * 2, then swizzled

    The tile's first byte is taken to be aligned to the pattern (1024 bytes in 128B mode), as
    TMA requires.

    >>> TmaSwizzle(8, 128, 128, 2)(0, 64), TmaSwizzle(8, 128, 128, 2)(1, 0)
    (512, 72)
    """

    rows: int
    cols: int
    mode: int
    elem_bytes: int

    def __post_init__(self) -> None:
        self._check_shape()
        check_choice("TMA swizzle mode (bytes)", self.mode, tuple(TMA_MODES))
        check_choice("element size for TMA (bytes)", self.elem_bytes, (1, 2, 4, 8, 16))
        if (self.cols * self.elem_bytes) % self.mode:
            raise SwizzleKitError(f"TMA {self.mode}B swizzle needs rows of a multiple of "
                                  f"{self.mode} bytes; {self.cols} x {self.elem_bytes} B = "
                                  f"{self.cols * self.elem_bytes}")

    @property
    def panel_cols(self) -> int:
        """Columns per box: ``mode / elem_bytes``."""
        return self.mode // self.elem_bytes

    def __call__(self, r, c):
        pc = self.panel_cols
        byte = (c // pc) * (self.rows * self.mode) + r * self.mode + (c % pc) * self.elem_bytes
        return TMA_MODES[self.mode](byte) // self.elem_bytes

    def __str__(self) -> str:
        boxes = self.cols // self.panel_cols
        return (f"CU_TENSOR_MAP_SWIZZLE_{self.mode}B ({self.elem_bytes}-byte elements"
                + (f", {boxes} boxes of {self.panel_cols} columns" if boxes > 1 else "") + ")")


# ------------------------------------------------------------------------ layout spec registry

def _ints(text: str, name: str, count: tuple[int, ...]) -> list[int]:
    try:
        vals = [int(v) for v in text.split(",")] if text else []
    except ValueError:
        raise SwizzleKitError(f"layout {name}: {text!r} is not a list of integers") from None
    if len(vals) not in count:
        raise SwizzleKitError(f"layout {name} takes {' or '.join(map(str, count))} integers, "
                              f"got {len(vals)}")
    return vals


def _parse_swizzle(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return Swizzled(rows, cols, Swizzle(*_ints(args, "swizzle", (3,))))


def _parse_xor(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return Swizzled(rows, cols, LinearLayout.from_xor(*_ints(args, "xor", (3,))))


def _parse_linear(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return Swizzled(rows, cols, LinearLayout(tuple(_ints(args, "linear", tuple(range(1, 33))))))


def _parse_xor_cols(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return XorCols(rows, cols, *_ints(args, "xor-cols", (1, 2, 3, 4)))


def _parse_triton(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return TritonShared(rows, cols, *_ints(args, "triton", (3,)))


def _parse_tma(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return TmaSwizzle(rows, cols, *_ints(args, "tma", (1,)), eb)


def _parse_interleave(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    from swizzlekit.smem.rows import Interleaved      # rows.py builds on this module

    return Interleaved(RowMajor(rows, cols), *_ints(args, "interleave", (1,)))


def _parse_pad(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    return RowMajor(rows, cols, *_ints(args, "pad", (1,)))


def _parse_row_major(rows: int, cols: int, eb: int, args: str) -> TileLayout:
    _ints(args, "row-major", (0,))
    return RowMajor(rows, cols)


#: Layout specs for the CLI: ``NAME`` or ``NAME:ARGS``, and what each one means.
LAYOUT_FORMS = {
    "row-major": (_parse_row_major, "row-major, no swizzle"),
    "pad": (_parse_pad, "pad:P, rows padded by P elements"),
    "swizzle": (_parse_swizzle, "swizzle:B,M,S, CuTe Swizzle<B,M,S> over the row-major offset"),
    "xor": (_parse_xor, "xor:B,M,S, CuTe's formula with any overlap (|S| < B allowed)"),
    "linear": (_parse_linear, "linear:b0,b1,..., GF(2) images of each offset bit"),
    "xor-cols": (_parse_xor_cols, "xor-cols:BITS[,COL_SHIFT[,ROW_SHIFT[,LD]]], coordinate XOR"),
    "triton": (_parse_triton, "triton:VEC,PER_PHASE,MAX_PHASE, Triton's shared encoding"),
    "tma": (_parse_tma, "tma:32|64|128, a TMA swizzle mode (rows a multiple of the mode)"),
    "interleave": (_parse_interleave, "interleave:K, rows stored round-robin from K groups "
                                      "(k rows as one)"),
}


def parse_layout(spec: str, rows: int, cols: int, elem_bytes: int) -> TileLayout:
    """Build a tile layout from a spec such as ``swizzle:3,0,3`` or ``pad:1``.

    >>> print(parse_layout("swizzle:3,0,3", 8, 8, 16))
    Swizzle<3,0,3> o (8,8):(8,1)
    >>> parse_layout("zigzag", 8, 8, 16)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: unknown layout 'zigzag'; valid: row-major, pad, swizzle, xor, linear, xor-cols, triton, tma, interleave
    """
    if not isinstance(spec, str):
        raise SwizzleKitError(f"layout spec must be a string such as 'swizzle:3,0,3'; got "
                              f"{spec!r}; valid forms: " + ", ".join(LAYOUT_FORMS))
    rows, cols = check_int("rows", rows, 1, SMEM_LIMIT), check_int("cols", cols, 1, SMEM_LIMIT)
    elem_bytes = check_choice("elem_bytes", elem_bytes, (1, 2, 4, 8, 16))
    name, _, args = spec.partition(":")
    if name not in LAYOUT_FORMS:
        raise SwizzleKitError(f"unknown layout {name!r}; valid: " + ", ".join(LAYOUT_FORMS))
    return LAYOUT_FORMS[name][0](rows, cols, elem_bytes, args)


@dataclass(frozen=True)
class Stacked(TileLayout):
    """Tiles stacked down the rows, each stored after the one before: rows ``row0 ..
    row0 + part.rows`` take ``base + part(r - row0, c)``, ``base`` being the storage of the
    parts above. The periodic extension of a power-of-two solution to any row count::

        24 rows = 16 rows (one swizzle) + 8 rows (another), 24 * cols elements in all

    >>> s = Stacked((RowMajor(2, 4), RowMajor(1, 4)))
    >>> s.rows, s(2, 3), s.cosize()
    (3, 11, 12)
    """

    parts: tuple

    def __post_init__(self) -> None:
        if not isinstance(self.parts, (tuple, list)) or not self.parts \
                or not all(isinstance(p, TileLayout) for p in self.parts):
            raise SwizzleKitError("Stacked needs at least one TileLayout part")
        if len({p.cols for p in self.parts}) != 1:
            raise SwizzleKitError("Stacked: every part must have the same number of columns")

    @property
    def rows(self) -> int:
        return sum(p.rows for p in self.parts)

    @property
    def cols(self) -> int:
        return self.parts[0].cols

    def placed(self) -> list[tuple[int, int, TileLayout]]:
        """(first row, base offset, part) for each part."""
        out, row0, base = [], 0, 0
        for p in self.parts:
            out.append((row0, base, p))
            row0 += p.rows
            base += p.cosize()
        return out

    def __call__(self, r, c):
        r, c = np.asarray(r), np.asarray(c)
        out = np.zeros(np.broadcast(r, c).shape, dtype=np.int64)
        for row0, base, p in self.placed():
            inside = (r >= row0) & (r < row0 + p.rows)
            local = np.where(inside, r - row0, 0)
            out = np.where(inside, base + np.asarray(p(local, c), dtype=np.int64), out)
        return out if out.ndim else int(out)

    def __str__(self) -> str:
        return "stack[" + "; ".join(f"rows {r0}..{r0 + p.rows - 1} at {b}: {p}"
                                    for r0, b, p in self.placed()) + "]"
