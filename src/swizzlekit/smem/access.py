"""Access patterns: which tile elements one wavefront, or one warp instruction, touches.

Two forms:

* :class:`AccessSpec`, parsed from the CLI's ``SPEC`` strings: the set of elements that one
  128-byte wavefront should fetch, at every aligned placement in the tile. ``row`` (128
  contiguous bytes in row-major order), ``col`` (one column, 128 bytes tall) and
  ``block:RxC`` (an R x C block), with options ``:vec=V`` (columns come in V-element
  vectors) and ``:stride=SRxSC`` (rows SR apart; vectors SC elements apart).
* :class:`Instruction`: what a real warp instruction touches, lane by lane: plain
  4/8/16-byte ld/st by a warp of a 2-D thread block, and ``ldmatrix``/``stmatrix``.

>>> spec = parse_access("block:4x2")
>>> [p.tolist() for p in spec.placements(8, 4, elem_bytes=16)][:1]
[[[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1]]]
>>> len(parse_access("col").placements(8, 8, elem_bytes=16))
8
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int, check_ints
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem.banks import OPS, WIDTHS

__all__ = ["AccessSpec", "parse_access", "access_list", "ACCESS_FORMS", "Instruction",
           "thread_block", "ldmatrix", "WAVEFRONT_BYTES"]

WAVEFRONT_BYTES = 128
ACCESS_FORMS = ("row", "col", "block:RxC[:vec=V][:stride=SRxSC]")
_BLOCK = re.compile(r"^block:(\d+)x(\d+)((?::(?:vec=\d+|stride=\d+x\d+))*)$")


@dataclass(frozen=True)
class AccessSpec:
    """A wavefront-sized group of elements, placed at every aligned position in the tile."""

    kind: str                 # "row", "col" or "block"
    rows: int = 0             # block shape (0: derived from the tile for row/col)
    cols: int = 0
    vec: int = 1
    row_stride: int = 1
    col_stride: int = 1       # distance between vector starts, in elements

    def __post_init__(self) -> None:
        check_choice("access kind", self.kind, ("row", "col", "block"))
        for name in ("rows", "cols", "vec", "row_stride", "col_stride"):
            lo = 0 if name in ("rows", "cols") else 1
            object.__setattr__(self, name, check_int(f"access {name}", getattr(self, name), lo,
                                                     SMEM_LIMIT))
        if self.kind == "block" and not (self.rows and self.cols):
            raise SwizzleKitError(f"a block access needs rows and cols >= 1; got "
                                  f"{self.rows}x{self.cols}")

    def __str__(self) -> str:
        if self.kind != "block":
            return self.kind
        s = f"block:{self.rows}x{self.cols}"
        if self.vec != 1:
            s += f":vec={self.vec}"
        if (self.row_stride, self.col_stride) != (1, self.vec):
            s += f":stride={self.row_stride}x{self.col_stride}"
        return s

    def shape(self, tile_rows: int, tile_cols: int, elem_bytes: int) -> AccessSpec:
        """This access as a concrete block for a tile and element size."""
        if WAVEFRONT_BYTES % elem_bytes:
            raise SwizzleKitError(f"element size {elem_bytes} B does not divide a 128-byte "
                                  f"wavefront")
        n = WAVEFRONT_BYTES // elem_bytes
        if self.kind == "row":
            if tile_cols >= n:
                if tile_cols % n:
                    raise SwizzleKitError(f"row access: {tile_cols} columns are not a multiple "
                                          f"of the {n} elements in 128 bytes")
                return AccessSpec("block", 1, n)
            if n % tile_cols:
                raise SwizzleKitError(f"row access: {n} elements per wavefront do not fill "
                                      f"whole rows of {tile_cols}")
            return AccessSpec("block", n // tile_cols, tile_cols)
        if self.kind == "col":
            if tile_rows < n:
                raise SwizzleKitError(f"col access needs {n} rows of {elem_bytes}-byte "
                                      f"elements (128 bytes); the tile has {tile_rows}")
            return AccessSpec("block", n, 1)
        if self.rows * self.cols * elem_bytes != WAVEFRONT_BYTES:
            raise SwizzleKitError(f"{self}: {self.rows}x{self.cols} elements of {elem_bytes} B "
                                  f"are {self.rows * self.cols * elem_bytes} bytes, not the 128 "
                                  f"of one wavefront")
        return self

    def placements(self, tile_rows: int, tile_cols: int, elem_bytes: int) -> list[np.ndarray]:
        """Every aligned placement: a list of ``(k, 2)`` arrays of (row, col), clipped to the tile.

        Placements tile the footprint lattice: rows start at ``a*R*SR + t`` (t < SR) and
        vector groups at ``b*(C/V)*SC + u*V`` (u < SC/V). At a ragged edge a placement keeps
        only the elements inside the tile.
        """
        s = self.shape(tile_rows, tile_cols, elem_bytes)
        nvec = s.cols // s.vec
        di = np.arange(s.rows) * s.row_stride
        dj = (np.arange(nvec)[:, None] * s.col_stride + np.arange(s.vec)[None, :]).reshape(-1)
        r0 = np.array(_starts(tile_rows, s.rows * s.row_stride, s.row_stride, 1))
        c0 = np.array(_starts(tile_cols, nvec * s.col_stride, s.col_stride // s.vec, s.vec))
        # every placement at once: (starts r0, starts c0, rows of the block, its columns)
        rr = np.broadcast_to((r0[:, None] + di[None, :])[:, None, :, None],
                             (len(r0), len(c0), len(di), len(dj))).reshape(-1, len(di) * len(dj))
        cc = np.broadcast_to((c0[:, None] + dj[None, :])[None, :, None, :],
                             (len(r0), len(c0), len(di), len(dj))).reshape(-1, len(di) * len(dj))
        inside = (rr < tile_rows) & (cc < tile_cols)
        if inside.all():
            return list(np.stack([rr, cc], axis=2))
        return [np.stack([r[k], c[k]], axis=1) for r, c, k in zip(rr, cc, inside) if k.any()]


def _starts(extent: int, period: int, count: int, step: int) -> list[int]:
    return [a + u * step for a in range(0, extent, period) for u in range(count)
            if a + u * step < extent]


def access_list(accesses, allowed=()) -> tuple:
    """``accesses`` as a tuple of :class:`AccessSpec` (strings parsed), or of the ``allowed``
    types as they are; anything else is refused, naming the entry."""
    if isinstance(accesses, (str, bytes, AccessSpec)) or not hasattr(accesses, "__iter__"):
        raise SwizzleKitError(f"accesses must be a list of access specs ({', '.join(ACCESS_FORMS)}); "
                              f"got {accesses!r}")
    out = []
    for i, a in enumerate(accesses):
        if isinstance(a, str):
            out.append(parse_access(a))
        elif isinstance(a, (AccessSpec, *allowed)):
            out.append(a)
        else:
            raise SwizzleKitError(f"accesses[{i}] = {a!r} is not an access spec; valid forms: "
                                  + ", ".join(ACCESS_FORMS))
    return tuple(out)


def parse_access(spec: str) -> AccessSpec:
    """Parse ``row``, ``col`` or ``block:RxC[:vec=V][:stride=SRxSC]``.

    >>> print(parse_access("block:1x32:vec=4:stride=1x8"))
    block:1x32:vec=4:stride=1x8
    """
    if not isinstance(spec, str):
        raise SwizzleKitError(f"an access spec is a string; got {spec!r}; valid forms: "
                              + ", ".join(ACCESS_FORMS))
    text = spec.strip()
    if text in ("row", "col"):
        return AccessSpec(text)
    m = _BLOCK.match(text)
    if not m:
        raise SwizzleKitError(f"unknown access spec {spec!r}; valid forms: "
                              + ", ".join(ACCESS_FORMS))
    rows, cols = int(m.group(1)), int(m.group(2))
    opts = dict(o.split("=") for o in m.group(3).split(":") if o)
    vec = int(opts.get("vec", 1))
    if rows < 1 or cols < 1 or vec < 1 or cols % vec:
        raise SwizzleKitError(f"{spec!r}: block sides must be >= 1 and cols a multiple of vec")
    sr, sc = (int(x) for x in opts["stride"].split("x")) if "stride" in opts else (1, vec)
    if sr < 1 or sc < vec or sc % vec:
        raise SwizzleKitError(f"{spec!r}: stride rows must be >= 1 and the column stride a "
                              f"multiple of vec that is at least vec")
    return AccessSpec("block", rows, cols, vec, sr, sc)


@dataclass(frozen=True)
class Instruction:
    """One warp instruction: ``op``, access ``width`` in bytes, and each lane's (row, col).

    For ``ld``/``st`` lane i touches ``width / elem_bytes`` elements from its (row, col)
    along the row; for ``ldmatrix``/``stmatrix`` entry i is the first element of row i of
    the 8x8 matrices (8 contiguous 16-bit elements).
    """

    name: str
    op: str
    width: int
    lanes: tuple[tuple[int, int] | None, ...] = field(repr=False)

    def __post_init__(self) -> None:
        check_choice("op", self.op, OPS)
        check_choice("access width", self.width, WIDTHS)

    def addresses(self, layout, elem_bytes: int) -> list[int | None]:
        """Byte addresses under ``layout``; each vector must stay contiguous there."""
        per_lane = self.width // elem_bytes if self.width >= elem_bytes else 1
        out: list[int | None] = []
        for lane, rc in enumerate(self.lanes):
            if rc is None:
                out.append(None)
                continue
            r, c = rc
            if not (0 <= r < layout.rows and 0 <= c + per_lane - 1 < layout.cols):
                raise SwizzleKitError(f"{self.name}: lane {lane} reads ({r}, {c}) outside the "
                                      f"{layout.rows}x{layout.cols} tile")
            first = int(layout(r, c))
            for k in range(1, per_lane):
                if int(layout(r, c + k)) != first + k:
                    raise SwizzleKitError(f"{self.name}: the layout splits the {self.width}-byte "
                                          f"vector at ({r}, {c}); it must keep {per_lane} "
                                          f"elements contiguous")
            out.append(first * elem_bytes)
        return out


def thread_block(name: str, op: str, width: int, elem_bytes: int, block: tuple[int, int],
                 warp: int = 0, origin: tuple[int, int] = (0, 0),
                 step: tuple[int, int] | None = None) -> Instruction:
    """A plain ld/st by warp ``warp`` of a ``(bx, by)`` thread block.

    Thread ``(tx, ty)``, with ``tid = ty * bx + tx``, touches element
    ``(origin_r + ty * step_r, origin_c + tx * step_c)``; by default ``step = (1, vector)``,
    the classic ``smem[ty][tx * vec]``.

    >>> i = thread_block("B row", "ld", 16, 4, block=(16, 16))
    >>> i.lanes[:2], i.lanes[16]
    (((0, 0), (0, 4)), (1, 0))
    """
    if not isinstance(name, str):
        raise SwizzleKitError(f"name must be a string; got {name!r}")
    check_choice("op", op, ("ld", "st"))
    width = check_choice("access width", width, WIDTHS)
    elem_bytes = check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    bx, by = check_ints("block", block, 2)
    warp = check_int("warp", warp, 0, 1024 // 32 - 1)
    if bx * by > 1024:
        raise SwizzleKitError(f"a thread block has at most 1024 threads; {bx}x{by} is {bx * by}")
    origin = check_ints("origin", origin, 2, 0)
    vec = max(1, width // elem_bytes)
    sr, sc = check_ints("step", step, 2, 0) if step is not None else (1, vec)
    lanes = []
    for lane in range(32):
        tid = warp * 32 + lane
        tx, ty = tid % bx, tid // bx
        lanes.append(None if ty >= by else (origin[0] + ty * sr, origin[1] + tx * sc))
    return Instruction(name, op, width, tuple(lanes))


def ldmatrix(x: int = 4, op: str = "ldmatrix", origin: tuple[int, int] = (0, 0),
             name: str | None = None) -> Instruction:
    """``ldmatrix``/``stmatrix`` .x1/.x2/.x4 on a 16-bit tile (``.trans`` reads the same rows).

    Matrix ``i`` covers rows ``origin_r + 8 * (i % 2)`` and columns ``origin_c + 8 * (i // 2)``
    (the mma A-fragment order); lane ``8 i + j`` gives the address of its row ``j``.

    >>> ldmatrix(4).lanes[8], ldmatrix(4).lanes[16]
    ((8, 0), (0, 8))
    """
    x = check_choice("ldmatrix count", x, (1, 2, 4))
    check_choice("op", op, ("ldmatrix", "stmatrix"))
    origin = check_ints("origin", origin, 2, 0)
    if name is not None and not isinstance(name, str):
        raise SwizzleKitError(f"name must be a string or None; got {name!r}")
    lanes = tuple((origin[0] + 8 * (i % 2) + j, origin[1] + 8 * (i // 2))
                  for i in range(x) for j in range(8))
    return Instruction(name or f"{op}.x{x}", op, 16, lanes)
