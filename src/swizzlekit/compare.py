"""The L2 model against the H200 measurements: per run, the measured and predicted hit rate.

``python -m swizzlekit.compare`` prints the comparison table and the mean and worst
absolute error in percentage points; ``--sweep`` prints them for other wave sizes and
partition counts. docs/cta.md quotes both; the tests hold the model to them.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

from swizzlekit.cta.l2 import simulate
from swizzlekit.cta.orders import order
from swizzlekit.data import FOLDER
from swizzlekit.gpus import gpu
from swizzlekit.seeds import SEED001_ORDERS

__all__ = ["TABLES", "compare", "compare_seed001", "sweep", "main"]

TABLES = (FOLDER / "l2_h200.csv", FOLDER / "l2_h200_counters.csv")
#: The model's settings for the measured kernel (128x128x64 fp16 tiles) on the H200, from its
#: preset (wave = one CTA per SM).
H200_SETTINGS = dict(l2_bytes=gpu("h200").l2_bytes, concurrent=gpu("h200").sms,
                     partitions=gpu("h200").l2_partitions)


def compare(paths=TABLES, **settings) -> list[dict]:
    """One row per measured table_gemm run: shape, order, measured and predicted numbers."""
    settings = {**H200_SETTINGS, **settings}
    out = []
    for path in paths:
        if not Path(path).exists():
            from swizzlekit.errors import SwizzleKitError

            raise SwizzleKitError(f"{path} not found (the measured tables ship in "
                                  f"swizzlekit/data)")
        for r in csv.DictReader(open(path)):
            if r["kernel"] != "table_gemm":
                continue
            m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
            o = order(r["order"], -(-m // 128), -(-n // 128), **json.loads(r["params"]))
            p = simulate(m, n, k, o, **settings)
            out.append({"run": Path(path).stem, "shape": f"{m}x{n}x{k}", "order": r["order"],
                        "measured_hit": float(r["l2_hit_rate_pct"]), "model_hit": p.l2_hit_rate,
                        "measured_dram": int(r["dram_read_bytes"]),
                        "model_dram": p.dram_read_bytes})
    return out




def compare_seed001(path=TABLES[0], **settings) -> list[dict]:
    """Seed 001's two kernels at its sizes: measured against predicted."""
    settings = {**H200_SETTINGS, **settings}
    out = []
    for r in csv.DictReader(open(path)):
        if r["kernel"] not in SEED001_ORDERS:
            continue
        m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
        name, params = SEED001_ORDERS[r["kernel"]]
        p = simulate(m, n, k, order(name, m // 32, n // 32, **params), tile=(32, 32, 32),
                     elem_bytes=4, **settings)
        out.append({"kernel": r["kernel"], "shape": f"{m}x{n}x{k}",
                    "measured_hit": float(r["l2_hit_rate_pct"]), "model_hit": p.l2_hit_rate,
                    "measured_dram": int(r["dram_read_bytes"]), "model_dram": p.dram_read_bytes})
    return out


def sweep(concurrent=(66, 132, 198, 264), partitions=(1, 2)) -> list[dict]:
    """Mean and worst error for each wave size and partition count (how the settings were
    chosen; they are fitted on the same measurements they are judged on)."""
    out = []
    for c in concurrent:
        for p in partitions:
            rows = compare(concurrent=c, partitions=p)
            err = np.array([abs(r["model_hit"] - r["measured_hit"]) for r in rows])
            out.append({"concurrent": c, "partitions": p, "mean": round(float(err.mean()), 2),
                        "worst": round(float(err.max()), 1)})
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--sweep" in argv:
        for r in sweep():
            print(f"concurrent {r['concurrent']:4d}  partitions {r['partitions']}  "
                  f"mean error {r['mean']:5.2f}  worst {r['worst']:5.1f}")
        return 0
    for r in compare_seed001():
        print(f"seed 001 {r['kernel']:22s} {r['shape']:16s} ncu {r['measured_hit']:5.1f} "
              f"model {r['model_hit']:5.1f}   DRAM {r['measured_dram'] / 1e6:6.0f} / "
              f"{r['model_dram'] / 1e6:6.0f} MB")
    rows = compare()
    err = np.array([abs(r["model_hit"] - r["measured_hit"]) for r in rows])
    print(f"{'run':20s} {'shape':18s} {'order':8s} {'ncu hit':>8s} {'model':>7s} "
          f"{'ncu DRAM MB':>12s} {'model':>8s}")
    for r in rows:
        print(f"{r['run']:20s} {r['shape']:18s} {r['order']:8s} {r['measured_hit']:8.1f} "
              f"{r['model_hit']:7.1f} {r['measured_dram'] / 1e6:12.0f} {r['model_dram'] / 1e6:8.0f}")
    print(f"hit rate: mean absolute error {err.mean():.2f} points, worst {err.max():.1f} "
          f"({len(rows)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
