"""Shared-memory tile layouts: where element (row, col) of a tile is stored.

Frozen dataclasses whose call, with ``(row, col)``, is the mapping: :class:`RowMajor` (with
optional padding), :class:`Swizzled` (an offset functor of :mod:`swizzlekit.smem.swizzle`,
:class:`Swizzle` or :class:`LinearLayout`, over the row-major offset), :class:`XorCols`
(coordinate XOR, for rows of any length), :class:`TritonShared` (Triton's
``vec/perPhase/maxPhase`` encoding), :class:`TmaSwizzle` (the 32/64/128-byte modes of the
tensor memory accelerator) and :class:`Stacked` (tiles down the rows). Specs such as
``swizzle:3,0,3`` build them (:mod:`swizzlekit.smem.specs`).

Every tile layout gives ``offsets()``, the whole ``rows x cols`` table, and ``linear()``, its
exact GF(2) form when it has one, through which forms convert to each other.

>>> t = TritonShared(8, 8, vec=1, per_phase=1, max_phase=8)
>>> print(t.linear().as_swizzle())
Swizzle<3,0,3>
>>> print(XorCols(8, 24, bits=3))
(r, c) -> r*24 + (c ^ (r & 7))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem.swizzle import (MAX_BITS, LinearLayout, Swizzle, _set_ints, is_pow2,
                                     log2)

__all__ = ["Swizzle", "LinearLayout", "TileLayout", "RowMajor", "Swizzled", "XorCols",
           "Stacked", "TritonShared", "TmaSwizzle", "TMA_MODES", "is_pow2", "log2",
           "check_tile"]


# ------------------------------------------------------------------------------ tile layouts

def check_tile(what: str, rows, cols) -> tuple[int, int]:
    """A tile's sides as Python ints, each at least 1, and no more elements than shared memory
    has bytes (:data:`~swizzlekit.gpus.SMEM_LIMIT`); :class:`SwizzleKitError` otherwise.

    >>> check_tile("RowMajor", 64, 32)
    (64, 32)
    """
    rows = check_int(f"{what}: rows", rows, 1, SMEM_LIMIT)
    cols = check_int(f"{what}: cols", cols, 1, SMEM_LIMIT)
    if rows * cols > SMEM_LIMIT:
        raise SwizzleKitError(f"{what}: {rows}x{cols} is {rows * cols} elements; shared memory "
                              f"holds at most {SMEM_LIMIT} (one-byte elements, "
                              f"{SMEM_LIMIT // 1024} KiB)")
    return rows, cols


class TileLayout:
    """A rows x cols tile; ``layout(r, c)`` is the element offset of element (r, c)."""

    rows: int
    cols: int

    def __call__(self, r, c):  # pragma: no cover - each subclass defines it
        raise NotImplementedError

    def _check_shape(self) -> None:
        rows, cols = check_tile(type(self).__name__, self.rows, self.cols)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)

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
