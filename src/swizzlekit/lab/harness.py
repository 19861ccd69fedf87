"""Timing and provenance for every measurement the lab makes.

* :func:`median_ms`: the median time of a GPU callable. With ``flush=True`` (the default) it
  is ``triton.testing.do_bench``, which zeroes a 256 MB buffer before every repetition, so L2
  is cold each time; ``flush=False`` times back-to-back launches with CUDA events.
* :func:`interleaved_ms`: several callables timed by :func:`median_ms` in replicates, each
  turn in the order of a row of a Williams design (:func:`swizzlekit.turns.turn_order`), so
  that none always runs first or after the same one: a run timed behind a heavier one ran up
  to 9% slower on an H100 at its power cap (``docs/data/order_times/identical/``), which
  the rotation by one used before turned into a bias. :func:`in_turns` gives those turns any
  timer.
  :func:`checked_medians`: the same for the callables that pass a correctness check first,
  with their medians (the bench scripts' row).
* :func:`host_us`: the host time of one call, issued back to back without waiting for the
  GPU. Where it nears :func:`median_ms`, the GPU waits for the host: the time is the
  launch path's, not the kernel's. :func:`host_profile`: where that time goes (cProfile).
* :func:`environment`: GPU, driver, CUDA, torch and triton versions and the date, which tag
  every table the lab writes (the standard: no number without its provenance).

torch and triton are imported when these run, never at import.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import subprocess
from collections.abc import Callable

from swizzlekit.errors import SwizzleKitError

__all__ = ["median_ms", "interleaved_ms", "in_turns", "checked_medians", "rotated", "host_us",
           "back_to_back_ms",
           "host_profile", "queued_work", "environment", "has_cuda_gpu", "this_gpu",
           "MAX_REPLICATES"]

#: The most replicates an interleaved timing takes.
MAX_REPLICATES = 100


def has_cuda_gpu() -> bool:
    """True where torch is installed with CUDA and sees a GPU."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@functools.lru_cache(maxsize=1)
def this_gpu() -> tuple[str, str]:
    """(name, UUID) of the GPU this process runs on (CUDA's device 0: the first entry of
    ``CUDA_VISIBLE_DEVICES``), from nvidia-smi; ``("none", "")`` where there is none."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip()
    if not visible or visible == "-1":
        return ("none", "")
    try:
        done = subprocess.run(["nvidia-smi", f"--id={visible}", "--query-gpu=name,uuid",
                               "--format=csv,noheader"], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ("none", "")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or "," not in lines[0]:
        return ("none", "")
    name, uuid = (s.strip() for s in lines[0].split(",", 1))
    return (name, uuid)


def median_ms(fn: Callable[[], object], *, flush: bool = True, warmup_ms: int = 100,
              rep_ms: int = 400, reps: int = 50) -> float:
    """Median milliseconds of ``fn()`` on the current GPU (see the module docstring)."""
    import torch

    if flush:
        from triton.testing import do_bench

        return float(do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="median"))
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return float(sorted(times)[len(times) // 2])


def rotated(items: list, turn: int) -> list:
    """``items`` starting at position ``turn`` (mod its length): the turns of the timings
    made before :func:`swizzlekit.turns.turn_order` (every run behind the same neighbour in
    all turns but one).

    >>> rotated(["a", "b", "c"], 1)
    ['b', 'c', 'a']
    """
    k = turn % len(items)
    return items[k:] + items[:k]


def _check_runs(runs) -> None:
    """The door of :func:`interleaved_ms` and :func:`checked_medians`: name -> callable."""
    if not isinstance(runs, dict) or not runs or not all(map(callable, runs.values())):
        raise SwizzleKitError(f"runs must be a non-empty dict of name -> callable, got "
                              f"{runs!r}")


def _check_behind(behind) -> None:
    """The door of :func:`host_us` and :func:`host_profile` for ``behind``."""
    if behind is not None and not callable(behind):
        raise SwizzleKitError(f"behind must be a callable or None, got {behind!r}")


def interleaved_ms(runs: dict, replicates: int = 5, **median_kw) -> dict:
    """``{name: [ms, ...]}``: each callable of ``runs`` (name -> callable) timed
    ``replicates`` times by :func:`median_ms` (``median_kw``: its options), in turns over all
    of them, each turn in the order of :func:`swizzlekit.turns.turn_order`. The least median
    of the replicates is the fastest; their spread is the noise."""
    return in_turns(runs, replicates, lambda fn: median_ms(fn, **median_kw))


def in_turns(runs: dict, replicates: int, time_one: Callable) -> dict:
    """``{name: [time_one(fn), ...]}``: the turns of :func:`interleaved_ms` with any timer
    (:func:`swizzlekit.lab.clocks.interleaved_clocked` pairs each time with its clock)."""
    from swizzlekit.errors import check_int
    from swizzlekit.turns import turn_order

    replicates = check_int("replicates", replicates, 1, MAX_REPLICATES)
    _check_runs(runs)
    if not callable(time_one):
        raise SwizzleKitError(f"time_one must be a callable that times one run, got "
                              f"{time_one!r}")
    names, times = list(runs), {name: [] for name in runs}
    for turn in range(replicates):
        for name in turn_order(names, turn):
            times[name].append(time_one(runs[name]))
    return times


def checked_medians(runs: dict, error: Callable[[Callable], float], bound: float = 1e-2,
                    replicates: int = 5, **median_kw) -> dict:
    """Each callable of ``runs`` (name -> callable) checked once, ``error(fn)`` its relative
    error (a raise is kept as its text: out of resources, a config that does not compile),
    then those within ``bound`` timed by :func:`interleaved_ms` (``median_kw``: its
    options): ``{"errors", "bad", "ms", "replicates"}``, ``bad`` the errors not within
    ``bound`` (NaN and raises among them), ``ms`` each timed run's median replicate."""
    import statistics

    _check_runs(runs)
    if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not bound > 0:
        raise SwizzleKitError(f"bound must be a number above 0, got {bound!r}")
    errors: dict = {}
    for name, fn in runs.items():
        try:
            errors[name] = float(error(fn))
        except Exception as e:              # noqa: BLE001 (kept as the row's record)
            errors[name] = repr(e)[:200]
    bad = {k: e for k, e in errors.items() if not (isinstance(e, float) and e < bound)}
    good = {k: fn for k, fn in runs.items() if k not in bad}
    times = interleaved_ms(good, replicates, **median_kw) if good else {}
    return {"errors": errors, "bad": bad,
            "ms": {k: statistics.median(t) for k, t in times.items()}, "replicates": times}


