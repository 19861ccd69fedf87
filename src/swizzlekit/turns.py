"""The order of the turns when several GPU runs are timed in interleaved replicates.

A run timed right after a heavier one measured up to 9% slower on an H100 at its power cap
(``docs/data/order_times/identical/``: the column order's run took 1.00 ms after the row
order's and 0.93 ms after anything else, 30 replicates). Rotating the list by one each turn
keeps every run behind the same neighbour in all turns but one, so that carry-over became a
bias of the run that happened to sit behind the heaviest. Here each turn is a row of a
Williams design: over its rows every run comes first equally often and follows every other
run equally often (once for an even count of runs, twice for an odd one), and within the
first ``n`` turns (``n - 1`` for odd ``n``) no run follows the same run twice.

Row 0 for n runs is ``0, 1, n-1, 2, n-2, ...``; row i adds i to each entry (mod n); for odd
n each row is followed by its reverse::

    n = 4        n = 3
    0 1 3 2      0 1 2
    1 2 0 3      2 1 0
    2 3 1 0      1 2 0
    3 0 2 1      0 2 1
                 2 0 1
                 1 0 2

>>> williams_rows(4)
((0, 1, 3, 2), (1, 2, 0, 3), (2, 3, 1, 0), (3, 0, 2, 1))
>>> turn_order(["a", "b", "c", "d"], 1)
['b', 'c', 'a', 'd']
"""

from __future__ import annotations

import functools

from swizzlekit.errors import SwizzleKitError, check_int

__all__ = ["williams_rows", "turn_order", "MAX_RUNS"]

#: The most runs one design orders (far more than any timing interleaves).
MAX_RUNS = 4096


def williams_rows(n: int) -> tuple[tuple[int, ...], ...]:
    """The rows of a Williams design for ``n`` runs: ``n`` rows for even ``n``, ``2n`` for
    odd ``n`` (each row followed by its reverse), each a permutation of ``range(n)``."""
    return _rows(check_int("n", n, 1, MAX_RUNS))


@functools.lru_cache(maxsize=64)
def _rows(n: int) -> tuple[tuple[int, ...], ...]:
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    rows = []
    for i in range(n):
        row = tuple((x + i) % n for x in first)
        rows += [row] if n % 2 == 0 else [row, row[::-1]]
    return tuple(rows)


def turn_order(items, turn: int) -> list:
    """``items`` in the order of turn ``turn`` (0, 1, ...; the design repeats after its last
    row) of :func:`williams_rows` for ``len(items)`` runs."""
    if isinstance(items, (str, bytes, dict)) or not hasattr(items, "__len__"):
        raise SwizzleKitError(f"items must be a list or tuple of runs, got {items!r}")
    items = list(items)
    if not items:
        raise SwizzleKitError("items must hold at least one run")
    turn = check_int("turn", turn, 0)
    rows = williams_rows(len(items))
    return [items[i] for i in rows[turn % len(rows)]]
