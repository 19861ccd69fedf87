"""Instruction choice against the bank model: every footprint the solver costs is what the
bank model charges the warps of that instruction, lane by lane."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import analyze, solve
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.smem.instructions import Op, choices, parse_op
from swizzlekit.smem.layouts import LinearLayout, RowMajor, Swizzled, TmaSwizzle
from swizzlekit.smem.rows import Interleaved

OPS = ["ld.v1:row", "ld.v2:row", "ld.v4:row", "ld.v1:col", "ld.v2:col", "ld.v4:col",
       "ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x4.trans"]
WRITES = ["st.v1:row", "st.v4:col", "cp.async:row", "cp.async:col", "stmatrix.x4"]


def _warps(op: Op, rows: int, cols: int, eb: int):
    """Warps of ``op`` that together move the whole tile once (their origins)."""
    if op.kind in ("ldmatrix", "stmatrix"):
        tall, wide = (8, 8) if op.x == 1 else (16, 8) if op.x == 2 else (16, 16)
        if rows % tall or cols % wide:          # .sync.aligned: no partial warps at an edge,
            op, tall, wide = Op(op.kind, 16, "row", 1), 8, 8   # so count it matrix by matrix
        return [op.warp(eb, (r, c), (rows, cols)) for r in range(0, rows, tall)
                for c in range(0, cols, wide)]
    vec = op.width // eb
    if op.walk == "col":            # on fewer than 32 rows a warp wraps into the next vectors
        wide = vec * 32 // rows if rows < 32 and 32 % rows == 0 else vec
        return [op.warp(eb, (r, c), (rows, cols)) for r in range(0, rows, 32)
                for c in range(0, cols, wide)]
    per_row = cols // vec                       # lanes along a row, wrapping down the rows
    step = max(1, 32 // per_row)
    return [op.warp(eb, (r, c), (rows, cols)) for r in range(0, rows, step)
            for c in range(0, cols, 32 * vec)]


def _random_layout(rows: int, cols: int, rng) -> Swizzled:
    """A random invertible GF(2) map that keeps 16-byte vectors whole (bits 0..2 of the
    element offset fixed, for 2-byte elements)."""
    n = (rows * cols).bit_length() - 1
    while True:
        bases = [1, 2, 4] + [int(rng.integers(1, 1 << (n - 3))) << 3 for _ in range(n - 3)]
        try:
            return Swizzled(rows, cols, LinearLayout(tuple(bases)))
        except SwizzleKitError:              # not invertible: draw again
            continue


@pytest.mark.parametrize("spec", OPS + WRITES)
@pytest.mark.parametrize("seed", range(4))
def test_footprints_cost_what_the_bank_model_charges(spec, seed):
    rows, cols, eb = 32, 64, 2
    rng = np.random.default_rng(seed)
    layout = _random_layout(rows, cols, rng) if seed else RowMajor(rows, cols)
    side = "read" if spec.startswith("ld") else "write"
    op = parse_op(spec, side)
    model = sum(analyze(layout, [w], eb).total for w in _warps(op, rows, cols, eb))
    fp = op.footprint(eb)
    idx = placement_index(fp.placements(rows, cols, eb), cols)
    assert model == int(set_costs(layout.offsets(), idx, eb)[0].sum())


@pytest.mark.parametrize("rows", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("spec", ["ld.v1:col", "ld.v2:col", "ld.v4:col", "st.v1:col",
                                  "st.v2:col", "cp.async:col"])
@pytest.mark.parametrize("eb", [1, 2, 4])
def test_short_tiles_follow_the_warp_into_the_next_column(rows, spec, eb):
    """Fewer rows than lanes: the warp carries on into the next vector's column, and the
    footprint costs what the bank model charges those warps, lane by lane."""
    cols = 128
    side = "read" if spec.startswith("ld") else "write"
    op = parse_op(spec, side)
    if op.fits(eb):
        return
    rng = np.random.default_rng(rows * 7 + eb)
    n = (rows * cols).bit_length() - 1
    keep = (op.width // eb).bit_length() - 1
    while True:              # a random linear layout that keeps the vectors whole
        bases = [1 << j for j in range(keep)] + [int(rng.integers(1, 1 << (n - keep))) << keep
                                                 for _ in range(n - keep)]
        try:
            layout = Swizzled(rows, cols, LinearLayout(tuple(bases)))
            break
        except SwizzleKitError:
            continue
    warps = _warps(op, rows, cols, eb)
    if rows * cols >= 32 * (op.width // eb):      # the tile holds a whole warp's reach
        assert all(lane is not None for w in warps for lane in w.lanes)  # no idle lanes
    model = sum(analyze(layout, [w], eb).total for w in warps)
    idx = placement_index(op.footprint(eb, rows).placements(rows, cols, eb), cols)
    assert model == int(set_costs(layout.offsets(), idx, eb)[0].sum())


def test_the_sgemm_transposing_store_costs_what_its_warps_do():
    """Issue 41: st.v1:col on an 8x128 fp32 tile: each warp stores 8 rows x 4 columns, 32
    warps of one wavefront each, not 128 of a quarter-filled one."""
    sol = solve(8, 128, 4, read="ld.v4:row", write="st.v1:col")
    assert sol.wavefronts == sol.lower_bound == 64 and sol.optimal


@pytest.mark.parametrize("eb, spec", [(4, "ld.v1:col"), (4, "ld.v4:col"), (1, "ld.v1:col"),
                                      (8, "ld.v2:col"), (4, "st.v2:row")])
def test_other_element_sizes_match_the_bank_model(eb, spec):
    rows, cols = 64, 64
    layout = Interleaved(RowMajor(rows, cols), 4)   # not linear, not row-major
    op = parse_op(spec, "read" if spec.startswith("ld") else "write")
    model = sum(analyze(layout, [w], eb).total for w in _warps(op, rows, cols, eb))
    idx = placement_index(op.footprint(eb).placements(rows, cols, eb), cols)
    assert model == int(set_costs(layout.offsets(), idx, eb)[0].sum())


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([(32, 32, 4), (64, 64, 2), (32, 64, 2), (64, 16, 4), (24, 64, 2)]),
       st.sampled_from(["auto", "auto:col", "ld.v4:col", "ldmatrix.x4"]),
       st.sampled_from(["auto", "auto:row", "cp.async:row", "tma", "st.v1:col"]))
def test_the_chosen_pair_is_the_best_pair(shape, read, write):
    rows, cols, eb = shape
    try:
        sol = solve(rows, cols, eb, read=read, write=write)
    except SwizzleKitError:                      # e.g. ldmatrix with 4-byte elements
        assert eb != 2 and read == "ldmatrix.x4"
        return
    chosen = dict(sol.instructions)
    assert set(chosen) == {"read", "write"}
    # no fixed pair does better, each solved on its own
    for r, w in itertools.product(choices(read, "read", eb), choices(write, "write", eb)):
        try:
            other = solve(rows, cols, eb, read=str(r), write=str(w))
        except SwizzleKitError:
            continue
        assert (sol.wavefronts, sol.storage) <= (other.wavefronts, other.storage)
    # and the bank model agrees with the solver's count of the chosen read, warp by warp
    op = parse_op(chosen["read"], "read")
    model = sum(analyze(sol.layout, [w], eb).total for w in _warps(op, rows, cols, eb))
    report = next(r for r in sol.analysis.reports if r.access.endswith(f"({op})"))
    assert model == report.total


def test_tma_writes_restrict_the_layouts():
    sol = solve(64, 64, 2, read="ldmatrix.x4", write="tma")
    assert isinstance(sol.layout, TmaSwizzle) and sol.optimal and sol.tma_mode == 128
    wide = solve(64, 128, 2, read="ldmatrix.x4", write="tma")     # two 128-byte boxes
    assert isinstance(wide.layout, TmaSwizzle) and wide.layout.cols == 128 and wide.optimal


@pytest.mark.parametrize("kwargs, message", [
    (dict(read="ld.v8:row"), "unknown instruction 'ld.v8:row'; valid forms: ld.v1|v2|v4"),
    (dict(read="st.v4:row"), "writes shared memory; read takes"),
    (dict(write="ldmatrix.x4"), "reads shared memory; write takes"),
    (dict(read="auto:diag"), "auto's walk 'diag' is not valid; choose one of: row, col"),
    (dict(read="ld.v1:col", elem=8), "less than one 8-byte element"),
    (dict(read="ldmatrix.x4", elem=4), "moves 16-bit elements"),
])
def test_bad_instructions(kwargs, message):
    eb = kwargs.pop("elem", 2)
    with pytest.raises(SwizzleKitError, match=message):
        solve(64, 64, eb, **kwargs)


def test_auto_lists_only_what_fits():
    assert [str(o) for o in choices("auto", "read", 16)] == ["ld.v4:row", "ld.v4:col"]
    assert "stmatrix.x4" in [str(o) for o in choices("auto", "write", 2)]
    assert "tma" in [str(o) for o in choices("auto", "write", 4)]


def test_the_16x32_fp32_transpose_is_not_one_bit_off():
    """Issue 41: 16x32 fp32 written by rows and read down the columns (16 rows: each read
    warp covers two columns). XORing the column by the row alone, c ^ r, still conflicts
    2-way (48 wavefronts); the solver's swizzle takes 32, the bound."""
    from swizzlekit.smem.layouts import XorCols

    sol = solve(16, 32, 4, read="ld.v1:col", write="st.v1:row")
    assert sol.wavefronts == sol.lower_bound == 32 and sol.optimal
    footprints = [parse_op("ld.v1:col", "read").footprint(4, 16),
                  parse_op("st.v1:row", "write").footprint(4, 16)]
    assert analyze(XorCols(16, 32, 4), footprints, 4).total == 48
