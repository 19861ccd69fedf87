"""Plan stage, with no Triton import: how full the last wave of a GEMM's tiles runs, and where
a 16-bit call times a composite tile (:mod:`.wide_kernel`) or a 16-bit or fp8 call a tail split
(``TAIL`` in :mod:`.tma_kernel` and :mod:`.scaled_kernel`; :func:`tail_for`, below) against its
autotuned config.

With one CTA per SM, T tiles on S SMs run in ``ceil(T / S)`` waves, the last ``T mod S`` of
``S`` full: the wave fill ``T / (S ceil(T / S))``. At M = 600-768 by N = 4096 and K = 14336
the 128x256 tiles fill 61-73% of one wave (80 or 96 tiles on 132 SMs), the 128x128 ones 61-73%
of two, and ``matmul`` ran 0.70-0.86x cuBLAS on the H100, which picks tile widths that are no
powers of two so that the count lands near a whole wave: 128x160 at 640 rows, 130 tiles
(``nvjet`` kernels under ncu; docs/data/bench/ragged_m/). Triton's blocks are powers of two,
so a composite tile puts two or four products side by side: ``128 x (128 + 32)``,
``128 x (128 + 64)``, or ``(128 + 64) x (128 + 64)`` for M just past a multiple of 128 (529
rows: three tiles of 192 rows, not five of 128). They ran those shapes 11-27% faster than
``matmul`` and lost where the plain tiles fill their waves (docs/data/bench/composite/). So a
call times them, on its first call, only where :func:`wide_for` names some: the plain 128x256
tiles fill at most :data:`PLAIN_MAX_FILL` of their last wave and each named tile at least
:data:`WIDE_MIN_FILL`, or a named tile's rounds cost at least :data:`WIDE_MIN_SAVING` less
than the plain tiles' (:func:`round_cost`: tall outputs of few columns, whose plain tiles
waste N's edge).

>>> round(wave_fill(130, 132), 3), round(wave_fill(160, 132), 3)
(0.985, 0.606)
>>> [t.label for t in wide_for(640, 4096, 14336, 132)]   # 128x192: 110 tiles, one round
['128x(128+32)x64/s4/w8', '128x(128+64)x64/s4/w8']
>>> [t.label for t in wide_for(529, 8192, 4096, 132)]
['128x(128+32)x64/s4/w8', '(128+64)x(128+64)x64/s3/w8']
>>> wide_for(4096, 4096, 4096, 132)                # 512 tiles of 128x256: 97% of 4 waves
()
"""

from __future__ import annotations

from typing import NamedTuple

from swizzlekit.errors import check_bool, check_int
from swizzlekit.kernels.triton.configs import current_mode

__all__ = ["WideTile", "WIDE_TILES", "PLAIN_TILE", "PLAIN_TILES", "PLAIN_MAX_FILL",
           "WIDE_MIN_FILL", "WIDE_MIN_MNK", "WIDE_MIN_SAVING", "wave_fill", "tiles_of",
           "round_cost", "wide_for", "wide_timed", "wide_route",
           "tail_ways", "tail_shares", "tail_for", "tail_timed", "tail_route"]


class WideTile(NamedTuple):
    """A composite tile: ``bm1 + bm2`` rows by ``bn1 + bn2`` columns, up to four products side
    by side (each part a power of two; ``bm2`` or ``bn2`` 0 where that side is whole), K in
    steps of ``block_k``, ``stages`` deep, ``warps`` warps."""
    bm1: int
    bm2: int
    bn1: int
    bn2: int
    block_k: int
    stages: int
    warps: int

    @property
    def height(self) -> int:
        return self.bm1 + self.bm2

    @property
    def width(self) -> int:
        return self.bn1 + self.bn2

    @property
    def label(self) -> str:
        """``128x(128+32)x64/s4/w8``: each side as its parts where it has two."""
        def side(a, b):
            return f"({a}+{b})" if b else f"{a}"
        return (f"{side(self.bm1, self.bm2)}x{side(self.bn1, self.bn2)}x{self.block_k}"
                f"/s{self.stages}/w{self.warps}")


