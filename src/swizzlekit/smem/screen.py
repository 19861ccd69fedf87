"""Screening the instruction pairs of ``auto``: each pair's best (wavefronts, storage) over the
solver's closed-form families, from costs kept per access.

A tile read and written by ``auto`` instructions poses one problem per pair (27 pairs for
``ld``/``st``/``cp.async``/``ldmatrix``/``stmatrix``/TMA), but the pairs share their accesses:
the tile's own ``row``/``col`` specs and some twenty footprints. A layout's wavefronts are a
sum over the accesses, so each access is costed once against every candidate layout and a
pair's cost is the sum of its accesses' rows::

    candidates:        row-major  Swizzle<1,0,1> ...  TMA 128B ...  XorCols ...  pad 1 ...
    col                     8192       4096                 256        ...
    ld.v4:row (block)       2048       2048                2048        ...
    st.v1:col (block)       8192        ...
    pair cost          = the sum of its accesses' rows, over the layouts that keep its vectors

The families are the ones :func:`swizzlekit.smem.families._solve` tries before its searches on a
power-of-two tile (row-major, CuTe swizzles, TMA modes, CuTe's forbidden overlap, coordinate
XORs, padding), or those a TMA write can make; :func:`screen` returns None elsewhere and the
solver screens the pair itself. The tests hold both equal on every pair.

>>> from swizzlekit.smem.access import AccessSpec
>>> screen(64, 64, 4, (AccessSpec("row"), AccessSpec("col")), keep=1, tma_only=False,
...        max_pad=None)[:2]
(256, 4096)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import SMEM_LIMIT
from swizzlekit.smem.access import WAVEFRONT_BYTES, AccessSpec
from swizzlekit.smem.analyze import placement_index, set_costs
from swizzlekit.smem.core import Core, Translates
from swizzlekit.smem.layouts import (TMA_MODES, LinearLayout, RowMajor, Swizzled, TileLayout,
                                     TmaSwizzle, XorCols, check_tile, is_pow2, log2)
from swizzlekit.smem.search import cute_candidates, forbidden_candidates

__all__ = ["screen", "keeps_vectors", "linear_map", "tma_layouts", "xor_cols_layouts",
           "spec_bound", "universal_bound", "FAMILIES"]

#: The solver's families in order of preference (ties go to the earlier one). TMA's modes come
#: after the XOR forms: where a mode fits a power-of-two tile it *is* a CuTe swizzle, and
#: where a coordinate XOR does as well it is the simpler code.
FAMILIES = ("row-major", "cute", "xor", "xor-cols", "generic", "stacked", "tma", "interleaved",
            "row-xor", "permuted", "padded")


def universal_bound(idx: np.ndarray, elem_bytes: int, keep: int = 1) -> int:
    """Wavefronts no layout that keeps ``keep``-element vectors whole can go below, summed
    over the placements (rows of ``idx``: row-major indices, -1 padded; ``keep`` must divide
    the row). A wavefront moves 128 bytes: ``ceil(elements * elem_bytes / 128)``. Whole
    vectors raise it for elements under 4 bytes: two elements share a 4-byte word only
    inside one vector (or, for vectors under a word, whole vectors share it), so a placement
    moves at least the words (or vectors) its elements lie in.

    >>> universal_bound(np.array([[0, 1, 2, -1]]), 2)
    1
    >>> col = np.arange(64)[None, :] * 64              # a column of 64 fp16 elements
    >>> universal_bound(col, 2), universal_bound(col, 2, keep=8)    # 8-element vectors
    (1, 2)
    """
    check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    keep = check_int("keep", keep, 1, 1 << 16)
    if keep & (keep - 1):
        raise SwizzleKitError(f"keep must be a power of two (the elements of one vector); "
                              f"got {keep}")
    idx = np.asarray(idx)
    valid = idx >= 0
    if keep == 1 or elem_bytes >= 4:
        count = valid.sum(axis=1)
        return int((-(-(count * elem_bytes) // WAVEFRONT_BYTES)).sum())
    grain = min(keep * elem_bytes, 4)          # bytes that no other vector's element can share
    units = np.sort(np.where(valid, idx * elem_bytes // grain, -1), axis=1)
    distinct = ((units[:, 1:] != units[:, :-1]) & (units[:, 1:] >= 0)).sum(axis=1) \
        + (units[:, 0] >= 0)
    return int((-(-(distinct * grain) // WAVEFRONT_BYTES)).sum())


def _tile_args(what: str, rows, cols, elem_bytes) -> tuple[int, int, int]:
    """A tile's sides (:func:`~swizzlekit.smem.layouts.check_tile`) and element size (1 to
    16 bytes), checked."""
    return (*check_tile(what, rows, cols),
            check_choice("element size", elem_bytes, (1, 2, 4, 8, 16)))


def tma_layouts(rows: int, cols: int, elem_bytes: int) -> list[TmaSwizzle]:
    """The TMA swizzle modes that can write this tile (rows a multiple of the mode), widest
    first."""
    rows, cols, elem_bytes = _tile_args("tma_layouts", rows, cols, elem_bytes)
    return [TmaSwizzle(rows, cols, mode, elem_bytes) for mode in sorted(TMA_MODES, reverse=True)
            if (cols * elem_bytes) % mode == 0]


def xor_cols_layouts(rows: int, cols: int, elem_bytes: int) -> list[XorCols]:
    """Every coordinate XOR the solver tries, in its order: up to a wavefront's elements of
    column bits, shifted by 0-4 columns and 0-3 rows."""
    rows, cols, elem_bytes = _tile_args("xor_cols_layouts", rows, cols, elem_bytes)
    n_elems = WAVEFRONT_BYTES // min(elem_bytes, WAVEFRONT_BYTES)
    return [XorCols(rows, cols, bits, col_shift, row_shift)
            for bits, col_shift, row_shift in itertools.product(
                range(1, max(0, n_elems.bit_length() - 1) + 1), range(0, 5), range(0, 4))
            if cols % (1 << (bits + col_shift)) == 0]


def linear_map(layout: TileLayout):
    """The layout as a map of flat row-major indices when it is GF(2)-linear, else None."""
    if isinstance(layout, RowMajor) and layout.pad == 0:
        return lambda x: x
    if isinstance(layout, Swizzled):
        return layout.functor
    if isinstance(layout, TmaSwizzle) and is_pow2(layout.rows) and is_pow2(layout.cols):
        # boxes of power-of-two size and a bit swizzle: linear, read off the basis images
        shift = log2(layout.cols)
        bits = [1 << j for j in range(log2(layout.rows * layout.cols))]
        return LinearLayout(tuple(int(layout(x >> shift, x & (layout.cols - 1))) for x in bits))
    if isinstance(layout, XorCols) and layout.ld == layout.cols and is_pow2(layout.cols):
        # r*cols + (c ^ f(r)) = flat ^ f(r), f linear in r's bits: linear, for any row count
        shift, mask = log2(layout.cols), layout.cols - 1
        return lambda x: layout(x >> shift, x & mask)
    return None


def keeps_vectors(layout: TileLayout, keep: int) -> bool:
    """Whether every aligned group of ``keep`` columns (a power of two) is stored contiguous,
    in order, at an offset that is a multiple of ``keep``.

    >>> from swizzlekit.smem.layouts import Swizzle
    >>> keeps_vectors(RowMajor(8, 8, pad=4), 4), keeps_vectors(RowMajor(8, 8, pad=2), 4)
    (True, False)
    >>> keeps_vectors(Swizzled(8, 8, Swizzle(3, 0, 3)), 2)
    False
    """
    if not isinstance(layout, TileLayout):
        raise SwizzleKitError(f"keeps_vectors: layout must be a tile layout of swizzlekit.smem "
                              f"(RowMajor, Swizzled, ...); got {layout!r}")
    keep = check_int("keep", keep, 1, SMEM_LIMIT)
    log2(keep)                                      # a power of two
    if isinstance(layout, RowMajor):
        return (layout.cols + layout.pad) % keep == 0
    linear = linear_map(layout)
    if linear is not None:           # the images of the offset bits say it at once
        n = (layout.rows * layout.cols).bit_length() - 1
        if isinstance(linear, LinearLayout):     # its bases are the images (identity above)
            images = np.array(linear.bases[:n] + tuple(1 << j for j in range(linear.bits, n)),
                              dtype=np.int64)
        else:
            images = np.asarray(linear(np.array([1 << j for j in range(n)], dtype=np.int64)))
        low = log2(keep)
        return bool(all(int(images[j]) == 1 << j for j in range(low))
                    and not (images[low:] & (keep - 1)).any())
    off = layout.offsets()
    whole = off[:, : layout.cols - layout.cols % keep].reshape(layout.rows, -1, keep)
    return bool((whole[..., 0] % keep == 0).all()
                and (np.diff(whole, axis=2) == 1).all())


@functools.lru_cache(maxsize=1024)
def _spec_parts(spec: AccessSpec, rows: int, cols: int, elem_bytes: int
                ) -> tuple[Core, Translates, np.ndarray]:
    """One access's placements as a :class:`Core`, as :class:`Translates` and as an index."""
    placements = spec.placements(rows, cols, elem_bytes)
    return (Core.of([p[:, 0] * cols + p[:, 1] for p in placements]),
            Translates.of(placements, cols), placement_index(placements, cols))


