"""Plan stage, shared facts: a tile config's shared memory, and an operand's element size.

Both the config lists (:mod:`~swizzlekit.kernels.triton.configs`, which keep the configs that
fit) and the config model (:mod:`~swizzlekit.kernels.triton.choose`, which sizes residency
from them) read these, so they live below both. No Triton import.

>>> from types import SimpleNamespace
>>> cfg = SimpleNamespace(kwargs={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_stages=3)
>>> config_smem(cfg, 2, 2)             # 3 stages of A and B tiles, the C tile, barriers
132096
"""

from __future__ import annotations

__all__ = ["ONE_TILE_AREA", "config_smem", "element_size"]

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
