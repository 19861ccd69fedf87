"""Solver: a layout under which every requested access is conflict-free, or the best there is.

Candidates are tried in the order of preference, each costed exactly by the analyzer:

1. row-major, then every CuTe ``Swizzle<B,M,S>`` over the row-major offset (power-of-two
   tiles), fewest bits first;
2. general XOR layouts: first CuTe's own formula with the overlap CuTe forbids
   (``|S| < B``, seed 004's ``Swizzle<3,0,2>``); then, on small tiles (always up to 64
   elements), every invertible GF(2) map, one per pair of subspaces that decides its cost
   (:mod:`~swizzlekit.smem.exhaustive`); elsewhere any GF(2) map that XORs the higher offset
   bits into the bank bits, searched exhaustively when there are at most 2**16 such maps,
   costed by a rank count over each access's subspace, and a local search over all maps;
3. coordinate XOR ``r*ld + (c ^ f(r))``, for rows of any length;
4. for a row count that is not a power of two (power-of-two columns): the power-of-two
   solutions stacked, either periodically (the largest power of two that fits, repeated, and
   the rest) or by the row count's binary digits (24 = 16 + 8), each part stored compactly
   after the one before (:class:`~swizzlekit.smem.layouts.Stacked`);
5. TMA modes and interleaved rows (:mod:`~swizzlekit.smem.rows`);
6. row XORs: the column XORed with any function of the row, linear in its bits or of a short
   period, on the tile or its transpose (:mod:`~swizzlekit.smem.rowxor`; tiles of up to
   :data:`ROW_XOR_MAX_ELEMENTS` elements);
7. padding.

The lower bound holds for every layout: a placement that reads ``n`` elements moves
``n * elem_bytes`` bytes, and one wavefront moves at most 128, so it takes at least
``ceil(n * elem_bytes / 128)`` wavefronts. An answer that meets it is *optimal*, and the proof
says so. A *conflict-free* answer (no placement takes more wavefronts than the 4-byte words it
touches need) is optimal too for elements of 4 bytes or more; for 1- and 2-byte elements a
layout that packs the accessed elements into fewer words can do better, so there the answer is
the best found, with the bound and the families searched.

>>> sol = solve(8, 8, 16, ["row", "col"])
>>> print(sol.layout), sol.conflict_free
Swizzle<3,0,3> o (8,8):(8,1)
(None, True)
>>> print(solve(8, 24, 16, ["row", "col"]).layout)
(r, c) -> r*24 + (c ^ (r & 7))
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass


from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.smem.access import WAVEFRONT_BYTES, AccessSpec, access_list
from swizzlekit.smem.analyze import Analysis, analyze, placement_index, set_costs
from swizzlekit.smem.core import Core, Translates
from swizzlekit.smem.exhaustive import exhaustive_search
from swizzlekit.smem.generic import generic_swizzle
from swizzlekit.smem.instructions import choices
from swizzlekit.smem.search import (EXHAUSTIVE_LIMIT, cute_candidates, forbidden_candidates,
                                    transvection_search, xor_search)
from swizzlekit.smem.layouts import (TMA_MODES, LinearLayout, RowMajor, Swizzle, Swizzled,
                                     TileLayout, TmaSwizzle, is_pow2, log2)
from swizzlekit.smem.rows import interleavings
from swizzlekit.smem.permuted import PERMUTED_MAX_ELEMENTS, Permuted, split_start
from swizzlekit.smem.permuted import search as permuted_search
from swizzlekit.smem.rowxor import search as row_xor_search
from swizzlekit.smem.screen import (FAMILIES, keeps_vectors, linear_map, screen, spec_bound,
                                    tma_layouts, universal_bound, xor_cols_layouts)

__all__ = ["Solution", "solve", "universal_bound", "FAMILIES", "EXHAUSTIVE_LIMIT",
           "MAX_ELEMENTS"]

#: The row-XOR search (:func:`swizzlekit.smem.rowxor.search`) runs on tiles of up to this many
#: elements: each of its steps costs the whole tile, and larger tiles would leave the solver's
#: one-second budget.
ROW_XOR_MAX_ELEMENTS = 8192
#: Seconds the row-XOR forms share (plain, transposed, strided rows gathered).
ROW_XOR_BUDGET_S = 0.3
#: Seconds for the local search over any bijection (:mod:`~swizzlekit.smem.permuted`), at most,
#: and within what is left of ``SOLVE_BUDGET_S`` since the solve began (at least 0.05).
PERMUTED_BUDGET_S = 0.7
SOLVE_BUDGET_S = 0.9


@dataclass(frozen=True)
class Solution:
    """The chosen layout, how it was found, and why it is the best."""

    layout: TileLayout
    family: str
    analysis: Analysis
    lower_bound: int
    proof: str
    searched: int
    #: the chosen instruction of each side, when :func:`solve` was given ``read``/``write``
    instructions: tuple[tuple[str, str], ...] = ()
    #: a TMA swizzle mode that stores the tile with as few wavefronts (the layout itself when
    #: it is one), or None
    tma_equivalent: TmaSwizzle | None = None

    @property
    def conflict_free(self) -> bool:
        return self.analysis.conflict_free

    @property
    def optimal(self) -> bool:
        """True when the wavefronts meet the bound every layout obeys (proven optimal)."""
        return self.analysis.total == self.lower_bound

    @property
    def storage(self) -> int:
        """Elements of shared memory the layout spans (its largest offset plus one)."""
        return int(self.layout.offsets().max()) + 1

    @property
    def wavefronts(self) -> int:
        return self.analysis.total

    @property
    def linear(self) -> LinearLayout | None:
        return self.layout.linear()

    @property
    def cute(self) -> Swizzle | None:
        """The CuTe swizzle over the row-major element offset, when CuTe can express it."""
        lin = self.linear
        return None if lin is None else lin.as_swizzle()

    @property
    def cute_forbidden(self) -> tuple[int, int, int] | None:
        """``(B, M, S)`` when the layout is CuTe's formula with ``|S| < B``, which CuTe rejects."""
        lin = self.linear
        form = None if lin is None else lin.xor_form()
        return form if form is not None and abs(form[2]) < form[0] else None

    @property
    def tma_mode(self) -> int | None:
        """The TMA swizzle mode (32/64/128 bytes) that stores the tile this way, if any."""
        if isinstance(self.layout, TmaSwizzle):
            return self.layout.mode
        sw = self.cute
        eb = self.analysis.elem_bytes
        if sw is None or sw.b == 0 or not is_pow2(eb) or eb > 16:
            return None
        as_bytes = Swizzle(sw.b, sw.m + log2(eb), sw.s)
        row_bytes = self.layout.cols * eb
        for mode, tma in TMA_MODES.items():
            if as_bytes == tma and row_bytes == mode:
                return mode
        return None

    def to_dict(self) -> dict:
        off = self.layout.offsets()
        return {
            "layout": str(self.layout), "family": self.family,
            "shape": [self.layout.rows, self.layout.cols],
            "elem_bytes": self.analysis.elem_bytes,
            "offsets": off.tolist(),
            "cute": None if self.cute is None else str(self.cute),
            "cute_forbidden": None if self.cute_forbidden is None else
            "Swizzle<{},{},{}>".format(*self.cute_forbidden),
            "tma_mode": None if self.tma_mode is None else f"SWIZZLE_{self.tma_mode}B",
            "tma_equivalent": None if self.tma_equivalent is None else str(self.tma_equivalent),
            "linear_bases": None if self.linear is None else list(self.linear.bases),
            "conflict_free": self.conflict_free, "optimal": self.optimal,
            "wavefronts": self.wavefronts, "lower_bound": self.lower_bound,
            "storage": int(off.max()) + 1, "storage_elements": int(off.max()) + 1,
            "instructions": dict(self.instructions) or None,
            "proof": self.proof, "candidates_searched": self.searched,
            "accesses": self.analysis.to_dict()["accesses"],
        }


