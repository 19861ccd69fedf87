"""The shared-memory bank model: how many wavefronts one warp instruction takes.

Rules measured on an H200 with Nsight Compute (``swizzlekit lab banks --out DIR``;
table in ``src/swizzlekit/data/smem_wavefronts_h200.csv``; the tests check every row):

* A *wavefront* serves 32 banks x 4 bytes = 128 bytes. Within one wavefront, lanes that
  touch the same 4-byte word share it (broadcast on loads, one write on stores).
* The warp's lanes are cut into *phases* of 128 bytes of requests: the whole warp for 4-byte
  accesses, half-warps (0-15, 16-31) for 8-byte, quarter-warps (0-7, 8-15, ...) for 16-byte.
  ``ldmatrix``/``stmatrix`` take one phase per 8x8 matrix (8 row addresses of 16 bytes).
* Loads may merge phases. The condition is judged over the whole warp: every active lane i has
  lane i^1 inactive or at the same address, or every active lane has lane i^2 so. Then an
  8-byte load is one phase, and a 16-byte load is two (the half-warps). Stores never merge,
  and neither do ldmatrix/stmatrix. (Judging per half-warp fits the wavefronts equally well;
  only the warp-wide condition also reproduces ncu's bank-conflict counts.)
* A phase (or merged group) with no active lane costs nothing; otherwise it costs the largest
  number of distinct 4-byte words that fall in one bank.
* ncu's bank conflicts are the wavefronts above the ideal: per phase, the distinct words
  divided by the 32 banks, rounded up.

>>> wavefronts([4 * lane for lane in range(32)])           # 32 floats in a row
1
>>> wavefronts([128 * lane for lane in range(32)])         # a column of a 32-float-wide tile
32
>>> wavefronts([16 * lane for lane in range(32)], width=16)  # float4 row: 4 quarter-warps
4
>>> wavefronts([0] * 32, width=16), wavefronts([0] * 32, width=16, op="st")
(2, 4)
>>> wavefronts([16 * r for r in range(32)], width=16, op="ldmatrix")  # x4, rows contiguous
4
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import SMEM_LIMIT

__all__ = ["BankGeometry", "H200_BANKS", "OPS", "wavefronts", "bank_conflicts", "phases",
           "set_wavefronts", "WIDTHS"]

WIDTHS = (4, 8, 16)
OPS = ("ld", "st", "ldmatrix", "stmatrix")
WARP = 32


@dataclass(frozen=True)
class BankGeometry:
    """Shared-memory banks: how many, and how many bytes each serves per wavefront."""

    banks: int = 32
    bank_bytes: int = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "banks", check_choice("banks", self.banks, (16, 32, 64)))
        object.__setattr__(self, "bank_bytes", check_choice("bank_bytes", self.bank_bytes,
                                                            (4, 8)))

    @property
    def wavefront_bytes(self) -> int:
        return self.banks * self.bank_bytes

    def __str__(self) -> str:
        return f"{self.banks} banks x {self.bank_bytes} B"


#: Every NVIDIA GPU since Maxwell, the H200 included.
H200_BANKS = BankGeometry()
def _check_geometry(geometry) -> None:
    if not isinstance(geometry, BankGeometry):
        raise SwizzleKitError(f"geometry must be a BankGeometry; got {geometry!r}")


def _lanes(offsets, what: str = "offsets") -> list:
    """``offsets`` as a list: a sequence (list, tuple, array) of 1 to 32 lane entries."""
    if isinstance(offsets, (str, bytes, dict)) or not hasattr(offsets, "__len__"):
        raise SwizzleKitError(f"{what} must be a sequence of byte addresses, one per lane; got "
                              f"{offsets!r}")
    lanes = list(np.asarray(offsets).reshape(-1)) if isinstance(offsets, np.ndarray) \
        else list(offsets)
    if not 1 <= len(lanes) <= WARP:
        raise SwizzleKitError(f"{what}: a warp has 1 to 32 lanes, got {len(lanes)} addresses")
    return lanes


def _address(lane: int, a, width: int) -> int:
    """One lane's byte address: an integer in shared memory, aligned to the access width."""
    if isinstance(a, bool) or not isinstance(a, numbers.Integral):
        raise SwizzleKitError(f"lane {lane}: address {a!r} is not an integer")
    a = int(a)
    if a < 0:
        raise SwizzleKitError(f"lane {lane}: address {a} is negative")
    if a >= SMEM_LIMIT:
        raise SwizzleKitError(f"lane {lane}: address {a} is past shared memory "
                              f"({SMEM_LIMIT} bytes at most on any preset GPU)")
    if a % width:
        raise SwizzleKitError(f"lane {lane}: address {a} is not aligned to the "
                              f"{width}-byte access width")
    return a


