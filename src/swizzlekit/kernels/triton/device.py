"""Plan stage: the GPU a call runs on, as a preset of :mod:`swizzlekit.gpus`. The config model
(:mod:`.choose`) and ``order="auto"`` (:mod:`.auto_order`) take that preset's fit.

Without a CUDA device (``swizzlekit kernels configs`` on a laptop, the CPU tests) the plan is
made for :data:`FALLBACK`; a device no preset describes is planned for it too.

>>> from swizzlekit.gpus import GPUS
>>> current_gpu() in GPUS
True
"""

from __future__ import annotations

import functools

from swizzlekit.gpus import preset_of

__all__ = ["FALLBACK", "current_gpu"]

#: The preset planned for where no CUDA device is present or none describes it: the card the
#: first tables were measured on.
FALLBACK = "h200"


@functools.lru_cache(maxsize=16)
def _preset_of_device(index: int) -> str:
    import torch

    return preset_of(torch.cuda.get_device_name(index)) or FALLBACK


def current_gpu() -> str:
    """The preset of this process's current CUDA device, else :data:`FALLBACK`."""
    try:
        import torch
    except ImportError:
        return FALLBACK
    if not torch.cuda.is_available():
        return FALLBACK
    return _preset_of_device(torch.cuda.current_device())
