"""Door stage: repeat calls skip the door: what a call's checks decided, kept under the call's
fingerprint.

A GEMM call's checks and routing (:mod:`.call`'s door, the load path, the split, the
signature its plan is filed under) read only the tensors' types, shapes, strides, dtypes,
devices and the 16-byte alignment of their base pointers, and the call's options. Two calls
that agree on all of those (their *fingerprint*, :func:`fingerprint`) pass or fail the same
checks and take the same route. On the H200 the door took 35-43% of a repeat call's host
time (docs/data/bench/JOURNAL.md, "Run 11"), so a call whose fingerprint has a :class:`Route` goes
straight to its plan::

    a fingerprint's first planned call:  door -> signature -> split -> plan   (Route kept)
    later calls:                         fingerprint -> Route -> plan

A route names its plan by the plan's key, so a plan cache cleared or evicted sends the next
call the full way again. A call whose rows are not 16-byte aligned runs on copies: of the
operands TMA cannot read, in rows of a 128-byte pitch (``copies``), or of every operand,
zero-padded (``pad``); its route is its copies' route, so marked (:meth:`RouteCache.adopt`),
and a repeat call makes the copies and goes straight to their plan (``copies``: by device
address, the copies in one buffer, :func:`.express._follow_copies`). So do calls on a copy of
B in rows of a 128-byte pitch (``pitch``) and TF32's K-major copy of B (``kcopy``). Calls that
copy an operand any other way (fp8 scales that are not contiguous) go the full way every
time.

>>> import torch
>>> x = torch.zeros(4, 8)
>>> o = ("grouped", 8)
>>> fingerprint((x, None), o) == fingerprint((torch.ones(4, 8), None), o)
True
>>> fingerprint((x, None), o) == fingerprint((x.T.contiguous().T, None), o)   # column-major
False
>>> fingerprint((x[:, 1:],), ())[0][-1]               # the base 4 bytes past x's
4
>>> fingerprint(("not a tensor",), ()) is None, fingerprint((x,), ({"group": 8},)) is None
(True, True)
"""

from __future__ import annotations

from typing import NamedTuple

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.plans import PlanCache

__all__ = ["Route", "RouteCache", "fingerprint"]


class Route(NamedTuple):
    """Where a repeat call goes: the plan under ``key``, with ``split`` K splits, by TMA or
    pointer loads, B K-major (``b_kmajor``: by TMA it is read through ``b.T``), on the
    operands as given or (``pad``) on the zero-padded aligned copies its first call made,
    (``copies``) on copies in 128-byte rows of the operands TMA cannot read
    (:func:`.copies._tma_copies`), (``pitch``) on a copy of B in rows of a 128-byte pitch, and
    (``kcopy``) on a K-major copy of B (:func:`.kmajor.kmajor_copy`); ``c_ptr``: the TMA
    kernel writes C by masked stores (:mod:`.tma_kernel`); ``wide``: the plan is the
    composite-tile kernel's (:mod:`.wide_kernel`); ``tail``: the TMA kernel's with a tail
    split (``TAIL``), whose workspace is :func:`.split_k.tail_buffers`."""
    key: tuple
    split: int
    tma: bool
    b_kmajor: bool
    pad: bool = False
    pitch: bool = False
    kcopy: bool = False
    copies: bool = False
    c_ptr: bool = False
    wide: bool = False
    tail: bool = False


def _print(t) -> tuple | None:
    """What the door reads of one tensor (None stays None)."""
    if t is None:
        return None
    return (type(t), tuple(t.shape), t.stride(), t.dtype, t.device, t.data_ptr() % 16)


def fingerprint(tensors: tuple, options: tuple) -> tuple | None:
    """The call's fingerprint: each tensor's type, shape, strides, dtype, device and base
    alignment (mod 16), then the options; None where a tensor lacks those (the door will say
    what is wrong) or an option cannot be hashed."""
    try:
        key = (*map(_print, tensors), *options)
        hash(key)
    except (AttributeError, TypeError, RuntimeError):
        return None
    return key


class RouteCache(PlanCache):
    """Routes by fingerprint, the least recently used dropped past ``size`` entries."""

    def follow(self, print_: tuple | None, plans: PlanCache):
        """``(route, plan)`` for a call of fingerprint ``print_`` (None: none to take): its
        route, and the plan under the route's key while ``plans`` still holds it."""
        route = self.get(print_) if print_ is not None else None
        plan = plans.get(route.key) if route is not None else None
        return (route, plan) if plan is not None else None

    def adopt(self, print_: tuple | None, copies_print: tuple | None,
              mark: str = "pad") -> None:
        """Route a call of fingerprint ``print_`` that ran on copies the way the copies' own
        call (fingerprint ``copies_print``) went, marked ``mark`` (``pad`` or ``copies``:
        which copies a repeat call makes); nothing where that call kept no route."""
        if mark not in ("pad", "copies"):
            raise SwizzleKitError(f"mark must be 'pad' or 'copies', got {mark!r}")
        route = self.get(copies_print) if copies_print is not None else None
        if print_ is not None and route is not None:
            self.put(print_, route._replace(**{mark: True}))