#: The largest tile (in elements) :func:`solve` takes: 256x256. Linear candidates are costed
#: on the tile's periodic core and padded ones by shape (:mod:`swizzlekit.smem.core`): the
#: cases in docs/smem.md take 0.2-0.7 s on one core.
MAX_ELEMENTS = 256 * 256


def solve(rows: int, cols: int, elem_bytes: int, accesses: Sequence[str | AccessSpec] = (),
          *, read: str | None = None, write: str | None = None,
          max_pad: int | None = None) -> Solution:
    """The layout with the fewest wavefronts found; among equals, the one spanning the least
    shared memory, then the simpler family (:data:`FAMILIES` order). ``accesses`` are
    wavefront footprints (``row``, ``col``, ``block:RxC...``).

    ``read`` and ``write`` name the instructions that move the tile
    (:mod:`swizzlekit.smem.instructions`: ``ld.v4:col``, ``ldmatrix.x4``, ``cp.async:row``,
    ``tma``, ...), or ``auto``: then the pair with the fewest wavefronts in all (reads plus
    writes plus ``accesses``) is chosen with its layout, and named in ``instructions``; among
    equals, the one issuing fewer instructions.

    >>> sol = solve(64, 64, 4, read="auto:col", write="cp.async:row")
    >>> dict(sol.instructions), sol.optimal
    ({'read': 'ld.v4:col', 'write': 'cp.async:row'}, True)
    """
    rows, cols = check_int("rows", rows), check_int("cols", cols)
    check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    if rows * cols > MAX_ELEMENTS:
        raise SwizzleKitError(f"a {rows}x{cols} tile has {rows * cols} elements; the solver "
                              f"answers tiles of at most {MAX_ELEMENTS} elements (256x256)")
    specs = access_list(accesses)
    for side, spec in (("read", read), ("write", write)):
        if spec is not None and not isinstance(spec, str):
            raise SwizzleKitError(f"{side} must name an instruction such as 'ld.v4:row' or "
                                  f"'auto'; got {spec!r}")
    if not (specs or read or write):
        raise SwizzleKitError("accesses must be a list of access specs (row, col, block:RxC), "
                              "or read=/write= must name an instruction; none was given")
    if max_pad is not None:
        max_pad = check_int("max_pad", max_pad, 0, max(cols, WAVEFRONT_BYTES))
    if read is None and write is None:
        sol = _solve(rows, cols, elem_bytes, specs, max_pad)
        return dataclasses.replace(sol, tma_equivalent=_tma_equivalent(sol, specs, 1))
    return _solve_ops(rows, cols, elem_bytes, specs, read, write, max_pad)


