"""drift.py's term under the time model: for each lambda the time model refitted on each
card's fit half (`compare_time.fit`), then judged on the fit half, the held-out half and the
fresh set (pick within 2%, median and worst error, claims true of claims). No GPU; from the
repository root:

    LAMS="0 0.02 0.05 0.1 0.2 0.3 0.5" python3 docs/data/l2_checks/group_size/drift_time.py
"""
import os
import sys
import time

sys.argv = ["drift.py"]
drift: dict = {}
exec(open("docs/data/l2_checks/group_size/drift.py").read().split("\ndef probe(")[0], drift)
LAM = drift["LAM"]                  # drift.py patches swizzlekit.cta.l2 on import
from swizzlekit import compare_time as ct  # noqa: E402

for lam in [float(x) for x in os.environ.get("LAMS", "0 0.05 0.2").split()]:
    LAM[0] = lam
    ct._runs.cache_clear()
    t = time.time()
    out = []
    for card in ("h100", "h200"):
        par = ct.fit(card)
        for part in ("fit", "heldout", "fresh"):
            j = ct.judge(card, part, parameters=par)
            out.append(f"{card}-{part[:3]} w2 {j['pick_within_2pct']:.2f} med "
                       f"{j['rel_err_median_pct']} worst {j['rel_err_worst_pct']} cl "
                       f"{j['claims_true']}/{j['claims']}")
    print(lam, " | ".join(out), flush=True)
