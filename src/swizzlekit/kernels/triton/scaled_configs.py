"""Plan stage: the tile configs of :func:`swizzlekit.kernels.scaled_matmul` (fp8) and the rules
that keep those a call can run, with no Triton import: the configs, the prune, the order pick
and the size rule for TMA.

>>> [t[2] for t in FLAT_TILES]            # fp8 tiles go 128 deep in K
[128, 128]
>>> tma_by_size(512, 4096, 4096), tma_by_size(1024, 4096, 4096), tma_by_size(512, 4096, 4000)
(False, True, True)
"""

from __future__ import annotations

import functools

from swizzlekit.errors import check_bool, check_int
from swizzlekit.kernels.triton.configs import (_INTERPRET, FP8_DEEP_TILES, INTERPRETER_TILE,
                                               _config_list, _fitting, _with_flat)
from swizzlekit.kernels.triton.footprint import element_size
from swizzlekit.kernels.triton.matmul_configs import _rows_class, flat_ok

__all__ = ["FLAT_TILES", "MAX_TILE_AREA", "FP8_TMA_MIN_MNK", "FP8_TMA_MIN_M",
           "FP8_TMA_MIN_MNK_WIDE", "POINTER_K", "tma_by_size"]


def _configs(pre_hook=None, flat: bool = False):
    """The tile configs; ``flat`` (the TMA kernel): every config says ``FLAT``, and the
    :data:`FLAT_TILES` come twice, the second time flattened (as in ``matmul``)."""
    configs = _tile_configs(pre_hook)
    return (_with_flat(configs, [] if _INTERPRET else FLAT_TILES, pre_hook) if flat
            else configs)


def _tile_configs(pre_hook=None):
    """:func:`_configs` before flattening."""
    if _INTERPRET:
        return _config_list([INTERPRETER_TILE], pre_hook)
    # (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps); fp8 tiles go 128 deep in K. They include
    # the baseline's (kernels/triton/baseline.py: tutorial 03's fp8 configs), so the search
    # never has fewer tile shapes than the bar it must not fall below. The last three are
    # the narrow tiles for M <= SMALL_M, where 128-wide tiles leave most SMs idle; then the
    # deep pipelines for few rows or few tiles (configs.deep_ok).
    return _config_list([(128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (128, 128, 128, 4, 8),
                         (128, 128, 128, 4, 4), (256, 64, 128, 4, 4), (64, 256, 128, 4, 4),
                         (128, 64, 128, 4, 4), (64, 128, 128, 4, 4), (128, 64, 64, 4, 4),
                         (64, 128, 64, 4, 4), (128, 32, 64, 4, 4),
                         (64, 64, 256, 3, 4), (64, 32, 256, 4, 4), (64, 64, 128, 5, 4),
                         *FP8_DEEP_TILES],
                        pre_hook)


#: The TMA kernel's flattened configs (``matmul_configs.FLAT_TILES``, 128 deep in K). On the
#: H200 (2026-11-23, docs/data/bench/JOURNAL.md) 8192x8192x512 ran 917 against 756 TFLOP/s, and
#: 16384x16384x2048 1196 against 1101, for the same 128x256 tile one per program.
FLAT_TILES = [(128, 256, 128, 3, 8), (128, 128, 128, 4, 8)]


#: The largest ``BLOCK_M x BLOCK_N`` of the TMA kernel's configs (a tail split's workspace
#: block, :func:`.split_k.tail_buffers`).
MAX_TILE_AREA = max(c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] for c in _configs(flat=True))


def _prune(configs, named_args, **kwargs):
    """:func:`~swizzlekit.kernels.triton.tuning._fitting`: one-byte operands, C staged in
    its own dtype; flattened configs only where ``flat_ok``."""
    out_bytes = element_size(named_args.get("c_ptr", named_args.get("c_desc")))
    if "PERSISTENT" in kwargs:                     # the TMA kernel
        configs = [c for c in configs if not c.kwargs["FLAT"] or flat_ok(kwargs)]
    return _fitting(configs, named_args.get("M", 0), 1, out_bytes, N=named_args.get("N"))


