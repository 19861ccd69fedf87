"""The time model (:mod:`swizzlekit.cta.timing`) against replicate-timed order tables: the
fit on one half, the figures on the other half and on a fresh set, per GPU.

The tables (``swizzlekit lab order-times``) time every order of a problem (shape, tile
config, element type) in interleaved replicates (27: three passes of 9 in Williams turns,
on three H100 cards and on one H200); ``ms`` is the median. Their
``split`` column says which half a shape belongs to; the fresh tables hold shapes in
neither half, timed once the split was fixed.

    python -m swizzlekit.compare_time --heldout     the figures of TIME_FITTED (about 20 s)
    python -m swizzlekit.compare_time --fit         the grid search behind TIME_FITTED
    python -m swizzlekit.compare_time --noise       the replicate spread per card
    python -m swizzlekit.compare_time --twins       identical orders' spread per card
    python -m swizzlekit.compare_time --defaults    each order as the default, fit halves
    python -m swizzlekit.compare_time --band        the figures under the band rule

A problem is judged over its non-random, non-persistent orders: each order's predicted time
relative to the problem's predicted fastest, against its measured median relative to the
measured fastest (the error, in points of %), and the regret of the order picked as
:func:`swizzlekit.cta.rank.verdict` picks: the predicted fastest, the default order
(:data:`swizzlekit.cta.rank.DEFAULT_ORDER`, grouped(16)) where it ties. Where no order is
predicted faster than the default by more than the card's noise band
(:data:`swizzlekit.cta.timing.ORDER_NOISE_PCT`), the verdict says the default lies within
the band of the fastest (``ties``); that is true where the default's measured median lies
within the band of the measured fastest (``ties_true``). Where every order is predicted
within the band of the fastest, it claims that the order does not matter there
(``claims``); the claim is true where every order's measured median lies within the band of
the measured fastest (``claims_true``). The judge reads "every order" as the tables'
non-random ones; the verdict asks it of every order it ranks, a superset, so it claims at
most where the judge does. ``--defaults`` judges every order of the tables as that default
on the fit halves (how :data:`~swizzlekit.cta.rank.DEFAULT_ORDER` was chosen).
"""

from __future__ import annotations

import collections
import functools
import sys

import numpy as np

from swizzlekit.data import path

__all__ = ["TABLES", "CLAIMS_TABLES", "CARDS", "RULES", "runs", "judge", "judged_parts",
           "heldout", "fit", "noise", "twin_sets",
           "twins", "defaults", "main"]

#: Each card's preset and its tables: the fit/heldout table and the fresh one.
CARDS = {"h100": "h100-sxm", "h200": "h200"}
TABLES = {card: (f"order_times_{card}.csv", f"order_times_fresh_{card}.csv") for card in CARDS}
#: Each card's table of the claims set (``lab order-times --set claims``), where timed.
CLAIMS_TABLES = {card: f"order_times_claims_{card}.csv" for card in CARDS}
#: The parts of the order tables: the fit half, the held-out half, the fresh set, and the
#: claims set (drawn after the verdict's claim rule was fixed).
PARTS = ("fit", "heldout", "fresh", "claims")
#: The pick rules :func:`judge` knows: the verdict's (the predicted fastest, the default where
#: it ties) and the one before it (the default wherever no order is predicted faster than it
#: by more than the noise band).
RULES = ("fastest", "band")
#: The grids of :func:`fit`: overlap exponents, and efficiencies (the DRAM share is 1 in the
#: first stage; only their ratio shapes relative times).
P_GRID = (1.0, 1.5, 2.0, 3.0, 4.0, 8.0)
EFFICIENCY_GRID = tuple(np.round(np.geomspace(0.05, 2.0, 41), 4))


def runs(card: str, part: str) -> tuple:
    """``(row, prediction)`` of every non-random, non-persistent run of ``part`` ("fit",
    "heldout" or "fresh") on ``card`` (a key of :data:`CARDS`), under the L2 model on the
    card's preset."""
    from swizzlekit.errors import check_choice

    check_choice("card", card, tuple(CARDS))
    check_choice("part", part, PARTS)
    return _runs(card, part)


