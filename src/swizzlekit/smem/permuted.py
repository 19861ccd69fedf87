"""Permuted layouts: any bijection of a small tile onto its own storage, found by a seeded
local search from the best layout of the other families, and emitted as a table packed into
integer constants.

Tiles of odd widths (3, 5, 6 or 10 columns of 16-byte elements, say) have no bit swizzle and
no row XOR that stays inside a row; a strided block there can land twice on one bank under
every closed form the solver knows. The search swaps elements (whole vectors where the
instructions move vectors): short warm spells between plateau walks first, then rounds of
simulated annealing that each start from the best bijection found. Its schedule counts swaps,
so a seed takes the same path on any machine, but the search is bounded by time, so a slower
machine may stop short of an answer a faster one finds::

    4x5 tile of 16 B, block:4x2:stride=1x2    row-major: 5 wavefronts    permuted: 3 (the bound)

The emitted form reads offset bit ``j`` of element ``i = r * cols + c`` out of one constant
per bit and chunk of 62 elements: ``(K_j >> (i % 62)) & 1``, summed over the bits.

>>> lay = Permuted(2, 3, (0, 2, 4, 1, 3, 5))
>>> int(lay(1, 2)), permuted_expression(lay, "r", "c").count(">>")
(5, 3)
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_int
from swizzlekit.smem.layouts import TileLayout, check_tile
from swizzlekit.smem.ledger import Ledger

__all__ = ["Permuted", "permuted_expression", "search", "units", "split_start",
           "PERMUTED_MAX_ELEMENTS", "CHUNK", "ROUND_STEPS", "HOT", "COLD", "WALK_STEPS",
           "SPELLS", "CYCLE_STEPS", "WARM", "AIMED"]

#: The local search runs on tiles of up to this many elements.
PERMUTED_MAX_ELEMENTS = 512
#: Elements per packed constant in the emitted form.
CHUNK = 62
#: The search runs in rounds, each from the best bijection found: ROUND_STEPS swaps of
#: simulated annealing, the temperature (in wavefronts) falling geometrically from HOT to COLD,
#: then WALK_STEPS swaps that never raise the cost (a walk on the plateau). Without the walk,
#: rounds of annealing alone closed less than half as much of the gap to the adversary's
#: cases (docs/data/smem_adversary/).
ROUND_STEPS = 6000
HOT, COLD = 2.0, 0.05
WALK_STEPS = 42000
#: Before the rounds, SPELLS cycles of CYCLE_STEPS swaps: a warm spell (temperature 0.3, the
#: first WARM of the cycle), then a plateau walk (0.02). They reach the bound quickly where it
#: can be reached (10x5 of 16-byte elements, three block reads: 28, the bound, within a few
#: thousand swaps, where the rounds alone took up to all of the budget and stopped at 33).
#: Every schedule counts swaps, not seconds, so a seed's path is the same on any machine; the
#: budget only cuts it short. A 2-core machine of 2026 runs 100,000-110,000 swaps a second.
SPELLS, CYCLE_STEPS, WARM = 2, 10000, 0.35
#: The share of swaps aimed at a conflict: their first unit is an element of the most crowded
#: bank group of a placement whose cost is above its ideal. Aimed swaps reached the bound
#: on 64x5 of 8-byte elements (two block reads: 64) in under a second, where random swaps
#: alone stopped at 76-78 after three (docs/data/smem_adversary/).
AIMED = 0.5


@dataclass(frozen=True)
class Permuted(TileLayout):
    """``(r, c) -> table[r * cols + c]``: a bijection of the tile onto ``0 .. rows*cols-1``."""

    rows: int
    cols: int
    table: tuple

    def __post_init__(self) -> None:
        self._check_shape()
        if not isinstance(self.table, (tuple, list)) or len(self.table) != self.rows * self.cols:
            raise SwizzleKitError(f"Permuted: table must hold {self.rows * self.cols} offsets, "
                                  f"one per element of the {self.rows}x{self.cols} tile")
        table = tuple(int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                      else -1 for v in self.table)
        if sorted(table) != list(range(len(table))):
            raise SwizzleKitError(f"Permuted: the table must be a permutation of "
                                  f"0..{len(table) - 1} (each offset once)")
        object.__setattr__(self, "table", table)

    def __call__(self, r, c):
        return np.asarray(self.table, dtype=np.int64)[np.asarray(r) * self.cols + np.asarray(c)]

    def __str__(self) -> str:
        return (f"(r, c) -> T[r*{self.cols} + c], a table of {len(self.table)} offsets: "
                f"{list(self.table)[:8]}{' ...' if len(self.table) > 8 else ''}")


def permuted_expression(layout: Permuted, r: str, c: str) -> str:
    """The offset as a C/Python integer expression: each offset bit read out of a constant per
    chunk of :data:`CHUNK` elements, the chunk selected by a 0/1 product."""
    i = f"(({r}) * {layout.cols} + ({c}))"
    bits = max(1, (len(layout.table) - 1).bit_length())
    chunks = []
    for k in range(0, len(layout.table), CHUNK):
        part = layout.table[k:k + CHUNK]
        shift = f"({i} % {CHUNK})" if len(layout.table) > CHUNK else i
        terms = []
        for j in range(bits):
            const = sum(((v >> j) & 1) << e for e, v in enumerate(part))
            if const:
                terms.append(f"(((({const}) >> {shift}) & 1) << {j})")
        value = "(" + " + ".join(terms) + ")" if terms else "0"
        if len(layout.table) > CHUNK:
            value = f"(({i} // {CHUNK} == {k // CHUNK}) * {value})"
        chunks.append(value)
    return "(" + " + ".join(chunks) + ")"


def units(rows: int, cols: int, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """The tile's movable units as row-major element indices: every aligned ``keep``-element
    vector of a row, and the tail past a row's last whole vector (where ``keep`` does not
    divide the row) in aligned pieces of the largest power of two that divides it, so that a
    lane's shorter vector there stays whole too.

    >>> [u.shape for u in units(2, 12, 8)]
    [(2, 8), (2, 4)]
    """
    rows, cols = check_tile("units", rows, cols)
    keep = check_int("keep", keep, 1, cols)
    whole = cols // keep * keep
    tail = cols - whole
    piece = tail & -tail if tail else 1
    r = np.arange(rows)[:, None]
    vectors = (r * cols + np.arange(whole)[None, :]).reshape(-1, keep) if whole else \
        np.zeros((0, keep), dtype=np.int64)
    tails = (r * cols + np.arange(whole, cols)[None, :]).reshape(-1, piece) if tail else \
        np.zeros((0, piece), dtype=np.int64)
    return vectors.astype(np.int64), tails.astype(np.int64)


def split_start(rows: int, cols: int, keep: int) -> np.ndarray:
    """Row-major offsets of a bijection that keeps whole vectors aligned when ``keep`` does
    not divide the row: every whole vector first, in order, then every tail piece.

    >>> split_start(1, 6, 4).tolist()       # vector 0..3, then the tail piece 4..5
    [0, 1, 2, 3, 4, 5]
    """
    vectors, tails = units(rows, cols, keep)         # checks the tile and keep
    out = np.empty(rows * cols, dtype=np.int64)
    out[vectors.reshape(-1)] = np.arange(vectors.size)
    out[tails.reshape(-1)] = vectors.size + np.arange(tails.size)
    return out


def search(start: np.ndarray, idx: np.ndarray, elem_bytes: int, keep: int, cols: int,
           bound: int, budget_s: float = 0.2, seed: int = 0x5EED
           ) -> tuple[np.ndarray, int] | None:
    """A seeded local search over bijections, from ``start`` (row-major offsets of a
    bijection onto the tile's storage that keeps vectors whole): swap the offsets of two
    units of one kind (:func:`units`: whole vectors, or single tail elements), kept when the
    cost does not grow, or else with probability exp(-growth / T): first :data:`SPELLS`
    cycles of warm spells and plateau walks, then rounds of simulated annealing
    (:data:`ROUND_STEPS` swaps, T falling from :data:`HOT` to :data:`COLD`), each followed by
    :data:`WALK_STEPS` swaps that never raise the cost and each starting from the best
    bijection found, for ``budget_s``. A share :data:`AIMED` of the swaps moves a unit out of
    the most crowded bank group of a placement above its ideal; the rest pick both units at
    random. Each step recosts only the placements the swap touches (:class:`.Ledger`).
    Stops at ``bound``; returns the best offsets and their cost, or None when nothing can
    move."""
    n = start.size
    vectors, tails = units(n // cols, cols, keep)
    pools = [p.tolist() for p in (vectors, tails) if len(p) >= 2]
    if not pools:
        return None
    rng = np.random.default_rng(seed)
    unit_of: list = [None] * n                    # element -> (pool, unit), None: cannot move
    for k, pool in enumerate(pools):
        for u, members in enumerate(pool):
            for e in members:
                unit_of[e] = (k, u)
    weights = np.array([len(p) for p in pools], dtype=float)
    weights /= weights.sum()
    led = Ledger(start.reshape(-1), idx, elem_bytes)
    best, best_cost = list(led.off), led.total
    t0 = time.perf_counter()
    batch = 64
    rounds, cool, first = 0, (COLD / HOT) ** (batch / ROUND_STEPS), SPELLS * CYCLE_STEPS
    for step in itertools.count(0, batch):
        if best_cost <= bound or time.perf_counter() - t0 >= budget_s:
            break
        if step < first:                 # first: short warm spells between plateau walks
            heat = 0.3 if step % CYCLE_STEPS < WARM * CYCLE_STEPS else 0.02
        else:                            # then rounds of annealing, each from the best
            if step - first >= rounds * (ROUND_STEPS + WALK_STEPS):
                heat, rounds = HOT, rounds + 1
                led.reset(best)
            heat = heat * cool if heat > COLD else 1e-9    # then a walk on the plateau
        which = rng.choice(len(pools), batch, p=weights).tolist()
        draws = rng.random((batch, 5)).tolist()
        hot = led.hot()
        off = led.off
        for k, (x, y, z, aim, w) in zip(which, draws):
            pool = pools[k]
            a = int(x * len(pool))
            if aim < AIMED and hot:      # a unit out of a crowded group of a hot placement
                t = hot[int(w * len(hot))]
                if led.over(t):          # it may have settled to its ideal since
                    crowded = led.crowded(t)
                    moved = unit_of[crowded[int(x * len(crowded))]]
                    if moved is not None:
                        k, a = moved
                        pool = pools[k]
            b = int(y * (len(pool) - 1))
            b += b >= a                                     # two distinct units
            pa, pb = pool[a], pool[b]
            touched = led.move(_swap(off, pa, pb))
            if not touched:             # in no placement: kept, as a move of no cost
                continue
            new = {t: led.cost(t) for t in touched}
            delta = sum(v - led.per[t] for t, v in new.items())
            if delta <= 0 or z < math.exp(-delta / heat):
                led.settle(new)
                if led.total < best_cost:
                    best, best_cost = list(off), led.total
            else:                                           # undo the swap
                led.move(_swap(off, pa, pb))
    return np.array(best, dtype=np.int64), best_cost


def _swap(off: list, pa: list, pb: list) -> list:
    """The moves that exchange the offsets of units ``pa`` and ``pb`` (element lists of one
    length), pairwise; made twice, they undo themselves."""
    return ([(ea, off[eb]) for ea, eb in zip(pa, pb)]
            + [(eb, off[ea]) for ea, eb in zip(pa, pb)])
