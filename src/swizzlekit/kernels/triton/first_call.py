"""Plan stage: what a signature's first call times beside its autotuned plan, keeping the
fastest for the signature's repeat calls (:mod:`.matmul` keeps the answers):

* for the last wave (:func:`pick_last_wave`): composite tiles, where
  :func:`.waves.wide_timed` names them, and a tail split, where :func:`.waves.tail_timed`
  does;
* TF32's 128x256 tiles with C stored from registers (:func:`pick_regs`), where
  :func:`.matmul_configs.c_regs_timed` names them (below the rows from which
  :func:`.matmul_configs.c_regs_taken` takes them untimed).

Each candidate runs once (compiled, autotuned, planned), then :func:`.split_k.pick_split`
times them all in interleaved replicates. ``go`` is the plain plan's launch arguments and
``launch(*go, split_k, print_, regs, tail)`` :mod:`.matmul`'s launch stage, passed in so that
this module imports no stage above it.
"""

from __future__ import annotations

from swizzlekit.kernels.triton.auto_order import AUTO
from swizzlekit.kernels.triton.call import _order_args, _slots
from swizzlekit.kernels.triton.matmul_configs import _auto_order
from swizzlekit.kernels.triton.split_k import pick_split
from swizzlekit.kernels.triton.wide_kernel import launch_wide, wide_plan

__all__ = ["TAIL", "pick_last_wave", "pick_regs"]

#: :func:`pick_last_wave`'s answer where the tail split ran fastest.
TAIL = "tail"


def pick_last_wave(go: tuple, tiles: tuple, tail: bool, launch):
    """What runs the call ``go`` describes fastest: the wide plan of one of ``tiles``,
    :data:`TAIL` (``launch(..., tail=True)``, where ``tail``), or False for its plain plan."""
    a, _, _, b_arg, c, sig, kernel_order, p, precision, persistent, use_tma, b_kmajor = go[:12]
    M, K = a.shape
    N = b_arg.shape[1]
    if kernel_order == AUTO:        # the model's pick, once for the plain plan and the wide
        kernel_order, p = _order_args(*_auto_order(a, M, N, K, precision, use_tma, b_kmajor,
                                                   persistent))
        go = (*go[:6], kernel_order, p, *go[8:])       # the plan's key (sig) stays the call's
    plans = [wide_plan(a, b_arg, c, tile, kernel_order, p,
                       lambda tm, tn: _slots(kernel_order, p, tm, tn)) for tile in tiles]
    plans = [plan for plan in plans if plan is not None]   # None: this Triton plans none
    runs = [lambda: launch(*go, 1, None)] + [
        lambda plan=plan: launch_wide(plan, a, b_arg, c) for plan in plans]
    if tail:
        plans.append(TAIL)
        runs.append(lambda: launch(*go, 1, None, False, True))
    best = pick_split(lambda i: runs[i](), tuple(range(len(runs)))) if plans else 0
    return plans[best - 1] if best else False


def pick_regs(go: tuple, launch) -> bool:
    """Whether the plan with C from registers (``launch(..., regs=True)``) runs faster than
    the autotuned plan of the call ``go`` describes."""
    runs = (lambda: launch(*go, 1, None), lambda: launch(*go, 1, None, True))
    return bool(pick_split(lambda i: runs[i](), (0, 1)))
