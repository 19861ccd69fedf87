"""The L2 model: equal to its brute-force oracle, fast, and held to the H200 measurements."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.cta import order
from swizzlekit.cta.l2 import simulate, simulate_naive
from swizzlekit.compare import compare
from swizzlekit.errors import SwizzleKitError

ORDER_NAMES = ["row", "col", "grouped", "grouped_persistent", "strip", "snake", "morton",
               "hilbert", "cutlass", "zlayer", "strip_snake"]


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 10), st.integers(1, 10), st.integers(1, 8), st.integers(1, 24),
       st.integers(1, 3), st.integers(1, 48), st.sampled_from(ORDER_NAMES))
def test_analytic_lru_equals_the_brute_force_oracle(tm, tn, tk, concurrent, parts, tiles, name):
    o = order(name, tm, tn)
    kw = dict(l2_bytes=tiles * 16384 * parts, concurrent=concurrent, partitions=parts)
    a = simulate(tm * 128, tn * 128, tk * 64, o, **kw)
    b = simulate_naive(tm * 128, tn * 128, tk * 64, o, **kw)
    assert (a.dram_read_bytes, a.l2_hit_rate, a.lookups, a.per_wave_dram_read_bytes) == \
        (b.dram_read_bytes, b.l2_hit_rate, b.lookups, b.per_wave_dram_read_bytes)


def test_compulsory_traffic_and_bounds():
    m = n = k = 2048
    p = simulate(m, n, k, order("row", 16, 16))
    assert p.dram_read_bytes >= (m * k + k * n) * 2          # every byte read once at least
    assert 0 < p.l2_hit_rate < 100
    tiny = simulate(m, n, k, order("row", 16, 16), l2_bytes=16384 * 2)
    assert tiny.dram_read_bytes > p.dram_read_bytes          # a smaller cache never helps


def test_16384_cubed_is_fast():
    start = time.perf_counter()
    simulate(16384, 16384, 16384, order("grouped", 128, 128, group=8))
    assert time.perf_counter() - start < 10


def test_order_must_match_the_grid():
    with pytest.raises(SwizzleKitError, match="needs"):
        simulate(1024, 1024, 1024, order("row", 4, 4))


def test_model_against_the_h200_tables():
    """docs/cta.md quotes these: mean 4.78 points, worst 22.5 over 112 runs."""
    rows = compare()
    err = np.array([abs(r["model_hit"] - r["measured_hit"]) for r in rows])
    ratio = np.array([r["model_dram"] / r["measured_dram"] for r in rows])
    assert len(rows) == 112
    assert err.mean() <= 4.8 and err.max() <= 22.6
    assert ((ratio > 0.75) & (ratio < 1.25)).sum() >= 95
    big = [e for r, e in zip(rows, err) if r["shape"] not in ("1024x1024x1024", "2048x2048x2048")]
    assert np.mean(big) <= 3.85                              # docs: 3.8 on the larger problems


def test_the_model_ranks_the_measured_order_effects():
    """Where the order changed the measured time most, the model agrees on which is better."""
    for (m, n, k), bad, good in [((16384, 16384, 2048), "row", "hilbert"),
                                 ((8192, 8192, 8192), "row", "grouped"),
                                 ((16384, 2048, 8192), "col", "row"),
                                 ((2048, 16384, 8192), "row", "col")]:
        tm, tn = m // 128, n // 128
        kw = {"group": 8} if good == "grouped" else {}
        a = simulate(m, n, k, order(bad, tm, tn))
        b = simulate(m, n, k, order(good, tm, tn, **kw))
        assert b.dram_read_bytes < a.dram_read_bytes and b.l2_hit_rate > a.l2_hit_rate


def test_seed001_predicted():
    """docs/cta.md: the model beside seed 001's measured kernels, within 5 points each."""
    from swizzlekit.compare import compare_seed001

    rows = compare_seed001()
    assert len(rows) == 8
    assert all(abs(r["model_hit"] - r["measured_hit"]) <= 5.0 for r in rows)
    big = [r for r in rows if r["shape"] == "4096x4096x4096"]
    assert all(abs(r["model_dram"] / r["measured_dram"] - 1) < 0.02 for r in big)
