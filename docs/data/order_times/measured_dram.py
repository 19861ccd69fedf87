"""Is the time model's worst error the L2 model's DRAM error? The H200's order tables
(fit and held-out halves) judged twice: with the L2 model's DRAM bytes (the model as it is),
and with the bytes ncu measured for the same runs (``l2_sweep_h200.csv``; each wave's
predicted reads scaled to the measured total, the fitted parameters unchanged). Errors of
each order's time relative to its problem's fastest, in points of %; the six worst runs.

    python3 docs/data/order_times/measured_dram.py     (output: measured_dram.txt)
"""
import numpy as np

from swizzlekit import compare_time as ct
from swizzlekit.cta.timing import kernel_time
from swizzlekit.data import path
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES
from swizzlekit.lab.records import L2SweepRow, read_csv

MEASURED = {r.key(): r for r in read_csv(path("l2_sweep_h200.csv"), L2SweepRow)}


def with_measured_dram(group) -> np.ndarray:
    out = []
    for r, p in group:
        s = MEASURED[r.key()]
        total = sum(p.per_wave_dram_read_bytes)
        f = s.dram_read_bytes / total if total else 1.0
        out.append(kernel_time(r.M, r.N, r.K, ELEM_BYTES[r.dtype],
                               [x * f for x in p.per_wave_dram_read_bytes], s.dram_write_bytes,
                               "h200"))
    return np.array(out)


for part in ("fit", "heldout"):
    predicted, measured, rows = [], [], []
    for group in ct._problems(ct.runs("h200", part)):
        m = np.array([r.ms for r, _ in group])
        e1 = np.abs((t := ct._times("h200", group)) / t.min() - m / m.min())
        e2 = np.abs((t := with_measured_dram(group)) / t.min() - m / m.min())
        predicted += list(e1)
        measured += list(e2)
        rows += [(a, b, r.shape, r.config, r.order, r.params_dict,
                  round(sum(p.per_wave_dram_read_bytes) / 1e6),
                  round(MEASURED[r.key()].dram_read_bytes / 1e6))
                 for (r, p), a, b in zip(group, e1, e2)]
    print(f"{part}: L2 model's DRAM: median {np.median(predicted) * 100:.1f} worst "
          f"{max(predicted) * 100:.1f} | ncu's DRAM: median {np.median(measured) * 100:.1f} "
          f"worst {max(measured) * 100:.1f}")
    for a, b, *rest in sorted(rows, key=lambda x: -x[0])[:6]:
        print(f"   {a * 100:.1f} -> {b * 100:.1f}  {rest[0]} {rest[1]} {rest[2]} {rest[3]}  "
              f"DRAM MB predicted {rest[4]}, measured {rest[5]}")
