"""Launch stage: a repeat call on copies for TMA by device addresses (:func:`_follow_copies`),
where its route allows it (:func:`_express`); :mod:`.matmul`'s repeat path asks both. No
tensors are made over the copies' buffer for addresses seen before, and no door is passed."""

from __future__ import annotations

from swizzlekit.kernels.triton.copies import copiers
from swizzlekit.kernels.triton.plans import hooked
from swizzlekit.kernels.triton.routes import Route
from swizzlekit.kernels.triton.split_k import buffers
from swizzlekit.kernels.triton.tiles import _descriptors

__all__: list[str] = []     # launch internals: imported by name by .matmul


def _express(route: Route, print_):
    """The copier of a repeat call on copies for TMA that :func:`_follow_copies` can take
    (the GEMM launched on the copies' addresses: no pitched or K-major copy of B, no launch
    hooks, which see tensors), or None."""
    if not route.copies or route.pitch or route.kcopy or route.wide or route.tail or hooked():
        return None
    return copiers().get(print_)


def _follow_copies(route: Route, plan, copier, a, b, c):
    """A repeat call on copies for TMA by device addresses: the copies launched into one
    buffer (:meth:`.copies._Copier.launch`), then the GEMM's plan on their addresses and
    C's (and a split K's workspace and counters, :func:`.split_k.buffers`). The encoded TMA
    descriptors of an address set seen before are reused, so tensors over the buffer are
    made only for new addresses. On the H100 a repeat call at 1001^3 took 25.8-29.0 us of
    host time so, against 46.6-54.9 us through views of two buffers (ragged_small/host_ab.py;
    where the time went: docs/data/bench/host_copies/)."""
    buf, pa, pb = copier.launch(a, b)
    pc = c.data_ptr()
    ws = counts = pc                            # unused without a split
    if route.split != 1:
        ws, counts = buffers(route.split, a.shape[0], b.shape[1], a.device, c)
    if not route.tma:                           # the pointer kernel on the copies
        plan(pa, pb, pc, ws, counts)
        return c

    def descriptors():
        return _descriptors((*copier.views(buf, a, b), c)[:2 if route.c_ptr else 3],
                            route.b_kmajor, plan.config)

    if route.c_ptr:                             # C by masked stores
        plan.tma_at((pa, pb), descriptors, pc, ws, counts)
    else:
        plan.tma_at((pa, pb, pc), descriptors, ws, counts)
    return c
