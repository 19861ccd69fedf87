"""Launch stage: launch plans: a repeat GEMM call launches its compiled kernel without Triton's
per-call work.

A Triton call goes through the autotuner (its key, its config's pre-hook), the heuristics,
and the JIT (binding, specialization, cache lookup, grid). On the H200 that cost the GEMM
51-74 us of host time per call against cuBLAS's 12 us (``swizzlekit lab overhead``,
docs/data/bench/JOURNAL.md), and below about 0.2 ms of GPU time the GPU waited for it.

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

TMA calls pass descriptors, and Triton encodes each one into a ``CUtensorMap`` on every
launch (its launcher's ``make_tensordesc_arg``), after the caller built a ``TensorDescriptor``
for it: on the H200 that was 40% of a TMA call's host time. A plan's signature fixes every
shape, stride and block of those descriptors, so only the base addresses can differ between
its calls. :meth:`Plan.tma` keeps the encoded descriptors of the last
:data:`ENCODED_PER_PLAN` address sets and hands them to the launcher below Triton's wrapper::

    Plan.tma(tensors):  addresses seen? -> encoded descriptors -> C launcher
                        else            -> TensorDescriptors -> make_tensordesc_arg -> kept

That launcher is found only where Triton's wrapper is the one this was written against
(Triton 3.6: ``wrap_handle_tensordesc`` closing over ``launcher`` and ``tensordesc_meta``,
every descriptor lowered to a ``CUtensorMap``, no scratch memory); elsewhere, and while
launch hooks are set, :meth:`Plan.tma` builds the descriptors and goes the full way.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

from triton import knobs
from triton.runtime.driver import driver
from triton.runtime.jit import JITFunction

__all__ = ["ENCODED_PER_PLAN", "Plan", "PlanCache", "capture", "hooked", "plannable",
           "launch_planned"]

#: Address sets whose encoded TMA descriptors a plan keeps (least recently used dropped).
ENCODED_PER_PLAN = 16


class Plan:
    """One compiled kernel with its grid and every argument after the ``n_tensors`` first
    ones. ``plan(*tensors)`` launches it on the current stream of the current device."""

    __slots__ = ("kernel", "grid", "rest", "config", "info", "_direct", "_encoded")

    def __init__(self, kernel, grid: tuple[int, int, int], rest: tuple, config: dict,
                 info: dict | None = None):
        self.kernel, self.grid, self.rest, self.config = kernel, grid, rest, config
        self.info = info or {}          # what :func:`capture` read: stages, warps, order
        self._direct, self._encoded = _direct_launcher(kernel), OrderedDict()

    def tma(self, tensors: tuple, descriptors: Callable[[], list], *others) -> None:
        """Launch with TMA descriptors of ``tensors`` as the first arguments, ``others``
        after them. ``descriptors()`` builds their ``TensorDescriptor``s; it runs only for
        addresses this plan has not encoded yet, or where the direct launch is not
        available (module docstring)."""
        self.tma_at(tuple(t.data_ptr() for t in tensors), descriptors, *others)

    def tma_at(self, addresses: tuple, descriptors: Callable[[], list], *others) -> None:
        """:meth:`tma` for tensors at the device ``addresses`` (their ``data_ptr()``s), which
        a caller holding raw addresses passes without making tensors; ``descriptors()`` makes
        them where these addresses were not encoded yet."""
        direct = self._direct
        if direct is None or _hooks() != (None, None):
            return self(*descriptors(), *others)
        encoded = self._encoded.get(addresses)
        if encoded is None:
            encoded = _encode(descriptors(), direct[1])
            self._encoded[addresses] = encoded
            if len(self._encoded) > ENCODED_PER_PLAN:
                self._encoded.popitem(last=False)
        else:
            self._encoded.move_to_end(addresses)
        launch, _, cooperative, pdl = direct
        k = self.kernel
        device = driver.active.get_current_device()
        stream = driver.active.get_current_stream(device)
        launch(*self.grid, stream, k.function, cooperative, pdl, None, None, k.packed_metadata,
               None, None, None, *encoded, *others, *self.rest)

    def __call__(self, *tensors) -> None:
        k = self.kernel
        device = driver.active.get_current_device()
        stream = driver.active.get_current_stream(device)
        args = (*tensors, *self.rest)
        enter, exit_ = _hooks()                      # profilers (proton) keep seeing launches
        meta = k.launch_metadata(self.grid, stream, *args) if enter is not None else None
        k.run(*self.grid, stream, k.function, k.packed_metadata, meta, enter, exit_, *args)

    def __repr__(self) -> str:
        return f"Plan({self.kernel.name}, grid={self.grid}, config={self.config})"


def hooked() -> bool:
    """Whether a launch hook (a profiler's, such as proton's) is set: the hooks see each
    launch's arguments, so callers that launch on raw addresses pass tensors instead."""
    return _hooks() != (None, None)


