"""The time model: a tiled GEMM's predicted kernel time under a CTA order.

The L2 model (:func:`swizzlekit.cta.l2.simulate`) gives the DRAM bytes each wave of CTAs
reads. A wave's time is a smooth maximum of its two resource times::

    c_w = 2 M N K / waves / (peak(elem_bytes) x efficiency(elem_bytes))     tensor cores
    d_w = (DRAM read bytes of wave w + C's bytes / waves) / (dram bandwidth x share)
    t   = sum over waves of (c_w^p + d_w^p)^(1/p)  x  (1 + f_family)

``p`` says how well the two overlap (1: not at all, large: perfectly, a roofline).
``f_family`` is how much slower than that the order's family runs
(:mod:`swizzlekit.cta.families`, read off the order array; the largest family's for an order
of none, none for a persistent grid): morton, grouped along N and hilbert run 1-2.6% slower
than their DRAM bytes say on both cards, for a cause not identified. The peak and the
bandwidth are the preset's (:mod:`swizzlekit.gpus`, datasheet); ``efficiency``, ``share``,
``p`` and ``f_family`` are fitted per GPU (:data:`TIME_FITTED`) on the fit half of the
replicate-timed order tables (``src/swizzlekit/data/order_times_{h100,h200}.csv``, split by
shape) and judged on the other half and on a fresh set (:data:`TIME_HELDOUT`; ``python -m
swizzlekit.compare_time``; docs/cta.md). Presets without a fit of their own take the H100's
parameters with their own peak and bandwidth.

Within one problem every order does the same arithmetic, so the orders differ in time only
through their DRAM bytes and how these fall on the waves. ``share`` above 1 says that the
fit weighs a predicted DRAM byte at less than the datasheet rate: the L2 model overstates
the bytes of the orders that thrash (4096x14336x4096 in 64x64 tiles, row order, on the H200:
7.6 GB predicted, 4.5 GB measured by ncu).

>>> round(kernel_time(8192, 8192, 8192, 2, [10**9] * 4, 2**27, "h100-sxm") * 1e3, 2)
2.62
>>> kernel_time(8192, 8192, 8192, 3, [0], 0, "h200")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: elem_bytes 3 is not valid; choose one of: 1, 2, 4, 8
"""

from __future__ import annotations

import functools

import numpy as np

from swizzlekit.cta.families import FAMILIES, OTHER
from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import gpu as preset

__all__ = ["TIME_FITTED", "TIME_HELDOUT", "ORDER_NOISE_PCT", "ORDER_TWINS", "PEAK_KEYS",
           "kernel_time", "time_parameters", "reuse_bound", "MAX_DIM", "MAX_BYTES"]

#: The largest GEMM dimension and byte count :func:`kernel_time` takes.
MAX_DIM, MAX_BYTES = 2**31, 2**60

#: The preset's peak each element size runs at (the first key the preset has): fp8, the
#: 16-bit types, TF32 for 4-byte operands (Triton's default ``tl.dot`` on fp32), fp64.
PEAK_KEYS = {1: ("fp8", "bf16", "fp32"), 2: ("bf16", "fp16", "fp32"), 4: ("tf32", "fp32"),
             8: ("fp64", "fp32")}

#: Fitted per GPU by ``python -m swizzlekit.compare_time --fit`` (the least mean error of
#: order times relative to each problem's fastest, then one scale by log time, then each
#: family's median residual) on the "fit" rows of the order tables. Element sizes the tables
#: lack (8) take the 4-byte efficiency.
TIME_FITTED = {
    "h100-sxm": {"p": 1.5, "share": 2.27, "efficiency": {1: 0.948, 2: 0.454, 4: 0.114},
                 "families": {"row": 0.001, "col": 0.003, "snake": 0.004,
                              "grouped along=m": 0.001, "grouped along=n": 0.018,
                              "morton": 0.02, "hilbert": 0.01}},
    "h200": {"p": 1.5, "share": 2.0, "efficiency": {1: 0.575, 2: 0.525, 4: 0.1},
             "families": {"row": 0.002, "col": 0.007, "snake": 0.004,
                          "grouped along=m": 0.001, "grouped along=n": 0.005,
                          "morton": 0.006, "hilbert": 0.007}},
}

