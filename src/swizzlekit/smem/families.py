"""The solver's families, tried in order of preference on one problem (checked arguments,
footprints fixed): :func:`_solve`, cached, and the stacked layouts it builds from its own
answers for power-of-two parts. The order and the bound are described in
:mod:`swizzlekit.smem.solver`; each family lives in its own module (``search``,
``exhaustive``, ``generic``, ``rows``, ``rowxor``, ``permuted``), and this one runs them
against one budget.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem.access import WAVEFRONT_BYTES, AccessSpec
from swizzlekit.smem.analyze import analyze, placement_index, set_costs
from swizzlekit.smem.core import Core, Translates
from swizzlekit.smem.exhaustive import exhaustive_search
from swizzlekit.smem.generic import generic_swizzle
from swizzlekit.smem.layouts import (LinearLayout, RowMajor, Swizzled, TileLayout, check_tile,
                                     is_pow2, log2)
from swizzlekit.smem.permuted import PERMUTED_MAX_ELEMENTS, Permuted, split_start
from swizzlekit.smem.permuted import search as permuted_search
from swizzlekit.smem.rows import interleavings
from swizzlekit.smem.rowxor import search as row_xor_search
from swizzlekit.smem.screen import (FAMILIES, keeps_vectors, linear_map, screen, tma_layouts,
                                    universal_bound, xor_cols_layouts)
from swizzlekit.smem.search import (cute_candidates, forbidden_candidates, transvection_search,
                                    xor_search)
from swizzlekit.smem.solution import Solution

__all__ = ["ROW_XOR_MAX_ELEMENTS", "ROW_XOR_WORK", "ROW_XOR_CALL", "row_xor_evals",
           "PERMUTED_BUDGET_S", "SOLVE_BUDGET_S"]

#: The row-XOR search (:func:`swizzlekit.smem.rowxor.search`) runs on tiles of up to this many
#: elements: each of its steps costs the whole tile, and larger tiles would leave the solver's
#: one-second budget.
ROW_XOR_MAX_ELEMENTS = 8192
#: The work the row-XOR forms share (plain, transposed, strided rows gathered), counted, not
#: timed, so that a solve takes the same path on any machine: each call of the cost takes
#: ``ROW_XOR_CALL`` plus the tile's elements. On a 2-core machine of 2026 a call took
#: 100 us + 0.037 us an element (15 searches over 12 problems, 512 to 8192 elements, fitted
#: by least squares; docs/data/smem_rowxor_calls/), so this is the 0.3 s the forms shared
#: when they were timed.
ROW_XOR_WORK, ROW_XOR_CALL = 8_100_000, 2_700


def row_xor_evals(rows: int, cols: int) -> int:
    """The calls of the cost that the row-XOR forms share on a ``rows`` x ``cols`` tile.

    >>> row_xor_evals(64, 32), row_xor_evals(128, 64)
    (1705, 743)
    """
    rows, cols = check_tile("row_xor_evals", rows, cols)
    return ROW_XOR_WORK // (ROW_XOR_CALL + rows * cols)


#: Seconds for the local search over any bijection (:mod:`~swizzlekit.smem.permuted`), at most,
#: and within what is left of ``SOLVE_BUDGET_S`` since the solve began (at least 0.05).
PERMUTED_BUDGET_S = 0.7
SOLVE_BUDGET_S = 0.9


@functools.lru_cache(maxsize=256)
def _solve(rows: int, cols: int, elem_bytes: int, specs: tuple[AccessSpec, ...],
           max_pad: int | None, tma_only: bool = False, vector: int = 1,
           row_xor: bool = True, searches: bool = True) -> Solution:
    """:func:`~swizzlekit.smem.solver.solve` on checked arguments, cached (a stacked layout
    solves the same power-of-two parts for each way of stacking them; the permuted search is
    bounded by time, so a first answer is kept, not recomputed).
    ``tma_only``: the layouts a TMA write can make (row-major, or one of its swizzle modes).
    Only layouts that keep every aligned group of ``keep`` columns contiguous and aligned
    are taken, ``keep`` being the widest vector of ``vector`` and the specs' ``vec``: a
    16-byte load needs its 16 bytes whole. ``row_xor``: search the row XORs and the permuted
    tables too (not for the parts of a stacked layout, nor while ``auto`` screens its pairs:
    their searches would add up past the time budget). ``searches``: run the GF(2) searches
    (the XOR search and the local search over invertible maps); ``auto`` screens its
    instruction pairs without them and runs them on the pair it chooses."""
    began = time.perf_counter()
    keep = _keep(specs, vector)
    placements = [p for s in specs for p in s.placements(rows, cols, elem_bytes)]
    idx = placement_index(placements, cols)
    bound = universal_bound(idx, elem_bytes, keep if cols % keep == 0 else 1)
    searched = 0
    # (cost, storage, family rank, layout, family): fewest wavefronts, then least shared
    # memory, then the simpler family
    best: tuple[int, int, int, TileLayout, str] | None = None

    pow2 = is_pow2(rows) and is_pow2(cols)
    exhaustive_linear = 0                 # classes searched when every linear map was tried
    permuted = False                      # whether the local search over bijections ran
    core = Core.of([p[:, 0] * cols + p[:, 1] for p in placements])

    def consider(layout: TileLayout, family: str, cost: int | None = None,
                 storage: int | None = None) -> bool:
        nonlocal best, searched
        searched += 1
        if keep > 1 and not keeps_vectors(layout, keep):
            return False                 # a vector instruction could not move this layout
        if storage is None:                              # else costed by the caller
            linear = linear_map(layout)
            if linear is not None:                       # a bijection onto rows * cols
                cost = core.cost(linear, elem_bytes) if cost is None else cost
                storage = rows * cols
            else:
                off = layout.offsets()
                cost = int(set_costs(off, idx, elem_bytes)[0].sum())
                storage = int(off.max()) + 1
        key = (cost, storage, FAMILIES.index(family))
        if best is None or key < best[:3]:
            best = (*key, layout, family)
        return cost == bound

    def done(how: str) -> Solution:
        if best is None:
            raise SwizzleKitError(
                f"no layout searched keeps {keep}-element vectors whole and aligned in a "
                f"{rows}x{cols} tile; pad the rows to a multiple of {keep} (max_pad >= "
                f"{-cols % keep})")
        layout, family = best[3], best[4]
        result = analyze(layout, specs, elem_bytes)
        whole = keep > 1 and elem_bytes < 4 and cols % keep == 0
        which = f"that keeps {keep}-element vectors whole " if whole else ""
        if result.total == bound:
            counted = ("the 4-byte words (or whole vectors) their elements lie in" if whole
                       else "their bytes")
            proof = (f"optimal: all {len(idx)} placements move {counted} in the fewest "
                     f"wavefronts any layout {which}can (ceil(bytes / 128) each, {bound} in "
                     f"all)")
        elif result.conflict_free:
            proof = (f"conflict-free, best found: {result.total} wavefronts; any layout "
                     f"{which}needs at least {bound} (gap {result.total - bound}), and one "
                     f"packing the accessed {elem_bytes}-byte elements into fewer 4-byte words "
                     f"might need fewer; {how}")
        else:
            proof = (f"not conflict-free, best found: {result.total} wavefronts against a "
                     f"lower bound of {bound} for any layout {which}(gap "
                     f"{result.total - bound}); {how}")
        return Solution(layout, family, result, bound, proof, searched)

    if consider(RowMajor(rows, cols), "row-major"):
        return done("")
    if tma_only:
        for layout in tma_layouts(rows, cols, elem_bytes):
            if consider(layout, "tma"):
                return done("")
        return done(f"the best of {searched} layouts a TMA write can make (row-major and "
                    f"the swizzle modes)")
    if cols % keep:
        pow2 = False              # the bit swizzles would cut a vector at a row's end
    if pow2:
        n = log2(rows * cols)
        for family, functors in (("cute", cute_candidates(n)),
                                 ("xor", forbidden_candidates(n))):
            # each family costed in one vectorized count, then taken in preference order
            for functor, cost in zip(functors, core.costs(functors, elem_bytes)):
                if consider(Swizzled(rows, cols, functor), family, int(cost)):
                    return done("")
            if family == "cute":
                for layout in tma_layouts(rows, cols, elem_bytes):
                    if consider(layout, "tma"):
                        return done("")
        if searches and core.bases:
            # Triton's generic swizzling on every pair of the accesses' subspaces
            generic = [lin for a, b in itertools.product(core.bases, repeat=2)
                       if (lin := generic_swizzle(n, elem_bytes, keep, a, b)) is not None]
            for lin, cost in zip(generic, core.costs(generic, elem_bytes)):
                if consider(Swizzled(rows, cols, lin), "generic", int(cost)):
                    return done("")
        every_map = exhaustive_search(n, elem_bytes, keep, core) if searches else None
        if every_map is not None:
            # every invertible map (one per pair of subspaces that decides its cost): no
            # other linear layout can do better, so the searches below have nothing to add
            lin, _, tried = every_map
            searched += tried - 1
            exhaustive_linear = tried
            if consider(Swizzled(rows, cols, lin), "xor"):
                return done("")
        if core.all_cosets and searches and every_map is None:
            # placements with the same subspace cost the same under a linear layout
            found = xor_search(n, elem_bytes, list(zip(core.bases, core.weights.tolist())))
            if found is not None:
                lin, _, tried = found
                searched += tried - 1
                if consider(Swizzled(rows, cols, lin), "xor"):
                    return done("")
        if searches and every_map is None:
            start = best[3].linear() if best is not None else None
            lin, tried = transvection_search(n, core, elem_bytes, bound,
                                             start.bases if start is not None else None)
            searched += tried
            if consider(Swizzled(rows, cols, LinearLayout(lin)), "xor"):
                return done("")
    n_elems = WAVEFRONT_BYTES // min(elem_bytes, WAVEFRONT_BYTES)
    inners: list[TileLayout] = [RowMajor(rows, cols)]      # under the interleavings below
    xor_cols = xor_cols_layouts(rows, cols, elem_bytes)
    maps = [linear_map(layout) for layout in xor_cols]
    # linear (power-of-two rows): every one costed in one vectorized count
    costs = (core.costs(maps, elem_bytes).tolist() if all(m is not None for m in maps)
             else [None] * len(xor_cols))
    for layout, cost in zip(xor_cols, costs):
        before = best
        if consider(layout, "xor-cols", cost):
            return done("")
        if best is not before:
            inners = [layout]                  # the best coordinate XOR replaces row-major
    if not is_pow2(rows) and is_pow2(cols) and rows > 1:
        for parts in _stackings(rows):
            layout = _stacked(parts, cols, elem_bytes, specs, max_pad, keep, searches)
            if layout is not None and consider(layout, "stacked"):
                return done("")
    if not pow2:
        for layout in tma_layouts(rows, cols, elem_bytes):
            if consider(layout, "tma"):
                return done("")
        # k rows as one: the rows stored round-robin, over the best column XOR (row-major
        # when none beats it)
        for layout in interleavings(rows, inners):
            if consider(layout, "interleaved"):
                return done("")
    # the column XORed with any function of the row (or, for whole elements, of the column on
    # the transposed tile): masks found by coordinate descent, each step costed exactly
    def cost_of(layout: TileLayout) -> int:
        return int(set_costs(layout.offsets(), idx, elem_bytes)[0].sum())

    if row_xor and rows * cols <= ROW_XOR_MAX_ELEMENTS:
        forms = [(False, (1, 1))] + ([(True, (1, 1))] if keep == 1 else [])
        if keep == 1 and elem_bytes < 4:
            # a block whose rows are strided: its rows gathered into shared words
            forms += sorted({(True, (s.rows, s.row_stride)) for s in specs
                             if s.kind == "block" and s.row_stride > 1 and s.rows > 1
                             and s.rows * s.row_stride <= rows})
        left = row_xor_evals(rows, cols)
        for i, (transposed, gather) in enumerate(forms):
            unit = 4 // elem_bytes if transposed and elem_bytes < 4 else 1
            found = row_xor_search(rows, cols, cost_of, keep, transposed,
                                   evals=max(1, left // (len(forms) - i)), gather=gather,
                                   unit=unit)
            if found is None:
                continue
            left -= found[2]
            if consider(found[0], "row-xor", found[1], rows * cols):
                return done("")
    if row_xor and rows * cols <= PERMUTED_MAX_ELEMENTS and (best is None or best[0] > bound):
        # any bijection: a seeded local search from the best bijection found so far
        seed = best[3] if best is not None and best[1] == rows * cols else RowMajor(rows, cols)
        start = (seed.offsets() if keeps_vectors(seed, keep)
                 else split_start(rows, cols, keep))     # whole vectors first, then the rest
        if keeps_vectors(Permuted(rows, cols, tuple(start.reshape(-1).tolist())), keep):
            budget = min(PERMUTED_BUDGET_S, max(0.05, SOLVE_BUDGET_S - (time.perf_counter()
                                                                        - began)))
            found = permuted_search(start, idx, elem_bytes, keep, cols, bound,
                                    budget_s=budget)
            permuted = found is not None
            if found is not None and (best is None or found[1] < best[0]):
                if consider(Permuted(rows, cols, tuple(found[0].tolist())), "permuted",
                            found[1], rows * cols):
                    return done("")
    pads = n_elems if max_pad is None else max_pad
    shapes = Translates.of(placements, cols)
    for pad in range(1, pads + 1):
        # storage: the last row starts at (rows - 1) * (cols + pad) and holds cols elements
        if consider(RowMajor(rows, cols, pad), "padded",
                    shapes.cost(cols + pad, cols, elem_bytes),
                    (rows - 1) * (cols + pad) + cols):
            return done("")
    linear_forms = (f"every invertible GF(2) map (all {exhaustive_linear} classes of equal "
                    f"cost)" if exhaustive_linear else
                    "every CuTe swizzle and TMA mode, Triton's generic swizzling, the XOR "
                    "layouts described above, a local search over all invertible GF(2) maps")
    searched_forms = (f"{linear_forms}, coordinate XORs, row XORs"
                      if pow2 else
                      "TMA modes, coordinate XORs, row XORs, stacked power-of-two solutions, "
                      "interleaved rows" if is_pow2(cols) else
                      "TMA modes, coordinate XORs, row XORs, interleaved rows")
    if permuted:
        searched_forms += ", a local search over every bijection onto the tile"
    return done(f"the best of {searched} candidates: {searched_forms} and padding up to "
                f"{pads} elements")


def _keep(specs: Sequence[AccessSpec], vector: int) -> int:
    """Elements each vector moves, the widest of ``vector`` and the specs' ``vec``."""
    return max([vector] + [s.vec for s in specs])


