"""Instructions that read and write a shared-memory tile, and the wavefronts each one forms.

The solver costs a layout by its *wavefront footprints*: the tile elements one 128-byte
wavefront should serve (:class:`~swizzlekit.smem.access.AccessSpec`). Which footprint a kernel
presents is set by its instruction and by how its lanes walk the tile, so choosing the
instruction is part of choosing the layout. An instruction spec names both::

    ld.v1:col     each lane loads 1 word (4 bytes) down a column: a phase is 32 rows x 4 bytes
    ld.v4:col     each lane loads 4 words along its row, lanes down the rows: 8 rows x 16 bytes
    st.v2:row     lanes along a row, 8 bytes each: 128 contiguous bytes a phase
    cp.async:row  16-byte asynchronous copies into shared memory, lanes along the rows
    ldmatrix.x4   8x8 matrices of 16-bit elements, 8 rows x 16 bytes a phase (.trans: the same
                  rows, transposed in registers); stmatrix likewise
    tma           the tensor memory accelerator writes the box in one of its swizzle modes

Phases are the bank model's (:mod:`swizzlekit.smem.banks`): a warp's requests in 128-byte
groups, whole warps for 4-byte accesses, half-warps for 8, quarter-warps for 16 and one 8x8
matrix for ldmatrix. :meth:`Op.warp` gives one warp's lanes, so the tests hold each
footprint to the bank model lane by lane.

``auto`` (or ``auto:row``, ``auto:col``) stands for every instruction of that side that fits
the element size; the solver then picks the pair with the fewest wavefronts.

>>> op = parse_op("ld.v4:col", "read")
>>> print(op.footprint(2))
block:8x8:vec=8
>>> [str(o) for o in choices("auto:col", "read", 4)]
['ld.v1:col', 'ld.v2:col', 'ld.v4:col']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from swizzlekit.errors import SwizzleKitError, check_choice
from swizzlekit.smem.access import (WAVEFRONT_BYTES, AccessSpec, Instruction, ldmatrix,
                                    thread_block)

__all__ = ["Op", "parse_op", "choices", "OP_FORMS", "SIDES"]

SIDES = ("read", "write")
OP_FORMS = ("ld.v1|v2|v4:row|col", "st.v1|v2|v4:row|col", "cp.async:row|col",
            "ldmatrix.x1|x2|x4[.trans]", "stmatrix.x1|x2|x4[.trans]", "tma",
            "auto[:row|col]")
_PLAIN = re.compile(r"^(ld|st)\.v([124]):(row|col)$")
_ASYNC = re.compile(r"^cp\.async:(row|col)$")
_MATRIX = re.compile(r"^(ldmatrix|stmatrix)\.x([124])(\.trans)?$")


@dataclass(frozen=True)
class Op:
    """One instruction and how its lanes walk the tile.

    ``kind`` is ``ld``, ``st``, ``cp.async``, ``ldmatrix``, ``stmatrix`` or ``tma``; ``width``
    the bytes a lane moves; ``walk`` is ``row`` (lanes along a row) or ``col`` (lanes down the
    rows, each lane's vector along its row); ``x`` the matrices of an ldmatrix/stmatrix.
    """

    kind: str
    width: int = 16
    walk: str = "row"
    x: int = 0
    trans: bool = False

    def __str__(self) -> str:
        if self.kind in ("ld", "st"):
            return f"{self.kind}.v{self.width // 4}:{self.walk}"
        if self.kind == "cp.async":
            return f"cp.async:{self.walk}"
        if self.kind == "tma":
            return "tma"
        return f"{self.kind}.x{self.x}" + (".trans" if self.trans else "")

    @property
    def side(self) -> str:
        return "read" if self.kind in ("ld", "ldmatrix") else "write"

    def fits(self, elem_bytes: int) -> str | None:
        """Why this instruction cannot move ``elem_bytes``-byte elements, or None."""
        if self.kind in ("ldmatrix", "stmatrix") and elem_bytes != 2:
            return f"{self} moves 16-bit elements; these are {elem_bytes}-byte"
        if self.kind != "tma" and self.width < elem_bytes:
            return f"{self} moves {self.width} bytes a lane, less than one {elem_bytes}-byte element"
        return None

    def footprint(self, elem_bytes: int, rows: int | None = None) -> AccessSpec | None:
        """The elements one wavefront serves (None for TMA, which the bank model does not
        cover: the solver counts a TMA write as its bytes / 128). On a tile of ``rows`` rows
        fewer than a phase's lanes (and dividing them), a ``col`` walk's lanes carry on into
        the next vector's column, as a kernel's threads ``r = lane % rows`` do."""
        why = self.fits(elem_bytes)
        if why:
            raise SwizzleKitError(why)
        if self.kind == "tma":
            return None
        if self.kind in ("ldmatrix", "stmatrix"):
            return AccessSpec("block", 8, 8, 8, 1, 8)            # 8 rows of 16 bytes
        if self.walk == "row":
            return AccessSpec("row")
        vec = self.width // elem_bytes
        lanes = WAVEFRONT_BYTES // self.width                      # lanes in one phase
        if rows is not None and rows < lanes and lanes % rows == 0:
            return AccessSpec("block", rows, lanes // rows * vec, vec, 1, vec)
        return AccessSpec("block", lanes, vec, vec, 1, vec)

    def vector(self, elem_bytes: int) -> int:
        """Elements a lane moves as one contiguous vector, which the layout must keep whole
        (a matrix row for ldmatrix/stmatrix; 1 for TMA, which swizzles whole 16 bytes)."""
        return 1 if self.kind == "tma" else max(1, self.width // elem_bytes)

    def instructions(self, rows: int, cols: int, elem_bytes: int) -> int:
        """How many warp instructions move the whole tile once."""
        if self.kind == "tma":
            return 1
        per_warp = 32 * (16 if self.kind in ("ldmatrix", "stmatrix") else self.width)
        per_warp = per_warp * self.x // 4 if self.x else per_warp
        return -(-rows * cols * elem_bytes // per_warp)

    def warp(self, elem_bytes: int, origin: tuple[int, int] = (0, 0),
             shape: tuple[int, int] | None = None) -> Instruction:
        """One warp of this instruction at ``origin`` (lanes as the bank model takes them).
        With the tile's ``shape``, a ``row`` walk wraps at the row's end, a ``col`` walk on a
        tile of fewer than 32 rows (dividing 32) wraps into the next vector's column, and lanes
        past the tile's edge are inactive."""
        self.footprint(elem_bytes)                                 # checks the element size
        vec = max(1, self.width // elem_bytes)
        if self.kind in ("ldmatrix", "stmatrix"):
            warp = ldmatrix(self.x, self.kind, origin, str(self))
        elif self.walk == "col" and shape is not None and shape[0] < 32 and 32 % shape[0] == 0:
            rows = shape[0]
            warp = Instruction(str(self), "ld" if self.kind == "ld" else "st", self.width,
                               tuple((origin[0] + lane % rows, origin[1] + lane // rows * vec)
                                     for lane in range(32)))
        else:
            op = "ld" if self.kind == "ld" else "st"
            bx = 1 if self.walk == "col" else \
                max(1, (shape[1] - origin[1]) // vec) if shape else 32
            warp = thread_block(str(self), op, self.width, elem_bytes, (bx, 32), 0, origin)
        if shape is None:
            return warp
        lanes = tuple(rc if rc is not None and rc[0] < shape[0] and rc[1] < shape[1] else None
                      for rc in warp.lanes)
        return Instruction(warp.name, warp.op, warp.width, lanes)


def parse_op(spec: str, side: str) -> Op:
    """An instruction spec of one side (see :data:`OP_FORMS`); the error lists the forms.

    >>> parse_op("ldmatrix.x4.trans", "read")
    Op(kind='ldmatrix', width=16, walk='row', x=4, trans=True)
    >>> parse_op("st.v4:row", "read")
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: st.v4:row writes shared memory; read takes ld.v1|v2|v4:row|col, ldmatrix.x1|x2|x4[.trans]
    """
    check_choice("side", side, SIDES)
    text = str(spec).strip()
    if m := _PLAIN.match(text):
        op = Op(m.group(1), 4 * int(m.group(2)), m.group(3))
    elif m := _ASYNC.match(text):
        op = Op("cp.async", 16, m.group(1))
    elif m := _MATRIX.match(text):
        op = Op(m.group(1), 16, "row", int(m.group(2)), bool(m.group(3)))
    elif text == "tma":
        op = Op("tma")
    else:
        raise SwizzleKitError(f"unknown instruction {spec!r}; valid forms: "
                              + ", ".join(OP_FORMS))
    if op.side != side:
        forms = [f for f in OP_FORMS if f.startswith(("ld.", "ldmatrix"))] if side == "read" \
            else [f for f in OP_FORMS if f.startswith(("st", "cp", "tma"))]
        verb = "reads" if op.side == "read" else "writes"
        raise SwizzleKitError(f"{text} {verb} shared memory; {side} takes " + ", ".join(forms))
    return op


def choices(spec: str, side: str, elem_bytes: int) -> list[Op]:
    """The instructions a spec stands for: itself, or for ``auto[:WALK]`` every instruction
    of that side that fits the element size (narrowest first)."""
    check_choice("side", side, SIDES)
    text = str(spec).strip()
    if not text.startswith("auto"):
        op = parse_op(text, side)
        why = op.fits(elem_bytes)
        if why:
            raise SwizzleKitError(why)
        return [op]
    walk = text.partition(":")[2]
    if text != "auto":
        check_choice("auto's walk", walk, ("row", "col"))
    walks = (walk,) if walk else ("row", "col")
    plain = "ld" if side == "read" else "st"
    ops = [Op(plain, w, wk) for wk in walks for w in (4, 8, 16)]
    if side == "write":
        ops += [Op("cp.async", 16, wk) for wk in walks]
    if elem_bytes == 2:
        ops.append(Op("ldmatrix" if side == "read" else "stmatrix", 16, "row", 4))
    if side == "write" and not walk:
        ops.append(Op("tma"))
    return [op for op in ops if op.fits(elem_bytes) is None]
