"""The time model (``swizzlekit.cta.timing``, fitted on the order-table kernel) against the
library's GEMM: each shape of ``h100/*_orders.jsonl`` simulated under its four orders for the
config ``order="auto"`` sizes the call for (``128x256x64/s3/w8`` in bf16, ``128x256x128/s3/w8``
in fp8, one CTA an SM), on the ``h100-sxm`` preset; each order's predicted time relative to
the shape's predicted fastest against its measured median relative to the measured fastest.
No GPU needed.

    python3 docs/data/bench/order_tiebreak/model_check.py > docs/data/bench/order_tiebreak/model_check.txt
"""
import json
from pathlib import Path

import numpy as np

from swizzlekit.cta.l2 import simulate
from swizzlekit.cta.orders import order
from swizzlekit.kernels.triton import choose
from swizzlekit.kernels.triton.matmul_configs import _order_pick
from swizzlekit.kernels.triton.scaled_configs import _order_pick as _scaled_pick

from probe import ORDERS          # the four orders the probe times

GPU = "h100-sxm"
HERE = Path(__file__).parent


def simulated(M: int, N: int, K: int, precision: str, gpu: str = GPU) -> tuple:
    """``(config, ctas, sims)``: the config ``order="auto"`` sizes an ``M x N x K`` call for on
    preset ``gpu`` (bf16 ``matmul`` or fp8 ``scaled_matmul``), its residency, and each probed
    order's L2 prediction for it (``time_s`` included)."""
    elem = 1 if precision == "fp8" else 2
    pick = (_scaled_pick(M, N, K, 2, True, False, gpu) if precision == "fp8"
            else _order_pick(2, M, N, K, "ieee", True, False, False, gpu))
    bm, bn, bk, stages, warps, _ = choose._parse(pick.config)
    ctas = choose._residency(bm, bn, bk, stages, warps, elem, 2, gpu)
    tm, tn = -(-M // bm), -(-N // bn)
    return pick.config, ctas, {
        n: simulate(M, N, K, order(o, tm, tn, **p), tile=(bm, bn, bk), elem_bytes=elem,
                    out_bytes=2, gpu=gpu, ctas_per_sm=ctas) for n, (o, p) in ORDERS.items()}


def check(path: Path, precision: str) -> None:
    errs = []
    print(f"{precision} ({path.name}): shape, config, then per order: measured / predicted "
          f"time over the fastest (%), predicted DRAM GB")
    for line in path.open():
        r = json.loads(line)
        M, N, K = r["shape"]
        config, ctas, sims = simulated(M, N, K, precision)
        best_pred = min(s.time_s for s in sims.values())
        best_meas = min(r["ms"].values())
        cells = []
        for n, s in sims.items():
            meas, pred = r["ms"][n] / best_meas - 1, s.time_s / best_pred - 1
            errs.append(abs(meas - pred))
            cells.append(f"{n} {meas * 100:5.1f}/{pred * 100:5.1f} {s.dram_read_bytes / 1e9:5.2f}")
        print(f"  {M}x{N}x{K} {config} ctas {ctas}: " + " | ".join(cells))
    errs = np.array(errs) * 100
    print(f"{precision}: {len(errs)} runs, error median {np.median(errs):.1f} points, worst "
          f"{errs.max():.1f}\n")


if __name__ == "__main__":
    check(HERE / "h100" / "matmul_orders.jsonl", "bf16")
    check(HERE / "h100" / "scaled_orders.jsonl", "fp8")
