"""The L2 model's near and fabric paths beside ncu's, over every run of the committed sweep.

    python3 docs/data/l2_checks/fabric_split.py

ncu splits L2 lookups by source: ``lts__t_sectors_srcunit_tex_op_read`` (near reads from the
SMs) and ``lts__t_sectors_srcunit_ltcfabric`` (lookups arriving from the other partition),
each with its hits. The model's own near and fabric totals are read off the arguments of
``swizzlekit.cta.l2._prediction``. Prints, per half: the signed hit-rate error, the near
hit rate (model minus measured, mean), and the fabric hit rate (medians).
"""

import json

import numpy as np

import swizzlekit.cta.l2 as l2
from swizzlekit.compare import SWEEP_TABLE
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, sweep_order
from swizzlekit.lab.records import L2SweepRow, read_csv


def main() -> None:
    seen, shipped = {}, l2._prediction

    def spy(near_hits, near_total, fab_hits, fab_total, *rest):
        seen.update(near=near_hits / near_total, fab=fab_hits / max(fab_total, 1))
        return shipped(near_hits, near_total, fab_hits, fab_total, *rest)

    l2._prediction = spy
    out = []
    for r in read_csv(SWEEP_TABLE, L2SweepRow):
        bm, bn, _ = r.tile
        o = sweep_order(r.order, -(-r.M // bm), -(-r.N // bn), json.loads(r.params))
        p = l2.simulate(r.M, r.N, r.K, o, tile=r.tile, elem_bytes=ELEM_BYTES[r.dtype],
                        ctas_per_sm=r.ctas_per_sm, persistent=r.persistent)
        out.append((r.split, p.l2_hit_rate - r.l2_hit_rate_pct,
                    seen["near"] - r.tex_read_hit_sectors / r.tex_read_sectors,
                    seen["fab"], r.fabric_hit_sectors / max(r.fabric_sectors, 1)))
    l2._prediction = shipped
    for split in ("fit", "heldout"):
        rows = np.array([x[1:] for x in out if x[0] == split])
        print(f"{split:8s} runs {len(rows)}: hit error (signed) mean {rows[:, 0].mean():+.2f}; "
              f"near hit rate, model - measured, mean {100 * rows[:, 1].mean():+.1f} points; "
              f"fabric hit rate median: model {np.median(rows[:, 2]):.3f}, measured "
              f"{np.median(rows[:, 3]):.3f}")


if __name__ == "__main__":
    main()
