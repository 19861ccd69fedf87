"""Triton's generic swizzling as a family and as a floor: solve() is never worse than it on
power-of-two tiles, for every instruction pair (500 examples in the slow tier)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import analyze, solve
from swizzlekit.smem.core import subspace
from swizzlekit.smem.generic import generic_swizzle, segment_bases
from swizzlekit.smem.instructions import parse_op
from swizzlekit.smem.layouts import Swizzled
from swizzlekit.smem.screen import keeps_vectors

_READS = ["ld.v1:row", "ld.v2:row", "ld.v4:row", "ld.v1:col", "ld.v2:col", "ld.v4:col",
          "ldmatrix.x4", "ldmatrix.x4.trans", "ldmatrix.x1"]
_WRITES = ["st.v1:row", "st.v2:row", "st.v4:row", "st.v1:col", "st.v2:col", "st.v4:col",
           "cp.async:row", "cp.async:col", "stmatrix.x4", "stmatrix.x4.trans"]
_SIDES = [1, 2, 4, 8, 16, 32, 64, 128, 256]


def test_segment_pairs_a_bit_of_each_side_and_conflicts_only_when_it_must():
    assert segment_bases([1, 2], [1, 4], 3, 1) == [2 ^ 4]
    assert segment_bases([1, 2], [4, 8], 5, 2) == [16, 1 ^ 4]
    assert segment_bases([1, 2], [1, 2], 2, 1) == []           # nothing left to pair


def test_the_seed_transpose_is_conflict_free_both_ways():
    """8x8 of 16-byte elements written by rows, read by columns: the XOR of the row and the
    column, conflict-free for both."""
    lay = generic_swizzle(6, 16, 1, [1, 2, 4], [8, 16, 32])
    assert analyze(Swizzled(8, 8, lay), ["row", "col"], 16).conflict_free


def _generic_and_solved(rows, cols, elem_bytes, read, write):
    ops = [parse_op(read, "read"), parse_op(write, "write")]
    try:
        footprints = [op.footprint(elem_bytes, rows) for op in ops]
        first = [f.placements(rows, cols, elem_bytes)[0] for f in footprints]
        sol = solve(rows, cols, elem_bytes, [], read=read, write=write)
    except SwizzleKitError:
        return None
    tiles = [subspace(p[:, 0] * cols + p[:, 1]) for p in first]
    keep = max([op.vector(elem_bytes) for op in ops] + [f.vec for f in footprints])
    if None in tiles or cols % keep:
        return None
    n = (rows * cols).bit_length() - 1
    lin = generic_swizzle(n, elem_bytes, keep, tiles[1], tiles[0])
    layout = Swizzled(rows, cols, lin)
    if not keeps_vectors(layout, keep):
        return None
    return analyze(layout, footprints, elem_bytes).total, sol


def _never_worse(rows, cols, elem_bytes, read, write):
    found = _generic_and_solved(rows, cols, elem_bytes, read, write)
    if found is not None:
        generic, sol = found
        assert (sol.wavefronts, sol.storage) <= (generic, rows * cols)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(_SIDES[2:8]), st.sampled_from(_SIDES[2:8]),
       st.sampled_from([1, 2, 4, 8, 16]), st.sampled_from(_READS), st.sampled_from(_WRITES))
def test_solve_is_never_worse_than_generic_swizzling(rows, cols, elem_bytes, read, write):
    if rows * cols <= 16384:
        _never_worse(rows, cols, elem_bytes, read, write)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.sampled_from(_SIDES), st.sampled_from(_SIDES), st.sampled_from([1, 2, 4, 8, 16]),
       st.sampled_from(_READS), st.sampled_from(_WRITES))
def test_solve_is_never_worse_than_generic_swizzling_many(rows, cols, elem_bytes, read,
                                                           write):
    if rows * cols <= 65536:
        _never_worse(rows, cols, elem_bytes, read, write)


def test_the_family_is_taken_where_it_is_best():
    """A column of 2-byte elements: the generic swizzle packs two column elements into each
    word (8 wavefronts, the bound), where every CuTe swizzle and coordinate XOR takes 16."""
    sol = solve(64, 8, 2, ["col"])
    assert sol.family == "generic" and sol.wavefronts == sol.lower_bound == 8
    col = subspace(np.arange(64) * 8)
    assert analyze(Swizzled(64, 8, generic_swizzle(9, 2, 1, col, col)), ["col"], 2).total == 8


@pytest.mark.parametrize("args", [(-1, 16, 1, [1], [2]), (6, 3, 1, [1], [2]),
                                  (6, 16, 3, [1], [2]), (6, 2, 128, [1], [2]),
                                  (6, 16, 1, "ab", [2]), (6, 16, 1, [1.5], [2]),
                                  (6, 16, 1, [1], [64]), (6, 16, 1, [True], [2])])
def test_bad_arguments_are_refused_by_name(args):
    from swizzlekit.errors import SwizzleKitError
    with pytest.raises(SwizzleKitError):
        generic_swizzle(*args)


def test_a_one_element_tile_has_the_empty_map():
    assert generic_swizzle(0, 16, 1, [], []).bases == ()
    assert solve(1, 1, 16, ["row"]).wavefronts == 1
