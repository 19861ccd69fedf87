"""Plan stage: the plan's tile configs, with no Triton import: how a config is written, which
ones fit a call, and how many of them the autotuner times.

:mod:`~swizzlekit.kernels.triton.matmul_configs` (16-bit, TF32, fp32) and
:mod:`~swizzlekit.kernels.triton.scaled_configs` (fp8) list their own tile shapes and share
the rest: the :class:`TileConfig` form of a config, the interpreter's one tile, the
shared-memory check, the small-M rule, and how many configs the autotuner times
(``SWIZZLEKIT_AUTOTUNE``, :data:`AUTOTUNE_MODES`): by default the best few by the config model
(:mod:`~swizzlekit.kernels.triton.choose`), ``full`` all of them, ``0`` the model's first.
:mod:`~swizzlekit.kernels.triton.tuning` turns them into ``triton.Config`` for the autotuner;
everything here also runs on an install without Triton (``swizzlekit kernels configs``).

>>> [c.kwargs["BLOCK_M"] for c in _config_list([(64, 128, 64, 4, 4)])]
[64]
>>> _config_list([(64, 128, 64, 4, 4)])[0]
TileConfig(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, num_stages=4, num_warps=4)
"""

from __future__ import annotations

import os

from swizzlekit.errors import SwizzleKitError, check_int
from swizzlekit.gpus import gpu
from swizzlekit.kernels.triton.footprint import ONE_TILE_AREA, config_smem

__all__ = ["TileConfig", "SMALL_M", "DEEP_TILES", "DEEP_SWAPPED", "DEEP_MAX_M", "FP8_DEEP_TILES",
           "FP8_DEEP_MIN_M", "DEEP_MAX_TILES", "deep_ok", "current_mode", "INTERPRETER_TILE",
           "ONE_TILE_AREA", "AUTOTUNE_MODES", "autotune_mode", "Prune"]

#: Triton's interpreter runs the kernels on the CPU (tests): one small config, nothing to tune.
_INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"

#: ``SWIZZLEKIT_AUTOTUNE``: ``model`` (the default) times the config model's best ``top_k``
#: configs of those that fit; ``full`` times every one (``1``, the old default, means it too);
#: ``0`` takes the model's first pick (Triton 3.6 still times that one config once).
AUTOTUNE_MODES = ("model", "full", "0")


def autotune_mode(value: str | None) -> str:
    """The mode ``SWIZZLEKIT_AUTOTUNE=value`` asks for (unset: ``model``).

    >>> autotune_mode(None), autotune_mode("1"), autotune_mode("0")
    ('model', 'full', '0')
    >>> autotune_mode("fast")
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: SWIZZLEKIT_AUTOTUNE='fast' is not valid; choose one of: model, full, 0 (1 means full)
    """
    mode = {None: "model", "": "model", "1": "full"}.get(value, value)
    if mode not in AUTOTUNE_MODES:
        shown = value if len(str(value)) <= 40 else str(value)[:37] + "..."
        raise SwizzleKitError(f"SWIZZLEKIT_AUTOTUNE={shown!r} is not valid; choose one of: "
                              f"{', '.join(AUTOTUNE_MODES)} (1 means full)")
    return mode


def current_mode() -> str:
    """This process's autotune mode, read from ``SWIZZLEKIT_AUTOTUNE`` when first asked (a bad
    value is a :class:`~swizzlekit.errors.SwizzleKitError` then, not at import)."""
    global _MODE
    if _MODE is None:
        _MODE = autotune_mode(os.environ.get("SWIZZLEKIT_AUTOTUNE"))
    return _MODE


_MODE: str | None = None

#: Up to this M the autotuner also tries tiles narrower than 64x128 (decode-like calls).
SMALL_M = 256
#: Deep pipelines (5 to 8 stages) for few rows, plain and swapped. With M <= 512 each SM holds
#: about one tile, and its K loop waits on DRAM unless many steps are in flight; cuBLAS runs
#: these shapes with 6 to 16 stages (its kernel names under ncu). On the H200, autotuning
#: every config with these added ran bf16 64, 128, 256 and 512 x 4096 x 4096 and
#: 256 x 8192 x 8192 in 16.7, 19.1, 22.8, 29.0 and 55.7 us, against 19.0, 22.7, 27.0, 32.6
#: and 60.1 without them (docs/data/bench/JOURNAL.md, "Deep pipelines at small M"); in the default
#: mode, over the config model refitted with them, the `decode` suite's 15 rows went from
#: 0.933 to 0.990x cuBLAS (bf16) and 0.939 to 1.002x (fp16). Offered up to
#: :data:`DEEP_MAX_M` rows, the largest M measured then, and for outputs of few tiles
#: (:func:`deep_ok`). In fp32 none fits the shared memory.
DEEP_TILES = [(128, 64, 64, 6, 4), (128, 64, 64, 8, 4), (64, 64, 128, 6, 4), (64, 128, 64, 6, 4),
              (128, 128, 64, 5, 8), (64, 64, 64, 8, 4)]
