"""Carry-over in the library GEMM's order tie-break passes (``docs/data/bench/order_tiebreak/``):
their turns were rotated by one over grouped(8), grouped(16), row, col, so grouped(8) ran
behind the column order in 3 of its 5 replicates and grouped(16) in 1. Per pass: the median
over shapes of each one's replicates behind the column order over its replicates behind
another run, where the column order ran more than 10% behind the fastest (heavy) and
elsewhere. No GPU; run from the repository root:
python3 docs/data/order_times/identical/tiebreak_carryover.py > .../tiebreak_carryover.txt
"""
import glob
import json
import statistics

from swizzlekit.lab.harness import rotated

for f in sorted(glob.glob("docs/data/bench/order_tiebreak/*/*_orders.jsonl")):
    ratios = {(n, h): [] for n in ("grouped8", "grouped16") for h in (True, False)}
    for line in open(f):
        d = json.loads(line)
        reps, names = d["replicates"], list(d["replicates"])
        assert names == ["grouped8", "grouped16", "row", "col"]
        behind, prev = {n: [] for n in names}, "start"
        for turn in range(len(reps["grouped8"])):
            for n in rotated(names, turn):
                behind[n].append(prev)
                prev = n
        heavy = d["ms"]["col"] > 1.10 * min(d["ms"].values())
        for n in ("grouped8", "grouped16"):
            col = [t for t, p in zip(reps[n], behind[n]) if p == "col"]
            other = [t for t, p in zip(reps[n], behind[n]) if p not in ("col", "start")]
            if col and other:
                ratios[(n, heavy)].append(statistics.median(col) / statistics.median(other))
    print(f.split("order_tiebreak/")[1] + ": " + "; ".join(
        f"{n} {'heavy' if h else 'light'} {statistics.median(v):.3f} (n={len(v)})"
        for (n, h), v in ratios.items() if v))
