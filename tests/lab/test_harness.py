"""``lab.harness.interleaved_ms``: every callable timed in every turn, each turn in the
order of ``turns.turn_order`` (a Williams design: no run behind the same run twice in the
first turns), the replicates kept in turn order; bad arguments refused by name.
``checked_medians``: only the runs that pass their check are timed; ``host_us``,
``host_profile``, ``queued_work``; ``in_turns`` with any timer."""

import pytest

from swizzlekit.errors import SwizzleKitError
from swizzlekit.lab import harness
from swizzlekit.turns import williams_rows


@pytest.mark.parametrize("count,replicates", [(1, 1), (3, 5), (4, 4), (5, 2)])
def test_turns_follow_the_design_and_every_run_is_timed_each_turn(monkeypatch, count,
                                                                  replicates):
    order, clock = [], iter(range(1000))
    runs = {f"r{i}": (lambda i=i: i) for i in range(count)}

    def fake_median(fn, **kw):
        order.append((fn(), kw))
        return float(next(clock))

    monkeypatch.setattr(harness, "median_ms", fake_median)
    times = harness.interleaved_ms(runs, replicates, warmup_ms=3, rep_ms=7)
    assert list(times) == list(runs) and all(len(t) == replicates for t in times.values())
    assert all(kw == {"warmup_ms": 3, "rep_ms": 7} for _, kw in order)
    turns = [[i for i, _ in order[t * count:(t + 1) * count]] for t in range(replicates)]
    rows = williams_rows(count)
    for t, turn in enumerate(turns):
        assert turn == list(rows[t % len(rows)])
    behind = [(a, b) for turn in turns for a, b in zip(turn, turn[1:])]
    if replicates <= max(count - count % 2, 1):     # within the design's distinct turns
        assert len(behind) == len(set(behind))
    for i, name in enumerate(runs):                 # each replicate is the time its call got
        stamps = [k for k, (j, _) in enumerate(order) if j == i]
        assert times[name] == [float(k) for k in stamps]


@pytest.mark.parametrize("runs,replicates,message", [
    ({}, 5, "non-empty dict"), ({"a": 1}, 5, "name -> callable"),
    ([lambda: 0], 5, "non-empty dict"), ({"a": lambda: 0}, 0, "replicates must be at least 1"),
    ({"a": lambda: 0}, 2.0, "replicates must be an integer"),
])
def test_bad_arguments_are_refused(runs, replicates, message):
    with pytest.raises(SwizzleKitError, match=message):
        harness.interleaved_ms(runs, replicates)


@pytest.mark.parametrize("calls,rounds", [(1, 1), (3, 4), (50, 2)])
def test_host_us_is_the_best_round_per_call(monkeypatch, calls, rounds):
    """host_us: each round queues ``behind`` after a synchronize, then issues ``calls`` calls
    between two clock readings; the answer is the least round's time per call, in µs
    (a stand-in clock whose rounds take 7, 3, 5, 3, ... seconds, and a stand-in CUDA)."""
    torch = pytest.importorskip("torch")
    import time

    events, spans = [], iter([7, 3, 5, 3, 9, 4] * 200)
    now = [0.0]

    def clock():
        if events and events[-1] == "call":        # the end of a round: advance by its span
            now[0] += next(spans)
        events.append("clock")
        return now[0]

    monkeypatch.setattr(time, "perf_counter", clock)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: events.append("sync"))
    got = harness.host_us(lambda: events.append("call"), calls=calls, rounds=rounds,
                          behind=lambda: events.append("behind"))
    one = ["sync", "behind", "clock"] + ["call"] * calls + ["clock", "sync"]
    assert events == one * rounds
    assert got == pytest.approx(min([7, 3, 5, 3, 9, 4][:rounds]) / calls * 1e6)


@pytest.mark.parametrize("kw,message", [
    (dict(calls=0), "calls must be at least 1"), (dict(calls=2.0), "calls must be an integer"),
    (dict(rounds=0), "rounds must be at least 1"), (dict(rounds=10**4), "rounds must be at most"),
    (dict(behind=3), "behind must be a callable or None"),
])
def test_host_us_refuses_bad_arguments(kw, message):
    with pytest.raises(SwizzleKitError, match=message):
        harness.host_us(lambda: None, **kw)


@pytest.mark.parametrize("calls", [1, 4, 200])
def test_back_to_back_ms_is_the_events_span_per_call(monkeypatch, calls):
    """back_to_back_ms: one warm-up call and a synchronize, then ``calls`` calls between two
    recorded events; the answer is their elapsed time over ``calls`` (stand-in CUDA events
    whose span is 12 ms)."""
    torch = pytest.importorskip("torch")
    events = []

    class Event:
        def __init__(self, enable_timing):
            assert enable_timing

        def record(self):
            events.append("record")

        def synchronize(self):
            events.append("wait")

        def elapsed_time(self, end):
            return 12.0

    monkeypatch.setattr(torch.cuda, "Event", Event)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: events.append("sync"))
    got = harness.back_to_back_ms(lambda: events.append("call"), calls)
    assert events == ["call", "sync", "record"] + ["call"] * calls + ["record", "wait"]
    assert got == pytest.approx(12.0 / calls)


