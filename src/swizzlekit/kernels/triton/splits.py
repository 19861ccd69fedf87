"""Plan stage, with no Triton import: which splits of K a GEMM call may take (the kernels are in
:mod:`.split_k`): the door's check of ``split_k`` (:func:`check_split`), the shape rule that
suggests a split (:func:`split_k_for`), and where ``split_k=None`` times splits on a
signature's first call (:func:`auto_split`, :data:`AUTO_SPLITS`), which ``kernels configs``
restates.

>>> auto_split(317, 4096, 14336, False), AUTO_SPLITS
(True, (1, 2))
"""

from __future__ import annotations

from swizzlekit.errors import SwizzleKitError, check_bool, check_int
from swizzlekit.kernels.triton.configs import current_mode

__all__ = ["split_k_for", "check_split", "auto_split", "workspace_elements", "MAX_SPLIT_K",
           "MIN_STEPS_PER_SPLIT", "MAX_WORKSPACE", "WORKSPACE_SIDE", "AUTO_SPLITS",
           "AUTO_SPLIT_MAX_M"]


#: Split-K: at most this many splits, and never fewer than this many K steps of 64 a split.
MAX_SPLIT_K, MIN_STEPS_PER_SPLIT = 8, 4
#: The most fp32 elements a split's workspace may take (8 GiB): :func:`workspace_elements`.
MAX_WORKSPACE = 2**31 - 1
#: The longest tile side of any config (the 256 of 256x128 and 128x256): each plane of a
#: split's workspace holds the blocks of the tiles of any config (:func:`workspace_elements`).
WORKSPACE_SIDE = 256


def split_k_for(M: int, N: int, K: int, sms: int) -> int:
    """How many ways to split K when the output is too small to fill the GPU: for M up to
    512 (decode-like calls), doubling while the 128x128 tiles times the splits still fit in
    one wave of ``sms`` and each split keeps at least 4 steps of 64. A suggestion by shape
    only: the H200 ran most such splits slower than none, since the library's narrow tiles
    already fill the SMs (docs/data/bench/JOURNAL.md); ``split_k=None`` times instead.

    >>> split_k_for(64, 4096, 4096, 132), split_k_for(16, 14336, 4096, 132)
    (4, 1)
    >>> split_k_for(4096, 4096, 4096, 132)
    1
    """
    M, N, K, sms = (check_int(name, v) for name, v in (("M", M), ("N", N), ("K", K),
                                                        ("sms", sms)))
    tiles = -(-M // 128) * -(-N // 128)
    steps = -(-K // 64)
    s = 1
    while (M <= 512 and 2 * s <= MAX_SPLIT_K and 2 * s * tiles <= sms
           and steps // (2 * s) >= MIN_STEPS_PER_SPLIT):
        s *= 2
    return s


#: ``split_k=None``: up to this M, on a GPU, the first call of a signature times these splits
#: and keeps the faster (:func:`.split_k.pick_split`); K must give each split 4 steps of 64.
AUTO_SPLITS, AUTO_SPLIT_MAX_M = (1, 2), 512


def auto_split(M: int, N: int, K: int, persistent: bool) -> bool:
    """Whether ``split_k=None`` times :data:`AUTO_SPLITS` for a GPU call (else it means 1):
    not persistent, M <= :data:`AUTO_SPLIT_MAX_M`, K of at least 2 x 4 steps of 64, a
    workspace (:func:`workspace_elements`, as the door counts it) within
    :data:`MAX_WORKSPACE`, and not under ``SWIZZLEKIT_AUTOTUNE=0`` (no timing at all).

    >>> auto_split(64, 4096, 4096, False), auto_split(4096, 4096, 4096, False)
    (True, False)
    >>> auto_split(64, 4096, 256, False), auto_split(64, 4096, 4096, True)
    (False, False)
    """
    M, N, K = (check_int(name, v, 1) for name, v in (("M", M), ("N", N), ("K", K)))
    check_bool("persistent", persistent)
    top = max(AUTO_SPLITS)
    return (not persistent and M <= AUTO_SPLIT_MAX_M and current_mode() != "0"
            and -(-K // 64) >= top * MIN_STEPS_PER_SPLIT
            and workspace_elements(top, M, N) <= MAX_WORKSPACE)


def workspace_elements(split: int, M: int, N: int) -> int:
    """The fp32 elements of a split's workspace (``split_k._split_sum``, ``split_k.buffers``):
    ``split`` planes, each M and N rounded up to :data:`WORKSPACE_SIDE`, so that a plane holds
    the tiles' blocks of any config, whole.

    >>> workspace_elements(2, 300, 520), workspace_elements(3, 256, 256)
    (786432, 196608)
    """
    split, M, N = (check_int(name, v, 1) for name, v in (("split", split), ("M", M), ("N", N)))
    side = WORKSPACE_SIDE
    return split * -(-M // side) * side * -(-N // side) * side


def check_split(split_k, persistent: bool, M: int = 1, N: int = 1) -> None:
    """The door for ``matmul``'s ``split_k``: None or 1 to 16, not with a persistent grid,
    and a workspace (:func:`workspace_elements`) within :data:`MAX_WORKSPACE`."""
    if split_k is None:
        return
    if isinstance(split_k, bool) or not isinstance(split_k, int) or not 1 <= split_k <= 16:
        raise SwizzleKitError(f"split_k must be an integer from 1 to 16 (None means 1); got "
                              f"{split_k!r}")
    if persistent and split_k > 1:
        raise SwizzleKitError("split_k > 1 does not combine with persistent=True; choose one")
    needs = workspace_elements(split_k, M, N)
    if split_k > 1 and needs > MAX_WORKSPACE:
        raise SwizzleKitError(f"split_k={split_k} on a {M}x{N} output needs {needs} workspace "
                              f"elements; at most {MAX_WORKSPACE} (2**31 - 1, 8 GiB) are "
                              f"allowed: use a smaller split_k")
