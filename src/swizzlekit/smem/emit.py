"""Emit a layout as code: a CUDA C++ device function, a Triton expression, a CuTe type.

Each emitted form computes exactly ``layout(r, c)``; the tests compile the CUDA function as
host code and evaluate the Triton expression on every element of the tile.

>>> from swizzlekit.smem.layouts import Swizzle, Swizzled
>>> lay = Swizzled(8, 8, Swizzle(3, 0, 3))
>>> triton_expr(lay)
'((r * 8 + c) ^ (((r * 8 + c) & 56) >> 3))'
>>> cute_type(lay)
'decltype(composition(Swizzle<3,0,3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{}))'
"""

from __future__ import annotations

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem.layouts import (TMA_MODES, LinearLayout, RowMajor, Stacked, Swizzle,
                                     Swizzled, TileLayout, TmaSwizzle, TritonShared, XorCols)
from swizzlekit.smem.rows import Interleaved
from swizzlekit.smem.permuted import Permuted, permuted_expression
from swizzlekit.smem.rowxor import RowXor, row_xor_expression

__all__ = ["expression", "cuda_function", "triton_expr", "cute_type", "bit_diagram"]


def _swizzle_expr(x: str, sw: Swizzle) -> str:
    if sw.b == 0:
        return x
    shift = f">> {sw.s}" if sw.s > 0 else f"<< {-sw.s}"
    return f"({x} ^ (({x} & {sw.yyy_mask}) {shift}))"


def _linear_expr(x: str, lin: LinearLayout) -> str:
    terms = [f"(((({x}) >> {j}) & 1) * {base ^ (1 << j)})"
             for j, base in enumerate(lin.bases) if base != 1 << j]
    return f"({x} ^ " + " ^ ".join(terms) + ")" if terms else x


def expression(layout: TileLayout, r: str = "r", c: str = "c") -> str:
    """The offset of element (r, c) as an expression in C/Python integer operators."""
    if isinstance(layout, RowMajor):
        return f"({r} * {layout.cols + layout.pad} + {c})"
    if isinstance(layout, Swizzled):
        x = f"({r} * {layout.cols} + {c})"
        if isinstance(layout.functor, Swizzle):
            return _swizzle_expr(x, layout.functor)
        return _linear_expr(x, layout.functor)
    if isinstance(layout, XorCols):
        phase = f"(({r} >> {layout.row_shift}) & {(1 << layout.bits) - 1})"
        return f"({r} * {layout.ld} + ({c} ^ ({phase} << {layout.col_shift})))"
    if isinstance(layout, TritonShared):
        phase = f"(({r} // {layout.per_phase}) % {layout.max_phase})"
        return (f"({r} * {layout.cols} + ((({c} // {layout.vec}) ^ {phase}) * {layout.vec}"
                f" + {c} % {layout.vec}))")
    if isinstance(layout, TmaSwizzle):
        pc = layout.panel_cols
        byte = (f"(({c} // {pc}) * {layout.rows * layout.mode} + {r} * {layout.mode} + "
                f"({c} % {pc}) * {layout.elem_bytes})")
        return f"({_swizzle_expr(byte, TMA_MODES[layout.mode])} // {layout.elem_bytes})"
    if isinstance(layout, Interleaved):   # the inner layout at the stored row
        g, k, s = layout.group, layout.k, layout.last
        a, b = f"(({r}) // {g})", f"(({r}) % {g})"
        stored = f"({b} * {k} + {a}" + (f" - ({b} > {s}) * ({b} - {s}))" if s < g else ")")
        return expression(layout.inner, stored, c)
    if isinstance(layout, RowXor):
        return row_xor_expression(layout, r, c)
    if isinstance(layout, Permuted):
        return permuted_expression(layout, r, c)
    if isinstance(layout, Stacked):       # each part selected by its rows (0/1 products)
        return "(" + " + ".join(
            f"(({r} >= {row0}) & ({r} < {row0 + p.rows})) * "
            f"({base} + {expression(p, f'({r} - {row0})', c)})"
            for row0, base, p in layout.placed()) + ")"
    raise SwizzleKitError(f"no code form for {type(layout).__name__}")