@pytest.mark.parametrize("calls,message", [(0, "calls must be at least 1"),
                                           (2.5, "calls must be an integer"),
                                           (10**6, "calls must be at most")])
def test_back_to_back_ms_refuses_bad_counts(calls, message):
    with pytest.raises(SwizzleKitError, match=message):
        harness.back_to_back_ms(lambda: None, calls)


def test_host_profile_names_the_functions_called(monkeypatch):
    """host_profile: cProfile's table of the calls, queued work first and never profiled,
    the function called among those it names, with its call count."""
    torch = pytest.importorskip("torch")
    events = []

    def work():
        events.append("call")

    monkeypatch.setattr(torch.cuda, "synchronize", lambda: events.append("sync"))
    text = harness.host_profile(work, calls=7, behind=lambda: events.append("behind"), top=5)
    assert events == ["sync", "behind"] + ["call"] * 7 + ["sync"]
    assert "(work)" in text
    line, = [ln for ln in text.splitlines() if "(work)" in ln]
    assert line.split()[0] == "7"
    with pytest.raises(SwizzleKitError, match="top must be at least 1"):
        harness.host_profile(work, top=0)


def test_queued_work_draws_once_and_queues_its_products(monkeypatch):
    """queued_work: each call queues ``products`` products of one matrix, drawn on the first
    call only (a stand-in for torch.randn counts the draws and the products)."""
    torch = pytest.importorskip("torch")
    draws, products = [], []

    class Matrix:
        def __matmul__(self, other):
            products.append(other is self)

    monkeypatch.setattr(torch, "randn", lambda *a, **kw: draws.append((a, kw)) or Matrix())
    queue = harness.queued_work(3, n=64)
    assert draws == []                                  # nothing drawn before the first call
    queue()
    queue()
    assert len(draws) == 1 and draws[0][0] == (64, 64) and draws[0][1]["device"] == "cuda"
    assert products == [True] * 6
    for kw, message in ((dict(products=0), "products must be at least 1"),
                        (dict(n=2.5), "n must be an integer"),
                        (dict(n=10**5), "n must be at most 16384")):
        with pytest.raises(SwizzleKitError, match=message):
            harness.queued_work(**kw)


def test_checked_medians_times_only_what_passes(monkeypatch):
    """A run within the bound is timed; one at the bound, one NaN and one that raises are
    kept as ``bad`` and never timed; the medians are the middle replicates (a stand-in
    clock)."""
    import math

    timed, clock = [], iter([5.0, 1.0, 3.0, 9.0, 9.0, 9.0])

    def fake_median(fn, **kw):
        timed.append(fn())
        return next(clock)

    monkeypatch.setattr(harness, "median_ms", fake_median)
    errors = {"good": 1e-3, "edge": 1e-2, "nan": math.nan}
    runs = {name: (lambda name=name: name) for name in ("good", "edge", "nan", "raises")}

    def error(fn):
        name = fn()
        if name == "raises":
            raise RuntimeError("out of resources")
        return errors[name]

    row = harness.checked_medians(runs, error, replicates=3)
    assert timed == ["good"] * 3
    assert row["ms"] == {"good": 3.0} and row["replicates"] == {"good": [5.0, 1.0, 3.0]}
    assert set(row["bad"]) == {"edge", "nan", "raises"}
    assert "out of resources" in row["bad"]["raises"] and row["errors"]["good"] == 1e-3
    nothing = harness.checked_medians({"nan": runs["nan"]}, error)
    assert nothing["ms"] == {} and nothing["replicates"] == {}


@pytest.mark.parametrize("runs,bound,message", [
    ({}, 1e-2, "non-empty dict"), ({"a": 1}, 1e-2, "name -> callable"),
    ({"a": lambda: 0}, 0, "bound must be a number above 0"),
    ({"a": lambda: 0}, True, "bound must be a number above 0"),
])
def test_checked_medians_refuses_bad_arguments(runs, bound, message):
    with pytest.raises(SwizzleKitError, match=message):
        harness.checked_medians(runs, lambda fn: 0.0, bound)


def test_in_turns_takes_any_timer_and_refuses_a_non_callable():
    runs = {"a": lambda: 2, "b": lambda: 3}
    assert harness.in_turns(runs, 2, lambda fn: fn() * 10) == {"a": [20, 20], "b": [30, 30]}
    with pytest.raises(SwizzleKitError, match="time_one must be a callable"):
        harness.in_turns(runs, 2, None)
