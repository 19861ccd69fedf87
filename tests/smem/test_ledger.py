"""The permuted search's ledger (:mod:`swizzlekit.smem.ledger`) against the bank model it
shadows: after any sequence of moves, every placement's cost equals ``set_costs`` on the
same offsets."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import access_index
from swizzlekit.smem.analyze import set_costs
from swizzlekit.smem.ledger import Ledger


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(2, 9), st.sampled_from([1, 2, 4, 8, 16]),
       st.lists(st.sampled_from(["row", "col", "block:2x2", "block:4x2", "block:2x4",
                                 "block:4x2:stride=1x2"]), min_size=1, max_size=3, unique=True),
       st.integers(0, 10**6))
def test_the_ledger_equals_the_bank_model_after_any_swaps(rows, cols, eb, accesses, seed):
    idx = access_index(rows, cols, eb, accesses)
    if idx is None:
        return
    rng = np.random.default_rng(seed)
    n = rows * cols
    led = Ledger(rng.permutation(n), idx, eb)
    for _ in range(40):
        a, b = rng.choice(n, 2, replace=False)
        touched = led.move([(a, led.off[b]), (b, led.off[a])])
        led.settle({t: led.cost(t) for t in touched})
        want = set_costs(np.array(led.off), idx, eb)
        assert led.per == want[0].tolist() and led.total == int(want[0].sum())
        hot = led.hot()
        assert hot == [t for t in range(len(idx)) if want[0][t] > want[1][t]]
        for t in hot[:2]:
            top = led.cost(t)
            cells = {led.off[e] * eb // max(eb, 4) for e in led.crowded(t)}
            groups = {c % (128 // max(eb, 4)) for c in cells}
            assert all(sum(1 for c in {led.off[e] * eb // max(eb, 4) for e in led.members[t]}
                           if c % (128 // max(eb, 4)) == g) == top for g in groups)