def _solve_ops(rows: int, cols: int, elem_bytes: int, specs: tuple[AccessSpec, ...],
               read: str | None, write: str | None, max_pad: int | None) -> Solution:
    """Every pair of the named (or ``auto``) instructions, each solved with its footprints;
    the pair with the fewest wavefronts, then least storage, then fewest instructions."""
    sides = [(side, choices(spec, side, elem_bytes)) for side, spec in
             (("read", read), ("write", write)) if spec is not None]
    pairs, skipped = [], []
    for ops in itertools.product(*(opts for _, opts in sides)):
        try:           # a TMA write moves 128 contiguous bytes of the tile at a time
            footprints = tuple(op.footprint(elem_bytes, rows) or AccessSpec("row")
                               for op in ops)
            # the bound adds over the accesses, each costed once for every pair
            keep = _keep(specs + footprints, max(op.vector(elem_bytes) for op in ops))
            bound = sum(spec_bound(s, rows, cols, elem_bytes, keep)
                        for s in specs + footprints)
        except SwizzleKitError as e:                  # a footprint that does not fit
            skipped.append(f"{'+'.join(map(str, ops))}: {e}")
            continue
        wide = [op for op in ops if op.vector(elem_bytes) > cols]
        if wide:       # a lane's vector must stay inside one row of the tile
            skipped.append(f"{wide[0]} moves {wide[0].vector(elem_bytes)}-element vectors; a "
                           f"row of the {rows}x{cols} tile holds {cols}")
            continue
        tma = any(op.kind == "tma" for op in ops)
        if tma and (cols * elem_bytes) % 16:
            skipped.append(f"tma: a box row must be a multiple of 16 bytes, not "
                           f"{cols * elem_bytes}")
            continue
        issued = sum(op.instructions(rows, cols, elem_bytes) for op in ops)
        pairs.append((issued, bound, ops, footprints, tma))
    # fewest instructions first: once a pair meets the lowest bound of all pairs in the
    # least storage a bijection can take, no later pair can beat it
    pairs.sort(key=lambda p: p[0])
    floor = min((p[1] for p in pairs), default=0)
    best = None
    for issued, bound, ops, footprints, tma in pairs:
        if best is not None and best[0] <= (bound, rows * cols, issued):
            continue           # its bound, in the least storage, cannot beat the best found
        vector = max(op.vector(elem_bytes) for op in ops)
        # pairs are compared without the row-XOR and GF(2) searches (0.25 and 0.2 s each on a
        # 64x64 tile), from costs kept per access where screen() applies; the chosen pair gets
        # the full solve
        if len(pairs) == 1:
            found = None
        else:
            found = screen(rows, cols, elem_bytes, specs + footprints,
                           keep=_keep(specs + footprints, vector), tma_only=tma,
                           max_pad=max_pad)
            if found is None:
                sol = _solve(rows, cols, elem_bytes, specs + footprints, max_pad, tma, vector,
                             row_xor=False, searches=False)
                found = (sol.wavefronts, sol.storage)
        key = (*found[:2], issued) if found is not None else (bound, 0, issued)
        if best is None or key < best[0]:
            best = (key, ops, footprints, vector, tma)
        if key[:2] == (floor, rows * cols):
            break
    if best is None:
        raise SwizzleKitError(f"no instruction fits a {rows}x{cols} tile of {elem_bytes}-byte "
                              "elements: " + "; ".join(skipped))
    _, ops, footprints, vector, tma = best
    sol = _solve(rows, cols, elem_bytes, specs + footprints, max_pad, tma, vector)
    reports = list(sol.analysis.reports)                     # label the footprints
    for i, op in enumerate(ops, start=len(specs)):
        reports[i] = dataclasses.replace(reports[i], access=f"{reports[i].access} ({op})")
    return dataclasses.replace(
        sol, analysis=dataclasses.replace(sol.analysis, reports=tuple(reports)),
        instructions=tuple((side, str(op)) for (side, _), op in zip(sides, ops)),
        tma_equivalent=_tma_equivalent(sol, specs + footprints, vector))


