"""Plan stage: the GPU a call runs on, as a preset of :mod:`swizzlekit.gpus`. The config model
(:mod:`.choose`) and ``order="auto"`` (:mod:`.auto_order`) take that preset's fit.

Without a CUDA device (``swizzlekit kernels configs`` on a laptop, the CPU tests) the plan is
made for :data:`FALLBACK`; a device no preset describes, or one that is no Hopper card, is
planned for it too. Where torch is not loaded, the driver's list of GPUs names the card, so
that planning on the CPU does not import torch.

>>> from swizzlekit.gpus import GPUS
>>> current_gpu() in GPUS
True
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from swizzlekit.gpus import GPUS, gpu, preset_of

__all__ = ["FALLBACK", "PLANNED", "PROC_GPUS", "planned", "current_gpu", "check_planned"]

#: The preset planned for where no CUDA device is present or none describes it: the card the
#: first tables were measured on.
FALLBACK = "h200"
#: Where the NVIDIA driver lists its GPUs on Linux (one folder each, ``information`` naming
#: the model), read where torch is not loaded, so that planning on the CPU stays quick.
PROC_GPUS = Path("/proc/driver/nvidia/gpus")
#: The presets the GEMM plans for: the Hopper cards (``sm_90``), whose TMA and wgmma paths the
#: kernels take and whose peaks the config model needs.
PLANNED = tuple(k for k, g in GPUS.items() if g.arch == "sm_90")


def check_planned(name: str) -> str:
    """``name`` (lower case) where it names a preset the GEMM plans for (:data:`PLANNED`);
    :class:`~swizzlekit.errors.SwizzleKitError` naming the choices otherwise: the door for a
    card a caller names.

    >>> check_planned("H100-SXM")
    'h100-sxm'
    """
    from swizzlekit.errors import SwizzleKitError

    if gpu(name) and name.lower() not in PLANNED:
        raise SwizzleKitError(f"the Triton GEMM plans for Hopper cards only; got GPU {name!r} "
                              f"({gpu(name).arch}); choose one of: {', '.join(PLANNED)}")
    return name.lower()


def planned(name: str | None) -> str:
    """``name`` where the GEMM plans for that preset (a Hopper card, ``sm_90``: the kernels'
    TMA and wgmma paths, and the peaks the config model needs), else :data:`FALLBACK`.

    >>> planned("h100-sxm"), planned("a100"), planned(None)
    ('h100-sxm', 'h200', 'h200')
    """
    if name is None:
        return FALLBACK
    gpu(name)                                          # the door: a preset's name
    return name if name.lower() in PLANNED else FALLBACK


@functools.lru_cache(maxsize=16)
def _preset_of_device(index: int) -> str:
    import torch

    return planned(preset_of(torch.cuda.get_device_name(index)))


@functools.lru_cache(maxsize=1)
def _preset_of_host() -> str:
    """The preset of the driver's GPUs where they are all of one (else :data:`FALLBACK`)."""
    names = set()
    try:
        for info in PROC_GPUS.glob("*/information"):
            for line in info.read_text().splitlines():
                if line.startswith("Model:"):
                    names.add(preset_of(line.split(":", 1)[1].strip()))
    except OSError:
        return FALLBACK
    if len(names) != 1:
        return FALLBACK
    return planned(names.pop())


def current_gpu() -> str:
    """The preset of this process's current CUDA device where torch is loaded (as every GEMM
    call has it), else of the host's GPUs as the driver lists them, else :data:`FALLBACK`."""
    torch = sys.modules.get("torch")
    if torch is None:
        return _preset_of_host()
    if not torch.cuda.is_available():
        return FALLBACK
    return _preset_of_device(torch.cuda.current_device())