#: Held-out, fresh and claims-set figures of the fitted model (``python -m
#: swizzlekit.compare_time --heldout``; a test holds these equal to a fresh computation; the
#: claims set, drawn after the claim rule, is timed on the H100 only): over non-random orders,
#: the error of each order's time relative to its problem's fastest (median and worst, in
#: points of %); how often the order :func:`swizzlekit.cta.rank.verdict` picks (the
#: predicted fastest, grouped(16) where it ties) runs within 2% and 5% of the measured
#: fastest median (with the worst regret, %); where it says grouped(16) lies within the noise
#: band of the fastest (``ties``), how often it ran there (``ties_true``); where it claims that
#: the order does not matter (every non-random order predicted within the band of the
#: fastest, and :func:`reuse_bound` holds: ``claims``), how often every one ran there
#: (``claims_true``); where every order is predicted within the band but the bound does not
#: hold, so no claim is made (``withheld``), how often every one ran there anyway
#: (``withheld_true``); and how often the
#: first order of least predicted time in the tables' order (``simulate(...).time_s`` alone,
#: ties not given to grouped(16)) runs within 2% and 5%.
TIME_HELDOUT: dict[str, dict[str, dict]] = {
    "h100-sxm": {
        "heldout": {"problems": 22, "runs": 220, "rel_err_median_pct": 1.3,
                    "rel_err_worst_pct": 32.2, "time_err_median_pct": 25.9,
                    "pick_within_2pct": 0.77, "pick_within_5pct": 0.91, "regret_worst_pct": 10.9,
                    "ties": 22, "ties_true": 20, "claims": 2, "claims_true": 2, "withheld": 9,
                    "withheld_true": 3, "fastest_within_2pct": 0.77, "fastest_within_5pct": 0.91},
        "fresh": {"problems": 16, "runs": 160, "rel_err_median_pct": 1.2,
                  "rel_err_worst_pct": 44.6, "time_err_median_pct": 20.0, "pick_within_2pct": 0.88,
                  "pick_within_5pct": 1.0, "regret_worst_pct": 2.4, "ties": 16, "ties_true": 13,
                  "claims": 2, "claims_true": 2, "withheld": 6, "withheld_true": 3,
                  "fastest_within_2pct": 0.88, "fastest_within_5pct": 1.0},
        "claims": {"problems": 16, "runs": 160, "rel_err_median_pct": 0.9,
                   "rel_err_worst_pct": 27.5, "time_err_median_pct": 26.9,
                   "pick_within_2pct": 0.75, "pick_within_5pct": 0.88, "regret_worst_pct": 7.7,
                   "ties": 16, "ties_true": 16, "claims": 6, "claims_true": 6, "withheld": 5,
                   "withheld_true": 3, "fastest_within_2pct": 0.75, "fastest_within_5pct": 0.88},
    },
    "h200": {
        "heldout": {"problems": 22, "runs": 220, "rel_err_median_pct": 0.7,
                    "rel_err_worst_pct": 20.5, "time_err_median_pct": 24.6,
                    "pick_within_2pct": 0.86, "pick_within_5pct": 0.95, "regret_worst_pct": 5.8,
                    "ties": 22, "ties_true": 21, "claims": 2, "claims_true": 2, "withheld": 10,
                    "withheld_true": 5, "fastest_within_2pct": 0.82, "fastest_within_5pct": 0.95},
        "fresh": {"problems": 16, "runs": 160, "rel_err_median_pct": 0.6,
                  "rel_err_worst_pct": 38.8, "time_err_median_pct": 9.9, "pick_within_2pct": 0.94,
                  "pick_within_5pct": 1.0, "regret_worst_pct": 2.4, "ties": 16, "ties_true": 16,
                  "claims": 2, "claims_true": 2, "withheld": 6, "withheld_true": 5,
                  "fastest_within_2pct": 0.94, "fastest_within_5pct": 1.0},
    },
}

