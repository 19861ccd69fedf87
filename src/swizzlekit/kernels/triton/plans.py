"""Launch plans: a repeat GEMM call launches its compiled kernel without Triton's per-call work.

A Triton call goes through the autotuner (its key, its config's pre-hook), the heuristics,
and the JIT (binding, specialization, cache lookup, grid). On the H200 that cost the GEMM
51-74 us of host time per call against cuBLAS's 12 us (``swizzlekit lab overhead``,
docs/benchmarks.md), and below about 0.2 ms of GPU time the GPU waited for it.

The first call of a *signature* goes that way, as always. A signature is everything the
autotuner and the JIT decide from: shapes, strides, dtypes, whether each base pointer is
16-byte aligned, the order and the options. What they decided (the compiled kernel, the
config, the grid, and every argument but the tensors) becomes a :class:`Plan`. Later calls
with the same signature call the plan, which hands the tensors straight to the kernel's
launcher::

    first call:  matmul -> autotuner -> heuristics -> JIT -> launcher      (compiled kernel k)
    later calls: matmul -> Plan(k, grid, args but the tensors) -> launcher

A plan is made only when the compiled kernel's signature names exactly the arguments the plan
holds, so a Triton whose launch convention differs gets no plans and keeps the full path.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

from triton import knobs
from triton.runtime.driver import driver
from triton.runtime.jit import JITFunction

__all__ = ["Plan", "PlanCache", "capture"]


class Plan:
    """One compiled kernel with its grid and every argument after the ``n_tensors`` first
    ones. ``plan(*tensors)`` launches it on the current stream of the current device."""

    __slots__ = ("kernel", "grid", "rest", "config")

    def __init__(self, kernel, grid: tuple[int, int, int], rest: tuple, config: dict):
        self.kernel, self.grid, self.rest, self.config = kernel, grid, rest, config

    def __call__(self, *tensors) -> None:
        k = self.kernel
        device = driver.active.get_current_device()
        stream = driver.active.get_current_stream(device)
        args = (*tensors, *self.rest)
        enter = knobs.runtime.launch_enter_hook      # profilers (proton) keep seeing launches
        meta = k.launch_metadata(self.grid, stream, *args) if enter is not None else None
        k.run(*self.grid, stream, k.function, k.packed_metadata, meta, enter,
              knobs.runtime.launch_exit_hook, *args)

    def __repr__(self) -> str:
        return f"Plan({self.kernel.name}, grid={self.grid}, config={self.config})"


def _layers(fn):
    """The JIT function under an autotuner and heuristics, and the heuristics on the way."""
    heuristics = []
    while not isinstance(fn, JITFunction):
        if hasattr(fn, "values") and isinstance(fn.values, dict):
            heuristics.append(fn.values)
        fn = fn.fn
    return fn, heuristics


def capture(autotuned, kernel, named: dict[str, Any], grid: Callable[[dict], tuple],
            n_tensors: int) -> Plan | None:
    """A plan for a call just made: ``autotuned`` is the ``@triton.autotune`` kernel,
    ``kernel`` what its call returned (the compiled kernel), ``named`` the call's arguments by
    name, ``grid`` its grid function. None where Triton's conventions are not the expected
    ones (then every call takes the full path)."""
    config = getattr(autotuned, "best_config", None)
    if config is None or not hasattr(kernel, "packed_metadata") or not hasattr(kernel, "run"):
        return None
    jit, heuristics = _layers(autotuned)
    values = {**named, **config.kwargs}
    for rules in reversed(heuristics):            # innermost last, as Triton applies them
        for name, rule in rules.items():
            values[name] = rule(values)
    names = list(jit.arg_names)
    signature = getattr(getattr(kernel, "src", None), "signature", None)
    if signature is None or list(signature) != names or any(n not in values for n in names):
        return None
    g = tuple(grid(values)) + (1, 1)
    return Plan(kernel, (int(g[0]), int(g[1]), int(g[2])),
                tuple(values[n] for n in names[n_tensors:]), dict(config.kwargs))


class PlanCache:
    """Plans by signature, the least recently used dropped past ``size`` entries."""

    def __init__(self, size: int = 1024):
        self.size, self._plans = size, OrderedDict()

    def get(self, key) -> Plan | None:
        plan = self._plans.get(key)
        if plan is not None:
            self._plans.move_to_end(key)
        return plan

    def put(self, key, plan: Plan | None) -> None:
        if plan is None:
            return
        self._plans[key] = plan
        while len(self._plans) > self.size:
            self._plans.popitem(last=False)

    def clear(self) -> None:
        self._plans.clear()

    def __len__(self) -> int:
        return len(self._plans)
