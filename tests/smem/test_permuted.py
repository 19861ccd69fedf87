"""Permuted layouts (:mod:`swizzlekit.smem.permuted`): tables that are bijections, a local
search that never returns worse than its start, and odd tiles no closed form solves."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import access_index
from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import solve
from swizzlekit.smem.access import parse_access
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.smem.permuted import Permuted, search


@pytest.mark.parametrize("table", [(0, 1, 2), (0, 1, 1, 2, 3, 4), (0, 1, 2, 3, 4, 6),
                                   (0, 1, 2, 3, 4, -1), "012345", (0, 1, 2, 3, 4, True)])
def test_tables_that_are_no_permutation_are_refused(table):
    with pytest.raises(SwizzleKitError, match="Permuted"):
        Permuted(2, 3, table)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(2, 7), st.sampled_from([4, 8, 16]),
       st.lists(st.sampled_from(["row", "col", "block:2x2", "block:4x2", "block:2x4",
                                 "block:4x2:stride=1x2"]), min_size=1, max_size=3, unique=True),
       st.integers(0, 1000))
def test_the_search_never_returns_worse_than_its_start(rows, cols, eb, accesses, seed):
    idx = access_index(rows, cols, eb, accesses)
    if idx is None:
        return
    start = np.random.default_rng(seed).permutation(rows * cols)
    found = search(start, idx, eb, 1, cols, 0, budget_s=0.02, seed=seed)
    if found is None:
        return
    offsets, cost = found
    assert sorted(offsets.tolist()) == list(range(rows * cols))
    assert cost == int(set_costs(offsets, idx, eb)[0].sum())
    assert cost <= int(set_costs(start, idx, eb)[0].sum())


def test_vectors_stay_whole():
    idx = placement_index(parse_access("col").placements(64, 8, 4), 8)
    start = np.arange(64 * 8)
    offsets, _ = search(start, idx, 4, 4, 8, 0, budget_s=0.05)
    groups = offsets.reshape(-1, 4)
    assert (groups[:, 0] % 4 == 0).all() and (np.diff(groups, axis=1) == 1).all()


def test_an_odd_tile_meets_the_bound_that_no_closed_form_meets():
    """4x5 of 16-byte elements read by 4x2 blocks of every other column: row-major takes 5
    wavefronts and no closed-form family meets the bound; a permuted table takes 3, the
    bound, in the tile's own 20 elements."""
    sol = solve(4, 5, 16, ["block:4x2:stride=1x2"])
    assert sol.family == "permuted" and sol.wavefronts == sol.lower_bound == 3
    assert sol.optimal and sol.storage == 20


def test_a_row_that_vectors_do_not_divide_keeps_its_vectors_and_its_tail_whole():
    """32x12 fp16 read by ld.v2:col and written by st.v4:col (8-element vectors, 12-element
    rows): padding took 28 wavefronts in 756 elements; the permuted table takes at most 28
    in the tile's own 384, every whole vector and each row's 4-element tail contiguous and
    aligned."""
    sol = solve(32, 12, 2, ["block:8x8"], read="ld.v2:col", write="st.v4:col")
    assert sol.wavefronts <= 28 and sol.storage == 384
    off = sol.layout.offsets()
    for first, width in ((0, 8), (8, 4)):
        part = off[:, first:first + width]
        assert (part[:, 0] % width == 0).all() and (np.diff(part, axis=1) == 1).all()


def test_a_seeds_path_does_not_depend_on_the_clock(monkeypatch):
    """The schedule counts swaps, not seconds: under a clock that jumps unevenly (but stays
    inside the budget) a seed returns the same table as under the real one."""
    import itertools

    from swizzlekit.smem import permuted

    idx = access_index(10, 5, 16, ["block:4x2:stride=1x2", "col", "block:4x2"])
    start = np.arange(50)
    steady = search(start, idx, 16, 1, 5, 28, budget_s=30.0, seed=7)
    ticks = itertools.count()
    jumpy = np.random.default_rng(0).random(10**6).cumsum() * 1e-5     # uneven, < 10 s
    monkeypatch.setattr(permuted.time, "perf_counter", lambda: float(jumpy[next(ticks)]))
    again = search(start, idx, 16, 1, 5, 28, budget_s=30.0, seed=7)
    assert steady[1] == again[1] == 28
    assert steady[0].tolist() == again[0].tolist()


def test_ten_by_five_sixteen_byte_blocks_meet_the_bound():
    """A case the annealing rounds alone missed (33 against the bound of 28 on some seeds);
    the warm spells that come first reach 28 within a few thousand swaps."""
    sol = solve(10, 5, 16, ["block:4x2:stride=1x2", "block:4x2", "col"])
    assert sol.wavefronts == sol.lower_bound == 28 and sol.optimal


def test_aimed_swaps_reach_the_bound_where_random_swaps_stopped_short():
    """64x5 of 8-byte elements read by 4x4 and 2x8 blocks: random swaps alone stopped at
    76-80 wavefronts (the adversary of docs/data/smem_adversary/ found 79); swaps aimed at
    crowded bank groups reach the bound, 64. 6x6 of 8-byte elements read by three blocks:
    10, the bound (the solver had answered 11). The budget is generous so that a slow machine
    still gets the seed's whole path; each stops at its bound."""
    for rows, cols, accesses, bound in ((64, 5, ["block:4x4", "block:2x8"], 64),
                                        (6, 6, ["block:4x4", "block:8x2", "block:2x8"], 10)):
        idx = access_index(rows, cols, 8, accesses)
        start = np.arange(rows * cols)
        offsets, cost = search(start, idx, 8, 1, cols, bound, budget_s=60.0)
        assert cost == bound == int(set_costs(offsets, idx, 8)[0].sum())
        assert sorted(offsets.tolist()) == list(range(rows * cols))