def _hooks() -> tuple:
    """Triton's launch hooks (enter, exit), or (None, None) where neither is set: Triton 3.6
    keeps them as hook chains, empty until a profiler adds to them."""
    enter, exit_ = knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook
    if all(h is None or getattr(h, "calls", None) == [] for h in (enter, exit_)):
        return None, None
    return enter, exit_


def _direct_launcher(kernel):
    """(C launcher, descriptor metadata, cooperative, PDL) of a compiled kernel whose TMA
    arguments Triton 3.6's ``wrap_handle_tensordesc`` encodes, or None (module docstring)."""
    run = getattr(kernel, "run", None)             # compiled kernels load it on first use
    launch = getattr(run, "launch", None)
    cells = getattr(launch, "__closure__", None)
    if cells is None or getattr(launch, "__name__", None) != "inner":
        return None
    free = dict(zip(launch.__code__.co_freevars, (c.cell_contents for c in cells)))
    meta, indices = free.get("tensordesc_meta"), free.get("tensordesc_indices")
    if (not callable(free.get("launcher")) or not meta or any(m is None for m in meta)
            or indices != set(range(len(meta))) or hasattr(run, "arg_annotations")
            or getattr(run, "global_scratch_size", 1) or getattr(run, "profile_scratch_size", 1)
            or _make_tensordesc_arg() is None):
        return None
    return (free["launcher"], list(meta), run.launch_cooperative_grid, run.launch_pdl)


def _make_tensordesc_arg():
    try:
        from triton.backends.nvidia.driver import make_tensordesc_arg
    except ImportError:
        return None
    return make_tensordesc_arg


def _encode(descriptors: list, meta: list) -> tuple:
    """The launcher's arguments for ``descriptors``: each one's ``CUtensorMap``, shape and
    strides, as Triton's ``make_tensordesc_arg`` makes them (it holds no tensor)."""
    make = _make_tensordesc_arg()
    return tuple(x for d, m in zip(descriptors, meta) for x in make(d, m))


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
    info = {k: getattr(config, k) for k in ("num_stages", "num_warps") if hasattr(config, k)}
    info.update({k: values[k] for k in ("ORDER", "P") if k in values})
    return Plan(kernel, (int(g[0]), int(g[1]), int(g[2])),
                tuple(values[n] for n in names[n_tensors:]), dict(config.kwargs), info)


def plannable(compiled, jit) -> bool:
    """Whether ``compiled`` (what a call of the JIT function ``jit`` returned) takes its
    arguments as :class:`Plan` passes them: every argument of the JIT signature, in order.
    Elsewhere each call goes through the JIT."""
    signature = getattr(getattr(compiled, "src", None), "signature", None)
    return (signature is not None and hasattr(compiled, "packed_metadata")
            and list(signature) == list(jit.arg_names))


def launch_planned(cache: "PlanCache", key, jit, grid: tuple[int, int, int], tensors: tuple,
                   args: tuple, constexprs: dict, **options) -> Plan | None:
    """Launch the JIT function ``jit`` (no autotuner) on ``tensors``, then ``args`` (its other
    runtime arguments, in order) and ``constexprs``: through the plan ``cache`` keeps under
    ``key`` where it has one, else through the JIT, keeping the compiled kernel's plan under
    ``key`` where it is :func:`plannable` (``key`` None: no plan, every call the full way).
    ``options`` go to the JIT (``num_warps``). Returns the plan launched or kept, or None."""
    plan = cache.get(key) if key is not None else None
    if plan is not None:
        plan(*tensors)
        return plan
    compiled = jit[grid](*tensors, *args, **constexprs, **options)
    if key is None or not plannable(compiled, jit):
        return None
    values = {**dict(zip(jit.arg_names[len(tensors):], args)), **constexprs}
    plan = Plan(compiled, grid, tuple(values[n] for n in jit.arg_names[len(tensors):]), {})
    cache.put(key, plan)
    return plan


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

    def kept(self, key, make):
        """The entry of ``key``, or ``make()``'s, kept under ``key`` first (a signature's first
        call decides, its repeat calls reuse: split, composite tile, C from registers)."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def clear(self) -> None:
        self._plans.clear()

    def __len__(self) -> int:
        return len(self._plans)