#: The noise band of one order's time on one GPU (%): the 90th percentile over the order
#: tables' runs of the replicates' interquartile range over their median (``python -m
#: swizzlekit.compare_time --noise``). Orders predicted within it of each other are not told
#: apart (:func:`swizzlekit.cta.rank.verdict`).
ORDER_NOISE_PCT = {"h100-sxm": 4.8, "h200": 5.0}

#: Identical launch orders in the order tables (two names, the same tiles in the same
#: sequence: the row order and grouped(8) along N on a grid of at most 8 tile columns, ...;
#: ``python -m swizzlekit.compare_time --twins``): how many sets of them the tables hold
#: (fit, held-out and fresh problems), how many lie more than 2% apart (slowest median over
#: fastest), and the worst spread (%). No model can tell such runs apart: the timings' own
#: floor under the pick goal (docs/data/order_times/identical/).
ORDER_TWINS = {"h100-sxm": {"sets": 78, "over_2pct": 5, "worst_pct": 4.5},
               "h200": {"sets": 78, "over_2pct": 14, "worst_pct": 4.4}}


def time_parameters(gpu: str) -> dict:
    """The fitted parameters of :func:`kernel_time` on preset ``gpu`` (a fit of its own, or
    the H100's), with ``fitted`` saying which.

    >>> time_parameters("a100")["fitted"]
    'h100-sxm'
    """
    g = preset(gpu)
    name = gpu.lower() if gpu.lower() in TIME_FITTED else "h100-sxm"
    return {**TIME_FITTED[name], "fitted": name, "dram_gbps": g.dram_gbps,
            "peak_tflops": g.peak_tflops}


def _peak(peaks: dict, elem_bytes: int) -> float:
    for key in PEAK_KEYS[elem_bytes]:
        if key in peaks:
            return peaks[key] * 1e12
    raise SwizzleKitError(f"the preset has no peak rate for {elem_bytes}-byte operands "
                          f"(it gives {', '.join(peaks) or 'none'})")


def _compute_s(M: int, N: int, K: int, elem_bytes: int, par: dict) -> float:
    """The compute term of :func:`kernel_time` summed over the waves: 2 M N K at the preset's
    peak times the fitted efficiency of ``elem_bytes``."""
    eff = par["efficiency"]
    return 2.0 * M * N * K / (_peak(par["peak_tflops"], elem_bytes) * eff.get(elem_bytes, eff[4]))


def reuse_bound(M: int, N: int, K: int, tile: tuple[int, int, int], elem_bytes: int,
                out_bytes: int | None = None, gpu: str = "h200") -> dict:
    """Whether no CTA order can make this GEMM wait on memory, the condition under which
    :func:`swizzlekit.cta.rank.verdict` says that the order does not matter.

    ``all_miss_s`` is how long DRAM, at the preset's datasheet rate, takes to read every
    tile's A and B panels with no reuse at all (A once per tile column, B once per tile row)
    and to write C: the worst any order can do. ``compute_s`` is the time model's compute
    term (:func:`kernel_time`). ``holds`` where ``all_miss_s <= compute_s`` and the grid has
    at least as many CTAs as the preset has SMs: then even an order that re-reads everything
    leaves the kernel compute-bound, and every SM has work whatever the order. Predicted
    times alone do not carry such a claim: on 16-bit and fp8 problems predicted within the
    noise band, orders were measured up to 20% apart (docs/cta.md).

    >>> b = reuse_bound(4096, 4096, 4096, (128, 128, 32), 4, gpu="h100-sxm")
    >>> b["holds"], round(b["all_miss_s"] / b["compute_s"], 2)
    (True, 0.53)
    >>> reuse_bound(4096, 4096, 4096, (128, 256, 64), 2, gpu="h100-sxm")["holds"]
    False
    """
    M, N, K = (check_int(n, v, 1, MAX_DIM) for n, v in (("M", M), ("N", N), ("K", K)))
    elem_bytes = check_choice("elem_bytes", elem_bytes, tuple(PEAK_KEYS))
    out_bytes = elem_bytes if out_bytes is None else check_choice("out_bytes", out_bytes,
                                                                   tuple(PEAK_KEYS))
    if (not isinstance(tile, (tuple, list)) or len(tile) != 3
            or not all(isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= MAX_DIM
                       for t in tile)):
        raise SwizzleKitError(f"tile must be three sizes (BM, BN, BK) from 1 to 2**31; "
                              f"got {tile!r}")
    preset(gpu)
    return dict(_reuse_bound(M, N, K, tuple(tile), elem_bytes, out_bytes, gpu.lower()))


