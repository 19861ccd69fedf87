"""Plan stage: the Triton side of the tile configs: ``triton.Config`` from
:class:`~swizzlekit.kernels.triton.configs.TileConfig`, and the autotuner the GEMMs use.

What a config is, which ones fit a call and how many the autotuner times live in
:mod:`~swizzlekit.kernels.triton.configs`, which imports no Triton; this module wraps
``triton.autotune`` around them (:func:`_autotune`).

>>> [c.kwargs["BLOCK_M"] for c in _config_list([(64, 128, 64, 4, 4)])]
[64]
>>> type(_config_list([(64, 128, 64, 4, 4)])[0]).__name__
'Config'
"""

from __future__ import annotations

import functools

import triton

from swizzlekit.kernels.triton import configs as tile_configs
from swizzlekit.kernels.triton.configs import Prune
from swizzlekit.kernels.triton.timing import gpu_time

__all__ = ["to_triton"]


def to_triton(configs) -> list:
    """``triton.Config`` for each config (a ``TileConfig``, or a ``triton.Config`` as it is)."""
    return [c if isinstance(c, triton.Config) else
            triton.Config(dict(c.kwargs), num_stages=c.num_stages, num_warps=c.num_warps,
                          pre_hook=c.pre_hook) for c in configs]


def _config_list(shapes, pre_hook=None, **extra) -> list:
    """``triton.Config`` from (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps) tuples
    (:func:`~swizzlekit.kernels.triton.configs._config_list`)."""
    return to_triton(tile_configs._config_list(shapes, pre_hook, **extra))


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
    kwargs["configs"] = to_triton(kwargs["configs"])
    return triton.autotune(**kwargs)