#: The composite tiles a call may time, each the fastest of its shape in the probes
#: (docs/data/bench/composite/, H100: 128x(128+32) in 4 stages ran 125.3 us at
#: 640x4096x14336 against 142.9 for 3, 125.3 for 5 and 177.2 for 32-element K steps 8 deep;
#: (128+64)x(128+64) in 3 stages 66.1 us at 529x8192x4096, where matmul ran 90.1).
WIDE_TILES = (WideTile(128, 0, 128, 32, 64, 4, 8), WideTile(128, 0, 128, 64, 64, 4, 8),
              WideTile(128, 64, 128, 64, 64, 3, 8))
#: The plain tile whose wave fill decides: the large tile the config model picks at these
#: sizes (``kernels configs``; the bench's ``plan`` column in docs/data/bench/wave_edge_*).
PLAIN_TILE = (128, 256)
#: A composite tile is timed where the plain tiles fill at most this much of their last wave
#: and a composite tile at least :data:`WIDE_MIN_FILL`: round bounds that say when there is a
#: wave to win back; the first call's timing decides.
PLAIN_MAX_FILL, WIDE_MIN_FILL = 0.8, 0.9
#: ... and from this many multiply-adds: below, a call is too short for a wave to matter
#: against its launch, and the probe measured none.
WIDE_MIN_MNK = 2**33
#: A composite tile is also timed where its rounds cost this much less than the plain
#: tiles' (:func:`round_cost`): where N's edge wastes much of the plain tiles (7168 x 384:
#: two 128x256 tiles a row, one half empty) whatever their wave fill. The composite tiles ran
#: about 15% slower per output element than plain ones (docs/data/bench/composite/), so a
#: smaller saving would not pay.
WIDE_MIN_SAVING = 0.15
#: The plain tiles :func:`round_cost` weighs a composite tile against: the large tiles the
#: config model picks at these sizes.
PLAIN_TILES = ((128, 256), (128, 128))