DEEP_SWAPPED = [(32, 128, 64, 8, 4), (64, 64, 128, 6, 4), (16, 64, 128, 8, 4),
                (32, 64, 128, 8, 4), (64, 128, 64, 8, 4)]
DEEP_MAX_M = 512
#: Deep pipelines (5 to 8 stages) for few rows in fp8, kept where :func:`deep_ok` as
#: :data:`DEEP_TILES`. cuBLAS runs fp8 at M = 128-256 with 112x128 and 64x128 tiles 7 and 8
#: stages deep (ncu, docs/data/bench/pitch_h100_2026-11-25/). On the H100 (2026-11-25,
#: docs/data/bench/fp8_deep_h100/) these ran 256x4096x4096 in 15.9 us against 17.7 for the
#: best of the lists without them (cuBLAS 16.2), 256x8192x8192 40.5 against 44.7 (39.8) and
#: 192x8192x4096 24.2 against 26.5 (23.0).
FP8_DEEP_TILES = [(64, 128, 128, 8, 4), (64, 128, 128, 7, 4), (128, 128, 128, 6, 4),
                  (128, 128, 128, 5, 4), (64, 64, 256, 5, 4)]
#: ... and only above this many rows. In the H100's table (2026-11-25) they ran 0-4.3% faster
#: than the best of the lists at M = 16-64 (narrow tiles 4-5 stages deep are there already),
#: and 3-27% from M = 96; offered at M <= 64 too, they crowded the narrow tiles out of the
#: config model's first six, which then missed the fastest config by 1.4-1.9% on three of the
#: fit half's problems. 128x64x128/s7/w4 and 128x128x128/s6/w8 were measured too and never
#: ran fastest.
FP8_DEEP_MIN_M = 65
#: ... and for any M where the output holds at most this many tiles of 128 x 128 (about one
#: wave on 132 SMs). On the H100 (2026-11-25, docs/data/bench/deep_mid_h100/) the best config
#: with the deep pipelines offered against the best without them, x cuBLAS: bf16
#: 1024x1024x4096 0.93 against 0.71, 1024^3 0.93 against 0.87, 2048x1024x2048 0.95 against
#: 0.91; fp8 1024x1024x4096 0.96 against 0.79.
DEEP_MAX_TILES = 128
_FP8_DEEP = {(*t, None) for t in FP8_DEEP_TILES}
_DEEP = ({(*t, False) for t in DEEP_TILES} | {(*t, True) for t in DEEP_SWAPPED}
         | {(*t, None) for t in DEEP_TILES} | _FP8_DEEP)


#: The interpreter's one config (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps): nothing to tune.
INTERPRETER_TILE = (32, 32, 32, 1, 4)


class TileConfig:
    """One autotuning config, as ``triton.Config`` reads: its constexprs (``kwargs``), stages,
    warps and the pre-launch hook. :func:`~swizzlekit.kernels.triton.tuning.to_triton` makes
    the ``triton.Config``; the prunes and the config model read either."""

    __slots__ = ("kwargs", "num_stages", "num_warps", "pre_hook")

    def __init__(self, kwargs: dict, num_stages: int, num_warps: int, pre_hook=None):
        self.kwargs, self.num_stages, self.num_warps = dict(kwargs), num_stages, num_warps
        self.pre_hook = pre_hook

    def all_kwargs(self) -> dict:
        """The constexprs, stages and warps in one dict (``triton.Config.all_kwargs``)."""
        return {**self.kwargs, "num_stages": self.num_stages, "num_warps": self.num_warps}

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v}" for k, v in self.all_kwargs().items())
        return f"TileConfig({body})"


def _config_list(shapes, pre_hook=None, **extra) -> list[TileConfig]:
    """Configs from (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps) tuples; ``extra`` constexprs go
    into every config (``SWAP_AB=True``)."""
    return [TileConfig({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, **extra}, s, w, pre_hook)
            for bm, bn, bk, s, w in shapes]


