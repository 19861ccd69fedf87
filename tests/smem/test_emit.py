"""Emitted code computes exactly the layout: CUDA compiled and run as host C++, Triton
expressions evaluated on the index grid, CuTe types for the CuTe-expressible ones."""

import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.smem import CASES, cuda_function, cute_type, solve, triton_expr
from swizzlekit.smem.emit import expression
from swizzlekit.smem.layouts import (LinearLayout, RowMajor, Swizzle, Swizzled, TmaSwizzle,
                                     TritonShared, XorCols, log2)
from swizzlekit.smem.rows import Interleaved
from swizzlekit.smem.permuted import Permuted
from swizzlekit.smem.rowxor import RowXor

LAYOUTS = [RowMajor(8, 9, 1), Swizzled(8, 8, Swizzle(3, 0, 3)), Swizzled(8, 16, Swizzle(2, 1, -3)),
           Swizzled(8, 4, LinearLayout.from_xor(3, 0, 2)), XorCols(8, 24, 3),
           XorCols(16, 32, 2, 2, 1), TritonShared(16, 64, 8, 2, 4), TmaSwizzle(16, 32, 64, 2)]
LAYOUTS += [solve(c.rows, c.cols, c.elem_bytes, c.accesses).layout for c in CASES]
LAYOUTS += [solve(24, 4, 16, ["col", "block:2x4", "block:4x2"]).layout]      # Stacked
LAYOUTS += [Interleaved(RowMajor(8, 9), 2), Interleaved(RowMajor(7, 9), 2),   # k rows as one
            Interleaved(XorCols(16, 24, 3), 4), Interleaved(RowMajor(30, 5), 4),
            TmaSwizzle(8, 128, 128, 2), TmaSwizzle(24, 48, 32, 2), TmaSwizzle(16, 64, 64, 4)]
LAYOUTS += [RowXor(64, 40, (0, 4, 2, 6, 1, 5, 3, 7)), RowXor(12, 24, (0, 5, 2)),   # row XORs:
            RowXor(64, 48, (0, 8, 16, 24), transposed=True),                     # linear, free,
            RowXor(8, 8, (0, 1, 2, 3, 4, 5, 6, 7)),                              # transposed
            RowXor(128, 8, (0, 4, 8, 12), True, (4, 3)),     # strided rows gathered (a tail)
            RowXor(24, 4, (0, 2), True, (2, 3)),             # (whole groups)
            Permuted(2, 3, (0, 2, 4, 1, 3, 5)),              # tables: one chunk, and three
            Permuted(10, 15, tuple(np.random.default_rng(5).permutation(150).tolist()))]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_triton_expression_matches_every_element(layout):
    r, c = np.meshgrid(np.arange(layout.rows), np.arange(layout.cols), indexing="ij")
    got = eval(triton_expr(layout), {"r": r, "c": c})        # same operators as tl tensors
    assert np.array_equal(got, layout.offsets())


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a C++ compiler (g++)")
def test_cuda_functions_compile_and_match(tmp_path):
    src = ["#include <cstdio>", "#define __host__", "#define __device__",
           "#define __forceinline__ inline"]
    calls = []
    for i, lay in enumerate(LAYOUTS):
        src.append(cuda_function(lay, name=f"f{i}"))
        calls.append(f"for (int r = 0; r < {lay.rows}; ++r) for (int c = 0; c < {lay.cols}; ++c)"
                     f" printf(\"%d \", f{i}(r, c)); printf(\"\\n\");")
    src.append("int main() {\n" + "\n".join(calls) + "\nreturn 0;\n}")
    (tmp_path / "t.cpp").write_text("\n".join(src))
    subprocess.run(["g++", "-O1", "-o", str(tmp_path / "t"), str(tmp_path / "t.cpp")], check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True)
    for lay, line in zip(LAYOUTS, out.stdout.splitlines()):
        assert [int(x) for x in line.split()] == lay.offsets().reshape(-1).tolist(), str(lay)


def test_cute_types():
    assert cute_type(Swizzled(8, 8, Swizzle(3, 0, 3))) == \
        "decltype(composition(Swizzle<3,0,3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{}))"
    assert cute_type(RowMajor(8, 9, 1)) == "Layout<Shape<_8,_9>, Stride<_10,_1>>"
    assert cute_type(TritonShared(8, 8, 1, 1, 8)).startswith("decltype(composition(Swizzle<3,0,3>")
    assert cute_type(Swizzled(8, 4, LinearLayout.from_xor(3, 0, 2))) is None
    assert cute_type(XorCols(8, 24, 3)) is None


def _pycute(text: str):
    """Our CuTe type string as a pycute callable: ``Layout<Shape<..>, Stride<..>>``, or a
    ``composition(Swizzle<B,M,S>{}, Layout<...>{})``."""
    pycute = pytest.importorskip("pycute", reason="nvidia-cutlass (pycute) is not installed")

    def layout(t: str):
        tup = eval(t.replace("Layout<", "(").replace("Shape<", "(").replace("Stride<", "(")
                   .replace(">", ",)").replace("_", ""))
        return pycute.Layout(*tup)
    if text.startswith("decltype(composition("):
        sw_text, lay_text = text[len("decltype(composition("):-len("{}))")].split("{}, ")
        sw = pycute.Swizzle(*eval(sw_text[len("Swizzle<"):-1].join("()")))
        lay = layout(lay_text)
        return lambda r, c: sw(lay(r, c))
    return layout(text)


@pytest.mark.parametrize("layout", [lay for lay in LAYOUTS if cute_type(lay)], ids=str)
def test_cute_types_are_the_layout_in_pycute(layout):
    """Every CuTe type we emit, hierarchical row modes and TMA boxes included, evaluated by
    CuTe's own Python implementation on every element."""
    f = _pycute(cute_type(layout))
    got = [[f(r, c) for c in range(layout.cols)] for r in range(layout.rows)]
    assert np.array_equal(np.array(got), layout.offsets())


def test_interleavings_with_a_short_group_or_an_xor_are_not_cute():
    assert cute_type(Interleaved(RowMajor(7, 9), 2)) is None
    assert cute_type(Interleaved(XorCols(16, 24, 3), 4)) is None


def test_cuda_function_carries_a_bit_diagram_for_xor_swizzles():
    text = cuda_function(Swizzled(8, 8, Swizzle(3, 0, 3)))
    assert "0bYYYZZZ" in text and "__device__" in text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 4, 8, 16]), min_size=1, max_size=4),
       st.sampled_from([4, 8, 16]))
def test_stacked_layouts_emit_exactly_and_store_compactly(part_rows, cols):
    """A stack of swizzled parts: bijective, compact (rows * cols elements), and its C/Python
    expression equals it on every element."""
    from swizzlekit.smem.layouts import Stacked

    parts = tuple(Swizzled(n, cols, Swizzle(min(2, log2(n * cols) - 2), 0, 2))
                  if n * cols >= 8 else RowMajor(n, cols) for n in part_rows)
    lay = Stacked(parts)
    off = lay.offsets()
    assert lay.is_bijective() and lay.cosize() == lay.rows * cols == off.size
    expr = expression(lay)
    for r in range(lay.rows):
        for c in range(cols):
            assert eval(expr, {"r": r, "c": c}) == off[r, c]
