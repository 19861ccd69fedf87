"""The vectorized analyzer against a naive per-element oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import analyze, ldmatrix, thread_block, wavefronts
from swizzlekit.smem.access import parse_access
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.smem.banks import set_wavefronts
from swizzlekit.smem.layouts import RowMajor, Swizzle, Swizzled


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([1, 2, 4, 8, 16]), st.data())
def test_set_costs_equal_the_naive_oracle(eb, data):
    n = 128 // eb
    rows = data.draw(st.integers(1, 6))
    perm = np.array(data.draw(st.permutations(range(rows * n * 2))))
    offsets = perm[: rows * n].reshape(rows, n)
    places = parse_access("row").placements(rows, n, eb)
    wf, ideal = set_costs(offsets, placement_index(places, n), eb)
    for p, w, i in zip(places, wf, ideal):
        byte = [int(offsets[r, c]) * eb for r, c in p]
        assert w == set_wavefronts(byte, width=eb)
        words = {b // 4 + k for b in byte for k in range(max(1, eb // 4))}
        assert i == -(-len(words) // 32)


def test_instruction_reports_go_through_the_bank_model():
    lay = RowMajor(8, 32)
    ins = thread_block("cols", "ld", 4, 4, block=(1, 32), step=(0, 0))  # 32 lanes, one word
    assert analyze(lay, [ins], 4).reports[0].worst == 1
    col = thread_block("col", "ld", 4, 4, block=(1, 8))
    rep = analyze(lay, [col], 4).reports[0]
    assert rep.worst == wavefronts(col.addresses(lay, 4), 4, "ld") == 8


def test_ldmatrix_on_swizzled_fp16_tile_is_conflict_free():
    plain, swz = RowMajor(16, 64), Swizzled(16, 64, Swizzle(3, 3, 3))
    ins = [ldmatrix(4, origin=(0, 8 * k)) for k in range(0, 8, 2)]
    assert analyze(plain, ins, 2).reports[0].worst == 32   # 8 rows in one bank, x4 (measured)
    assert all(r.worst == 4 and r.conflict_free for r in analyze(swz, ins, 2).reports)


def test_analyze_rejects_non_bijective_layouts_and_bad_sizes():
    class Squash(RowMajor):
        def __call__(self, r, c):
            return r * 0 + c
    with pytest.raises(SwizzleKitError, match="share a storage offset"):
        analyze(Squash(4, 8), ["row"], 16)
    with pytest.raises(SwizzleKitError, match="element size 3"):
        analyze(RowMajor(4, 8), ["row"], 3)
