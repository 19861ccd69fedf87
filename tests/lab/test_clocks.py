"""``lab.clocks``: the sampler reads the clock before, during and after its body and means
the readings; ``clocked_median_ms`` and ``interleaved_clocked`` pair each replicate with the
clock of its own window, in ``interleaved_ms``'s turns; ``at_clock`` keeps cycles;
bad arguments are refused by name. No GPU: the clock reader and the timer are stand-ins."""

import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.lab import clocks, harness
from swizzlekit.turns import williams_rows


def test_the_sampler_reads_before_during_and_after_its_body():
    readings = iter(range(1000, 100000))
    lock = threading.Lock()

    def reader():
        with lock:
            return float(next(readings))

    with clocks.ClockSampler(reader=reader, period_s=0.001) as s:
        time.sleep(0.05)
    assert s.samples[0] == 1000 and len(s.samples) >= 4     # before, several during, after
    assert s.samples == sorted(s.samples)                   # one reading after another
    assert s.mean_mhz == pytest.approx(sum(s.samples) / len(s.samples))
    taken = len(s.samples)
    time.sleep(0.01)
    assert len(s.samples) == taken                           # the thread stopped with the body


def test_a_sampler_used_again_starts_afresh():
    s = clocks.ClockSampler(reader=lambda: 1200.0, period_s=0.001)
    with s:
        pass
    with s:
        pass
    assert set(s.samples) == {1200.0} and 2 <= len(s.samples)


def test_each_replicate_carries_the_clock_of_its_own_window():
    """The sampler reads once as the replicate starts (the previous run's clock still set)
    and once as it ends (its own); with a period longer than any replicate nothing else is
    read, so each replicate's clock is the mean of those two, in the design's turns."""
    state = {"mhz": 900.0}
    calls = []

    def timer(fn):
        state["mhz"] = 1000.0 + 100 * fn()          # the run's own clock while it is timed
        calls.append(fn())
        return float(len(calls))

    runs = {f"r{i}": (lambda i=i: i) for i in range(3)}
    out = clocks.interleaved_clocked(runs, 4, reader=lambda: state["mhz"], period_s=1.0,
                                     timer=timer)
    rows = williams_rows(3)
    assert calls == [j for t in range(4) for j in rows[t % len(rows)]]
    before = [900.0] + [1000.0 + 100 * j for j in calls[:-1]]
    want = {name: [] for name in runs}
    for k, (j, prev) in enumerate(zip(calls, before)):
        want[f"r{j}"].append((float(k + 1), (prev + 1000.0 + 100 * j) / 2))
    assert out == want


def test_clocked_median_ms_times_with_median_ms_by_default(monkeypatch):
    seen = {}

    def fake_median(fn, **kw):
        seen.update(kw)
        return 0.25

    monkeypatch.setattr(harness, "median_ms", fake_median)
    ms, mhz = clocks.clocked_median_ms(lambda: None, reader=lambda: 1755, warmup_ms=3,
                                       rep_ms=7)
    assert (ms, mhz) == (0.25, 1755.0) and seen == {"warmup_ms": 3, "rep_ms": 7}


@given(st.floats(1e-3, 1e3), st.floats(100, 3000), st.floats(100, 3000))
def test_at_clock_keeps_the_cycles(ms, mhz, ref):
    assert clocks.at_clock(ms, mhz, ref) * ref == pytest.approx(ms * mhz)
    assert clocks.at_clock(clocks.at_clock(ms, mhz, ref), ref, mhz) == pytest.approx(ms)


@pytest.mark.parametrize("call,message", [
    (lambda: clocks.at_clock(-1.0, 1500, 1500), "ms must be a finite number above 0"),
    (lambda: clocks.at_clock(1.0, float("nan"), 1500), "mhz must be a finite number"),
    (lambda: clocks.at_clock(1.0, 1500, float("inf")), "ref_mhz must be a finite number"),
    (lambda: clocks.at_clock(1.0, True, 1500), "mhz must be a finite number"),
    (lambda: clocks.ClockSampler(reader=5), "reader must be a callable"),
    (lambda: clocks.ClockSampler(period_s=0), "period_s must be a finite number above 0"),
    (lambda: clocks.ClockSampler(period_s=5.0), "period_s must lie from"),
    (lambda: clocks.ClockSampler(reader=lambda: 1.0).mean_mhz, "has not run"),
    (lambda: clocks.clocked_median_ms(3), "fn must be a callable"),
    (lambda: clocks.clocked_median_ms(lambda: 0, timer=3), "timer must be a callable"),
    (lambda: clocks.interleaved_clocked({}, 2), "non-empty dict"),
    (lambda: clocks.interleaved_clocked({"a": lambda: 0}, 0), "replicates must be at least 1"),
])
def test_bad_arguments_are_refused(call, message):
    with pytest.raises(SwizzleKitError, match=message):
        call()


def test_a_bad_clock_reading_is_refused():
    with pytest.raises(SwizzleKitError, match="the clock reading must be a finite number"):
        with clocks.ClockSampler(reader=lambda: 0.0):
            pass
