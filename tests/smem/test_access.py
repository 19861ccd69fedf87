"""Access patterns: placements cover the tile, instruction lane maps are what the PTX does."""

import numpy as np
import pytest

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem.access import ldmatrix, parse_access, thread_block
from swizzlekit.smem.layouts import RowMajor, Swizzle, Swizzled

SPECS = [("row", 8, 8, 16), ("col", 8, 8, 16), ("row", 8, 4, 16), ("block:4x2", 8, 8, 16),
         ("block:4x2:stride=2x1", 8, 8, 16), ("block:1x32:vec=4:stride=1x8", 8, 128, 4),
         ("block:8x4", 128, 32, 4), ("row", 64, 64, 2), ("block:4x2", 8, 9, 16),
         ("col", 32, 4, 4), ("block:2x4:vec=2:stride=1x4", 4, 16, 16)]


@pytest.mark.parametrize("spec,rows,cols,eb", SPECS)
def test_placements_partition_the_tile(spec, rows, cols, eb):
    places = parse_access(spec).placements(rows, cols, eb)
    seen = np.concatenate(places)
    assert len(seen) == rows * cols
    assert len({(int(r), int(c)) for r, c in seen}) == rows * cols
    full = [p for p in places if len(p) * eb == 128]
    assert full, "at least one placement is a whole wavefront"
    assert all(len(p) * eb <= 128 for p in places)


def test_strided_rows_take_every_other_row():
    first = parse_access("block:4x2:stride=2x1").placements(8, 8, 16)[0]
    assert sorted({int(r) for r, _ in first}) == [0, 2, 4, 6]


@pytest.mark.parametrize("spec, message", [
    ("diag", "unknown access spec 'diag'; valid forms: row, col, block"),
    ("block:3x3", None), ("block:4x2:vec=3", "multiple of vec"),
    ("block:1x8:vec=2:stride=1x3", "column stride"),
])
def test_bad_specs(spec, message):
    if message is None:
        with pytest.raises(SwizzleKitError, match="not the 128 of one wavefront"):
            parse_access(spec).placements(8, 8, 16)
    else:
        with pytest.raises(SwizzleKitError, match=message):
            parse_access(spec)


def test_col_needs_enough_rows():
    with pytest.raises(SwizzleKitError, match="needs 32 rows"):
        parse_access("col").placements(8, 32, 4)


def test_thread_block_lanes_follow_tid_order():
    ins = thread_block("x", "ld", 16, 4, block=(8, 32), warp=1)
    # warp 1 = threads 32..63 = rows 4..7 of an 8-wide block, float4 columns
    assert ins.lanes[0] == (4, 0) and ins.lanes[7] == (4, 28) and ins.lanes[8] == (5, 0)
    addrs = ins.addresses(RowMajor(8, 32), 4)
    assert addrs[:2] == [4 * 32 * 4, 4 * 32 * 4 + 16]


def test_vectors_must_stay_contiguous_under_the_layout():
    ins = thread_block("x", "ld", 16, 4, block=(8, 1), origin=(1, 0))   # row 0 is unswizzled
    with pytest.raises(SwizzleKitError, match="splits the 16-byte vector"):
        ins.addresses(Swizzled(8, 32, Swizzle(3, 0, 5)), 4)


def test_ldmatrix_x4_matrix_order_and_addresses():
    ins = ldmatrix(4)
    assert ins.lanes[:8] == tuple((j, 0) for j in range(8))
    assert ins.lanes[8] == (8, 0) and ins.lanes[16] == (0, 8) and ins.lanes[24] == (8, 8)
    addrs = ins.addresses(RowMajor(16, 16), 2)
    assert addrs[1] == 32 and addrs[16] == 16
