"""The SM clock while a GPU callable is timed: what a timing at a varying clock means.

A data-centre H100 running GEMMs back to back sits at its power cap (686-690 W of 700 in
``docs/data/order_times/identical/``), and its SM clock moves between replicates of one
timing (1155 to 1680 MHz there). Two runs of one and the same launch order measured 5%
apart in milliseconds and 0.5% apart scaled by the clock read after each replicate; in a
second probe, scaling by the clock sampled during each replicate shrank the spread at some
runs and widened it at others, so the order tables stay in milliseconds. The tools:

* :class:`ClockSampler`: a context manager whose thread reads the SM clock every
  ``period_s`` while the body runs; ``mean_mhz`` is the mean of its readings.
* :func:`clocked_median_ms`: :func:`swizzlekit.lab.harness.median_ms` with the mean SM clock
  during it, ``(ms, mhz)``.
* :func:`interleaved_clocked`: :func:`swizzlekit.lab.harness.interleaved_ms`'s turns, each
  replicate with its clock.
* :func:`at_clock`: a time scaled to a reference clock (``ms * mhz / ref_mhz``), as a
  kernel bound by the SMs' own clock would run there; a kernel waiting on DRAM does not
  scale so, which is why the tables keep the milliseconds too.

The clock is read through NVML (``torch.cuda.clock_rate``) unless a ``reader`` is given;
nothing here imports torch until a sampler starts without one.

>>> at_clock(1.0, 1300, 1600)
0.8125
>>> with ClockSampler(reader=lambda: 1500, period_s=0.001) as s:
...     pass
>>> s.mean_mhz
1500.0
"""

from __future__ import annotations

import statistics
import threading
from collections.abc import Callable

from swizzlekit.errors import SwizzleKitError

__all__ = ["ClockSampler", "clocked_median_ms", "interleaved_clocked", "at_clock",
           "nvml_sm_clock"]

#: Bounds of a sampling period (s): below, the thread would crowd the launching one.
MIN_PERIOD_S, MAX_PERIOD_S = 1e-4, 1.0


def nvml_sm_clock() -> float:
    """The current SM clock of CUDA's current device in MHz, through NVML."""
    import torch

    return float(torch.cuda.clock_rate())


def _positive(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or value == float("inf"):
        raise SwizzleKitError(f"{name} must be a finite number above 0, got {value!r}")
    return float(value)


def at_clock(ms: float, mhz: float, ref_mhz: float) -> float:
    """``ms`` measured at ``mhz`` scaled to ``ref_mhz``: the same cycles at the other clock.

    >>> at_clock(2.0, 1500, 1500)
    2.0
    >>> at_clock(1.0, 0, 1500)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: mhz must be a finite number above 0, got 0
    """
    return _positive("ms", ms) * _positive("mhz", mhz) / _positive("ref_mhz", ref_mhz)


class ClockSampler:
    """Reads ``reader()`` (MHz; default :func:`nvml_sm_clock`) every ``period_s`` seconds on a
    thread while the ``with`` body runs, once before it starts and once as it ends;
    ``samples`` holds the readings and ``mean_mhz`` their mean."""

    def __init__(self, reader: Callable[[], float] | None = None, period_s: float = 0.002):
        if reader is not None and not callable(reader):
            raise SwizzleKitError(f"reader must be a callable that returns MHz, got {reader!r}")
        period_s = _positive("period_s", period_s)
        if not MIN_PERIOD_S <= period_s <= MAX_PERIOD_S:
            raise SwizzleKitError(f"period_s must lie from {MIN_PERIOD_S} to {MAX_PERIOD_S} s, "
                                  f"got {period_s}")
        self.reader, self.period_s = reader or nvml_sm_clock, period_s
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _read(self) -> None:
        self.samples.append(_positive("the clock reading", self.reader()))

    def _run(self) -> None:
        while not self._stop.wait(self.period_s):
            self._read()

    def __enter__(self) -> ClockSampler:
        self.samples, self._stop = [], threading.Event()
        self._read()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._read()

    @property
    def mean_mhz(self) -> float:
        if not self.samples:
            raise SwizzleKitError("the sampler has not run: use it as `with ClockSampler() as s:`")
        return float(statistics.fmean(self.samples))


def clocked_median_ms(fn: Callable[[], object], *, reader: Callable[[], float] | None = None,
                      period_s: float = 0.002, timer: Callable | None = None,
                      **median_kw) -> tuple[float, float]:
    """``(ms, mhz)``: ``fn`` timed by ``timer(fn)`` (default:
    :func:`~swizzlekit.lab.harness.median_ms` with ``median_kw``, its options) and the mean
    SM clock while it ran."""
    from swizzlekit.lab.harness import median_ms

    if not callable(fn):
        raise SwizzleKitError(f"fn must be a callable that launches GPU work, got {fn!r}")
    if timer is not None and not callable(timer):
        raise SwizzleKitError(f"timer must be a callable that times fn in ms, got {timer!r}")
    with ClockSampler(reader, period_s) as sampler:
        ms = float(timer(fn)) if timer is not None else median_ms(fn, **median_kw)
    return ms, sampler.mean_mhz


def interleaved_clocked(runs: dict, replicates: int = 5, **clocked_kw) -> dict:
    """``{name: [(ms, mhz), ...]}``: the turns of
    :func:`~swizzlekit.lab.harness.interleaved_ms` (:func:`swizzlekit.turns.turn_order`),
    each replicate timed by :func:`clocked_median_ms` (``clocked_kw``: its options).

    >>> t = interleaved_clocked({"a": lambda: None}, 2, reader=lambda: 1400,
    ...                         timer=lambda fn: 1.0)
    >>> t["a"]
    [(1.0, 1400.0), (1.0, 1400.0)]
    """
    from swizzlekit.lab.harness import in_turns

    return in_turns(runs, replicates, lambda fn: clocked_median_ms(fn, **clocked_kw))