def wave_fill(tiles: int, sms: int) -> float:
    """The share of its waves that ``tiles`` tiles fill on ``sms`` SMs, one tile an SM at a
    time: ``tiles / (sms * ceil(tiles / sms))``.

    >>> wave_fill(132, 132), wave_fill(133, 132) < 0.51
    (1.0, True)
    """
    tiles, sms = check_int("tiles", tiles, 1), check_int("sms", sms, 1)
    return tiles / (sms * -(-tiles // sms))


def tiles_of(M: int, N: int, block_m: int, block_n: int) -> int:
    """The tiles of ``block_m x block_n`` that cover an M x N output.

    >>> tiles_of(640, 4096, 128, 160)
    130
    """
    M, N, block_m, block_n = (check_int(name, v, 1) for name, v in (
        ("M", M), ("N", N), ("block_m", block_m), ("block_n", block_n)))
    return -(-M // block_m) * -(-N // block_n)


def wide_route(elem_bytes: int, persistent: bool, tma: bool, b_kmajor: bool,
               c_by_tma: bool) -> bool:
    """Whether a call's route may take a composite tile: 16-bit operands, by TMA on B
    row-major (as given, copied for TMA, or from its copy in rows of a 128-byte pitch), C
    written by TMA, not persistent. The GEMM's plan (``matmul._plan``) and its CPU
    restatement (``explain``) both ask this.

    >>> wide_route(2, False, True, False, True)      # bf16 by TMA
    True
    >>> wide_route(4, False, True, False, True)      # fp32
    False
    """
    for name, flag in (("persistent", persistent), ("tma", tma), ("b_kmajor", b_kmajor),
                       ("c_by_tma", c_by_tma)):
        check_bool(name, flag)
    return (check_int("elem_bytes", elem_bytes, 1) == 2 and not persistent and tma
            and not b_kmajor and c_by_tma)


def round_cost(M: int, N: int, block_m: int, block_n: int, sms: int) -> int:
    """The critical path of an M x N output in ``block_m x block_n`` tiles on ``sms`` SMs, one
    tile an SM at a time, in output elements: its rounds times one tile's area (the K loop's
    length is the same for every tile, so it drops out).

    >>> round_cost(7168, 384, 128, 256, 132), round_cost(7168, 384, 128, 192, 132)
    (32768, 24576)
    """
    M, N, block_m, block_n, sms = (check_int(name, v, 1) for name, v in (
        ("M", M), ("N", N), ("block_m", block_m), ("block_n", block_n), ("sms", sms)))
    return -(-tiles_of(M, N, block_m, block_n) // sms) * block_m * block_n


def wide_for(M: int, N: int, K: int, sms: int) -> tuple[WideTile, ...]:
    """The composite tiles a 16-bit call of M x N x K on ``sms`` SMs times against its
    autotuned config on its first call, or none (module docstring), from M N K >=
    :data:`WIDE_MIN_MNK`: those of :data:`WIDE_TILES` that fill at least
    :data:`WIDE_MIN_FILL` of their last wave where the :data:`PLAIN_TILE` tiles fill at most
    :data:`PLAIN_MAX_FILL`, and those whose :func:`round_cost` is at least
    :data:`WIDE_MIN_SAVING` below the least of :data:`PLAIN_TILES`'.

    >>> [t.label for t in wide_for(7168, 384, 4160, 132)]    # N's edge: 128 x (128 + 64)
    ['128x(128+64)x64/s4/w8']
    """
    M, N, K, sms = (check_int(name, v, 1) for name, v in (("M", M), ("N", N), ("K", K),
                                                           ("sms", sms)))
    if M * N * K < WIDE_MIN_MNK:
        return ()
    sparse = wave_fill(tiles_of(M, N, *PLAIN_TILE), sms) <= PLAIN_MAX_FILL
    plain = min(round_cost(M, N, bm, bn, sms) for bm, bn in PLAIN_TILES)
    return tuple(t for t in WIDE_TILES
                 if (sparse and wave_fill(tiles_of(M, N, t.height, t.width), sms) >= WIDE_MIN_FILL)
                 or round_cost(M, N, t.height, t.width, sms) <= (1 - WIDE_MIN_SAVING) * plain)


def wide_timed(M: int, N: int, K: int, sms: int) -> tuple[WideTile, ...]:
    """:func:`wide_for`, where this process times anything on a first call: not under
    ``SWIZZLEKIT_AUTOTUNE=0``, which takes the config model's first pick untimed (and so the
    plain tiles), as ``split_k=None`` then runs one split (:func:`.splits.auto_split`)."""
    tiles = wide_for(M, N, K, sms)
    return tiles if current_mode() != "0" else ()


# --------------------------------------------------------------------------------- tail split
# The other way to fill a last wave: keep the tiles, split the K loop of the last partial
# wave's tiles. With T tiles on S SMs, T mod S of them are left for the last wave; each is cut
# into S // (T mod S) even shares of its K steps (:func:`tail_ways`), one program a share, so
# that the last wave runs about that many times shorter, plus the sum of the fp32 partials.
# The shares of one K slice run at once, which keeps the L2 reuse of whole tiles: stream-K's
# unequal ranges put the programs that share a panel of B at different K and ran up to 2.1x
# slower on the H100 (docs/data/bench/stream_k/); a 4-way split of the last wave whatever its
# remainder ran 13-50% slower at six shapes on the H200 (docs/data/bench/tail_split/). On the
# H100 (docs/data/bench/tail_aligned/) the first call kept the split at 8 of 12 held-out bf16
# shapes and ran 1.032x faster geomean for it (0.976-1.090x; its whole tiles in a flattened
# loop, docs/data/bench/tail_flat/), and lost where matmul's autotuned config was another tile
# (1100x4096x4096 against a composite one). In fp8 it kept the split at 3 of 8 shapes, 2-3%
# faster. So a call times it on its first call beside its autotuned config and the
# composite tiles (:func:`tail_timed`). Past half a wave it does not pay: cut in thirds or
# quarters that the SMs take in rounds (84 to 99 of 132 tiles left), the split ran 4-7% slower
# than the plain plan at 4 shapes on the H100, forced, and 18-33% at K = 2048
# (docs/data/bench/tail_rounds/), so the rule stops at half.

def tail_ways(tiles: int, sms: int, steps: int) -> int:
    """The shares each of the last partial wave's tiles is split into (1: no split): with
    ``T`` tiles of ``steps`` K steps on ``sms`` SMs, at least one full wave and ``T mod sms``
    tiles left over, ``sms // (T mod sms)`` shares, at most ``steps``, none empty. The TMA
    kernel's ``_tail_plan`` computes the same on the GPU.

    >>> tail_ways(160, 132, 64), tail_ways(144, 132, 64), tail_ways(192, 132, 128)
    (4, 11, 2)
    >>> tail_ways(264, 132, 64), tail_ways(100, 132, 64), tail_ways(200, 132, 64)  # 68 left
    (1, 1, 1)
    >>> tail_ways(133, 132, 10)          # 132 ways asked, 10 K steps: shares of one step
    10
    """
    tiles, sms, steps = (check_int(name, v, 1) for name, v in (("tiles", tiles), ("sms", sms),
                                                                ("steps", steps)))
    full, rem = divmod(tiles, sms)
    if full == 0 or rem == 0:
        return 1
    share = -(-steps // min(sms // rem, steps))
    ways = -(-steps // share)
    return ways if ways >= 2 else 1


def tail_route(elem_bytes: int, persistent: bool, tma: bool, slots_are_tiles: bool) -> bool:
    """Whether a call's route may take a tail split: 16-bit operands (``matmul``) or fp8 ones
    (``scaled_matmul``), by TMA (any C, B as given or copied; an fp8 call whose plain plan
    takes pointer loads times its tail split by TMA where its rows allow), not persistent,
    under an order whose launch slots are its tiles (``slots_are_tiles``:
    :data:`.matmul_configs.FLAT_ORDERS`, or ``auto``, which picks a grouped order). The
    GEMMs' plans and ``kernels configs`` ask this.

    >>> tail_route(2, False, True, True), tail_route(1, False, True, True)
    (True, True)
    >>> tail_route(4, False, True, True), tail_route(2, False, False, True)
    (False, False)
    """
    for name, flag in (("persistent", persistent), ("tma", tma),
                       ("slots_are_tiles", slots_are_tiles)):
        check_bool(name, flag)
    return (check_int("elem_bytes", elem_bytes, 1) in (1, 2) and not persistent and tma
            and slots_are_tiles)


def tail_shares(M: int, N: int, K: int, sms: int, block_k: int = 64) -> int:
    """The shares a call of M x N x K on ``sms`` SMs splits each of its last partial wave's
    :data:`PLAIN_TILE` tiles into (:func:`tail_ways`, K in steps of ``block_k``: 64 for
    16-bit tiles, 128 for fp8's), from :data:`WIDE_MIN_MNK` multiply-adds; 1 where it splits
    none.

    >>> tail_shares(1163, 4096, 4096, 132), tail_shares(4096, 4096, 4096, 132)
    (4, 1)
    >>> tail_shares(6016, 768, 2432, 132), tail_shares(6016, 768, 2432, 132, 128)
    (13, 10)
    """
    M, N, K, sms, block_k = (check_int(name, v, 1) for name, v in (
        ("M", M), ("N", N), ("K", K), ("sms", sms), ("block_k", block_k)))
    if M * N * K < WIDE_MIN_MNK:
        return 1
    return tail_ways(tiles_of(M, N, *PLAIN_TILE), sms, -(-K // block_k))


def tail_for(M: int, N: int, K: int, sms: int, block_k: int = 64) -> bool:
    """Whether a call of M x N x K on ``sms`` SMs times the tail split against its plain plan
    on its first call: its :data:`PLAIN_TILE` tiles leave a last wave at most half full
    after at least one full wave (:func:`tail_shares` of 2 or more).

    >>> tail_for(1163, 4096, 4096, 132), tail_for(4096, 4096, 4096, 132)
    (True, False)
    """
    return tail_shares(M, N, K, sms, block_k) >= 2


def tail_timed(M: int, N: int, K: int, sms: int, block_k: int = 64) -> bool:
    """:func:`tail_for`, where this process times anything on a first call (not under
    ``SWIZZLEKIT_AUTOTUNE=0``)."""
    return tail_for(M, N, K, sms, block_k) and current_mode() != "0"
