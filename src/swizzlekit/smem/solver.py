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
   :data:`~swizzlekit.smem.families.ROW_XOR_MAX_ELEMENTS` elements);
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
import itertools
from collections.abc import Sequence

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.smem.access import WAVEFRONT_BYTES, AccessSpec, access_list
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.smem.families import _keep, _solve
from swizzlekit.smem.instructions import choices
from swizzlekit.smem.layouts import TmaSwizzle
from swizzlekit.smem.screen import (FAMILIES, keeps_vectors, screen, spec_bound, tma_layouts,
                                    universal_bound)
from swizzlekit.smem.search import EXHAUSTIVE_LIMIT
from swizzlekit.smem.solution import Solution

__all__ = ["Solution", "solve", "universal_bound", "FAMILIES", "EXHAUSTIVE_LIMIT",
           "MAX_ELEMENTS"]


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
