"""What the band rule costs the pick, and what per-order corrections would give. No GPU; run
from the repository root:

    python3 docs/data/order_times/order_bias.py > docs/data/order_times/order_bias.txt

Per card, each named order's median residual on the fit half: the log of its measured time
relative to its problem's fastest, less the time model's (positive: slower than the model
says). Then the picks on each half (within 2% / within 5% of the fastest median), four ways:
the rule as shipped (grouped(16) where no order is predicted faster than it by more than the
card's noise band; ``compare_time.judge``, without the family factors), the model's fastest order with no band, and the
two again with every order's predicted time scaled by its fit-half residual.
"""
import collections

import numpy as np

from swizzlekit.compare_time import CARDS, _is, _problems, _times, runs
from swizzlekit.cta.rank import DEFAULT_ORDER, label
from swizzlekit.cta.timing import ORDER_NOISE_PCT

#: The time model without its family factors (they came after this analysis, from it).
NO_FAMILY = {"families": {}}


def name(row) -> str:
    return label(row.order, row.params_dict)


def residuals(card: str) -> dict:
    res = collections.defaultdict(list)
    for group in _problems(runs(card, "fit")):
        meas = np.array([r.ms for r, _ in group])
        pred = _times(card, group, NO_FAMILY)
        for (r, _), x in zip(group, np.log(meas / meas.min()) - np.log(pred / pred.min())):
            res[name(r)].append(x)
    return {k: float(np.median(v)) for k, v in res.items()}


def picks(card: str, part: str, band: float, bias: dict | None) -> str:
    regrets = []
    for group in _problems(runs(card, part)):
        meas = np.array([r.ms for r, _ in group])
        pred = _times(card, group, NO_FAMILY) * np.exp([(bias or {}).get(name(r), 0.0)
                                                        for r, _ in group])
        d = next(i for i, (r, _) in enumerate(group) if _is(r, DEFAULT_ORDER))
        pick = d if pred[d] <= pred.min() * (1 + band) else int(np.argmin(pred))
        regrets.append(meas[pick] / meas.min() - 1)
    g = np.array(regrets)
    return f"{np.mean(g <= 0.02):.0%}/{np.mean(g <= 0.05):.0%}"


for card in CARDS:
    bias = residuals(card)
    band = ORDER_NOISE_PCT[CARDS[card]] / 100
    print(f"{card}: fit-half median residual by order (%): "
          + ", ".join(f"{k} {v * 100:+.1f}" for k, v in bias.items()))
    for title, b, corr in (("as shipped (band, grouped(16))", band, None),
                           ("model's fastest, no band", 0.0, None),
                           ("band, with the corrections", band, bias),
                           ("no band, with the corrections", 0.0, bias)):
        print(f"  {title:32s} " + "  ".join(f"{part} {picks(card, part, b, corr)}"
                                             for part in ("fit", "heldout", "fresh")))
