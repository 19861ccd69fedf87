"""The vector-aware lower bound holds for every layout that keeps the vectors whole: random
placements of whole vectors (any slots, any storage) never cost less than it."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import access_index
from swizzlekit.smem.analyze import set_costs
from swizzlekit.smem.screen import universal_bound


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(16, 16), (64, 8), (32, 32), (8, 64), (128, 16)]),
       st.sampled_from([1, 2]), st.sampled_from([2, 4, 8, 16]),
       st.lists(st.sampled_from(["row", "col", "block:4x8", "block:8x4", "block:16x2",
                                 "block:2x16", "block:4x4:vec=4"]), min_size=1, max_size=3),
       st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_no_layout_that_keeps_vectors_beats_the_bound(shape, elem_bytes, keep, accesses,
                                                       spread, seed):
    rows, cols = shape
    if cols % keep:
        return
    idx = access_index(rows, cols, elem_bytes, accesses)
    if idx is None:
        return
    bound = universal_bound(idx, elem_bytes, keep)
    assert bound >= universal_bound(idx, elem_bytes)
    rng = np.random.default_rng(seed)
    vectors = rows * cols // keep
    for _ in range(20):
        # any injective placement of whole, aligned vectors into `spread` times the storage
        slots = rng.choice(vectors * spread, vectors, replace=False)
        flat = np.arange(rows * cols)
        offsets = slots[flat // keep] * keep + flat % keep
        assert int(set_costs(offsets, idx, elem_bytes)[0].sum()) >= bound


def test_the_bound_counts_words_a_column_cannot_share():
    """A column of fp16 read with 16-byte row vectors kept whole: each element has a word
    to itself, 64 words, two wavefronts; without vectors two elements share a word."""
    col = (np.arange(64) * 64)[None, :]
    assert universal_bound(col, 2) == 1 and universal_bound(col, 2, keep=8) == 2
    assert universal_bound(col, 1, keep=2) == 1          # 2-byte vectors: two to a word
    assert universal_bound(np.arange(256)[None, :] * 64, 1, keep=2) == 4
