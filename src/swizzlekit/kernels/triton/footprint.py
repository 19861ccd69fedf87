"""Plan stage, shared facts: a tile config's shared memory, an operand's element size, and the
16-byte vector hint of the pointer-load kernels.

Both the config lists (:mod:`~swizzlekit.kernels.triton.configs`, which keep the configs that
fit) and the config model (:mod:`~swizzlekit.kernels.triton.choose`, which sizes residency
from them and costs loads by their width) read these, and the kernels take the hint, so they
live below all three. No Triton import.

>>> from types import SimpleNamespace
>>> cfg = SimpleNamespace(kwargs={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_stages=3)
>>> config_smem(cfg, 2, 2)             # 3 stages of A and B tiles, the C tile, barriers
132096
"""

from __future__ import annotations

__all__ = ["ONE_TILE_AREA", "VEC_NAMES", "config_smem", "element_size", "vec_hint"]

#: The TMA kernel runs a swapped tile of this many elements or more (BLOCK_M x BLOCK_N) one
#: per program, without its loop over tiles, when the grid is not persistent.
ONE_TILE_AREA = 256 * 128


def element_size(arg) -> int:
    """The element size of a tensor argument or of a TMA descriptor's tensor."""
    return arg.element_size() if hasattr(arg, "element_size") else arg.base.element_size()


def config_smem(c, in_bytes: int, out_bytes: int, single: bool = False) -> int:
    """A config's shared memory, counted high: its pipelined A and B tiles (``in_bytes`` an
    element) plus the C tile the epilogue stages (``out_bytes``), and 1 KiB for barriers.

    ``single``: a grid that is not persistent. A swapped tile of :data:`ONE_TILE_AREA` or more
    then runs one per program, where its C tile reuses the K loop's buffers, so the larger of
    the two counts. Triton 3.6 compiled for sm_90 allocated no more than these rules for every
    config of the lists (swapped and plain; 16-bit and fp32; one tile and persistent). Plain
    configs did not reuse their buffers in fp32, so they keep the sum."""
    bm, bn, bk = c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"]
    pipeline, staged = c.num_stages * (bm + bn) * bk * in_bytes, bm * bn * out_bytes
    if single and c.kwargs.get("SWAP_AB") and bm * bn >= ONE_TILE_AREA:
        return max(pipeline, staged) + 1024
    return pipeline + staged + 1024


#: The names whose values :func:`vec_hint` divides and ``tiles._pointer_acc`` rewrites.
VEC_NAMES = ("stride_am", "stride_bk", "stride_cm", "K", "N")


def vec_hint(args: dict, elem_bytes: int) -> int:
    """``VEC`` for a pointer-load launch: the elements in 16 bytes, where every value of
    :data:`VEC_NAMES` is a multiple of them but not all are multiples of 16 (Triton
    specializes integers on 16 alone, so B's rows 5000 bf16 apart, 16-byte aligned, would
    otherwise load element by element); else 1, which changes nothing.

    >>> vec_hint(dict(stride_am=3000, stride_bk=5000, stride_cm=5000, K=3000, N=5000), 2)
    8
    >>> vec_hint(dict(stride_am=4096, stride_bk=4096, stride_cm=4096, K=4096, N=4096), 2)
    1
    >>> vec_hint(dict(stride_am=1, stride_bk=5000, stride_cm=5000, K=3000, N=5000), 2)
    1
    """
    vals = [args[name] for name in VEC_NAMES]
    if all(v % 16 == 0 for v in vals):
        return 1
    vec = 16 // elem_bytes
    return vec if all(v % vec == 0 for v in vals) else 1
