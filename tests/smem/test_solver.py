"""The solver on every built-in case (seed 004 and 002), checked independently."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import CASES, analyze, solve
from swizzlekit.smem.access import parse_access
from swizzlekit.smem.banks import set_wavefronts
from swizzlekit.smem.layouts import LinearLayout, Swizzle, Swizzled
from swizzlekit.smem.core import subspace as _subspace
from swizzlekit.smem.search import xor_search as _xor_search


def _naive_excess(layout, spec, eb):
    """Wavefronts above the ideal, summed over every placement of ``spec``, computed from
    scratch: each element's address from the layout's own call, the bank model on the set.
    The ideal of a placement is ceil(bytes / 128), what a conflict-free layout reaches."""
    excess = 0
    for p in parse_access(spec).placements(layout.rows, layout.cols, eb):
        wf = set_wavefronts([int(layout(r, c)) * eb for r, c in p], width=eb)
        excess += wf - -(-len(p) * eb // 128)
    return excess


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_case_is_solved_conflict_free(case):
    # the time each case takes is a benchmark (`swizzlekit smem bench`), not a test
    sol = solve(case.rows, case.cols, case.elem_bytes, case.accesses)
    assert sol.conflict_free and sol.layout.is_bijective()
    if case.elem_bytes >= 4:                         # conflict-free is optimal from 4 bytes up
        assert sol.optimal and sol.proof.startswith("optimal")
    else:
        assert sol.optimal == sol.proof.startswith("optimal")
    for spec in case.accesses:                       # the naive oracle agrees
        assert _naive_excess(sol.layout, spec, case.elem_bytes) == 0


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_naive_oracle_sees_row_major_conflicts(case):
    """The oracle above can fail: wherever the analyzer finds row-major conflicted, so does it."""
    from swizzlekit.smem.layouts import RowMajor

    plain = RowMajor(case.rows, case.cols)
    conflicted = not analyze(plain, case.accesses, case.elem_bytes).conflict_free
    assert conflicted == any(_naive_excess(plain, s, case.elem_bytes) > 0 for s in case.accesses)


SEED_SWIZZLES = {"8x8 rows and columns": Swizzle(3, 0, 3),
                 "8x32 rows and columns": Swizzle(3, 0, 5),
                 "8x4 by column": Swizzle(2, 0, 3),
                 "8x8 in 4x2 blocks": Swizzle(2, 1, 2),
                 "8x8 in 4x2 blocks of every other row": Swizzle(2, 1, 3)}


@pytest.mark.parametrize("name,swizzle", SEED_SWIZZLES.items())
def test_seed_004_answers_are_found(name, swizzle):
    case = next(c for c in CASES if c.name == name)
    assert solve(case.rows, case.cols, case.elem_bytes, case.accesses).cute == swizzle


def test_column_plus_blocks_gives_the_cute_forbidden_302():
    sol = solve(8, 4, 16, ["row", "col", "block:2x4", "block:4x2"])
    assert sol.cute is None and sol.cute_forbidden == (3, 0, 2)
    # CuTe's Swizzle<2,0,3>, the seed's answer for columns alone, fails the 4x2 blocks
    plain = analyze(Swizzled(8, 4, Swizzle(2, 0, 3)), ["col", "block:4x2"], 16)
    assert plain.reports[0].conflict_free and not plain.reports[1].conflict_free


def test_non_power_of_two_columns():
    # seed 004's r*24 + (c ^ r); TMA's 128-byte mode over three boxes of 8 columns does as
    # well in the same storage, and is named beside it
    sol = solve(8, 24, 16, ["row", "col"])
    assert sol.family == "xor-cols" and sol.optimal and sol.storage == 8 * 24
    assert np.array_equal(sol.layout.offsets(),
                          np.array([[r * 24 + (c ^ r) for c in range(24)] for r in range(8)]))
    tma = sol.tma_equivalent
    assert tma.mode == 128 and analyze(tma, ["row", "col"], 16).total == sol.wavefronts
    # 9 columns have no power-of-two part: the rows interleaved, in no more than the tile
    nine = solve(8, 9, 16, ["block:4x2"])
    assert nine.family == "interleaved" and nine.storage == 72 and nine.optimal


def test_tma_mode_is_reported():
    assert solve(8, 8, 16, ["row", "col"]).tma_mode == 128
    fp16 = solve(64, 64, 2, ["row", "block:8x8"])       # 64 halves = a 128-byte row
    assert fp16.cute == Swizzle(3, 3, 3) and fp16.tma_mode == 128
    wide = solve(32, 128, 2, ["row", "block:8x8"])      # 256-byte rows: no TMA mode fits
    assert wide.conflict_free and wide.tma_mode is None


def test_xor_search_finds_what_the_forms_miss():
    """The general search alone solves columns plus blocks on 8x4 (no CuTe form needed)."""
    groups = {}
    for spec in ("row", "col", "block:2x4", "block:4x2"):
        for p in parse_access(spec).placements(8, 4, 16):
            basis = _subspace(p[:, 0] * 4 + p[:, 1])
            key = tuple(sorted(basis))
            groups[key] = groups.get(key, 0) + 1
    lin, cost, tried = _xor_search(5, 16, [(list(k), c) for k, c in groups.items()])
    assert tried == 2 ** 6 and cost == sum(groups.values())
    result = analyze(Swizzled(8, 4, lin), ["row", "col", "block:2x4", "block:4x2"], 16)
    assert result.conflict_free


def test_a_tile_no_closed_form_solves_is_solved_by_a_table():
    # 9 columns: no bit swizzle, no coordinate XOR (9 is odd), and 3 rows too few for the
    # 4x2 blocks to gain from interleaving; with padding switched off no closed form is
    # conflict-free, and the permuted table meets the bound
    sol = solve(3, 9, 16, ["block:4x2"], max_pad=0)
    assert sol.family == "permuted" and sol.optimal and sol.storage == 27


def test_an_unmet_bound_is_reported_with_its_gap_and_what_was_searched():
    sol = solve(64, 64, 2, ["row", "col", "block:8x8"], max_pad=0)
    assert sol.wavefronts > sol.lower_bound
    assert f"gap {sol.wavefronts - sol.lower_bound}" in sol.proof
    assert "lower bound" in sol.proof or "needs at least" in sol.proof
    assert "padding up to 0" in sol.proof


@pytest.mark.parametrize("args, message", [
    ((8, 8, 12, ["row"]), "element size 12 is not valid; choose one of: 1, 2, 4"),
    ((8, 8, 16, []), "none was given"),
    ((8, 8, 16, "row"), "must be a list"),
    ((8, 8, 16, ["zig"]), "unknown access spec"),
    ((0, 8, 16, ["row"]), "rows must be at least 1; got 0"),
    ((8.0, 8, 16, ["row"]), "rows must be an integer"),
    ((4096, 4096, 2, ["row", "col"]), "at most 65536"),
])
def test_bad_problems(args, message):
    with pytest.raises(SwizzleKitError, match=message):
        solve(*args)


def test_solution_json_has_the_documented_keys():
    d = solve(8, 8, 16, ["row", "col"]).to_dict()
    assert d["cute"] == "Swizzle<3,0,3>" and d["conflict_free"] is True
    assert len(d["offsets"]) == 8 and len(d["offsets"][0]) == 8
    assert isinstance(LinearLayout(tuple(d["linear_bases"])), LinearLayout)


def test_sub_word_elements_are_packed_and_proven_optimal():
    """Issue 11: a column of 2-byte elements. Word layouts take 16 wavefronts (and the old
    bound, counting row-major words, called 16 optimal); a GF(2) map that packs two column
    elements into each word takes 8, the bound for any layout."""
    sol = solve(64, 8, 2, ["col"])
    assert sol.lower_bound == 8 and sol.wavefronts == 8 and sol.optimal
    assert sol.family in ("xor", "generic") and sol.storage == 512
    assert sol.to_dict()["optimal"] is True


def test_the_whole_gf2_family_is_searched():
    """Issue 11: strided 2x4 and 4x2 blocks on an 8x8 tile of 16-byte elements, no row
    access. The low-bit XOR search found 48; the local search over every invertible GF(2)
    map reaches 40, the bound."""
    sol = solve(8, 8, 16, ["block:2x4:stride=2x1", "block:2x4:stride=2x2",
                           "block:2x4:stride=4x1", "block:2x4:stride=4x2",
                           "block:4x2:stride=2x2"])
    assert sol.wavefronts == sol.lower_bound == 40 and sol.optimal and sol.family == "xor"


def test_a_gap_to_the_bound_is_reported_as_best_found():
    sol = solve(128, 128, 2, ["row", "col", "block:8x8"])
    assert sol.conflict_free and not sol.optimal and sol.wavefronts > sol.lower_bound
    assert sol.proof.startswith("conflict-free, best found") and "local search" in sol.proof


def _linear_layouts_4bit():
    """Every invertible GF(2) map on 4 offset bits (|GL(4,2)| = 20160), as offset tables."""
    import itertools

    idx = np.arange(16)
    for bases in itertools.product(range(1, 16), repeat=4):
        span = {0}
        for b in bases:
            span |= {s ^ b for s in span}
        if len(span) < 16:                         # not invertible
            continue
        off = np.zeros(16, dtype=np.int64)
        for bit, b in enumerate(bases):
            off ^= np.where((idx >> bit) & 1, b, 0)
        yield off


_LINEAR = None


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(4, 4), (2, 8), (8, 2)]),
       st.lists(st.sampled_from(["row", "col", "block:2x2", "block:2x4", "block:4x2",
                                 "block:2x2:stride=2x1", "block:2x2:stride=1x2"]),
                min_size=1, max_size=3, unique=True))
def test_optimal_claims_hold_against_every_linear_layout(shape, accesses):
    """16 elements of 16 bytes (two wavefronts' worth): the bound is never beaten by any of
    the 20160 linear layouts, and an "optimal" answer costs what the best of them costs."""
    from swizzlekit.smem.access import parse_access
    from swizzlekit.smem.analyze import placement_index, set_costs
    from swizzlekit.smem.solver import universal_bound

    global _LINEAR
    if _LINEAR is None:
        _LINEAR = np.array(list(_linear_layouts_4bit()))
        assert len(_LINEAR) == 20160
    rows, cols = shape
    try:
        specs = [parse_access(a) for a in accesses]
        placements = [p for s in specs for p in s.placements(rows, cols, 16)]
    except Exception:
        return                                    # an access that does not fit this tile
    if not placements:
        return
    idx = placement_index(placements, cols)
    bound = universal_bound(idx, 16)
    best = min(int(set_costs(off, idx, 16)[0].sum()) for off in _LINEAR)
    assert best >= bound
    sol = solve(rows, cols, 16, specs)
    assert sol.wavefronts >= bound
    if sol.optimal:
        assert sol.wavefronts == best == bound


def test_non_power_of_two_rows_stack_power_of_two_solutions():
    """Issue 11: 24 rows of 16-byte elements read by columns and 2x4 / 4x2 blocks. The
    solver answered 48 wavefronts; stacking the 16- and 8-row solutions takes 36, the bound
    for any layout, in 96 elements (no padding)."""
    sol = solve(24, 4, 16, ["col", "block:2x4", "block:4x2"])
    assert sol.family == "stacked" and sol.wavefronts == sol.lower_bound == 36
    assert sol.optimal and sol.storage == 96 and sol.layout.is_bijective()


# ------------------------------------------------------------- odd shapes never crash (issue 41)
@pytest.mark.parametrize("rows, cols, elem_bytes, accesses, kw", [
    (65, 8, 1, [], {"read": "ld.v4:row"}),              # a vector wider than a row
    (33, 2, 2, ["row"], {"write": "cp.async:row"}),
])
def test_vectors_wider_than_a_row_are_refused_by_name(rows, cols, elem_bytes, accesses, kw):
    with pytest.raises(SwizzleKitError, match="row of the"):
        solve(rows, cols, elem_bytes, accesses, **kw)


_OPS = st.sampled_from([None, "auto", "auto:col", "ld.v1:row", "ld.v2:col", "ld.v4:row",
                        "ld.v4:col", "ldmatrix.x4", "ldmatrix.x2.trans"])
_WRITES = st.sampled_from([None, "auto", "st.v1:col", "st.v4:row", "cp.async:row",
                           "cp.async:col", "stmatrix.x4", "tma"])


def _odd_solve(rows, cols, elem_bytes, accesses, read, write):
    try:
        sol = solve(rows, cols, elem_bytes, accesses, read=read, write=write)
    except SwizzleKitError:
        return
    assert sol.layout.is_bijective() and sol.wavefronts >= sol.lower_bound >= 0


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 70), st.integers(1, 40), st.sampled_from([1, 2, 4, 8, 16]),
       st.lists(st.sampled_from(["row", "col", "block:2x4", "block:4x2"]), max_size=2),
       _OPS, _WRITES)
def test_odd_shapes_widths_and_instructions_never_crash(rows, cols, elem_bytes, accesses, read,
                                                        write):
    _odd_solve(rows, cols, elem_bytes, accesses, read, write)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.integers(1, 130), st.integers(1, 70), st.sampled_from([1, 2, 4, 8, 16]),
       st.lists(st.sampled_from(["row", "col", "block:2x4", "block:4x2", "block:8x1"]),
                max_size=3), _OPS, _WRITES)
def test_odd_shapes_never_crash_many(rows, cols, elem_bytes, accesses, read, write):
    _odd_solve(rows, cols, elem_bytes, accesses, read, write)
