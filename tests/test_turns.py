"""``swizzlekit.turns``: the Williams design behind interleaved timings, checked
exhaustively for 1 to 40 runs: every row a permutation, every run first equally often, every
ordered pair of runs adjacent equally often (once for even counts, twice for odd), and no run
behind the same run twice within the first n turns (n - 1 for odd n); turn_order cycles
through the rows; bad arguments refused by name."""

import collections

import pytest

from swizzlekit.errors import SwizzleKitError
from swizzlekit.turns import MAX_RUNS, turn_order, williams_rows


@pytest.mark.parametrize("n", range(1, 41))
def test_the_design_balances_first_places_and_neighbours(n):
    rows = williams_rows(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    assert all(sorted(r) == list(range(n)) for r in rows)
    firsts = collections.Counter(r[0] for r in rows)
    assert set(firsts) == set(range(n)) and len(set(firsts.values())) == 1
    pairs = collections.Counter((a, b) for r in rows for a, b in zip(r, r[1:]))
    want = 1 if n % 2 == 0 else 2
    assert all(pairs[(a, b)] == want for a in range(n) for b in range(n) if a != b)
    assert sum(pairs.values()) == len(rows) * (n - 1)          # and no pair (a, a)
    distinct = n if n % 2 == 0 else max(n - 1, 1)
    early = collections.Counter((a, b) for r in rows[:distinct] for a, b in zip(r, r[1:]))
    assert max(early.values(), default=1) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 6, 13])
def test_turn_order_walks_the_rows_and_repeats(n):
    items = [f"run{i}" for i in range(n)]
    rows = williams_rows(n)
    for turn in range(3 * len(rows)):
        assert turn_order(items, turn) == [items[i] for i in rows[turn % len(rows)]]
    assert turn_order(tuple(items), 0)[:2] == items[:2]            # row 0 starts 0, 1, ...
    assert items == [f"run{i}" for i in range(n)]                  # the input is not touched


@pytest.mark.parametrize("call,message", [
    (lambda: williams_rows(0), "n must be at least 1"),
    (lambda: williams_rows(MAX_RUNS + 1), f"n must be at most {MAX_RUNS}"),
    (lambda: williams_rows(2.0), "n must be an integer"),
    (lambda: williams_rows([3]), "n must be an integer"),
    (lambda: turn_order([], 0), "at least one run"),
    (lambda: turn_order("abc", 0), "items must be a list or tuple"),
    (lambda: turn_order({"a": 1}, 0), "items must be a list or tuple"),
    (lambda: turn_order(5, 0), "items must be a list or tuple"),
    (lambda: turn_order(["a"], -1), "turn must be at least 0"),
    (lambda: turn_order(["a"], True), "turn must be an integer"),
])
def test_bad_arguments_are_refused(call, message):
    with pytest.raises(SwizzleKitError, match=message):
        call()
