"""How long the solver takes: the benchmark behind docs/smem.md's "Size and time" (a
benchmark, not a timed test: ``swizzlekit smem bench``).

Every tile is solved cold (the solver's caches cleared before each run), ``repeats`` times;
the median and the slowest run are reported against the goal for that tile: 0.1 s for the
seed cases, 1 s for every other tile up to 256x256.

>>> rows = run([BENCH[-1]], repeats=1)
>>> rows[0]["tile"], rows[0]["goal_s"], rows[0]["wavefronts"] == rows[0]["lower_bound"]
('16x9 16 B', 0.1, True)
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from swizzlekit.errors import check_int
from swizzlekit.smem import screen, search, solver
from swizzlekit.smem.cases import CASES

__all__ = ["Bench", "BENCH", "run", "SEED_GOAL_S", "TILE_GOAL_S"]

SEED_GOAL_S = 0.1
TILE_GOAL_S = 1.0


@dataclass(frozen=True)
class Bench:
    """One timed problem: the arguments of :func:`~swizzlekit.smem.solve`."""

    rows: int
    cols: int
    elem_bytes: int
    accesses: tuple[str, ...] = ()
    read: str | None = None
    write: str | None = None
    seed: bool = False

    @property
    def goal_s(self) -> float:
        return SEED_GOAL_S if self.seed else TILE_GOAL_S

    def solve(self):
        return solver.solve(self.rows, self.cols, self.elem_bytes, list(self.accesses),
                            read=self.read, write=self.write)


#: The largest tiles of each family, the instruction choices, and the seed cases (seeds 004
#: and 002, and the non-power-of-two cases of algebraic-layouts, last).
BENCH: tuple[Bench, ...] = (
    Bench(256, 256, 2, ("row", "col", "block:8x8")),
    Bench(256, 256, 1, ("row", "col")),
    Bench(256, 256, 4, ("row", "col", "block:4x8")),
    Bench(256, 256, 16, ("row", "col")),
    Bench(128, 128, 2, ("row", "col", "block:8x8")),
    Bench(250, 256, 2, ("row", "col")),
    Bench(250, 256, 1, ("row", "col")),
    Bench(200, 256, 2, ("row", "col", "block:8x8")),
    Bench(136, 128, 2, ("row", "col", "block:8x8")),
    Bench(256, 255, 4, ("col", "block:8x4")),
    Bench(255, 256, 2, ("col", "block:8x8")),
    Bench(256, 250, 2, ("col", "block:8x8")),
    Bench(256, 256, 2, read="auto", write="auto"),
    Bench(256, 256, 4, ("row", "col"), read="auto", write="auto"),
    Bench(128, 128, 1, ("row", "col"), read="auto", write="auto"),
    Bench(48, 32, 4, ("row", "col"), read="auto", write="auto"),
    Bench(128, 64, 1, ("col", "block:4x32:stride=3x1")),
    Bench(256, 256, 4, read="auto:col", write="auto:col"),
    Bench(256, 256, 2, read="ldmatrix.x4", write="tma"),
    Bench(200, 256, 1, read="auto:col", write="cp.async:row"),
    *(Bench(c.rows, c.cols, c.elem_bytes, c.accesses, seed=True) for c in CASES),
    Bench(24, 4, 16, ("col", "block:2x4", "block:4x2"), seed=True),
    Bench(16, 5, 16, ("block:4x2",), seed=True),
    Bench(16, 9, 16, ("block:4x2",), seed=True),
    Bench(16, 9, 16, ("block:2x4",), seed=True),
)


def clear_caches() -> None:
    """Forget every solved tile and candidate list, so the next solve runs cold."""
    solver._solve.cache_clear()
    search.cute_candidates.cache_clear()
    search.forbidden_candidates.cache_clear()
    for cached in (screen._spec_parts, screen._candidates, screen._keeps, screen._spec_costs):
        cached.cache_clear()


def run(benches=BENCH, repeats: int = 3) -> list[dict]:
    """Each problem solved cold ``repeats`` times: its answer, median and slowest time."""
    repeats = check_int("repeats", repeats, 1, 20)
    out = []
    for b in benches:
        times = []
        for _ in range(repeats):
            clear_caches()
            start = time.perf_counter()
            sol = b.solve()
            times.append(time.perf_counter() - start)
        what = ", ".join(b.accesses) or f"read {b.read}, write {b.write}"
        out.append({"tile": f"{b.rows}x{b.cols} {b.elem_bytes} B", "accesses": what,
                    "family": sol.family, "wavefronts": sol.wavefronts,
                    "lower_bound": sol.lower_bound, "storage": sol.storage,
                    "instructions": dict(sol.instructions) or None,
                    "median_s": statistics.median(times), "slowest_s": max(times),
                    "goal_s": b.goal_s, "met": max(times) < b.goal_s})
    return out
