"""The solver's answer: the layout, how it was found, and why it is the best
(:class:`Solution`, which :func:`swizzlekit.smem.solve` returns).

>>> from swizzlekit.smem import solve
>>> sol = solve(8, 8, 16, ["row", "col"])
>>> sol.family, sol.wavefronts, sol.lower_bound, sol.optimal
('cute', 16, 16, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from swizzlekit.smem.analyze import Analysis
from swizzlekit.smem.layouts import (TMA_MODES, LinearLayout, Swizzle, TileLayout, TmaSwizzle,
                                     is_pow2, log2)

__all__ = ["Solution"]


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
