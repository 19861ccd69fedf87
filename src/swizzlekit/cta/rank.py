"""Rank every CTA order for one GEMM on one GPU by the time model, and recommend one.

Each order of :data:`~swizzlekit.cta.ORDERS` is tried with the parameter values of
:data:`SWEEP` (group sizes, strip widths, ...); the ranking is by predicted kernel time
(:mod:`swizzlekit.cta.timing`, on the L2 model's DRAM bytes per wave), then by predicted
DRAM bytes read, then by predicted L2 hit rate.

>>> best = rank(8192, 8192, 8192)[0]
>>> label(best["order"], best["params"]), best["l2_hit_rate"], round(best["vs_row"], 2)
('grouped group=16 along=m', 75.11, 0.39)
>>> round(best["time_s"] * 1e3, 2), round(best["time_vs_row"], 3)
(2.17, 0.944)
>>> rank(4096, 4096, 4096, gpu="b300")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: unknown GPU 'b300'; valid: h200, h100-sxm, h100-pcie, a100, rtx4090, rtx4050-laptop
"""

from __future__ import annotations

import math

from swizzlekit.cta.l2 import check_problem, simulate
from swizzlekit.cta.l2 import settings as model_settings
from swizzlekit.cta.orders import ORDERS, order
from swizzlekit.cta.timing import reuse_bound
from swizzlekit.errors import SwizzleKitError, check_int, check_number
from swizzlekit.gpus import gpu as gpu_preset

__all__ = ["SWEEP", "DEFAULT_ORDER", "TIE", "within", "rank", "verdict", "claim_record",
           "withheld_record", "label",
           "canonical", "RANK_MAX_TILES", "RANK_MAX_TILE_STEPS", "RANK_MAX_WAVES"]

#: Ranking runs the model about 25 times: it answers a quarter of what one simulation does.
RANK_MAX_TILES = 2**14
RANK_MAX_TILE_STEPS = 2**22
#: ... and at most 1,024 waves (16,384 tiles in waves of 16 CTAs or more).
RANK_MAX_WAVES = 1024

#: The parameter values the ranking tries for each order (the others take none).
SWEEP: dict[str, list[dict]] = {
    "grouped": [{"group": g, "along": a} for g in (4, 8, 16) for a in "mn"],
    "grouped_persistent": [{"group": g} for g in (4, 8, 16)],
    "strip": [{"width": w} for w in (4, 8, 16)],
    "strip_snake": [{"width": w} for w in (4, 8, 16)],
    "cutlass": [{"log_tile": t, "raster": r} for t in (1, 2, 3) for r in "mn"],
    "zlayer": [{"layers": z} for z in (2, 4)],
}


#: The order the verdict weighs against the fastest within the noise band, its pick where it ties
#: the predicted fastest, and the library GEMM's order where no candidate is predicted faster by
#: more than the noise band (:mod:`swizzlekit.kernels.triton.auto_order`): grouped(16) along M.
#: Chosen on the fit halves of the order tables under the band rule (taken wherever no order is
#: predicted faster by more than the band; ``python -m swizzlekit.compare_time --defaults``): as
#: that pick it ran within 2% of the fastest order on 82% of the H100's fit problems and 86% of the
#: H200's, grouped(8), Triton's tutorial order, on 68% and 68%, the row order on 86% and 86%; the
#: library's own GEMM rules the row order out (up to 30-40% behind) and runs grouped(8) and
#: grouped(16) level within the noise (docs/data/bench/order_tiebreak/, H100, bf16 and fp8).
DEFAULT_ORDER = ("grouped", {"group": 16, "along": "m"})


def label(name: str, params: dict) -> str:
    """``grouped group=8 along=m``: an order and its parameters, as the CLI prints them.

    >>> label("grouped", {"group": 8})
    'grouped group=8'
    """
    if not isinstance(name, str) or name not in ORDERS:
        raise SwizzleKitError(f"unknown order {name!r}; valid orders: " + ", ".join(ORDERS))
    if not isinstance(params, dict) or any(k not in ORDERS[name].params for k in params):
        raise SwizzleKitError(f"params must be a dict of order {name!r}'s parameters "
                              f"({', '.join(ORDERS[name].params) or 'none'}); got {params!r}")
    order(name, 1, 1, **params)                         # the values, checked as order() does
    return " ".join([name] + [f"{k}={v}" for k, v in params.items()])


def canonical(name: str, params: dict) -> str:
    """An order's label with every parameter spelled out (defaults filled in), so that
    ``grouped group=8`` and ``grouped group=8 along=m`` compare equal.

    >>> canonical("grouped", {"group": 8}) == canonical("grouped", {"group": 8, "along": "m"})
    True
    """
    return label(name, {**ORDERS[name].params, **params}) if name in ORDERS else label(name, params)


