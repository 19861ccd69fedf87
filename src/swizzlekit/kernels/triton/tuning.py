"""Autotuning configs for the Triton GEMMs: building them, and keeping those that fit.

:mod:`~swizzlekit.kernels.triton.matmul` (16-bit, TF32, fp32) and
:mod:`~swizzlekit.kernels.triton.scaled` (fp8) list their own tile shapes and share the rest:
the tuple form of a config, the interpreter's one tile, the shared-memory check, the
small-M rule, and how many configs the autotuner times (``SWIZZLEKIT_AUTOTUNE``,
:data:`AUTOTUNE_MODES`): by default the best few by the config model
(:mod:`~swizzlekit.kernels.triton.choose`), ``full`` all of them, ``0`` the model's first.

>>> [c.kwargs["BLOCK_M"] for c in _config_list([(64, 128, 64, 4, 4)])]
[64]
"""

from __future__ import annotations

import functools
import os

import triton

from swizzlekit.gpus import gpu
from swizzlekit.kernels.triton.timing import gpu_time

__all__ = ["SMALL_M", "DEEP_TILES", "DEEP_SWAPPED", "DEEP_MAX_M", "INTERPRETER_TILE",
           "ONE_TILE_AREA", "AUTOTUNE_MODES", "autotune_mode", "Prune"]

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
    from swizzlekit.errors import SwizzleKitError

    mode = {None: "model", "": "model", "1": "full"}.get(value, value)
    if mode not in AUTOTUNE_MODES:
        raise SwizzleKitError(f"SWIZZLEKIT_AUTOTUNE={value!r} is not valid; choose one of: "
                              f"{', '.join(AUTOTUNE_MODES)} (1 means full)")
    return mode


_MODE = autotune_mode(os.environ.get("SWIZZLEKIT_AUTOTUNE"))
#: Up to this M the autotuner also tries tiles narrower than 64x128 (decode-like calls).
SMALL_M = 256
#: Deep pipelines (5 to 8 stages) for few rows, plain and swapped. With M <= 512 each SM holds
#: about one tile, and its K loop waits on DRAM unless many steps are in flight; cuBLAS runs
#: these shapes with 6 to 16 stages (its kernel names under ncu). On the H200, autotuning
#: every config with these added ran bf16 64, 128, 256 and 512 x 4096 x 4096 and
#: 256 x 8192 x 8192 in 16.7, 19.1, 22.8, 29.0 and 55.7 us, against 19.0, 22.7, 27.0, 32.6
#: and 60.1 without them (docs/benchmarks.md, "Deep pipelines at small M"); in the default
#: mode, over the config model refitted with them, the `decode` suite's 15 rows went from
#: 0.933 to 0.990x cuBLAS (bf16) and 0.939 to 1.002x (fp16): run 14. Offered only up to
#: :data:`DEEP_MAX_M` rows, the largest M measured.
#: In fp32 none fits the shared memory.
DEEP_TILES = [(128, 64, 64, 6, 4), (128, 64, 64, 8, 4), (64, 64, 128, 6, 4), (64, 128, 64, 6, 4),
              (128, 128, 64, 5, 8), (64, 64, 64, 8, 4)]
DEEP_SWAPPED = [(32, 128, 64, 8, 4), (64, 64, 128, 6, 4), (16, 64, 128, 8, 4),
                (32, 64, 128, 8, 4), (64, 128, 64, 8, 4)]
DEEP_MAX_M = 512
_DEEP = ({(*t, False) for t in DEEP_TILES} | {(*t, True) for t in DEEP_SWAPPED}
         | {(*t, None) for t in DEEP_TILES})


#: The TMA kernel runs a swapped tile of this many elements or more (BLOCK_M x BLOCK_N) one
#: per program, without its loop over tiles, when the grid is not persistent.
ONE_TILE_AREA = 256 * 128

#: The interpreter's one config (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps): nothing to tune.
INTERPRETER_TILE = (32, 32, 32, 1, 4)


def _config_list(shapes, pre_hook=None, **extra) -> list:
    """triton.Configs from (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps) tuples; ``extra``
    constexprs go into every config (``SWAP_AB=True``)."""
    return [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, **extra}, num_stages=s,
                          num_warps=w, pre_hook=pre_hook) for bm, bn, bk, s, w in shapes]


def _with_flat(configs, tiles, pre_hook=None, **extra) -> list:
    """``configs``, each marked ``FLAT=False``, then ``tiles`` as flattened configs
    (``FLAT=True``): one program per SM walking its tiles in one loop (the TMA kernels)."""
    for c in configs:
        c.kwargs["FLAT"] = False
    return configs + _config_list(tiles, pre_hook, FLAT=True, **extra)


