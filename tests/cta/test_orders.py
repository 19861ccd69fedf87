"""CTA orders: bijections on every grid, the reference formulas, seed 003's count."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.cta import ORDERS, order, persistent_schedule, seed001_get_swizzle_idx, wave_tile_loads
from swizzlekit.errors import SwizzleKitError

SHAPES = [(1, 1), (1, 7), (7, 1), (2, 3), (3, 2), (5, 7), (7, 5), (8, 8), (9, 9), (13, 17),
          (16, 4), (11, 64), (64, 11)]
PARAMS = {"grouped": [dict(group=g, along=a) for g in (1, 3, 8) for a in "mn"],
          "grouped_persistent": [dict(group=g) for g in (1, 3, 8)],
          "strip": [dict(width=w) for w in (1, 3, 4, 16)],
          "strip_snake": [dict(width=w) for w in (1, 3, 4)],
          "cutlass": [dict(log_tile=l, raster=r) for l in (0, 1, 3) for r in "mn"],
          "zlayer": [dict(layers=z) for z in (1, 2, 3, 5)]}
CASES = [(name, p) for name in ORDERS for p in PARAMS.get(name, [{}])]


def is_bijection(o, tm, tn):
    return o.shape == (tm * tn, 2) and len({(int(a), int(b)) for a, b in o}) == tm * tn and \
        o[:, 0].min() >= 0 and o[:, 0].max() < tm and o[:, 1].min() >= 0 and o[:, 1].max() < tn


@pytest.mark.parametrize("name,params", CASES, ids=lambda x: str(x))
@pytest.mark.parametrize("tm,tn", SHAPES)
def test_every_order_is_a_bijection(name, params, tm, tn):
    assert is_bijection(order(name, tm, tn, **params), tm, tn)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(CASES), st.integers(1, 40), st.integers(1, 40))
def test_bijection_on_random_grids(case, tm, tn):
    name, params = case
    assert is_bijection(order(name, tm, tn, **params), tm, tn)


def test_row_and_grouped_follow_the_tutorial_formulas():
    tm, tn, g = 7, 5, 3
    ref = []
    for pid in range(tm * tn):
        in_group = g * tn
        first = (pid // in_group) * g
        size = min(tm - first, g)
        ref.append((first + (pid % in_group) % size, (pid % in_group) // size))
    assert order("grouped", tm, tn, group=g).tolist() == [list(r) for r in ref]


def test_grouped_is_tl_swizzle2d():
    tm, tn, g = 10, 6, 4
    for pid, (pm, pn) in enumerate(order("grouped", tm, tn, group=g).tolist()):
        i, j = pid // tn, pid % tn          # swizzle2d's reference semantics
        ij = i * tn + j
        group_id = ij // (g * tn)
        off_i = group_id * g
        size_g = min(tm - off_i, g)
        ij = ij % (g * tn)
        assert (pm, pn) == (off_i + ij % size_g, ij // size_g)


def test_persistent_variant_differs_only_in_a_short_last_group():
    # 7 tile-rows in groups of 4: the last group has 3 rows and starts at pid 20, 20 % 3 != 0
    a, b = order("grouped", 7, 5, group=4), order("grouped_persistent", 7, 5, group=4)
    assert np.array_equal(a[:20], b[:20]) and not np.array_equal(a[20:], b[20:])
    assert np.array_equal(order("grouped", 9, 5, group=3), order("grouped_persistent", 9, 5, group=3))


def test_seed001_strip_slip_fails_on_non_square_grids_and_is_fixed():
    square = seed001_get_swizzle_idx(8, 8, 4, fixed=False)
    assert is_bijection(square, 8, 8)                       # the seed's version, square: fine
    broken = seed001_get_swizzle_idx(4, 8, 4, fixed=False)  # 4 tile-rows, 8 tile-columns
    assert not is_bijection(broken, 4, 8)                   # rows past the grid, tiles twice
    assert is_bijection(seed001_get_swizzle_idx(4, 8, 4), 4, 8)


def test_strip_walks_strips_row_major():
    assert order("strip", 3, 5, width=2)[:6].tolist() == [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]
    assert order("strip", 3, 5, width=2)[-3:].tolist() == [[0, 4], [1, 4], [2, 4]]   # narrow strip


def test_cutlass_identity_swizzle_panels():
    o = order("cutlass", 4, 4, log_tile=1)
    assert o[:4].tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]


def test_seed003_counts():
    assert wave_tile_loads(order("row", 9, 9), tiles_k=9, concurrent=9) == [90] * 9
    assert wave_tile_loads(order("grouped", 9, 9, group=3), tiles_k=9, concurrent=9) == [54] * 9


def test_persistent_schedule_covers_every_tile_once():
    o = order("grouped", 13, 11, group=4)
    sched = persistent_schedule(o, 132)
    assert sum(len(s) for s in sched) == len(o)
    assert np.array_equal(np.concatenate(sched)[np.argsort(np.concatenate(
        [np.arange(c, len(o), 132) for c in range(len(sched))]))], o)


@pytest.mark.parametrize("call, message", [
    (lambda: order("zorder", 4, 4), "unknown order 'zorder'; valid orders: row, col, grouped"),
    (lambda: order("grouped", 4, 4, width=2), "no parameter 'width'; its parameters: group, along"),
    (lambda: order("grouped", 4, 4, group=0), "must be a positive integer"),
    (lambda: order("grouped", 4, 4, along="k"), "choose one of: m, n"),
    (lambda: order("row", 0, 4), "tiles_m must be at least 1; got 0"),
    (lambda: order("row", 10**6, 10**6), "orders are built for at most 4194304"),
    (lambda: order("row", 4.0, 4), "tiles_m must be an integer"),
    (lambda: wave_tile_loads(order("row", 2, 2), 0, 1), "tiles_k must be at least 1"),
])
def test_bad_input(call, message):
    with pytest.raises(SwizzleKitError, match=message):
        call()
