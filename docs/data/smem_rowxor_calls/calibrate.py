"""The cost of one call of the row-XOR search's cost function, per tile size: the searches of
twelve solver problems (512 to 8192 elements), each timed with its calls counted, and a least
squares line through the microseconds a call. `families.ROW_XOR_CALL` and `ROW_XOR_WORK` come
from it (the 0.3 s the forms shared when they were timed, in calls).

    python3 docs/data/smem_rowxor_calls/calibrate.py > calibrate.txt     (on the CPU)
"""
import os
import platform
import time

import numpy as np

import swizzlekit.smem.families as fam
import swizzlekit.smem.rowxor as rx
from swizzlekit.smem import solve

CASES = [(64, 32, 4, ["block:2x16"], {"read": "ld.v4:col", "write": "cp.async:row"}),
         (8, 64, 8, ["row", "block:4x4", "block:8x2:vec=2"], {}),
         (64, 48, 2, ["col"], {}), (96, 24, 16, ["row", "col", "block:4x2"], {}),
         (80, 96, 2, ["block:8x8", "block:16x4"], {}),
         (128, 64, 1, ["col", "block:4x32:stride=3x1"], {}),
         (64, 40, 4, ["col", "block:8x4"], {}), (80, 32, 4, ["row", "col", "block:4x8"], {}),
         (48, 32, 4, ["row", "col", "block:4x8"], {}), (40, 16, 8, ["row", "col", "block:4x4"], {}),
         (64, 64, 2, ["row", "col"], {}), (128, 16, 4, ["col"], {})]
points = []
search = rx.search


def timed(rows, cols, cost, *args, **kwargs):
    calls = [0]

    def counted(layout):
        calls[0] += 1
        return cost(layout)

    start = time.perf_counter()
    found = search(rows, cols, counted, *args, **kwargs)
    points.append((rows * cols, calls[0], time.perf_counter() - start))
    return found


fam.row_xor_search = timed
for rows, cols, eb, accesses, ops in CASES:
    fam._solve.cache_clear()
    solve(rows, cols, eb, accesses, **ops)
elems = np.array([p[0] for p in points], dtype=float)
per_call = np.array([p[2] / max(p[1], 1) for p in points]) * 1e6
for (n, calls, secs), us in zip(points, per_call):
    print(f"{n:5d} elements: {calls:5d} calls in {secs:.3f} s, {us:.1f} us a call")
fixed, per_elem = np.linalg.lstsq(np.vstack([np.ones_like(elems), elems]).T, per_call,
                                  rcond=None)[0]
print(f"us a call = {fixed:.1f} + {per_elem:.4f} x elements; 0.3 s = "
      f"{0.3e6 / per_elem:,.0f} element-units, a call's overhead {fixed / per_elem:,.0f}")
print(platform.processor() or platform.machine(), os.cpu_count(), "cores", time.strftime("%F"))
