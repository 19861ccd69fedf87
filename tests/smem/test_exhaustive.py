"""The exhaustive search over invertible GF(2) maps: the subspace pairs are counted right, a
map costs what the pair's map costs, it equals brute force on 16-element tiles, and solve()
never does worse on tiles of up to 64 elements."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import gf2, solve
from swizzlekit.smem.access import parse_access
from swizzlekit.smem.core import Core
from swizzlekit.smem.exhaustive import (_gauss, _maps, bit_kinds, exhaustive_search,
                                        pair_count, subspaces)
from swizzlekit.smem.layouts import LinearLayout


@pytest.mark.parametrize("m,d", [(m, d) for m in range(7) for d in range(m + 1)])
def test_subspaces_are_each_subspace_once(m, d):
    found = subspaces(m, d)
    assert len(found) == _gauss(m, d)
    spans = {frozenset(gf2.span(list(basis)).tolist()) for basis, _ in found}
    assert len(spans) == len(found)                       # all distinct
    for basis, rest in found:                              # the rest completes the space
        assert len(set(gf2.span(list(basis) + list(rest)).tolist())) == 1 << m


def _pair(lay: LinearLayout, n: int, elem_bytes: int, keep: int):
    """(K1, K2) of a map: the preimages of the word bits and of the word and line bits."""
    a, b, c = bit_kinds(n, elem_bytes, keep)
    k = keep.bit_length() - 1
    inv = gf2.columns(gf2.inverse(gf2.from_columns(list(lay.bases), n)))
    word, line = inv[k:k + a], inv[k + a + b:]
    return (frozenset(gf2.span(word).tolist()), frozenset(gf2.span(word + line).tolist()))


def _random_map(rng, n: int, keep: int) -> LinearLayout:
    """Identity on the vector bits beside a random invertible map of the rest."""
    k = keep.bit_length() - 1
    m = n - k
    cols = [1 << j for j in range(m)]
    for _ in range(4 * m * m):                            # transvections generate GL(m, 2)
        i, j = rng.choice(m, 2, replace=False) if m > 1 else (0, 0)
        if i != j:
            cols[i] ^= cols[j]
    perm = rng.permutation(m)
    cols = [cols[p] for p in perm]
    return LinearLayout(tuple(1 << j for j in range(k)) + tuple(v << k for v in cols))


def _random_core(rng, n: int, count: int) -> Core:
    placements = []
    for _ in range(count):
        dim = int(rng.integers(1, n + 1))
        basis = [int(v) for v in rng.integers(1, 1 << n, dim)]
        x0 = int(rng.integers(0, 1 << n))
        placements.append(np.unique(gf2.span(basis) ^ x0))
    return Core.of(placements)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 8), st.sampled_from([1, 2, 4, 8, 16]), st.sampled_from([1, 2, 4]),
       st.integers(0, 2**32 - 1))
def test_a_map_costs_what_the_map_of_its_pair_costs(n, elem_bytes, keep, seed):
    """The reduction the search rests on, checked on random maps and random access sets."""
    if keep > 1 << n:
        return
    a, _, c = bit_kinds(n, elem_bytes, keep)
    if pair_count(n - keep.bit_length() + 1, a, c) > 3000:
        return
    rng = np.random.default_rng(seed)
    core = _random_core(rng, n, 4)
    lay = _random_map(rng, n, keep)
    by_pair = {_pair(LinearLayout(m), n, elem_bytes, keep): LinearLayout(m)
               for m in _maps(n, elem_bytes, keep)}
    assert len(by_pair) == pair_count(n - keep.bit_length() + 1, a, c)
    twin = by_pair[_pair(lay, n, elem_bytes, keep)]
    assert core.cost(lay, elem_bytes) == core.cost(twin, elem_bytes)


_GL4 = None


def _gl4() -> list[LinearLayout]:
    """All 20160 invertible maps on 4 bits."""
    global _GL4
    if _GL4 is None:
        _GL4 = [LinearLayout(b) for b in itertools.product(range(1, 16), repeat=4)
                if len(set(gf2.span(list(b)).tolist())) == 16]
        assert len(_GL4) == 20160
    return _GL4


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([1, 2]), st.integers(0, 2**32 - 1))
def test_the_search_equals_brute_force_over_all_maps_of_16_elements(keep, seed):
    """16-byte elements (two wavefronts' worth): the least cost over all 20160 maps that keep
    the vectors is the search's."""
    rng = np.random.default_rng(seed)
    core = _random_core(rng, 4, 3)
    allowed = [m for m in _gl4() if keep == 1 or (m.bases[0] == 1 and
                                                   not any(v & 1 for v in m.bases[1:]))]
    brute = min(core.costs(allowed, 16))
    assert exhaustive_search(4, 16, keep, core)[1] == brute


_SMALL = [(4, 4), (4, 8), (8, 4), (8, 8), (2, 16), (16, 2), (2, 32), (4, 16), (16, 4), (2, 8)]
_ACCESSES = ["row", "col", "block:2x2", "block:2x4", "block:4x2", "block:4x4", "block:2x8",
             "block:8x2", "block:2x2:stride=2x1", "block:4x2:vec=2", "block:2x4:vec=2"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_SMALL), st.sampled_from([2, 4, 8, 16]),
       st.lists(st.sampled_from(_ACCESSES), min_size=1, max_size=3, unique=True))
def test_solve_is_never_worse_than_every_linear_map_on_64_elements(shape, elem_bytes,
                                                                    accesses):
    rows, cols = shape
    try:
        specs = [parse_access(a) for a in accesses]
        placements = [p[:, 0] * cols + p[:, 1] for s in specs
                      for p in s.placements(rows, cols, elem_bytes)]
        sol = solve(rows, cols, elem_bytes, accesses)
    except SwizzleKitError:
        return
    keep = max(s.vec for s in specs)
    n = (rows * cols).bit_length() - 1
    found = exhaustive_search(n, elem_bytes, keep, Core.of(placements))
    assert found is not None                   # 64 elements: always searched in full
    assert sol.lower_bound <= sol.wavefronts <= found[1]


@pytest.mark.parametrize("args", [(-1, 16, 1), (6, 3, 1), (6, 16, 0), (6, 16, 3), (6, 16, 128)])
def test_bad_arguments_are_refused_by_name(args):
    core = Core.of([np.arange(8) * 8])
    with pytest.raises(SwizzleKitError):
        exhaustive_search(*args, core)
    with pytest.raises(SwizzleKitError, match="core"):
        exhaustive_search(6, 16, 1, "core")
