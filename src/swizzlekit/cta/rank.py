"""Rank every CTA order for one GEMM on one GPU by the L2 model, and recommend one.

Each order of :data:`~swizzlekit.cta.ORDERS` is tried with the parameter values of
:data:`SWEEP` (group sizes, strip widths, ...); the ranking is by predicted DRAM bytes read,
then by predicted L2 hit rate.

>>> best = rank(8192, 8192, 8192)[0]
>>> label(best["order"], best["params"]), best["l2_hit_rate"], round(best["vs_row"], 2)
('strip_snake width=8', 75.47, 0.38)
>>> rank(4096, 4096, 4096, gpu="b300")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: unknown GPU 'b300'; valid: h200, h100-sxm, h100-pcie, a100, rtx4090, rtx4050-laptop
"""

from __future__ import annotations

from swizzlekit.cta.l2 import check_problem, simulate
from swizzlekit.cta.l2 import settings as model_settings
from swizzlekit.cta.orders import ORDERS, order
from swizzlekit.errors import SwizzleKitError, check_choice, check_int
from swizzlekit.gpus import gpu as gpu_preset

__all__ = ["SWEEP", "rank", "verdict", "label", "RANK_MAX_TILES", "RANK_MAX_TILE_STEPS",
           "RANK_MAX_WAVES"]

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


def rank(M: int, N: int, K: int, *, gpu: str = "h200", tile: tuple[int, int, int] = (128, 128, 64),
         elem_bytes: int = 2, ctas_per_sm: int = 1, persistent: bool = False,
         concurrent: int | None = None, dispatch: str = "coin",
         out_bytes: int | None = None, programs: int | None = None,
         row_bytes: tuple[int, int] | None = None) -> list[dict]:
    """Every order and parameter set, best first: ``order``, ``params``, ``l2_hit_rate`` (%),
    ``dram_read_bytes``, and ``vs_row`` (DRAM bytes over the row order's). ``out_bytes``: C's
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
    out = []
    for name in ORDERS:
        for params in SWEEP.get(name, [{}]):
            pred = simulate(M, N, K, order(name, tm, tn, **params), **settings)
            out.append({"order": name, "params": params, "l2_hit_rate": pred.l2_hit_rate,
                        "dram_read_bytes": pred.dram_read_bytes})
    row = next(r["dram_read_bytes"] for r in out if r["order"] == "row")
    for r in out:
        r["vs_row"] = r["dram_read_bytes"] / row if row else 1.0
    out.sort(key=lambda r: (r["dram_read_bytes"], -r["l2_hit_rate"]))
    return out


def verdict(ranked: list[dict], dispatch: str = "coin") -> dict:
    """Whether the order matters for this GEMM, by the model's own held-out error under
    ``dispatch`` (:data:`swizzlekit.cta.l2.HELDOUT_BY_DISPATCH`): it does not when the row
    order's predicted DRAM bytes are within that error (the median, in %) of the best order's.
    Also the best group size.

    >>> verdict(rank(8192, 8192, 8192))["matters"]
    True
    """
    from swizzlekit.cta.l2 import DISPATCH, HELDOUT_BY_DISPATCH

    held = HELDOUT_BY_DISPATCH[check_choice("dispatch", dispatch, DISPATCH)]
    if (not isinstance(ranked, list) or not all(isinstance(r, dict) and {"order", "params",
                                                "dram_read_bytes"} <= set(r) for r in ranked)
            or not {"row", "grouped"} <= {r["order"] for r in ranked}):
        raise SwizzleKitError("verdict takes the list rank() returns (every order, the row and "
                              "grouped orders among them)")

    best = ranked[0]
    row = next(r for r in ranked if r["order"] == "row")
    grouped = next(r for r in ranked if r["order"] == "grouped")
    gain = row["dram_read_bytes"] / max(best["dram_read_bytes"], 1) - 1
    matters = gain * 100 > held["dram_median_pct"]
    return {"matters": matters, "best": label(best["order"], best["params"]),
            "row_over_best_pct": round(gain * 100, 1),
            "best_grouped": label(grouped["order"], grouped["params"]),
            "error": held,
            "text": (f"{label(best['order'], best['params'])}: the row order reads "
                     f"{gain * 100:.0f}% more from DRAM" if matters else
                     f"the order does not matter here: the row order's DRAM bytes are within "
                     f"{gain * 100:.1f}% of the best, inside the model's held-out error "
                     f"({held['dram_median_pct']}% median)")
                    + f"; best group size: {label(grouped['order'], grouped['params'])}"}