def host_us(fn: Callable[[], object], *, calls: int = 50, rounds: int = 1,
            behind: Callable[[], object] | None = None) -> float:
    """Microseconds of host time per call of ``fn()``: ``calls`` calls issued back to back
    (the GPU is not waited for between them; it is before and after), the least of
    ``rounds`` such rounds. ``behind``: work queued on the GPU before each round (a few
    large products), so that no call of the round finds the GPU idle and waits on it."""
    import time

    from swizzlekit.errors import check_int

    calls, rounds = check_int("calls", calls, 1), check_int("rounds", rounds, 1, 1000)
    _check_behind(behind)
    import torch

    best = float("inf")
    for _ in range(rounds):
        torch.cuda.synchronize()
        if behind is not None:
            behind()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - start)
        torch.cuda.synchronize()
    return best / calls * 1e6


def back_to_back_ms(fn: Callable[[], object], calls: int = 200) -> float:
    """Milliseconds per call of ``fn()`` issued ``calls`` times back to back with nothing else
    queued, by CUDA events around them all (one call first, to warm up): a stream of such
    calls, bound by the host's time or the GPU's, whichever is longer."""
    from swizzlekit.errors import check_int

    calls = check_int("calls", calls, 1, 100_000)
    import torch

    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls


def queued_work(products: int = 40, n: int = 8192) -> Callable[[], None]:
    """A ``behind`` for :func:`host_us` and :func:`host_profile`: a callable that queues
    ``products`` products of an ``n`` x ``n`` bf16 matrix with itself on the current GPU (the
    matrix drawn once, on the first call)."""
    from swizzlekit.errors import check_int

    products, n = check_int("products", products, 1, 10_000), check_int("n", n, 1, 16384)
    held = []

    def queue() -> None:
        import torch

        if not held:
            held.append(torch.randn(n, n, device="cuda", dtype=torch.bfloat16))
        big = held[0]
        for _ in range(products):
            big @ big
    return queue


def host_profile(fn: Callable[[], object], *, calls: int = 1000,
                 behind: Callable[[], object] | None = None, top: int = 20) -> str:
    """Where :func:`host_us`'s time goes: cProfile's table of ``calls`` back-to-back calls of
    ``fn()`` (queued ``behind`` work first, as there), its ``top`` functions by their own
    time, as text."""
    import cProfile
    import io
    import pstats

    from swizzlekit.errors import check_int

    calls, top = check_int("calls", calls, 1), check_int("top", top, 1)
    _check_behind(behind)
    import torch

    torch.cuda.synchronize()
    if behind is not None:
        behind()
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(calls):
        fn()
    profile.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(top)
    return text.getvalue()


def environment() -> dict[str, str]:
    """GPU, driver, CUDA, torch and triton versions, for tagging every measured number."""
    import torch
    import triton

    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        smi = "unavailable"
    props = torch.cuda.get_device_properties(0)
    return {
        "date": dt.date.today().isoformat(),
        "gpu": props.name,
        "sms": str(props.multi_processor_count),
        "l2_bytes": str(getattr(props, "L2_cache_size", "unknown")),
        "nvidia_smi": smi,
        "cuda": str(torch.version.cuda),
        "torch": torch.__version__,
        "triton": triton.__version__,
    }
