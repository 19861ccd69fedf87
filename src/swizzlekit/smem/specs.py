"""Layout specs, as the CLI reads them: ``NAME`` or ``NAME:ARGS`` (:data:`LAYOUT_FORMS`), built
into tile layouts by :func:`parse_layout`.

>>> print(parse_layout("pad:1", 4, 8, 4))
(4,8):(9,1)
"""

from __future__ import annotations

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem.layouts import (LinearLayout, RowMajor, Swizzle, Swizzled, TileLayout,
                                     TmaSwizzle, TritonShared, XorCols)
from swizzlekit.smem.rows import Interleaved

__all__ = ["LAYOUT_FORMS", "parse_layout"]


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