@functools.lru_cache(maxsize=256)
def _solve(rows: int, cols: int, elem_bytes: int, specs: tuple[AccessSpec, ...],
           max_pad: int | None, tma_only: bool = False, vector: int = 1,
           row_xor: bool = True, searches: bool = True) -> Solution:
    """:func:`solve` on checked arguments; pure, so cached (a stacked layout solves the same
    power-of-two parts for each way of stacking them). ``tma_only``: the layouts a TMA write
    can make (row-major, or one of its swizzle modes). Only layouts that keep every aligned
    group of ``keep`` columns contiguous and aligned are taken, ``keep`` being the widest
    vector of ``vector`` and the specs' ``vec``: a 16-byte load needs its 16 bytes whole.
    ``row_xor``: search the row XORs too (not for the parts of a stacked layout, whose
    searches would add up past the time budget). ``searches``: run the GF(2) searches (the
    XOR search and the local search over invertible maps); ``auto`` screens its instruction
    pairs without them and runs them on the pair it chooses."""
    began = time.perf_counter()
    keep = _keep(specs, vector)
    placements = [s.placements(rows, cols, elem_bytes) for s in specs]
    idx = placement_index([p for ps in placements for p in ps], cols)
    bound = universal_bound(idx, elem_bytes, keep if cols % keep == 0 else 1)
    searched = 0
    # (cost, storage, family rank, layout, family): fewest wavefronts, then least shared
    # memory, then the simpler family
    best: tuple[int, int, int, TileLayout, str] | None = None

    pow2 = is_pow2(rows) and is_pow2(cols)
    exhaustive_linear = 0                 # classes searched when every linear map was tried
    permuted = False                      # whether the local search over bijections ran
    core = Core.of([p[:, 0] * cols + p[:, 1] for ps in placements for p in ps])

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
        deadline = time.perf_counter() + ROW_XOR_BUDGET_S
        for i, (transposed, gather) in enumerate(forms):
            unit = 4 // elem_bytes if transposed and elem_bytes < 4 else 1
            share = (deadline - time.perf_counter()) / (len(forms) - i)
            found = row_xor_search(rows, cols, cost_of, keep, transposed, budget_s=share,
                                   gather=gather, unit=unit)
            if found is not None and consider(found[0], "row-xor", found[1], rows * cols):
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
    shapes = Translates.of([p for ps in placements for p in ps], cols)
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


def _tma_equivalent(sol: Solution, accesses: tuple[AccessSpec, ...], vector: int
                    ) -> TmaSwizzle | None:
    """The widest TMA mode whose layout takes no more wavefronts than ``sol`` on the
    ``accesses`` it was solved for, and keeps their vectors (and ``vector``) whole."""
    if isinstance(sol.layout, TmaSwizzle):
        return sol.layout
    keep = _keep(accesses, vector)
    rows, cols, eb = sol.layout.rows, sol.layout.cols, sol.analysis.elem_bytes
    idx = None
    for tma in tma_layouts(rows, cols, eb):
        if keeps_vectors(tma, keep):
            if idx is None:
                idx = placement_index([p for a in accesses for p in a.placements(rows, cols, eb)],
                                      cols)
            if set_costs(tma.offsets(), idx, eb)[0].sum() <= sol.wavefronts:
                return tma
    return None


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