def _stackings(rows: int) -> list[list[int]]:
    """Row counts of the parts: periodic (largest power of two, repeated, then the rest by
    binary digits) and by binary digits alone; 24 -> [[16, 8]] (both the same), 40 ->
    [[32, 8]], 48 -> [[32, 16]], 3 -> [[2, 1]]."""
    def digits(n: int) -> list[int]:
        return [1 << b for b in range(n.bit_length() - 1, -1, -1) if n >> b & 1]

    period = 1 << (rows.bit_length() - 1)
    periodic = [period] * (rows // period) + digits(rows % period)
    out = [periodic]
    if digits(rows) != periodic:
        out.append(digits(rows))
    half = period // 2
    if half >= 2:                                  # a smaller period: 24 -> 8, 8, 8
        out.append([half] * (rows // half) + digits(rows % half))
    return out


def _stacked(parts: list[int], cols: int, elem_bytes: int, specs, max_pad, keep: int,
             searches: bool = True):
    """The stacked layout of the solver's answers for each part (None if one is not
    possible: an access that does not fit a part's rows); ``searches`` as in
    :func:`_solve`."""
    from swizzlekit.smem.layouts import Stacked

    solved: dict[int, TileLayout] = {}
    for n in set(parts):
        fitting = [s for s in specs if _fits(s, n, cols, elem_bytes)]
        if not fitting:
            solved[n] = RowMajor(n, cols)
            continue
        found = None if searches else screen(n, cols, elem_bytes, tuple(fitting), keep=keep,
                                               tma_only=False, max_pad=max_pad)
        if found is not None:            # the same layout, from costs kept per access
            solved[n] = found[2]
            continue
        try:
            solved[n] = _solve(n, cols, elem_bytes, tuple(fitting), max_pad, False,
                               keep, row_xor=False, searches=searches).layout
        except SwizzleKitError:
            return None
    return Stacked(tuple(solved[n] for n in parts))


def _fits(spec: AccessSpec, rows: int, cols: int, elem_bytes: int) -> bool:
    """Whether ``spec`` has a placement in a ``rows x cols`` part of a stacked tile."""
    try:
        return bool(spec.placements(rows, cols, elem_bytes))
    except SwizzleKitError:            # too few rows or columns for one instruction
        return False
