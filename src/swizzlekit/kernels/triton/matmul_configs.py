"""The tile configs of :func:`swizzlekit.kernels.matmul` and the rule that keeps those a call can
run: the plain ones for both kernels, and for the TMA kernel the swapped ones (``SWAP_AB``,
Cᵀ = Bᵀ Aᵀ) that TF32 with a row-major B takes.

>>> [c.kwargs["SWAP_AB"] for c in _configs(swap=True)][-1]
True
>>> _swap_ab(4, "tf32", b_kmajor=False), _swap_ab(2, "tf32", b_kmajor=False)
(True, False)
"""

from __future__ import annotations

from swizzlekit.kernels.triton.call import _INTERPRET
from swizzlekit.kernels.triton.tuning import (_AUTOTUNE, INTERPRETER_TILE, _config_list,
                                              _element_size, _fitting)

__all__: list[str] = []     # private to the kernels: matmul.py imports what it needs


def _configs(pre_hook=None, swap: bool = False):
    """The tile configs; ``swap``: with the TMA kernel's swapped ones (``SWAP_AB=True``, for
    TF32 with a row-major B) beside the plain ones (``SWAP_AB=False``)."""
    if _INTERPRET:
        if not swap:
            return _config_list([INTERPRETER_TILE], pre_hook)
        return (_config_list([INTERPRETER_TILE], pre_hook, SWAP_AB=False)
                + _config_list([INTERPRETER_TILE], pre_hook, SWAP_AB=True))
    shapes = [(128, 256, 64, 3, 8), (128, 256, 64, 4, 8), (256, 128, 64, 3, 8),
              (128, 128, 64, 4, 8), (128, 128, 64, 4, 4), (128, 256, 32, 4, 8),
              (128, 128, 32, 4, 4), (64, 128, 64, 4, 4),
              # smaller ones that fit fp32 operands (TF32 and IEEE)
              (128, 128, 32, 3, 8), (64, 256, 32, 4, 8), (128, 64, 64, 3, 4),
              # narrow tiles for M <= SMALL_M, where 128-wide tiles leave most SMs idle
              # (64x4096 is 32 tiles of 64x128 for 132 SMs); _prune drops them above it
              (64, 64, 128, 3, 4), (64, 32, 128, 4, 4), (32, 64, 128, 4, 4),
              (16, 32, 256, 3, 4)]
    # swapped (Cᵀ = Bᵀ Aᵀ; BLOCK_N is wgmma's M, at least 64): the H200's picks of 13 for nine
    # shapes from 16x14336x4096 to 8192³ (docs/data/bench/tf32_probe2.json). The first fits
    # one tile per program only (ONE_TILE_AREA), so persistent grids take it in 2 stages;
    # the probe's 128x128x64 in 3 stages fits neither, and runs in 2.
    swapped = [(256, 128, 32, 3, 8), (128, 128, 32, 4, 8), (256, 128, 32, 2, 8),
               (128, 128, 64, 2, 8), (64, 128, 64, 3, 4), (64, 64, 64, 3, 4), (32, 64, 64, 4, 4),
               (16, 64, 128, 3, 4)]
    if not _AUTOTUNE:            # SWIZZLEKIT_AUTOTUNE=0: the first config that fits, untuned
        shapes, swapped = [(128, 128, 64, 4, 8), (128, 128, 32, 3, 8)], swapped[1:3]
    if not swap:
        return _config_list(shapes, pre_hook)
    return (_config_list(shapes, pre_hook, SWAP_AB=False)
            + _config_list(swapped, pre_hook, SWAP_AB=True))


def _prune(configs, named_args, **kwargs):
    """:func:`_fitting`, C in the operands' dtype; the TMA kernel's swapped configs exactly
    when TF32 meets a row-major B (:func:`_swap_ab`), its plain ones otherwise."""
    elem = _element_size(named_args.get("a_ptr", named_args.get("a_desc")))
    single = False
    if "B_KMAJOR" in kwargs:                        # the TMA kernel
        swap = _swap_ab(elem, kwargs["PRECISION"], kwargs["B_KMAJOR"])
        configs = [c for c in configs if c.kwargs["SWAP_AB"] == swap]
        single = not kwargs["PERSISTENT"]
    return _fitting(configs, named_args.get("M", 0), elem, elem, single)


def _swap_ab(elem: int, precision: str, b_kmajor: bool) -> bool:
    """Whether the TMA kernel computes Cᵀ = Bᵀ Aᵀ: TF32 with B row-major (N-major tiles),
    which wgmma takes only as its A operand, from registers."""
    return elem == 4 and precision == "tf32" and not b_kmajor
