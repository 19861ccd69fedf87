"""``lab.harness.interleaved_ms``: every callable timed in every turn, the turns' order
rotated by one each time (so each name runs first once in every len(runs) turns), the
replicates kept in turn order; bad arguments refused by name."""

import pytest

from swizzlekit.errors import SwizzleKitError
from swizzlekit.lab import harness


@pytest.mark.parametrize("count,replicates", [(1, 1), (3, 5), (4, 4), (5, 2)])
def test_turns_rotate_and_every_run_is_timed_each_turn(monkeypatch, count, replicates):
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
    for t, turn in enumerate(turns):
        assert turn == [(t + j) % count for j in range(count)]
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