def _auto_order(M: int, N: int, K: int, out_bytes: int, use_tma: bool,
                persistent: bool) -> tuple[str, dict]:
    """``order="auto"``: the order and parameters of :func:`_order_pick`."""
    chosen = _order_pick(M, N, K, out_bytes, use_tma, persistent)
    return chosen.order, chosen.params


def _order_pick(M: int, N: int, K: int, out_bytes: int, use_tma: bool, persistent: bool,
                gpu_name: str | None = None):
    """The L2 model's pick (:func:`.auto_order.pick`, with its reason) for the configs
    :func:`_prune` keeps."""
    from swizzlekit.kernels.triton.auto_order import pick

    return pick(M, N, K, "fp8", "fp8_tma" if use_tma else "fp8_pointer",
                _labels(_rows_class(M), out_bytes), 1, out_bytes, persistent, gpu_name)


@functools.lru_cache(maxsize=16)
def _labels(M: int, out_bytes: int) -> tuple[str, ...]:
    from swizzlekit.kernels.triton.choose import config_label

    return tuple(config_label(c.kwargs, c.num_stages, c.num_warps)
                 for c in _fitting(_configs(), M, 1, out_bytes))


#: Up to this M*N*K (2048x4096x4096) fp8 calls take pointer loads by default. On the H200 the
#: two ran within 2% on the GPU at 2048x4096x4096, 256x8192x8192 and 512x4096x4096, and TMA's
#: host time per call was 44-55 us against 25-28 (descriptors built each call), which made
#: the benchmark's calls wait on the host (2026-11-22, docs/data/bench/JOURNAL.md).
FP8_TMA_MIN_MNK = 2**35
#: ... and from M*N*K = 2^34 where M >= 1024, since the flattened configs: on the H200
#: (2026-11-23, docs/data/bench/flat_order/fp8_tma_threshold.jsonl) TMA ran 1024x4096x4096,
#: 2048x4096x4096, 4096x4096x2048, 4096x8192x1024 and 8192x8192x512 3-31% faster than pointer
#: loads, and 512x8192x8192 as fast; 256x8192x8192 45% slower.
FP8_TMA_MIN_M, FP8_TMA_MIN_MNK_WIDE = 1024, 2**34
#: ... and only where K is a multiple of this, the fp8 tiles' depth: else every step of the
#: pointer kernel's K loop is masked, where TMA zero-fills the last. On the H200 (2026-11-23,
#: docs/data/bench/ragged_fp8/variants.jsonl) on copies with K rounded up to 16, TMA (C
#: aligned) ran 777x4095x1248 in 14.6 us, 5003x2999x1008 in 39.5 and 1999x4097x3008 in 48.2,
#: pointer loads in 25.3, 70.3 and 67.2 with C as given, 30.0, 109.4 and 83.8 with C aligned.
POINTER_K = 128


def tma_by_size(M: int, N: int, K: int, persistent: bool = False) -> bool:
    """Whether a GPU call takes TMA by default where its tensors allow it: pointer loads up to
    M*N*K = :data:`FP8_TMA_MIN_MNK` where K is a multiple of :data:`POINTER_K`, except wide
    calls (M >= :data:`FP8_TMA_MIN_M` from :data:`FP8_TMA_MIN_MNK_WIDE`) and persistent ones.

    >>> tma_by_size(512, 4096, 4096), tma_by_size(1024, 4096, 4096), tma_by_size(512, 4096, 4000)
    (False, True, True)
    """
    M, N, K = (check_int(name, v, 1) for name, v in (("M", M), ("N", N), ("K", K)))
    check_bool("persistent", persistent)
    wide = M >= FP8_TMA_MIN_M and M * N * K >= FP8_TMA_MIN_MNK_WIDE
    return not (M * N * K <= FP8_TMA_MIN_MNK and not wide and not persistent
                and K % POINTER_K == 0)