def _validate(offsets: Sequence[int | None], width: int, op: str) -> list[int | None]:
    width = check_choice("access width", width, WIDTHS)
    check_choice("op", op, OPS)
    lanes = _lanes(offsets)
    if op in ("ldmatrix", "stmatrix"):
        if width != 16:
            raise SwizzleKitError(f"{op} moves 16-byte rows; pass width=16, not {width}")
        if len(lanes) not in (8, 16, 32):
            raise SwizzleKitError(f"{op} takes 8, 16 or 32 row addresses (x1, x2, x4), "
                                  f"got {len(lanes)}")
        if any(a is None for a in lanes):
            raise SwizzleKitError(f"{op} is .sync.aligned: every row address must be given")
    lanes = [None if a is None else _address(lane, a, width) for lane, a in enumerate(lanes)]
    return lanes + [None] * (WARP - len(lanes))


def _pairs_agree(addrs: list[int | None], lanes: range, x: int) -> bool:
    return all(addrs[i] is None or addrs[i ^ x] is None or addrs[i] == addrs[i ^ x]
               for i in lanes)


def phases(offsets: Sequence[int | None], width: int = 4, op: str = "ld") -> list[list[int]]:
    """The lane groups the hardware serves separately, after merging (see the module rules).

    >>> [len(p) for p in phases([16 * i for i in range(32)], width=16)]
    [8, 8, 8, 8]
    >>> [len(p) for p in phases([16 * (i // 2) for i in range(32)], width=16)]
    [16, 16]
    """
    addrs = _validate(offsets, width, op)
    if op in ("ldmatrix", "stmatrix"):
        return [list(range(m, m + 8)) for m in range(0, len(list(offsets)), 8)]
    size = WARP * 4 // width
    groups = [list(range(p, p + size)) for p in range(0, WARP, size)]
    if op == "ld" and width == 8:
        if any(_pairs_agree(addrs, range(WARP), x) for x in (1, 2)):
            groups = [list(range(WARP))]
    elif op == "ld" and width == 16:
        if any(_pairs_agree(addrs, range(WARP), x) for x in (1, 2)):
            groups = [list(range(0, 16)), list(range(16, 32))]
    return groups


def _words(addrs: list[int | None], lanes: Sequence[int], width: int,
           geometry: BankGeometry) -> set[int]:
    words: set[int] = set()
    for lane in lanes:
        a = addrs[lane]
        if a is not None:
            first = a // geometry.bank_bytes
            words.update(range(first, first + max(1, width // geometry.bank_bytes)))
    return words


def set_wavefronts(byte_addresses, width: int = 4, geometry: BankGeometry = H200_BANKS) -> int:
    """Wavefronts for one phase: the most distinct words that share a bank (0 if empty).

    This is the cost of a set of accesses served together, whatever the lanes:
    the solver's measure of "what one wavefront fetches".

    >>> set_wavefronts([0, 4, 128, 132])
    2
    """
    width = check_int("access width", width, 1, max(WIDTHS))
    _check_geometry(geometry)
    if isinstance(byte_addresses, (str, bytes, dict)) or not hasattr(byte_addresses, "__len__"):
        raise SwizzleKitError(f"byte_addresses must be a sequence of byte addresses; got "
                              f"{byte_addresses!r}")
    addrs = [_address(i, a, width) for i, a in enumerate(byte_addresses)]
    words = _words(addrs, range(len(addrs)), width, geometry)
    per_bank: dict[int, int] = {}
    for w in words:
        per_bank[w % geometry.banks] = per_bank.get(w % geometry.banks, 0) + 1
    return max(per_bank.values(), default=0)


def wavefronts(offsets: Sequence[int | None], width: int = 4, op: str = "ld", *,
               geometry: BankGeometry = H200_BANKS) -> int:
    """Shared-memory wavefronts of one warp instruction.

    ``offsets``: each lane's byte address (``None`` for an inactive lane; fewer than 32 entries
    leave the rest inactive). For ``ldmatrix``/``stmatrix``, the 8, 16 or 32 row addresses of
    an x1, x2 or x4 instruction, with ``width=16``. Matches ncu's
    ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` on the H200.
    """
    addrs = _validate(offsets, width, op)
    _check_geometry(geometry)
    return sum(set_wavefronts([addrs[i] for i in g if addrs[i] is not None], width, geometry)
               for g in phases(offsets, width, op))


def bank_conflicts(offsets: Sequence[int | None], width: int = 4, op: str = "ld", *,
                   geometry: BankGeometry = H200_BANKS) -> int:
    """Wavefronts above the ideal, as ncu's ``l1tex__data_bank_conflicts_...`` counts them.

    >>> bank_conflicts([128 * lane for lane in range(32)])
    31
    """
    addrs = _validate(offsets, width, op)
    total = ideal = 0
    for g in phases(offsets, width, op):
        active = [addrs[i] for i in g if addrs[i] is not None]
        total += set_wavefronts(active, width, geometry)
        ideal += math.ceil(len(_words(active, range(len(active)), width, geometry))
                           / geometry.banks)
    return total - ideal