@functools.lru_cache(maxsize=None)
def _runs(card: str, part: str) -> tuple:
    from swizzlekit.cta.l2 import simulate
    from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, OUT_BYTES, row_bytes, sweep_order
    from swizzlekit.lab.records import OrderTimeRow, read_csv

    table = CLAIMS_TABLES[card] if part == "claims" else TABLES[card][part == "fresh"]
    out = []
    for r in read_csv(path(table), OrderTimeRow):
        if r.order == "random" or r.persistent or (part in ("fit", "heldout")
                                                   and r.split != part):
            continue
        bm, bn, _ = r.tile
        o = sweep_order(r.order, -(-r.M // bm), -(-r.N // bn), r.params_dict)
        out.append((r, simulate(r.M, r.N, r.K, o, tile=r.tile, elem_bytes=ELEM_BYTES[r.dtype],
                                out_bytes=OUT_BYTES[r.dtype], ctas_per_sm=r.ctas_per_sm,
                                row_bytes=row_bytes(r.N, r.K, r.dtype), gpu=CARDS[card])))
    return tuple(out)


def _problems(pairs) -> list[list]:
    groups = collections.defaultdict(list)
    for r, p in pairs:
        groups[(r.shape, r.config, r.dtype, r.ctas_per_sm)].append((r, p))
    return list(groups.values())


def _times(card: str, pairs, parameters: dict | None = None) -> np.ndarray:
    from swizzlekit.cta.timing import kernel_time
    from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES

    return np.array([kernel_time(r.M, r.N, r.K, ELEM_BYTES[r.dtype], p.per_wave_dram_read_bytes,
                                 p.dram_write_bytes, CARDS[card], parameters=parameters,
                                 family=_family(r)) for r, p in pairs])


@functools.lru_cache(maxsize=None)
def _family_of(M: int, N: int, tile: tuple, name: str, params: str) -> str | None:
    import json

    from swizzlekit.cta.families import family
    from swizzlekit.lab.experiments.l2_sweep import sweep_order

    tm, tn = -(-M // tile[0]), -(-N // tile[1])
    return family(sweep_order(name, tm, tn, json.loads(params)), tm, tn)


def _family(row) -> str | None:
    """The family (:func:`swizzlekit.cta.families.family`) of a table row's order."""
    return _family_of(row.M, row.N, tuple(row.tile), row.order, row.params)


def _is(row, order: tuple[str, dict]) -> bool:
    """Whether a table row runs ``order`` (its parameters, defaults filled in)."""
    from swizzlekit.cta.rank import canonical

    return canonical(row.order, row.params_dict) == canonical(*order)


def judge(card: str, part: str, parameters: dict | None = None,
          default: tuple[str, dict] | None = None, rule: str = "fastest") -> dict:
    """The time model's figures on ``part`` of ``card``'s tables (see the module's text),
    with ``default`` (default: :data:`swizzlekit.cta.rank.DEFAULT_ORDER`) claimed not to
    matter where no order is predicted faster than it by more than the noise band, and taken
    where it ties the predicted fastest (``rule`` "fastest", the verdict's), or wherever it
    is so claimed (``rule`` "band")."""
    from swizzlekit.cta.rank import DEFAULT_ORDER, TIE, within
    from swizzlekit.cta.timing import ORDER_NOISE_PCT, reuse_bound
    from swizzlekit.errors import check_choice
    from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, OUT_BYTES

    check_choice("rule", rule, RULES)
    band = ORDER_NOISE_PCT[CARDS[card]] / 100
    default = DEFAULT_ORDER if default is None else default
    errs, regrets, ties, claims, withheld, log_errs, fastest = [], [], [], [], [], [], []
    for group in _problems(runs(card, part)):
        meas = np.array([r.ms for r, _ in group]) * 1e-3
        pred = _times(card, group, parameters)
        errs += list(np.abs(pred / pred.min() - meas / meas.min()))
        log_errs += list(np.abs(pred / meas - 1))
        d, best = next(i for i, (r, _) in enumerate(group) if _is(r, default)), int(np.argmin(pred))
        pick = d if within(pred[d], pred[best], TIE if rule == "fastest" else band) else best
        regrets.append(meas[pick] / meas.min() - 1)
        fastest.append(meas[best] / meas.min() - 1)
        if within(pred[d], pred[best], band):
            ties.append(bool(meas[d] <= meas.min() * (1 + band)))
        if within(pred.max(), pred[best], band):
            r = group[0][0]
            holds = reuse_bound(r.M, r.N, r.K, tuple(r.tile), ELEM_BYTES[r.dtype],
                                OUT_BYTES[r.dtype], CARDS[card])["holds"]
            (claims if holds else withheld).append(bool(meas.max() <= meas.min() * (1 + band)))
    regrets, fastest = np.array(regrets), np.array(fastest)
    return {"problems": len(regrets), "runs": len(errs),
            "rel_err_median_pct": round(float(np.median(errs)) * 100, 1),
            "rel_err_worst_pct": round(float(np.max(errs)) * 100, 1),
            "time_err_median_pct": round(float(np.median(log_errs)) * 100, 1),
            "pick_within_2pct": round(float(np.mean(regrets <= 0.02)), 2),
            "pick_within_5pct": round(float(np.mean(regrets <= 0.05)), 2),
            "regret_worst_pct": round(float(regrets.max()) * 100, 1),
            "ties": len(ties), "ties_true": int(sum(ties)),
            "claims": len(claims), "claims_true": int(sum(claims)),
            "withheld": len(withheld), "withheld_true": int(sum(withheld)),
            "fastest_within_2pct": round(float(np.mean(fastest <= 0.02)), 2),
            "fastest_within_5pct": round(float(np.mean(fastest <= 0.05)), 2)}


def judged_parts(card: str) -> tuple[str, ...]:
    """The parts :func:`heldout` judges on ``card``: the held-out half, the fresh set, and
    the claims set where the card's table of it is committed."""
    from swizzlekit.data import FOLDER

    return ("heldout", "fresh") + (("claims",) if (FOLDER / CLAIMS_TABLES[card]).is_file()
                                   else ())


def heldout() -> dict:
    """:func:`judge` on the held-out half, the fresh set and the claims set of each card:
    what :data:`swizzlekit.cta.timing.TIME_HELDOUT` holds."""
    return {CARDS[card]: {part: judge(card, part) for part in judged_parts(card)}
            for card in CARDS}


def _rel_loss(card: str, pairs_by_problem, parameters: dict) -> float:
    errs = []
    for group in pairs_by_problem:
        meas = np.array([r.ms for r, _ in group])
        pred = _times(card, group, parameters)
        errs += list(np.abs(pred / pred.min() - meas / meas.min()))
    return float(np.mean(errs))


def fit(card: str) -> dict:
    """The parameters of :func:`swizzlekit.cta.timing.kernel_time` for ``card``, from its
    "fit" runs only. Stage 1 (the DRAM share held at 1): per overlap exponent ``p`` of
    :data:`P_GRID`, each element size's efficiency from :data:`EFFICIENCY_GRID` by the least
    mean error of relative times; the ``p`` with the least total. Stage 2: one scale of
    efficiency and share together (relative times unchanged) by the least squares of log
    time. Stage 3: each order family's factor (:mod:`swizzlekit.cta.families`), the median
    over its fit runs of how much slower relative to its problem's fastest it ran than
    stages 1 and 2 predict."""
    from swizzlekit.cta.families import FAMILIES
    from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES

    pairs = runs(card, "fit")
    by_size = collections.defaultdict(list)
    for group in _problems(pairs):
        by_size[ELEM_BYTES[group[0][0].dtype]].append(group)
    best = None
    for p in P_GRID:
        eff, total = {}, 0.0
        for size, groups in sorted(by_size.items()):
            losses = {e: _rel_loss(card, groups, {"p": p, "share": 1.0, "families": {},
                                                  "efficiency": {size: e, 4: e}})
                      for e in EFFICIENCY_GRID}
            eff[size] = min(losses, key=losses.get)
            total += losses[eff[size]] * sum(len(g) for g in groups)
        if best is None or total < best[0]:
            best = (total, p, eff)
    _, p, eff = best
    par = {"p": p, "share": 1.0, "efficiency": eff, "families": {}}
    meas = np.array([r.ms * 1e-3 for r, _ in pairs])
    scale = float(np.exp(np.mean(np.log(_times(card, pairs, par)) - np.log(meas))))
    par = {"p": p, "share": round(scale, 2), "families": {},
           "efficiency": {s: round(e * scale, 3) for s, e in eff.items()}}
    slower = collections.defaultdict(list)
    for group in _problems(pairs):
        m, t = np.array([r.ms for r, _ in group]), _times(card, group, par)
        for (r, _), x in zip(group, np.log(m / m.min()) - np.log(t / t.min())):
            if (kind := _family(r)) is not None:
                slower[kind].append(x)
    return {**par, "families": {f: round(float(np.expm1(np.median(slower[f]))), 3)
                                for f in FAMILIES if slower[f]}}


def defaults(part: str = "fit", rule: str = "band") -> dict:
    """``{order label: {card preset: share of problems picked within 2%}}``: each non-random
    order of the tables judged as the default (:func:`judge`'s ``default``) on ``part`` under
    ``rule`` ("band": taken wherever the model does not tell it from the fastest, the rule
    :data:`swizzlekit.cta.rank.DEFAULT_ORDER` was chosen under; "fastest": ties only)."""
    from swizzlekit.cta.rank import label

    orders = {}
    for r, _ in runs("h100", part):
        orders.setdefault(label(r.order, r.params_dict), (r.order, r.params_dict))
    return {name: {CARDS[card]: judge(card, part, default=o, rule=rule)["pick_within_2pct"]
                   for card in CARDS} for name, o in sorted(orders.items())}


def noise() -> dict:
    """The 90th percentile over non-random runs of the replicates' interquartile range over
    their median, per card (%)."""
    from swizzlekit.lab.records import OrderTimeRow, read_csv

    out = {}
    for card in CARDS:
        rows = [r for r in read_csv(path(TABLES[card][0]), OrderTimeRow) if r.order != "random"]
        iqr = [np.subtract(*np.quantile(r.times_ms, [0.75, 0.25])) / r.ms for r in rows]
        out[CARDS[card]] = round(float(np.quantile(iqr, 0.9)) * 100, 1)
    return out


def twin_sets(group) -> list[list]:
    """The runs of one problem (a group of :func:`runs`' pairs) gathered by launch order: runs
    whose orders give the same tiles in the same sequence share a list (of table rows)."""
    from swizzlekit.lab.experiments.l2_sweep import sweep_order

    bm, bn, _ = group[0][0].tile
    tm, tn = -(-group[0][0].M // bm), -(-group[0][0].N // bn)
    sets = collections.defaultdict(list)
    for r, _ in group:
        sets[sweep_order(r.order, tm, tn, r.params_dict).tobytes()].append(r)
    return list(sets.values())


def twins() -> dict:
    """Per card: the sets of identical launch orders in the order tables (:func:`twin_sets`
    of more than one run), how many lie more than 2% apart, and the worst spread of their
    medians (%): :data:`swizzlekit.cta.timing.ORDER_TWINS`."""
    out = {}
    for card in CARDS:
        spreads = []
        for part in ("fit", "heldout", "fresh"):
            for group in _problems(runs(card, part)):
                spreads += [max(r.ms for r in same) / min(r.ms for r in same) - 1
                            for same in twin_sets(group) if len(same) > 1]
        s = np.array(spreads)
        out[CARDS[card]] = {"sets": len(s), "over_2pct": int((s > 0.02).sum()),
                            "worst_pct": round(float(s.max()) * 100, 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--fit" in argv:
        for card in CARDS:
            print(f"{CARDS[card]}: {fit(card)}")
        return 0
    if "--noise" in argv:
        print(noise())
        return 0
    if "--twins" in argv:
        print(twins())
        return 0
    if "--defaults" in argv:
        for name, shares in defaults().items():
            print(f"{name:30s} " + "  ".join(f"{g} {v:.2f}" for g, v in shares.items()))
        return 0
    if "--band" in argv:
        for card, gpu in CARDS.items():
            for part in judged_parts(card):
                print(f"{gpu:9s} {part:8s} {judge(card, part, rule='band')}")
        return 0
    for gpu, parts in heldout().items():
        for part, e in parts.items():
            print(f"{gpu:9s} {part:8s} {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