def bit_diagram(layout: TileLayout) -> list[str]:
    """A pycute-style bit diagram of an XOR swizzle (empty for layouts without one)."""
    sw = layout.functor if isinstance(layout, Swizzled) else None
    if isinstance(sw, LinearLayout):
        return [f"offset bit j -> {list(sw.bases)}[j]  (images of each bit; XOR of the set ones)"]
    if not isinstance(sw, Swizzle) or sw.b == 0:
        return []
    n = sw.bits
    bits = ["x"] * n
    for j in range(n):
        if sw.yyy_mask >> j & 1:
            bits[n - 1 - j] = "Y"
        if sw.zzz_mask >> j & 1:
            bits[n - 1 - j] = "Z"
    return [f"0b{''.join(bits)}   ZZZ ^= YYY  ({sw}; B={sw.b} bits, M={sw.m} kept, "
            f"S={sw.s} apart)"]


def _check_layout(layout) -> None:
    if not isinstance(layout, TileLayout):
        raise SwizzleKitError(f"layout must be a tile layout of swizzlekit.smem (RowMajor, "
                              f"Swizzled, XorCols, ...); got {type(layout).__name__}")


def _check_text(what: str, text, identifier: bool = False) -> str:
    """A name for the emitted code: a C identifier, or (``r``, ``c``) a one-line expression."""
    if not isinstance(text, str) or not text.strip() or "\n" in text \
            or (identifier and not text.isidentifier()):
        form = "a C identifier" if identifier else "a one-line expression"
        raise SwizzleKitError(f"{what} must be {form}; got {text!r}")
    return text


def cuda_function(layout: TileLayout, name: str = "smem_offset") -> str:
    """A ``__host__ __device__`` function returning the element offset of (r, c)."""
    _check_layout(layout)
    _check_text("name", name, identifier=True)
    lines = [f"// {layout}"] + [f"// {d}" for d in bit_diagram(layout)]
    expr = expression(layout).replace("//", "/")
    lines += [f"__host__ __device__ __forceinline__ int {name}(int r, int c) {{",
              f"  return {expr};",
              "}"]
    return "\n".join(lines)


def triton_expr(layout: TileLayout, r: str = "r", c: str = "c") -> str:
    """An expression for a Triton kernel, ``r`` and ``c`` being broadcastable int tensors
    (for example ``offs_m[:, None]`` and ``offs_k[None, :]``)."""
    _check_layout(layout)
    return expression(layout, _check_text("r", r), _check_text("c", c))


def cute_type(layout: TileLayout) -> str | None:
    """The CuTe layout type, or None when CuTe cannot express the layout."""
    _check_layout(layout)
    shape = f"Shape<_{layout.rows},_{layout.cols}>"
    if isinstance(layout, RowMajor):
        return f"Layout<{shape}, Stride<_{layout.cols + layout.pad},_1>>"
    if isinstance(layout, Interleaved):
        # r = a * (R/k) + b is stored at row b*k + a: a hierarchical row mode (R/k, k)
        if not isinstance(layout.inner, RowMajor) or layout.inner.pad or layout.last != \
                layout.group:
            return None
        rk, k, c = layout.rows // layout.k, layout.k, layout.cols
        return f"Layout<Shape<Shape<_{rk},_{k}>,_{c}>, Stride<Stride<_{k * c},_{c}>,_1>>"
    if isinstance(layout, TmaSwizzle):
        # the byte swizzle in element units over panels of mode bytes, stored panel after panel
        sw = TMA_MODES[layout.mode]
        sw = Swizzle(sw.b, sw.m - (layout.elem_bytes.bit_length() - 1), sw.s)
        pc, n, r = layout.panel_cols, layout.cols // layout.panel_cols, layout.rows
        cols = f"_{pc}" if n == 1 else f"Shape<_{pc},_{n}>"
        strides = "_1" if n == 1 else f"Stride<_1,_{r * pc}>"
        return (f"decltype(composition({sw}{{}}, Layout<Shape<_{r},{cols}>, "
                f"Stride<_{pc},{strides}>>{{}}))")
    lin = layout.linear()
    sw = layout.functor if isinstance(layout, Swizzled) and isinstance(layout.functor, Swizzle) \
        else (lin.as_swizzle() if lin is not None else None)
    if sw is None:
        return None
    return (f"decltype(composition({sw}{{}}, Layout<{shape}, Stride<_{layout.cols},_1>>{{}}))")