def _entry(ranked: list[dict], name: str, params: dict) -> dict | None:
    """The entry of ``ranked`` that runs order ``name`` with ``params`` (defaults filled in on
    both sides, :func:`canonical`), or None."""
    key = canonical(name, params)
    return next((r for r in ranked if isinstance(r["params"], dict)
                 and canonical(r["order"], r["params"]) == key), None)


def rank(M: int, N: int, K: int, *, gpu: str = "h200", tile: tuple[int, int, int] = (128, 128, 64),
         elem_bytes: int = 2, ctas_per_sm: int = 1, persistent: bool = False,
         concurrent: int | None = None, dispatch: str = "coin",
         out_bytes: int | None = None, programs: int | None = None,
         row_bytes: tuple[int, int] | None = None) -> list[dict]:
    """Every order and parameter set, best first: ``order``, ``params``, ``time_s`` (the
    predicted kernel time), ``l2_hit_rate`` (%), ``dram_read_bytes``, ``vs_row`` (DRAM bytes
    over the row order's), ``time_vs_row`` (time over the row order's) and ``reuse_bound``
    (the problem's :func:`~swizzlekit.cta.timing.reuse_bound`, the same for every order,
    which :func:`verdict` asks before it says that the order does not matter). ``out_bytes``: C's
    element size (default ``elem_bytes``); ``programs``: a persistent grid's program count;
    ``row_bytes``: A's and B's row pitch (:func:`swizzlekit.cta.l2.simulate`)."""
    gpu_preset(gpu)
    M, N, K, tile, _ = check_problem(M, N, K, None, tile, elem_bytes)
    elem_bytes = int(elem_bytes)
    bm, bn, bk = tile
    tm, tn, tk = -(-M // bm), -(-N // bn), -(-K // bk)
    if tm * tn > RANK_MAX_TILES or tm * tn * tk > RANK_MAX_TILE_STEPS:
        raise SwizzleKitError(
            f"ranking every order of {M}x{N}x{K} ({tm * tn} tiles x {tk} K steps) would take "
            f"too long; ranking answers at most {RANK_MAX_TILES} tiles and "
            f"{RANK_MAX_TILE_STEPS} tile-steps (16384x16384x16384 in 128x128x64 tiles); "
            f"simulate one order instead")
    if concurrent is not None:
        concurrent = check_int("concurrent", concurrent)
    wave = model_settings(gpu, ctas_per_sm, concurrent=concurrent, persistent=persistent,
                          programs=programs)["concurrent"]
    if -(-tm * tn // wave) > RANK_MAX_WAVES:
        raise SwizzleKitError(
            f"ranking {tm * tn} tiles in waves of {wave} is {-(-tm * tn // wave)} waves per "
            f"order; ranking answers at most {RANK_MAX_WAVES} (use a larger wave, or simulate "
            f"one order)")
    settings = dict(tile=tile, elem_bytes=elem_bytes, gpu=gpu, ctas_per_sm=ctas_per_sm,
                    persistent=persistent, concurrent=concurrent, dispatch=dispatch,
                    out_bytes=out_bytes, programs=programs, row_bytes=row_bytes)
    bound = reuse_bound(M, N, K, tile, elem_bytes, out_bytes, gpu)
    out = []
    for name in ORDERS:
        for params in SWEEP.get(name, [{}]):
            pred = simulate(M, N, K, order(name, tm, tn, **params), **settings)
            out.append({"order": name, "params": params, "time_s": pred.time_s,
                        "l2_hit_rate": pred.l2_hit_rate, "dram_read_bytes": pred.dram_read_bytes,
                        "reuse_bound": bound})
    row = next(r for r in out if r["order"] == "row")
    for r in out:
        r["vs_row"] = r["dram_read_bytes"] / row["dram_read_bytes"] if row["dram_read_bytes"] else 1.0
        r["time_vs_row"] = r["time_s"] / row["time_s"]
    out.sort(key=lambda r: (r["time_s"], r["dram_read_bytes"], -r["l2_hit_rate"]))
    return out


#: Predicted times closer than this (relative) are a tie, which :func:`verdict` gives to
#: :data:`DEFAULT_ORDER`: identical launch sequences under two names predict the same time.
TIE = 1e-9


def within(time_s: float, fastest_s: float, slack: float = TIE) -> bool:
    """Whether a predicted ``time_s`` lies within ``slack`` (relative; default: a tie) of the
    fastest predicted ``fastest_s``: with :data:`TIE`, where :func:`verdict` takes
    :data:`DEFAULT_ORDER`; with a card's noise band, where the model does not tell the order
    from the fastest.

    >>> within(1.0, 1.0), within(1.03, 1.0), within(1.03, 1.0, 0.048)
    (True, False, True)
    >>> within(1.0, float("nan"))
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: fastest_s must be a number from 0 to inf; got nan
    """
    time_s, fastest_s = (check_number(n, v, 0, math.inf)
                         for n, v in (("time_s", time_s), ("fastest_s", fastest_s)))
    return time_s <= fastest_s * (1 + check_number("slack", slack, 0, 1))


def _heldout_record(gpu: str, true_key: str, key: str, within: str) -> str:
    """A clause quoting the held-out counts ``true_key`` of ``key`` of the card whose time
    model preset ``gpu`` takes (:data:`~swizzlekit.cta.timing.TIME_HELDOUT`); "" where it
    has none."""
    from swizzlekit.cta.timing import TIME_HELDOUT, time_parameters

    fitted = time_parameters(gpu)["fitted"]
    h = TIME_HELDOUT.get(fitted, {}).get("heldout")
    if not h:
        return ""
    return (f" (held out on {fitted}, every order ran within {within} on {h[true_key]} of "
            f"{h[key]} such problems)")


def claim_record(gpu: str) -> str:
    """How the verdict's "does not matter" claims fared held out on the card whose time model
    preset ``gpu`` takes: every order timed within the band of the fastest, as a clause for
    the claim's text.

    >>> claim_record("h100-sxm")
    ' (held out on h100-sxm, every order ran within it on 2 of 2 such problems)'
    """
    return _heldout_record(gpu, "claims_true", "claims", "it")


def withheld_record(gpu: str) -> str:
    """How problems fared held out where every order was predicted within the band but
    :func:`~swizzlekit.cta.timing.reuse_bound` did not hold, so the verdict made no claim.

    >>> withheld_record("h100-sxm")
    ' (held out on h100-sxm, every order ran within the band on 3 of 9 such problems)'
    """
    return _heldout_record(gpu, "withheld_true", "withheld", "the band")


def _unbacked(bound: dict | None) -> str:
    """Why the reuse bound does not back a claim, in words."""
    if bound is None:
        return "the ranking carries no reuse bound to check"
    if bound["ctas"] < bound["sms"]:
        return (f"its {bound['ctas']} CTAs leave some of the {bound['sms']} SMs idle, and the "
                f"order decides where they run")
    return (f"with no reuse its reads would take {bound['all_miss_s'] / bound['compute_s']:.1f}x "
            f"its compute time at DRAM's rate, so reuse the model does not see (L2 requests "
            f"merged between CTAs) can set the time")


def verdict(ranked: list[dict], gpu: str = "h200") -> dict:
    """The order to run for this GEMM, and whether the order matters, by predicted time
    against the noise band of ``gpu`` (:data:`swizzlekit.cta.timing.ORDER_NOISE_PCT`, how far
    replicate timings of one order lie apart). The pick is the predicted fastest order, and
    :data:`DEFAULT_ORDER` where that ties it (the same launch sequence under another name, or
    the same predicted time): held out, it runs within 2% of the measured fastest more often
    than the default does (:data:`~swizzlekit.cta.timing.TIME_HELDOUT`).

    Two questions, answered apart:

    - ``default_within_band``: no order is predicted faster than the default by more than the
      band (the default is as good as any, within the noise);
    - ``matters``: True where some order is predicted slower than the fastest by more than
      the band. False (the text: the order does not matter here, within the band) only where
      every order ranked is predicted within the band of the fastest and the problem's
      :func:`~swizzlekit.cta.timing.reuse_bound` holds: no order, however poor its reuse, can
      make it wait on DRAM, and every SM has work. None where the orders are predicted within
      the band but the bound does not hold: held out, such problems' orders ran up to 20%
      apart (16-bit and fp8 operands, short K loops, grids of fewer CTAs than SMs), and the
      text says why the prediction is not enough.
      Where the default ties the fastest but other orders are predicted slower by more than
      the band, the order matters, and the text names the slowest.

    Also the predicted fastest order's gains over the default and over grouped(8), the row
    order against it and against the pick, the predicted spread (slowest over fastest), the
    best group size, the held-out figures of the time model on that GPU, ``reason`` (why the
    pick, in words) and ``text`` (the pick, the reason and the best group size).

    >>> v = verdict(rank(8192, 8192, 8192))
    >>> v["matters"], v["default_within_band"], v["pick"], v["gain_vs_grouped8_pct"]
    (True, True, 'grouped group=16 along=m', 0.1)
    >>> v = verdict(rank(4096, 4096, 4096, tile=(128, 128, 32), elem_bytes=4, ctas_per_sm=2))
    >>> v["matters"], v["spread_pct"] <= v["noise_band_pct"]
    (False, True)
    >>> verdict(rank(256, 256, 4096))["matters"] is None        # 4 CTAs: most SMs idle
    True
    """
    from swizzlekit.cta.timing import ORDER_NOISE_PCT, TIME_HELDOUT, time_parameters

    fitted = time_parameters(gpu)["fitted"]
    band = ORDER_NOISE_PCT[fitted]
    name, params = DEFAULT_ORDER
    if not isinstance(ranked, list) or not all(isinstance(r, dict) and {"order", "params",
                                               "time_s"} <= set(r) for r in ranked):
        ranked = []
    row, g8, default = (_entry(ranked, *o) for o in (("row", {}), ("grouped", {"group": 8}),
                                                      DEFAULT_ORDER))
    if not ranked or row is None or g8 is None or default is None:
        raise SwizzleKitError("verdict takes the list rank() returns (every order, the row "
                              "order, grouped(8) and grouped(16) among them)")
    best = ranked[0]
    slowest = max(ranked, key=lambda r: r["time_s"])
    grouped = next(r for r in ranked if r["order"] == "grouped")
    gain = default["time_s"] / best["time_s"] - 1
    row_gain = row["time_s"] / best["time_s"] - 1
    spread = slowest["time_s"] / best["time_s"] - 1
    default_within_band = gain * 100 <= band
    bound = best.get("reuse_bound")
    bound = bound if isinstance(bound, dict) and {"holds", "all_miss_s", "compute_s", "ctas",
                                                  "sms"} <= set(bound) else None
    # True: some order is predicted slower than the band; False: the claim, where the bound
    # holds too; None: predicted within the band, which the bound does not back
    matters = (True if spread * 100 > band else
               False if bound is not None and bound["holds"] is True else None)
    pick = default if within(default["time_s"], best["time_s"]) else best
    pick_label, default_label = label(pick["order"], pick["params"]), label(name, params)
    fastest = (f"{default_label} is predicted fastest" if pick is default
               else f"predicted {gain * 100:.1f}% faster than {default_label}")
    slowest_label = label(slowest["order"], slowest["params"])
    if matters is False:
        reason = (f"the order does not matter here (within {band}%): every order is predicted "
                  f"within the noise band of the fastest, and with no reuse at all its reads "
                  f"would take {bound['all_miss_s'] / bound['compute_s']:.2f}x its compute "
                  f"time at DRAM's rate{claim_record(gpu)}; {fastest} (the row order "
                  f"{row_gain * 100:+.1f}%)")
    elif matters is None:
        reason = (f"every order is predicted within the noise band ({band}%) of the fastest, "
                  f"but the order may matter more here than predicted: {_unbacked(bound)}"
                  f"{withheld_record(gpu)}; {fastest} (the row order {row_gain * 100:+.1f}%)")
    elif default_within_band:
        within_band = ("" if pick is default else
                       f", within the noise band ({band}%), so {default_label} would do too")
        reason = (f"{fastest}{within_band}; the order matters: the row order "
                  f"{row_gain * 100:+.1f}%, the slowest ({slowest_label}) {spread * 100:+.1f}%")
    else:
        reason = f"{fastest} and {row_gain * 100:.1f}% faster than the row order"
    return {"matters": matters, "default_within_band": default_within_band,
            "pick": pick_label, "pick_order": pick["order"],
            "pick_params": pick["params"], "best": label(best["order"], best["params"]),
            "default": default_label, "time_s": pick["time_s"],
            "gain_vs_default_pct": round(gain * 100, 1),
            "gain_vs_grouped8_pct": round((g8["time_s"] / best["time_s"] - 1) * 100, 1),
            "row_over_best_pct": round(row_gain * 100, 1),
            "slowest": slowest_label, "spread_pct": round(spread * 100, 1),
            # how much slower the row order is than the pick, and the pick than the row order
            # (the row order can be faster within the noise band, where the pick is the
            # default): one of the two is 0, so neither figure is negative
            "row_over_pick_pct": round(max(row["time_s"] / pick["time_s"] - 1, 0) * 100, 1),
            "pick_over_row_pct": round(max(pick["time_s"] / row["time_s"] - 1, 0) * 100, 1),
            "noise_band_pct": band,
            "best_grouped": label(grouped["order"], grouped["params"]),
            "heldout": TIME_HELDOUT.get(fitted, {}), "fitted_on": fitted,
            "reason": reason,
            "text": (f"{pick_label}: {reason}; best group size: "
                     f"{label(grouped['order'], grouped['params'])}")}