@functools.lru_cache(maxsize=4096)
def _reuse_bound(M, N, K, tile, elem_bytes, out_bytes, gpu) -> dict:
    par, sms = time_parameters(gpu), preset(gpu).sms
    tm, tn = -(-M // tile[0]), -(-N // tile[1])
    moved = (tn * M + tm * N) * K * elem_bytes + M * N * out_bytes
    all_miss_s = moved / (par["dram_gbps"] * 1e9)
    compute_s = _compute_s(M, N, K, elem_bytes, par)
    return {"compute_s": compute_s, "all_miss_s": all_miss_s, "ctas": tm * tn, "sms": sms,
            "holds": all_miss_s <= compute_s and tm * tn >= sms}


def kernel_time(M: int, N: int, K: int, elem_bytes: int, per_wave_dram_read_bytes,
                dram_write_bytes: int, gpu: str = "h200", *, parameters: dict | None = None,
                family: str | None = None) -> float:
    """Predicted seconds of an ``M x N x K`` GEMM whose waves read ``per_wave_dram_read_bytes``
    from DRAM (the L2 model's :attr:`~swizzlekit.cta.l2.L2Prediction.per_wave_dram_read_bytes`)
    and write ``dram_write_bytes`` of C, on preset ``gpu``, its order of ``family`` (one of
    :data:`swizzlekit.cta.families.FAMILIES`; ``OTHER``, an order of none of them, which
    takes the largest family factor; or None: no factor). ``parameters``
    overrides :func:`time_parameters` (``p``, ``share``, ``efficiency``, ``families``) for
    fitting."""
    M, N, K = (check_int(n, v, 1, MAX_DIM) for n, v in (("M", M), ("N", N), ("K", K)))
    elem_bytes = check_choice("elem_bytes", elem_bytes, tuple(PEAK_KEYS))
    dram_write_bytes = check_int("dram_write_bytes", dram_write_bytes, 0, MAX_BYTES)
    try:
        reads = np.asarray(per_wave_dram_read_bytes, dtype=float)
    except (TypeError, ValueError):
        reads = np.zeros((0, 0))
    if (isinstance(per_wave_dram_read_bytes, (str, bytes)) or reads.ndim != 1 or not len(reads)
            or not np.all(np.isfinite(reads)) or (reads < 0).any() or (reads > MAX_BYTES).any()):
        raise SwizzleKitError(f"per_wave_dram_read_bytes must be one or more byte counts from 0 "
                              f"to 2**60; got {per_wave_dram_read_bytes!r}")
    par = time_parameters(gpu) if parameters is None else {**time_parameters(gpu), **parameters}
    waves = len(reads)
    compute = _compute_s(M, N, K, elem_bytes, par) / waves
    dram = (reads + dram_write_bytes / waves) / (par["dram_gbps"] * 1e9 * par["share"])
    p = par["p"]
    factors = par["families"]
    if family is not None:
        family = check_choice("family", family, (*FAMILIES, OTHER))
    # an order the tables never timed is not favoured for a factor they never measured
    slower = (max(factors.values(), default=0.0) if family == OTHER
              else factors.get(family, 0.0))
    return float(((compute ** p + dram ** p) ** (1 / p)).sum() * (1 + slower))