def _element_size(arg) -> int:
    """The element size of a tensor argument or of a TMA descriptor's tensor."""
    return arg.element_size() if hasattr(arg, "element_size") else arg.base.element_size()


def _smem(c, in_bytes: int, out_bytes: int, single: bool = False) -> int:
    """A config's shared memory, counted high: its pipelined A and B tiles (``in_bytes`` an
    element) plus the C tile the epilogue stages (``out_bytes``), and 1 KiB for barriers.

    ``single``: a grid that is not persistent. A swapped tile of :data:`ONE_TILE_AREA` or more
    then runs one per program, where its C tile reuses the K loop's buffers, so the larger of
    the two counts. Triton 3.6 compiled for
    sm_90 allocated no more than these rules for every config of the lists (swapped and
    plain; 16-bit and fp32; one tile and persistent). Plain configs did not reuse their
    buffers in fp32, so they keep the sum."""
    bm, bn, bk = c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"]
    pipeline, staged = c.num_stages * (bm + bn) * bk * in_bytes, bm * bn * out_bytes
    if single and c.kwargs.get("SWAP_AB") and bm * bn >= ONE_TILE_AREA:
        return max(pipeline, staged) + 1024
    return pipeline + staged + 1024


def _key(c) -> tuple:
    """A config as (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps, SWAP_AB or None)."""
    k = c.kwargs
    return (k["BLOCK_M"], k["BLOCK_N"], k["BLOCK_K"], c.num_stages, c.num_warps, k.get("SWAP_AB"))


def _fitting(configs, M: int, in_bytes: int, out_bytes: int, single: bool = False) -> list:
    """The configs whose shared memory (:func:`_smem`) fits the H200's limit per block;
    tiles narrower than 64x128 only for M <= SMALL_M, and the deep pipelines
    (:data:`DEEP_TILES`, :data:`DEEP_SWAPPED`) only for M <= DEEP_MAX_M."""
    keep = [c for c in configs
            if _smem(c, in_bytes, out_bytes, single) <= gpu("h200").smem_per_block]
    if M > SMALL_M:
        keep = [c for c in keep if c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] >= 64 * 128]
    if M > DEEP_MAX_M:
        keep = [c for c in keep if _key(c) not in _DEEP]
    return keep or configs[-1:]


class Prune:
    """The autotuner's early prune: the kernel's own (``fits``: the configs that fit the
    call), then those this process's autotune mode times (:data:`AUTOTUNE_MODES`), ranked by
    the config model as kernel ``model`` (pointer, tma, fp8_pointer, fp8_tma): every one
    (``full``), the first (``0``), or :func:`~swizzlekit.kernels.triton.choose.timed`'s
    (``model``), with one more for each flattened twin kept, since the model ranks each just
    ahead of its twin (:data:`~swizzlekit.kernels.triton.choose.FLAT_AHEAD`)."""

    __slots__ = ("fits", "model")

    def __init__(self, fits, model: str):
        self.fits, self.model = fits, model

    def __call__(self, configs, named_args, **kwargs):
        from swizzlekit.kernels.triton import choose

        kept = self.fits(configs, named_args, **kwargs)
        if _MODE == "full" or len(kept) <= 1:
            return kept
        estimate = choose.perf_model(self.model)
        ranked = sorted(kept, key=lambda c: estimate(**named_args, **kwargs, **c.all_kwargs()))
        if _MODE == "0":
            return ranked[:1]
        labels = [choose.config_label(c.kwargs, c.num_stages, c.num_warps) for c in ranked]
        flat = sum(label.endswith("/flat") for label in labels)
        return [ranked[i] for i in choose.timed(labels, choose.both_narrow(named_args), flat)]


def _autotune(model: str, **kwargs):
    """triton.autotune, caching the chosen config per shape on disk where Triton can, timing
    each config's GPU time (:func:`~swizzlekit.kernels.triton.timing.gpu_time`), and timing
    only the configs :class:`Prune` keeps. ``model``: the kernel's name in the config model.
    ``prune_configs_by`` must name the kernel's ``early_config_prune``."""
    import inspect

    parameters = inspect.signature(triton.autotune).parameters
    if "cache_results" in parameters:
        kwargs["cache_results"] = True
    if "do_bench" in parameters:          # time the configs' kernels, not Triton's launch
        kwargs["do_bench"] = functools.partial(gpu_time, warmup=25, rep=100)
    by = kwargs["prune_configs_by"]
    kwargs["prune_configs_by"] = {**by, "early_config_prune": Prune(by["early_config_prune"],
                                                                    model)}
    return triton.autotune(**kwargs)