def spec_bound(spec: AccessSpec, rows: int, cols: int, elem_bytes: int, keep: int = 1) -> int:
    """The lower bound of one access's placements (the bound adds over accesses), with
    ``keep``-element vectors kept whole where ``keep`` divides the row."""
    return universal_bound(_spec_parts(spec, rows, cols, elem_bytes)[2], elem_bytes,
                           keep if cols % keep == 0 else 1)


@functools.lru_cache(maxsize=64)
def _candidates(rows: int, cols: int, elem_bytes: int, tma_only: bool, pads: int
                ) -> tuple[tuple[TileLayout, ...], tuple, np.ndarray, np.ndarray]:
    """The screened layouts in the solver's order, their linear maps (None: padded), their
    storage and their family's rank in :data:`FAMILIES`."""
    tma = tma_layouts(rows, cols, elem_bytes)
    groups: list[tuple[str, list[TileLayout]]] = [("row-major", [RowMajor(rows, cols)])]
    if tma_only:
        groups.append(("tma", tma))
    else:
        n = log2(rows * cols)
        groups += [("cute", [Swizzled(rows, cols, f) for f in cute_candidates(n)]),
                   ("tma", tma),
                   ("xor", [Swizzled(rows, cols, f) for f in forbidden_candidates(n)]),
                   ("xor-cols", xor_cols_layouts(rows, cols, elem_bytes)),
                   ("padded", [RowMajor(rows, cols, pad) for pad in range(1, pads + 1)])]
    layouts = tuple(lay for _, group in groups for lay in group)
    rank = np.array([FAMILIES.index(name) for name, group in groups for _ in group])
    maps = tuple(linear_map(lay) for lay in layouts)
    storage = np.array([rows * cols if m is not None else int(lay.offsets().max()) + 1
                        for lay, m in zip(layouts, maps)], dtype=np.int64)
    return layouts, maps, storage, rank


