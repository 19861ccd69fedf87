"""CPU tier: ``gpu_time``'s door and its pure parts; the autotuner takes it as its do_bench."""

import statistics

import pytest
from hypothesis import given, strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton import timing


@given(st.floats(min_value=0, max_value=10, allow_nan=False))
def test_lead_is_twice_the_host_time_within_bounds(host):
    lead = timing.lead_seconds(host)
    assert timing.MIN_LEAD <= lead <= timing.MAX_LEAD
    if timing.MIN_LEAD <= 2 * host <= timing.MAX_LEAD:
        assert lead == pytest.approx(2 * host)


@given(st.floats(min_value=0, max_value=1e-2), st.floats(min_value=0, max_value=1e-2))
def test_lead_grows_with_the_host_time(h1, h2):
    lo, hi = sorted((h1, h2))
    assert timing.lead_seconds(lo) <= timing.lead_seconds(hi)


@given(st.lists(st.floats(min_value=1e-4, max_value=10), min_size=1, max_size=60))
def test_summary_matches_the_statistics_module(times):
    assert timing._summary(times, None, "median") == statistics.median(times)
    assert timing._summary(times, None, "mean") == pytest.approx(statistics.fmean(times))
    assert timing._summary(times, None, "min") == min(times)
    assert timing._summary(times, None, "all") == times
    q = timing._summary(times, (0.5, 0.0, 1.0), "mean")
    assert q[1] == min(times) and q[2] == max(times) and min(times) <= q[0] <= max(times)
    assert timing._summary(times, (0.5,), "mean") == q[0]       # one quantile: a number


@pytest.mark.parametrize("kw, names", [
    ({"return_mode": "average"}, "min, max, mean, median, all"),
    ({"warmup": 0}, "above 0"),
    ({"rep": -1}, "above 0"),
    ({"quantiles": (0.5, 2.0)}, "from 0 to 1"),
])
def test_bad_arguments_are_named_before_any_gpu_work(kw, names):
    calls = []
    with pytest.raises(SwizzleKitError, match=names):
        timing.gpu_time(lambda: calls.append(1), **kw)
    assert calls == []


def test_the_autotuners_time_with_gpu_time():
    import inspect

    import triton

    from swizzlekit.kernels.triton import matmul, scaled

    if "do_bench" not in inspect.signature(triton.autotune).parameters:
        pytest.skip("this Triton's autotune takes no do_bench")
    for kernel in (matmul._matmul_kernel, matmul._matmul_tma_kernel, scaled._scaled_kernel,
                   scaled._scaled_tma_kernel):
        bench = kernel._do_bench
        assert bench.func is timing.gpu_time and bench.keywords == {"warmup": 25, "rep": 100}
