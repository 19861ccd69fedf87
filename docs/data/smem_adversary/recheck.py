"""Re-solve every case the adversary (adversary.py: simulated annealing over bijections onto
the tile's storage, 6000 steps from the solver's own answer) beat, and count those it still
beats.

    python3 docs/data/smem_adversary/recheck.py
"""
import json, pathlib, time
from swizzlekit.smem import solve

cases = json.loads((pathlib.Path(__file__).parent / "cases.json").read_text())
beaten, slowest, gap, better = [], 0.0, 0, 0
for r in cases:
    start = time.perf_counter()
    sol = solve(r["rows"], r["cols"], r["eb"], r["acc"])
    slowest = max(slowest, time.perf_counter() - start)
    gap += sol.wavefronts - r["adv"]
    better += sol.wavefronts < r["adv"]
    if (r["adv"], r["rows"] * r["cols"]) < (sol.wavefronts, sol.storage):
        beaten.append((r["rows"], r["cols"], r["eb"], r["acc"], sol.wavefronts, r["adv"]))
print(f"still beaten {len(beaten)} of {len(cases)}; better than the adversary on {better}; "
      f"solver minus adversary, summed: {gap} wavefronts; slowest solve {slowest:.2f} s")
for b in beaten:
    print(b)