@functools.lru_cache(maxsize=256)
def _keeps(rows: int, cols: int, elem_bytes: int, tma_only: bool, pads: int, keep: int
           ) -> np.ndarray:
    layouts = _candidates(rows, cols, elem_bytes, tma_only, pads)[0]
    return np.array([keep == 1 or keeps_vectors(lay, keep) for lay in layouts])


@functools.lru_cache(maxsize=1024)
def _spec_costs(spec: AccessSpec, rows: int, cols: int, elem_bytes: int, tma_only: bool,
                pads: int) -> np.ndarray:
    """One access's wavefronts under every screened layout."""
    layouts, maps, _, _ = _candidates(rows, cols, elem_bytes, tma_only, pads)
    core, shapes, idx = _spec_parts(spec, rows, cols, elem_bytes)
    linear = [i for i, m in enumerate(maps) if m is not None]
    out = np.zeros(len(layouts), dtype=np.int64)
    out[linear] = core.costs([maps[i] for i in linear], elem_bytes)
    for i, lay in enumerate(layouts):
        if maps[i] is None:
            if isinstance(lay, RowMajor):
                out[i] = shapes.cost(cols + lay.pad, cols, elem_bytes)
            else:                                   # a TMA mode on a ragged tile
                out[i] = int(set_costs(lay.offsets(), idx, elem_bytes)[0].sum())
    return out


def screen(rows: int, cols: int, elem_bytes: int, specs: Sequence[AccessSpec], *, keep: int,
           tma_only: bool, max_pad: int | None) -> tuple[int, int, TileLayout, str] | None:
    """The wavefronts, storage, layout and family that
    :func:`~swizzlekit.smem.families._solve` without its searches finds: the first layout
    (in the solver's order) that meets the lower bound, or else the fewest wavefronts, then
    least storage, then the simpler family. None where that solve tries more (tiles that are
    not powers of two, rows not a multiple of ``keep``) or no layout keeps the vectors."""
    rows, cols = check_int("rows", rows, 1, 1 << 16), check_int("cols", cols, 1, 1 << 16)
    check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    keep = check_int("keep", keep, 1, 1 << 16)
    if max_pad is not None:
        max_pad = check_int("max_pad", max_pad, 0, 1 << 16)
    if not all(isinstance(s, AccessSpec) for s in specs) or not isinstance(tma_only, bool):
        raise SwizzleKitError("screen takes AccessSpec footprints and tma_only True or False")
    pow2 = is_pow2(rows) and is_pow2(cols) and cols % keep == 0
    if not (pow2 or tma_only):
        return None
    n_elems = WAVEFRONT_BYTES // min(elem_bytes, WAVEFRONT_BYTES)
    pads = 0 if tma_only else (n_elems if max_pad is None else max_pad)
    layouts, _, storage, rank = _candidates(rows, cols, elem_bytes, tma_only, pads)
    cost = sum(_spec_costs(s, rows, cols, elem_bytes, tma_only, pads) for s in specs)
    ok = _keeps(rows, cols, elem_bytes, tma_only, pads, keep)
    if not ok.any():
        return None
    bound = sum(spec_bound(s, rows, cols, elem_bytes, keep) for s in specs)
    meets = np.flatnonzero(ok & (cost == bound))
    if len(meets):                     # the solver stops at the first layout meeting it
        i = int(meets[0])
    else:
        order = np.lexsort((np.arange(len(layouts)), rank, storage, cost, ~ok))
        i = int(order[0])
    return int(cost[i]), int(storage[i]), layouts[i], FAMILIES[int(rank[i])]
