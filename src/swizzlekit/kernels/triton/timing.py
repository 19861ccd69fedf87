"""Plan stage: the GPU's time for a call, not the host's: Triton's ``do_bench``, with the GPU
kept busy while the host launches.

``triton.testing.do_bench`` zeroes a 256 MB buffer (flushing L2), records a start event,
calls ``fn`` and records an end event. If the host takes longer to launch ``fn`` than the
GPU takes to zero the buffer, the GPU reaches the start event first and waits, and the time
includes part of the host's launch. Triton's autotuner launches each config through
``JITFunction.run``, whose host time is several times that of a cached launch plan
(:mod:`~swizzlekit.kernels.triton.plans`). On the H200 at 1024³ in bf16, its timings read up
to 2.3× each config's own time (docs/data/bench/JOURNAL.md, "The autotuner timed the host"), so it
ranked configs by their launch, not their kernel.

:func:`gpu_time` enqueues a spin (``torch.cuda._sleep``) between the flush and the start
event. The spin lasts twice the host time of one call, so the launch is queued before the
GPU reaches the start event::

    host:  flush, spin, start ─ launch fn ───────────── end
    GPU :  [ zero 256 MB ][ spin ........... ][start][ fn's kernels ][end]
                            covers the launch ^

Its signature is ``do_bench``'s, so it can be the autotuner's ``do_bench``
(:func:`~swizzlekit.kernels.triton.tuning._autotune`) and the lab's
(:mod:`swizzlekit.lab.experiments.tiles`). The benchmarks keep Triton's ``do_bench``: what a
user's single call costs includes its launch (docs/data/bench/JOURNAL.md).

>>> lead_seconds(30e-6)             # twice the host's time per call
6e-05
>>> lead_seconds(1e-7), lead_seconds(1.0)    # at least MIN_LEAD, at most MAX_LEAD
(2e-05, 0.002)
"""

from __future__ import annotations

import functools
import time

from swizzlekit.errors import SwizzleKitError

__all__ = ["MIN_LEAD", "MAX_LEAD", "RETURN_MODES", "lead_seconds", "gpu_time"]

#: The spin's bounds, in seconds: at least 20 µs, at most 2 ms (a launch slower than 1 ms is
#: not a launch to time).
MIN_LEAD, MAX_LEAD = 20e-6, 2e-3
RETURN_MODES = ("min", "max", "mean", "median", "all")


def lead_seconds(host_seconds: float) -> float:
    """How long the GPU spins before each timed call: twice ``host_seconds``, the host's time
    to launch one call, within :data:`MIN_LEAD` and :data:`MAX_LEAD`."""
    return min(max(2.0 * host_seconds, MIN_LEAD), MAX_LEAD)


@functools.cache
def _cycles_per_second(device: int) -> float:
    """``torch.cuda._sleep``'s cycles per second on ``device``, measured once per process:
    the spin counts SM clock cycles, and the clock is the GPU's to choose."""
    import torch

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(1_000_000)                  # wake the clock first
    start.record()
    torch.cuda._sleep(1_000_000)
    end.record()
    torch.cuda.synchronize()
    return 1_000_000 / max(start.elapsed_time(end) * 1e-3, 1e-6)


def _summary(times: list[float], quantiles, return_mode: str):
    import statistics

    if quantiles is not None:
        ordered = sorted(times)
        at = [ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
              for q in quantiles]
        return at[0] if len(at) == 1 else at
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.fmean,
            "median": statistics.median}[return_mode](times)


def gpu_time(fn, warmup: float = 25, rep: float = 100, grad_to_none=None, quantiles=None,
             return_mode: str = "mean"):
    """``fn``'s GPU time in milliseconds, L2 flushed before each repetition, as
    ``triton.testing.do_bench`` (same arguments; ``quantiles`` by nearest rank), but with the
    host's launch hidden behind a spin (module docstring). ``warmup`` and ``rep`` are
    milliseconds of warm-up and of timed repetitions, spins included."""
    if return_mode not in RETURN_MODES:
        raise SwizzleKitError(f"return_mode {return_mode!r} is not valid; choose one of: "
                              f"{', '.join(RETURN_MODES)}")
    if not all(isinstance(v, (int, float)) and v > 0 for v in (warmup, rep)):
        raise SwizzleKitError(f"warmup and rep are milliseconds above 0, got {warmup} and {rep}")
    if quantiles is not None and not all(0 <= q <= 1 for q in quantiles):
        raise SwizzleKitError(f"quantiles are fractions from 0 to 1, got {list(quantiles)}")
    import torch
    from triton import runtime

    driver = runtime.driver.active
    fn()
    torch.cuda.synchronize()
    cache = driver.get_empty_cache_for_benchmark()
    cycles = _cycles_per_second(torch.cuda.current_device())

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    host = 0.0
    start.record()
    for _ in range(5):
        driver.clear_cache(cache)
        t0 = time.perf_counter()
        fn()
        host += time.perf_counter() - t0
    end.record()
    torch.cuda.synchronize()
    lead = lead_seconds(host / 5)
    estimate_ms = start.elapsed_time(end) / 5 + lead * 1e3
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))

    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        for x in grad_to_none or ():
            x.grad = None
        driver.clear_cache(cache)
        torch.cuda._sleep(int(lead * cycles))
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return _summary([s.elapsed_time(e) for s, e in zip(starts, ends)], quantiles, return_mode)