def _with_flat(configs, tiles, pre_hook=None, **extra) -> list[TileConfig]:
    """``configs``, each marked ``FLAT=False``, then ``tiles`` as flattened configs
    (``FLAT=True``): one program per SM walking its tiles in one loop (the TMA kernels)."""
    for c in configs:
        c.kwargs["FLAT"] = False
    return configs + _config_list(tiles, pre_hook, FLAT=True, **extra)




def _key(c) -> tuple:
    """A config as (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps, SWAP_AB or None)."""
    k = c.kwargs
    return (k["BLOCK_M"], k["BLOCK_N"], k["BLOCK_K"], c.num_stages, c.num_warps, k.get("SWAP_AB"))


def _fitting(configs, M: int, in_bytes: int, out_bytes: int, single: bool = False,
             N: int | None = None) -> list:
    """The configs whose shared memory (:func:`~.footprint.config_smem`) fits the H200's limit
    per block; tiles narrower than 64x128 only for M <= SMALL_M, and the deep pipelines
    (:data:`DEEP_TILES`, :data:`DEEP_SWAPPED`, :data:`FP8_DEEP_TILES`) only where
    :func:`deep_ok`, and fp8's from :data:`FP8_DEEP_MIN_M` rows."""
    keep = [c for c in configs
            if config_smem(c, in_bytes, out_bytes, single) <= gpu("h200").smem_per_block]
    if M > SMALL_M:
        keep = [c for c in keep if c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] >= 64 * 128]
    if not _deep(M, N):
        keep = [c for c in keep if _key(c) not in _DEEP]
    elif in_bytes == 1 and M < FP8_DEEP_MIN_M:
        keep = [c for c in keep if _key(c) not in _FP8_DEEP]
    return keep or configs[-1:]


def deep_ok(M: int, N: int | None = None) -> bool:
    """Whether a call of M x N outputs is offered the deep pipelines: up to
    :data:`DEEP_MAX_M` rows, or (N given) an output of at most :data:`DEEP_MAX_TILES` tiles of
    128 x 128, about one wave, where each SM again holds about one tile.

    >>> deep_ok(512), deep_ok(1024), deep_ok(1024, 2048), deep_ok(2048, 2048)
    (True, False, True, False)
    """
    return _deep(check_int("M", M), None if N is None else check_int("N", N))


def _deep(M: int, N: int | None) -> bool:
    """:func:`deep_ok` on checked sizes (the prunes': M may be 0 where a call names none)."""
    return M <= DEEP_MAX_M or (N is not None and -(-M // 128) * -(-N // 128) <= DEEP_MAX_TILES)


class Prune:
    """The autotuner's early prune: the kernel's own (``fits``: the configs that fit the
    call), then those this process's autotune mode times (:data:`AUTOTUNE_MODES`), ranked by
    the config model as kernel ``model`` (pointer, tma, fp8_pointer, fp8_tma) on ``gpu_name``
    (default: the card the call runs on): every one
    (``full``), the first (``0``), or :func:`~swizzlekit.kernels.triton.choose.timed`'s
    (``model``), with one more for each flattened twin kept, since the model ranks each just
    ahead of its twin (:data:`~swizzlekit.kernels.triton.choose.FLAT_AHEAD`)."""

    __slots__ = ("fits", "model", "gpu_name")

    def __init__(self, fits, model: str, gpu_name: str | None = None):
        self.fits, self.model, self.gpu_name = fits, model, gpu_name

    def __call__(self, configs, named_args, **kwargs):
        from swizzlekit.kernels.triton import choose
        from swizzlekit.kernels.triton.device import current_gpu

        kept = self.fits(configs, named_args, **kwargs)
        mode = current_mode()
        if mode == "full" or len(kept) <= 1:
            return kept
        gpu_name = self.gpu_name or current_gpu()          # once for the ranking and the count
        estimate = choose.perf_model(self.model, gpu_name)
        ranked = sorted(kept, key=lambda c: estimate(**named_args, **kwargs, **c.all_kwargs()))
        if mode == "0":
            return ranked[:1]
        labels = [choose.config_label(c.kwargs, c.num_stages, c.num_warps) for c in ranked]
        flat = sum(label.endswith("/flat") for label in labels)
        return [ranked[i] for i in choose.timed(labels, choose.both_narrow(named_args), flat,
                                                gpu_name=gpu_name)]
