"""The periodic core must cost every linear layout exactly as the full count does."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.smem.access import parse_access
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.smem.core import Core, apply_bases, subspace
from swizzlekit.smem.layouts import Swizzle, Swizzled, XorCols
from swizzlekit.smem.screen import linear_map as _linear_map

ACCESSES = ["row", "col", "block:2x4", "block:4x2", "block:8x8", "block:4x8", "block:2x8",
            "block:8x2", "block:2x4:stride=2x1", "block:4x2:stride=2x2", "block:1x8:vec=2:stride=1x2"]


def _placements(rows, cols, elem_bytes, names):
    """Every placement of the accesses that fit a ``rows x cols`` tile of this element size."""
    placements = []
    for name in names:
        try:
            placements += parse_access(name).placements(rows, cols, elem_bytes)
        except ValueError:           # does not fit this tile or element size
            continue
    return placements


@st.composite
def problems(draw):
    elem_bytes = draw(st.sampled_from([1, 2, 4, 8, 16]))
    names = draw(st.lists(st.sampled_from(ACCESSES), min_size=1, max_size=4, unique=True))
    rows, cols = 1 << draw(st.integers(2, 6)), 1 << draw(st.integers(2, 7))
    placements = _placements(rows, cols, elem_bytes, names)
    n = (rows * cols).bit_length() - 1
    bases = [1 << j for j in range(n)]
    for _ in range(draw(st.integers(0, 3 * n))):          # a random invertible map
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if i != j:
            bases[i] ^= bases[j]
    return rows, cols, elem_bytes, placements, bases


@settings(max_examples=300, deadline=None)
@given(problems())
def test_core_cost_equals_the_full_count_for_any_linear_map(problem):
    rows, cols, elem_bytes, placements, bases = problem
    if not placements:
        return
    flat = [p[:, 0] * cols + p[:, 1] for p in placements]
    core = Core.of(flat)
    assert core.all_cosets                       # aligned accesses on a power-of-two tile
    assert int(core.weights.sum()) == len(placements)
    full = set_costs(apply_bases(bases, np.arange(rows * cols)), placement_index(placements, cols),
                     elem_bytes)[0].sum()
    assert core.cost(lambda x: apply_bases(bases, x), elem_bytes) == full
    many = core.costs([lambda x: x, lambda x: apply_bases(bases, x)], elem_bytes)
    identity = set_costs(np.arange(rows * cols), placement_index(placements, cols),
                         elem_bytes)[0].sum()
    assert many.tolist() == [identity, full]


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 6), st.integers(3, 7), st.sampled_from([2, 4, 16]),
       st.integers(1, 3), st.integers(0, 2), st.integers(0, 2))
def test_the_linear_forms_of_swizzles_and_coordinate_xors_are_exact(lr, lc, eb, bits, cs, rs):
    rows, cols = 1 << lr, 1 << lc
    layouts = []
    if cols % (1 << (bits + cs)) == 0:
        layouts.append(XorCols(rows, cols, bits, cs, rs))
    if bits + 2 * bits <= lr + lc and bits <= lr + lc - bits:
        layouts.append(Swizzled(rows, cols, Swizzle(bits, 0, bits)))
    for layout in layouts:
        f = _linear_map(layout)
        assert np.array_equal(f(np.arange(rows * cols)), layout.offsets().reshape(-1))


def test_a_placement_that_is_no_coset_stands_alone():
    assert subspace(np.array([0, 1, 2])) is None and subspace(np.array([0, 1, 2, 4])) is None
    core = Core.of([np.array([0, 1]), np.array([2, 3]), np.array([0, 3, 5]), np.array([8, 11, 13])])
    assert core.weights.tolist() == [2, 1, 1] and not core.all_cosets


@settings(max_examples=150, deadline=None)
@given(st.integers(9, 70), st.integers(2, 6), st.sampled_from([1, 2, 4, 16]),
       st.lists(st.sampled_from(ACCESSES), min_size=1, max_size=3, unique=True),
       st.integers(0, 40), st.randoms(use_true_random=False))
def test_ragged_rows_are_costed_exactly_too(rows, log_cols, elem_bytes, names, moves, rnd):
    """Rows that are not a power of two: the clipped placements stand alone, the rest are
    cosets; any linear map of the flat index (as coordinate XORs are) costs the same."""
    cols = 1 << log_cols
    placements = _placements(rows, cols, elem_bytes, names)
    if not placements:
        return
    n = (rows * cols - 1).bit_length()
    bases = [1 << j for j in range(n)]
    for _ in range(moves):
        i, j = rnd.randrange(n), rnd.randrange(n)
        if i != j:
            bases[i] ^= bases[j]
    flat = np.arange(rows * cols)
    full = set_costs(apply_bases(bases, flat), placement_index(placements, cols),
                     elem_bytes)[0].sum()
    core = Core.of([p[:, 0] * cols + p[:, 1] for p in placements])
    assert int(core.weights.sum()) == len(placements)
    assert core.cost(lambda x: apply_bases(bases, x), elem_bytes) == full
    for bits in range(1, log_cols + 1):
        layout = XorCols(rows, cols, bits)
        assert np.array_equal(_linear_map(layout)(flat), layout.offsets().reshape(-1))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 70), st.sampled_from([4, 8, 12, 16, 24, 32, 64, 96, 128]),
       st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 70),
       st.lists(st.sampled_from(ACCESSES), min_size=1, max_size=3, unique=True))
def test_padded_layouts_cost_by_shape_exactly(rows, cols, elem_bytes, pad, names):
    """Grouping placements by shape and by where their first byte sits in a cell loses nothing
    for r * (cols + pad) + c, ragged tiles and clipped placements included."""
    from swizzlekit.smem.core import Translates
    from swizzlekit.smem.layouts import RowMajor

    placements = _placements(rows, cols, elem_bytes, names)
    if not placements:
        return
    full = set_costs(RowMajor(rows, cols, pad).offsets(), placement_index(placements, cols),
                     elem_bytes)[0].sum()
    assert Translates.of(placements, cols).cost(cols + pad, cols, elem_bytes) == full
