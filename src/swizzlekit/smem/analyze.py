"""Analyzer: the wavefronts every access takes under a layout.

Wavefront-sized access sets (:class:`~swizzlekit.smem.access.AccessSpec`) are costed with
the set model (the most distinct 4-byte words in one bank, which is what one phase of the
measured bank model costs); real instructions
(:class:`~swizzlekit.smem.access.Instruction`) go through the full bank model,
:func:`swizzlekit.smem.banks.wavefronts`, phases and merging included.

>>> from swizzlekit.smem.layouts import RowMajor, Swizzled, Swizzle
>>> print(analyze(RowMajor(8, 8), ["row", "col"], elem_bytes=16).table())
access  placements  worst  mean  ideal  conflict
row              8      1  1.00      1        1x
col              8      8  8.00      1        8x
>>> analyze(Swizzled(8, 8, Swizzle(3, 0, 3)), ["row", "col"], elem_bytes=16).conflict_free
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice
from swizzlekit.smem.access import (WAVEFRONT_BYTES, AccessSpec, Instruction, access_list,
                                     parse_access)
from swizzlekit.smem.banks import bank_conflicts, wavefronts

__all__ = ["AccessReport", "Analysis", "analyze", "placement_index", "set_costs"]


def placement_index(placements: Sequence[np.ndarray], cols: int) -> np.ndarray:
    """Placements as a ``(P, k)`` matrix of row-major element indices, padded with -1."""
    k = max(len(p) for p in placements)
    if all(len(p) == k for p in placements):         # whole placements: one array operation
        flat = np.stack(placements).astype(np.int64, copy=False)
        return flat[..., 0] * cols + flat[..., 1]
    idx = np.full((len(placements), k), -1, dtype=np.int64)
    for i, p in enumerate(placements):
        idx[i, :len(p)] = p[:, 0] * cols + p[:, 1]
    return idx


def set_costs(offsets: np.ndarray, idx: np.ndarray, elem_bytes: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Wavefronts and their ideal for each placement row of ``idx``, vectorized.

    ``offsets`` is the flat (row-major) table of element offsets. An element covers
    ``max(elem_bytes, 4)``-byte cells; a wavefront serves one cell per cell-group
    (``128 / cell`` groups); the cost is the most distinct cells in one group, and the ideal
    is the distinct cells over the number of groups, rounded up.
    """
    unit = max(elem_bytes, 4)
    groups = WAVEFRONT_BYTES // unit
    valid = idx >= 0
    cells = np.where(valid, offsets.reshape(-1)[np.maximum(idx, 0)] * elem_bytes // unit, -1)
    span = int(cells.max()) + 1
    key = np.sort(np.where(valid, (cells % groups) * span + cells, -1), axis=1)
    new = np.ones(key.shape, dtype=bool)
    new[:, 1:] = key[:, 1:] != key[:, :-1]
    new &= key >= 0
    rows = np.broadcast_to(np.arange(len(idx))[:, None], key.shape)
    counts = np.bincount(rows[new] * groups + key[new] // span,
                         minlength=len(idx) * groups).reshape(len(idx), groups)
    distinct = new.sum(axis=1)
    return counts.max(axis=1), -(-distinct // groups)


@dataclass(frozen=True)
class AccessReport:
    """One access (all its placements, or one instruction) under a layout."""

    access: str
    wavefronts: tuple[int, ...]
    ideal: tuple[int, ...]

    @property
    def placements(self) -> int:
        return len(self.wavefronts)

    @property
    def worst(self) -> int:
        return max(self.wavefronts)

    @property
    def mean(self) -> float:
        return float(np.mean(self.wavefronts))

    @property
    def total(self) -> int:
        return int(sum(self.wavefronts))

    @property
    def conflict_degree(self) -> int:
        """The worst placement's wavefronts over its ideal: 1 means conflict-free."""
        return max(math.ceil(w / max(i, 1)) for w, i in zip(self.wavefronts, self.ideal))

    @property
    def conflict_free(self) -> bool:
        return all(w <= i for w, i in zip(self.wavefronts, self.ideal))


@dataclass(frozen=True)
class Analysis:
    layout: object
    elem_bytes: int
    reports: tuple[AccessReport, ...]

    @property
    def conflict_free(self) -> bool:
        return all(r.conflict_free for r in self.reports)

    @property
    def total(self) -> int:
        return sum(r.total for r in self.reports)

    @property
    def ideal(self) -> int:
        return sum(sum(r.ideal) for r in self.reports)

    def table(self) -> str:
        head = ("access", "placements", "worst", "mean", "ideal", "conflict")
        rows = [(r.access, str(r.placements), str(r.worst), f"{r.mean:.2f}",
                 str(max(r.ideal)), f"{r.conflict_degree}x") for r in self.reports]
        widths = [max(len(x) for x in col) for col in zip(head, *rows)]
        fmt = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
                                      for i, (c, w) in enumerate(zip(cells, widths)))
        return "\n".join([fmt(head)] + [fmt(r) for r in rows])

    def to_dict(self) -> dict:
        return {"layout": str(self.layout), "elem_bytes": self.elem_bytes,
                "conflict_free": self.conflict_free, "wavefronts": self.total,
                "ideal": self.ideal,
                "accesses": [{"access": r.access, "placements": r.placements, "worst": r.worst,
                              "mean": r.mean, "conflict_degree": r.conflict_degree}
                             for r in self.reports]}


#: The largest tile (in elements) :func:`analyze` takes.
MAX_ELEMENTS = 256 * 256


def analyze(layout, accesses: Sequence[str | AccessSpec | Instruction], elem_bytes: int
            ) -> Analysis:
    """Wavefronts of every access under ``layout`` (a tile layout), worst/mean/degree each."""
    check_choice("element size", elem_bytes, (1, 2, 4, 8, 16))
    if not hasattr(layout, "offsets") or not hasattr(layout, "is_bijective"):
        raise SwizzleKitError(f"layout must be a tile layout of swizzlekit.smem.layouts; got "
                              f"{type(layout).__name__}")
    accesses = access_list(accesses, (Instruction,))
    if not accesses:
        raise SwizzleKitError("accesses must be a list of at least one access spec "
                              "(row, col, block:RxC)")
    if layout.rows * layout.cols > MAX_ELEMENTS:
        raise SwizzleKitError(f"a {layout.rows}x{layout.cols} tile has {layout.rows * layout.cols}"
                              f" elements; the analyzer takes at most {MAX_ELEMENTS} (256x256)")
    if not layout.is_bijective():
        raise SwizzleKitError(f"{layout}: two elements share a storage offset")
    offsets = layout.offsets()
    reports = []
    for acc in accesses:
        if isinstance(acc, Instruction):
            addrs = acc.addresses(layout, elem_bytes)
            wf = wavefronts(addrs, acc.width, acc.op)
            reports.append(AccessReport(acc.name, (wf,),
                                        (wf - bank_conflicts(addrs, acc.width, acc.op),)))
            continue
        spec = parse_access(acc) if isinstance(acc, str) else acc
        idx = placement_index(spec.placements(layout.rows, layout.cols, elem_bytes), layout.cols)
        wf, ideal = set_costs(offsets, idx, elem_bytes)
        reports.append(AccessReport(str(spec), tuple(int(w) for w in wf),
                                    tuple(int(i) for i in ideal)))
    return Analysis(layout, elem_bytes, tuple(reports))
