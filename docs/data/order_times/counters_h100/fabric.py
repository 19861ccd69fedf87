"""Does cross-partition (fabric) traffic explain the H100's order times? The form of
``ceiling.py`` with ncu's fabric sectors (``lts__t_sectors_srcunit_ltcfabric``, the
``fabric_sectors`` column of ``src/swizzlekit/data/l2_sweep_h100.csv`` and
``l2_fresh_h100.csv``) x 32 B over a fitted fabric rate in place of the L2 term, either inside
the smooth maximum (``norm``) or added to it (``add``); DRAM bytes from the L2 model or from
ncu; no family factors. Fitted on the fit half of the H100's order tables by the least mean
error of relative times (a fabric rate of 0 is the model without the term), judged on the
held-out half and the fresh set. No GPU:

    python3 docs/data/order_times/counters_h100/fabric.py     (output: fabric.txt)

What it printed (fabric.txt): with ncu's DRAM bytes the fit takes no fabric term at all;
with the L2 model's it takes one (3.6 TB/s in the smooth maximum, 6.3 added) that picks no
better held out (68% within 2%, against 68% without it in ceiling.txt) and errs no less.
Measured fabric traffic does not tell the orders' times apart beyond what DRAM bytes do.
"""
import itertools
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
_src = (HERE / "ceiling.py").read_text()
exec(_src[:_src.index("for ncu_dram, l2_term in itertools.product")])   # its tables, helpers


def fabric_times(group, eff, share, fab, p, ncu_dram, mode):
    out = []
    for s, n, c, d in terms(group, eff, share, ncu_dram):
        f = s.fabric_sectors * 32 / n / fab if fab else 0 * d
        out.append((((c ** p + d ** p + f ** p) ** (1 / p)) if mode == "norm"
                    else ((c ** p + d ** p) ** (1 / p) + f)).sum())
    return np.array(out)


times = fabric_times          # ceiling.py's judge() times each problem's runs by this


for ncu_dram, mode in itertools.product((False, True), ("norm", "add")):
    best = None
    for p, e2, f8, f4, share, fab in itertools.product(
            (1.5, 2, 3), np.geomspace(0.2, 1.2, 7), (1.5, 2.0), (0.2, 0.3), (1.0, 1.5, 2.0, 3.0),
            (0,) + tuple(np.geomspace(2e11, 2e13, 9))):
        args = ({1: e2 * f8, 2: e2, 4: e2 * f4}, share, fab, p, ncu_dram, mode)
        loss = judge("fit", *args)[1]
        if best is None or loss < best[0]:
            best = (loss, args)
    _, share, fab, p, _, _ = best[1]
    print(f"DRAM from {'ncu' if ncu_dram else 'the L2 model'}, fabric term {mode}: "
          f"fabric rate {fab / 1e12:.1f} TB/s (0: none), p {p}, share {share}")
    for part in ("fit", "heldout", "fresh"):
        print(f"   {part:8s} {judge(part, *best[1])[0]}")
