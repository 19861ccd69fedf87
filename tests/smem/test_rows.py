"""Row-permuted layouts ("k rows as one") against brute-force oracles, and the solver on the
non-power-of-two cases of seed 004 and algebraic-layouts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import analyze, solve
from swizzlekit.smem.emit import expression
from swizzlekit.smem.layouts import RowMajor, Swizzle, Swizzled, XorCols
from swizzlekit.smem.specs import parse_layout
from swizzlekit.smem.rows import Interleaved, interleavings, valid_ks


def _dealt(rows: int, k: int) -> list[int]:
    """The oracle: cut the rows into k groups of ceil(rows/k), then take one row of each
    group in turn; the stored row of r is its place in that order."""
    g = -(-rows // k)
    groups = [list(range(a * g, min(rows, (a + 1) * g))) for a in range(k)]
    order = [grp[b] for b in range(g) for grp in groups if b < len(grp)]
    stored = [0] * rows
    for place, r in enumerate(order):
        stored[r] = place
    return stored


@pytest.mark.parametrize("rows", range(2, 70))
def test_every_interleaving_is_the_dealt_order_and_a_bijection(rows):
    ks = valid_ks(rows)
    # valid exactly when k groups of ceil(rows/k) leave the last one non-empty
    assert ks == [k for k in range(2, rows) if len(
        [a for a in range(k) if a * -(-rows // k) < rows]) == k]
    for k in ks:
        lay = Interleaved(RowMajor(rows, 3), k)
        assert [lay.stored_row(r) for r in range(rows)] == _dealt(rows, k)
        assert lay.is_bijective() and lay.cosize() == rows * 3


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 64), st.integers(1, 40), st.data())
def test_emitted_expression_equals_the_layout(rows, cols, data):
    ks = valid_ks(rows)
    if not ks:
        return
    k = data.draw(st.sampled_from(ks))
    inner = RowMajor(rows, cols)
    if cols % 8 == 0 and data.draw(st.booleans()):
        inner = XorCols(rows, cols, bits=3)
    lay = Interleaved(inner, k)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    assert np.array_equal(eval(expression(lay), {"r": r, "c": c}), lay.offsets())


def test_bad_interleavings_are_refused_with_the_valid_ones():
    with pytest.raises(SwizzleKitError, match=r"valid: \[2, 3, 4, 6, 8\]"):
        Interleaved(RowMajor(16, 9), 5)
    with pytest.raises(SwizzleKitError, match="RowMajor or XorCols"):
        Interleaved(Swizzled(16, 8, Swizzle(3, 0, 3)), 2)
    assert str(parse_layout("interleave:2", 8, 9, 16)).startswith("rows interleaved by 2")


# algebraic-layouts (melonedo), the library seed 004 announces: its non-power-of-two rule
# stores row r at (r * banks) % rows + r // (rows / banks), banks = 2**(log2(C) - tz(stride))
# for a block of C columns; 16-byte elements, 8 per wavefront, as in its own figures.
def _algebraic_layouts(rows: int, stride: int, block_cols: int):
    tz = (stride & -stride).bit_length() - 1
    banks = 1 << max(0, block_cols.bit_length() - 1 - tz)
    perm = [(r * banks) % rows + r // (rows // banks) for r in range(rows)] if banks > 1 \
        else list(range(rows))
    off = np.array([[perm[r] * stride + c for c in range(stride)] for r in range(rows)])
    return off, rows * stride


@pytest.mark.parametrize("rows, cols, block, storage", [
    (8, 9, "block:4x2", 72),        # seed 004: "view as 4x18"
    (16, 5, "block:4x2", 80),       # algebraic-layouts' three cases
    (16, 9, "block:4x2", 144),
    (16, 9, "block:2x4", 144),
])
def test_seed_and_algebraic_layouts_cases_use_no_padding(rows, cols, block, storage):
    sol = solve(rows, cols, 16, [block])
    assert sol.optimal and sol.storage == storage and sol.family == "interleaved"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([8, 16, 32]), st.sampled_from([3, 5, 7, 9, 11, 13, 15, 6, 10, 12]),
       st.sampled_from(["block:4x2", "block:2x4", "block:8x1", "block:1x8"]))
def test_never_worse_than_algebraic_layouts(rows, stride, block):
    h, w = (int(x) for x in block.split(":")[1].split("x"))
    if w > stride:
        return
    theirs, their_storage = _algebraic_layouts(rows, stride, w)
    sol = solve(rows, stride, 16, [block])

    class Fixed(RowMajor):                 # their table as a tile layout, for the analyzer
        def offsets(self):
            return theirs
    their_cost = analyze(Fixed(rows, stride), [block], 16).total
    assert sol.wavefronts <= their_cost
    if sol.wavefronts == their_cost:
        assert sol.storage <= their_storage


def test_interleavings_are_bounded_and_divisors_and_powers_of_two_come_first():
    lays = interleavings(240, [RowMajor(240, 8), XorCols(240, 8, 3)])
    assert len(lays) <= 16 and [lay.k for lay in lays[:4]] == [2, 2, 3, 3]
    assert max(lay.k for lay in lays) <= 32
